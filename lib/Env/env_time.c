/* pearl_env_time: one query of the environment, on @kernel or on a
 * target of an ordinary module (the program says which function and
 * region).
 *
 *   memo lookup (program, schedule, machine), then (program, schedule,
 *   any machine); the machine is this one, or another whose answers serve
 *   the program (memo_also) until a query must measure
 *   -> legality on the program's own model (no compilation if illegal)
 *   -> the base measurement, if not known yet (memoized as schedule "")
 *   -> code generation on a copy of the module (the model is extracted
 *      again from the copy: the code generator rewrites the operations the
 *      model refers to)
 *   -> lowering + JIT -> runs in a forked child -> outputs compared with
 *      the base's -> memo store. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env_internal.h"
#include "pearl/codegen_version.h"
#include "pearl/grow.h"
#include "pearl/mlir_codegen.h"
#include "pearl/mlir_frontend.h"
#include "pearl/transform.h"

/* The schedule in normal form: actions formatted by pearl_action_format,
 * separated by one space, trailing N dropped (moving past the last branch
 * changes nothing). Fills *actions (malloc'd), *n and *norm (malloc'd).
 * Returns 0, -1 with the parse error in msg, -2 if out of memory. */
static int normalize(pearl_ctx *ctx, const char *text,
		     struct pearl_action **actions, int *n, char **norm,
		     char *msg, size_t size)
{
	char buf[64];
	size_t len = 0, cap = 1;
	int i;

	*norm = NULL;
	pearl_ctx_clear_error(ctx);
	*n = pearl_actions_parse(ctx, text, actions);
	if (*n < 0) {
		pearl_error_printf(msg, size, "schedule does not parse: %s",
				   pearl_ctx_last_error(ctx));
		*actions = NULL;
		return -1;
	}
	while (*n > 0 && (*actions)[*n - 1].kind == pearl_action_next)
		--*n;
	for (i = 0; i < *n; ++i) {
		pearl_action_format(&(*actions)[i], buf, sizeof(buf));
		cap += strlen(buf) + 1;
	}
	*norm = malloc(cap);
	if (!*norm)
		return -2;
	(*norm)[0] = '\0';
	for (i = 0; i < *n; ++i) {
		pearl_action_format(&(*actions)[i], buf, sizeof(buf));
		len += (size_t)snprintf(*norm + len, cap - len, "%s%s",
					i ? " " : "", buf);
	}
	return 0;
}

/* Applies the actions to sched, all or none: 1 if every action applied,
 * 0 if one was refused (the reason in msg). */
static int apply_all(pearl_ctx *ctx, pearl_sched *sched,
		     const struct pearl_action *actions, int n, char *msg,
		     size_t size)
{
	char name[64];
	int i, b = 0;

	for (i = 0; i < n; ++i) {
		if (actions[i].kind == pearl_action_next) {
			b++;
			continue;
		}
		pearl_ctx_clear_error(ctx);
		if (pearl_sched_apply(sched, b, &actions[i]) == pearl_stat_ok)
			continue;
		pearl_action_format(&actions[i], name, sizeof(name));
		pearl_error_printf(msg, size,
				   "action %d, %s on branch %d, refused: %s",
				   i + 1, name, b, pearl_ctx_last_error(ctx));
		return 0;
	}
	return 1;
}

/* Checks the actions on p's own model: 1 legal, 0 illegal (msg), -1 the
 * program cannot be modeled (msg). */
static int check_legal(pearl_env_program *p, const struct pearl_action *acts,
		       int n, char *msg, size_t size)
{
	pearl_sched *sched;
	int legal;

	if (env_program_model(p) < 0) {
		pearl_error_printf(msg, size, "%s", p->model_error);
		return -1;
	}
	pearl_ctx_set_max_operations(p->ctx, ENV_ISL_MAX_OPERATIONS);
	sched = pearl_sched_alloc(p->prog, p->deps);
	if (!sched) {
		pearl_error_printf(msg, size, "%s",
				   pearl_ctx_last_error(p->ctx));
		return -1;
	}
	pearl_sched_set_explain(sched, 0);
	legal = apply_all(p->ctx, sched, acts, n, msg, size);
	pearl_sched_free(sched);
	return legal;
}

/* A copy of p's module with the (legal) schedule applied to p's region
 * (@kernel's, or a target's: the function's other regions are left as
 * they are), or a null module with the reason in msg. *same is set to 1
 * if the schedule keeps the code (pearl_sched_keeps_code): the copy is
 * then p's module unchanged. */
static MlirModule generate(pearl_env_program *p,
			   const struct pearl_action *acts, int n, int *same,
			   struct pearl_mlir_codegen_report *report,
			   char *msg, size_t size)
{
	MlirOperation copy = mlirOperationClone(mlirModuleGetOperation(p->module));
	MlirModule module = mlirModuleFromOperation(copy);
	MlirOperation func;
	pearl_mlir_region *regions = NULL, *region;
	pearl_program *prog = NULL;
	pearl_deps *deps = NULL;
	pearl_sched *sched = NULL;
	isl_ast_node *tree = NULL;
	MlirLocation where;
	char skip[256] = "";
	int ok = 0, nr;

	nr = env_program_regions(p, module, &func, &regions, NULL, skip);
	if (!env_program_has_region(p, nr)) {
		pearl_error_printf(msg, size, "the copy of @%s has %d regions",
				   env_program_function(p), nr);
		goto done;
	}
	region = &regions[p->region];
	pearl_ctx_clear_error(p->ctx);
	pearl_ctx_set_max_operations(p->ctx, ENV_ISL_MAX_OPERATIONS);
	where = mlirOperationGetLocation(region->first);
	prog = pearl_mlir_extract(p->ctx, func, region, &where);
	if (prog)
		deps = pearl_deps_compute(prog);
	if (deps)
		sched = pearl_sched_alloc(prog, deps);
	if (!sched) {
		pearl_error_printf(msg, size, "modeling the copy: %s",
				   pearl_ctx_last_error(p->ctx));
		goto done;
	}
	pearl_sched_set_explain(sched, 0);
	if (!apply_all(p->ctx, sched, acts, n, msg, size))
		goto done; /* legal on the model, so not expected */
	*same = pearl_sched_keeps_code(sched);
	if (*same < 0) {
		pearl_error_printf(msg, size, "%s",
				   pearl_ctx_last_error(p->ctx));
		goto done;
	}
	if (*same) {
		ok = 1; /* the copy stays as it is, as in the pass */
		goto done;
	}
	tree = pearl_sched_build_ast(sched);
	if (!tree ||
	    pearl_mlir_codegen_report(p->ctx, region, prog, tree, report) !=
		pearl_stat_ok) {
		const char *why = pearl_ctx_last_error(p->ctx);

		/* the code generator's own errors say where they come from */
		if (!strncmp(why, "code generation: ", 17))
			pearl_error_printf(msg, size, "%s", why);
		else
			pearl_error_printf(msg, size, "code generation: %s",
					   why);
		goto done;
	}
	ok = 1;
done:
	isl_ast_node_free(tree);
	pearl_sched_free(sched);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	free(regions);
	if (!ok) {
		mlirModuleDestroy(module);
		return (MlirModule){NULL};
	}
	return module;
}

/* Wraps `module` (__isl_take) for p, lowers and compiles it: @kernel
 * and @init, or the target's function; JIT-compiled, or by
 * env->opts.again_compiler if `native`. Fills req->init (NULL for a
 * target) and req->kernel. Returns the module, or NULL with the reason
 * in msg (a compile failure: the run is a crash). */
static struct exec_module *compile(pearl_env *env, pearl_env_program *p,
				   MlirModule module, int native,
				   struct env_run_request *req, char *msg,
				   size_t size)
{
	const char *entry = env_program_function(p);
	struct exec_module *mod;
	struct exec_err e = {{0}};
	int ok;

	env_diag_clear(env);
	mod = exec_module_wrap(env->mctx, module, p->name, entry, &e);
	ok = mod && (p->function || exec_module_export(mod, "init", &e) == 0);
	if (ok) {
		env->stats.compilations++;
		ok = (native ? exec_module_compile_native(
				   mod, env->opts.again_compiler,
				   env->opts.again_cflags, &e)
			     : exec_module_compile(mod, &e)) == 0;
	}
	if (ok) {
		req->init = p->function ? NULL
					: exec_module_lookup(mod, "init");
		req->kernel = exec_module_lookup(mod, entry);
		ok = (p->function || req->init) && req->kernel;
		if (!ok)
			exec_fail(&e, "no C interface of %s@%s after "
				  "compilation", p->function ? "" : "@init or ",
				  entry);
	}
	if (ok)
		return mod;
	pearl_error_printf(msg, size, "%s%s%s", e.msg, env->diag[0] ? ": " : "",
			   env->diag);
	exec_module_free(mod);
	return NULL;
}

/* Whether `run` was taken on a contended machine: it ran or timed out,
 * and during its runs some task waited for a CPU more than the options
 * allow (a timeout then says as little about the schedule as a time). */
static int run_contended(const pearl_env *env, const struct env_run_result *run)
{
	return env->opts.max_cpu_pressure > 0 &&
	       (run->status == env_run_ok || run->status == env_run_timeout) &&
	       run->pressure > env->opts.max_cpu_pressure;
}

/* Before measuring p again after contended run number `attempt` (0 for
 * the first), waits 0.5 s, doubled at each attempt; says so on stderr the
 * first time, and every time when verbose. */
static void wait_for_quiet(pearl_env *env, const pearl_env_program *p,
			   int attempt, const struct env_run_result *run)
{
	double wait = 0.5 * (double)(1 << (attempt < 8 ? attempt : 8));
	struct timespec ts;

	if (!env->warned_contention || env->opts.verbose)
		fprintf(stderr,
			"pearl-env: %s: the machine is contended (some task "
			"waited for a CPU %.0f%% of the runs' time): "
			"measuring again in %.1f s; an answer still contended "
			"after %d tries is used but not memoized\n",
			p->name, 100.0 * run->pressure, wait,
			env->opts.contention_retries + 1);
	env->warned_contention = 1;
	ts.tv_sec = (time_t)wait;
	ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Lowers, compiles (as compile does) and runs `module` (__isl_take) with
 * run limit `limit`, its timed runs going on past the options' `runs`
 * until they took timed_seconds in all. A run on a contended machine
 * (run_contended) is run again, up to the options' contention_retries
 * times; *out is the last run. Returns 0 with *out filled (a compile
 * failure is a crash with its message), or -1 on an error of the
 * environment. */
static int compile_and_run(pearl_env *env, pearl_env_program *p,
			   MlirModule module, int native, double timed_seconds,
			   double limit, double init_allowance, int corrupt,
			   struct env_run_result *out)
{
	struct env_run_request req;
	struct exec_module *mod;
	double t0 = pearl_now();
	int ret, attempt;

	memset(out, 0, sizeof(*out));
	memset(&req, 0, sizeof(req));
	mod = compile(env, p, module, native, &req, out->message,
		      sizeof(out->message));
	env->stats.seconds_compile += pearl_now() - t0;
	if (!mod) {
		out->status = env_run_crash;
		return 0;
	}
	req.sig = &p->sig;
	req.size = p->size;
	req.outputs = p->outputs;
	req.n_outputs = p->n_outputs;
	req.hash_all = p->function != NULL;
	req.warmup = env->opts.warmup;
	req.warmup_seconds = env->opts.warmup_seconds;
	req.runs = env->opts.runs;
	req.timed_seconds = timed_seconds;
	req.threads = env->opts.threads;
	req.limit = limit;
	req.init_allowance = init_allowance;
	req.test_corrupt = corrupt;
	req.pressure_path = env->pressure_path;
	req.test_pressure = env->test_pressure;
	for (attempt = 0;; ++attempt) {
		t0 = pearl_now();
		ret = env_run(&req, out);
		env->stats.seconds_run += pearl_now() - t0;
		env->stats.executions += out->executions;
		if (ret < 0 || !run_contended(env, out) ||
		    attempt >= env->opts.contention_retries)
			break;
		env->stats.contention_retries++;
		wait_for_quiet(env, p, attempt, out);
	}
	exec_module_free(mod);
	return ret;
}

/* The machine whose answers serve p (p->machine, chosen once): this
 * machine, unless its memo lacks p's base and one of env->also's has it
 * (the first such). Returns 0, or -1 on an error of the memo (err). */
static int answering_machine(pearl_env *env, pearl_env_program *p, char *err,
			     size_t err_size)
{
	struct env_memo_row row;
	int i, found;

	if (p->machine_chosen)
		return 0;
	p->machine = env->machine;
	for (i = -1; env->memo && i < env->n_also; ++i) {
		found = env_memo_get(env->memo, p->hash, "",
				     i < 0 ? env->machine : env->also[i], &row,
				     err, err_size);
		if (found < 0)
			return -1;
		if (found) {
			p->machine = i < 0 ? env->machine : env->also[i];
			break;
		}
	}
	p->machine_chosen = 1;
	return 0;
}

/* Whether p is answered by another machine's rows (memo_also). */
static int answered_elsewhere(const pearl_env *env,
			      const pearl_env_program *p)
{
	return p->machine_chosen && p->machine != env->machine;
}

/* Before p's first measurement here: p moves to this machine, its base
 * to be taken from this machine's rows or measured (the other machine's
 * base would give a ratio of two machines' times). */
static void answer_here(pearl_env *env, pearl_env_program *p)
{
	if (!answered_elsewhere(env, p))
		return;
	p->machine = env->machine;
	p->base_known = 0;
	env->stats.also_moved++;
	if (env->opts.verbose)
		fprintf(stderr, "pearl-env: %s: measured on this machine from "
			"now on\n", p->name);
}

static int memo_get(pearl_env *env, pearl_env_program *p, const char *sched,
		    struct env_memo_row *row, char *err, size_t err_size)
{
	double t0 = pearl_now();
	int found;

	if (!env->memo)
		return 0;
	if (answering_machine(env, p, err, err_size) < 0)
		return -1;
	found = env_memo_get(env->memo, p->hash, sched, p->machine, row, err,
			     err_size);
	if (found > 0 && *sched && answered_elsewhere(env, p))
		env->stats.also_hits++;
	if (found == 0)
		found = env_memo_get(env->memo, p->hash, sched,
				     ENV_ANY_MACHINE, row, err, err_size);
	env->stats.seconds_memo += pearl_now() - t0;
	return found;
}

/* Whether `row`, an answer for acts[0..n), still holds: an
 * older code generator's answer for a schedule that unrolls (U, J) holds
 * only if the code now generated has no loop promoted by its stride
 * (PEARL_CODEGEN_STRIDE), which generating the code tells in a few
 * milliseconds. Legality did not change. 1 holds, 0 not (time it). */
static int answer_holds(pearl_env *env, pearl_env_program *p,
			const struct pearl_action *acts, int n,
			const struct env_memo_row *row)
{
	struct pearl_mlir_codegen_report report = { 0 };
	MlirModule module;
	char msg[256];
	double t0;
	int i, same = 0, unrolls = 0;

	for (i = 0; i < n; ++i)
		unrolls |= acts[i].kind == pearl_action_unroll ||
			   acts[i].kind == pearl_action_unroll_jam;
	if (row->codegen >= PEARL_CODEGEN_STRIDE ||
	    row->status == PEARL_ENV_ILLEGAL || !unrolls)
		return 1;
	t0 = pearl_now();
	module = generate(p, acts, n, &same, &report, msg, sizeof(msg));
	env->stats.seconds_schedule += pearl_now() - t0;
	if (mlirModuleIsNull(module))
		return 0; /* it fails now: say how */
	mlirModuleDestroy(module);
	return report.n_stride_promoted == 0;
}

static int memo_put(pearl_env *env, pearl_env_program *p, const char *sched,
		    const char *machine, const struct env_memo_row *row,
		    char *err, size_t err_size)
{
	double t0 = pearl_now();
	int ret;

	if (!env->memo)
		return 0;
	ret = env_memo_put(env->memo, p->hash, p->name, sched, machine, row,
			   err, err_size);
	env->stats.seconds_memo += pearl_now() - t0;
	return ret;
}

/* Runs p's unscheduled program (a copy of its module) under the base's
 * limit into *run, nothing memoized. Returns 0, or -1 on an error of the
 * environment (err). */
static int run_base(pearl_env *env, pearl_env_program *p,
		    struct env_run_result *run, char *err, size_t err_size)
{
	MlirModule copy = mlirModuleFromOperation(
	    mlirOperationClone(mlirModuleGetOperation(p->module)));

	if (compile_and_run(env, p, copy, 0, 0, ENV_BASE_LIMIT_SECONDS,
			    ENV_BASE_LIMIT_SECONDS, 0, run) < 0) {
		pearl_error_printf(err, err_size, "%s", run->message);
		return -1;
	}
	return 0;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the rechecked bases' ratios (stats.base_drift). */
static double drift_median(const pearl_env *env)
{
	double v[PEARL_ENV_RECHECK_MAX];
	long n = env->stats.bases_rechecked;

	if (n <= 0)
		return 0;
	memcpy(v, env->drift, (size_t)n * sizeof(v[0]));
	qsort(v, (size_t)n, sizeof(v[0]), compare_doubles);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* recheck_bases: measures p's unscheduled program again, its memoized
 * base `memo` (OK) kept as p's base, and adds new / memoized to the
 * drift; reports a drift outside [0.8, 1.25] once enough are in. A
 * contended measurement, a failed one, or one whose outputs differ from
 * the memo's (that is the memo's answer for another program) adds
 * nothing. Returns 0, or -1 on an error of the environment (err). */
static int recheck_base(pearl_env *env, pearl_env_program *p,
			const struct env_memo_row *memo, char *err,
			size_t err_size)
{
	struct env_run_result run;
	long n = env->stats.bases_rechecked;
	double median;

	if (n >= env->opts.recheck_bases || !(memo->seconds > 0) ||
	    answered_elsewhere(env, p))
		return 0; /* another machine's base is not this one's */
	if (run_base(env, p, &run, err, err_size) < 0)
		return -1;
	if (run.status != env_run_ok || run_contended(env, &run) ||
	    run.hash != memo->output_hash || !(run.best > 0))
		return 0;
	env->drift[n] = run.best / memo->seconds;
	env->stats.bases_rechecked = n + 1;
	median = drift_median(env);
	env->stats.base_drift = median;
	if (env->opts.verbose)
		fprintf(stderr, "pearl-env: %s: base measured again %.6f s, "
			"memo %.6f s (%.2fx)\n", p->name, run.best,
			memo->seconds, env->drift[n]);
	if (!env->warned_drift &&
	    n + 1 >= (env->opts.recheck_bases < 3 ? env->opts.recheck_bases
						   : 3) &&
	    (median < 0.8 || median > 1.25)) {
		env->warned_drift = 1;
		fprintf(stderr,
			"pearl-env: warning: the memo's times for machine "
			"\"%s\" are not this machine's: %ld of its base "
			"times measured again took a median %.2fx of the "
			"memoized ones (another host under the same "
			"fingerprint, or a machine loaded then or now); "
			"--machine NAME keeps this host's answers apart\n",
			env->machine, n + 1, median);
	}
	return 0;
}

/* Makes sure p's base time is known: from p, the memo, or measured now
 * (*measured set; only if `measure_ok`, else p's base may stay unknown).
 * Returns 0, or -1 if the base cannot be measured (the program is unusable;
 * err says why) or on an error of the environment. */
static int get_base(pearl_env *env, pearl_env_program *p, int measure_ok,
		    int *measured, char *err, size_t err_size)
{
	struct env_memo_row row;
	struct env_run_result run;
	int found;

	if (p->base_known)
		return 0;
	found = memo_get(env, p, "", &row, err, err_size);
	if (found < 0)
		return -1;
	if (!measure_ok && (!found || row.status != PEARL_ENV_OK))
		return 0;
	if (!found) {
		answer_here(env, p);
		*measured = 1;
		env->stats.base_measurements++;
		if (run_base(env, p, &run, err, err_size) < 0)
			return -1;
		memset(&row, 0, sizeof(row));
		row.status = run.status == env_run_ok ? PEARL_ENV_OK
			     : run.status == env_run_timeout ? PEARL_ENV_TIMEOUT
							    : PEARL_ENV_FAILED;
		row.seconds = run.best;
		row.cpu_seconds = run.cpu;
		row.init_seconds = run.init;
		row.output_hash = run.hash;
		snprintf(row.message, sizeof(row.message), "%s", run.message);
		/* a contended base serves this environment only */
		if (run_contended(env, &run))
			env->stats.contended++;
		else if (memo_put(env, p, "", env->machine, &row, err,
				  err_size) < 0)
			return -1;
	} else if (measure_ok && row.status == PEARL_ENV_OK &&
		   recheck_base(env, p, &row, err, err_size) < 0) {
		return -1;
	}
	if (row.status != PEARL_ENV_OK) {
		pearl_error_printf(err, err_size,
				   "%s: the unscheduled program does not "
				   "run: %s (%s)",
				   p->name, pearl_env_status_name(row.status),
				   row.message);
		return -1;
	}
	p->base_known = 1;
	p->base_seconds = row.seconds;
	p->base_cpu_seconds = row.cpu_seconds;
	p->base_init_seconds = row.init_seconds;
	p->base_hash = row.output_hash;
	if (env->opts.verbose)
		fprintf(stderr, "pearl-env: %s: base %.6f s (init %.6f s)%s\n",
			p->name, row.seconds, row.init_seconds,
			found ? " (memo)" : "");
	return 0;
}

static int ensure_base(pearl_env *env, pearl_env_program *p, int *measured,
		       char *err, size_t err_size)
{
	return get_base(env, p, 1, measured, err, err_size);
}

/* Fills res from a row (status, times, message). */
static void fill(pearl_env_program *p, const struct env_memo_row *row,
		 struct pearl_env_result *res)
{
	res->status = (enum pearl_env_status)row->status;
	res->base_seconds = p->base_known ? p->base_seconds : 0.0;
	if (row->status == PEARL_ENV_OK) {
		res->seconds = row->seconds;
		res->speedup = row->seconds > 0 ? p->base_seconds / row->seconds
						: 0.0;
		res->cpu_seconds = row->cpu_seconds;
	}
	snprintf(res->message, sizeof(res->message), "%s", row->message);
}

static void count(pearl_env *env, const struct pearl_env_result *res)
{
	env->stats.illegal += res->status == PEARL_ENV_ILLEGAL;
	env->stats.timeouts += res->status == PEARL_ENV_TIMEOUT;
	env->stats.wrong_outputs += res->status == PEARL_ENV_WRONG_OUTPUT;
	if (res->memo_hit)
		env->stats.memo_hits++;
	else
		env->stats.memo_misses++;
}

/* The hash at `user` continued over a piece of printed text. */
static void hash_text(MlirStringRef text, void *user)
{
	uint64_t *h = user;

	*h = env_fnv1a(*h, text.data, text.length);
}

/* FNV-1a of the text of `module` (kept): the code a schedule generates. */
static uint64_t code_hash(MlirModule module)
{
	uint64_t h = ENV_FNV1A_BASIS;

	mlirOperationPrint(mlirModuleGetOperation(module), hash_text, &h);
	return h;
}

/* The schedule measured before whose code hashes to `code`, or NULL. */
static const struct env_code_twin *code_twin(const pearl_env_program *p,
					     uint64_t code)
{
	int i;

	for (i = 0; i < p->n_twins; ++i)
		if (p->twins[i].code == code)
			return &p->twins[i];
	return NULL;
}

/* Remembers the answer `row` (kept) of schedule `norm`, whose code hashes
 * to `code`: OK and TIMEOUT answers only (the others say nothing of the
 * code's speed). Forgetting (out of memory) only costs a run. */
static void remember_code(pearl_env_program *p, uint64_t code,
			  const char *norm, const struct env_memo_row *row)
{
	struct env_code_twin *t;

	if ((row->status != PEARL_ENV_OK && row->status != PEARL_ENV_TIMEOUT) ||
	    code_twin(p, code) ||
	    pearl_grow(&p->twins, &p->cap_twins, p->n_twins + 1,
		       sizeof(*p->twins)) < 0)
		return;
	t = &p->twins[p->n_twins];
	t->schedule = strdup(norm);
	if (!t->schedule)
		return;
	t->code = code;
	t->status = row->status;
	t->seconds = row->seconds;
	t->cpu_seconds = row->cpu_seconds;
	t->init_seconds = row->init_seconds;
	t->output_hash = row->output_hash;
	p->n_twins++;
}

/* The answer of twin `t` (kept) into *row. */
static void twin_answer(const struct env_code_twin *t,
			struct env_memo_row *row)
{
	row->status = t->status;
	row->seconds = t->seconds;
	row->cpu_seconds = t->cpu_seconds;
	row->init_seconds = t->init_seconds;
	row->output_hash = t->output_hash;
	snprintf(row->message, sizeof(row->message),
		 "the same code as \"%.200s\": its answer", t->schedule);
}

/* Measures the (legal) schedule: generates, compiles, runs, compares;
 * fills row. A schedule that keeps the code gets the base's time, and one
 * that generates the code of a schedule measured before gets that one's
 * answer, unless `again` (then it is run as it is). *contended is set to
 * 1 if the machine was contended even after the retries (the row is then
 * not to be memoized). Returns 0, or -1 on an error of the environment. */
static int measure(pearl_env *env, pearl_env_program *p, const char *norm,
		   const struct pearl_action *acts, int n, int again,
		   struct env_memo_row *row, int *any_machine, int *contended,
		   char *err, size_t err_size)
{
	struct env_run_result run;
	MlirModule module;
	const struct env_code_twin *twin;
	double t0 = pearl_now(), limit;
	uint64_t code;
	int same = 0;

	memset(row, 0, sizeof(*row));
	module = generate(p, acts, n, &same, NULL, row->message,
			  sizeof(row->message));
	env->stats.seconds_schedule += pearl_now() - t0;
	if (mlirModuleIsNull(module)) {
		row->status = PEARL_ENV_FAILED;
		*any_machine = 1;
		return 0;
	}
	if (same && !again) {
		/* The same code as the base: its time, not a second sample
		 * of it (on small kernels, run-to-run noise alone was worth
		 * +-20%). */
		mlirModuleDestroy(module);
		row->status = PEARL_ENV_OK;
		row->seconds = p->base_seconds;
		row->cpu_seconds = p->base_cpu_seconds;
		row->init_seconds = p->base_init_seconds;
		row->output_hash = p->base_hash;
		snprintf(row->message, sizeof(row->message),
			 "the schedule keeps the code: the base's time");
		return 0;
	}
	/* The same code as a schedule measured before: its answer (a
	 * second run would only add noise, and the search could then prefer
	 * one twin by chance). Measuring again (`again`) runs anyway. */
	code = code_hash(module);
	if (!again && (twin = code_twin(p, code)) != NULL) {
		mlirModuleDestroy(module);
		twin_answer(twin, row);
		env->stats.code_twins++;
		return 0;
	}
	limit = env->opts.timeout_factor * p->base_seconds;
	if (limit < env->opts.timeout_min_seconds)
		limit = env->opts.timeout_min_seconds;
	if (env->test_timeout)
		limit = 1e-9;
	if (compile_and_run(env, p, module,
			    again && env->opts.again_compiler != NULL,
			    again ? env->opts.again_min_seconds : 0, limit,
			    4 * p->base_init_seconds + 0.5, env->test_corrupt,
			    &run) < 0) {
		pearl_error_printf(err, err_size, "%s", run.message);
		return -1;
	}
	snprintf(row->message, sizeof(row->message), "%s", run.message);
	row->init_seconds = run.init;
	*contended = run_contended(env, &run);
	switch (run.status) {
	case env_run_ok:
		row->seconds = run.best;
		row->cpu_seconds = run.cpu;
		row->output_hash = run.hash;
		row->status = PEARL_ENV_OK;
		if (run.hash != p->base_hash) {
			row->status = PEARL_ENV_WRONG_OUTPUT;
			snprintf(row->message, sizeof(row->message),
				 "outputs hash %016" PRIx64 " differ from the "
				 "unscheduled program's %016" PRIx64, run.hash,
				 p->base_hash);
			fprintf(stderr, "pearl-env: WRONG OUTPUT (a Pearl "
				"bug): %s (%s) schedule \"%s\": %s\n", p->name,
				p->hash, norm, row->message);
		}
		break;
	case env_run_timeout:
		row->status = PEARL_ENV_TIMEOUT;
		row->seconds = limit;
		break;
	default:
		row->status = PEARL_ENV_FAILED;
		break;
	}
	if (!*contended)
		remember_code(p, code, norm, row);
	return 0;
}

/* The query's start, for pearl_env_time and pearl_env_time_again: p's
 * context (made on first use, under the environment's time limit) and
 * the schedule parsed and normalized into *acts, *n, *norm (malloc'd).
 * 1 if it parses; 0 if it does not (res says ILLEGAL and why); -1 if
 * memory is exhausted (err). */
static int start_query(pearl_env *env, pearl_env_program *p,
		       const char *schedule, struct pearl_action **acts,
		       int *n, char **norm, struct pearl_env_result *res,
		       char *err, size_t err_size)
{
	int rc;

	memset(res, 0, sizeof(*res));
	if (!p->ctx && !(p->ctx = pearl_ctx_alloc())) {
		pearl_error_printf(err, err_size, "out of memory");
		return -1;
	}
	pearl_ctx_set_time_limit(p->ctx, env->opts.time_limit);
	rc = normalize(p->ctx, schedule ? schedule : "", acts, n, norm,
		       res->message, sizeof(res->message));
	if (rc == -2) {
		pearl_error_printf(err, err_size, "out of memory");
		return -1;
	}
	if (rc == -1) {
		res->status = PEARL_ENV_ILLEGAL;
		return 0;
	}
	return 1;
}

int pearl_env_time(pearl_env *env, pearl_env_program *p, const char *schedule,
		   struct pearl_env_result *res, char *err, size_t err_size)
{
	struct pearl_action *acts = NULL;
	struct env_memo_row row;
	char *norm = NULL;
	int n, rc, found, measured = 0, any_machine = 0, legal, ret = -1;
	int contended = 0;
	double t0;

	env->stats.queries++;
	rc = start_query(env, p, schedule, &acts, &n, &norm, res, err,
			 err_size);
	if (rc < 0)
		goto done;
	if (rc == 0) {
		ret = 0;
		goto counted;
	}
	if (!*norm) {
		if (ensure_base(env, p, &measured, err, err_size) < 0)
			goto done;
		res->status = PEARL_ENV_OK;
		res->seconds = res->base_seconds = p->base_seconds;
		res->speedup = 1.0;
		res->memo_hit = !measured;
		ret = 0;
		goto counted;
	}
	found = memo_get(env, p, norm, &row, err, err_size);
	if (found < 0)
		goto done;
	if (found && !answer_holds(env, p, acts, n, &row))
		found = 0;
	if (found) {
		/* The speedup of an OK answer needs the base; other answers
		 * report it only if known. */
		if (get_base(env, p, row.status == PEARL_ENV_OK, &measured,
			     err, err_size) < 0)
			goto done;
		fill(p, &row, res);
		res->memo_hit = !measured;
		ret = 0;
		goto counted;
	}
	t0 = pearl_now();
	memset(&row, 0, sizeof(row));
	legal = check_legal(p, acts, n, row.message, sizeof(row.message));
	env->stats.seconds_schedule += pearl_now() - t0;
	if (legal <= 0) {
		/* Illegal, or @kernel cannot be modeled: either way no
		 * schedule applies, on any machine. The base time is reported
		 * if the memo has it, but not measured for this answer. */
		row.status = legal == 0 ? PEARL_ENV_ILLEGAL : PEARL_ENV_FAILED;
		any_machine = 1;
		if (get_base(env, p, 0, &measured, err, err_size) < 0)
			goto done;
	} else {
		answer_here(env, p);
		if (ensure_base(env, p, &measured, err, err_size) < 0 ||
		    measure(env, p, norm, acts, n, 0, &row, &any_machine,
			    &contended, err, err_size) < 0)
			goto done;
	}
	if (contended)
		env->stats.contended++;
	else if (memo_put(env, p, norm,
			  any_machine ? ENV_ANY_MACHINE : env->machine, &row,
			  err, err_size) < 0)
		goto done;
	fill(p, &row, res);
	ret = 0;
counted:
	count(env, res);
	if (env->opts.verbose)
		fprintf(stderr, "pearl-env: %s \"%s\": %s %.6f s (base %.6f s, "
			"cpu %.6f s)%s%s%s%s\n", p->name,
			norm ? norm : schedule,
			pearl_env_status_name(res->status), res->seconds,
			res->base_seconds, res->cpu_seconds,
			res->memo_hit ? " memo" : "",
			contended ? " contended, not memoized" : "",
			res->message[0] ? ": " : "", res->message);
done:
	free(acts);
	free(norm);
	return ret;
}

int pearl_env_time_again(pearl_env *env, pearl_env_program *p,
			 const char *schedule, struct pearl_env_result *res,
			 char *err, size_t err_size)
{
	struct pearl_action *acts = NULL;
	struct env_memo_row row;
	char *norm = NULL;
	int n, rc, measured = 0, any_machine = 0, legal, ret = -1;
	int contended = 0;

	rc = start_query(env, p, schedule, &acts, &n, &norm, res, err,
			 err_size);
	if (rc <= 0) {
		ret = rc;
		goto done;
	}
	if (answering_machine(env, p, err, err_size) < 0)
		goto done;
	answer_here(env, p);
	if (ensure_base(env, p, &measured, err, err_size) < 0)
		goto done;
	legal = check_legal(p, acts, n, row.message, sizeof(row.message));
	if (legal <= 0) {
		memset(&row, 0, sizeof(row));
		row.status = legal == 0 ? PEARL_ENV_ILLEGAL : PEARL_ENV_FAILED;
	} else if (measure(env, p, norm, acts, n, 1, &row, &any_machine,
			   &contended, err, err_size) < 0) {
		goto done;
	}
	fill(p, &row, res);
	ret = 0;
done:
	free(acts);
	free(norm);
	return ret;
}
