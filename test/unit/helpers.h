/* Building programs from isl strings in unit tests. */
#ifndef PEARL_TEST_HELPERS_H
#define PEARL_TEST_HELPERS_H

#include <isl/map.h>
#include <isl/schedule.h>
#include <isl/set.h>
#include <isl/union_map.h>

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
