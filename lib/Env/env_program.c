/* Programs of the environment: loading a module in the kernel contract,
 * its hash, its outputs, and its model for the agent (the parts shared
 * with the targets of ordinary modules, env_target.c, too). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_internal.h"
#include "pearl/fingerprint.h"
#include "pearl/grow.h"
#include "pearl/mlir_frontend.h"
#include "pearl/transform.h"

uint64_t env_fnv1a(uint64_t h, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i) {
		h ^= (unsigned char)p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The end of the code on the line [p, end): before a `//` comment that is
 * not inside a string literal. */
static const char *code_end(const char *p, const char *end)
{
	int in_string = 0;

	for (; p < end; ++p) {
		if (in_string && *p == '\\' && p + 1 < end)
			++p;
		else if (*p == '"')
			in_string = !in_string;
		else if (!in_string && p[0] == '/' && p + 1 < end &&
			 p[1] == '/')
			return p;
	}
	return end;
}

void env_program_hash(const char *text, const char *extra, char out[17])
{
	uint64_t h = ENV_FNV1A_BASIS;
	const char *line = text, *eol, *b, *e;

	while (*line) {
		eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		b = line;
		e = code_end(line, eol);
		while (b < e && isspace((unsigned char)*b))
			++b;
		while (e > b && isspace((unsigned char)e[-1]))
			--e;
		if (e > b) {
			h = env_fnv1a(h, b, (size_t)(e - b));
			h = env_fnv1a(h, "\n", 1);
		}
		line = *eol ? eol + 1 : eol;
	}
	if (extra) {
		h = env_fnv1a(h, extra, strlen(extra));
		h = env_fnv1a(h, "\n", 1);
	}
	snprintf(out, 17, "%016" PRIx64, h);
}

/* Parses the `// outputs: 2,5` header into p->outputs. */
static int parse_outputs(pearl_env_program *p, const char *text, char *err,
			 size_t err_size)
{
	const char *s = strstr(text, "// outputs:");
	char *end;
	long v;
	int cap = 0;

	if (!s) {
		pearl_error_printf(err, err_size, "%s: no `// outputs:` header "
				   "(the kernel contract names the arguments "
				   "@kernel writes)", p->name);
		return -1;
	}
	s += strlen("// outputs:");
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == ',')
			++s;
		if (!isdigit((unsigned char)*s))
			break;
		v = strtol(s, &end, 10);
		s = end;
		if (v < 0 || v >= p->sig.n_args) {
			pearl_error_printf(err, err_size,
					   "%s: output %ld is not an "
					   "argument of @kernel (%d arguments)",
					   p->name, v, p->sig.n_args);
			return -1;
		}
		if (pearl_grow(&p->outputs, &cap, p->n_outputs + 1,
			       sizeof(*p->outputs)) < 0) {
			pearl_error_printf(err, err_size, "out of memory");
			return -1;
		}
		p->outputs[p->n_outputs++] = (int)v;
	}
	if (p->n_outputs == 0) {
		pearl_error_printf(err, err_size,
				   "%s: the `// outputs:` header names no "
				   "argument",
				   p->name);
		return -1;
	}
	return 0;
}

/* Checks that @init and @kernel exist, have one signature, and take only
 * statically shaped memrefs; fills p->sig. */
static int check_signature(pearl_env_program *p, char *err, size_t err_size)
{
	MlirOperation init = exec_find_func(p->module, "init");
	MlirOperation kernel = exec_find_func(p->module, "kernel");
	struct exec_sig init_sig = {0};
	struct exec_err e = {{0}};
	int i, d, ok;

	if (mlirOperationIsNull(init) || mlirOperationIsNull(kernel)) {
		pearl_error_printf(err, err_size,
				   "%s: the kernel contract needs "
				   "func.func @init and @kernel with bodies",
				   p->name);
		return -1;
	}
	if (exec_func_signature(kernel, p->name, &p->sig, &e) < 0 ||
	    exec_func_signature(init, p->name, &init_sig, &e) < 0) {
		exec_sig_clear(&init_sig);
		pearl_error_printf(err, err_size, "%s", e.msg);
		return -1;
	}
	ok = exec_sig_equal(&p->sig, &init_sig);
	exec_sig_clear(&init_sig);
	if (!ok) {
		pearl_error_printf(err, err_size,
				   "%s: @init and @kernel have different "
				   "signatures",
				   p->name);
		return -1;
	}
	if (p->sig.n_results) {
		pearl_error_printf(err, err_size,
				   "%s: @kernel returns a value (the "
				   "kernel contract has none)",
				   p->name);
		return -1;
	}
	for (i = 0; i < p->sig.n_args; ++i) {
		const struct exec_type *t = &p->sig.args[i];

		ok = t->is_memref;
		for (d = 0; ok && d < t->rank; ++d)
			ok = t->shape[d] >= 0;
		if (!ok) {
			pearl_error_printf(err, err_size, "%s: argument %d of "
					   "@kernel is %s (the kernel contract "
					   "takes statically shaped memrefs "
					   "only)", p->name, i, t->spelling);
			return -1;
		}
	}
	return 0;
}

pearl_env_program *env_program_alloc(pearl_env *env, const char *text,
				     const char *name, char *err,
				     size_t err_size)
{
	pearl_env_program *p;

	p = calloc(1, sizeof(*p));
	if (!p || !(p->name = strdup(name ? name : "program"))) {
		free(p);
		pearl_error_printf(err, err_size, "out of memory");
		return NULL;
	}
	p->env = env;
	env->n_programs++;
	env_diag_clear(env);
	p->module = mlirModuleCreateParse(env->mctx,
					  mlirStringRefCreateFromCString(text));
	if (mlirModuleIsNull(p->module)) {
		pearl_error_printf(err, err_size,
				   "%s: cannot parse the module: %s", p->name,
				   env->diag[0] ? env->diag : "(no message)");
		return pearl_env_program_free(p);
	}
	return p;
}

pearl_env_program *pearl_env_program_load(pearl_env *env, const char *text,
					  const char *name, char *err,
					  size_t err_size)
{
	pearl_env_program *p;

	p = env_program_alloc(env, text, name, err, err_size);
	if (!p)
		return NULL;
	env_program_hash(text, NULL, p->hash);
	if (check_signature(p, err, err_size) < 0 ||
	    parse_outputs(p, text, err, err_size) < 0)
		return pearl_env_program_free(p);
	return p;
}

pearl_env_program *pearl_env_program_free(pearl_env_program *p)
{
	if (!p)
		return NULL;
	while (p->n_twins > 0)
		free(p->twins[--p->n_twins].schedule);
	free(p->twins);
	pearl_deps_free(p->deps);
	pearl_program_free(p->prog);
	pearl_ctx_free(p->ctx);
	if (!mlirModuleIsNull(p->module))
		mlirModuleDestroy(p->module);
	exec_sig_clear(&p->sig);
	free(p->outputs);
	free(p->function);
	free(p->name);
	p->env->n_programs--;
	free(p);
	return NULL;
}

const char *pearl_env_program_hash(const pearl_env_program *p)
{
	return p->hash;
}

const char *pearl_env_program_name(const pearl_env_program *p)
{
	return p->name;
}

/* Keeps the first reason a nest cannot be modeled. */
static void note_skip(MlirLocation loc, const char *reason, void *user)
{
	char *msg = user;

	(void)loc;
	if (!msg[0])
		snprintf(msg, 256, "%s", reason);
}

const char *env_program_function(const pearl_env_program *p)
{
	return p->function ? p->function : "kernel";
}

int env_program_regions(const pearl_env_program *p, MlirModule module,
			MlirOperation *func, pearl_mlir_region **regions,
			pearl_mlir_skip_fn skip, void *user)
{
	*regions = NULL;
	*func = exec_find_func(module, env_program_function(p));
	if (mlirOperationIsNull(*func))
		return 0;
	return pearl_mlir_find_regions(*func, regions, skip, user);
}

int env_program_has_region(const pearl_env_program *p, int n)
{
	return p->function ? p->region < n : n == 1;
}

/* Records in p->model_error why p's function has no region p->region
 * (n regions found; `why`, the first nest skipped, may be empty). */
static void no_region(pearl_env_program *p, int n, const char *why)
{
	char first[160] = "";

	memcpy(first, why, strnlen(why, sizeof(first) - 1));
	if (p->function)
		snprintf(p->model_error, sizeof(p->model_error),
			 "@%s has %d loop region%s (no region %d)"
			 "%s%s", p->function, n < 0 ? 0 : n, n == 1 ? "" : "s",
			 p->region, first[0] ? ": " : "", first);
	else
		snprintf(p->model_error, sizeof(p->model_error),
			 "@kernel has %d modeled loop regions (the environment "
			 "needs exactly one)%s%s", n < 0 ? 0 : n,
			 first[0] ? ": " : "", first);
}

int env_program_model(pearl_env_program *p)
{
	MlirOperation func;
	pearl_mlir_region *regions = NULL;
	MlirLocation where;
	uint64_t fp = 0;
	int n;

	if (p->model_tried)
		return p->prog ? 0 : -1;
	p->model_tried = 1;
	if (!p->ctx)
		p->ctx = pearl_ctx_alloc();
	if (!p->ctx) {
		snprintf(p->model_error, sizeof(p->model_error),
			 "out of memory");
		return -1;
	}
	n = env_program_regions(p, p->module, &func, &regions, note_skip,
				p->model_error);
	if (!env_program_has_region(p, n)) {
		no_region(p, n, p->model_error);
		free(regions);
		return -1;
	}
	p->model_error[0] = '\0';
	pearl_ctx_set_max_operations(p->ctx, ENV_ISL_MAX_OPERATIONS);
	pearl_ctx_set_time_limit(p->ctx, p->env->opts.time_limit);
	where = mlirOperationGetLocation(regions[p->region].first);
	p->prog = pearl_mlir_extract(p->ctx, func, &regions[p->region],
				     &where);
	/* Where pearl-schedule computes it: before any analysis. */
	if (p->prog && pearl_program_fingerprint(p->prog, &fp) == 0)
		p->deps = pearl_deps_compute(p->prog);
	pearl_fingerprint_format(fp, p->fingerprint);
	free(regions);
	if (!p->deps) {
		if (p->function)
			snprintf(p->model_error, sizeof(p->model_error),
				 "@%s region %d cannot be modeled: %s",
				 p->function, p->region,
				 pearl_ctx_last_error(p->ctx));
		else
			snprintf(p->model_error, sizeof(p->model_error),
				 "@kernel cannot be modeled: %s",
				 pearl_ctx_last_error(p->ctx));
		p->prog = pearl_program_free(p->prog);
		return -1;
	}
	return 0;
}

const char *pearl_env_program_fingerprint(pearl_env_program *p, char *err,
					  size_t err_size)
{
	if (env_program_model(p) < 0) {
		pearl_error_printf(err, err_size, "%s: %s", p->name,
				   p->model_error);
		return NULL;
	}
	return p->fingerprint;
}

pearl_sched *pearl_env_program_sched(pearl_env_program *p, char *err,
				     size_t err_size)
{
	pearl_sched *sched;

	if (env_program_model(p) < 0) {
		pearl_error_printf(err, err_size, "%s: %s", p->name,
				   p->model_error);
		return NULL;
	}
	/* The whole quota for what the caller does with it (an episode, a
	 * search's root), as check_legal and generate give theirs. */
	pearl_ctx_clear_error(p->ctx);
	pearl_ctx_set_max_operations(p->ctx, ENV_ISL_MAX_OPERATIONS);
	sched = pearl_sched_alloc(p->prog, p->deps);
	if (!sched)
		pearl_error_printf(err, err_size, "%s: %s", p->name,
				   pearl_ctx_last_error(p->ctx));
	return sched;
}

char *pearl_env_program_agent_schedule(pearl_env_program *p,
				       const pearl_policy *policy,
				       const struct pearl_agent_options *opts,
				       char *err, size_t err_size)
{
	pearl_sched *sched = pearl_env_program_sched(p, err, err_size);
	char *text;

	if (!sched)
		return NULL;
	text = pearl_agent_schedule(sched, policy, opts);
	if (!text)
		pearl_error_printf(err, err_size, "the agent failed: %s",
				   pearl_ctx_last_error(pearl_program_get_ctx(
				       pearl_sched_get_program(sched))));
	pearl_sched_free(sched);
	return text;
}
