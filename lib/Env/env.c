/* The environment: options, the MLIR context, the memo database, the
 * machine fingerprint and the counters. */
#include <mlir-c/Diagnostics.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env_internal.h"
#include "pearl/ctx.h"

/* The defaults of pearl/env.h; the fields not named are 0 or NULL. */
static const struct pearl_env_options env_defaults = {
	.warmup = 1,
	.warmup_seconds = 0.02,
	.runs = 3,
	.timeout_factor = 8.0,
	.timeout_min_seconds = 1.0,
	.threads = 2,
	.time_limit = PEARL_TIME_LIMIT,
	.again_min_seconds = 0.1,
	.max_cpu_pressure = 0.35,
	.contention_retries = 3,
};

void pearl_env_options_init(struct pearl_env_options *o)
{
	*o = env_defaults;
}

const char *pearl_env_status_name(enum pearl_env_status status)
{
	switch (status) {
	case PEARL_ENV_OK:
		return "OK";
	case PEARL_ENV_ILLEGAL:
		return "ILLEGAL";
	case PEARL_ENV_TIMEOUT:
		return "TIMEOUT";
	case PEARL_ENV_WRONG_OUTPUT:
		return "WRONG_OUTPUT";
	case PEARL_ENV_FAILED:
		return "FAILED";
	}
	return "?";
}

/* The CPU model of /proc/cpuinfo ("unknown-cpu" if there is none). */
static void cpu_model(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *colon, *end;

	snprintf(buf, size, "unknown-cpu");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		for (++colon; *colon == ' ' || *colon == '\t'; ++colon)
			;
		end = colon + strlen(colon);
		while (end > colon && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		snprintf(buf, size, "%s", colon);
		break;
	}
	fclose(f);
}

/* "CPU model; N cpus; T threads": what decides how fast a schedule runs,
 * as far as a process can tell. */
static void fingerprint(char *buf, size_t size, int threads)
{
	char model[200];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	cpu_model(model, sizeof(model));
	snprintf(buf, size, "%s; %ld cpus; %d threads", model, cpus, threads);
}

struct diag_buf {
	char *buf;
	size_t size, len;
};

static void diag_append(MlirStringRef s, void *user)
{
	struct diag_buf *b = user;
	size_t n = s.length;

	if (b->len + 1 >= b->size)
		return;
	if (n > b->size - 1 - b->len)
		n = b->size - 1 - b->len;
	memcpy(b->buf + b->len, s.data, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static void diag_print(MlirStringRef s, void *user)
{
	fwrite(s.data, 1, s.length, (FILE *)user);
}

/* Keeps the last MLIR error of the environment's context; remarks and
 * warnings (the code generator's) are printed only when verbose. */
static MlirLogicalResult on_diagnostic(MlirDiagnostic diag, void *user)
{
	pearl_env *env = user;
	MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(diag);
	struct diag_buf out = { env->diag, sizeof(env->diag), 0 };

	if (sev != MlirDiagnosticError && !env->opts.verbose)
		return mlirLogicalResultSuccess();
	if (sev == MlirDiagnosticError) {
		env->diag[0] = '\0';
		mlirDiagnosticPrint(diag, diag_append, &out);
	}
	if (env->opts.verbose) {
		fprintf(stderr, "pearl-env: mlir: ");
		mlirDiagnosticPrint(diag, diag_print, stderr);
		fputc('\n', stderr);
	}
	return mlirLogicalResultSuccess();
}

void env_diag_clear(pearl_env *env)
{
	env->diag[0] = '\0';
}

/* Splits opts.memo_also ('|'-separated fingerprints) into env->also,
 * skipping empty names and this machine's own. 0, or -1 (err) if there
 * are more than PEARL_ENV_ALSO_MAX or one is too long. */
static int split_also(pearl_env *env, const char *list, char *err,
		      size_t err_size)
{
	const char *s = list, *bar;
	size_t len;

	while (s && *s) {
		bar = strchr(s, '|');
		len = bar ? (size_t)(bar - s) : strlen(s);
		if (len >= sizeof(env->also[0]) ||
		    (len && env->n_also == PEARL_ENV_ALSO_MAX)) {
			pearl_error_printf(err, err_size,
					   "bad options: memo-also takes at "
					   "most %d machines of under %zu "
					   "characters each",
					   PEARL_ENV_ALSO_MAX,
					   sizeof(env->also[0]));
			return -1;
		}
		if (len && (strlen(env->machine) != len ||
			    strncmp(s, env->machine, len))) {
			memcpy(env->also[env->n_also], s, len);
			env->also[env->n_also++][len] = '\0';
		}
		s = bar ? bar + 1 : NULL;
	}
	return 0;
}

/* Makes *copy an owned copy of the option string *opt (NULL stays NULL)
 * and points *opt at it. */
static int copy_option(char **copy, const char **opt)
{
	if (!*opt)
		return 0;
	*copy = strdup(*opt);
	if (!*copy)
		return -1;
	*opt = *copy;
	return 0;
}

pearl_env *pearl_env_create(const struct pearl_env_options *o, char *err,
			    size_t err_size)
{
	struct pearl_env_options defaults;
	pearl_env *env;

	if (!o) {
		pearl_env_options_init(&defaults);
		o = &defaults;
	}
	if (o->runs < 1 || o->warmup < 0 || !(o->warmup_seconds >= 0) ||
	    o->threads < 1 || o->timeout_factor <= 1.0 ||
	    o->timeout_min_seconds < 0 || !(o->time_limit >= 0) ||
	    !(o->max_cpu_pressure >= 0) || o->contention_retries < 0 ||
	    o->recheck_bases < 0 || o->recheck_bases > PEARL_ENV_RECHECK_MAX) {
		pearl_error_printf(err, err_size, "bad options: runs %d "
				   "(>= 1), warmup %d (>= 0), warm-up time %g "
				   "(>= 0), threads %d (>= 1), timeout factor "
				   "%g (> 1), minimum timeout %g (>= 0), time "
				   "limit %g (>= 0), CPU pressure %g (>= 0), "
				   "contention retries %d (>= 0), bases "
				   "rechecked %d (0-%d)",
				   o->runs, o->warmup, o->warmup_seconds,
				   o->threads, o->timeout_factor,
				   o->timeout_min_seconds, o->time_limit,
				   o->max_cpu_pressure, o->contention_retries,
				   o->recheck_bases, PEARL_ENV_RECHECK_MAX);
		return NULL;
	}
	env = calloc(1, sizeof(*env));
	if (!env) {
		pearl_error_printf(err, err_size, "out of memory");
		return NULL;
	}
	env->opts = *o;
	env->test_corrupt = getenv("PEARL_ENV_TEST_CORRUPT") &&
			    !strcmp(getenv("PEARL_ENV_TEST_CORRUPT"), "1");
	env->test_timeout = getenv("PEARL_ENV_TEST_TIMEOUT") &&
			    !strcmp(getenv("PEARL_ENV_TEST_TIMEOUT"), "1");
	env->pressure_path = getenv("PEARL_ENV_PRESSURE_FILE");
	if (!env->pressure_path || !*env->pressure_path)
		env->pressure_path = "/proc/pressure/cpu";
	if (o->max_cpu_pressure <= 0)
		env->pressure_path = NULL;
	if (getenv("PEARL_ENV_TEST_PRESSURE"))
		env->test_pressure = atof(getenv("PEARL_ENV_TEST_PRESSURE"));
	if (o->machine)
		snprintf(env->machine, sizeof(env->machine), "%s", o->machine);
	else
		fingerprint(env->machine, sizeof(env->machine), o->threads);
	env->opts.machine = env->machine;
	if (split_also(env, o->memo_also, err, err_size) < 0)
		return pearl_env_free(env);
	env->opts.memo_also = NULL; /* split into env->also */
	if (copy_option(&env->again_compiler, &env->opts.again_compiler) < 0 ||
	    copy_option(&env->again_cflags, &env->opts.again_cflags) < 0) {
		pearl_error_printf(err, err_size, "out of memory");
		return pearl_env_free(env);
	}
	env->opts.memo_path = NULL;
	if (o->memo_path) {
		env->memo = env_memo_open(o->memo_path, err, err_size);
		if (!env->memo)
			return pearl_env_free(env);
	}
	env->mctx = exec_context_create();
	env->diag_id = mlirContextAttachDiagnosticHandler(
	    env->mctx, on_diagnostic, env, NULL);
	return env;
}

pearl_env *pearl_env_free(pearl_env *env)
{
	if (!env)
		return NULL;
	if (env->n_programs)
		fprintf(stderr, "pearl-env: warning: %d program(s) still "
			"alive when the environment is freed\n",
			env->n_programs);
	if (!mlirContextIsNull(env->mctx)) {
		mlirContextDetachDiagnosticHandler(env->mctx, env->diag_id);
		mlirContextDestroy(env->mctx);
	}
	env_memo_close(env->memo);
	free(env->again_compiler);
	free(env->again_cflags);
	free(env);
	return NULL;
}

void pearl_env_get_stats(const pearl_env *env, struct pearl_env_stats *s)
{
	*s = env->stats;
}

const char *pearl_env_machine(const pearl_env *env)
{
	return env->machine;
}
