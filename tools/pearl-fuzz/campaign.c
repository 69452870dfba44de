/* The campaign of pearl-fuzz (fuzz.h): programs seed, seed + 1, ...; for
 * each, its schedules from the worker; every pair run by the worker and
 * counted; every failure kept as a reproducer, minimized, and reported.
 *
 * A worker that dies during a request is a CRASH of that request's pair
 * (the one run, or what was being tried on the model while schedules were
 * drawn); one that stays silent for hang_seconds is killed, a HANG. A new
 * worker takes over with the next request. Minimization runs the candidate
 * schedules through the same worker; its pairs are counted apart. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "gen.h"

static const char *class_names[fuzz_n_classes] = {
	"OK", "ILLEGAL", "WRONG_OUTPUT", "NOT_GENERATED", "COMPILE_FAILED",
	"CRASH", "HANG", "ERROR"
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
	o->seed = 1;
	o->per_program = 12;
	o->hang_seconds = 120.0;
	o->slow_seconds = 10.0;
	o->minimize_tests = 200;
	o->minimize_seconds = 60.0;
	o->minimize_limit = 5;
	o->progress_seconds = 10.0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A failure kept as a reproducer. */
struct failure {
	int id;
	enum fuzz_class cls;
	uint64_t seed;
	char *schedule;     /* as tried ("" if it was not a schedule) */
	char *message;
	char *key;          /* the kind: class and message without numbers */
	char *minimized;    /* NULL: not minimized */
	char *min_message;
	int min_tests;
	int min_stopped;
	int distinct;       /* the first of its kind and minimized schedule */
	int found_while;    /* found while minimizing failure number ... */
};

struct campaign {
	const struct fuzz_options *o;
	struct fuzz_counts *counts;
	struct fuzz_worker w;
	double t0, last_progress;
	char trace[1024];   /* the last thing the worker said it tries */
	struct failure *failures;
	int n_failures;
	FILE *log;
	int minimizing;     /* the failure being minimized (0: none) */
	char *err;
	size_t err_size;
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* --- talking to the worker ------------------------------------------- */

/* The next answer that is not a trace line (traces go to c->trace),
 * waiting at most `timeout` seconds for each line: 1, or
 * fuzz_worker_read's 0 (died), -2 (silent too long), -1. */
static int read_answer(struct campaign *c, double timeout, char **line)
{
	int r;

	for (;;) {
		r = fuzz_worker_read(&c->w, timeout, line);
		if (r != 1)
			return r;
		if (strncmp(*line, "G ", 2) != 0)
			return 1;
		snprintf(c->trace, sizeof(c->trace), "%s", *line + 2);
	}
}

/* The worker is gone (r from read_answer, or 0 if a send failed): buries
 * it and makes the pair a CRASH or HANG (ERROR for a read error). */
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

/* A growable list of strings. */
struct strings {
	char **s;
	int n, cap;
};

static int strings_add(struct strings *l, const char *text)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		char **grown = realloc(l->s, (size_t)cap * sizeof(*grown));

		if (!grown)
			return -1;
		l->s = grown;
		l->cap = cap;
	}
	l->s[l->n] = strdup(text);
	if (!l->s[l->n])
		return -1;
	l->n++;
	return 0;
}

static void strings_clear(struct strings *l)
{
	int i;

	for (i = 0; i < l->n; ++i)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof(*l));
}

enum load_status {
	load_ok,
	load_unusable, /* out->message says why */
	load_failed,   /* the worker crashed, hung or erred: *out */
	load_fatal     /* no worker could be started (c->err) */
};

/* Has the worker load program `seed` and, if `list`, draw `count`
 * schedules into it. */
static enum load_status load_program(struct campaign *c, uint64_t seed,
				     int count, struct strings *list,
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
			return load_failed;
		}
		if (!strncmp(line, "S ", 2)) {
			if (list && strings_add(list, line + 2) < 0) {
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
static int run_pair(struct campaign *c, uint64_t seed, const char *schedule,
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
	}
	snprintf(c->trace, sizeof(c->trace), "%s", schedule);
	if (fuzz_worker_send(&c->w, "R %s", schedule) < 0) {
		lost_worker(c, 0, out);
		return 0;
	}
	r = read_answer(c, timeout, &line);
	if (r != 1) {
		lost_worker(c, r, out);
		return 0;
	}
	if (parse_outcome(line, out) < 0) {
		out->cls = fuzz_error;
		snprintf(out->message, sizeof(out->message), "the worker's "
			 "answer does not parse: %.400s", line);
	}
	inject_failure(c, schedule, out);
	return 0;
}

/* --- failures ---------------------------------------------------------- */

/* The kind of a failure: its class and its message without numbers (runs
 * of digits and hex hashes become '#'), without the worker's output, and
 * for hangs the class alone (how a hang shows depends on timing). */
static char *failure_key(enum fuzz_class cls, const char *message)
{
	const char *end = strstr(message, "; it printed:");
	size_t len = end ? (size_t)(end - message) : strlen(message);
	char *key = malloc(len + 32), *q;
	const char *p;

	if (!key)
		return NULL;
	q = key + sprintf(key, "%s", fuzz_class_name(cls));
	if (cls == fuzz_hang)
		return key;
	*q++ = ':';
	*q++ = ' ';
	for (p = message; p < message + len;) {
		size_t hex = strspn(p, "0123456789abcdefABCDEF");

		if (hex > (size_t)(message + len - p))
			hex = (size_t)(message + len - p);
		if (hex >= 16) {
			p += hex;
			*q++ = '#';
		} else if (isdigit((unsigned char)*p)) {
			while (p < message + len && isdigit((unsigned char)*p))
				++p;
			*q++ = '#';
		} else {
			*q++ = *p++;
		}
	}
	*q = '\0';
	return key;
}

static int keep_failure(struct campaign *c, uint64_t seed,
			const char *schedule, const struct fuzz_outcome *out);

/* Whether a failure of this kind was kept already. */
static int kind_known(struct campaign *c, const char *key)
{
	int i;

	for (i = 0; i < c->n_failures; ++i)
		if (c->failures[i].key && !strcmp(c->failures[i].key, key))
			return 1;
	return 0;
}

/* Already tested candidates of one minimization. */
struct tested {
	char *schedule;
	int fails;
	char *message;
};

struct min_ctx {
	struct campaign *c;
	uint64_t seed;
	enum fuzz_class cls;
	const char *key;
	double deadline;
	struct tested *tested;
	int n_tested;
	char *last_message; /* of the last failing candidate (borrowed) */
	int fatal;
};

/* Looks a candidate up among those tested: its entry or NULL. */
static struct tested *find_tested(struct min_ctx *m, const char *schedule)
{
	int i;

	for (i = 0; i < m->n_tested; ++i)
		if (!strcmp(m->tested[i].schedule, schedule))
			return &m->tested[i];
	return NULL;
}

/* How long a candidate may take: a hang must take as long as in the
 * campaign to count, anything else no longer than what is left of the
 * minimization's time (and at least 10 s). */
static double test_timeout(struct min_ctx *m)
{
	double left = m->deadline - now();

	if (m->cls == fuzz_hang || left > m->c->o->hang_seconds)
		return m->c->o->hang_seconds;
	return left > 10 ? left : 10;
}

/* Runs a candidate and records it; its entry, or NULL (fatal or out of
 * memory). */
static struct tested *test_candidate(struct min_ctx *m, char *schedule)
{
	struct fuzz_outcome out;
	struct tested *grown, *t;
	double timeout = test_timeout(m);
	char *key;

	if (run_pair(m->c, m->seed, schedule, timeout, &out) < 0) {
		m->fatal = 1;
		return NULL;
	}
	m->c->counts->minimize_tests++;
	/* silent past the minimization's time, not past hang_seconds: the
	 * time is up, nothing is known about the candidate */
	if (out.cls == fuzz_hang && timeout < m->c->o->hang_seconds)
		return NULL;
	grown = realloc(m->tested, (size_t)(m->n_tested + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	m->tested = grown;
	t = &m->tested[m->n_tested];
	key = failure_key(out.cls, out.message);
	t->fails = out.cls == m->cls && key && !strcmp(key, m->key);
	if (!t->fails && key && fuzz_class_kept(out.cls) &&
	    !kind_known(m->c, key) &&
	    keep_failure(m->c, m->seed, schedule, &out) < 0)
		m->fatal = 1;
	free(key);
	if (m->fatal)
		return NULL;
	t->schedule = strdup(schedule);
	t->message = strdup(out.message);
	if (!t->schedule || !t->message) {
		free(t->schedule);
		free(t->message);
		return NULL;
	}
	m->n_tested++;
	return t;
}

static int still_fails(const struct pearl_action *acts, int n, void *user)
{
	struct min_ctx *m = user;
	struct tested *t;
	char *schedule = fuzz_actions_str(acts, n);

	if (!schedule)
		return -1;
	t = find_tested(m, schedule);
	if (!t && now() < m->deadline && !interrupted)
		t = test_candidate(m, schedule);
	free(schedule);
	if (!t)
		return -1;
	if (t->fails)
		m->last_message = t->message;
	return t->fails;
}

/* How many failures of this kind were minimized already. */
static int minimized_of_kind(struct campaign *c, const char *key)
{
	int i, n = 0;

	for (i = 0; i < c->n_failures; ++i)
		if (c->failures[i].minimized && !strcmp(c->failures[i].key, key))
			n++;
	return n;
}

/* Parses a schedule for the minimizer; the number of actions (> 0), or
 * 0 if it does not parse or is empty. */
static int parse_schedule(const char *text, struct pearl_action **acts)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	int n;

	*acts = NULL;
	if (!ctx)
		return 0;
	n = pearl_actions_parse(ctx, text, acts);
	pearl_ctx_free(ctx);
	if (n <= 0) {
		free(*acts);
		*acts = NULL;
		return 0;
	}
	return n;
}

/* Minimizes failure number `idx` if its kind has not had its share (and
 * no other minimization runs); -1 if fatal. Failures found meanwhile are
 * appended to c->failures (which may move). */
static int minimize_failure(struct campaign *c, int idx)
{
	struct failure *f = &c->failures[idx];
	struct fuzz_min_result res;
	struct min_ctx m;
	struct pearl_action *acts;
	int n, i, ret = 0;

	if (c->minimizing || c->o->minimize_limit <= 0 ||
	    minimized_of_kind(c, f->key) >= c->o->minimize_limit)
		return 0;
	n = parse_schedule(f->schedule, &acts);
	if (n == 0)
		return 0;
	memset(&m, 0, sizeof(m));
	m.c = c;
	m.seed = f->seed;
	m.cls = f->cls;
	m.key = f->key;
	m.deadline = now() + c->o->minimize_seconds;
	m.last_message = f->message;
	c->minimizing = f->id;
	if (fuzz_minimize(acts, n, still_fails, &m, c->o->minimize_tests,
			  &res) == 0) {
		f = &c->failures[idx];
		f->minimized = fuzz_actions_str(res.acts, res.n);
		f->min_message = strdup(m.last_message);
		f->min_tests = res.tests;
		f->min_stopped = res.stopped;
		free(res.acts);
	}
	c->minimizing = 0;
	if (m.fatal)
		ret = -1;
	for (i = 0; i < m.n_tested; ++i) {
		free(m.tested[i].schedule);
		free(m.tested[i].message);
	}
	free(m.tested);
	free(acts);
	return ret;
}

/* Joins dir and name into buf. */
static void in_dir(const char *dir, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* Writes the program of f into the output directory (once). */
static int save_program(struct campaign *c, const struct failure *f)
{
	char name[256], path[4096];
	struct stat st;

	c->o->driver->program_file(f->seed, name, sizeof(name));
	in_dir(c->o->out_dir, name, path, sizeof(path));
	if (stat(path, &st) == 0)
		return 0;
	return c->o->driver->save_program(&c->o->cfg, f->seed, path, c->err,
					  c->err_size);
}

/* Writes `text` and a newline to dir/name; 0 or -1 (c->err). */
static int write_text(struct campaign *c, const char *name, const char *text)
{
	char path[4096];
	FILE *f;
	int ok;

	in_dir(c->o->out_dir, name, path, sizeof(path));
	f = fopen(path, "w");
	ok = f && fprintf(f, "%s\n", text) >= 0;
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok)
		snprintf(c->err, c->err_size, "cannot write %s: %s", path,
			 strerror(errno));
	return ok ? 0 : -1;
}

/* The reproducer's description: what failed, how to run it again. */
static void describe_failure(struct campaign *c, const struct failure *f,
			     FILE *out)
{
	const struct fuzz_driver *d = c->o->driver;
	char file[256], cmd[2048];

	d->program_file(f->seed, file, sizeof(file));
	fprintf(out, "failure %d: %s\n", f->id, fuzz_class_name(f->cls));
	fprintf(out, "path: %s\n", d->name);
	fprintf(out, "program: %s (seed %" PRIu64 ", size scale %s)\n", file,
		f->seed, pearl_gen_scale_name(
			     (enum pearl_gen_scale)c->o->cfg.size_scale));
	fprintf(out, "schedule: %s\n", f->schedule);
	fprintf(out, "message: %s\n", f->message);
	if (f->found_while)
		fprintf(out, "found while minimizing failure %d\n",
			f->found_while);
	if (f->schedule[0]) {
		d->command(&c->o->cfg, f->seed, f->schedule, cmd, sizeof(cmd));
		fprintf(out, "reproduce: %s\n", cmd);
	}
	if (!f->minimized) {
		fprintf(out, "minimized: (not minimized)\n");
		return;
	}
	fprintf(out, "minimized: %s\n", f->minimized);
	fprintf(out, "minimized message: %s\n", f->min_message);
	d->command(&c->o->cfg, f->seed, f->minimized, cmd, sizeof(cmd));
	fprintf(out, "minimized reproduce: %s\n", cmd);
	fprintf(out, "minimizer: %d tests%s\n", f->min_tests,
		f->min_stopped ? " (stopped by its budget)" : "");
}

/* Writes failure-NNNN.txt, .sched and .min.sched beside the program. */
static int write_reproducer(struct campaign *c, const struct failure *f)
{
	char name[64], path[4096];
	FILE *out;

	if (!c->o->out_dir)
		return 0;
	if (save_program(c, f) < 0)
		return -1;
	snprintf(name, sizeof(name), "failure-%04d.sched", f->id);
	if (write_text(c, name, f->schedule) < 0)
		return -1;
	snprintf(name, sizeof(name), "failure-%04d.min.sched", f->id);
	if (f->minimized && write_text(c, name, f->minimized) < 0)
		return -1;
	snprintf(name, sizeof(name), "failure-%04d.txt", f->id);
	in_dir(c->o->out_dir, name, path, sizeof(path));
	out = fopen(path, "w");
	if (!out) {
		snprintf(c->err, c->err_size, "cannot write %s: %s", path,
			 strerror(errno));
		return -1;
	}
	describe_failure(c, f, out);
	if (fclose(out) != 0) {
		snprintf(c->err, c->err_size, "cannot write %s", path);
		return -1;
	}
	return 0;
}

/* Whether f is the first failure of its kind and minimized schedule. */
static int is_distinct(struct campaign *c, const struct failure *f)
{
	const char *mine = f->minimized ? f->minimized : f->schedule;
	int i;

	for (i = 0; i < c->n_failures; ++i) {
		const struct failure *g = &c->failures[i];
		const char *theirs = g->minimized ? g->minimized : g->schedule;

		if (g != f && g->key && f->key && !strcmp(g->key, f->key) &&
		    !strcmp(theirs, mine))
			return 0;
	}
	return 1;
}

/* One line about f (on stderr as found, in the summary at the end). */
static void failure_line(const struct failure *f, FILE *out)
{
	fprintf(out, "failure %d: %s gen-%" PRIu64 " \"%s\"", f->id,
		fuzz_class_name(f->cls), f->seed, f->schedule);
	if (f->minimized)
		fprintf(out, " minimized \"%s\"", f->minimized);
	if (f->found_while)
		fprintf(out, " (found while minimizing failure %d)",
			f->found_while);
	fprintf(out, ": %.300s\n", f->message);
}

/* Keeps a failing pair: minimized, written out, told. -1 if fatal. */
static int keep_failure(struct campaign *c, uint64_t seed,
			const char *schedule, const struct fuzz_outcome *out)
{
	struct failure *grown, *f;
	int idx = c->n_failures;

	grown = realloc(c->failures, (size_t)(idx + 1) * sizeof(*grown));
	if (!grown) {
		snprintf(c->err, c->err_size, "out of memory");
		return -1;
	}
	c->failures = grown;
	f = &c->failures[idx];
	memset(f, 0, sizeof(*f));
	f->id = idx + 1;
	f->cls = out->cls;
	f->seed = seed;
	f->found_while = c->minimizing;
	f->schedule = strdup(schedule);
	f->message = strdup(out->message);
	f->key = failure_key(out->cls, out->message);
	c->n_failures++;
	if (!f->schedule || !f->message || !f->key) {
		snprintf(c->err, c->err_size, "out of memory");
		return -1;
	}
	c->counts->failures++;
	if (fuzz_class_fails(f->cls))
		c->counts->failing++;
	if (minimize_failure(c, idx) < 0)
		return -1;
	f = &c->failures[idx];
	f->distinct = is_distinct(c, f);
	c->counts->distinct += f->distinct;
	if (c->o->progress_seconds > 0) {
		fprintf(stderr, "pearl-fuzz: ");
		failure_line(f, stderr);
	}
	return write_reproducer(c, f);
}

/* --- counting ------------------------------------------------------------ */

static void progress(struct campaign *c, int force)
{
	const struct fuzz_counts *k = c->counts;
	double t = now(), elapsed = t - c->t0;

	if (c->o->progress_seconds <= 0 ||
	    (!force && t - c->last_progress < c->o->progress_seconds))
		return;
	c->last_progress = t;
	fprintf(stderr, "pearl-fuzz: %.0f s: programs %ld pairs %ld legal %ld "
		"illegal %ld failures %ld (wrong %ld crash %ld hang %ld "
		"not_generated %ld compile %ld) %.2f pairs/s\n", elapsed,
		k->programs, k->pairs, k->legal, k->by_class[fuzz_illegal],
		k->failures, k->by_class[fuzz_wrong_output],
		k->by_class[fuzz_crash], k->by_class[fuzz_hang],
		k->by_class[fuzz_not_generated],
		k->by_class[fuzz_compile_failed],
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
	if (fuzz_class_kept(out->cls) && keep_failure(c, seed, schedule, out) < 0)
		return -1;
	progress(c, 0);
	return 0;
}

static int should_stop(struct campaign *c)
{
	const struct fuzz_options *o = c->o;

	return interrupted || (o->pairs > 0 && c->counts->legal >= o->pairs) ||
	       (o->seconds > 0 && now() - c->t0 >= o->seconds);
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
	struct strings list = { NULL, 0, 0 };
	struct fuzz_outcome out;
	enum load_status st;
	int i, ret = 0;

	c->counts->programs++;
	st = load_program(c, seed, c->o->schedule ? 0 : c->o->per_program,
			  &list, &out);
	if (st == load_ok && c->o->schedule &&
	    strings_add(&list, c->o->schedule) < 0) {
		snprintf(c->err, c->err_size, "out of memory");
		st = load_fatal;
	}
	if (st == load_fatal) {
		ret = -1;
	} else if (st == load_unusable) {
		c->counts->unusable++;
	} else if (st == load_failed) {
		const char *sched = traced_schedule(c, out.message,
						    sizeof(out.message));
		char *copy = strdup(sched);

		ret = copy ? account(c, seed, copy, 0, &out) : -1;
		free(copy);
	}
	for (i = 0; st == load_ok && i < list.n && !should_stop(c) && !ret;
	     ++i) {
		double t0 = now();

		ret = run_pair(c, seed, list.s[i], c->o->hang_seconds, &out);
		if (!ret)
			ret = account(c, seed, list.s[i], now() - t0, &out);
	}
	strings_clear(&list);
	return ret;
}

/* The summary: the counts, then every failure and the distinct ones. */
static void print_summary(struct campaign *c, FILE *out)
{
	const struct fuzz_options *o = c->o;
	const struct fuzz_counts *k = c->counts;
	int i;

	fprintf(out, "pearl-fuzz: path %s seed %" PRIu64 " size-scale %s "
		"schedules-per-program %d\n", o->driver->name, o->seed,
		pearl_gen_scale_name((enum pearl_gen_scale)o->cfg.size_scale),
		o->per_program);
	for (i = 0; i < c->n_failures; ++i)
		failure_line(&c->failures[i], out);
	for (i = 0; i < c->n_failures; ++i) {
		const struct failure *f = &c->failures[i];

		if (!f->distinct)
			continue;
		fprintf(out, "distinct: %s \"%s\" (failure %d%s)\n", f->key,
			f->minimized ? f->minimized : f->schedule, f->id,
			f->minimized ? "" : ", not minimized");
	}
	if (k->slow)
		fprintf(out, "slowest: gen-%" PRIu64 " \"%s\" took %.1f s\n",
			k->slowest_seed, k->slowest, k->slowest_seconds);
	fprintf(out, "pearl-fuzz summary: programs %ld unusable %ld pairs %ld "
		"legal %ld executed %ld same_code %ld illegal %ld "
		"wrong_output %ld not_generated %ld compile_failed %ld "
		"crashes %ld hangs %ld errors %ld failures %ld distinct %ld "
		"slow %ld worker_starts %ld minimize_tests %ld seconds %.1f "
		"rate %.2f pairs/s\n", k->programs, k->unusable, k->pairs,
		k->legal, k->executed, k->same_code, k->by_class[fuzz_illegal],
		k->by_class[fuzz_wrong_output],
		k->by_class[fuzz_not_generated],
		k->by_class[fuzz_compile_failed], k->by_class[fuzz_crash],
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
	in_dir(c->o->out_dir, "summary.txt", path, sizeof(path));
	f = fopen(path, "w");
	if (!f) {
		snprintf(c->err, c->err_size, "cannot write %s", path);
		return -1;
	}
	print_summary(c, f);
	return fclose(f) == 0 ? 0 : -1;
}

static void free_failures(struct campaign *c)
{
	int i;

	for (i = 0; i < c->n_failures; ++i) {
		struct failure *f = &c->failures[i];

		free(f->schedule);
		free(f->message);
		free(f->key);
		free(f->minimized);
		free(f->min_message);
	}
	free(c->failures);
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
	c.t0 = c.last_progress = now();
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
	interrupted = 0;
	for (seed = o->seed; more_programs(&c) && ret == 0; ++seed)
		ret = fuzz_program(&c, seed);
	fuzz_worker_clear(&c.w, end, sizeof(end));
	if (end[0]) {
		/* e.g. a leak report at the worker's exit */
		fprintf(stderr, "pearl-fuzz: at the end, %s\n", end);
		counts->by_class[fuzz_error]++;
	}
	counts->seconds = now() - c.t0;
	progress(&c, 1);
	if (summary)
		print_summary(&c, summary);
	if (ret == 0 && save_summary(&c) < 0)
		ret = -1;
	if (c.log)
		fclose(c.log);
	free_failures(&c);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	return ret;
}
