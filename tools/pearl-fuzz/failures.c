/* The failures of a campaign (campaign.h): their kinds, their
 * minimization through the campaign's worker, and their reproducers.
 *
 * A failure's kind is its class and its message with the numbers blotted
 * out; the minimizer keeps a candidate when it fails with the same kind.
 * Failures of another kind met while minimizing are kept too, once per
 * kind and without a minimization of their own. Candidates cut short by
 * the minimization's time are not hangs: the minimization stops there. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign.h"
#include "pearl/gen.h"

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
	double left = m->deadline - pearl_now();

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

	switch (campaign_run_pair(m->c, m->seed, schedule, timeout, &out)) {
	case -1:
		m->fatal = 1;
		return NULL;
	case 1: /* interrupted: nothing is known about the candidate */
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
	    failures_keep(m->c, m->seed, schedule, &out) < 0)
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
	if (!t && pearl_now() < m->deadline && !campaign_interrupted)
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
	m.deadline = pearl_now() + c->o->minimize_seconds;
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

void campaign_path(const struct campaign *c, const char *name, char *buf,
		   size_t size)
{
	snprintf(buf, size, "%s/%s", c->o->out_dir, name);
}

/* Writes the program of f into the output directory (once). */
static int save_program(struct campaign *c, const struct failure *f)
{
	char name[256], path[4096];
	struct stat st;

	c->o->driver->program_file(f->seed, name, sizeof(name));
	campaign_path(c, name, path, sizeof(path));
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

	campaign_path(c, name, path, sizeof(path));
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
	if (f->confirm_runs)
		fprintf(out, "again: %s failed the same way in %d of %d more "
			"runs\n", f->minimized ? "the minimized schedule"
						: "the schedule",
			f->confirmed, f->confirm_runs);
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
	campaign_path(c, name, path, sizeof(path));
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

/* Runs f's final schedule (the minimized one if there is one) again
 * confirm_runs times and counts how often it fails the same way: a race in
 * parallel code fails now and then only. Not for hangs (each run would
 * take hang_seconds). -1 if fatal. */
static int confirm_failure(struct campaign *c, int idx)
{
	struct failure *f = &c->failures[idx];
	const char *schedule = f->minimized ? f->minimized : f->schedule;
	struct fuzz_outcome out;
	char *key, *final = strdup(schedule);
	int i, ret = 0;

	if (!final)
		return -1;
	for (i = 0; i < c->o->confirm_runs && f->cls != fuzz_hang && final[0];
	     ++i) {
		int r = campaign_run_pair(c, f->seed, final,
					  c->o->hang_seconds, &out);

		if (r < 0)
			ret = -1;
		if (r != 0)
			break;
		c->counts->minimize_tests++;
		f = &c->failures[idx];
		key = failure_key(out.cls, out.message);
		f->confirm_runs++;
		f->confirmed += out.cls == f->cls && key && !strcmp(key, f->key);
		free(key);
	}
	free(final);
	return ret;
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
	if (f->confirm_runs)
		fprintf(out, " [again %d/%d]", f->confirmed, f->confirm_runs);
	fprintf(out, ": %.300s\n", f->message);
}

int failures_keep(struct campaign *c, uint64_t seed, const char *schedule,
		  const struct fuzz_outcome *out)
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
	if (minimize_failure(c, idx) < 0 || confirm_failure(c, idx) < 0)
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

void failures_free(struct campaign *c)
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

void failures_print(const struct campaign *c, FILE *out)
{
	int i;

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
}
