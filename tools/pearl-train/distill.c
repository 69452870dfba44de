/* A teacher policy's decisions as distributions to imitate (distill.h). */
#include <math.h>
#include <stdio.h>

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
