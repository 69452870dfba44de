/*
 * pearl/mlir_loop_hints.h - the loops' `loop_annotation` hints carried over
 * lower-affine.
 *
 * Pearl's code generator hints LLVM on some loops (a `loop_annotation`
 * attribute on affine.for, e.g. no unrolling of a vectorizable point loop;
 * convert-scf-to-cf turns it into llvm.loop metadata). Upstream
 * lower-affine drops the attributes of the loops it rewrites. It replaces
 * each affine.for by one scf.for in its place and adds no other, so the
 * hints of the loops before it, in walk order, are those of the scf.for
 * loops after it. pearl-exec's lowering and the plugin's
 * pearl-lower-affine pass carry them over that way.
 */
#ifndef PEARL_MLIR_LOOP_HINTS_H
#define PEARL_MLIR_LOOP_HINTS_H

#include <mlir-c/IR.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pearl_loop_hints pearl_loop_hints;

/* The hints of the affine.for and scf.for loops under `top` (kept), in
 * walk order, none for a loop without one (__isl_give; free with
 * pearl_loop_hints_free). NULL if memory is exhausted. */
pearl_loop_hints *pearl_loop_hints_collect(MlirOperation top);

/* Sets the hints `h` (kept) on the scf.for loops under `top`, in walk
 * order, when there are as many loops as hints were collected (1);
 * otherwise sets nothing (0): the code is the same, only unhinted. */
int pearl_loop_hints_apply(MlirOperation top, const pearl_loop_hints *h);

/* Accepts NULL; returns NULL. */
pearl_loop_hints *pearl_loop_hints_free(pearl_loop_hints *h);

#ifdef __cplusplus
}
#endif

#endif
