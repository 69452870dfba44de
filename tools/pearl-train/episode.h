/*
 * episode.h - one episode of Pearl's agent on a program of the execution
 * environment, with the rewards of the Pearl paper (section 4.3): each
 * applied action's reward is log4 of the speedup it brought (the time of
 * the schedule before it over the time after it); N gets 0. The time of a
 * schedule prefix comes from pearl_env_time (memoized), so an episode of k
 * actions asks the environment for k schedules.
 *
 * Shared by pearl-train (sampling, recording PPO steps) and pearl-eval
 * (greedy, final schedule only).
 */
#ifndef PEARL_TRAIN_EPISODE_H
#define PEARL_TRAIN_EPISODE_H

#include "pearl/agent.h"
#include "pearl/env.h"
#include "pearl/ppo.h"

#define EPISODE_SCHEDULE_MAX 2048

/* How rewards are given. */
enum episode_reward {
	EPISODE_REWARD_STEP,   /* every action: log4(t_before / t_after) */
	EPISODE_REWARD_FINAL   /* only the last action: log4(t_base / t_final);
				* one environment query per episode */
};

struct episode_result {
	char schedule[EPISODE_SCHEDULE_MAX]; /* the applied actions, "N"
					      * between branches */
	int n_actions;        /* applied actions (N excluded) */
	int n_decisions;      /* recorded decisions (forced N excluded) */
	double base_seconds;
	double final_seconds; /* of the whole schedule (base if empty) */
	double speedup;       /* base / final; 1 if the final schedule did
			       * not run (see status) */
	enum pearl_env_status status; /* of the final schedule */
	double reward;        /* sum of the rewards */
	int memo_hits, queries;
};

/* Runs the agent (`policy` and `opts` kept; opts->observe is replaced) on a
 * fresh model of `p` and times what it applies. If `batch` is not NULL,
 * every decision is appended to it (graph, mask, action, log-probability,
 * value, reward; episode_end on the last one); otherwise with `mode` FINAL
 * only the final schedule is timed. Returns 0, or -1 with a message in err
 * (environment errors, a program that cannot be modeled). */
int episode_run(pearl_env *env, pearl_env_program *p,
		const pearl_policy *policy,
		const struct pearl_agent_options *opts,
		enum episode_reward mode, struct pearl_ppo_batch *batch,
		struct episode_result *res, char *err, size_t err_size);

/* Times a given schedule string of p into res (schedule, speedup, status;
 * no rewards). Returns 0 or -1 with a message. */
int episode_time_schedule(pearl_env *env, pearl_env_program *p,
			  const char *schedule, struct episode_result *res,
			  char *err, size_t err_size);

#endif
