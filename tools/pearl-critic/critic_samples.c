/* The critic's samples from memo answers (critic_samples.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "critic_samples.h"
#include "pearl/features.h"
#include "pearl/transform.h"

void critic_samples_clear(struct critic_samples *s)
{
	int i;

	for (i = 0; i < s->n; ++i)
		pearl_graph_free(s->graphs[i]);
	for (i = 0; i < s->n_programs; ++i)
		free(s->programs[i].name);
	free(s->graphs);
	free(s->targets);
	free(s->programs);
	memset(s, 0, sizeof(*s));
}

/* Room for one more sample and one more program; 0, or -1. */
static int reserve(struct critic_samples *s)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 256;
		struct pearl_graph **g = realloc(s->graphs, cap * sizeof(*g));
		float *t;

		if (!g)
			return -1;
		s->graphs = g;
		t = realloc(s->targets, cap * sizeof(*t));
		if (!t)
			return -1;
		s->targets = t;
		s->cap = cap;
	}
	if (s->n_programs == s->cap_programs) {
		int cap = s->cap_programs ? 2 * s->cap_programs : 64;
		struct critic_program *p =
		    realloc(s->programs, cap * sizeof(*p));

		if (!p)
			return -1;
		s->programs = p;
		s->cap_programs = cap;
	}
	return 0;
}

/* The graph of `schedule` applied to a copy of `base` (kept), no branch in
 * focus (__isl_give); NULL with *stale set if the schedule no longer
 * applies, NULL with *stale clear on errors (a message in err). */
static struct pearl_graph *schedule_graph(pearl_sched *base,
					  const char *schedule, int *stale,
					  char *err, size_t err_size)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(base));
	struct pearl_action *actions = NULL;
	struct pearl_graph *g = NULL;
	pearl_sched *sched;
	int n, i, moves = 0;

	*stale = 0;
	/* each schedule gets the context's whole operations quota, as in the
	 * pass (a program's hundreds of schedules would otherwise share it:
	 * polybench-nussinov's ran out) */
	pearl_ctx_reset_operations(ctx);
	n = pearl_actions_parse(ctx, schedule, &actions);
	if (n < 0) {
		pearl_ctx_clear_error(ctx);
		*stale = 1;
		return NULL;
	}
	for (i = 0; i < n; ++i)
		moves += actions[i].kind != pearl_action_next;
	sched = pearl_sched_copy(base);
	if (!sched) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (pearl_sched_apply_sequence(sched, actions, n, NULL, NULL) <
	    moves) {
		pearl_ctx_clear_error(ctx);
		*stale = 1;
		goto out;
	}
	g = pearl_graph_build(sched, -1);
	if (!g)
		snprintf(err, err_size, "no graph for \"%s\": %s", schedule,
			 pearl_ctx_last_error(ctx) ? pearl_ctx_last_error(ctx)
						   : "(no message)");
out:
	pearl_sched_free(sched);
	free(actions);
	return g;
}

/* The base time among rows: the unscheduled program's OK answer, or 0. */
static double base_seconds(const struct pearl_env_memo_result *rows, int n)
{
	int i;

	for (i = 0; i < n; ++i)
		if (!rows[i].schedule[0] && rows[i].status == PEARL_ENV_OK)
			return rows[i].seconds;
	return 0;
}

/* Appends the sample (graph taken, target) to s->graphs; 0, or -1 (the
 * graph is freed). */
static int push(struct critic_samples *s, struct pearl_graph *g,
		float target)
{
	if (reserve(s) < 0) {
		pearl_graph_free(g);
		return -1;
	}
	s->graphs[s->n] = g;
	s->targets[s->n++] = target;
	return 0;
}

/* Drops the samples from `first` on. */
static void truncate_to(struct critic_samples *s, int first)
{
	while (s->n > first)
		pearl_graph_free(s->graphs[--s->n]);
}

int critic_samples_add(struct critic_samples *s, pearl_env_program *p,
		       const struct pearl_env_memo_result *rows, int n_rows,
		       char *err, size_t err_size)
{
	double base = base_seconds(rows, n_rows);
	pearl_sched *sched;
	struct critic_program *prog;
	int first = s->n, i, stale = 0;
	float best;

	if (!(base > 0))
		return 0;
	sched = pearl_env_program_sched(p, err, err_size);
	if (!sched)
		return -1;
	pearl_sched_set_explain(sched, 0);
	for (i = 0; i <= n_rows; ++i) {
		/* i == n_rows: the unscheduled program */
		const char *text = i < n_rows ? rows[i].schedule : "";
		struct pearl_graph *g;
		int gone;

		if (i < n_rows && (!text[0] || !(rows[i].seconds > 0)))
			continue;
		g = schedule_graph(sched, text, &gone, err, err_size);
		if (!g && !gone)
			goto fail;
		if (!g) {
			++stale;
			continue;
		}
		if (push(s, g, i < n_rows ? (float)log2(base / rows[i].seconds)
					  : 0.0f) < 0) {
			snprintf(err, err_size, "out of memory");
			goto fail;
		}
	}
	pearl_sched_free(sched);
	s->stale += stale;
	if (s->n - first < 3) { /* the base and fewer than two schedules */
		truncate_to(s, first);
		return 0;
	}
	if (reserve(s) < 0 || !(s->programs[s->n_programs].name =
				    strdup(pearl_env_program_name(p)))) {
		truncate_to(s, first);
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	prog = &s->programs[s->n_programs++];
	prog->first = first;
	prog->n = s->n - first;
	best = s->targets[first];
	for (i = first; i < s->n; ++i)
		if (s->targets[i] > best)
			best = s->targets[i];
	prog->best = best;
	return prog->n;
fail:
	pearl_sched_free(sched);
	truncate_to(s, first);
	return -1;
}
