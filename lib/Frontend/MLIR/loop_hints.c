/* Loop hints carried over lower-affine (pearl/mlir_loop_hints.h). */
#include <stdlib.h>

#include "mlir_util.h"
#include "pearl/grow.h"
#include "pearl/mlir_loop_hints.h"

#define HINT_NAME "loop_annotation"

struct pearl_loop_hints {
	MlirAttribute *hint; /* owned array; null attributes for no hint */
	int n, cap;
	int failed;          /* out of memory */
};

static int is_loop(MlirOperation op)
{
	return pearl_mlir_op_is(op, "affine.for") || pearl_mlir_op_is(op, "scf.for");
}

static MlirWalkResult collect(MlirOperation op, void *user)
{
	pearl_loop_hints *h = user;

	if (!is_loop(op))
		return MlirWalkResultAdvance;
	if (pearl_grow(&h->hint, &h->cap, h->n + 1, sizeof(*h->hint)) < 0) {
		h->failed = 1;
		return MlirWalkResultInterrupt;
	}
	h->hint[h->n++] = mlirOperationGetDiscardableAttributeByName(
	    op, mlirStringRefCreateFromCString(HINT_NAME));
	return MlirWalkResultAdvance;
}

pearl_loop_hints *pearl_loop_hints_collect(MlirOperation top)
{
	pearl_loop_hints *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	mlirOperationWalk(top, collect, h, MlirWalkPreOrder);
	if (h->failed)
		return pearl_loop_hints_free(h);
	return h;
}

static MlirWalkResult count(MlirOperation op, void *user)
{
	if (is_loop(op))
		++*(int *)user;
	return MlirWalkResultAdvance;
}

/* Where the walk of pearl_loop_hints_apply stands. */
struct cursor {
	const pearl_loop_hints *h;
	int i; /* scf.for loops seen */
};

static MlirWalkResult apply(MlirOperation op, void *user)
{
	struct cursor *c = user;

	if (!pearl_mlir_op_is(op, "scf.for"))
		return MlirWalkResultAdvance;
	if (c->i < c->h->n && !mlirAttributeIsNull(c->h->hint[c->i]))
		mlirOperationSetDiscardableAttributeByName(
		    op, mlirStringRefCreateFromCString(HINT_NAME),
		    c->h->hint[c->i]);
	c->i++;
	return MlirWalkResultAdvance;
}

int pearl_loop_hints_apply(MlirOperation top, const pearl_loop_hints *h)
{
	struct cursor c = {h, 0};
	int loops = 0;

	mlirOperationWalk(top, count, &loops, MlirWalkPreOrder);
	if (!h || loops != h->n)
		return 0;
	mlirOperationWalk(top, apply, &c, MlirWalkPreOrder);
	return 1;
}

pearl_loop_hints *pearl_loop_hints_free(pearl_loop_hints *h)
{
	if (h)
		free(h->hint);
	free(h);
	return NULL;
}
