/* Targets of ordinary modules: (function, region) pairs of a module
 * outside the kernel contract, listed (pearl_env_targets_find) and loaded
 * as programs of the environment (pearl_env_target_load). Queries on them
 * go through env_time.c as for @kernel; what differs is kept in the
 * program (function, region, size): the function timed, the region
 * modeled and rewritten, and the inputs made as pearl-exec makes them. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>

#include "env_internal.h"
#include "pearl/grow.h"
#include "pearl/mlir_linalg.h"
#include "pearl/str.h"

/* One public function of a module. */
struct target_fn {
	char *name;         /* owned; the symbol name */
	char *why;          /* owned; NULL: callable, with a loop region */
	int n_regions;
	char **why_region;  /* owned, n_regions entries; NULL: a target */
};

struct pearl_env_targets {
	struct target_fn *fns; /* owned, n entries */
	int n, cap;
};

/* Keeps the first reason a nest is left (user: char[256]). */
static void first_skip(MlirLocation loc, const char *reason, void *user)
{
	char *msg = user;

	(void)loc;
	if (!msg[0])
		snprintf(msg, 256, "%s", reason);
}

/* Expands the linalg ops of `func` (kept) into affine loops for good, as
 * the pass expands them before it finds the regions (so that both number
 * them alike); an op whose nest lies in no region is put back. Ops left
 * alone are reported to skip. 0, or -1 if memory is exhausted. */
static int expand_linalg(MlirOperation func, pearl_mlir_skip_fn skip,
			 void *user)
{
	pearl_mlir_linalg *lin = pearl_mlir_linalg_expand(func, skip, user);
	pearl_mlir_region *regions = NULL;
	int *all = NULL, i, n = 0;

	if (!lin)
		return -1;
	if (pearl_mlir_linalg_n_ops(lin) > 0)
		n = pearl_mlir_find_regions(func, &regions, NULL, NULL);
	if (n > 0)
		all = malloc(n * sizeof(*all));
	if (n < 0 || (n > 0 && !all)) {
		pearl_mlir_linalg_settle(lin, NULL);
		free(regions);
		return -1;
	}
	for (i = 0; i < n; ++i)
		all[i] = 1;
	pearl_mlir_linalg_assign(lin, regions, n);
	pearl_mlir_linalg_settle(lin, all);
	free(all);
	free(regions);
	return 0;
}

/* Expands the linalg ops of every function of `module` (kept) for good:
 * the target's, so that its regions are the pass's, and the others', so
 * that the module lowers (the lowering has no linalg). 0, or -1 if memory
 * is exhausted. */
static int expand_module(MlirModule module)
{
	MlirOperation op;

	op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
	for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
		if (exec_func_is_defined(op) &&
		    expand_linalg(op, NULL, NULL) < 0)
			return -1;
	return 0;
}

/* Parses `text` into env's context; a null module with the reason in err
 * (`name`, if not NULL, names it). */
static MlirModule parse(pearl_env *env, const char *text, const char *name,
			char *err, size_t err_size)
{
	MlirModule module;

	env_diag_clear(env);
	module = mlirModuleCreateParse(env->mctx,
				       mlirStringRefCreateFromCString(text));
	if (mlirModuleIsNull(module))
		pearl_error_printf(err, err_size,
				   "%s%scannot parse the module: %s",
				   name ? name : "", name ? ": " : "",
				   env->diag[0] ? env->diag : "(no message)");
	return module;
}

int pearl_env_kernel_contract(pearl_env *env, const char *text, char *err,
			      size_t err_size)
{
	MlirModule module = parse(env, text, NULL, err, err_size);
	int ok;

	if (mlirModuleIsNull(module))
		return -1;
	ok = strstr(text, "// outputs:") &&
	     !mlirOperationIsNull(exec_find_func(module, "init")) &&
	     !mlirOperationIsNull(exec_find_func(module, "kernel"));
	mlirModuleDestroy(module);
	return ok;
}

/* A malloc'd printf (NULL if memory is exhausted). */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Why region `region` of `func` cannot be modeled, extracted and analyzed
 * as the pass does (*why malloc'd), or *why NULL if it can. 0, or -1 if
 * memory is exhausted. */
static int model_region(MlirOperation func, const pearl_mlir_region *region,
			const char *label, const char *fn, int index,
			char **why)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_program *prog;
	pearl_deps *deps = NULL;
	MlirLocation where;

	*why = NULL;
	if (!ctx)
		return -1;
	pearl_ctx_set_max_operations(ctx, ENV_ISL_MAX_OPERATIONS);
	where = mlirOperationGetLocation(region->first);
	prog = pearl_mlir_extract(ctx, func, region, &where);
	if (prog)
		deps = pearl_deps_compute(prog);
	if (!deps)
		*why = format("%s: @%s region %d cannot be modeled: %s", label,
			      fn, index, pearl_ctx_last_error(ctx));
	pearl_deps_free(deps);
	pearl_program_free(prog);
	pearl_ctx_free(ctx);
	return deps || *why ? 0 : -1;
}

/* Fills fn's regions from `func` (kept; its linalg ops are expanded):
 * their number and why each is not a target, or fn->why if there is
 * none. 0, or -1 if memory is exhausted. */
static int find_regions(struct target_fn *fn, MlirOperation func,
			const char *label)
{
	pearl_mlir_region *regions = NULL;
	char first[256] = "";
	int r, n;

	if (expand_linalg(func, first_skip, first) < 0)
		return -1;
	n = pearl_mlir_find_regions(func, &regions, first_skip, first);
	if (n < 0)
		return -1;
	if (n == 0) {
		free(regions);
		fn->why = first[0] ? format("%s: @%s: no loop nest Pearl can "
					    "model: %s", label, fn->name, first)
				   : format("%s: @%s has no loop nest", label,
					    fn->name);
		return fn->why ? 0 : -1;
	}
	fn->why_region = calloc(n, sizeof(*fn->why_region));
	for (r = 0; fn->why_region && r < n; ++r)
		if (model_region(func, &regions[r], label, fn->name, r,
				 &fn->why_region[r]) < 0)
			break;
	fn->n_regions = fn->why_region ? r : 0;
	free(regions);
	return fn->why_region && r == n ? 0 : -1;
}

/* The symbol name of `func` (malloc'd), NULL if memory is exhausted. */
static char *symbol_name(MlirOperation func)
{
	MlirAttribute sym = mlirOperationGetAttributeByName(
	    func, mlirStringRefCreateFromCString("sym_name"));
	MlirStringRef s = mlirStringAttrGetValue(sym);

	return strndup(s.data, s.length);
}

/* Appends the public function `func` (kept) to t. 0, or -1 if memory is
 * exhausted. */
static int add_function(pearl_env_targets *t, MlirOperation func,
			const char *label)
{
	struct exec_sig sig = {0};
	struct exec_err e = {{0}};
	struct target_fn *fn;

	if (pearl_grow(&t->fns, &t->cap, t->n + 1, sizeof(*t->fns)) < 0)
		return -1;
	fn = &t->fns[t->n++];
	memset(fn, 0, sizeof(*fn));
	fn->name = symbol_name(func);
	if (!fn->name)
		return -1;
	if (exec_func_signature(func, label, &sig, &e) < 0) {
		exec_sig_clear(&sig);
		fn->why = strdup(e.msg);
		return fn->why ? 0 : -1;
	}
	exec_sig_clear(&sig);
	return find_regions(fn, func, label);
}

pearl_env_targets *pearl_env_targets_find(pearl_env *env, const char *text,
					  const char *name, char *err,
					  size_t err_size)
{
	const char *label = name ? name : "module";
	MlirModule module = parse(env, text, label, err, err_size);
	pearl_env_targets *t;
	MlirOperation op;

	if (mlirModuleIsNull(module))
		return NULL;
	t = calloc(1, sizeof(*t));
	op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
	for (; t && !mlirOperationIsNull(op);
	     op = mlirOperationGetNextInBlock(op))
		if (exec_func_is_public(op) && add_function(t, op, label) < 0)
			t = pearl_env_targets_free(t);
	mlirModuleDestroy(module);
	if (!t)
		pearl_error_printf(err, err_size, "out of memory");
	return t;
}

pearl_env_targets *pearl_env_targets_free(pearl_env_targets *t)
{
	int f;

	if (!t)
		return NULL;
	for (f = 0; f < t->n; ++f) {
		pearl_str_array_free(t->fns[f].why_region, t->fns[f].n_regions);
		free(t->fns[f].why);
		free(t->fns[f].name);
	}
	free(t->fns);
	free(t);
	return NULL;
}

int pearl_env_targets_n_functions(const pearl_env_targets *t)
{
	return t->n;
}

const char *pearl_env_targets_function(const pearl_env_targets *t, int f)
{
	return t->fns[f].name;
}

int pearl_env_targets_n_regions(const pearl_env_targets *t, int f)
{
	return t->fns[f].n_regions;
}

const char *pearl_env_targets_why_not(const pearl_env_targets *t, int f,
				      int r)
{
	if (r < 0)
		return t->fns[f].why;
	return t->fns[f].why_region[r];
}

/* Fills p's signature and outputs (every memref argument) from its
 * function; the module's linalg ops are expanded. 0, or -1 with err. */
static int target_function(pearl_env_program *p, char *err, size_t err_size)
{
	MlirOperation func = exec_find_func(p->module, p->function);
	struct exec_err e = {{0}};
	int i;

	if (mlirOperationIsNull(func)) {
		pearl_error_printf(err, err_size,
				   "%s: no func.func @%s with a body", p->name,
				   p->function);
		return -1;
	}
	if (exec_func_signature(func, p->name, &p->sig, &e) < 0) {
		pearl_error_printf(err, err_size, "%s", e.msg);
		return -1;
	}
	p->outputs = malloc((p->sig.n_args + 1) * sizeof(*p->outputs));
	if (!p->outputs || expand_module(p->module) < 0) {
		pearl_error_printf(err, err_size, "out of memory");
		return -1;
	}
	for (i = 0; i < p->sig.n_args; ++i)
		if (p->sig.args[i].is_memref)
			p->outputs[p->n_outputs++] = i;
	return 0;
}

/* Sets p's target and its program hash: the module's continued with
 * "@function#region size=N". 0, or -1 with err. */
static int set_target(pearl_env_program *p, const char *text,
		      const char *function, int region, int64_t size,
		      char *err, size_t err_size)
{
	char *extra;

	if (region < 0 || size < 0) {
		pearl_error_printf(err, err_size,
				   "%s: bad target @%s region %d size "
				   "%" PRId64 " (region and size >= 0)",
				   p->name, function, region, size);
		return -1;
	}
	p->function = strdup(function);
	extra = format("@%s#%d size=%" PRId64, function, region, size);
	if (!p->function || !extra) {
		free(extra);
		pearl_error_printf(err, err_size, "out of memory");
		return -1;
	}
	p->region = region;
	p->size = size;
	env_program_hash(text, extra, p->hash);
	free(extra);
	return 0;
}

pearl_env_program *pearl_env_target_load(pearl_env *env, const char *text,
					 const char *name,
					 const char *function, int region,
					 int64_t size, char *err,
					 size_t err_size)
{
	pearl_env_program *p;

	p = env_program_alloc(env, text, name, err, err_size);
	if (!p)
		return NULL;
	if (set_target(p, text, function, region, size, err, err_size) < 0 ||
	    target_function(p, err, err_size) < 0)
		return pearl_env_program_free(p);
	if (env_program_model(p) < 0) {
		pearl_error_printf(err, err_size, "%s: %s", p->name,
				   p->model_error);
		return pearl_env_program_free(p);
	}
	return p;
}

const char *pearl_env_program_function(const pearl_env_program *p)
{
	return env_program_function(p);
}

int pearl_env_program_region(const pearl_env_program *p)
{
	return p->region;
}
