/* The search nest by nest (search_internal.h): each top-level loop nest
 * of the program searched on its own, then the composition of their
 * best schedules. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/clock.h"
#include "pearl/loop_tree.h"
#include "pearl/options.h"
#include "search_internal.h"

int pearl_search_nests_option(const char *value, void *dest)
{
	enum pearl_search_nests *nests = dest;

	if (!value || !strcmp(value, "each"))
		*nests = pearl_search_nests_each;
	else if (!strcmp(value, "whole"))
		*nests = pearl_search_nests_whole;
	else if (!strcmp(value, "both"))
		*nests = pearl_search_nests_both;
	else
		return pearl_option_bad_value;
	return pearl_option_ok;
}

int search_nests(pearl_sched *sched, int *first, int cap)
{
	pearl_loop_tree *tree = pearl_sched_peek_loop_tree(sched);
	int i, n = 0, b = 0, last_top = -1;

	if (!tree)
		return -1;
	for (i = 0; i < tree->n_nodes; ++i) {
		int top = i;

		if (tree->nodes[i].kind != pearl_node_stmt)
			continue;
		while (top > 0 && tree->nodes[top].parent > 0)
			top = tree->nodes[top].parent;
		if (top != last_top) {
			if (n < cap)
				first[n] = b;
			n++;
			last_top = top;
		}
		b++;
	}
	return n;
}

/* The number of tokens "N" in the schedule text `t` (kept). */
static int count_next(const char *t)
{
	int n = 0;

	for (; *t; ++t)
		n += *t == 'N' && (t[1] == ' ' || !t[1]);
	return n;
}

/* The text of `t` (kept) after its first `skip` tokens, all N (a nest's
 * schedule from the root's N to its first branch), or NULL if it does
 * not start so. */
static const char *after_skips(const char *t, int skip)
{
	for (; skip > 0; --skip) {
		if (t[0] != 'N' || (t[1] && t[1] != ' '))
			return NULL;
		t += t[1] ? 2 : 1;
	}
	return t;
}

char *search_compose_nests(char *const *best, const int *first, int n)
{
	pearl_str out = PEARL_STR_INIT;
	int focus = 0, k;

	for (k = 0; k < n; ++k) {
		const char *body = best[k] ? after_skips(best[k], first[k])
					   : NULL;

		/* a copy (K) adds statements, hence branches, and would shift
		 * the later nests' first branches: such a nest is left out */
		if (!body || !*body || strstr(body, "K("))
			continue;
		search_append_next(&out, first[k] - focus);
		if (out.len)
			pearl_str_append(&out, " ");
		pearl_str_append(&out, body);
		focus = first[k] + count_next(body);
	}
	return pearl_str_take(&out);
}

/* Adds the counters of the nest search `nest` to `r`. */
static void add_counts(struct pearl_search_result *r,
		       const struct pearl_search_result *nest)
{
	r->levels += nest->levels;
	r->measured += nest->measured;
	r->memo_hits += nest->memo_hits;
	r->illegal += nest->illegal;
	r->failed += nest->failed;
	r->wrong_outputs += nest->wrong_outputs;
	r->quota += nest->quota;
	r->skipped += nest->skipped;
	r->clustered_levels += nest->clustered_levels;
	r->seconds += nest->seconds;
}

/* The top-level nests of the model of `p`: their number (first[] their
 * first branches, at most cap), or -1 with a message in err. */
static int program_nests(pearl_env_program *p, int *first, int cap,
			 char *err, size_t err_size)
{
	pearl_sched *sched = pearl_env_program_sched(p, err, err_size);
	int n;

	if (!sched)
		return -1;
	n = search_nests(sched, first, cap);
	if (n < 0)
		snprintf(err, err_size, "search: no loop tree of the program");
	pearl_sched_free(sched);
	return n;
}

/* The progress of one stage of the search nest by nest, passed on to the
 * caller's callback as part of the whole: the counts of the stages before
 * it added, and the stage named. */
struct stage_progress {
	const struct pearl_search_options *o; /* the caller's (kept) */
	struct pearl_search_result done;      /* the stages before */
	double start;                         /* of the first stage */
	char name[32];
};

static int stage_report(void *user, const struct pearl_search_progress *pr)
{
	struct stage_progress *sp = user;
	struct pearl_search_progress all = *pr;

	all.measured += sp->done.measured;
	all.memo_hits += sp->done.memo_hits;
	all.illegal += sp->done.illegal;
	all.failed += sp->done.failed;
	all.wrong_outputs += sp->done.wrong_outputs;
	all.elapsed = pearl_now() - sp->start;
	all.seconds_left = sp->o->max_seconds > 0
			       ? sp->o->max_seconds - all.elapsed
			       : -1;
	all.stage = sp->name;
	return sp->o->progress(sp->o->progress_user, &all);
}

/* Runs stage `name` of the search (branches first..last, options `so`),
 * its progress reported through sp, its counts added to sp->done. 0, or
 * -1 with a message in err (*r cleared). */
static int run_stage(pearl_env *env, pearl_env_program *p,
		     struct pearl_search_options *so, int first, int last,
		     struct stage_progress *sp, const char *name,
		     struct pearl_search_result *r, char *err, size_t err_size)
{
	snprintf(sp->name, sizeof(sp->name), "%s", name);
	if (sp->o->progress) {
		so->progress = stage_report;
		so->progress_user = sp;
	}
	if (search_run_branches(env, p, so, first, last, r, err,
				err_size) < 0) {
		pearl_search_result_clear(r);
		return -1;
	}
	add_counts(&sp->done, r);
	return 0;
}

/* With o->nests both: the whole program searched first, on half the
 * budget and of the time, without confirmation; its best (malloc'd, or
 * NULL) in *best. 0, or -1 with a message in err. */
static int search_whole_first(pearl_env *env, pearl_env_program *p,
			      const struct pearl_search_options *o,
			      struct stage_progress *sp, char **best,
			      char *err, size_t err_size)
{
	struct pearl_search_options whole_o = *o;
	struct pearl_search_result whole;

	*best = NULL;
	whole_o.nests = pearl_search_nests_whole;
	whole_o.confirm = 0;
	whole_o.max_measurements = o->max_measurements / 2;
	whole_o.max_seconds = o->max_seconds / 2;
	if (run_stage(env, p, &whole_o, 0, INT_MAX, sp, "whole", &whole, err,
		      err_size) < 0)
		return -1;
	*best = whole.best_schedule; /* taken */
	return 0;
}

/* Shares what `done` left of o's budget and time evenly among the n nests'
 * searches, into nest_o: the last stage measures the policy's decision,
 * the composition, the n nests' bests and the whole search's, and keeps
 * n + 3 measurements. Each nest gets at least one measurement, and a
 * moment if the time is up (a limit of 0 would mean none). */
static void share_rest(const struct pearl_search_options *o,
		       const struct pearl_search_result *done, int n,
		       struct pearl_search_options *nest_o)
{
	long left = o->max_measurements - done->measured - n - 3;

	nest_o->max_measurements = left / n > 1 ? left / n : 1;
	nest_o->max_seconds = 0;
	if (o->max_seconds > 0)
		nest_o->max_seconds =
		    fmax((o->max_seconds - done->seconds) / n, 1e-3);
}

int search_run_nests(pearl_env *env, pearl_env_program *p,
		     const struct pearl_search_options *o,
		     struct pearl_search_result *r, char *err,
		     size_t err_size)
{
	struct pearl_search_options nest_o = *o, last_o = *o;
	struct stage_progress sp;
	int first[SEARCH_MAX_NESTS + 1], n, k, n_seeds = 0, rc = -1;
	char *best[SEARCH_MAX_NESTS] = {NULL}, *composed = NULL;
	char *whole_best = NULL;
	const char **seeds = NULL;

	memset(r, 0, sizeof(*r));
	n = program_nests(p, first, SEARCH_MAX_NESTS, err, err_size);
	if (n < 0)
		return -1;
	if (n <= 1 || n > SEARCH_MAX_NESTS)
		return search_run_branches(env, p, o, 0, INT_MAX, r, err,
					   err_size);
	memset(&sp, 0, sizeof(sp));
	sp.o = o;
	sp.start = pearl_now();
	if (o->nests == pearl_search_nests_both &&
	    search_whole_first(env, p, o, &sp, &whole_best, err,
			       err_size) < 0)
		return -1;
	first[n] = INT_MAX;
	nest_o.nests = pearl_search_nests_whole;
	nest_o.seed_policy = 0;
	nest_o.seeds = NULL;
	nest_o.n_seeds = 0;
	nest_o.confirm = 0;
	share_rest(o, &sp.done, n, &nest_o);
	for (k = 0; k < n; ++k) {
		struct pearl_search_result one;
		char name[32];

		snprintf(name, sizeof(name), "nest %d/%d", k + 1, n);
		if (run_stage(env, p, &nest_o, first[k], first[k + 1] - 1, &sp,
			      name, &one, err, err_size) < 0)
			goto out;
		best[k] = one.best_schedule; /* taken */
	}
	composed = search_compose_nests(best, first, n);
	seeds = malloc((o->n_seeds + n + 2) * sizeof(*seeds));
	if (!composed || !seeds) {
		snprintf(err, err_size, "search: out of memory");
		goto out;
	}
	for (k = 0; k < o->n_seeds; ++k)
		seeds[n_seeds++] = o->seeds[k];
	seeds[n_seeds++] = composed;
	for (k = 0; k < n; ++k)
		if (best[k] && *best[k])
			seeds[n_seeds++] = best[k];
	if (whole_best && *whole_best)
		seeds[n_seeds++] = whole_best;
	/* the starting points and the stages' bests measured (the memo
	 * answers those), then confirmed: no level */
	last_o.nests = pearl_search_nests_whole;
	last_o.seeds = seeds;
	last_o.n_seeds = n_seeds;
	last_o.max_depth = 0;
	last_o.max_measurements = n_seeds + 1;
	last_o.max_seconds = 0;
	if (o->progress) {
		snprintf(sp.name, sizeof(sp.name), "composed");
		last_o.progress = stage_report;
		last_o.progress_user = &sp;
	}
	rc = search_run_branches(env, p, &last_o, 0, INT_MAX, r, err,
				 err_size);
	add_counts(r, &sp.done);
	if (rc == 0) {
		r->stop_reason = "nests";
		/* a stage's best or the composition: the search's */
		if (!strcmp(r->best_origin, "seed") &&
		    pearl_str_index(o->seeds, o->n_seeds, r->best_schedule) < 0)
			r->best_origin = "search";
	}
out:
	for (k = 0; k < n && k < SEARCH_MAX_NESTS; ++k)
		free(best[k]);
	free(whole_best);
	free(composed);
	free(seeds);
	return rc;
}
