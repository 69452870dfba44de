/* Decisions that lead the agent to a schedule (teacher.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teacher.h"
#include "pearl/action_space.h"
#include "pearl/agent.h"
#include "pearl/features.h"

/* Records one decision of branch b: its graph, mask and action `id`. 1 if
 * recorded, 0 if the mask excludes id, -1 on errors. */
static int record(pearl_sched *sched, int b,
		  const struct pearl_branch_state *state, int id,
		  struct pearl_ppo_batch *batch, char *err, size_t err_size)
{
	struct pearl_graph *g = pearl_graph_build(sched, b);
	unsigned char mask[PEARL_ACTION_SPACE_SIZE];

	if (!g || pearl_agent_mask(sched, b, state, g, mask) < 0) {
		pearl_graph_free(g);
		snprintf(err, err_size, "teacher: no graph or mask");
		return -1;
	}
	if (mask[id]) {
		pearl_graph_free(g);
		return 0;
	}
	if (pearl_ppo_batch_add(batch, g, mask, id, 0, 0) < 0) {
		snprintf(err, err_size, "teacher: out of memory");
		return -1;
	}
	return 1;
}

int teacher_record(pearl_env_program *p, const char *schedule,
		   struct pearl_ppo_batch *batch, char *err, size_t err_size)
{
	pearl_sched *sched = pearl_env_program_sched(p, err, err_size);
	struct pearl_action *actions = NULL;
	struct pearl_branch_state state;
	int first = batch->n_steps, n, n_branch, i, b = 0, r = -1;
	pearl_ctx *ctx;

	if (!sched)
		return -1;
	ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	n_branch = pearl_sched_n_branch(sched);
	n = pearl_actions_parse(ctx, schedule, &actions);
	if (n < 0 || n_branch < 0) {
		snprintf(err, err_size, "teacher: %s", pearl_ctx_last_error(ctx));
		goto out;
	}
	pearl_sched_set_explain(sched, 0);
	pearl_branch_state_init(&state);
	for (i = 0; i <= n && b < n_branch; ++i) {
		int next = i == n || actions[i].kind == pearl_action_next;
		int id = next ? PEARL_ACTION_NEXT
			      : pearl_action_space_encode(&actions[i]);

		if (id < 0) {
			snprintf(err, err_size, "teacher: an action outside "
						"the action space");
			r = 0;
			goto out;
		}
		r = record(sched, b, &state, id, batch, err, err_size);
		if (r <= 0) {
			if (r == 0)
				snprintf(err, err_size, "teacher: action %d "
					 "masked on branch %d", id, b);
			goto out;
		}
		if (next) {
			++b;
			pearl_branch_state_init(&state);
			if (i == n) /* N on the branches left alone */
				--i;
			continue;
		}
		if (pearl_sched_apply(sched, b, &actions[i]) != pearl_stat_ok) {
			snprintf(err, err_size, "teacher: refused: %s",
				 pearl_ctx_last_error(ctx));
			pearl_ctx_clear_error(ctx);
			r = 0;
			goto out;
		}
		pearl_branch_state_applied(&state, id);
	}
	if (i < n) {
		snprintf(err, err_size, "teacher: actions beyond the last "
					"branch");
		r = 0;
		goto out;
	}
	r = batch->n_steps - first;
	if (r > 0)
		batch->steps[batch->n_steps - 1].episode_end = 1;
out:
	if (r <= 0) /* drop what this schedule recorded */
		pearl_ppo_batch_truncate(batch, first);
	free(actions);
	pearl_sched_free(sched);
	return r;
}
