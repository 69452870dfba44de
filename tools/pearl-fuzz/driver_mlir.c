/* The MLIR path of pearl-fuzz (fuzz.h): programs from pearl-gen, run in
 * Pearl's environment (include/pearl/env.h), which checks legality on the
 * program's model, generates code with the MLIR frontend, JIT-compiles it
 * and runs it in a forked child against the unscheduled program's outputs.
 *
 * The environment answers FAILED for everything between a legal schedule
 * and matching outputs; its message tells the stages apart:
 *   "code generation: ...", "modeling the copy: ...", "the copy of
 *   @kernel has ..."                         -> NOT_GENERATED
 *   "the run was killed by signal ...", "the run exited with status ...",
 *   "the run ended after ...", "the child could not allocate ..."
 *                                            -> CRASH (of generated code)
 *   anything else (lowering or the JIT)      -> COMPILE_FAILED
 * Runs are as cheap as the environment allows: no warm-up, one run. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pearl/agent.h"
#include "pearl/env.h"
#include "pearl/file.h"
#include "pearl/gen.h"
#include "pearl/policy.h"
#include "pearl/random.h"

struct mlir_state {
	struct fuzz_config cfg;
	pearl_env *env;                /* owned */
	pearl_policy *policy;          /* owned */
	pearl_env_program *prog;       /* owned, the loaded program */
	pearl_sched *sched;            /* owned, its model (prog outlives) */
	uint64_t seed;
};

static void unload(struct mlir_state *s)
{
	s->sched = pearl_sched_free(s->sched);
	s->prog = pearl_env_program_free(s->prog);
}

static void mlir_destroy(void *state)
{
	struct mlir_state *s = state;

	if (!s)
		return;
	unload(s);
	pearl_env_free(s->env);
	pearl_policy_free(s->policy);
	free(s);
}

static void *mlir_create(const struct fuzz_config *cfg, char *err,
			 size_t err_size)
{
	struct pearl_env_options o;
	struct mlir_state *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	s->policy = pearl_policy_load_builtin(err, err_size);
	pearl_env_options_init(&o);
	o.memo_path = cfg->memo_path;
	o.warmup = 0;
	o.warmup_seconds = 0;
	o.runs = 1;
	o.threads = cfg->threads;
	o.timeout_min_seconds = cfg->timeout;
	if (s->policy)
		s->env = pearl_env_create(&o, err, err_size);
	if (!s->env) {
		mlir_destroy(s);
		return NULL;
	}
	return s;
}

static void mlir_program_file(uint64_t seed, char *buf, size_t size)
{
	snprintf(buf, size, "gen-%" PRIu64 ".mlir", seed);
}

/* The text of kernel file `path` (malloc'd), or NULL with err. */
static char *kernel_text(const char *path, char *err, size_t err_size)
{
	char *text = pearl_read_file(path, NULL);

	if (!text)
		snprintf(err, err_size, "cannot read %s: %s", path,
			 strerror(errno));
	return text;
}

char *fuzz_program_text(const struct fuzz_config *cfg, uint64_t seed, int c,
			char *err, size_t err_size)
{
	struct pearl_gen_options opts;

	if (cfg->kernels.n > 0 && !c)
		return kernel_text(cfg->kernels.s[seed % cfg->kernels.n], err,
				   err_size);
	memset(&opts, 0, sizeof(opts));
	opts.scale = (enum pearl_gen_scale)cfg->size_scale;
	opts.lang = c ? pearl_gen_lang_c : pearl_gen_lang_mlir;
	return pearl_gen_program(seed, &opts, NULL, err, err_size);
}

/* The text of program `seed` at the configured scale (malloc'd). */
static char *program_text(const struct fuzz_config *cfg, uint64_t seed,
			  char *err, size_t err_size)
{
	return fuzz_program_text(cfg, seed, 0, err, err_size);
}

static int mlir_load(void *state, uint64_t seed, char *err, size_t err_size)
{
	struct mlir_state *s = state;
	struct pearl_env_result res;
	char name[64], *text;

	unload(s);
	text = program_text(&s->cfg, seed, err, err_size);
	if (!text)
		return -1;
	snprintf(name, sizeof(name), "gen-%" PRIu64, seed);
	s->prog = pearl_env_program_load(s->env, text, name, err, err_size);
	free(text);
	if (!s->prog)
		return 1;
	s->seed = seed;
	s->sched = pearl_env_program_sched(s->prog, err, err_size);
	if (!s->sched)
		return 1;
	/* the unscheduled program: a program whose base does not run is of
	 * no use */
	if (pearl_env_time(s->env, s->prog, "", &res, err, err_size) < 0)
		return 1;
	return 0;
}

/* The policy's schedule on the loaded program: greedy if k == 0, else
 * sampled with seed k (malloc'd), or NULL with err. */
static char *agent_schedule(struct mlir_state *s, int k, char *err,
			    size_t err_size)
{
	struct pearl_agent_options opts;

	pearl_agent_options_init(&opts);
	opts.sample = k > 0;
	opts.seed = (uint64_t)k;
	opts.min_parallel_work = 0; /* every loop may run in parallel */
	opts.copies = 1;            /* and K may be chosen */
	return pearl_env_program_agent_schedule(s->prog, s->policy, &opts, err,
						err_size);
}

/* 1 if text is new (then remembered in *seen), 0 if seen (or empty: the
 * base), -1 if memory is exhausted. */
static int remember(struct fuzz_strings *seen, const char *text)
{
	if (!text[0] || fuzz_strings_contain(seen, text))
		return 0;
	return fuzz_strings_add(seen, text) < 0 ? -1 : 1;
}

/* The schedule stream of a program: its own, whatever the campaign's
 * first seed. */
static uint64_t schedule_stream(uint64_t seed)
{
	uint64_t state = seed ^ 0x70ea21f022ULL;

	return pearl_splitmix64(&state);
}

/* Schedule number `k` of the loaded program (malloc'd): the policy's for
 * the first `n_agent`, random ones after. */
static char *nth_schedule(struct mlir_state *s, int k, int n_agent,
			  uint64_t *rng, fuzz_trace_fn trace, void *user,
			  char *err, size_t err_size)
{
	char what[64];

	if (k < n_agent) {
		if (k == 0)
			snprintf(what, sizeof(what), "agent greedy");
		else
			snprintf(what, sizeof(what), "agent sample seed %d", k);
		if (trace)
			trace(what, user);
		return agent_schedule(s, k, err, err_size);
	}
	return fuzz_random_schedule(s->sched, rng, fuzz_draw_mode(rng), trace,
				    user, err, err_size);
}

static int mlir_schedules(void *state, int count, fuzz_trace_fn trace,
			  fuzz_emit_fn emit, void *user, char *err,
			  size_t err_size)
{
	struct mlir_state *s = state;
	struct fuzz_strings seen = FUZZ_STRINGS_INIT;
	uint64_t rng = schedule_stream(s->seed);
	int n_agent = (count + 3) / 4, emitted = 0, k, fresh, ret = 0;
	char *text;

	/* repeats (the policy's samples often agree) are replaced by more
	 * random schedules, within a bound */
	for (k = 0; emitted < count && k < 4 * count + 8 && !ret; ++k) {
		text = nth_schedule(s, k, n_agent, &rng, trace, user, err,
				    err_size);
		if (!text) {
			ret = -1;
			break;
		}
		fresh = remember(&seen, text);
		if (fresh < 0) {
			snprintf(err, err_size, "out of memory");
			ret = -1;
		} else if (fresh) {
			emitted++;
			ret = emit(text, user);
		}
		free(text);
	}
	fuzz_strings_clear(&seen);
	return ret;
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The class of a FAILED answer, from its message. */
static enum fuzz_class failed_class(const char *message)
{
	static const char *not_generated[] = { "code generation:",
					       "modeling the copy:",
					       "the copy of @kernel has" };
	static const char *crashed[] = { "the run was killed by signal",
					 "the run exited with status",
					 "the run ended after",
					 "the child could not allocate" };
	size_t i;

	/* the pass keeps the code when isl runs past its time limit, when
	 * the code would exceed the code generator's size limits, or when
	 * K's copies cannot be shown to stay inside their arrays (a limit of
	 * the check, counted with the others) */
	if (strstr(message, "time limit") ||
	    strstr(message, "code would exceed") ||
	    strstr(message, "would read outside its array"))
		return fuzz_time_limit;
	/* or when isl's AST fails the check that it runs each instance
	 * once */
	if (strstr(message, "the check of the AST's statement instances") ||
	    strstr(message, "more than once or not at all"))
		return fuzz_ast_refused;
	for (i = 0; i < sizeof(not_generated) / sizeof(*not_generated); ++i)
		if (starts_with(message, not_generated[i]))
			return fuzz_not_generated;
	for (i = 0; i < sizeof(crashed) / sizeof(*crashed); ++i)
		if (starts_with(message, crashed[i]))
			return fuzz_crash;
	return fuzz_compile_failed;
}

static int mlir_run(void *state, const char *schedule,
		    struct fuzz_outcome *out, char *err, size_t err_size)
{
	struct mlir_state *s = state;
	struct pearl_env_result res;
	char msg[512] = "";

	memset(out, 0, sizeof(*out));
	if (pearl_env_time(s->env, s->prog, schedule, &res, msg,
			   sizeof(msg)) < 0) {
		out->cls = fuzz_error;
		snprintf(out->message, sizeof(out->message), "%s", msg);
		return 0;
	}
	snprintf(out->message, sizeof(out->message), "%s", res.message);
	out->legal = res.status != PEARL_ENV_ILLEGAL;
	switch (res.status) {
	case PEARL_ENV_OK:
		out->cls = fuzz_ok;
		out->same_code = starts_with(res.message,
					     "the schedule keeps the code");
		break;
	case PEARL_ENV_ILLEGAL:
		out->cls = fuzz_illegal;
		break;
	case PEARL_ENV_TIMEOUT:
		out->cls = fuzz_hang;
		break;
	case PEARL_ENV_WRONG_OUTPUT:
		out->cls = fuzz_wrong_output;
		break;
	case PEARL_ENV_FAILED:
		out->cls = failed_class(res.message);
		break;
	}
	return 0;
}

static int mlir_save_program(const struct fuzz_config *cfg, uint64_t seed,
			     const char *file, char *err, size_t err_size)
{
	char *text = program_text(cfg, seed, err, err_size);
	FILE *f;
	int ok;

	if (!text)
		return -1;
	f = fopen(file, "w");
	ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = 0;
	free(text);
	if (!ok) {
		snprintf(err, err_size, "cannot write %s", file);
		return -1;
	}
	return 0;
}

static void mlir_command(const struct fuzz_config *cfg, uint64_t seed,
			 const char *schedule, char *buf, size_t size)
{
	char file[64];

	mlir_program_file(seed, file, sizeof(file));
	snprintf(buf, size, "pearl-env --warmup 0 --warmup-time 0 --runs 1 "
		 "--threads %d --timeout-min %g --schedule \"%s\" %s",
		 cfg->threads, cfg->timeout, schedule, file);
}

const struct fuzz_driver fuzz_driver_mlir = FUZZ_DRIVER(mlir);

const struct fuzz_driver *fuzz_driver_find(const char *path)
{
	if (!strcmp(path, "mlir"))
		return &fuzz_driver_mlir;
	if (!strcmp(path, "c"))
		return &fuzz_driver_c;
	return NULL;
}
