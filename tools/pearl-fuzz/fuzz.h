/*
 * pearl-fuzz/fuzz.h - the parts of pearl-fuzz, a differential fuzzer of
 * Pearl's schedules: random programs, each run unscheduled and under many
 * schedules, the outputs compared bit for bit.
 *
 *   classes    what one (program, schedule) pair came to (fuzz_class)
 *   schedules  random schedules in Pearl's notation for one program
 *              (schedules.c): guided by the program's model, blind (depth
 *              per branch only) or wild
 *   minimize   delta debugging of a failing schedule (minimize.c)
 *   driver     how programs are made and pairs run on one path (MLIR:
 *              driver_mlir.c; a C path through clang would be a second
 *              driver)
 *   worker     a forked process that runs pairs for the campaign, so that
 *              a crash or hang of the pass cannot take the fuzzer down
 *              (worker.c)
 *   campaign   programs, pairs, counts, failures, reproducers (campaign.c)
 *   strings    a list of copied strings (strings.c): the campaign's
 *              schedules of a program, the schedules a driver handed out
 *
 * Ownership follows isl's conventions (__isl_give: the caller frees;
 * __isl_take: consumed; __isl_keep: borrowed). Errors: functions return
 * NULL or -1 with a message in `err` (NUL-terminated when err_size > 0);
 * nothing here exits.
 */
#ifndef PEARL_FUZZ_H
#define PEARL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "pearl/transform.h"

/* What a (program, schedule) pair came to. */
enum fuzz_class {
	fuzz_ok,             /* legal, and the outputs are the base's */
	fuzz_illegal,        /* refused by the dependences, or no parse */
	fuzz_wrong_output,   /* legal, outputs differ: a Pearl bug */
	fuzz_not_generated,  /* legal, the code generator gave up */
	fuzz_compile_failed, /* generated, but lowering or the JIT failed */
	fuzz_crash,          /* the generated code or the pass died */
	fuzz_hang,           /* a run or the pass took too long */
	fuzz_error,          /* an error of the environment itself */
	fuzz_time_limit,     /* legal, but a check or the AST generation ran
			      * past the pass's time limit: the code was
			      * kept, as the pass promises (not a failure) */
	fuzz_ast_refused,    /* legal, but isl's AST failed Pearl's check
			      * that it runs each instance once (an isl bug
			      * caught, or the check exceeded the isl
			      * quota): the code was kept (not a failure) */
	fuzz_n_classes
};

/* The class's name in reports ("OK", "WRONG_OUTPUT", ...), and back (-1 if
 * unknown). */
const char *fuzz_class_name(enum fuzz_class cls);
int fuzz_class_parse(const char *name);
/* 1 if a pair of this class is a failure that fails the campaign
 * (WRONG_OUTPUT, CRASH, HANG, COMPILE_FAILED). */
int fuzz_class_fails(enum fuzz_class cls);
/* 1 if a pair of this class is kept as a reproducer (the failures above
 * and NOT_GENERATED). */
int fuzz_class_kept(enum fuzz_class cls);

struct fuzz_outcome {
	enum fuzz_class cls;
	int legal;          /* the schedule passed the legality check */
	int same_code;      /* legal, and the code is the base's: nothing ran */
	char message[512];  /* why, for anything but OK */
};

/* --- schedules.c: random schedules ------------------------------------ */

/* How a random schedule is drawn. */
enum fuzz_gen_mode {
	fuzz_gen_guided,  /* each action tried on a copy of the schedule;
			   * refused ones are mostly dropped: mostly legal */
	fuzz_gen_blind,   /* levels within each branch's depth (tilings
			   * counted), legality not checked */
	fuzz_gen_wild,    /* any levels, sizes and factors, malformed text */
	fuzz_n_gen_modes
};

/* Hears what the generator is about to try on the model (a partial
 * schedule in Pearl's notation), so that a crash inside the legality check
 * can be traced to it. */
typedef void (*fuzz_trace_fn)(const char *partial, void *user);

/* A random schedule for the program of `base` (__isl_keep; not modified:
 * guided drawing works on a copy), drawn from *rng (advanced) in `mode`.
 * Returns the schedule in Pearl's notation (__isl_give, malloc'd), or NULL
 * with a message in err (out of memory, or a legality test that disagrees
 * with the full dependence check: "verify: ..."). */
char *fuzz_random_schedule(pearl_sched *base, uint64_t *rng,
			   enum fuzz_gen_mode mode, fuzz_trace_fn trace,
			   void *user, char *err, size_t err_size);

/* The mode of the k-th random schedule of a program, drawn from *rng:
 * guided 65%, blind 20%, wild 15%. */
enum fuzz_gen_mode fuzz_draw_mode(uint64_t *rng);

/* --- minimize.c: delta debugging -------------------------------------- */

/* Whether `acts[0..n-1]` still fails the way the original did: 1 yes,
 * 0 no, -1 stop minimizing (an error). */
typedef int (*fuzz_still_fails_fn)(const struct pearl_action *acts, int n,
				   void *user);

struct fuzz_min_result {
	struct pearl_action *acts;  /* __isl_give: the smallest failing
				     * schedule found (malloc'd) */
	int n;
	int tests;                  /* calls of still_fails */
	int stopped;                /* the budget ran out or still_fails
				     * returned -1 */
};

/* Shrinks the failing schedule acts[0..n-1] (__isl_keep): drops runs of
 * actions then single actions, then simplifies each action (lower levels,
 * smaller tile sizes and factors, solver-chosen skews, 2-d for 3-d
 * tilings), repeating until nothing more can go, with at most `max_tests`
 * calls of still_fails. Every accepted step keeps the schedule failing and
 * makes it strictly simpler. Fills *res; 0, or -1 if memory is exhausted. */
int fuzz_minimize(const struct pearl_action *acts, int n,
		  fuzz_still_fails_fn still_fails, void *user, int max_tests,
		  struct fuzz_min_result *res);

/* actions[0..n-1] in Pearl's notation (__isl_give, malloc'd; "" for none),
 * NULL if memory is exhausted. */
char *fuzz_actions_str(const struct pearl_action *acts, int n);

/* --- the driver of a path --------------------------------------------- */

/* A growable list of strings, each a copy owned by the list. A list of
 * zeros (FUZZ_STRINGS_INIT) is empty. */
struct fuzz_strings {
	char **s;
	int n, cap;
};
#define FUZZ_STRINGS_INIT { NULL, 0, 0 }

/* Appends a copy of text (kept); 0, or -1 if memory is exhausted. */
int fuzz_strings_add(struct fuzz_strings *l, const char *text);
/* Whether the list holds a string equal to text. */
int fuzz_strings_contain(const struct fuzz_strings *l, const char *text);
/* Frees the strings and the list's array; the list is then empty. */
void fuzz_strings_clear(struct fuzz_strings *l);

struct fuzz_config {
	const char *path;        /* "mlir" or "c" */
	int size_scale;          /* enum pearl_gen_scale */
	int threads;             /* OpenMP threads of the runs */
	double timeout;          /* a run slower than this is a hang */
	const char *memo_path;   /* memo database, or NULL */
	const char *clang;       /* the C path: clang, and the plugin it */
	const char *plugin;      /* loads (PearlLLVMPlugin.so) */
	/* The MLIR path: programs read from these kernel-contract files
	 * instead of made by pearl-gen, program S from kernels.s[S mod
	 * kernels.n] (its schedules still drawn from seed S); none when
	 * the list is empty. */
	struct fuzz_strings kernels;
	/* Test hooks of the worker: a pair whose schedule contains this
	 * makes the worker abort (crash) or stop answering (hang); NULL:
	 * none. */
	const char *inject_crash;
	const char *inject_hang;
};

/* Receives one schedule of a program. 0, or -1 to stop. */
typedef int (*fuzz_emit_fn)(const char *schedule, void *user);

/* One path: how programs are made, how their schedules are drawn and how
 * a pair is run. The worker-side functions run in the worker process only;
 * the others run in the campaign's. */
struct fuzz_driver {
	const char *name;
	/* Worker side. A driver state (__isl_give), or NULL with err. */
	void *(*create)(const struct fuzz_config *cfg, char *err,
			size_t err_size);
	void (*destroy)(void *state);                  /* __isl_take */
	/* Loads program `seed` and runs it unscheduled: 0, 1 if the program
	 * is unusable (err says why: not modeled, the base does not run), -1
	 * on an error. */
	int (*load)(void *state, uint64_t seed, char *err, size_t err_size);
	/* `count` schedules of the loaded program, each given to emit:
	 * the policy's (greedy, then sampled) and random ones; `trace`
	 * hears what is tried on the model. 0, or -1 with err. */
	int (*schedules)(void *state, int count, fuzz_trace_fn trace,
			 fuzz_emit_fn emit, void *user, char *err,
			 size_t err_size);
	/* Runs the loaded program under `schedule`: 0 with *out filled, or
	 * -1 on an error of the environment (err). */
	int (*run)(void *state, const char *schedule, struct fuzz_outcome *out,
		   char *err, size_t err_size);
	/* Campaign side. Writes program `seed` to `file` (0, or -1 with
	 * err). */
	int (*save_program)(const struct fuzz_config *cfg, uint64_t seed,
			    const char *file, char *err, size_t err_size);
	/* The program's file name, e.g. "gen-7.mlir". */
	void (*program_file)(uint64_t seed, char *buf, size_t size);
	/* The shell command that reproduces the pair, run in the directory
	 * of the program's file. */
	void (*command)(const struct fuzz_config *cfg, uint64_t seed,
			const char *schedule, char *buf, size_t size);
};

/* The driver of `path` whose functions are path_create, path_destroy, ...
 * (each driver file names its functions with its path as the prefix). */
#define FUZZ_DRIVER(path)                                                    \
	{                                                                    \
		.name = #path, .create = path##_create,                      \
		.destroy = path##_destroy, .load = path##_load,              \
		.schedules = path##_schedules, .run = path##_run,            \
		.save_program = path##_save_program,                         \
		.program_file = path##_program_file,                         \
		.command = path##_command,                                   \
	}

/* The driver of `path` ("mlir" or "c"), or NULL if there is none. */
const struct fuzz_driver *fuzz_driver_find(const char *path);

extern const struct fuzz_driver fuzz_driver_mlir;
/* driver_mlir.c: program `seed` of pearl-gen at the configured scale, as
 * MLIR or (c) as C (malloc'd; NULL with a message in err). */
char *fuzz_program_text(const struct fuzz_config *cfg, uint64_t seed, int c,
			char *err, size_t err_size);
/* driver_c.c: the same programs as C, clang -O3 against clang -O3 with
 * the plugin; schedules from the MLIR path's model of the program. */
extern const struct fuzz_driver fuzz_driver_c;

/* --- worker.c: the worker process and its protocol --------------------
 *
 * One text line per message. The campaign asks:
 *   P <seed> <count>   load program seed, then draw count schedules
 *   R <schedule>       run the loaded program under schedule
 * and the worker answers:
 *   G <text>           what it is about to try on the model (any number)
 *   S <schedule>       one schedule of P (count of them)
 *   E ok | E unusable <why> | E error <why>     end of P
 *   O <CLASS> <legal> <same_code> <message>     the outcome of R
 * The worker exits when its input ends. */

struct fuzz_worker {
	const struct fuzz_driver *driver;  /* borrowed */
	const struct fuzz_config *cfg;     /* borrowed */
	pid_t pid;          /* 0: not running; also its process group */
	int to_fd, from_fd; /* requests, answers */
	int log_fd;         /* its stdout and stderr: an unlinked file */
	off_t log_mark;     /* the log's size when the last request went */
	char *buf;          /* answers read but not consumed */
	size_t len, cap, line_end;
	int loaded;         /* a program is loaded: `seed` */
	uint64_t seed;
	long starts;        /* processes started */
};

/* Prepares w (not started); 0, or -1 with err. */
int fuzz_worker_init(struct fuzz_worker *w, const struct fuzz_driver *driver,
		     const struct fuzz_config *cfg, char *err, size_t err_size);
/* Stops the worker if it runs (its exit status, if not 0, in msg when
 * msg is not NULL: e.g. a leak report) and frees w's resources. */
void fuzz_worker_clear(struct fuzz_worker *w, char *msg, size_t size);
/* Forks a new worker process; 0, or -1 with err. */
int fuzz_worker_start(struct fuzz_worker *w, char *err, size_t err_size);
/* Sends one request line (printf-style, without the newline): 0, or -1 if
 * the worker is gone. */
int fuzz_worker_send(struct fuzz_worker *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The next answer line in *line (without newline; valid until the next
 * call), waiting at most `timeout` seconds: 1, 0 if the worker died, -2 if
 * the time passed, -1 on an error. */
int fuzz_worker_read(struct fuzz_worker *w, double timeout, char **line);
/* After fuzz_worker_read said the worker died or timed out: kills what is
 * left of its process group, reaps it and describes its end in msg (how
 * it ended, then the tail of what it printed since the last request). */
void fuzz_worker_bury(struct fuzz_worker *w, int killed, char *msg,
		      size_t size);

/* The worker's side: serves requests from in_fd on out_fd until in_fd
 * ends. Returns the process's exit status. */
int fuzz_worker_main(const struct fuzz_driver *driver,
		     const struct fuzz_config *cfg, int in_fd, int out_fd);

/* --- campaign.c: the campaign ---------------------------------------- */

struct fuzz_options {
	const struct fuzz_driver *driver; /* borrowed */
	struct fuzz_config cfg;
	uint64_t seed;           /* programs seed, seed + 1, ... */
	long programs;           /* stop after this many programs (0: no
				  * limit) */
	long pairs;              /* stop after this many legal pairs (0) */
	double seconds;          /* stop after this many seconds (0) */
	int per_program;         /* schedules per program */
	const char *out_dir;     /* reproducers and the summary, or NULL */
	const char *log_path;    /* one line per pair, or NULL */
	double hang_seconds;     /* a worker silent this long is hung */
	double slow_seconds;     /* a pair this long is counted as slow */
	int minimize_tests;      /* tests per failure minimized */
	double minimize_seconds; /* and seconds */
	int minimize_limit;      /* failures minimized per kind (class and
				  * message); 0: none */
	int confirm_runs;        /* runs of each failure's final schedule
				  * again, to tell flaky failures (races in
				  * parallel code) */
	const char *schedule;    /* run this schedule alone on every program
				  * instead of drawing schedules, or NULL */
	const char *inject;      /* test hook: a legal pair whose schedule
				  * contains this is a WRONG_OUTPUT */
	double progress_seconds; /* progress on stderr this often (0: none) */
};

/* Sets the defaults: the MLIR path at the small scale, seed 1, 12
 * schedules per program, 2 threads, runs slower than 10 s hang, a worker
 * silent for 120 s hangs, pairs of 10 s or more are slow, 200 tests and
 * 60 s per minimization, 5 minimized failures per kind, each failure
 * run 3 times more, progress every 10 s. */
void fuzz_options_init(struct fuzz_options *o);

struct fuzz_counts {
	long programs;          /* programs drawn */
	long unusable;          /* of which not modeled, or no base run */
	long pairs;             /* (program, schedule) pairs tried */
	long legal;             /* of which passed the legality check */
	long executed;          /* of which compiled and ran */
	long same_code;         /* of which kept the base's code */
	long by_class[fuzz_n_classes];
	long worker_starts;     /* worker processes started */
	long minimize_tests;    /* pairs run by the minimizer (not above) */
	long failures;          /* reproducers kept (also of pairs the
				 * minimizer tried) */
	long failing;           /* of which fail the campaign */
	long distinct;          /* of which distinct (kind, minimized) */
	long slow;              /* pairs that took slow_seconds or more */
	double slowest_seconds; /* the slowest pair (not a hang) */
	uint64_t slowest_seed;
	char slowest[512];
	double seconds;
};

/* Runs the campaign described by `o` (__isl_keep), filling *counts;
 * prints progress on stderr, writes reproducers into o->out_dir and the
 * summary to `summary` (may be NULL). Returns 0 (whatever was found), or
 * -1 with err on an error of the fuzzer itself (no worker can be started,
 * the output directory is not writable). */
int fuzz_campaign_run(const struct fuzz_options *o, FILE *summary,
		      struct fuzz_counts *counts, char *err, size_t err_size);

#endif
