/* The C path of pearl-fuzz (fuzz.h): the same pearl-gen programs as C
 * (pearl-gen --lang c), compiled by `clang -O3` alone (the reference) and
 * by `clang -O3 -fopenmp` with the Pearl plugin under each schedule; both
 * programs run and print a checksum per written array, which must agree.
 *
 * Schedules: "" first, which here means no -pearl-schedule at all (the
 * compiled-in policy decides, as for a user), then the MLIR path's
 * schedules of the same program (the policy's on its MLIR model, and
 * random ones drawn from that model), passed as -pearl-schedule.
 *
 * The policy's compilation is made when the program is loaded: if the
 * plugin models no Scop of kernel() (each is "unmodeled" or "dropped" in
 * its report: a call, a memset, a statement that writes an array element
 * and a scalar, ...), no
 * schedule can apply, and the program is unusable, as an unmodeled one
 * is on the MLIR path; its other pairs are not compiled. Otherwise the
 * "" pair reuses that compilation.
 *
 * The plugin's -pearl-report file says what came of each Scop of kernel():
 *   a Scop "scheduled"                       -> legal, executed
 *   only "kept" Scops                        -> legal, the same code
 *   "unchanged" after Polly's AST generation
 *   or code generation failed                -> NOT_GENERATED
 *   otherwise (refused, not modeled)         -> ILLEGAL
 * and the compiler or the program failing:
 *   clang killed by a signal, or its crash
 *   report ("PLEASE submit a bug report")    -> CRASH (of the pass)
 *   clang failing otherwise                  -> COMPILE_FAILED
 *   the program killed or exiting non-zero   -> CRASH (generated code)
 *   either slower than its limit             -> HANG
 *   different output                         -> WRONG_OUTPUT
 * Pairs that schedule nothing are not run: their code is clang's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "pearl/gen.h"

/* A compilation slower than this many times the run timeout (and at
 * least COMPILE_MIN_SECONDS) hangs. */
#define COMPILE_FACTOR 6.0
#define COMPILE_MIN_SECONDS 60.0

struct c_state {
	struct fuzz_config cfg;
	void *mlir;           /* owned: the MLIR driver's state, for the
			       * program's model (schedules) */
	char dir[256];        /* owned temporary directory */
	char *ref_out;        /* owned: the reference program's output */
	int policy_built;     /* dir/policy and dir/policy.report are the
			       * loaded program's, compiled with the policy */
	uint64_t seed;
};

/* dir/name into buf. */
static void in_dir(const struct c_state *s, const char *name, char *buf,
		   size_t size)
{
	snprintf(buf, size, "%s/%s", s->dir, name);
}

static void remove_files(const struct c_state *s)
{
	static const char *const names[] = { "prog.c", "ref", "test",
		"test.report", "policy", "policy.report", "cc.err", "run.out",
		"run.err" };
	char path[320];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); ++i) {
		in_dir(s, names[i], path, sizeof(path));
		unlink(path);
	}
}

static void c_destroy(void *state)
{
	struct c_state *s = state;

	if (!s)
		return;
	if (s->dir[0]) {
		remove_files(s);
		rmdir(s->dir);
	}
	fuzz_driver_mlir.destroy(s->mlir);
	free(s->ref_out);
	free(s);
}

static void *c_create(const struct fuzz_config *cfg, char *err,
		      size_t err_size)
{
	struct c_state *s = calloc(1, sizeof(*s));
	const char *tmp = getenv("TMPDIR");

	if (!s) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	snprintf(s->dir, sizeof(s->dir), "%s/pearl-fuzz-c-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir)) {
		snprintf(err, err_size, "cannot create a directory in %s: %s",
			 tmp && *tmp ? tmp : "/tmp", strerror(errno));
		s->dir[0] = '\0';
		c_destroy(s);
		return NULL;
	}
	s->mlir = fuzz_driver_mlir.create(cfg, err, err_size);
	if (!s->mlir) {
		c_destroy(s);
		return NULL;
	}
	return s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* How a command ended. */
struct ended {
	int timed_out;
	int signal;    /* the signal that killed it, 0 if it exited */
	int status;    /* its exit status */
};

/* Runs argv (argv[0] a path) with stdout and stderr into the files
 * `out` and `err_file` (NULL: /dev/null), for at most `timeout` seconds
 * (then its process group is killed). 0 with *e filled, or -1 with err. */
static int run_command(char *const argv[], const char *out,
		       const char *err_file, double timeout, struct ended *e,
		       char *err, size_t err_size)
{
	double deadline = now() + timeout;
	int wstatus;
	pid_t parent, pid, done;

	memset(e, 0, sizeof(*e));
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		snprintf(err, err_size, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int o = open(out ? out : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int r = open(err_file ? err_file : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		/* in a group of its own, so the worker's end would not take
		 * it: dies with the worker instead of running on */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent || o < 0 || r < 0 || dup2(o, 1) < 0 ||
		    dup2(r, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		struct timespec tick = { 0, 5000000 };

		done = waitpid(pid, &wstatus, WNOHANG);
		if (done == pid)
			break;
		if (done < 0 && errno != EINTR) {
			snprintf(err, err_size, "waitpid: %s", strerror(errno));
			return -1;
		}
		if (now() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			e->timed_out = 1;
			return 0;
		}
		nanosleep(&tick, NULL);
	}
	if (WIFSIGNALED(wstatus))
		e->signal = WTERMSIG(wstatus);
	else
		e->status = WEXITSTATUS(wstatus);
	return 0;
}

/* A whole file (malloc'd, NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *grown = realloc(buf, cap ? 2 * cap : 8192);

			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
			cap = cap ? 2 * cap : 8192;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* The C text of program `seed` at the configured scale (malloc'd). */
static char *program_text(const struct fuzz_config *cfg, uint64_t seed,
			  char *err, size_t err_size)
{
	return fuzz_program_text(cfg, seed, 1, err, err_size);
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(text, f) >= 0;

	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* The first line of `text` that contains `needle`, into buf ("" if
 * none). */
static void line_with(const char *text, const char *needle, char *buf,
		      size_t size)
{
	const char *hit = text ? strstr(text, needle) : NULL;
	const char *start, *end;

	buf[0] = '\0';
	if (!hit)
		return;
	for (start = hit; start > text && start[-1] != '\n'; --start)
		;
	end = strchr(hit, '\n');
	snprintf(buf, size, "%.*s", (int)(end ? end - start
					      : (long)strlen(start)), start);
}

static double compile_timeout(const struct c_state *s)
{
	double t = COMPILE_FACTOR * s->cfg.timeout;

	return t > COMPILE_MIN_SECONDS ? t : COMPILE_MIN_SECONDS;
}

/* Compiles dir/prog.c into dir/<exe>: with the plugin, `schedule` and
 * the report into dir/<exe>.report (schedule NULL: plain clang). 0 with
 * *e filled, or -1 with err. */
static int compile(const struct c_state *s, const char *schedule,
		   const char *exe, struct ended *e, char *err,
		   size_t err_size)
{
	char report_name[64];

	char src[320], bin[320], report[320], cc_err[320];
	char plugin[1100], sched_opt[1100], report_opt[360];
	char *argv[24];
	int n = 0;

	in_dir(s, "prog.c", src, sizeof(src));
	in_dir(s, exe, bin, sizeof(bin));
	snprintf(report_name, sizeof(report_name), "%s.report", exe);
	in_dir(s, report_name, report, sizeof(report));
	in_dir(s, "cc.err", cc_err, sizeof(cc_err));
	unlink(report);
	argv[n++] = (char *)s->cfg.clang;
	argv[n++] = "-O3";
	argv[n++] = "-w";
	if (schedule) {
		snprintf(plugin, sizeof(plugin), "-fpass-plugin=%s",
			 s->cfg.plugin);
		snprintf(report_opt, sizeof(report_opt), "-pearl-report=%s",
			 report);
		argv[n++] = "-fopenmp";
		argv[n++] = plugin;
		argv[n++] = "-mllvm";
		argv[n++] = "-pearl-only-func=kernel";
		argv[n++] = "-mllvm";
		argv[n++] = report_opt;
		if (*schedule) {
			snprintf(sched_opt, sizeof(sched_opt),
				 "-pearl-schedule=%s", schedule);
			argv[n++] = "-mllvm";
			argv[n++] = sched_opt;
		}
	}
	argv[n++] = src;
	argv[n++] = "-o";
	argv[n++] = bin;
	argv[n++] = "-lm";
	argv[n] = NULL;
	return run_command(argv, NULL, cc_err, compile_timeout(s), e, err,
			   err_size);
}

/* Runs dir/<exe>; its output in *out (malloc'd) when it exits 0. 0 with
 * *e filled, or -1 with err. */
static int run_program(const struct c_state *s, const char *exe, char **out,
		       struct ended *e, char *err, size_t err_size)
{
	char bin[320], run_out[320], run_err[320], threads[16];
	char *argv[2];

	in_dir(s, exe, bin, sizeof(bin));
	in_dir(s, "run.out", run_out, sizeof(run_out));
	in_dir(s, "run.err", run_err, sizeof(run_err));
	snprintf(threads, sizeof(threads), "%d", s->cfg.threads);
	setenv("OMP_NUM_THREADS", threads, 1);
	argv[0] = bin;
	argv[1] = NULL;
	*out = NULL;
	if (run_command(argv, run_out, run_err, s->cfg.timeout, e, err,
			err_size) < 0)
		return -1;
	if (!e->timed_out && !e->signal && !e->status) {
		*out = slurp(run_out);
		if (!*out) {
			snprintf(err, err_size, "cannot read %s", run_out);
			return -1;
		}
	}
	return 0;
}

/* How a command ended, in words, into buf ("" if it succeeded). */
static void describe(const char *what, const struct ended *e, char *buf,
		     size_t size)
{
	if (e->timed_out)
		snprintf(buf, size, "%s took too long", what);
	else if (e->signal)
		snprintf(buf, size, "%s was killed by signal %d (%s)", what,
			 e->signal, strsignal(e->signal));
	else if (e->status)
		snprintf(buf, size, "%s exited with status %d", what,
			 e->status);
	else
		buf[0] = '\0';
}

/* The outcomes in the -pearl-report file of one compilation. */
struct report {
	int scheduled, kept, not_generated, time_limit, ast_refused, other;
	int unmodeled;          /* of `other`: "unmodeled" or "dropped" */
	char first_other[256];  /* the first refusal or reason */
};

/* The report of the compilation into dir/<exe>. */
static void read_report(const struct c_state *s, const char *exe,
			struct report *r)
{
	char name[64], path[320], *text, *line, *next;

	memset(r, 0, sizeof(*r));
	snprintf(name, sizeof(name), "%s.report", exe);
	in_dir(s, name, path, sizeof(path));
	text = slurp(path);
	for (line = text; line && *line; line = next) {
		char *outcome, *why;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* function \t index \t outcome \t text */
		outcome = strchr(line, '\t');
		outcome = outcome ? strchr(outcome + 1, '\t') : NULL;
		if (!outcome)
			continue;
		outcome++;
		why = strchr(outcome, '\t');
		if (why)
			*why++ = '\0';
		if (!strcmp(outcome, "scheduled")) {
			r->scheduled++;
		} else if (!strcmp(outcome, "kept")) {
			r->kept++;
		} else if (why && strstr(why, "time limit")) {
			r->time_limit++;
		} else if (why && (strstr(why, "more than once or not at "
					   "all") ||
				   strstr(why, "runs each instance once"))) {
			r->ast_refused++;
		} else if (why && (strstr(why, "AST generation failed") ||
				   strstr(why, "code generation declined"))) {
			r->not_generated++;
			snprintf(r->first_other, sizeof(r->first_other), "%s",
				 why);
		} else {
			if (!strcmp(outcome, "unmodeled") ||
			    !strcmp(outcome, "dropped"))
				r->unmodeled++;
			if (!r->other++)
				snprintf(r->first_other,
					 sizeof(r->first_other), "%s: %s",
					 outcome, why ? why : "");
		}
	}
	free(text);
}

/* Compiles the loaded program with the policy deciding, into dir/policy.
 * 0, 1 if the plugin models none of its Scops (err says why), -1 on an
 * error. A failed compilation is left to the "" pair to classify. */
static int build_policy(struct c_state *s, char *err, size_t err_size)
{
	struct report r;
	struct ended e;

	if (compile(s, "", "policy", &e, err, err_size) < 0)
		return -1;
	if (e.timed_out || e.signal || e.status)
		return 0;
	read_report(s, "policy", &r);
	if (r.unmodeled == r.other && !r.scheduled && !r.kept &&
	    !r.not_generated && !r.time_limit && !r.ast_refused) {
		snprintf(err, err_size, "the plugin models no Scop of "
			 "kernel()%s%s", r.first_other[0] ? ": " : "",
			 r.first_other);
		return 1;
	}
	s->policy_built = 1;
	return 0;
}

static int c_load(void *state, uint64_t seed, char *err, size_t err_size)
{
	struct c_state *s = state;
	struct ended e;
	char src[320], why[256];
	char *text;
	int ret;

	free(s->ref_out);
	s->ref_out = NULL;
	s->policy_built = 0;
	remove_files(s);
	ret = fuzz_driver_mlir.load(s->mlir, seed, err, err_size);
	if (ret)
		return ret;
	s->seed = seed;
	text = program_text(&s->cfg, seed, err, err_size);
	if (!text)
		return -1;
	in_dir(s, "prog.c", src, sizeof(src));
	ret = write_text(src, text);
	free(text);
	if (ret < 0) {
		snprintf(err, err_size, "cannot write %s", src);
		return -1;
	}
	if (compile(s, NULL, "ref", &e, err, err_size) < 0)
		return -1;
	describe("plain clang", &e, why, sizeof(why));
	if (!why[0] &&
	    run_program(s, "ref", &s->ref_out, &e, err, err_size) < 0)
		return -1;
	if (!why[0])
		describe("the reference program", &e, why, sizeof(why));
	if (why[0]) {
		snprintf(err, err_size, "%s", why);
		return 1;
	}
	return build_policy(s, err, err_size);
}

/* "" (the policy decides in clang), then the MLIR path's schedules. */
static int c_schedules(void *state, int count, fuzz_trace_fn trace,
		       fuzz_emit_fn emit, void *user, char *err,
		       size_t err_size)
{
	struct c_state *s = state;

	if (count <= 0)
		return 0;
	if (emit("", user) < 0)
		return -1;
	if (count == 1)
		return 0;
	return fuzz_driver_mlir.schedules(s->mlir, count - 1, trace, emit,
					  user, err, err_size);
}

/* The outcome of a compilation with the plugin that failed. */
static void compile_failure(const struct c_state *s, const struct ended *e,
			    struct fuzz_outcome *out)
{
	char path[320], what[128], line[384];
	char *log;

	in_dir(s, "cc.err", path, sizeof(path));
	log = slurp(path);
	describe("clang with the plugin", e, what, sizeof(what));
	if (e->timed_out) {
		out->cls = fuzz_hang;
		line[0] = '\0';
	} else if (e->signal || (log && strstr(log, "PLEASE submit"))) {
		out->cls = fuzz_crash;
		line_with(log, "Running pass", line, sizeof(line));
	} else {
		out->cls = fuzz_compile_failed;
		line_with(log, "error", line, sizeof(line));
	}
	snprintf(out->message, sizeof(out->message), "%s%s%s", what,
		 line[0] ? ": " : "", line);
	free(log);
}

static int c_run(void *state, const char *schedule,
		 struct fuzz_outcome *out, char *err, size_t err_size)
{
	struct c_state *s = state;
	struct report r;
	struct ended e;
	char *got = NULL;

	const char *exe = "test";

	memset(out, 0, sizeof(*out));
	if (!*schedule && s->policy_built) {
		exe = "policy"; /* compiled when the program was loaded */
	} else {
		if (compile(s, schedule, exe, &e, err, err_size) < 0)
			return -1;
		if (e.timed_out || e.signal || e.status) {
			compile_failure(s, &e, out);
			return 0;
		}
	}
	read_report(s, exe, &r);
	out->legal = r.scheduled > 0 ||
		     ((r.kept > 0 || r.time_limit > 0 || r.ast_refused > 0) &&
		      !r.other);
	if (!r.scheduled) {
		/* nothing generated: the code is clang's */
		out->same_code = out->legal && !r.time_limit && !r.ast_refused;
		out->cls = r.not_generated ? fuzz_not_generated
			 : r.time_limit && !r.other ? fuzz_time_limit
			 : r.ast_refused && !r.other ? fuzz_ast_refused
			 : out->legal ? fuzz_ok : fuzz_illegal;
		snprintf(out->message, sizeof(out->message), "%s",
			 out->legal ? "the plugin kept clang's code"
			 : r.first_other[0] ? r.first_other
			 : "no Scop reported (the plugin refused its options, "
			   "or Polly found none)");
		return 0;
	}
	if (run_program(s, exe, &got, &e, err, err_size) < 0)
		return -1;
	if (e.timed_out || e.signal || e.status) {
		out->cls = e.timed_out ? fuzz_hang : fuzz_crash;
		describe("the scheduled program", &e, out->message,
			 sizeof(out->message));
	} else if (strcmp(got, s->ref_out)) {
		out->cls = fuzz_wrong_output;
		snprintf(out->message, sizeof(out->message),
			 "the output differs from plain clang's");
	} else {
		out->cls = fuzz_ok;
	}
	free(got);
	return 0;
}

static void c_program_file(uint64_t seed, char *buf, size_t size)
{
	snprintf(buf, size, "gen-%" PRIu64 ".c", seed);
}

static int c_save_program(const struct fuzz_config *cfg, uint64_t seed,
			  const char *file, char *err, size_t err_size)
{
	char *text = program_text(cfg, seed, err, err_size);
	int ret;

	if (!text)
		return -1;
	ret = write_text(file, text);
	free(text);
	if (ret < 0)
		snprintf(err, err_size, "cannot write %s", file);
	return ret;
}

static void c_command(const struct fuzz_config *cfg, uint64_t seed,
		      const char *schedule, char *buf, size_t size)
{
	char file[64];

	c_program_file(seed, file, sizeof(file));
	snprintf(buf, size, "%s -O3 %s -o ref -lm && ./ref > ref.out; "
		 "%s -O3 -fopenmp -fpass-plugin=%s -mllvm "
		 "-pearl-only-func=kernel%s%s%s %s -o test -lm && "
		 "OMP_NUM_THREADS=%d ./test | diff ref.out -", cfg->clang,
		 file, cfg->clang, cfg->plugin,
		 *schedule ? " -mllvm '-pearl-schedule=" : "", schedule,
		 *schedule ? "'" : "", file, cfg->threads);
}

const struct fuzz_driver fuzz_driver_c = FUZZ_DRIVER(c);
