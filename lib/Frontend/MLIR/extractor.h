/* Internal to the MLIR frontend: the state of one region's extraction and
 * the helpers its files share. values.c resolves SSA values to isl
 * functions, domain.c builds iteration domains and access relations,
 * extract.c walks the region and forms statements. */
#ifndef PEARL_MLIR_EXTRACTOR_H
#define PEARL_MLIR_EXTRACTOR_H

#include <isl/ctx.h>
#include <isl/aff.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <mlir-c/IR.h>

#include "pearl/builder.h"
#include "pearl/mlir_frontend.h"
#include "privatize.h"

#define MAX_DEPTH 64

/* An affine.if whose then (negate = 0) or else (negate = 1) branch is open. */
struct cond {
	MlirOperation op;
	int negate;
};

struct named_value {
	MlirValue value;
	isl_id *id;
};

struct extractor {
	pearl_ctx *ctx;
	isl_ctx *isl;
	const pearl_mlir_region *region;
	MlirAsmState asm_state;
	pearl_builder *b;
	MlirOperation loops[MAX_DEPTH];
	int depth;
	struct cond conds[MAX_DEPTH];
	int n_conds;
	struct named_value *names; /* memrefs and parameters */
	int n_names;
	/* The region's buffers private to a loop and the ids of their
	 * expanded buffers (created on first access). */
	struct pearl_mlir_private *privates;
	isl_id **private_ids;
	int n_privates;
	int failed;
	MlirOperation where;
};

/* Records the first failure: its message (with isl's, if isl failed) in the
 * context and `op` as the operation responsible. */
void ex_fail(struct extractor *ex, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The isl id of the buffer behind memref value `v` used by `user`
 * (__isl_keep; NULL after ex_fail for a view that may alias). */
isl_id *ex_memref_id(struct extractor *ex, MlirValue v, MlirOperation user);

/* The results of the affine map attribute `attr_name` of `op`, applied to
 * the operands of `op` from `first` on, as functions on `space` (kept).
 * Returns the number of results with the array in *out (the caller frees it
 * with ex_free_results), or -1 after ex_fail. */
int ex_map_results(struct extractor *ex, MlirOperation op,
		   const char *attr_name, int first,
		   __isl_keep isl_space *space, isl_pw_aff ***out);
void ex_free_results(isl_pw_aff **res, int n);

/* Index value `v` used by `user` as a function on the statement space
 * `space` (kept): an enclosing loop's iterator, a constant, an
 * affine.apply/min/max of such values, or a parameter defined outside the
 * region (__isl_give; NULL after ex_fail). */
__isl_give isl_pw_aff *ex_value_aff(struct extractor *ex, MlirValue v,
				    __isl_keep isl_space *space,
				    MlirOperation user);

/* The set space of statement `name` at the current loop depth, with
 * dimensions i0, i1, ... (__isl_give). */
__isl_give isl_space *ex_stmt_space(struct extractor *ex, const char *name);

/* The iteration domain of a statement at the current position: the bounds
 * of the open loops and the conditions of the open affine.if branches
 * (__isl_give; NULL after ex_fail). */
__isl_give isl_set *ex_stmt_domain(struct extractor *ex,
				   __isl_keep isl_space *space);

/* The access relation of affine.load/affine.store `op` whose memref is
 * operand `mem` (its indices follow) from the points of `space`
 * (__isl_give; NULL after ex_fail). */
__isl_give isl_map *ex_access(struct extractor *ex, MlirOperation op, int mem,
			      __isl_keep isl_space *space);

#endif
