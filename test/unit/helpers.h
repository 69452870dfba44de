/* Building programs from isl strings in unit tests. */
#ifndef PEARL_TEST_HELPERS_H
#define PEARL_TEST_HELPERS_H

#include <isl/map.h>
#include <isl/schedule.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <stdio.h>
#include <stdlib.h>

#include "pearl/program.h"

/* Adds a statement with domain, write and a NULL-terminated list of reads. */
static inline int add_stmt_str(pearl_program *prog, const char *domain,
			const char *write, const char **reads)
{
	isl_ctx *ctx = pearl_ctx_get_isl(pearl_program_get_ctx(prog));
	int idx = pearl_program_add_stmt(prog, isl_set_read_from_str(ctx, domain),
					 isl_map_read_from_str(ctx, write),
					 "f64", NULL);
	for (; idx >= 0 && reads && *reads; ++reads)
		if (pearl_program_add_read(prog, idx,
					   isl_map_read_from_str(ctx, *reads)) < 0)
			return -1;
	return idx;
}

static inline int set_schedule_str(pearl_program *prog, const char *sched)
{
	isl_ctx *ctx = pearl_ctx_get_isl(pearl_program_get_ctx(prog));
	return pearl_program_set_schedule(prog,
					  isl_schedule_read_from_str(ctx, sched));
}

/* matmul C[i][j] += A[i][k] * B[k][j] over ni x nj x nk, loops i, j, k. */
static inline pearl_program *example_matmul(pearl_ctx *ctx, int ni, int nj,
					    int nk)
{
	static const char *r[] = { "{ S0[i, j, k] -> C[i, j] }",
				   "{ S0[i, j, k] -> A[i, k] }",
				   "{ S0[i, j, k] -> B[k, j] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "matmul");
	char dom[160], sched[512];

	snprintf(dom, sizeof(dom),
		 "{ S0[i, j, k] : 0 <= i < %d and 0 <= j < %d and 0 <= k < %d }",
		 ni, nj, nk);
	add_stmt_str(prog, dom, "{ S0[i, j, k] -> C[i, j] }", r);
	snprintf(sched, sizeof(sched),
		 "{ domain: \"%s\", child: { schedule: \"[{ S0[i, j, k] -> [(i)] }]\", "
		 "child: { schedule: \"[{ S0[i, j, k] -> [(j)] }]\", "
		 "child: { schedule: \"[{ S0[i, j, k] -> [(k)] }]\" } } } }", dom);
	set_schedule_str(prog, sched);
	return prog;
}

/* seidel-2d, 9 points: the dependence (0, 1, -1) forbids interchanging i, j. */
static inline pearl_program *example_seidel9(pearl_ctx *ctx)
{
	static const char *r[] = {
		"{ S0[t, i, j] -> A[i - 1, j - 1] }", "{ S0[t, i, j] -> A[i - 1, j] }",
		"{ S0[t, i, j] -> A[i - 1, j + 1] }", "{ S0[t, i, j] -> A[i, j - 1] }",
		"{ S0[t, i, j] -> A[i, j] }", "{ S0[t, i, j] -> A[i, j + 1] }",
		"{ S0[t, i, j] -> A[i + 1, j - 1] }", "{ S0[t, i, j] -> A[i + 1, j] }",
		"{ S0[t, i, j] -> A[i + 1, j + 1] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "seidel");

	add_stmt_str(prog, "{ S0[t, i, j] : 0 <= t < 4 and 1 <= i < 15 and 1 <= j < 15 }",
		     "{ S0[t, i, j] -> A[i, j] }", r);
	set_schedule_str(prog,
		"{ domain: \"{ S0[t, i, j] : 0 <= t < 4 and 1 <= i < 15 and 1 <= j < 15 }\", "
		"child: { schedule: \"[{ S0[t, i, j] -> [(t)] }]\", "
		"child: { schedule: \"[{ S0[t, i, j] -> [(i)] }]\", "
		"child: { schedule: \"[{ S0[t, i, j] -> [(j)] }]\" } } } }");
	return prog;
}

/* 1 if the union map `got` (taken) equals the one described by `want`. */
static inline int umap_equals(__isl_take isl_union_map *got, const char *want)
{
	isl_union_map *w = isl_union_map_read_from_str(
	    isl_union_map_get_ctx(got), want);
	isl_bool eq = isl_union_map_is_equal(got, w);
	if (eq != isl_bool_true) {
		char *g = isl_union_map_to_str(got);
		fprintf(stderr, "  got:  %s\n  want: %s\n", g, want);
		free(g);
	}
	isl_union_map_free(got);
	isl_union_map_free(w);
	return eq == isl_bool_true;
}

#endif
