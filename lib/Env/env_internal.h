/*
 * env_internal.h - what the files of the environment (lib/Env) share: the
 * environment and program structs, the programs' shared parts
 * (env_program.c), the memo database (env_memo.c) and the forked runner
 * (env_run.c).
 */
#ifndef PEARL_ENV_INTERNAL_H
#define PEARL_ENV_INTERNAL_H

#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <stddef.h>
#include <stdint.h>

#include "pearl/clock.h"
#include "pearl/ctx.h"
#include "pearl/deps.h"
#include "pearl/env.h"
#include "pearl/exec_args.h"
#include "pearl/exec_jit.h"
#include "pearl/mlir_frontend.h"
#include "pearl/program.h"

/* isl operations allowed per model of @kernel (the pass's default). */
#define ENV_ISL_MAX_OPERATIONS 20000000UL
/* Time limit of one run of the unscheduled program (a hang of the base is
 * an error of the program, not a timeout of a schedule). */
#define ENV_BASE_LIMIT_SECONDS 300.0
/* The machine of rows that do not depend on the machine (legality). */
#define ENV_ANY_MACHINE "*"

struct env_memo;

struct pearl_env {
	struct pearl_env_options opts;  /* strings point into the copies;
					 * memo_path is NULL (the memo keeps
					 * its own copy) */
	char *again_compiler;           /* owned copy, or NULL */
	char *again_cflags;             /* owned copy, or NULL */
	char machine[256];
	/* opts.memo_also split: other machines' fingerprints, in order. */
	char also[PEARL_ENV_ALSO_MAX][256];
	int n_also;
	MlirContext mctx;               /* owned */
	MlirDiagnosticHandlerID diag_id;
	char diag[512];                 /* the last MLIR error */
	struct env_memo *memo;          /* owned; NULL without memoization */
	struct pearl_env_stats stats;
	int n_programs;                 /* alive */
	/* Test hook (PEARL_ENV_TEST_CORRUPT=1 in the environment): scheduled
	 * runs flip one output bit, so that the WRONG_OUTPUT path can be
	 * tested; the base is never corrupted. */
	int test_corrupt;
	/* Test hook (PEARL_ENV_TEST_TIMEOUT=1): scheduled runs have a limit
	 * of 1 ns, so that every measured schedule times out after its
	 * first run and the timeout path can be tested; the base keeps its
	 * limit. */
	int test_timeout;
	/* Where the runs read the CPU pressure (PEARL_ENV_PRESSURE_FILE in
	 * the environment, a test's file; else /proc/pressure/cpu); NULL
	 * without the check (max_cpu_pressure 0). Not owned. */
	const char *pressure_path;
	/* Test hook (PEARL_ENV_TEST_PRESSURE=X, X > 0): every run reports
	 * the CPU pressure X, so that the contention path can be tested; 0
	 * without it. */
	double test_pressure;
	int warned_contention; /* the first contended run was reported */
	/* recheck_bases: new / memoized base time of each program rechecked
	 * (stats.bases_rechecked of them), and whether a drift was
	 * reported. */
	double drift[PEARL_ENV_RECHECK_MAX];
	int warned_drift;
};

/* Records an MLIR error (the diagnostic handler); clears it. */
void env_diag_clear(pearl_env *env);

/* A program: @kernel of a module in the kernel contract (function NULL,
 * env_program.c), or a target of an ordinary module (env_target.c): region
 * `region` of `function`, run on inputs made as pearl-exec makes them. */
struct pearl_env_program {
	pearl_env *env;                 /* borrowed */
	char *name;                     /* owned */
	char hash[17];
	MlirModule module;              /* owned; never modified after loading
					 * (a target's linalg ops are expanded
					 * at load, as the pass expands them) */
	char *function;                 /* owned; NULL: the kernel contract */
	int region;                     /* in function (0 for @kernel) */
	int64_t size;                   /* `?` dimensions and index arguments
					 * of a target (0 for @kernel) */
	struct exec_sig sig;            /* of the timed function (@kernel's
					 * == @init's) */
	int *outputs;                   /* owned; argument indices (a target:
					 * every memref argument) */
	int n_outputs;
	/* The model of @kernel for pearl_env_program_sched, built on first
	 * use (model_tried); NULL with model_error if it cannot be built. */
	int model_tried;
	pearl_ctx *ctx;                 /* owned */
	pearl_program *prog;            /* owned */
	pearl_deps *deps;               /* owned */
	char fingerprint[17];           /* of prog, as pearl-schedule's */
	char model_error[256];
	/* The machine whose memo answers p (env_time.c: answering_machine):
	 * env->machine or one of env->also, chosen at the first lookup
	 * (machine_chosen). Borrowed. */
	const char *machine;
	int machine_chosen;
	/* The base (unscheduled) measurement, once known. */
	int base_known;
	double base_seconds;
	double base_cpu_seconds;        /* @kernel's CPU time, all threads */
	double base_init_seconds;       /* @init's time, for deadlines */
	uint64_t base_hash;             /* of the outputs */
	/* The schedules this process measured, by the code they generate
	 * (env_time.c: code_twin): a schedule that generates the same code
	 * as one of them gets its answer, not a run of its own. Owned. */
	struct env_code_twin *twins;
	int n_twins, cap_twins;
};

/* A measured schedule of a program and the code it generates. */
struct env_code_twin {
	uint64_t code;       /* FNV-1a of the generated module's text */
	char *schedule;      /* owned; normal form */
	int status;          /* enum pearl_env_status: OK or TIMEOUT */
	double seconds, cpu_seconds, init_seconds;
	uint64_t output_hash;
};

/* A new program named `name` (NULL: "program") with `text` (kept)
 * parsed into env's context (__isl_give), counted in env->n_programs;
 * NULL with the reason in err. The caller fills the rest. */
pearl_env_program *env_program_alloc(pearl_env *env, const char *text,
				     const char *name, char *err,
				     size_t err_size);
/* FNV-1a of the n bytes at p, continued from h (start from
 * ENV_FNV1A_BASIS): the program hash's and the generated code's. */
#define ENV_FNV1A_BASIS 0xcbf29ce484222325ULL
uint64_t env_fnv1a(uint64_t h, const char *p, size_t n);

/* The program hash (16 hex digits into out): FNV-1a over the lines of
 * `text` (kept) with comments, leading and trailing white space and blank
 * lines dropped, each ended by a newline, then over the line `extra` if it
 * is not NULL (a target's "@f#r size=N"). */
void env_program_hash(const char *text, const char *extra, char out[17]);
/* The name of the function p times: "kernel" or the target's. */
const char *env_program_function(const pearl_env_program *p);
/* The regions of p's function in `module` (p's module or a copy of it),
 * found as the pass finds them, into *regions (the caller frees it) and
 * the function into *func; nests that cannot be modeled go to skip.
 * Returns their number (-1 if out of memory); p's region is regions[
 * p->region] if env_program_has_region(p, n). */
int env_program_regions(const pearl_env_program *p, MlirModule module,
			MlirOperation *func, pearl_mlir_region **regions,
			pearl_mlir_skip_fn skip, void *user);
/* 1 if a function with n regions has p's: @kernel needs exactly one. */
int env_program_has_region(const pearl_env_program *p, int n);
/* Builds p's model (once). Returns 0, or -1 with p->model_error set. */
int env_program_model(pearl_env_program *p);

/* --- env_memo.c: the SQLite memo database. --- */

/* One memoized answer. */
struct env_memo_row {
	int status;                /* enum pearl_env_status */
	double seconds;            /* OK: min of the runs; TIMEOUT: limit */
	double cpu_seconds;        /* CPU time of the best run, all threads */
	double init_seconds;       /* @init's time (for deadlines) */
	uint64_t output_hash;      /* OK only */
	char message[256];
	int codegen;               /* the version that answered (lookups) */
};

/* Opens (creating if missing) the database at path. NULL with a message. */
struct env_memo *env_memo_open(const char *path, char *err, size_t err_size);
void env_memo_close(struct env_memo *m);
/* Looks up (program, schedule, machine): 1 found (row filled), 0 not,
 * -1 error (message). */
int env_memo_get(struct env_memo *m, const char *program,
		 const char *schedule, const char *machine,
		 struct env_memo_row *row, char *err, size_t err_size);
/* Stores a row (replacing any), and the program's name. 0 or -1. */
int env_memo_put(struct env_memo *m, const char *program, const char *name,
		 const char *schedule, const char *machine,
		 const struct env_memo_row *row, char *err, size_t err_size);


/* --- env_run.c: timed runs in a forked child. --- */

struct env_run_request {
	exec_packed_fn init, kernel; /* init NULL: the inputs are made as
				      * pearl-exec makes them (exec_frame_init
				      * with `size`) and copied in before
				      * every run */
	const struct exec_sig *sig;
	int64_t size;         /* `?` dimensions and index arguments */
	const int *outputs;
	int n_outputs;
	int hash_all;         /* hash every memref argument and the result,
			       * not only the outputs */
	int warmup, runs;
	double warmup_seconds; /* warm-up runs until @kernel took this long */
	double timed_seconds;  /* and timed runs past `runs` until they took
				* this long in all (0: exactly `runs`) */
	int threads;
	double limit;         /* a run of @kernel longer than this: timeout */
	double init_allowance; /* extra wall time allowed per run for @init */
	int test_corrupt;     /* test hook: flip a bit of the first output */
	/* A file in the format of /proc/pressure/cpu (Linux's pressure
	 * stall information) read before the first run and after the
	 * last, or NULL: the result's pressure is then unknown (NAN). */
	const char *pressure_path;
	double test_pressure; /* test hook: > 0, the runs' pressure,
			       * whatever pressure_path says */
};

enum env_run_status {
	env_run_ok,
	env_run_timeout,
	env_run_crash,   /* the child died (signal, exit) */
	env_run_error    /* the environment: fork, pipe, allocation */
};

struct env_run_result {
	enum env_run_status status;
	double best;            /* min of the timed runs */
	double cpu;             /* CPU time of the best run */
	double init;            /* min time of @init */
	/* Of the runs, warm-up and timed, from the first to the last: the
	 * fraction of their wall time during which some task of the
	 * machine waited for a CPU (the "some" stall time of
	 * pressure_path), so that times taken while another job took a
	 * core are told apart; of a timeout, up to the run past the limit,
	 * or from the fork to the kill of a child that hung; NAN if
	 * unknown (no file, or a crash). */
	double pressure;
	uint64_t hash;          /* of the outputs after the last run */
	int executions;         /* runs of @kernel started */
	char message[256];
};

/* Runs req in a forked child; fills *res. Returns 0, or -1 on an error of
 * the environment (res->message says why). */
int env_run(const struct env_run_request *req, struct env_run_result *res);

/* The "some" total of a file in /proc/pressure/cpu's format (`path`,
 * __isl_keep; NULL allowed): microseconds during which some task waited
 * for a CPU, since boot. -1 if it cannot be read or parsed (no pressure
 * stall information on this kernel). */
long long env_cpu_stall_us(const char *path);

#endif
