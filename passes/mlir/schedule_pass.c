/* The pearl-schedule pass body: find regions, model them, report. */
#include <stdio.h>
#include <stdlib.h>

#include "pearl/deps.h"
#include "pearl/mlir_frontend.h"
#include "pearl/mlir_pass.h"
#include "pearl/print.h"

static void remark_skip(MlirLocation loc, const char *reason, void *user)
{
	char msg[640];

	(void)user;
	snprintf(msg, sizeof(msg), "pearl-schedule: loop nest left unchanged: %s",
		 reason);
	pearl_mlir_emit_remark(loc, msg);
}

/* Models one region; on failure the region is reported and left alone. */
static void model_region(pearl_ctx *ctx, MlirOperation func,
			 const pearl_mlir_region *region,
			 const struct pearl_mlir_options *opts)
{
	MlirLocation where = mlirOperationGetLocation(region->first);
	pearl_program *prog;
	pearl_deps *deps = NULL;
	char *text = NULL;

	pearl_ctx_clear_error(ctx);
	pearl_ctx_set_max_operations(ctx, opts->isl_max_operations);
	prog = pearl_mlir_extract(ctx, func, region, &where);
	if (prog)
		deps = pearl_deps_compute(prog);
	if (deps && opts->print_model)
		text = pearl_program_to_str(prog, deps);
	if (!prog || !deps || (opts->print_model && !text)) {
		/* An exhausted quota is the region's size, not an operation. */
		if (pearl_ctx_quota_exceeded(ctx))
			where = mlirOperationGetLocation(region->first);
		remark_skip(where, pearl_ctx_last_error(ctx), NULL);
	} else if (text) {
		/* One write, so models of functions processed in parallel
		 * do not interleave. */
		fputs(text, stdout);
		fflush(stdout);
	}
	free(text);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

int pearl_mlir_run_on_function(MlirOperation func,
			       const struct pearl_mlir_options *opts)
{
	pearl_mlir_region *regions;
	pearl_ctx *ctx;
	int i, n;

	n = pearl_mlir_find_regions(func, &regions, remark_skip, NULL);
	if (n < 0)
		return -1;
	if (n == 0) {
		free(regions);
		return 0;
	}
	ctx = pearl_ctx_alloc();
	if (!ctx) {
		free(regions);
		return -1;
	}
	for (i = 0; i < n; ++i)
		model_region(ctx, func, &regions[i], opts);
	pearl_ctx_free(ctx);
	free(regions);
	return 0;
}
