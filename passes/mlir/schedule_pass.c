/* The pearl-schedule pass body: find regions, model them, apply the
 * requested schedule, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>

#include "pearl/agent.h"
#include "pearl/baselines.h"
#include "pearl/clock.h"
#include "pearl/deps.h"
#include "pearl/features.h"
#include "pearl/fingerprint.h"
#include "pearl/mlir_codegen.h"
#include "pearl/mlir_frontend.h"
#include "pearl/mlir_linalg.h"
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

/* remark_skip as a warning: the nest is left for a reason that is not the
 * program's (a policy that cannot be evaluated). */
static void warn_skip(MlirLocation loc, const char *reason)
{
	char msg[640];

	snprintf(msg, sizeof(msg), "pearl-schedule: loop nest left unchanged: %s",
		 reason);
	pearl_mlir_emit_warning(loc, msg);
}

/* Prints `text` (one write, so that the output of functions processed in
 * parallel does not interleave). */
static void print_out(const char *text)
{
	fputs(text, stdout);
	fflush(stdout);
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

/* Applies `actions` to `sched`; reports what was applied and refused in a
 * remark at `loc`. Returns the number of actions applied. */
static int apply_actions(pearl_sched *sched, const struct pearl_action *actions,
			 int n, MlirLocation loc)
{
	struct report report = { PEARL_STR_INIT, -1 };
	char *msg;
	int applied;

	applied = pearl_sched_apply_sequence(sched, actions, n, report_action,
					     &report);
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

/* Applies the explicit schedule `text` of a region to `sched`. Returns the
 * number of actions applied, or -1 if the schedule does not parse. */
static int apply_schedule(pearl_ctx *ctx, pearl_sched *sched,
			  const char *text, MlirLocation loc)
{
	struct pearl_action *actions;
	int n, applied;

	n = pearl_actions_parse(ctx, text, &actions);
	if (n < 0)
		return -1;
	applied = apply_actions(sched, actions, n, loc);
	free(actions);
	return applied;
}

/* Schedules `sched` with the policy and says what was chosen in a remark
 * at `loc`. The episode runs on `sched` itself: each action it takes goes
 * through pearl_sched_apply, the path of explicit schedules, so replaying
 * the chosen actions would rebuild the same schedule and only check them a
 * second time (test/Agent/policy.mlir checks that passing the chosen
 * string as schedule= gives the same IR). On failure `sched` may hold
 * part of the episode: the caller then leaves the region unchanged.
 * Returns the number of actions applied, or -1 with an error in the
 * context, and *policy_failed set if the policy itself failed (e.g. its
 * outputs are not finite). */
static int apply_policy(pearl_ctx *ctx, pearl_sched *sched,
			const struct pearl_mlir_options *opts, MlirLocation loc,
			int *policy_failed)
{
	struct pearl_agent_options agent_opts;
	struct pearl_agent_trace trace;
	struct pearl_action *actions = NULL;
	pearl_str msg = PEARL_STR_INIT;
	int n = -1, applied = -1, i;
	char *text;

	pearl_agent_options_init(&agent_opts);
	agent_opts.sample = opts->agent == pearl_mlir_agent_sample;
	agent_opts.seed = opts->seed;
	agent_opts.max_branch_steps = opts->max_branch_steps;
	agent_opts.min_parallel_work = opts->min_parallel_work;
	agent_opts.uniform_parallel = opts->uniform_parallel;
	agent_opts.fill_parallel = opts->fill_parallel;
	agent_opts.copies = opts->copies;
	if (!agent_opts.sample && opts->critic) {
		agent_opts.critic = opts->critic;
		agent_opts.beam_width = opts->beam_width;
		agent_opts.beam_top_k = opts->beam_top_k;
		agent_opts.beam_seconds = opts->beam_seconds;
	}
	if (pearl_agent_run(sched, opts->policy, &agent_opts, &trace) ==
	    pearl_stat_ok)
		n = pearl_agent_trace_actions(&trace, &actions);
	else if (!*pearl_ctx_last_error(ctx))
		pearl_ctx_error(ctx, "the agent failed");
	*policy_failed = trace.policy_failed;
	if (n < 0 && !*pearl_ctx_last_error(ctx))
		pearl_ctx_error(ctx, "out of memory");
	for (i = 0, applied = n < 0 ? -1 : 0; i < n; ++i)
		applied += actions[i].kind != pearl_action_next;
	if (applied >= 0) {
		pearl_agent_format_remark(&msg, &trace, actions, n,
					  agent_opts.sample);
		text = pearl_str_take(&msg);
		if (text)
			pearl_mlir_emit_remark(loc, text);
		free(text);
	}
	free(actions);
	pearl_agent_trace_clear(&trace);
	return applied;
}

/* Schedules `sched` with the rules-only baseline (agent=heuristic) and
 * says what it chose in a remark at `loc`. Returns the number of actions
 * applied, or -1 with an error in the context (on failure `sched` may
 * hold part of the rules' actions: the caller leaves the region
 * unchanged). */
static int apply_heuristic(pearl_ctx *ctx, pearl_sched *sched,
			   MlirLocation loc)
{
	char text[4096], msg[4200];
	double t0 = pearl_now();
	int applied = pearl_baseline_heuristic(sched, text, sizeof(text));

	if (applied < 0) {
		if (!*pearl_ctx_last_error(ctx))
			pearl_ctx_error(ctx, "the rules-only agent failed");
		return -1;
	}
	snprintf(msg, sizeof(msg), "pearl-schedule: the rules "
		 "(agent=heuristic) chose \"%s\" (%d actions; decided in "
		 "%.2f ms)", text, applied, (pearl_now() - t0) * 1e3);
	pearl_mlir_emit_remark(loc, msg);
	return applied;
}

/* Prints the policy's input graph of the current schedule, with the first
 * branch in focus. */
static void print_graph(pearl_program *prog, pearl_sched *sched, int index)
{
	struct pearl_graph *graph = pearl_graph_build(sched, 0);
	pearl_str out = PEARL_STR_INIT;
	char *nodes, *all;

	if (!graph)
		return;
	nodes = pearl_graph_describe(graph);
	pearl_str_printf(&out, "graph @%s region %d: %d nodes, %d edges, "
			 "%d features\n", pearl_program_get_name(prog), index,
			 graph->n_nodes, graph->n_edges, graph->n_features);
	pearl_str_append_indented(&out, nodes ? nodes : "(error)", 2);
	all = pearl_str_take(&out);
	if (all)
		print_out(all);
	free(all);
	free(nodes);
	pearl_graph_free(graph);
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

/* How a region is to be scheduled. */
struct plan {
	char *text;             /* explicit actions, "" if none; NULL: out of
				 * memory */
	int use_policy;         /* the policy decides (text is "") */
	const char *file_error; /* the schedule file is unusable: the region
				 * is modeled (and printed) only */
};

/* The plan of region `index` from schedule= and agent=. */
static void plan_from_options(struct plan *plan,
			      const struct pearl_mlir_options *opts, int index)
{
	int explicit = opts->schedule && *opts->schedule;

	plan->text = pearl_schedule_part(opts->schedule, index);
	plan->use_policy = !explicit && opts->agent != pearl_mlir_agent_none;
}

/* Says at `loc` what the schedule file gives region `index` of `fn`, of
 * fingerprint `fp`: the schedule of `entry` if it fits the region, else
 * why the policy decides (or, with agent=none, nothing does). */
static void remark_file(MlirLocation loc,
			const struct pearl_mlir_options *opts, const char *fn,
			int index, uint64_t fp,
			const struct pearl_schedule_entry *entry,
			int use_policy)
{
	const char *then =
	    !use_policy ? "left as it is (agent=none)"
	    : opts->agent == pearl_mlir_agent_heuristic
		? "the rules decide (agent=heuristic)"
		: "the policy decides";
	char have[PEARL_FINGERPRINT_SIZE], want[PEARL_FINGERPRINT_SIZE];
	pearl_str msg = PEARL_STR_INIT;
	char *text;

	pearl_fingerprint_format(fp, have);
	if (entry && pearl_schedule_entry_fits(entry, fp) && *entry->schedule)
		pearl_str_printf(&msg, "pearl-schedule: schedule \"%s\" from "
				 "schedule file '%s' line %d",
				 entry->schedule, opts->schedule_file_path,
				 entry->line);
	else if (entry && pearl_schedule_entry_fits(entry, fp))
		pearl_str_printf(&msg, "pearl-schedule: loop nest kept as it "
				 "is: schedule file '%s' line %d gives it the "
				 "empty schedule", opts->schedule_file_path,
				 entry->line);
	else if (entry) {
		pearl_fingerprint_format(entry->fingerprint, want);
		pearl_str_printf(&msg, "pearl-schedule: schedule file entry "
				 "for @%s region %d (line %d) is for "
				 "fingerprint %s, the region's is %s: the code "
				 "changed since it was tuned; %s", fn, index,
				 entry->line, want, have, then);
	} else
		pearl_str_printf(&msg, "pearl-schedule: schedule file has no "
				 "entry for @%s region %d: %s", fn, index,
				 then);
	text = pearl_str_take(&msg);
	if (text)
		pearl_mlir_emit_remark(loc, text);
	free(text);
}

/* The plan of region `index` of the function `fn`, whose model has the
 * fingerprint `fp`: from the schedule file if one was given (saying so at
 * `loc`), else from the options. */
static void plan_region(struct plan *plan,
			const struct pearl_mlir_options *opts, const char *fn,
			int index, uint64_t fp, MlirLocation loc)
{
	const struct pearl_schedule_entry *entry;

	if (!opts->schedule_file_path) {
		plan_from_options(plan, opts, index);
		return;
	}
	if (!opts->schedule_file) {
		plan->file_error = opts->schedule_file_error;
		plan->text = strdup("");
		return;
	}
	entry = pearl_schedule_file_find(opts->schedule_file, fn, index);
	if (entry && pearl_schedule_entry_fits(entry, fp)) {
		plan->text = strdup(entry->schedule);
	} else {
		plan->text = strdup("");
		plan->use_policy = opts->agent != pearl_mlir_agent_none;
	}
	remark_file(loc, opts, fn, index, fp, entry, plan->use_policy);
}

/* The model as print-model prints it: pearl_program_to_str's text and
 * the fingerprint (malloc'd; NULL on error, with the reason in the
 * program's context). */
static char *model_text(pearl_program *prog, pearl_deps *deps, uint64_t fp)
{
	char hex[PEARL_FINGERPRINT_SIZE];
	pearl_str out = PEARL_STR_INIT;

	pearl_str_append_take(&out, pearl_program_to_str(prog, deps));
	pearl_fingerprint_format(fp, hex);
	pearl_str_printf(&out, "  fingerprint: %s\n", hex);
	return pearl_str_take(&out);
}

/* A region being modeled and scheduled: what was built for it (freed by
 * model_free) and what became of it. */
struct model {
	MlirLocation start; /* the region's first operation */
	MlirLocation where; /* where to report: start, or the operation
			     * responsible for a failed extraction */
	struct plan plan;
	pearl_program *prog;
	pearl_deps *deps;
	pearl_sched *sched; /* only if something is to be scheduled or
			     * printed */
	isl_ast_node *tree;
	uint64_t fp;       /* the fingerprint, if it was asked for */
	char *text;        /* the model as print-model prints it */
	int applied;       /* actions applied */
	int decided;       /* the agent or the heuristic scheduled it */
	int policy_failed; /* the policy itself failed */
};

/* Extracts the model of `region` (region `index` of `func`, named `fn`)
 * under the options' limits, its fingerprint and dependences, print-model's
 * text and the plan, and makes a schedule if anything is to be scheduled
 * or printed.  Returns 1 on success, 0 on failure (with the reason in the
 * context, or out of memory). */
static int model_build(pearl_ctx *ctx, MlirOperation func, const char *fn,
		       const pearl_mlir_region *region, int index,
		       const struct pearl_mlir_options *opts, struct model *m)
{
	int ok, scheduling;

	pearl_ctx_clear_error(ctx);
	pearl_ctx_set_max_operations(ctx, opts->isl_max_operations);
	pearl_ctx_set_time_limit(ctx, opts->time_limit);
	pearl_ctx_set_check_ast(ctx, !opts->no_ast_check);
	m->prog = pearl_mlir_extract(ctx, func, region, &m->where);
	/* The fingerprint before any analysis (see pearl/fingerprint.h). */
	ok = m->prog &&
	     (!(opts->print_model || opts->schedule_file_path) ||
	      pearl_program_fingerprint(m->prog, &m->fp) == pearl_stat_ok);
	if (ok)
		m->deps = pearl_deps_compute(m->prog);
	if (m->deps && opts->print_model)
		m->text = model_text(m->prog, m->deps, m->fp);
	if (m->deps)
		plan_region(&m->plan, opts, fn, index, m->fp, m->start);
	ok = m->deps && (!opts->print_model || m->text) && m->plan.text;
	scheduling = ok && (*m->plan.text || opts->print_schedule ||
			    opts->regenerate || opts->print_graph ||
			    m->plan.use_policy);
	if (ok && scheduling) {
		m->sched = pearl_sched_alloc(m->prog, m->deps);
		ok = m->sched != NULL;
	}
	return ok;
}

/* Schedules the region as planned: with the explicit actions or with the
 * policy, or not at all (saying why if the schedule file or the policy
 * cannot be used).  Returns 1 on success, 0 on failure. */
static int model_schedule(pearl_ctx *ctx, struct model *m,
			  const struct pearl_mlir_options *opts)
{
	if (m->plan.file_error) {
		/* An unusable schedule file: model and print only. */
		char msg[1200];

		snprintf(msg, sizeof(msg), "pearl-schedule: loop nest left "
			 "unchanged: schedule file: %s", m->plan.file_error);
		pearl_mlir_emit_warning(m->where, msg);
	} else if (*m->plan.text) {
		m->applied =
		    apply_schedule(ctx, m->sched, m->plan.text, m->where);
		return m->applied >= 0;
	} else if (m->plan.use_policy &&
		   opts->agent == pearl_mlir_agent_heuristic) {
		m->applied = apply_heuristic(ctx, m->sched, m->where);
		m->decided = m->applied >= 0;
		return m->applied >= 0;
	} else if (m->plan.use_policy && !opts->policy) {
		/* No policy: say why once per region, model and print only. */
		char msg[640];

		snprintf(msg, sizeof(msg), "pearl-schedule: loop nest left "
			 "unchanged: cannot load the policy: %s",
			 opts->policy_error ? opts->policy_error : "unknown");
		pearl_mlir_emit_warning(m->where, msg);
	} else if (m->plan.use_policy) {
		m->applied = apply_policy(ctx, m->sched, opts, m->where,
					  &m->policy_failed);
		m->decided = m->applied >= 0;
		return m->applied >= 0;
	}
	return 1;
}

/* Actions that change nothing the code generator acts on (unrolling left
 * to LLVM, an interchange undone) would only rebuild the same loops: the
 * region then keeps its code (none counted as applied).  Returns 1 on
 * success, 0 on failure. */
static int model_check_keeps_code(struct model *m)
{
	int keeps = pearl_sched_keeps_code(m->sched);

	if (keeps == 1) {
		pearl_mlir_emit_remark(
		    m->where, "pearl-schedule: loop nest kept as it was: "
			      "the applied actions change no execution "
			      "order, run no loop in parallel and leave "
			      "unrolling to LLVM's vectorizer");
		m->applied = 0;
	}
	return keeps >= 0;
}

/* Reports a failure (ok 0: the region was left alone), else prints what
 * was asked. */
static void model_report(pearl_ctx *ctx, struct model *m, int ok,
			 const struct pearl_mlir_options *opts, int index)
{
	if (!ok) {
		/* An exhausted quota is the region's size, not an operation. */
		if (pearl_ctx_quota_exceeded(ctx))
			m->where = m->start;
		if (m->policy_failed)
			warn_skip(m->where, pearl_ctx_last_error(ctx));
		else
			remark_skip(m->where, m->deps && !m->plan.text
						  ? "out of memory"
						  : pearl_ctx_last_error(ctx),
				    NULL);
		return;
	}
	if (m->text)
		print_out(m->text);
	if (m->sched && opts->print_schedule)
		print_schedule(m->prog, m->sched, m->plan.text, index);
	if (m->sched && opts->print_graph)
		print_graph(m->prog, m->sched, index);
}

static void model_free(struct model *m)
{
	isl_ast_node_free(m->tree);
	free(m->text);
	free(m->plan.text);
	pearl_sched_free(m->sched);
	pearl_deps_free(m->deps);
	pearl_program_free(m->prog);
}

/* Models region `index` of `func` (named `fn`), prints what was asked, and
 * schedules it (with the schedule file's or the explicit schedule, or else
 * with the policy); on failure the region is reported and left alone.
 * Returns 1 if the region was rewritten, 0 if it was left as it was. */
static int model_region(pearl_ctx *ctx, MlirOperation func, const char *fn,
			 const pearl_mlir_region *region, int index,
			 const struct pearl_mlir_options *opts)
{
	MlirLocation start = mlirOperationGetLocation(region->first);
	struct model m = { .start = start, .where = start };
	int ok, rewritten = 0, regenerate;

	ok = model_build(ctx, func, fn, region, index, opts, &m);
	if (ok)
		ok = model_schedule(ctx, &m, opts);
	/* A region the agent kept is regenerated too (regenerate-kept): its
	 * function then gets Pearl's lowering and the no-alias marking the
	 * model assumed (PolyBench's bicg at MEDIUM: 1.0x kept, 4.2x
	 * regenerated with its original schedule, which e15 reached only
	 * through an unroll the code generator leaves to LLVM). */
	regenerate = opts->regenerate ||
		     (opts->regenerate_kept && m.decided && m.sched);
	if (ok && m.applied > 0 && !regenerate)
		ok = model_check_keeps_code(&m);
	if (ok && regenerate && m.applied <= 0 && !opts->regenerate)
		pearl_mlir_emit_remark(
		    m.where, "pearl-schedule: loop nest regenerated with its "
			     "schedule unchanged (regenerate-kept)");
	if (ok && (m.applied > 0 || regenerate)) {
		m.tree = pearl_sched_build_ast(m.sched);
		ok = m.tree && pearl_mlir_codegen(ctx, region, m.prog,
						  m.tree) == pearl_stat_ok;
		rewritten = ok;
	}
	model_report(ctx, &m, ok, opts, index);
	model_free(&m);
	return rewritten;
}

/* The number of ';'-separated parts of `schedule`. */
static int count_parts(const char *schedule)
{
	int n = 1;

	for (; *schedule; ++schedule)
		n += *schedule == ';';
	return n;
}

/* Emits the message built in `msg` (taken: it is reset) as a warning at
 * `func`. */
static void warn_taking(MlirOperation func, pearl_str *msg)
{
	char *text = pearl_str_take(msg);

	if (text)
		pearl_mlir_emit_warning(mlirOperationGetLocation(func), text);
	free(text);
}

/* Warns at `func` of the non-blank parts of `schedule` from part `n` on:
 * parts for regions the function does not have. */
static void warn_extra_parts(MlirOperation func, const char *schedule, int n)
{
	pearl_str msg = PEARL_STR_INIT;
	int i, extra = 0, parts = count_parts(schedule);
	char *part, *text;

	for (i = n; i < parts; ++i) {
		const char *start;
		int len;

		part = pearl_schedule_part(schedule, i);
		start = part ? part + strspn(part, " \t\n") : "";
		len = (int)strlen(start);
		while (len > 0 && strchr(" \t\n", start[len - 1]))
			--len;
		if (len > 0)
			pearl_str_printf(&msg, "%s%d \"%.*s\"",
					 extra++ ? ", " : "", i, len, start);
		free(part);
	}
	text = pearl_str_take(&msg);
	if (extra && text) {
		pearl_str_printf(&msg, "pearl-schedule: schedule part%s %s "
				 "ignored: the function has %d region%s (parts "
				 "are separated by ';', one per region, from "
				 "0)", extra > 1 ? "s" : "", text, n,
				 n == 1 ? "" : "s");
		warn_taking(func, &msg);
	}
	free(text);
}

/* Warns at `func` (named `fn`) of the schedule file's entries for its
 * regions from `n` on: regions the function does not have. */
static void warn_unused_entries(MlirOperation func, const char *fn,
				const struct pearl_mlir_options *opts, int n)
{
	const pearl_schedule_file *file = opts->schedule_file;
	pearl_str list = PEARL_STR_INIT, msg = PEARL_STR_INIT;
	int i, unused = 0;
	char *text;

	for (i = 0; file && i < pearl_schedule_file_n_entry(file); ++i) {
		const struct pearl_schedule_entry *e =
		    pearl_schedule_file_get_entry(file, i);

		if (e->region >= n && !strcmp(e->function, fn))
			pearl_str_printf(&list, "%s%d (line %d)",
					 unused++ ? ", " : "", e->region,
					 e->line);
	}
	text = pearl_str_take(&list);
	if (unused && text) {
		pearl_str_printf(&msg, "pearl-schedule: schedule file entr%s "
				 "for @%s region%s %s %s not used: the "
				 "function has %d region%s (numbered from 0)",
				 unused > 1 ? "ies" : "y", fn,
				 unused > 1 ? "s" : "", text,
				 unused > 1 ? "are" : "is", n,
				 n == 1 ? "" : "s");
		warn_taking(func, &msg);
	}
	free(text);
}

/* The symbol name of `func` (malloc'd; "" if it has none), NULL if memory
 * is exhausted. */
static char *func_name(MlirOperation func)
{
	MlirAttribute sym = mlirOperationGetAttributeByName(
	    func, mlirStringRefCreateFromCString("sym_name"));
	MlirStringRef s = mlirStringRefCreateFromCString("");

	if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym))
		s = mlirStringAttrGetValue(sym);
	return strndup(s.data, s.length);
}

int pearl_mlir_run_on_function(MlirOperation func,
			       const struct pearl_mlir_options *opts)
{
	pearl_mlir_region *regions;
	pearl_mlir_linalg *lin;
	pearl_ctx *ctx;
	int *rewritten;
	char *fn;
	int i, n;

	/* linalg ops become affine nests first (put back unless rewritten). */
	lin = pearl_mlir_linalg_expand(func, remark_skip, NULL);
	if (!lin)
		return -1;
	n = pearl_mlir_find_regions(func, &regions, remark_skip, NULL);
	if (n <= 0) {
		pearl_mlir_linalg_settle(lin, NULL);
		free(regions);
		return n < 0 ? -1 : 0;
	}
	if (opts->schedule)
		warn_extra_parts(func, opts->schedule, n);
	pearl_mlir_linalg_assign(lin, regions, n);
	ctx = pearl_ctx_alloc();
	rewritten = calloc(n, sizeof(*rewritten));
	fn = func_name(func);
	if (!ctx || !rewritten || !fn) {
		pearl_mlir_linalg_settle(lin, NULL);
		pearl_ctx_free(ctx);
		free(rewritten);
		free(regions);
		free(fn);
		return -1;
	}
	warn_unused_entries(func, fn, opts, n);
	for (i = 0; i < n; ++i)
		rewritten[i] = model_region(ctx, func, fn, &regions[i], i,
					    opts);
	pearl_mlir_linalg_settle(lin, rewritten);
	pearl_ctx_free(ctx);
	free(rewritten);
	free(regions);
	free(fn);
	return 0;
}
