/*
 * pearl/mlir_pass.h - the pearl-schedule pass body, in C over the MLIR C API.
 *
 * The C++ registration shim (passes/mlir/PearlPass.cpp) owns the pass
 * options, calls pearl_mlir_run_on_function for each func.func, and provides
 * pearl_mlir_emit_remark, the one diagnostic MLIR's C API lacks.
 */
#ifndef PEARL_MLIR_PASS_H
#define PEARL_MLIR_PASS_H

#include <mlir-c/IR.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pearl_mlir_options {
	int print_model;                  /* print each region's model */
	int print_schedule;               /* print the transformed schedule */
	const char *schedule;             /* explicit schedule, "" if none */
	int regenerate;                   /* rewrite even without actions */
	unsigned long isl_max_operations; /* isl quota per region, 0: none */
};

/* Models every region of `func` (kept). Regions that cannot be modeled get
 * a remark and are left untouched. Returns 0, or -1 if the pass must fail
 * (out of memory). */
int pearl_mlir_run_on_function(MlirOperation func,
			       const struct pearl_mlir_options *opts);

/* Emits a remark at `loc` (implemented by the C++ shim). */
void pearl_mlir_emit_remark(MlirLocation loc, const char *msg);

/* Registers pearl-schedule with MLIR's pass registry (C++ shim). */
void pearl_mlir_register_passes(void);

#ifdef __cplusplus
}
#endif

#endif
