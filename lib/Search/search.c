/* The measured beam search (pearl/search.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pearl/agent.h"
#include "pearl/clock.h"
#include "search_internal.h"

/* The defaults of pearl/search.h; the fields not named are 0 or NULL. */
static const struct pearl_search_options search_defaults = {
	/* the beam and its proposals */
	.beam_width = 8, .beam_diversity = 4, .top_k = 6,
	.extended_actions = 1, .completions = 4, .reorderings = 2,
	.seed_policy = 1,
	.min_parallel_work = PEARL_AGENT_MIN_PARALLEL_WORK,
	.sampling = pearl_search_adaptive,
	/* when it stops */
	.max_depth = 10, .max_measurements = 200,
	.min_gain = 1.02, .patience = 2,
	/* the confirmation */
	.confirm = 3, .confirm_rounds = 3, .confirm_tie_rounds = 3,
};

void pearl_search_options_init(struct pearl_search_options *o)
{
	*o = search_defaults;
}

void pearl_search_result_clear(struct pearl_search_result *r)
{
	if (!r)
		return;
	free(r->best_schedule);
	r->best_schedule = NULL;
}

/* One search: the options, the environment, the counters and the best
 * schedule so far. */
struct search {
	const struct pearl_search_options *o;
	pearl_env *env;
	pearl_env_program *p;
	const pearl_policy *policy;
	struct pearl_search_progress progress;
	struct search_counts counts;
	long clustered_levels;
	char *best;       /* owned */
	const char *best_origin; /* static */
	/* The best speedup of the levels' states: the gain of a level is
	 * judged against it, not against the starting points (a policy's
	 * decision of 5x would stop the search after level 1, whose
	 * single actions rarely beat it). */
	double levels_best;
	double start;
	const char *stop; /* why the search stopped, NULL while it runs */
	int last_branch;  /* the last branch searched (INT_MAX: all) */
	struct search_finalists finalists; /* for the confirmation */
	/* The starting points that ran (the policy's decision, the seeds):
	 * confirmed beside the finalists, so that the winner is never one
	 * the user's compilation makes slower than them; a level's child
	 * equal to one is not measured again. */
	struct search_finalists starts;
};

/* Whether the budget of `s` is spent; sets s->stop if so. */
static int out_of_budget(struct search *s)
{
	if (s->progress.measured >= s->o->max_measurements)
		s->stop = "budget";
	else if (s->o->max_seconds > 0 &&
		 pearl_now() - s->start >= s->o->max_seconds)
		s->stop = "time";
	return s->stop != NULL;
}

/* Refreshes the progress record of `s` and calls the callback, which may
 * stop the search. */
static void report(struct search *s, const char *schedule, double speedup)
{
	struct pearl_search_progress *pr = &s->progress;

	pr->illegal = s->counts.illegal;
	pr->best_schedule = s->best;
	pr->elapsed = pearl_now() - s->start;
	pr->seconds_left = s->o->max_seconds > 0
			       ? s->o->max_seconds - pr->elapsed
			       : -1;
	pr->last_schedule = schedule;
	pr->last_speedup = speedup;
	if (s->o->progress && s->o->progress(s->o->progress_user, pr))
		s->stop = "stopped";
}

/* Measures `schedule` (kept), found by `origin` (static), in the
 * environment: *speedup receives its speedup, or 0 when it is not OK
 * (illegal, timed out, failed, wrong outputs). -1 on errors of the
 * environment, with a message in err. */
static int measure_schedule(struct search *s, const char *schedule,
			    const char *origin, double *speedup, char *err,
			    size_t err_size)
{
	struct pearl_env_result res;

	if (pearl_env_time(s->env, s->p, schedule, &res, err, err_size) < 0)
		return -1;
	s->progress.measured++;
	s->progress.memo_hits += res.memo_hit;
	*speedup = res.status == PEARL_ENV_OK ? res.speedup : 0;
	if (res.status == PEARL_ENV_ILLEGAL)
		s->counts.illegal++;
	else if (res.status != PEARL_ENV_OK)
		s->progress.failed++;
	if (res.status == PEARL_ENV_WRONG_OUTPUT)
		s->progress.wrong_outputs++;
	if (search_finalists_note(&s->finalists, schedule, *speedup,
				  origin) < 0 ||
	    (s->progress.level == 0 &&
	     search_finalists_note(&s->starts, schedule, *speedup, origin) <
		 0)) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	if (*speedup > s->progress.best_speedup) {
		char *best = strdup(schedule);

		if (!best) {
			snprintf(err, err_size, "search: out of memory");
			return -1;
		}
		free(s->best);
		s->best = best;
		s->best_origin = origin;
		s->progress.best_speedup = *speedup;
	}
	report(s, schedule, *speedup);
	return 0;
}

/* Measures `child`, a state of a level, unless level 0 measured the same
 * schedule (the policy's decision or a seed) and it ran OK: it then takes
 * that speedup, and no measurement is counted. (s->starts keeps only the
 * schedules that ran, so a start that failed is measured again, a memo
 * hit.) */
static int measure(struct search *s, struct search_state *child, char *err,
		   size_t err_size)
{
	int start = search_finalists_find(&s->starts, child->schedule);

	child->measured = 1;
	if (start >= 0)
		child->speedup = s->starts.speedup[start];
	else if (measure_schedule(s, child->schedule, "search",
				  &child->speedup, err, err_size) < 0)
		return -1;
	if (child->speedup > s->levels_best)
		s->levels_best = child->speedup;
	return 0;
}

/* Orders children by prior, then by their order of creation. */
static int by_prior(const void *a, const void *b)
{
	const struct search_state *x = a, *y = b;

	if (x->prior != y->prior)
		return x->prior < y->prior ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Measures the children in prior order while the budget lasts. */
static int measure_all(struct search *s, struct search_states *children,
		       char *err, size_t err_size)
{
	int i;

	for (i = 0; i < children->n && !out_of_budget(s) && !s->stop; ++i)
		if (measure(s, &children->s[i], err, err_size) < 0)
			return -1;
	return 0;
}

/* Measures the representative of every one of the k clusters of
 * `children` (sorted by prior): its member of best prior. best[c]
 * receives cluster c's speedup. */
static int measure_representatives(struct search *s,
				   struct search_states *children, int k,
				   double *best, char *err, size_t err_size)
{
	char *done = calloc(k, 1);
	int i, rc = 0;

	if (!done) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	for (i = 0; i < children->n && !s->stop && !out_of_budget(s); ++i) {
		struct search_state *c = &children->s[i];

		if (done[c->cluster])
			continue;
		done[c->cluster] = 1;
		rc = measure(s, c, err, err_size);
		if (rc < 0)
			break;
		best[c->cluster] = c->speedup;
	}
	free(done);
	return rc;
}

/* The unmeasured child of best prior in the cluster of highest best[]
 * that has one, or NULL. */
static struct search_state *focus_candidate(struct search_states *children,
					    const double *best)
{
	struct search_state *pick = NULL;
	int i;

	for (i = 0; i < children->n; ++i) {
		struct search_state *c = &children->s[i];

		if (c->measured || best[c->cluster] <= 0)
			continue;
		if (!pick || best[c->cluster] > best[pick->cluster])
			pick = c;
	}
	return pick;
}

/* Adaptive sampling of `children`, sorted by prior: clusters by their
 * embedding, the representative of every cluster, then beam_width more
 * children, each the best-prior unmeasured member of the cluster with
 * the fastest measured member so far. */
static int measure_adaptive(struct search *s, struct search_states *children,
			    char *err, size_t err_size)
{
	long left = s->o->max_measurements - s->progress.measured;
	int k, extra;
	double *best;

	k = search_cluster_children(s->policy, children,
				    left < children->n ? (int)left
						       : children->n,
				    err, err_size);
	if (k < 0)
		return -1;
	best = calloc(k, sizeof(double));
	if (!best) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	s->clustered_levels++;
	if (measure_representatives(s, children, k, best, err, err_size) < 0)
		goto error;
	for (extra = 0; extra < s->o->beam_width && !s->stop &&
			!out_of_budget(s);
	     ++extra) {
		struct search_state *c = focus_candidate(children, best);

		if (!c)
			break;
		if (measure(s, c, err, err_size) < 0)
			goto error;
		if (c->speedup > best[c->cluster])
			best[c->cluster] = c->speedup;
	}
	free(best);
	return 0;
error:
	free(best);
	return -1;
}

/* The fastest measured completable child of `children` whose
 * completion was not looked at yet (looked[i] 0), or -1. */
static int next_to_complete(const struct search_states *children,
			    const char *looked)
{
	int i, pick = -1;

	for (i = 0; i < children->n; ++i) {
		const struct search_state *c = &children->s[i];

		if (looked[i] || !search_completable(c))
			continue;
		if (pick < 0 || c->speedup > children->s[pick].speedup)
			pick = i;
	}
	return pick;
}

/* Measures the completion (search_completion) of `state` (kept), if it
 * has one, into *speedup. 1 if measured, 0 if `state` has none, -1 on
 * errors. */
static int measure_completion(struct search *s,
			      const struct search_state *state,
			      double *speedup, char *err, size_t err_size)
{
	char *schedule;
	int r;

	r = search_completion(state, &schedule, &s->counts, err, err_size);
	if (r <= 0)
		return r;
	r = measure_schedule(s, schedule, "search", speedup, err, err_size);
	free(schedule);
	return r < 0 ? -1 : 1;
}

/* Measures the completions (search_completion) of the o->completions
 * fastest completable children of the level, while the budget
 * lasts, and notes their speedups in `completed`. A completion is a
 * schedule like any other (it may become the best and a finalist), but
 * does not count as the level's gain: the levels that reach it by
 * themselves still may. */
static int measure_completions(struct search *s,
			       struct search_states *children, char *err,
			       size_t err_size)
{
	char *looked = calloc(children->n ? children->n : 1, 1);
	int done, i, r = 0;

	if (!looked) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	for (done = 0; done < s->o->completions && !s->stop &&
		       !out_of_budget(s);
	     ++done) {
		i = next_to_complete(children, looked);
		if (i < 0)
			break;
		looked[i] = 1;
		r = measure_completion(s, &children->s[i],
				       &children->s[i].completed, err,
				       err_size);
		if (r < 0)
			break;
	}
	free(looked);
	return r < 0 ? -1 : 0;
}

/* Reorderings measured per distributed child (measure_reorderings), in
 * the order of their proposals. */
#define REORDERINGS_PER_STATE 6

/* The child of `children` whose last action is a distribution, not
 * looked at yet (looked[i] 0), that ran fastest (an unmeasured one
 * counts 0; ties go to the first: children are in prior order), or -1. */
static int next_distributed(const struct search_states *children,
			    const char *looked)
{
	int i, pick = -1;

	for (i = 0; i < children->n; ++i) {
		const struct search_state *c = &children->s[i];

		if (looked[i] || c->last_kind != pearl_action_distribute ||
		    (c->measured && c->speedup <= 0))
			continue;
		if (pick < 0 || c->speedup > children->s[pick].speedup)
			pick = i;
	}
	return pick;
}

/* The reorderings of the distributed children: for the o->reorderings
 * fastest children of the level whose last action is a D(l),
 * measured first if adaptive sampling left them out, the first
 * REORDERINGS_PER_STATE reorderings of the branch after theirs
 * (search_expand_reorderings) are measured, and the child notes the
 * fastest in `completed`. A distribution is seldom faster by itself: it
 * pays when the part it splits off becomes a perfect nest that can be
 * interchanged or jammed (2mm's `D(1) N I(1,2)` or `D(1) N J(1,4)`: the
 * reduction innermost no longer, or a register tile), one level later,
 * after the beam dropped it for faster states that lead nowhere. The
 * fastest reordering of each is completed too (search_completion): 2mm's
 * `D(1) N I(1,2) P(0)`. Like a completion, a reordering may become the
 * best and a finalist, but is not the level's gain. */
static int measure_reorderings(struct search *s,
			       struct search_states *children, char *err,
			       size_t err_size)
{
	char *looked = calloc(children->n ? children->n : 1, 1);
	int done, i, j, fastest, r = 0;

	if (!looked) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	for (done = 0; r == 0 && done < s->o->reorderings &&
		       !s->stop && !out_of_budget(s);
	     ++done) {
		struct search_states after = {0};
		struct search_state *c;

		i = next_distributed(children, looked);
		if (i < 0)
			break;
		looked[i] = 1;
		c = &children->s[i];
		if (!c->measured && measure(s, c, err, err_size) < 0) {
			r = -1;
			break;
		}
		if (c->speedup <= 0 || c->branch + 1 > s->last_branch)
			continue;
		r = search_expand_reorderings(c, c->branch + 1, s->policy,
					      s->o, &after, &s->counts, err,
					      err_size);
		fastest = -1;
		for (j = 0; r == 0 && j < after.n && j < REORDERINGS_PER_STATE &&
			    !s->stop && !out_of_budget(s);
		     ++j) {
			struct search_state *a = &after.s[j];

			r = measure_schedule(s, a->schedule, "search",
					     &a->speedup, err, err_size);
			a->measured = r == 0;
			if (r == 0 && a->speedup > c->completed) {
				c->completed = a->speedup;
				fastest = j;
			}
		}
		if (r == 0 && fastest >= 0 && !s->stop && !out_of_budget(s)) {
			double speedup;

			r = measure_completion(s, &after.s[fastest], &speedup,
					       err, err_size);
			if (r > 0 && speedup > c->completed)
				c->completed = speedup;
			r = r < 0 ? -1 : 0;
		}
		search_states_clear(&after);
	}
	free(looked);
	return r < 0 ? -1 : 0;
}

/* Whether the children of this level are sampled adaptively. */
static int adaptive_level(struct search *s, int n_children)
{
	long left = s->o->max_measurements - s->progress.measured;

	if (n_children <= s->o->beam_width)
		return 0;
	return s->o->sampling == pearl_search_adaptive_always ||
	       (s->o->sampling == pearl_search_adaptive && n_children > left);
}

/* One level: expands every state of `beam`, measures the children (all,
 * best prior first, or adaptively sampled) while the budget lasts, and
 * makes the next beam. Returns the number of children measured, or -1 on
 * errors. */
static int run_level(struct search *s, struct search_states *beam,
		     char *err, size_t err_size)
{
	struct search_states children = {0};
	long before = s->progress.measured;
	int i, rc;

	for (i = 0; i < beam->n; ++i)
		if (search_expand(&beam->s[i], s->policy, s->o,
				  s->last_branch, &children,
				  &s->counts, err, err_size) < 0)
			goto error;
	qsort(children.s, children.n, sizeof(*children.s), by_prior);
	if (adaptive_level(s, children.n))
		rc = measure_adaptive(s, &children, err, err_size);
	else
		rc = measure_all(s, &children, err, err_size);
	if (rc < 0 || measure_completions(s, &children, err, err_size) < 0 ||
	    measure_reorderings(s, &children, err, err_size) < 0)
		goto error;
	for (i = 0; i < children.n; ++i)
		s->counts.skipped += !children.s[i].measured;
	if (search_select_beam(&children, s->o->beam_width,
			       s->o->beam_diversity, beam) < 0) {
		snprintf(err, err_size, "search: out of memory");
		goto error;
	}
	return (int)(s->progress.measured - before);
error:
	search_states_clear(&children);
	return -1;
}

/* The root state: the program's model, nothing applied, its focus on
 * branch `first` (reached by as many N). */
static int root_state(pearl_env_program *p,
		      const struct pearl_search_options *o, int first,
		      struct search_states *beam, char *err, size_t err_size)
{
	struct search_state root = {0};
	pearl_str text = PEARL_STR_INIT;

	search_append_next(&text, first);
	root.sched = pearl_env_program_sched(p, err, err_size);
	root.schedule = pearl_str_take(&text);
	root.branch = first;
	if (!root.sched || !root.schedule) {
		if (root.sched && !root.schedule)
			snprintf(err, err_size, "search: out of memory");
		search_state_clear(&root);
		return -1;
	}
	pearl_sched_set_explain(root.sched, 0);
	pearl_branch_state_init(&root.branch_state);
	root.branch_state.min_parallel_work = o->min_parallel_work;
	root.speedup = 1;
	return search_states_push(beam, &root);
}

/* The policy's greedy decision on the program, as the pass would take it:
 * malloc'd, or NULL with a message in err. */
static char *policy_decision(struct search *s, char *err, size_t err_size)
{
	struct pearl_agent_options opts;

	pearl_agent_options_init(&opts);
	opts.min_parallel_work = s->o->min_parallel_work;
	return pearl_env_program_agent_schedule(s->p, s->policy, &opts, err,
						err_size);
}

/* Whether `schedule` is the unscheduled program or one of the first n
 * seeds of `o`. */
static int seen_seed(const struct pearl_search_options *o, int n,
		     const char *schedule)
{
	int i;

	if (!*schedule)
		return 1;
	for (i = 0; i < n; ++i)
		if (!strcmp(o->seeds[i], schedule))
			return 1;
	return 0;
}

/* Level 0: measures the policy's decision (seed_policy) and the seeds,
 * each once, while the budget lasts. */
static int measure_seeds(struct search *s, char *err, size_t err_size)
{
	char *decision = NULL;
	double speedup;
	int i;

	if (s->o->seed_policy) {
		decision = policy_decision(s, err, err_size);
		if (!decision)
			return -1;
		if (*decision && !out_of_budget(s) &&
		    measure_schedule(s, decision, "policy", &speedup, err,
				     err_size) < 0)
			goto error;
	}
	for (i = 0; i < s->o->n_seeds && !s->stop && !out_of_budget(s); ++i) {
		const char *seed = s->o->seeds[i];

		if (seen_seed(s->o, i, seed) ||
		    (decision && !strcmp(decision, seed)))
			continue;
		if (measure_schedule(s, seed, "seed", &speedup, err,
				     err_size) < 0)
			goto error;
	}
	free(decision);
	return 0;
error:
	free(decision);
	return -1;
}

/* The levels of the search, from the root in `beam`. */
static int run_levels(struct search *s, struct search_states *beam,
		      char *err, size_t err_size)
{
	int idle = 0;

	while (!s->stop) {
		double before = s->levels_best;
		int n;

		if (s->progress.level >= s->o->max_depth) {
			s->stop = "depth";
			break;
		}
		s->progress.level++;
		n = run_level(s, beam, err, err_size);
		if (n < 0)
			return -1;
		if (n == 0 && !s->stop)
			s->stop = "exhausted";
		if (s->levels_best > before * s->o->min_gain)
			idle = 0;
		else if (++idle >= s->o->patience && !s->stop)
			s->stop = "no gain";
		if (!s->stop && beam->n == 0)
			s->stop = "exhausted";
		if (!s->stop)
			out_of_budget(s);
	}
	return 0;
}

/* Reports a measurement of the confirmation (search_confirm_fn). */
static void heard_again(void *user, const char *schedule, double speedup)
{
	report(user, schedule, speedup);
}

/* The confirmation of the finalists and the starting points (see
 * pearl/search.h): the winner replaces the search's best. */
static int confirm(struct search *s, struct pearl_search_result *r,
		   char *err, size_t err_size)
{
	struct search_finalists all;
	char *best;
	double speedup;
	const char *origin;
	int level, rc, i;

	r->search_speedup = s->progress.best_speedup;
	if (s->o->confirm <= 0 || s->o->confirm_rounds <= 0 ||
	    s->finalists.n == 0 || (s->stop && !strcmp(s->stop, "stopped")))
		return 0;
	rc = search_finalists_init(&all, s->finalists.n + s->starts.n);
	all.by_family = 0; /* the finalists are two per family already */
	for (i = 0; rc == 0 && i < s->finalists.n; ++i)
		rc = search_finalists_note(&all, s->finalists.schedule[i],
					   s->finalists.speedup[i],
					   s->finalists.origin[i]);
	for (i = 0; rc == 0 && i < s->starts.n; ++i)
		rc = search_finalists_note(&all, s->starts.schedule[i],
					   s->starts.speedup[i],
					   s->starts.origin[i]);
	if (rc < 0) {
		search_finalists_clear(&all);
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	level = s->progress.level;
	s->progress.level = -1;
	rc = search_confirm(s->env, s->p, &all, s->o->confirm_rounds,
			    s->o->confirm_tie_rounds, heard_again, s, &best,
			    &speedup, &origin, err, err_size);
	s->progress.level = level;
	search_finalists_clear(&all);
	if (rc < 0)
		return -1;
	free(s->best);
	s->best = best;
	s->best_origin = origin;
	s->progress.best_speedup = speedup;
	r->confirmed = 1;
	return 0;
}

int search_run_branches(pearl_env *env, pearl_env_program *p,
			const struct pearl_search_options *o, int first,
			int last, struct pearl_search_result *r, char *err,
			size_t err_size)
{
	struct pearl_search_options defaults;
	struct search s = {0};
	struct search_states beam = {0};
	struct pearl_env_result base;
	pearl_policy *builtin = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!o) {
		pearl_search_options_init(&defaults);
		o = &defaults;
	}
	s.o = o;
	s.last_branch = last;
	s.env = env;
	s.p = p;
	s.start = pearl_now();
	s.policy = o->policy;
	if (!s.policy)
		s.policy = builtin = pearl_policy_load_builtin(err, err_size);
	s.best = strdup("");
	s.progress.best_speedup = 1;
	if (search_finalists_init(&s.finalists, 2 * o->confirm) < 0 ||
	    search_finalists_init(&s.starts, 1 + o->n_seeds) < 0) {
		snprintf(err, err_size, "search: out of memory");
		goto out;
	}
	s.starts.by_family = 0; /* every starting point is confirmed */
	s.levels_best = 1;
	if (!s.policy || !s.best)
		goto out;
	if (pearl_env_time(env, p, "", &base, err, err_size) < 0)
		goto out;
	s.progress.base_seconds = base.base_seconds;
	if (root_state(p, o, first, &beam, err, err_size) < 0 ||
	    measure_seeds(&s, err, err_size) < 0)
		goto out;
	if (!s.stop && !out_of_budget(&s) &&
	    run_levels(&s, &beam, err, err_size) < 0)
		goto out;
	if (confirm(&s, r, err, err_size) < 0)
		goto out;
	rc = 0;
out:
	r->best_schedule = s.best;
	r->best_speedup = s.progress.best_speedup;
	r->base_seconds = s.progress.base_seconds;
	r->levels = s.progress.level;
	r->measured = s.progress.measured;
	r->memo_hits = s.progress.memo_hits;
	r->illegal = s.counts.illegal;
	r->quota = s.counts.quota;
	r->failed = s.progress.failed;
	r->wrong_outputs = s.progress.wrong_outputs;
	r->skipped = s.counts.skipped;
	r->clustered_levels = s.clustered_levels;
	r->seconds = pearl_now() - s.start;
	r->stop_reason = s.stop ? s.stop : "error";
	r->best_origin = s.best_origin ? s.best_origin : "base";
	if (!r->confirmed)
		r->search_speedup = s.progress.best_speedup;
	search_states_clear(&beam);
	search_finalists_clear(&s.finalists);
	search_finalists_clear(&s.starts);
	pearl_policy_free(builtin);
	return rc;
}

int pearl_search_run(pearl_env *env, pearl_env_program *p,
		     const struct pearl_search_options *o,
		     struct pearl_search_result *r, char *err,
		     size_t err_size)
{
	if (o && o->nests != pearl_search_nests_whole)
		return search_run_nests(env, p, o, r, err, err_size);
	return search_run_branches(env, p, o, 0, INT_MAX, r, err, err_size);
}
