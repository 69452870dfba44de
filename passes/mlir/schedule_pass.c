/* The pearl-schedule pass body: find regions, model them, apply the
 * requested schedule, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/deps.h"
#include "pearl/mlir_codegen.h"
#include "pearl/mlir_frontend.h"
#include "pearl/mlir_pass.h"
#include "pearl/print.h"
#include "pearl/str.h"
#include "pearl/transform.h"

static void remark_skip(MlirLocation loc, const char *reason, void *user)
{
	char msg[640];

	(void)user;
	snprintf(msg, sizeof(msg), "pearl-schedule: loop nest left unchanged: %s",
		 reason);
	pearl_mlir_emit_remark(loc, msg);
}

/* Prints `text` (one write, so that the output of functions processed in
 * parallel does not interleave). */
static void print_out(const char *text)
{
	fputs(text, stdout);
	fflush(stdout);
}

/* The part of `schedule` for region `index`: regions are separated by ';'.
 * Returns a malloc'd string ("" if the schedule has no such part). */
static char *region_schedule(const char *schedule, int index)
{
	const char *p = schedule ? schedule : "", *end;
	char *part;

	for (; index > 0 && p; --index) {
		p = strchr(p, ';');
		if (p)
			++p;
	}
	if (!p)
		p = "";
	end = strchr(p, ';');
	if (!end)
		end = p + strlen(p);
	part = malloc(end - p + 1);
	if (part) {
		memcpy(part, p, end - p);
		part[end - p] = '\0';
	}
	return part;
}

/* The remark text being built: runs of actions applied to one branch are
 * listed together, refusals one by one with their reason. */
struct report {
	pearl_str text;
	int branch;  /* of the open run of applied actions, -1 if none */
};

static void report_action(int branch, const struct pearl_action *action,
			  int applied, const char *reason, void *user)
{
	struct report *r = user;
	char name[64];

	pearl_action_format(action, name, sizeof(name));
	if (applied && r->branch == branch) {
		pearl_str_printf(&r->text, " %s", name);
		return;
	}
	if (r->text.len)
		pearl_str_append(&r->text, "; ");
	if (applied)
		pearl_str_printf(&r->text, "branch %d: applied %s", branch, name);
	else
		pearl_str_printf(&r->text, "branch %d: refused %s (%s)", branch,
				 name, reason);
	r->branch = applied ? branch : -1;
}

/* Applies the explicit schedule of region `index` to `sched`; reports what
 * was applied and refused in a remark at `loc`. Returns the number of
 * actions applied, or -1 if the schedule does not parse. */
static int apply_schedule(pearl_ctx *ctx, pearl_sched *sched,
			  const char *text, MlirLocation loc)
{
	struct pearl_action *actions;
	struct report report = { PEARL_STR_INIT, -1 };
	char *msg;
	int n, applied;

	n = pearl_actions_parse(ctx, text, &actions);
	if (n < 0)
		return -1;
	applied = pearl_sched_apply_sequence(sched, actions, n, report_action,
					     &report);
	free(actions);
	msg = pearl_str_take(&report.text);
	if (msg && *msg) {
		pearl_str_printf(&report.text, "pearl-schedule: %s", msg);
		free(msg);
		msg = pearl_str_take(&report.text);
		if (msg)
			pearl_mlir_emit_remark(loc, msg);
	}
	free(msg);
	return applied;
}

/* Prints the transformed schedule tree and its AST. */
static void print_schedule(pearl_program *prog, pearl_sched *sched,
			   const char *text, int index)
{
	pearl_str out = PEARL_STR_INIT;
	char *tree = pearl_schedule_to_str(pearl_sched_peek(sched));
	char *ast = pearl_sched_ast_to_str(sched);
	char *all;

	pearl_str_printf(&out, "schedule @%s region %d: \"%s\"\n",
			 pearl_program_get_name(prog), index, text);
	pearl_str_append(&out, "  tree:\n");
	pearl_str_append_indented(&out, tree ? tree : "(error)", 4);
	pearl_str_append(&out, "  ast:\n");
	pearl_str_append_indented(&out, ast ? ast : "(error)", 4);
	all = pearl_str_take(&out);
	if (all)
		print_out(all);
	free(all);
	free(tree);
	free(ast);
}

/* Models region `index` of `func`, prints what was asked and applies the
 * explicit schedule; on failure the region is reported and left alone. */
static void model_region(pearl_ctx *ctx, MlirOperation func,
			 const pearl_mlir_region *region, int index,
			 const struct pearl_mlir_options *opts)
{
	MlirLocation where = mlirOperationGetLocation(region->first);
	char *sched_text = region_schedule(opts->schedule, index);
	int scheduling = sched_text && (*sched_text || opts->print_schedule ||
					opts->regenerate);
	pearl_program *prog;
	pearl_deps *deps = NULL;
	pearl_sched *sched = NULL;
	isl_ast_node *tree = NULL;
	char *text = NULL;
	int ok, applied = 0;

	pearl_ctx_clear_error(ctx);
	pearl_ctx_set_max_operations(ctx, opts->isl_max_operations);
	prog = pearl_mlir_extract(ctx, func, region, &where);
	if (prog)
		deps = pearl_deps_compute(prog);
	if (deps && opts->print_model)
		text = pearl_program_to_str(prog, deps);
	ok = deps && (!opts->print_model || text) && sched_text;
	if (ok && scheduling) {
		sched = pearl_sched_alloc(prog, deps);
		applied = sched ? apply_schedule(ctx, sched, sched_text, where)
				: -1;
		ok = applied >= 0;
	}
	if (ok && (applied > 0 || opts->regenerate)) {
		tree = pearl_sched_build_ast(sched);
		ok = tree && pearl_mlir_codegen(ctx, region, prog, tree) ==
				 pearl_stat_ok;
	}
	if (!ok) {
		/* An exhausted quota is the region's size, not an operation. */
		if (pearl_ctx_quota_exceeded(ctx))
			where = mlirOperationGetLocation(region->first);
		remark_skip(where, sched_text ? pearl_ctx_last_error(ctx)
					      : "out of memory", NULL);
	} else {
		if (text)
			print_out(text);
		if (sched && opts->print_schedule)
			print_schedule(prog, sched, sched_text, index);
	}
	isl_ast_node_free(tree);
	free(text);
	free(sched_text);
	pearl_sched_free(sched);
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
		model_region(ctx, func, &regions[i], i, opts);
	pearl_ctx_free(ctx);
	free(regions);
	return 0;
}
