/* A teacher policy's decisions as distributions to imitate (distill.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "distill.h"
#include "teacher.h"
#include "pearl/train.h"

/* The teacher's distribution on step k at `temperature` into its target.
 * 0, or -1 with a message in err. */
static int set_distribution(struct pearl_ppo_batch *batch, int k,
			    const pearl_policy *teacher, float temperature,
			    char *err, size_t err_size)
{
	const struct pearl_ppo_step *s = &batch->steps[k];
	float logits[PEARL_PPO_MAX_ACTIONS], logp[PEARL_PPO_MAX_ACTIONS];
	float probs[PEARL_PPO_MAX_ACTIONS], value;
	int i, n = batch->n_actions;

	if (pearl_policy_eval(teacher, s->graph, logits, &value, err,
			      err_size) < 0)
		return -1;
	for (i = 0; i < n; ++i)
		logits[i] /= temperature;
	if (pearl_masked_log_softmax(logp, logits, s->mask, n) < 0) {
		snprintf(err, err_size, "distill: the teacher's logits are "
					"not finite or the mask is empty");
		return -1;
	}
	for (i = 0; i < n; ++i)
		probs[i] = s->mask[i] ? 0.0f : expf(logp[i]);
	if (pearl_ppo_step_set_target(batch, k, probs) < 0) {
		snprintf(err, err_size, "distill: out of memory");
		return -1;
	}
	return 0;
}

int distill_record(pearl_env_program *p, const char *schedule,
		   const pearl_policy *teacher, float temperature, float weight,
		   struct pearl_ppo_batch *batch, char *err, size_t err_size)
{
	int first = batch->n_steps, k, r;

	r = teacher_record(p, schedule, batch, err, err_size);
	for (k = first; r > 0 && k < batch->n_steps; ++k) {
		batch->steps[k].weight = weight;
		if (set_distribution(batch, k, teacher, temperature, err,
				     err_size) < 0)
			r = -1;
	}
	if (r < 0) /* drop what this schedule recorded */
		pearl_ppo_batch_truncate(batch, first);
	return r;
}

/* The observer of distill_rollout: every decision of the actor (forced
 * ones excepted) becomes a step of the batch. */
struct rollout {
	struct pearl_ppo_batch *batch;
	int failed; /* out of memory */
};

static int observe(void *user, const struct pearl_graph *graph,
		   const unsigned char *mask,
		   const struct pearl_agent_step *step)
{
	struct rollout *r = user;
	struct pearl_graph *g;

	if (step->forced)
		return 0; /* not the actor's choice */
	g = pearl_graph_copy(graph); /* the batch takes it, even on failure */
	if (!g ||
	    pearl_ppo_batch_add(r->batch, g, mask, step->action, 0, 0) < 0) {
		r->failed = 1;
		return -1;
	}
	return 0;
}

int distill_rollout(pearl_env_program *p, const pearl_policy *actor,
		    const struct pearl_agent_options *opts,
		    const pearl_policy *teacher, float temperature,
		    float weight, struct pearl_ppo_batch *batch, char *err,
		    size_t err_size)
{
	struct pearl_agent_options o = *opts;
	struct pearl_agent_trace trace;
	struct rollout r = {batch, 0};
	int first = batch->n_steps, k, rc = -1;
	pearl_sched *sched = pearl_env_program_sched(p, err, err_size);

	if (!sched)
		return -1;
	memset(&trace, 0, sizeof(trace));
	o.observe = observe;
	o.observe_user = &r;
	o.critic = NULL;
	o.uniform_parallel = 0; /* only the decisions are recorded */
	o.fill_parallel = 0;
	if (pearl_agent_run(sched, actor, &o, &trace) != pearl_stat_ok) {
		snprintf(err, err_size, "distill: %s: %s",
			 pearl_env_program_name(p),
			 r.failed ? "out of memory" : "the agent failed");
		goto out;
	}
	for (k = first; k < batch->n_steps; ++k) {
		batch->steps[k].weight = weight;
		if (set_distribution(batch, k, teacher, temperature, err,
				     err_size) < 0)
			goto out;
	}
	if (batch->n_steps > first)
		batch->steps[batch->n_steps - 1].episode_end = 1;
	rc = batch->n_steps - first;
out:
	if (rc < 0) /* drop what this episode recorded */
		pearl_ppo_batch_truncate(batch, first);
	pearl_agent_trace_clear(&trace);
	pearl_sched_free(sched);
	return rc;
}
