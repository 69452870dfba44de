/* One episode of the agent with rewards from the environment (episode.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "episode.h"
#include "pearl/action_space.h"
#include "pearl/grow.h"
#include "pearl/str.h"
#include "pearl/train.h"

/* What the observer records of one decision. */
struct decision {
	struct pearl_graph *graph;
	unsigned char mask[PEARL_PPO_MAX_ACTIONS];
	int action;
	float logp, value;
};

struct recorder {
	struct decision *d;
	int n, cap;
	int record_graphs;
};

static int observe(void *user, const struct pearl_graph *graph,
		   const unsigned char *mask,
		   const struct pearl_agent_step *step)
{
	struct recorder *r = user;
	struct decision *d;

	if (step->forced)
		return 0; /* not the policy's choice */
	if (pearl_grow(&r->d, &r->cap, r->n + 1, sizeof(*r->d)) < 0)
		return -1;
	d = &r->d[r->n];
	memset(d, 0, sizeof(*d));
	if (r->record_graphs) {
		d->graph = pearl_graph_copy(graph);
		if (!d->graph)
			return -1;
		memcpy(d->mask, mask, PEARL_ACTION_SPACE_SIZE);
	}
	d->action = step->action;
	d->logp = step->prob > 0 ? logf(step->prob) : -INFINITY;
	d->value = step->value;
	r->n++;
	return 0;
}

static void recorder_clear(struct recorder *r)
{
	int i;

	for (i = 0; i < r->n; ++i)
		pearl_graph_free(r->d[i].graph);
	free(r->d);
	memset(r, 0, sizeof(*r));
}

/* Appends " TOKEN" (or "TOKEN" at the start) to buf; -1 if it is full. */
static int append(char *buf, const char *token)
{
	size_t len = strlen(buf), add = strlen(token) + (len ? 1 : 0);

	if (len + add + 1 > EPISODE_SCHEDULE_MAX)
		return -1;
	if (len)
		buf[len++] = ' ';
	strcpy(buf + len, token);
	return 0;
}

static int failed(enum pearl_env_status s)
{
	return s != PEARL_ENV_OK;
}

/* The reward for going from t_before to the outcome r. A schedule that
 * does not run as it should (timeout, wrong output, failure) costs as
 * much as a slowdown by 4^1.5 = 8 (the default timeout factor). */
static double reward_of(double t_before, const struct pearl_env_result *r)
{
	if (r->status == PEARL_ENV_ILLEGAL)
		return 0; /* not applied (cannot happen: the agent applied it) */
	if (failed(r->status))
		return -1.5;
	return log(t_before / r->seconds) / log(4.0);
}

static int query(pearl_env *env, pearl_env_program *p, const char *schedule,
		 struct pearl_env_result *r, struct episode_result *res,
		 char *err, size_t err_size)
{
	if (pearl_env_time(env, p, schedule, r, err, err_size) < 0)
		return -1;
	res->queries++;
	res->memo_hits += r->memo_hit;
	return 0;
}

int episode_time_schedule(pearl_env *env, pearl_env_program *p,
			  const char *schedule, struct episode_result *res,
			  char *err, size_t err_size)
{
	struct pearl_env_result r;

	memset(res, 0, sizeof(*res));
	snprintf(res->schedule, sizeof(res->schedule), "%s", schedule);
	if (query(env, p, schedule, &r, res, err, err_size) < 0)
		return -1;
	res->base_seconds = r.base_seconds;
	res->status = r.status;
	res->final_seconds = r.status == PEARL_ENV_OK ? r.seconds
						      : r.base_seconds;
	res->speedup = r.status == PEARL_ENV_OK ? r.speedup : 1.0;
	return 0;
}

/* The base time of `p`, the outcome until an action is timed. */
static int episode_base(pearl_env *env, pearl_env_program *p,
			struct episode_result *res, char *err, size_t err_size)
{
	struct pearl_env_result r;

	if (query(env, p, "", &r, res, err, err_size) < 0)
		return -1;
	res->base_seconds = r.base_seconds;
	res->final_seconds = res->base_seconds;
	res->status = PEARL_ENV_OK;
	res->speedup = 1.0;
	return 0;
}

/* Appends the `*pending_next` "N"s not yet written and `action` to
 * `schedule`; -1 if it is full. */
static int schedule_append(char *schedule, int *pending_next, int action)
{
	struct pearl_action a;
	char token[64];

	for (; *pending_next > 0; --*pending_next)
		if (append(schedule, "N") < 0)
			return -1;
	pearl_action_space_decode(action, &a);
	pearl_action_format(&a, token, sizeof(token));
	return append(schedule, token);
}

/* Reports that the schedule of program `p` does not fit an
 * episode_result's; returns -1. */
static int schedule_too_long(pearl_env_program *p, char *err,
			     size_t err_size)
{
	snprintf(err, err_size, "%s: schedule longer than %d characters",
		 pearl_env_program_name(p), EPISODE_SCHEDULE_MAX);
	return -1;
}

/* The schedule of the recorded decisions in res, and their rewards: with
 * EPISODE_REWARD_STEP, each applied action's from the time of the
 * schedule prefix it ends (up to the first that fails: later prefixes
 * contain the failure); with EPISODE_REWARD_FINAL, the last applied
 * action's from the whole schedule's. If the rule of uniform parallelism
 * changed the episode, `final` (else NULL) is the schedule it applied:
 * it becomes res's schedule, and the last applied action's reward is
 * from its time (FINAL) or also has the step from the policy's schedule
 * to it (STEP). Returns -1 with a message in err on failure. */
static int episode_rewards(pearl_env *env, pearl_env_program *p,
			   const struct recorder *rec, enum episode_reward mode,
			   const char *final, double *reward,
			   struct episode_result *res, char *err,
			   size_t err_size)
{
	struct pearl_env_result r;
	double t_before = res->base_seconds;
	int i, pending_next = 0, broken = 0, last_applied = -1;

	for (i = 0; i < rec->n; ++i) {
		if (rec->d[i].action == PEARL_ACTION_NEXT) {
			++pending_next;
			continue;
		}
		if (schedule_append(res->schedule, &pending_next,
				    rec->d[i].action) < 0)
			return schedule_too_long(p, err, err_size);
		res->n_actions++;
		last_applied = i;
		if (mode != EPISODE_REWARD_STEP || broken)
			continue;
		if (query(env, p, res->schedule, &r, res, err, err_size) < 0)
			return -1;
		reward[i] = reward_of(t_before, &r);
		res->status = r.status;
		broken = failed(r.status);
		if (!broken)
			t_before = res->final_seconds = r.seconds;
	}
	if (final && last_applied >= 0 &&
	    (mode == EPISODE_REWARD_FINAL || !broken)) {
		if (strlen(final) >= sizeof(res->schedule))
			return schedule_too_long(p, err, err_size);
		snprintf(res->schedule, sizeof(res->schedule), "%s", final);
		if (query(env, p, res->schedule, &r, res, err, err_size) < 0)
			return -1;
		reward[last_applied] +=
		    reward_of(mode == EPISODE_REWARD_STEP ? t_before
							  : res->base_seconds,
			      &r);
		res->status = r.status;
		if (!failed(r.status))
			res->final_seconds = r.seconds;
		return 0;
	}
	if (mode == EPISODE_REWARD_FINAL && last_applied >= 0) {
		if (query(env, p, res->schedule, &r, res, err, err_size) < 0)
			return -1;
		reward[last_applied] = reward_of(res->base_seconds, &r);
		res->status = r.status;
		if (!failed(r.status))
			res->final_seconds = r.seconds;
	}
	return 0;
}

/* The recorded decisions and their rewards as steps of `batch` (which
 * takes their graphs). */
static int episode_to_batch(struct pearl_ppo_batch *batch, struct recorder *rec,
			    const double *reward, char *err, size_t err_size)
{
	int i;

	for (i = 0; i < rec->n; ++i) {
		struct decision *d = &rec->d[i];
		struct pearl_ppo_step *s;

		if (pearl_ppo_batch_add(batch, d->graph, d->mask, d->action,
					d->logp, d->value) < 0) {
			d->graph = NULL;
			snprintf(err, err_size, "out of memory");
			return -1;
		}
		d->graph = NULL; /* the batch has it */
		s = &batch->steps[batch->n_steps - 1];
		s->reward = (float)reward[i];
		s->episode_end = i == rec->n - 1;
	}
	return 0;
}

/* The schedule the episode of `trace` (kept) applied, in Pearl's notation
 * (malloc'd), or NULL if memory is exhausted. */
static char *final_schedule(const struct pearl_agent_trace *trace)
{
	struct pearl_action *actions = NULL;
	pearl_str out = PEARL_STR_INIT;
	int n = pearl_agent_trace_actions(trace, &actions);

	if (n >= 0)
		pearl_actions_format(&out, actions, n);
	free(actions);
	return n >= 0 ? pearl_str_take(&out) : NULL;
}

int episode_run(pearl_env *env, pearl_env_program *p,
		const pearl_policy *policy,
		const struct pearl_agent_options *opts,
		enum episode_reward mode, struct pearl_ppo_batch *batch,
		struct episode_result *res, char *err, size_t err_size)
{
	struct pearl_agent_options o = *opts;
	struct pearl_agent_trace trace;
	struct recorder rec;
	double *reward = NULL;
	char *final = NULL;
	int i, rc = -1;
	pearl_sched *sched;

	memset(res, 0, sizeof(*res));
	memset(&rec, 0, sizeof(rec));
	memset(&trace, 0, sizeof(trace));
	rec.record_graphs = batch != NULL;
	sched = pearl_env_program_sched(p, err, err_size);
	if (!sched)
		return -1;
	o.observe = observe;
	o.observe_user = &rec;
	if (pearl_agent_run(sched, policy, &o, &trace) != pearl_stat_ok) {
		snprintf(err, err_size, "%s: the agent failed",
			 pearl_env_program_name(p));
		goto out;
	}
	if (episode_base(env, p, res, err, err_size) < 0)
		goto out;
	reward = calloc(rec.n > 0 ? rec.n : 1, sizeof(*reward));
	if (!reward) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (trace.n_uniform_loops > 0) {
		final = final_schedule(&trace);
		if (!final) {
			snprintf(err, err_size, "out of memory");
			goto out;
		}
	}
	if (episode_rewards(env, p, &rec, mode, final, reward, res, err,
			    err_size) < 0)
		goto out;
	if (res->status == PEARL_ENV_OK)
		res->speedup = res->base_seconds / res->final_seconds;
	for (i = 0; i < rec.n; ++i)
		res->reward += reward[i];
	res->n_decisions = rec.n;
	if (batch && episode_to_batch(batch, &rec, reward, err, err_size) < 0)
		goto out;
	rc = 0;
out:
	free(final);
	free(reward);
	recorder_clear(&rec);
	pearl_agent_trace_clear(&trace);
	pearl_sched_free(sched);
	return rc;
}
