/*
 * pearl/program.h - the polyhedral model of one region of loops.
 *
 * A pearl_program is frontend-agnostic: statements with their iteration
 * domains (isl_set), one or more write and any number of read access
 * relations (isl_map, one tuple id per buffer) and the original schedule
 * as an isl schedule tree. Frontends fill it (see pearl/builder.h for
 * loop walks); analyses (pearl/deps.h, pearl/loop_tree.h) and printing
 * read it.
 *
 * Every isl object in a program belongs to the isl_ctx of its pearl_ctx.
 * Statement tuple ids must be distinct; the i-th dimension of a statement's
 * domain is the iterator of its i-th enclosing loop in the original code.
 */
#ifndef PEARL_PROGRAM_H
#define PEARL_PROGRAM_H

#include <isl/ctx.h> /* first: defines the annotations the others use */
#include <isl/id.h>
#include <isl/map.h>
#include <isl/schedule.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "pearl/ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pearl_program pearl_program;

/* An empty program named `name` (copied), e.g. the function it comes from. */
pearl_program *pearl_program_alloc(pearl_ctx *ctx, const char *name);
/* Frees the program and every isl object it holds. Returns NULL. */
pearl_program *pearl_program_free(pearl_program *prog);

pearl_ctx *pearl_program_get_ctx(pearl_program *prog);
const char *pearl_program_get_name(pearl_program *prog);

/* Adds a statement writing through `write` (whose domain is the domain's
 * space; takes both). `elem_type` names the type of the stored value ("f64",
 * "i32", ...; copied). `user` is an opaque frontend handle (not owned).
 * Returns the new statement's index, or -1 with an error in the context. */
int pearl_program_add_stmt(pearl_program *prog, __isl_take isl_set *domain,
			   __isl_take isl_map *write, const char *elem_type,
			   void *user);
/* Adds another write access relation (takes it; its domain must be the
 * statement's space) to statement `stmt`: an instance may store into more
 * than one cell (an array element and a value carried in a register to the
 * next iteration, or two array elements). The write given to
 * pearl_program_add_stmt stays the statement's own, the one that
 * pearl_program_stmt_write, the reduction test and the graph's statement
 * features describe; every write orders instances in the dependences
 * (pearl_program_get_writes) and counts in the memory footprints. */
pearl_stat pearl_program_add_write(pearl_program *prog, int stmt,
				   __isl_take isl_map *write);
/* Adds a read access relation (takes it) to statement `stmt`. */
pearl_stat pearl_program_add_read(pearl_program *prog, int stmt,
				  __isl_take isl_map *read);
/* Counts `n` more operations named `op` (e.g. "arith.mulf") in `stmt`. */
pearl_stat pearl_program_add_op_count(pearl_program *prog, int stmt,
				      const char *op, int n);
/* Sets the original schedule (takes it); its domain must be the union of
 * the statement domains. */
pearl_stat pearl_program_set_schedule(pearl_program *prog,
				      __isl_take isl_schedule *schedule);

int pearl_program_n_stmt(pearl_program *prog);
/* Index of the statement whose domain tuple is `id`, or -1. */
int pearl_program_find_stmt(pearl_program *prog, __isl_keep isl_id *id);

/* Accessors of statement `i` (0 <= i < n_stmt); isl objects are __isl_keep. */
__isl_keep isl_id *pearl_program_stmt_id(pearl_program *prog, int i);
__isl_keep isl_set *pearl_program_stmt_domain(pearl_program *prog, int i);
__isl_keep isl_map *pearl_program_stmt_write(pearl_program *prog, int i);
/* The number of writes of statement i (1 + those added by
 * pearl_program_add_write) and the w-th (0: pearl_program_stmt_write). */
int pearl_program_stmt_n_write(pearl_program *prog, int i);
__isl_keep isl_map *pearl_program_stmt_write_at(pearl_program *prog, int i,
						int w);
int pearl_program_stmt_n_read(pearl_program *prog, int i);
__isl_keep isl_map *pearl_program_stmt_read(pearl_program *prog, int i, int r);
const char *pearl_program_stmt_type(pearl_program *prog, int i);
void *pearl_program_stmt_user(pearl_program *prog, int i);
int pearl_program_stmt_n_op(pearl_program *prog, int i);
/* Name and count of the k-th operation kind of statement i (__isl_keep). */
const char *pearl_program_stmt_op_name(pearl_program *prog, int i, int k);
int pearl_program_stmt_op_count(pearl_program *prog, int i, int k);
/* 1 if statement i is a reduction: it reads exactly the cell it writes and
 * several of its instances write the same cell (C[i][j] += ... inside a k
 * loop), 0 if not (e.g. C[i][j] *= beta over i, j), -1 on error. */
int pearl_program_stmt_is_reduction(pearl_program *prog, int i);

/* Union of all domains / reads / writes / the schedule (__isl_give). */
__isl_give isl_union_set *pearl_program_get_domain(pearl_program *prog);
__isl_give isl_union_map *pearl_program_get_reads(pearl_program *prog);
__isl_give isl_union_map *pearl_program_get_writes(pearl_program *prog);
__isl_give isl_schedule *pearl_program_get_schedule(pearl_program *prog);
/* The schedule without a new reference (__isl_keep), NULL if unset. */
__isl_keep isl_schedule *pearl_program_peek_schedule(pearl_program *prog);

#ifdef __cplusplus
}
#endif

#endif
