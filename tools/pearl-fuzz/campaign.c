/* The campaign of pearl-fuzz (fuzz.h): programs seed, seed + 1, ...; for
 * each, its schedules from the worker; every pair run by the worker and
 * counted; every failure kept as a reproducer, minimized, and reported.
 *
 * A worker that dies during a request is a CRASH of that request's pair
 * (the one run, or what was being tried on the model while schedules were
 * drawn); one that stays silent for hang_seconds is killed, a HANG. A new
 * worker takes over with the next request. Failures are kept and
 * minimized by failures.c, through the same worker; the minimizer's pairs
 * are counted apart. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign.h"
#include "pearl/gen.h"

static const char *class_names[fuzz_n_classes] = {
	"OK", "ILLEGAL", "WRONG_OUTPUT", "NOT_GENERATED", "COMPILE_FAILED",
	"CRASH", "HANG", "ERROR", "TIME_LIMIT", "AST_REFUSED"
};

const char *fuzz_class_name(enum fuzz_class cls)
{
	return cls >= 0 && cls < fuzz_n_classes ? class_names[cls] : "?";
}

int fuzz_class_parse(const char *name)
{
	int i;

	for (i = 0; i < fuzz_n_classes; ++i)
		if (!strcmp(name, class_names[i]))
			return i;
	return -1;
}

int fuzz_class_fails(enum fuzz_class cls)
{
	return cls == fuzz_wrong_output || cls == fuzz_crash ||
	       cls == fuzz_hang || cls == fuzz_compile_failed;
}

int fuzz_class_kept(enum fuzz_class cls)
{
	return fuzz_class_fails(cls) || cls == fuzz_not_generated;
}

void fuzz_options_init(struct fuzz_options *o)
{
	memset(o, 0, sizeof(*o));
	o->driver = &fuzz_driver_mlir;
	o->cfg.path = "mlir";
	o->cfg.size_scale = pearl_gen_scale_small;
	o->cfg.threads = 2;
	o->cfg.timeout = 10.0;
	o->cfg.clang = PEARL_FUZZ_CLANG;
	o->cfg.plugin = PEARL_FUZZ_PLUGIN;
	o->seed = 1;
	o->per_program = 12;
	o->hang_seconds = 120.0;
	o->slow_seconds = 10.0;
	o->minimize_tests = 200;
	o->minimize_seconds = 60.0;
	o->minimize_limit = 5;
	o->confirm_runs = 3;
	o->progress_seconds = 10.0;
}

volatile sig_atomic_t campaign_interrupted;

/* Read by the main loop, which kills the worker (and with it the program
 * under test) and stops after saying so. */
static void on_interrupt(int sig)
{
	(void)sig;
	campaign_interrupted = 1;
}

#define READ_INTERRUPTED (-3)

/* --- talking to the worker ------------------------------------------- */

/* How often a wait for the worker looks at campaign_interrupted. */
#define INTERRUPT_POLL_SECONDS 0.25

/* The next line from the worker, waiting at most `timeout` seconds, in
 * slices so that an interruption is seen within INTERRUPT_POLL_SECONDS:
 * fuzz_worker_read's answer, or READ_INTERRUPTED. */
static int read_line(struct campaign *c, double timeout, char **line)
{
	double deadline = pearl_now() + timeout;

	for (;;) {
		double left = deadline - pearl_now();
		int r;

		if (campaign_interrupted)
			return READ_INTERRUPTED;
		r = fuzz_worker_read(&c->w,
				     left < INTERRUPT_POLL_SECONDS
					 ? (left > 0 ? left : 0)
					 : INTERRUPT_POLL_SECONDS,
				     line);
		if (r != -2 || left <= INTERRUPT_POLL_SECONDS)
			return r;
	}
}

/* The next answer that is not a trace line (traces go to c->trace),
 * waiting at most `timeout` seconds for each line: 1, or
 * fuzz_worker_read's 0 (died), -2 (silent too long), -1, or
 * READ_INTERRUPTED (SIGINT or SIGTERM: the pair is abandoned). */
static int read_answer(struct campaign *c, double timeout, char **line)
{
	int r;

	for (;;) {
		r = read_line(c, timeout, line);
		if (r != 1)
			return r;
		if (strncmp(*line, "G ", 2) != 0)
			return 1;
		snprintf(c->trace, sizeof(c->trace), "%s", *line + 2);
	}
}

/* The worker is gone (r from read_answer, or 0 if a send failed): buries
 * it and makes the pair a CRASH or HANG (ERROR for a read error). After
 * an interruption the worker is killed and the pair is nothing. */
static void lost_worker(struct campaign *c, int r, struct fuzz_outcome *out)
{
	memset(out, 0, sizeof(*out));
	fuzz_worker_bury(&c->w, r != 0, out->message, sizeof(out->message));
	out->cls = r == -2 ? fuzz_hang : r == 0 ? fuzz_crash : fuzz_error;
}

static int ensure_worker(struct campaign *c)
{
	if (c->w.pid)
		return 0;
	if (fuzz_worker_start(&c->w, c->err, c->err_size) < 0)
		return -1;
	c->counts->worker_starts++;
	return 0;
}

enum load_status {
	load_ok,
	load_unusable, /* out->message says why */
	load_failed,   /* the worker crashed, hung or erred: *out */
	load_interrupted, /* SIGINT or SIGTERM: nothing to count */
	load_fatal     /* no worker could be started (c->err) */
};

/* Has the worker load program `seed` and, if `list`, draw `count`
 * schedules into it. */
static enum load_status load_program(struct campaign *c, uint64_t seed,
				     int count, struct fuzz_strings *list,
				     struct fuzz_outcome *out)
{
	char *line;
	int r;

	memset(out, 0, sizeof(*out));
	if (ensure_worker(c) < 0)
		return load_fatal;
	snprintf(c->trace, sizeof(c->trace), "loading the program");
	if (fuzz_worker_send(&c->w, "P %" PRIu64 " %d", seed,
			     list ? count : 0) < 0) {
		lost_worker(c, 0, out);
		return load_failed;
	}
	for (;;) {
		r = read_answer(c, c->o->hang_seconds, &line);
		if (r != 1) {
			lost_worker(c, r, out);
			return r == READ_INTERRUPTED ? load_interrupted
						     : load_failed;
		}
		if (!strncmp(line, "S ", 2)) {
			if (list && fuzz_strings_add(list, line + 2) < 0) {
				snprintf(c->err, c->err_size, "out of memory");
				return load_fatal;
			}
			continue;
		}
		break;
	}
	if (!strcmp(line, "E ok")) {
		c->w.loaded = 1;
		c->w.seed = seed;
		return load_ok;
	}
	if (!strncmp(line, "E unusable ", 11)) {
		snprintf(out->message, sizeof(out->message), "%s", line + 11);
		return load_unusable;
	}
	out->cls = fuzz_error;
	snprintf(out->message, sizeof(out->message), "%s",
		 !strncmp(line, "E error ", 8) ? line + 8 : line);
	return load_failed;
}

/* Fills *out from an answer "O CLASS legal same_code message"; 0 or -1. */
static int parse_outcome(const char *line, struct fuzz_outcome *out)
{
	char name[32];
	int pos = 0, cls;

	memset(out, 0, sizeof(*out));
	if (sscanf(line, "O %31s %d %d %n", name, &out->legal,
		   &out->same_code, &pos) < 3 || pos == 0)
		return -1;
	cls = fuzz_class_parse(name);
	if (cls < 0)
		return -1;
	out->cls = (enum fuzz_class)cls;
	snprintf(out->message, sizeof(out->message), "%s", line + pos);
	return 0;
}

/* The test hook: a legal pair whose schedule holds o->inject fails. */
static void inject_failure(struct campaign *c, const char *schedule,
			   struct fuzz_outcome *out)
{
	if (!c->o->inject || out->cls != fuzz_ok ||
	    !strstr(schedule, c->o->inject))
		return;
	out->cls = fuzz_wrong_output;
	snprintf(out->message, sizeof(out->message), "injected failure: the "
		 "schedule contains \"%s\"", c->o->inject);
}

/* Runs (seed, schedule) in the worker, loading the program first if the
 * worker does not hold it; a worker silent for `timeout` seconds hangs.
 * 0 with *out, or -1 (c->err) if no worker can be started. */
int campaign_run_pair(struct campaign *c, uint64_t seed, const char *schedule,
		      double timeout, struct fuzz_outcome *out)
{
	enum load_status st;
	char *line;
	int r;

	if (!c->w.pid || !c->w.loaded || c->w.seed != seed) {
		st = load_program(c, seed, 0, NULL, out);
		if (st == load_fatal)
			return -1;
		if (st == load_unusable) {
			out->cls = fuzz_error;
			return 0;
		}
		if (st == load_failed)
			return 0;
		if (st == load_interrupted)
			return 1;
	}
	snprintf(c->trace, sizeof(c->trace), "%s", schedule);
	if (fuzz_worker_send(&c->w, "R %s", schedule) < 0) {
		lost_worker(c, 0, out);
		return 0;
	}
	r = read_answer(c, timeout, &line);
	if (r != 1) {
		lost_worker(c, r, out);
		return r == READ_INTERRUPTED ? 1 : 0;
	}
	if (parse_outcome(line, out) < 0) {
		out->cls = fuzz_error;
		snprintf(out->message, sizeof(out->message), "the worker's "
			 "answer does not parse: %.400s", line);
	}
	inject_failure(c, schedule, out);
	return 0;
}

/* --- counting ------------------------------------------------------------ */

static void progress(struct campaign *c, int force)
{
	const struct fuzz_counts *k = c->counts;
	double t = pearl_now(), elapsed = t - c->t0;

	if (c->o->progress_seconds <= 0 ||
	    (!force && t - c->last_progress < c->o->progress_seconds))
		return;
	c->last_progress = t;
	fprintf(stderr, "pearl-fuzz: %.0f s: programs %ld pairs %ld legal %ld "
		"illegal %ld failures %ld (wrong %ld crash %ld hang %ld "
		"not_generated %ld compile %ld; time_limit %ld ast_refused "
		"%ld) %.2f "
		"pairs/s\n", elapsed,
		k->programs, k->pairs, k->legal, k->by_class[fuzz_illegal],
		k->failures, k->by_class[fuzz_wrong_output],
		k->by_class[fuzz_crash], k->by_class[fuzz_hang],
		k->by_class[fuzz_not_generated],
		k->by_class[fuzz_compile_failed],
		k->by_class[fuzz_time_limit], k->by_class[fuzz_ast_refused],
		elapsed > 0 ? (double)k->pairs / elapsed : 0.0);
}

/* Whether the generated code was compiled and run for this outcome. */
static int was_executed(const struct fuzz_outcome *out)
{
	return out->legal && !out->same_code &&
	       (out->cls == fuzz_ok || out->cls == fuzz_wrong_output ||
		out->cls == fuzz_crash || out->cls == fuzz_hang);
}

/* Counts a pair that took `seconds`, logs it and keeps it if it failed;
 * -1 if fatal. */
static int account(struct campaign *c, uint64_t seed, const char *schedule,
		   double seconds, const struct fuzz_outcome *out)
{
	struct fuzz_counts *k = c->counts;

	k->pairs++;
	k->by_class[out->cls]++;
	k->legal += out->legal;
	k->same_code += out->legal && out->same_code;
	k->executed += was_executed(out);
	if (out->cls != fuzz_hang && seconds >= c->o->slow_seconds) {
		k->slow++;
		if (seconds > k->slowest_seconds) {
			k->slowest_seconds = seconds;
			k->slowest_seed = seed;
			snprintf(k->slowest, sizeof(k->slowest), "%s",
				 schedule);
		}
	}
	if (c->log) {
		fprintf(c->log, "gen-%" PRIu64 "\t%s\t%s\t%.3f\n", seed,
			fuzz_class_name(out->cls), schedule, seconds);
		fflush(c->log);
	}
	if (fuzz_class_kept(out->cls) && failures_keep(c, seed, schedule, out) < 0)
		return -1;
	progress(c, 0);
	return 0;
}

static int should_stop(struct campaign *c)
{
	const struct fuzz_options *o = c->o;

	return campaign_interrupted || (o->pairs > 0 && c->counts->legal >= o->pairs) ||
	       (o->seconds > 0 && pearl_now() - c->t0 >= o->seconds);
}

/* Whether another program may start. */
static int more_programs(struct campaign *c)
{
	const struct fuzz_options *o = c->o;

	return !should_stop(c) &&
	       (o->programs <= 0 || c->counts->programs < o->programs);
}

/* The schedule a failure while drawing schedules is charged to: what was
 * tried on the model, if it was a schedule. */
static const char *traced_schedule(struct campaign *c, char *msg, size_t size)
{
	size_t len = strlen(msg);

	if (!strncmp(c->trace, "agent ", 6) ||
	    !strcmp(c->trace, "loading the program")) {
		snprintf(msg + len, size - len, " (while %.200s)", c->trace);
		return "";
	}
	return c->trace;
}

/* All pairs of program `seed`; -1 if fatal. */
static int fuzz_program(struct campaign *c, uint64_t seed)
{
	struct fuzz_strings list = FUZZ_STRINGS_INIT;
	struct fuzz_outcome out;
	enum load_status st;
	int i, ret = 0;

	c->counts->programs++;
	st = load_program(c, seed, c->o->schedule ? 0 : c->o->per_program,
			  &list, &out);
	if (st == load_ok && c->o->schedule &&
	    fuzz_strings_add(&list, c->o->schedule) < 0) {
		snprintf(c->err, c->err_size, "out of memory");
		st = load_fatal;
	}
	if (st == load_fatal) {
		ret = -1;
	} else if (st == load_interrupted) {
		c->counts->programs--;
	} else if (st == load_unusable) {
		c->counts->unusable++;
		if (c->log) {
			fprintf(c->log, "# gen-%" PRIu64 " unusable: %s\n",
				seed, out.message);
			fflush(c->log);
		}
	} else if (st == load_failed) {
		const char *sched = traced_schedule(c, out.message,
						    sizeof(out.message));
		char *copy = strdup(sched);

		ret = copy ? account(c, seed, copy, 0, &out) : -1;
		free(copy);
	}
	for (i = 0; st == load_ok && i < list.n && !should_stop(c) && !ret;
	     ++i) {
		double t0 = pearl_now();

		ret = campaign_run_pair(c, seed, list.s[i], c->o->hang_seconds, &out);
		if (ret == 1) /* interrupted: the pair is not counted */
			ret = 0;
		else if (!ret)
			ret = account(c, seed, list.s[i], pearl_now() - t0, &out);
	}
	fuzz_strings_clear(&list);
	return ret;
}

/* The summary: the counts, then every failure and the distinct ones. */
static void print_summary(struct campaign *c, FILE *out)
{
	const struct fuzz_options *o = c->o;
	const struct fuzz_counts *k = c->counts;

	fprintf(out, "pearl-fuzz: path %s seed %" PRIu64 " size-scale %s "
		"schedules-per-program %d\n", o->driver->name, o->seed,
		pearl_gen_scale_name((enum pearl_gen_scale)o->cfg.size_scale),
		o->per_program);
	failures_print(c, out);
	if (k->slow)
		fprintf(out, "slowest: gen-%" PRIu64 " \"%s\" took %.1f s\n",
			k->slowest_seed, k->slowest, k->slowest_seconds);
	fprintf(out, "pearl-fuzz summary: programs %ld unusable %ld pairs %ld "
		"legal %ld executed %ld same_code %ld illegal %ld "
		"wrong_output %ld not_generated %ld time_limit %ld "
		"ast_refused %ld compile_failed %ld "
		"crashes %ld hangs %ld errors %ld failures %ld distinct %ld "
		"slow %ld worker_starts %ld minimize_tests %ld seconds %.1f "
		"rate %.2f pairs/s\n", k->programs, k->unusable, k->pairs,
		k->legal, k->executed, k->same_code, k->by_class[fuzz_illegal],
		k->by_class[fuzz_wrong_output],
		k->by_class[fuzz_not_generated], k->by_class[fuzz_time_limit],
		k->by_class[fuzz_ast_refused], k->by_class[fuzz_compile_failed], k->by_class[fuzz_crash],
		k->by_class[fuzz_hang], k->by_class[fuzz_error], k->failures,
		k->distinct, k->slow, k->worker_starts, k->minimize_tests, k->seconds,
		k->seconds > 0 ? (double)k->pairs / k->seconds : 0.0);
}

/* Writes the summary into the output directory too. */
static int save_summary(struct campaign *c)
{
	char path[4096];
	FILE *f;

	if (!c->o->out_dir)
		return 0;
	campaign_path(c, "summary.txt", path, sizeof(path));
	f = fopen(path, "w");
	if (!f) {
		snprintf(c->err, c->err_size, "cannot write %s", path);
		return -1;
	}
	print_summary(c, f);
	return fclose(f) == 0 ? 0 : -1;
}
/* Opens what the campaign writes: the output directory and the log. */
static int open_outputs(struct campaign *c)
{
	const struct fuzz_options *o = c->o;

	if (o->out_dir && mkdir(o->out_dir, 0777) < 0 && errno != EEXIST) {
		snprintf(c->err, c->err_size, "cannot create %s: %s",
			 o->out_dir, strerror(errno));
		return -1;
	}
	if (o->log_path && !(c->log = fopen(o->log_path, "w"))) {
		snprintf(c->err, c->err_size, "cannot write %s: %s",
			 o->log_path, strerror(errno));
		return -1;
	}
	return 0;
}

int fuzz_campaign_run(const struct fuzz_options *o, FILE *summary,
		      struct fuzz_counts *counts, char *err, size_t err_size)
{
	struct campaign c;
	struct sigaction sa, old_int, old_term, old_pipe;
	char end[2048];
	uint64_t seed;
	int ret = 0;

	memset(counts, 0, sizeof(*counts));
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.counts = counts;
	c.err = err;
	c.err_size = err_size;
	c.t0 = c.last_progress = pearl_now();
	if (open_outputs(&c) < 0 ||
	    fuzz_worker_init(&c.w, o->driver, &o->cfg, err, err_size) < 0) {
		if (c.log)
			fclose(c.log);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = SIG_IGN; /* a dead worker's pipe: EPIPE, not death */
	sigaction(SIGPIPE, &sa, &old_pipe);
	campaign_interrupted = 0;
	for (seed = o->seed; more_programs(&c) && ret == 0; ++seed)
		ret = fuzz_program(&c, seed);
	fuzz_worker_clear(&c.w, end, sizeof(end));
	if (end[0]) {
		/* e.g. a leak report at the worker's exit */
		fprintf(stderr, "pearl-fuzz: at the end, %s\n", end);
		counts->by_class[fuzz_error]++;
	}
	if (campaign_interrupted)
		fprintf(stderr, "pearl-fuzz: interrupted: stopped, the pair in "
			"progress was dropped\n");
	counts->seconds = pearl_now() - c.t0;
	progress(&c, 1);
	if (summary)
		print_summary(&c, summary);
	if (ret == 0 && save_summary(&c) < 0)
		ret = -1;
	if (c.log)
		fclose(c.log);
	failures_free(&c);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	return ret;
}
