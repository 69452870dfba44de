/*
 * pearl/builder.h - builds a pearl_program while walking loops in textual order.
 *
 * A frontend that walks a loop nest calls enter_loop / leave_loop around each
 * loop body and add_stmt for each statement, in program order. The builder
 * produces the original schedule tree: one single-member band per loop whose
 * partial schedule is the loop's iterator (dimension `depth` of every
 * statement below it), and a sequence node wherever a body has several items.
 * Loops that contain no statement are dropped (they have no effect).
 */
#ifndef PEARL_BUILDER_H
#define PEARL_BUILDER_H

#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pearl_builder pearl_builder;

/* A builder for a program named `name` in `ctx`. NULL if out of memory. */
pearl_builder *pearl_builder_alloc(pearl_ctx *ctx, const char *name);
/* Frees the builder and anything not yet handed out. Accepts NULL. */
void pearl_builder_free(pearl_builder *b);

/* Opens a loop at the current depth. */
pearl_stat pearl_builder_enter_loop(pearl_builder *b);
/* Closes the innermost open loop. */
pearl_stat pearl_builder_leave_loop(pearl_builder *b);
/* Current loop depth (number of open loops). */
int pearl_builder_depth(pearl_builder *b);

/* Adds a statement at the current position (see pearl_program_add_stmt;
 * its domain must have exactly depth() dimensions). Returns its index or -1. */
int pearl_builder_add_stmt(pearl_builder *b, __isl_take isl_set *domain,
			   __isl_take isl_map *write, const char *elem_type,
			   void *user);
/* The program under construction (__isl_keep), to add reads and op counts. */
pearl_program *pearl_builder_program(pearl_builder *b);

/* Finishes the program: all loops must be closed. Returns the program
 * (__isl_give) and leaves the builder empty; NULL on error. */
pearl_program *pearl_builder_finish(pearl_builder *b);

#ifdef __cplusplus
}
#endif

#endif
