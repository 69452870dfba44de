/*
 * pearl/env.h - the execution environment Pearl's policy is trained in:
 * given a program and a schedule, legality -> code generation -> lowering ->
 * JIT compilation -> timed runs -> speedup over the unscheduled program,
 * memoized in SQLite.
 *
 * Programs are MLIR modules in the benchmark kernel contract
 * (test/bench/kernels/README.md): a public @init and a public @kernel with
 * identical signatures of statically shaped memrefs, and a header comment
 * `// outputs: 2,5` naming the arguments @kernel writes. Schedules are
 * strings in Pearl's notation (pearl/transform.h, pearl_actions_parse),
 * e.g. "I(1,2) T(0,1,32,32) P(0)" with "N" between branches; "" is the
 * unscheduled program (the base).
 *
 * A query (pearl_env_time) applies the schedule to @kernel's single
 * modeled region with Pearl's transform API; an action the dependences
 * forbid makes the whole schedule ILLEGAL (nothing is applied partially).
 * The rewritten module is lowered (affine -> scf -> OpenMP -> LLVM) and
 * JIT-compiled in-process; the runs happen in a forked child process that
 * the environment kills on timeout, so that a hang or a crash of generated
 * code cannot take the caller down. Every run starts from buffers freshly
 * filled by @init; only @kernel is timed. The outputs must be bit-identical
 * to the unscheduled program's (WRONG_OUTPUT otherwise, a Pearl bug,
 * reported on stderr).
 *
 * Ordinary modules (extension): a module outside the kernel contract is
 * used function by function. A TARGET is a (function, region) of it: one
 * loop region, found and numbered as pearl-schedule finds and numbers the
 * function's regions (linalg ops expanded first), of a public function
 * with a body whose arguments pearl-exec can make (memrefs of f32, f64,
 * i8..i64 with `?` dimensions, index, f32, f64, i32, i64 scalars). Its
 * inputs are made as pearl-exec makes them: every `?` dimension and every
 * index argument is `size`, the buffers get pearl-exec's deterministic
 * values; every run starts from a fresh copy of them. The function itself
 * is timed; every memref argument (and a scalar result) is an output. A
 * schedule applies to the target's region only: the function's other
 * regions keep their code. pearl_env_targets_find lists the targets of a
 * module, pearl_env_target_load loads one; everything else (queries,
 * model, fingerprint, memo) works on a target as on @kernel.
 *
 * Memoization: one SQLite row per (program hash, normalized schedule,
 * machine fingerprint, PEARL_CODEGEN_VERSION) holds legality, status, time and output hash, plus
 * the program's name. A query answered from the database compiles and runs
 * nothing.
 *
 * Ownership follows isl's conventions (__isl_give: the caller frees the
 * result; __isl_take: consumed; __isl_keep: borrowed). Errors: functions
 * return NULL or -1 with a message in the caller's `err` buffer (always
 * NUL-terminated when err_size > 0); nothing here exits or aborts.
 *
 * Threads: one pearl_env per process, used from one thread at a time. The
 * process must not have started an OpenMP runtime's thread pool in the
 * runtime the JIT'd code uses (libomp) before a query: the runs fork.
 *
 * Test hook: with PEARL_ENV_TEST_CORRUPT=1 in the process environment,
 * scheduled runs flip one output bit (the base never), so that tests can
 * reach the WRONG_OUTPUT path.
 */
#ifndef PEARL_ENV_H
#define PEARL_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/agent.h"
#include "pearl/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One per process; owns an MlirContext, the memo DB and the counters. */
typedef struct pearl_env pearl_env;
/* One loaded program. */
typedef struct pearl_env_program pearl_env_program;

/* The most memoized base times an environment measures again
 * (pearl_env_options.recheck_bases). */
#define PEARL_ENV_RECHECK_MAX 64

struct pearl_env_options {
	const char *memo_path;   /* SQLite file, created if missing; NULL: no
				  * memoization */
	int warmup;              /* untimed runs before timing (default 1) */
	double warmup_seconds;   /* and more untimed runs until @kernel has run
				  * this long in all (default 0.02): the first
				  * runs of a process are slower, most of all
				  * with OpenMP threads just started (a
				  * 0.17 ms parallel kernel: 0.7x or 1.5x of
				  * its base after 1 + 5 runs, 1.5x after 30) */
	int runs;                /* timed runs; the time is their minimum
				  * (default 3) */
	double timeout_factor;   /* a scheduled run slower than this many times
				  * the base time is a timeout (default 8) */
	double timeout_min_seconds; /* never time out below this (default 1.0) */
	int threads;             /* OMP_NUM_THREADS for the runs (default 2) */
	double time_limit;       /* seconds an action's checks and the AST
				  * generation may take, as pearl-schedule's
				  * time-limit= (default PEARL_TIME_LIMIT; 0:
				  * none); past it the schedule is refused */
	const char *machine;     /* machine fingerprint override; NULL:
				  * computed (CPU model from /proc/cpuinfo,
				  * cores, threads) */
	int verbose;             /* progress on stderr */
	/* How pearl_env_time_again compiles: NULL, JIT-compiled as every
	 * query (default); else the path of a clang that compiles the
	 * lowered module ahead of time, `clang -O3 -fopenmp AGAIN_CFLAGS
	 * -shared`, as users and pearl-bench compile Pearl's output. The
	 * JIT's code and clang's differ in speed now and then (symm's
	 * `N U(32)`: 1.09x in the JIT, 0.88x compiled by clang), so a
	 * search confirms its finalists in the user's code. */
	const char *again_compiler;
	const char *again_cflags;  /* words separated by spaces; NULL: none */
	/* pearl_env_time_again's timed runs go on past `runs` until they
	 * took this long in all, at most 1000 (default 0.1 s): it compares
	 * finalists a few percent apart, and the minimum of 3 runs of a
	 * 4 ms parallel kernel is not that sure (pearl-bench takes at
	 * least 0.2 s of runs per round). 0: exactly `runs`. */
	double again_min_seconds;
	/* Contention. A measurement during whose runs some task of the
	 * machine waited for a CPU more than this fraction of the time
	 * (Linux's CPU pressure, /proc/pressure/cpu: another job took a
	 * core, and a parallel kernel's threads waited for each other at
	 * every barrier) is taken again, up to contention_retries times,
	 * after waiting 0.5 s, then 1 s, 2 s...; still contended, it is
	 * returned but not memoized (pearl_env_stats.contended), so that a
	 * later query measures it again. Default 0.35: on a quiet 2-core
	 * machine the runs of a query read 0-0.21 (most likely the parent,
	 * woken by each run's record, waiting while the kernel's threads
	 * hold both cores), with one busy process beside them 0.5-0.96.
	 * A timeout is such a measurement too (its pressure up to the run
	 * past the limit, or from the fork to the kill of a hung run). 0: no
	 * check, as on a kernel without pressure stall information. */
	double max_cpu_pressure;
	int contention_retries;  /* default 3 */
	/* Hosts under one fingerprint. The fingerprint (CPU model, cpus,
	 * threads) does not tell two hosts of one CPU model apart, and a
	 * memo filled on one answered for another at 0.45-0.66 of its
	 * times. The first recheck_bases programs whose base time comes
	 * from the memo have it measured again (neither memoized nor used:
	 * the memo's answers stay consistent with the memo's base); the
	 * stats keep the median ratio of the new times to the memo's, and
	 * once min(3, recheck_bases) are in, a median outside [0.8, 1.25]
	 * is reported on stderr, once. At most PEARL_ENV_RECHECK_MAX.
	 * Default 0: none (campaigns turn it on). */
	int recheck_bases;
	/* Other machines' answers. A memo may hold answers of several
	 * machines (pearl_env_memo_merge). memo_also names other
	 * fingerprints, separated by '|', at most PEARL_ENV_ALSO_MAX: a
	 * program whose base this machine's memo lacks is answered from
	 * the first of them whose memo has it, schedules and base alike, so
	 * each speedup is one machine's ratio. Its first query that must
	 * measure moves the program to this machine (its base is then
	 * taken here too): nothing measured here is stored under another
	 * machine's name. NULL or "": this machine's answers only (the
	 * default). */
	const char *memo_also;
};
#define PEARL_ENV_ALSO_MAX 4

/* Fills `o` with the defaults above. */
void pearl_env_options_init(struct pearl_env_options *o);

/* A new environment (__isl_give; free with pearl_env_free), or NULL with
 * the reason in err (e.g. the memo file is not an SQLite database).
 * `o` (__isl_keep) may be NULL for the defaults; its strings are copied. */
pearl_env *pearl_env_create(const struct pearl_env_options *o, char *err,
			    size_t err_size);
/* Frees the environment (__isl_take); every program must have been freed
 * first. Accepts NULL; returns NULL. */
pearl_env *pearl_env_free(pearl_env *env);

/* Loads a program from MLIR text (__isl_keep) in the kernel contract;
 * `name` is for messages and the memo DB. The program hash is over the
 * module text with comments and blank lines dropped (the same program gives
 * the same hash on every machine). Returns a new program (__isl_give; free
 * with pearl_env_program_free before the environment), or NULL with the
 * reason in err. */
pearl_env_program *pearl_env_program_load(pearl_env *env, const char *text,
					  const char *name, char *err,
					  size_t err_size);
/* Accepts NULL; returns NULL. */
pearl_env_program *pearl_env_program_free(pearl_env_program *p);
/* The program hash: 16 hex digits (__isl_keep, lives as long as p). */
const char *pearl_env_program_hash(const pearl_env_program *p);
/* The name given to pearl_env_program_load (__isl_keep). */
const char *pearl_env_program_name(const pearl_env_program *p);

/* The program's model for the agent: a fresh pearl_sched of @kernel's
 * (single) region, or of a target's region (__isl_give, the caller frees
 * it with pearl_sched_free),
 * built exactly as pearl-schedule builds it, so that the trainer can run
 * the agent on it and produce a schedule string. NULL with a message if
 * @kernel cannot be modeled (then the program is useless for training).
 * The sched refers to the model p owns: p must outlive it. The program's
 * context gets the whole isl operations quota again for what is done
 * with the sched next. */
pearl_sched *pearl_env_program_sched(pearl_env_program *p, char *err,
				     size_t err_size);
/* The schedule the agent takes on that model (pearl_agent_schedule with
 * `policy` and `opts`, both kept), in Pearl's notation: malloc'd, or NULL
 * with a message in err (no model, or the agent failed and why). */
char *pearl_env_program_agent_schedule(pearl_env_program *p,
				       const pearl_policy *policy,
				       const struct pearl_agent_options *opts,
				       char *err, size_t err_size);
/* The fingerprint of the same model (pearl/fingerprint.h): 16 hex digits,
 * the value pearl-schedule computes for @kernel's (or the target's)
 * region and schedule
 * files record (__isl_keep, lives as long as p). NULL with a message if
 * @kernel cannot be modeled. */
const char *pearl_env_program_fingerprint(pearl_env_program *p, char *err,
					  size_t err_size);

/* --- Ordinary modules (extension; see the header comment). --- */

/* 1 if `text` (kept) has the form of the kernel contract: a `// outputs:`
 * header and func.func @init and @kernel with bodies (whether they fit it
 * is pearl_env_program_load's to check); 0 if not, -1 with the reason in
 * err if the module does not parse. */
int pearl_env_kernel_contract(pearl_env *env, const char *text, char *err,
			      size_t err_size);

/* The targets of a module: its public functions with bodies, in module
 * order, and each one's loop regions, each modeled as pearl-schedule
 * models it. */
typedef struct pearl_env_targets pearl_env_targets;

/* Finds the targets of the module `text` (kept; `name` for messages).
 * Returns them (__isl_give; free with pearl_env_targets_free), or NULL
 * with the reason in err if the module does not parse. */
pearl_env_targets *pearl_env_targets_find(pearl_env *env, const char *text,
					  const char *name, char *err,
					  size_t err_size);
/* Accepts NULL; returns NULL. */
pearl_env_targets *pearl_env_targets_free(pearl_env_targets *t);
/* The number of public functions with bodies. */
int pearl_env_targets_n_functions(const pearl_env_targets *t);
/* The name of function f, without '@' (__isl_keep, lives as long as t). */
const char *pearl_env_targets_function(const pearl_env_targets *t, int f);
/* The number of loop regions of function f, numbered from 0 as the pass
 * numbers them (0 if the function cannot be called: see why_not). */
int pearl_env_targets_n_regions(const pearl_env_targets *t, int f);
/* NULL if region r of function f is a target; else why it is not (a
 * region Pearl cannot model). With r = -1: NULL if the function can be
 * called on synthesized inputs and has a loop region, else why not (an
 * argument pearl-exec cannot make, no loop nest Pearl can model: the
 * first reason a nest was left). __isl_keep, lives as long as t. */
const char *pearl_env_targets_why_not(const pearl_env_targets *t, int f,
				      int r);

/* Loads the target (function, region) of the module `text` (kept; `name`
 * for messages and the memo DB), run with `size` for every `?` dimension
 * and index argument (size >= 0). The program hash is the module's hash
 * continued with "@function#region size=N", so that targets and sizes
 * are told apart. Returns a new program (__isl_give; free with
 * pearl_env_program_free before the environment), or NULL with the reason
 * in err: the module does not parse, there is no such function, its
 * arguments cannot be made, it has no such region or the region cannot be
 * modeled. */
pearl_env_program *pearl_env_target_load(pearl_env *env, const char *text,
					 const char *name,
					 const char *function, int region,
					 int64_t size, char *err,
					 size_t err_size);
/* The function a program times, without '@': "kernel" for a program of
 * the kernel contract (__isl_keep, lives as long as p). */
const char *pearl_env_program_function(const pearl_env_program *p);
/* The index of the program's region in its function (0 for @kernel). */
int pearl_env_program_region(const pearl_env_program *p);

enum pearl_env_status {
	PEARL_ENV_OK,
	PEARL_ENV_ILLEGAL,      /* an action is refused (or does not parse) */
	PEARL_ENV_TIMEOUT,      /* slower than the timeout */
	PEARL_ENV_WRONG_OUTPUT, /* outputs differ from the base: a Pearl bug */
	PEARL_ENV_FAILED        /* code generation, lowering, JIT or the run
				 * failed (crash of the child) */
};

/* The name of a status ("OK", "ILLEGAL", ...; __isl_keep, static). */
const char *pearl_env_status_name(enum pearl_env_status status);

struct pearl_env_result {
	enum pearl_env_status status;
	double seconds;        /* min of the timed runs (OK only) */
	double base_seconds;   /* the unscheduled program's time (measured or
				* memoized); for an answer that needs no run
				* (ILLEGAL, FAILED) 0 if it is not known yet:
				* such answers never measure the base */
	double speedup;        /* base_seconds / seconds (OK only) */
	int memo_hit;          /* 1 if nothing was compiled or run for this
				* answer */
	char message[256];     /* why, for anything but OK */
	/* Extension: the CPU time of the best run, all threads (OK only);
	 * cpu_seconds / seconds near the thread count: the run was parallel. */
	double cpu_seconds;
};

/* Applies `schedule` to @kernel (a target: to its region of its
 * function; legality checked by Pearl's transform API: an action the
 * dependences forbid makes the whole schedule ILLEGAL - no partial
 * application), generates code, lowers, JIT-compiles, runs @init then
 * @kernel (warm-up + runs, each run on freshly @init-ed buffers, only
 * @kernel timed; a target: its function, each run on a fresh copy of
 * pearl-exec's inputs), checks that the outputs are bit-identical to the
 * unscheduled program's (WRONG_OUTPUT otherwise: a Pearl bug, reported
 * loudly on stderr), and fills *res. The base time is measured first (once
 * per program, memoized too). Memoized in SQLite keyed by (program hash,
 * normalized schedule string, machine fingerprint, code generator
 * version): legality, status, time,
 * output hash. Returns 0 (the outcome, good or bad, is in *res), or -1 only
 * for errors of the environment itself (DB unwritable, out of memory, fork
 * failed, the base program does not run), with the reason in err. */
int pearl_env_time(pearl_env *env, pearl_env_program *p, const char *schedule,
		   struct pearl_env_result *res, char *err, size_t err_size);

/* Measures `schedule` (kept) on p once more, as pearl_env_time does
 * (legality, code, runs, outputs compared), but neither reads nor writes
 * the memo, and runs the code even where it is the base's (the schedule
 * "" runs the unscheduled program): for comparing finalists in one
 * sitting, free of the luck of their first measurements. Compiled by
 * the options' again_compiler, if set (the outputs are still compared
 * with the JIT-compiled base's). *res's speedup is against the base's
 * first time. Returns 0, or -1 on errors of the
 * environment (err). */
int pearl_env_time_again(pearl_env *env, pearl_env_program *p,
			 const char *schedule, struct pearl_env_result *res,
			 char *err, size_t err_size);

struct pearl_env_stats {
	long queries, memo_hits, memo_misses; /* pearl_env_time calls and how
					       * they were answered */
	long compilations, executions; /* JIT compilations and timed+warmup
					* runs actually performed */
	long illegal, timeouts, wrong_outputs;
	double seconds_compile, seconds_run; /* wall time spent */
	/* Extensions: wall time in legality checks + code generation
	 * (seconds_compile is lowering + JIT only) and in memo lookups and
	 * stores, and the number of base (unscheduled) measurements. */
	double seconds_schedule, seconds_memo;
	long base_measurements;
	/* Measurements taken again because the machine was contended
	 * (max_cpu_pressure), and answers still contended after the
	 * retries: returned, not memoized. */
	long contention_retries, contended;
	/* Memoized base times measured again (recheck_bases; contended
	 * measurements not counted) and the median of new / memoized (0
	 * if none). */
	long bases_rechecked;
	double base_drift;
	/* Answers taken from a schedule measured before in this process
	 * that generates the same code (not run again: twins differ only by
	 * noise). */
	long code_twins;
	/* Memo hits answered by another machine's rows (memo_also), and
	 * programs moved to this machine by a query that had to measure. */
	long also_hits, also_moved;
};

/* The counters since pearl_env_create. */
void pearl_env_get_stats(const pearl_env *env, struct pearl_env_stats *s);

/* What a memo database holds (extension, for the model card). */
struct pearl_env_memo_summary {
	long rows;       /* answers: (program, schedule, machine) */
	long programs;   /* programs seen */
	long schedules;  /* unique (program, schedule) pairs, "" included */
	long machines;   /* machine fingerprints ("*", legality, excluded) */
	long illegal;    /* rows with an illegal schedule */
};
/* Reads the database at memo_path (__isl_keep; created empty if missing)
 * into *s. 0, or -1 with the reason in err. */
int pearl_env_memo_summary(const char *memo_path,
			   struct pearl_env_memo_summary *s, char *err,
			   size_t err_size);

/* Copies into the database at memo_path (created if missing) every
 * answer of the database at from_path (an error if missing) that it
 * lacks: same program, schedule, machine and code generator; the rows it
 * has are kept. *added (may be NULL) is set to the number of rows copied.
 * 0, or -1 with the reason in err. */
int pearl_env_memo_merge(const char *memo_path, const char *from_path,
			 long *added, char *err, size_t err_size);

/* One answer of a memo database (extension, for training a critic on
 * every measured schedule). */
struct pearl_env_memo_result {
	char *schedule;           /* normalized; "" the unscheduled program */
	enum pearl_env_status status; /* OK or TIMEOUT */
	double seconds;           /* the fastest timed run; for TIMEOUT the
				   * limit the run passed */
};
/* The OK and TIMEOUT answers for program `hash` on `machine` made by code
 * generator version `codegen` (for the current version, also those of the
 * versions it carries, PEARL_CODEGEN_CARRIED) in the database at
 * memo_path (all kept; an error if the file is missing), in *results
 * (malloc'd, *n of them; pearl_env_memo_results_free frees them), in the
 * order of their schedules. 0, or -1 with the reason in err. */
int pearl_env_memo_results(const char *memo_path, const char *hash,
			   const char *machine, int codegen,
			   struct pearl_env_memo_result **results, int *n,
			   char *err, size_t err_size);
void pearl_env_memo_results_free(struct pearl_env_memo_result *results,
				 int n);

/* The machine fingerprint in use (__isl_keep). */
const char *pearl_env_machine(const pearl_env *env);

#ifdef __cplusplus
}
#endif

#endif
