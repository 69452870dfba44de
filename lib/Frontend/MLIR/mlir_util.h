/* Small helpers over the MLIR C API shared by the MLIR frontend. */
#ifndef PEARL_MLIR_UTIL_H
#define PEARL_MLIR_UTIL_H

#include <mlir-c/IR.h>
#include "pearl/mlir_frontend.h"
#include <stdarg.h>
#include <stddef.h>

/* 1 if `op` is named exactly `name` (e.g. "affine.for"). */
int pearl_mlir_op_is(MlirOperation op, const char *name);
/* 1 if `op`'s name starts with `prefix` (e.g. "arith."). */
int pearl_mlir_op_in_dialect(MlirOperation op, const char *prefix);
/* The op name copied into buf (NUL-terminated, truncated to size). */
void pearl_mlir_op_name(MlirOperation op, char *buf, size_t size);
/* The attribute `name` of `op`, null if absent. */
MlirAttribute pearl_mlir_attr(MlirOperation op, const char *name);
/* The type / value as text (malloc'd; caller frees; NULL if OOM). */
char *pearl_mlir_type_str(MlirType type);
char *pearl_mlir_value_str(MlirValue value, MlirAsmState state);
/* The body block of the first region of op (for affine.for). */
MlirBlock pearl_mlir_body(MlirOperation op, int region);

/* 1 if `pred` holds for `op` or for an operation nested in it. */
int pearl_mlir_op_any(MlirOperation op,
		      int (*pred)(MlirOperation op, void *user), void *user);

/* The ancestor of `op` (or `op` itself) that is a top-level operation of
 * `region`, or a null operation if `op` lies outside the region. */
MlirOperation pearl_mlir_region_ancestor(const pearl_mlir_region *region,
					 MlirOperation op);

/* The first failure of a pass over a region (model extraction, code
 * generation), whose later failures only follow from it: if *failed is
 * clear, sets it, writes the message fmt and ap make into msg (size bytes)
 * and returns 1; otherwise returns 0 and leaves msg alone. */
int pearl_mlir_first_failure(int *failed, char *msg, size_t size,
			     const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

#endif
