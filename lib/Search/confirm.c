/* The confirmation of a search's finalists (search_internal.h): its
 * fastest schedules and the unscheduled program measured again, in turn,
 * in one sitting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

int search_finalists_init(struct search_finalists *f, int cap)
{
	memset(f, 0, sizeof(*f));
	if (cap <= 0)
		return 0;
	f->schedule = calloc(cap, sizeof(*f->schedule));
	f->speedup = calloc(cap, sizeof(*f->speedup));
	f->origin = calloc(cap, sizeof(*f->origin));
	f->cap = cap;
	f->by_family = 1;
	if (f->schedule && f->speedup && f->origin)
		return 0;
	search_finalists_clear(f);
	return -1;
}

void search_finalists_clear(struct search_finalists *f)
{
	pearl_str_array_free(f->schedule, f->n);
	free(f->speedup);
	free(f->origin);
	memset(f, 0, sizeof(*f));
}

int search_finalists_find(const struct search_finalists *f,
			  const char *schedule)
{
	return pearl_str_index((const char *const *)f->schedule, f->n,
			       schedule);
}

/* The finalists of one family: its two fastest. The JIT and clang rank
 * the unroll factors of one loop structure least alike (k-i-j matmul's
 * `T(0,1,32,32) J(2,4) P(1) V(16)`: 4.4 ms with the U(4) the JIT
 * preferred, 3.9 ms without it). */
#define FINALISTS_PER_FAMILY 2

/* Whether the action token `t` (the text from its first character on)
 * belongs to the unroll phase: U(...) or V(...). */
static int is_unroll_token(const char *t)
{
	return (t[0] == 'U' || t[0] == 'V') && t[1] == '(';
}

/* The next token of `s` that is not of the unroll phase, from *s on:
 * its start, with its length in *len (0 at the end). */
static const char *next_structural(const char *s, size_t *len)
{
	for (;;) {
		while (*s == ' ')
			s++;
		*len = strcspn(s, " ");
		if (!*len || !is_unroll_token(s))
			return s;
		s += *len;
	}
}

/* Whether schedules a and b (kept) are of one family: the same actions,
 * but for those of the unroll phase (U, V). */
static int same_family(const char *a, const char *b)
{
	size_t la, lb;

	for (;;) {
		a = next_structural(a, &la);
		b = next_structural(b, &lb);
		if (!la || !lb)
			return la == lb;
		if (la != lb || strncmp(a, b, la))
			return 0;
		a += la;
		b += lb;
	}
}

/* The position of the slowest finalist of the family of `schedule` if the
 * family has FINALISTS_PER_FAMILY of them already, or -1. */
static int full_family(const struct search_finalists *f,
		       const char *schedule)
{
	int i, n = 0, last = -1;

	for (i = 0; i < f->n; ++i)
		if (same_family(f->schedule[i], schedule)) {
			n++;
			last = i; /* sorted fastest first */
		}
	return n >= FINALISTS_PER_FAMILY ? last : -1;
}

/* Removes finalist `at`. */
static void remove_finalist(struct search_finalists *f, int at)
{
	free(f->schedule[at]);
	for (f->n--; at < f->n; ++at) {
		f->schedule[at] = f->schedule[at + 1];
		f->speedup[at] = f->speedup[at + 1];
		f->origin[at] = f->origin[at + 1];
	}
}

int search_finalists_note(struct search_finalists *f, const char *schedule,
			  double speedup, const char *origin)
{
	int at, i;
	char *copy;

	if (f->cap == 0 || !*schedule || speedup <= 0 ||
	    search_finalists_find(f, schedule) >= 0)
		return 0;
	at = f->by_family ? full_family(f, schedule) : -1;
	if (at >= 0 && speedup <= f->speedup[at])
		return 0;
	if (at >= 0)
		remove_finalist(f, at);
	if (f->n == f->cap && speedup <= f->speedup[f->n - 1])
		return 0;
	copy = strdup(schedule);
	if (!copy)
		return -1;
	if (f->n == f->cap)
		free(f->schedule[--f->n]);
	for (at = f->n; at > 0 && f->speedup[at - 1] < speedup; --at)
		;
	for (i = f->n; i > at; --i) {
		f->schedule[i] = f->schedule[i - 1];
		f->speedup[i] = f->speedup[i - 1];
		f->origin[i] = f->origin[i - 1];
	}
	f->schedule[at] = copy;
	f->speedup[at] = speedup;
	f->origin[at] = origin;
	f->n++;
	return 0;
}

/* Finalists whose median is within this factor of the leader's are
 * measured again (tie_rounds). One compiled schedule measures up to 10%
 * apart from one process to the next (matmul's tiled and jammed form:
 * 3.9 to 4.3 ms, its arrays placed otherwise in memory), so two
 * measurements each do not rank finalists 5% apart. */
#define CONFIRM_TIE_MARGIN 1.05

/* One confirmation's measurements. Entry 0 is the base, entry 1 + i
 * finalist i. Each measurement is the fastest of its timed runs, in one
 * process; an entry counts by the median of its measurements, seconds[e]
 * (0 until one ran OK), not by the fastest of them. The fastest favours
 * the schedules whose time varies most: matmul k-j-i's `I(1,2) J(0,4)
 * P(1) U(4) V(8)`, 128 parallel loops a call, measured 147x to 164x in
 * five processes, its tiled `I(1,2) T(0,1,32,32) J(2,4) P(1) V(16)`, 16
 * a call, 148x to 158x (median 157x against 150x); the fastest of the
 * five ranked the untiled first, and pearl-bench then measured it 14%
 * slower. */
struct confirmation {
	pearl_env *env;
	pearl_env_program *p;
	const struct search_finalists *f;
	double *seconds;
	double *samples;  /* entry e's measurements, sorted, from
			   * samples[e * max_samples] on */
	int *n_samples;
	int max_samples;
	search_confirm_fn heard;
	void *user;
};

double search_confirm_median(const double *sorted, int n)
{
	if (n <= 0)
		return 0;
	return n % 2 ? sorted[n / 2]
		     : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* Adds measurement t of entry e, keeping its measurements sorted, and
 * updates its median. */
static void add_sample(struct confirmation *c, int e, double t)
{
	double *v = c->samples + (size_t)e * c->max_samples;
	int k = c->n_samples[e];

	if (k == c->max_samples)
		return;
	for (; k > 0 && v[k - 1] > t; --k)
		v[k] = v[k - 1];
	v[k] = t;
	c->n_samples[e]++;
	c->seconds[e] = search_confirm_median(v, c->n_samples[e]);
}

/* Measures entry i (0: the base, 1 + j: finalist j) once more. 0, or -1
 * with a message in err (also if the base did not run OK). */
static int measure(struct confirmation *c, int i, char *err, size_t err_size)
{
	const char *schedule = i ? c->f->schedule[i - 1] : "";
	struct pearl_env_result res;

	if (pearl_env_time_again(c->env, c->p, schedule, &res, err,
				 err_size) < 0)
		return -1;
	if (i == 0 && res.status != PEARL_ENV_OK) {
		/* the program the search started from: the compiler of the
		 * confirmation is broken */
		snprintf(err, err_size,
			 "confirmation: the unscheduled program did not run: "
			 "%s",
			 res.message);
		return -1;
	}
	if (c->heard)
		c->heard(c->user, schedule,
			 res.status == PEARL_ENV_OK ? res.speedup : 0);
	if (res.status == PEARL_ENV_OK)
		add_sample(c, i, res.seconds);
	return 0;
}

int search_confirm_leader(const double *seconds, int n)
{
	int i, win = 0;

	for (i = 1; i <= n; ++i)
		if (seconds[i] && (!seconds[win] || seconds[i] < seconds[win]))
			win = i;
	return win;
}

int search_confirm_contenders(const double *seconds, int n, int *which)
{
	int i, m = 0, win = search_confirm_leader(seconds, n);

	if (!win)
		return 0;
	for (i = 1; i <= n; ++i)
		if (i == win || (seconds[i] &&
				 seconds[i] <= CONFIRM_TIE_MARGIN *
						       seconds[win]))
			which[m++] = i;
	return m > 1 ? m : 0;
}

/* One round of the tie-break (search_confirm_contenders), `which` room
 * for f->n entries. Returns how many were measured again, 0 if none was
 * close (nothing measured), or -1 with a message in err. */
static int break_tie(struct confirmation *c, int *which, char *err,
		     size_t err_size)
{
	int i, n = search_confirm_contenders(c->seconds, c->f->n, which);

	for (i = 0; i < n; ++i)
		if (measure(c, which[i], err, err_size) < 0)
			return -1;
	return n;
}

/* Measures every entry `rounds` times in turn, then up to `tie_rounds`
 * tie-break rounds. 0, or -1 with a message in err. */
static int measure_all(struct confirmation *c, int rounds, int tie_rounds,
		       char *err, size_t err_size)
{
	int r, i, n = 0;
	int *which;

	for (r = 0; r < rounds; ++r)
		for (i = 0; i <= c->f->n; ++i)
			if (measure(c, i, err, err_size) < 0)
				return -1;
	which = malloc((c->f->n + 1) * sizeof(*which));
	if (!which) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	for (r = 0; r < tie_rounds; ++r) {
		n = break_tie(c, which, err, err_size);
		if (n <= 0)
			break;
	}
	free(which);
	return n < 0 ? -1 : 0;
}

int search_confirm(pearl_env *env, pearl_env_program *p,
		   const struct search_finalists *f, int rounds,
		   int tie_rounds, search_confirm_fn heard, void *user,
		   char **best, double *speedup, const char **origin,
		   char *err, size_t err_size)
{
	struct confirmation c = { .env = env, .p = p, .f = f,
				  .heard = heard, .user = user };
	int win, rc;

	*best = NULL;
	c.max_samples = rounds + tie_rounds;
	c.seconds = calloc(f->n + 1, sizeof(double));
	c.samples = calloc((size_t)(f->n + 1) * c.max_samples, sizeof(double));
	c.n_samples = calloc(f->n + 1, sizeof(int));
	if (!c.seconds || !c.samples || !c.n_samples) {
		snprintf(err, err_size, "search: out of memory");
		rc = -1;
	} else {
		rc = measure_all(&c, rounds, tie_rounds, err, err_size);
	}
	free(c.samples);
	free(c.n_samples);
	if (rc < 0) {
		free(c.seconds);
		return -1;
	}
	win = search_confirm_leader(c.seconds, f->n);
	*best = strdup(win ? f->schedule[win - 1] : "");
	if (!win)
		*speedup = 1.0;
	else if (c.seconds[0])
		*speedup = c.seconds[0] / c.seconds[win];
	else /* the base did not run again: the first measurement's */
		*speedup = f->speedup[win - 1];
	*origin = win ? f->origin[win - 1] : "base";
	free(c.seconds);
	if (!*best) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	return 0;
}
