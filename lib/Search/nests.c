/* The search nest by nest (search_internal.h): each top-level loop nest
 * of the program searched on its own, then the composition of their
 * best schedules. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/loop_tree.h"
#include "search_internal.h"

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

int search_run_nests(pearl_env *env, pearl_env_program *p,
		     const struct pearl_search_options *o,
		     struct pearl_search_result *r, char *err,
		     size_t err_size)
{
	struct pearl_search_options nest_o = *o, last_o = *o;
	struct pearl_search_result nests = {0};
	int first[SEARCH_MAX_NESTS + 1], n, k, n_seeds = 0, rc = -1;
	char *best[SEARCH_MAX_NESTS] = {NULL}, *composed = NULL;
	const char **seeds = NULL;

	memset(r, 0, sizeof(*r));
	n = program_nests(p, first, SEARCH_MAX_NESTS, err, err_size);
	if (n < 0)
		return -1;
	if (n <= 1 || n > SEARCH_MAX_NESTS)
		return search_run_branches(env, p, o, 0, INT_MAX, r, err,
					   err_size);
	first[n] = INT_MAX;
	nest_o.per_nest = 0;
	nest_o.seed_policy = 0;
	nest_o.seeds = NULL;
	nest_o.n_seeds = 0;
	nest_o.confirm = 0;
	/* the last stage measures the policy's decision, the composition
	 * and the n nests' bests: the nests share the rest */
	nest_o.max_measurements = (o->max_measurements - n - 2) / n;
	if (nest_o.max_measurements < 1)
		nest_o.max_measurements = 1;
	nest_o.max_seconds = o->max_seconds / n;
	for (k = 0; k < n; ++k) {
		struct pearl_search_result one;

		if (search_run_branches(env, p, &nest_o, first[k],
					first[k + 1] - 1, &one, err,
					err_size) < 0) {
			pearl_search_result_clear(&one);
			goto out;
		}
		add_counts(&nests, &one);
		best[k] = one.best_schedule; /* taken */
	}
	composed = search_compose_nests(best, first, n);
	seeds = malloc((o->n_seeds + n + 1) * sizeof(*seeds));
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
	/* the starting points and the nests' bests measured (the memo
	 * answers those), then confirmed: no level */
	last_o.per_nest = 0;
	last_o.seeds = seeds;
	last_o.n_seeds = n_seeds;
	last_o.max_depth = 0;
	last_o.max_measurements = n_seeds + 1;
	last_o.max_seconds = 0;
	rc = search_run_branches(env, p, &last_o, 0, INT_MAX, r, err,
				 err_size);
	add_counts(r, &nests);
	if (rc == 0) {
		r->stop_reason = "nests";
		/* a nest's best or their composition: the search's */
		if (!strcmp(r->best_origin, "seed") &&
		    pearl_str_index(o->seeds, o->n_seeds, r->best_schedule) < 0)
			r->best_origin = "search";
	}
out:
	for (k = 0; k < n && k < SEARCH_MAX_NESTS; ++k)
		free(best[k]);
	free(composed);
	free(seeds);
	return rc;
}
