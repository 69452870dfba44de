/*
 * imitate.c - imitation of the best measured schedule of every program
 * (imitate.h): the candidates timed per program, the decisions recorded
 * (imitated, or distilled from the teacher), then imitation_fit.c's
 * epochs.
 */
#include "imitate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/baselines.h"
#include "distill.h"
#include "episode.h"
#include "held_out_speed.h"
#include "imitation_fit.h"
#include "kind_recall.h"
#include "likelihood.h"
#include "near_best.h"
#include "pearl/clock.h"
#include "pearl/features.h"
#include "pearl/file.h"
#include "pearl/random.h"
#include "pearl/search.h"
#include "targets.h"
#include "teacher.h"

/* Where an imitated schedule comes from. */
enum source {
	SOURCE_NONE,
	SOURCE_HEURISTIC,
	SOURCE_GREEDY,
	SOURCE_SAMPLED,
	SOURCE_PRUNED,
	SOURCE_SEARCH,
	SOURCE_TARGET,
	SOURCE_DISTILLED, /* the starting policy's own distributions */
	SOURCE_LIKELY, /* --imitate-likely's pick, not the fastest */
	N_SOURCES
};
static const char *const source_names[N_SOURCES] = {
    "none",   "heuristic", "greedy",    "sampled", "pruned",
    "search", "target",    "distilled", "likely"};

struct candidates {
	char best[EPISODE_SCHEDULE_MAX]; /* "" for none */
	enum source source;
	double best_speedup;
	double heuristic, greedy, sampled, searched; /* speedups (NAN: none
						       * ran) */
	char greedy_schedule[EPISODE_SCHEDULE_MAX]; /* if greedy ran */
	/* The fastest candidate with actions, margin or not (top_speedup
	 * 0: none ran), where pruning starts. */
	char top[EPISODE_SCHEDULE_MAX];
	double top_speedup;
	/* The fastest schedules measured, candidates and the search's, for
	 * --imitate-near; noting one may fail (out of memory), said by
	 * near_failed. */
	struct near_best near;
	int near_failed;
};

static void consider(struct candidates *c, enum source source,
		     const struct episode_result *res)
{
	if (res->status != PEARL_ENV_OK || res->n_actions == 0)
		return;
	if (near_best_note(&c->near, res->schedule, res->speedup) < 0)
		c->near_failed = 1;
	if (res->speedup > c->top_speedup) {
		c->top_speedup = res->speedup;
		snprintf(c->top, sizeof(c->top), "%s", res->schedule);
	}
	if (!(res->speedup > c->best_speedup))
		return;
	c->best_speedup = res->speedup;
	c->source = source;
	snprintf(c->best, sizeof(c->best), "%s", res->schedule);
}

/* Schedule `s` without its action number `drop` (counting the actions,
 * not the N between branches) into out; returns the number of actions
 * left. Tokens are separated by single spaces, as episodes write them. */
static int without_action(const char *s, int drop, char *out, size_t size)
{
	const char *tok = s, *end;
	size_t len = 0;
	int k = 0, left = 0;

	out[0] = 0;
	while (*tok) {
		int is_next;

		end = strchr(tok, ' ');
		if (!end)
			end = tok + strlen(tok);
		is_next = end - tok == 1 && *tok == 'N';
		if (is_next || k++ != drop) {
			left += !is_next;
			if (len + (size_t)(end - tok) + 2 > size)
				return -1;
			if (len)
				out[len++] = ' ';
			memcpy(out + len, tok, (size_t)(end - tok));
			len += (size_t)(end - tok);
			out[len] = 0;
		}
		tok = *end ? end + 1 : end;
	}
	return left;
}

/* Local search around the fastest candidate c->top: each round times it
 * without each one of its actions and moves to the fastest of these if
 * it is faster, for o->imitate_prune rounds or until no removal helps.
 * The candidates are whole episodes, so an action that only costs time
 * (a tiling that the loop order already made useless, an unrolling that
 * defeats the vectorizer) rides along with the ones that pay; pruning
 * gives the policy the schedule without it to imitate. */
static int prune_top(pearl_env *env, pearl_env_program *p,
		     const struct options *o, struct candidates *c, char *err,
		     size_t err_size)
{
	char from[EPISODE_SCHEDULE_MAX], cand[EPISODE_SCHEDULE_MAX];
	struct episode_result res;
	int round, k, n;

	for (round = 0; round < o->imitate_prune && c->top_speedup > 0;
	     ++round) {
		double before = c->top_speedup;

		/* consider() moves c->top: drop from this round's start */
		snprintf(from, sizeof(from), "%s", c->top);
		for (k = 0;; ++k) {
			n = without_action(from, k, cand, sizeof(cand));
			if (n < 0 || !strcmp(cand, from))
				break; /* k is past the last action */
			if (n == 0)
				continue; /* none: already the reference */
			if (episode_time_schedule(env, p, cand, &res, err,
						  err_size) < 0)
				return -1;
			res.n_actions = n;
			consider(c, SOURCE_PRUNED, &res);
		}
		if (!(c->top_speedup > before))
			break;
	}
	return 0;
}

/* The number of actions of `schedule`, N excluded. */
static int count_actions(const char *schedule)
{
	int n = 0;
	const char *t;

	for (t = schedule; *t; ++t)
		n += *t == '(';
	return n;
}

/* Offers `schedule`, measured at `speedup`, as a candidate of `source`
 * when the agent can reach it (teacher_record: the search and the
 * campaigns also use actions beyond the policy's ids, e.g. D(l) for
 * l > 3). 0, or -1 with a message in err. */
static int offer(pearl_env_program *p, const char *schedule, double speedup,
		 enum source source, struct candidates *c, char *err,
		 size_t err_size)
{
	struct pearl_ppo_batch scratch;
	struct episode_result res;
	int reach;

	if (!*schedule || strlen(schedule) >= sizeof(res.schedule))
		return 0;
	pearl_ppo_batch_init(&scratch, PEARL_N_ACTIONS);
	reach = teacher_record(p, schedule, &scratch, err, err_size);
	pearl_ppo_batch_clear(&scratch);
	if (reach < 0)
		return -1;
	if (reach == 0) {
		fprintf(stderr, "pearl-train: imitation: %s: the %s's "
				"\"%s\" is out of the agent's reach: %s\n",
			pearl_env_program_name(p), source_names[source],
			schedule, err);
		err[0] = 0;
		return 0;
	}
	memset(&res, 0, sizeof(res));
	snprintf(res.schedule, sizeof(res.schedule), "%s", schedule);
	res.n_actions = count_actions(schedule);
	res.status = PEARL_ENV_OK;
	res.speedup = speedup;
	consider(c, source, &res);
	return 0;
}

/* Notes each candidate the search measured among the near-best
 * (pearl_search_progress_fn; user: the candidates). */
static int note_searched(void *user, const struct pearl_search_progress *s)
{
	struct candidates *c = user;

	if (s->level >= 0 && s->last_schedule &&
	    near_best_note(&c->near, s->last_schedule, s->last_speedup) < 0)
		c->near_failed = 1;
	return 0;
}

/* Expert iteration's teacher: the measured beam search of pearl-tune
 * (pearl/search.h) on p, its proposals ranked by `policy`, starting from
 * the fastest candidate so far (c->top) and the policy's decision, within
 * o->imitate_search candidates; its best is offered. */
static int search_candidate(pearl_env *env, pearl_env_program *p,
			    const pearl_policy *policy,
			    const struct options *o, struct candidates *c,
			    char *err, size_t err_size)
{
	struct pearl_search_options so;
	struct pearl_search_result r;
	const char *seeds[1];
	int rc = -1;

	pearl_search_options_init(&so);
	so.max_measurements = o->imitate_search;
	so.nests = o->search_nests;
	so.min_parallel_work = o->agent.min_parallel_work;
	/* no confirmation: its measurements bypass the memo, and a training
	 * run on a full memo must replay without running anything */
	so.confirm = 0;
	so.policy = policy;
	so.progress = note_searched;
	so.progress_user = c;
	seeds[0] = c->top;
	so.seeds = seeds;
	so.n_seeds = c->top_speedup > 0;
	if (pearl_search_run(env, p, &so, &r, err, err_size) == 0) {
		c->searched = r.best_speedup;
		rc = offer(p, r.best_schedule, r.best_speedup, SOURCE_SEARCH, c,
			   err, err_size);
	}
	pearl_search_result_clear(&r);
	return rc;
}

/* With --imitate-likely, the near-best alternatives of p's target
 * (targets.h, DIR/NAME.near), each timed and offered as a target. 0, or
 * -1 with a message in err. */
static int alternative_candidates(pearl_env *env, pearl_env_program *p,
				  const struct options *o,
				  struct candidates *c, char *err,
				  size_t err_size)
{
	struct episode_result res;
	char **alts;
	int i, n, r;

	if (target_alternatives(o->imitate_targets, p, &alts, &n, err,
				err_size) < 0)
		return -1;
	for (i = 0, r = 0; r == 0 && i < n; ++i) {
		r = episode_time_schedule(env, p, alts[i], &res, err,
					  err_size);
		if (r == 0 && res.status == PEARL_ENV_OK)
			r = offer(p, alts[i], res.speedup, SOURCE_TARGET, c,
				  err, err_size);
	}
	target_alternatives_free(alts, n);
	return r < 0 ? -1 : 0;
}

/* Expert iteration from a tuning campaign: p's schedule in
 * o->imitate_targets (targets.h), timed as the other candidates and
 * offered; its speedup goes in the `searched` column. With
 * --imitate-likely, its near-best alternatives too. */
static int target_candidate(pearl_env *env, pearl_env_program *p,
			    const struct options *o, struct candidates *c,
			    char *err, size_t err_size)
{
	struct episode_result res;
	char *schedule;
	int r = target_schedule(o->imitate_targets, p, &schedule, err,
				err_size);

	if (r <= 0)
		return r;
	r = episode_time_schedule(env, p, schedule, &res, err, err_size);
	if (r == 0 && res.status == PEARL_ENV_OK) {
		c->searched = res.speedup;
		r = offer(p, schedule, res.speedup, SOURCE_TARGET, c, err,
			  err_size);
	}
	free(schedule);
	if (r == 0 && o->imitate_likely > 0)
		r = alternative_candidates(env, p, o, c, err, err_size);
	return r < 0 ? -1 : 0;
}

/* --imitate-likely: when a measured schedule (a target's, the search's)
 * is the fastest, imitate instead, of the schedules measured within the
 * fraction o->imitate_likely of it (and beating none by the margin), the
 * one `policy` finds the most likely (likelihood.h). Measurements a few
 * percent apart do not rank schedules, and programs alike in all the
 * network sees should not teach it opposite decisions by the luck of a
 * measurement. The pick, when it is the policy's greedy schedule, leaves
 * the program to the greedy candidate (distilled under --distill); any
 * other says "likely". 0, or -1 with a message in err. */
static int pick_likely(pearl_env_program *p, const pearl_policy *policy,
		       const struct options *o, struct candidates *c,
		       char *err, size_t err_size)
{
	double floor = fmax(c->best_speedup / (1 + o->imitate_likely),
			    1 + o->imitate_margin);
	double best_ll = -INFINITY, ll;
	int i, pick = -1, r;

	if (o->imitate_likely <= 0 ||
	    (c->source != SOURCE_TARGET && c->source != SOURCE_SEARCH))
		return 0;
	for (i = 0; i < c->near.n; ++i) {
		if (c->near.speedup[i] < floor)
			continue;
		r = schedule_log_likelihood(p, c->near.schedule[i], policy,
					    &ll, err, err_size);
		if (r < 0)
			return -1;
		err[0] = 0;
		if (r > 0 && o->verbose)
			fprintf(stderr, "pearl-train: likely: %s: \"%s\" %.4fx "
					"log-likelihood %.4f\n",
				pearl_env_program_name(p), c->near.schedule[i],
				c->near.speedup[i], ll);
		if (r > 0 && ll > best_ll) {
			best_ll = ll;
			pick = i;
		}
	}
	if (pick >= 0 && o->verbose)
		fprintf(stderr, "pearl-train: likely: %s: picks \"%s\" over "
				"the fastest \"%s\"\n",
			pearl_env_program_name(p), c->near.schedule[pick],
			c->best);
	if (pick < 0 || !strcmp(c->near.schedule[pick], c->best))
		return 0;
	c->source = strcmp(c->near.schedule[pick], c->greedy_schedule)
			? SOURCE_LIKELY
			: SOURCE_GREEDY;
	c->best_speedup = c->near.speedup[pick];
	snprintf(c->best, sizeof(c->best), "%s", c->near.schedule[pick]);
	return 0;
}

/* Times the candidates of p (none, the heuristic's schedule, the greedy
 * policy's, imitate_samples sampled ones, the pruned fastest, and the
 * search's best with --imitate-search) and keeps the fastest in *c; a
 * schedule must beat none by the margin. */
static int best_schedule(pearl_env *env, pearl_env_program *p,
			 const pearl_policy *policy, const struct options *o,
			 uint64_t *rng, struct candidates *c, char *err,
			 size_t err_size)
{
	struct episode_result res;
	char heuristic[EPISODE_SCHEDULE_MAX];
	pearl_sched *sched;
	int k, n;

	memset(c, 0, sizeof(*c));
	c->source = SOURCE_NONE;
	c->best_speedup = 1 + o->imitate_margin;
	c->heuristic = c->greedy = c->sampled = c->searched = NAN;
	sched = pearl_env_program_sched(p, err, err_size);
	if (!sched)
		return -1;
	n = pearl_baseline_heuristic(sched, heuristic, sizeof(heuristic));
	pearl_sched_free(sched);
	if (n < 0) {
		snprintf(err, err_size, "%s: the heuristic failed",
			 pearl_env_program_name(p));
		return -1;
	}
	if (episode_time_schedule(env, p, heuristic, &res, err, err_size) < 0)
		return -1;
	res.n_actions = n;
	if (res.status == PEARL_ENV_OK)
		c->heuristic = res.speedup;
	consider(c, SOURCE_HEURISTIC, &res);
	for (k = 0; k <= o->imitate_samples; ++k) {
		struct pearl_agent_options ao;

		ao = o->agent;
		ao.sample = k > 0;
		ao.seed = pearl_splitmix64(rng);
		if (episode_run(env, p, policy, &ao, EPISODE_REWARD_FINAL, NULL,
				&res, err, err_size) < 0)
			return -1;
		if (res.status == PEARL_ENV_OK) {
			if (k == 0) {
				c->greedy = res.speedup;
				snprintf(c->greedy_schedule,
					 sizeof(c->greedy_schedule), "%s",
					 res.schedule);
			}
			else if (isnan(c->sampled) || res.speedup > c->sampled)
				c->sampled = res.speedup;
		}
		consider(c, k == 0 ? SOURCE_GREEDY : SOURCE_SAMPLED, &res);
	}
	if (prune_top(env, p, o, c, err, err_size) < 0)
		return -1;
	if (o->imitate_targets &&
	    target_candidate(env, p, o, c, err, err_size) < 0)
		return -1;
	if (o->imitate_search > 0 &&
	    search_candidate(env, p, policy, o, c, err, err_size) < 0)
		return -1;
	return pick_likely(p, policy, o, c, err, err_size);
}

/* The decisions imitation learns from: every tenth program's are held
 * out (validation), the others' trained on. */
struct imitation_set {
	/* The decisions recorded and what judges the epochs; data.select_csv
	 * is owned by imitate(). */
	struct imitation_data data;
	int by_source[N_SOURCES]; /* programs per imitated source */
	/* Whose distributions are distilled: --distill-teacher's policy, or
	 * the starting policy (kept; not owned). */
	const pearl_policy *teacher;
};

/* Records into dst the decisions of c's fastest schedule and, with
 * --imitate-near, unless `held_out`, of the other schedules measured
 * within that fraction of it (near_best.h), or those of none if the agent
 * cannot reach the fastest (c then says none). The held-out decisions
 * are the fastest schedule's alone, so that their loss and accuracy
 * compare runs with and without --imitate-near. The number of schedules
 * recorded, or -1 with a message in err. */
static int record_candidates(pearl_env_program *p, struct candidates *c,
			     const struct options *o, int held_out,
			     struct pearl_ppo_batch *dst, char *err,
			     size_t err_size)
{
	int max = o->imitate_near > 0 && !held_out ? o->imitate_near_max : 1;
	double min_speedup = fmax(c->best_speedup / (1 + o->imitate_near),
				  1 + o->imitate_margin);
	int k;

	if (c->near_failed) {
		snprintf(err, err_size, "imitation: out of memory");
		return -1;
	}
	k = near_best_record(&c->near, p, c->best, min_speedup, max, dst, err,
			     err_size);
	if (k == 0) { /* not reachable by the agent: imitate none */
		fprintf(stderr, "pearl-train: imitation: %s: %s; imitating "
				"none\n", pearl_env_program_name(p), err);
		err[0] = 0;
		c->best[0] = 0;
		c->source = SOURCE_NONE;
		c->best_speedup = 1;
		k = teacher_record(p, "", dst, err, err_size);
	}
	return k <= 0 ? -1 : k;
}

/* Whether, with --distill, program p (its candidates c) is distilled: the
 * greedy schedule ran, and the fastest is neither a target's nor the
 * search's, or does not beat the greedy one by the margin. With
 * --distill-teacher, whose distributions are not the policy's own, a
 * program with a target or a search result is never distilled: it
 * imitates its fastest candidate (the policy's greedy schedule, when that
 * is as fast), so that the teacher does not undo what the measurements
 * taught the policy before. */
static int distills(const struct candidates *c, const struct options *o)
{
	int measured = c->source == SOURCE_SEARCH ||
		       c->source == SOURCE_TARGET || c->source == SOURCE_LIKELY;

	if (o->distill <= 0 || isnan(c->greedy))
		return 0;
	if (o->distill_teacher && !isnan(c->searched))
		return 0;
	return !measured || !(c->best_speedup > c->greedy *
						   (1 + o->imitate_margin));
}

/* Records the decisions of the policy's greedy schedule with the
 * teacher's distributions (distill.h), c then saying so: 1, 0 if the
 * agent cannot replay the schedule (nothing recorded; the caller imitates
 * instead), -1 with a message in err. */
static int distill_greedy(pearl_env_program *p, const pearl_policy *teacher,
			  struct candidates *c, const struct options *o,
			  struct pearl_ppo_batch *dst, char *err,
			  size_t err_size)
{
	int r = distill_record(p, c->greedy_schedule, teacher,
			       o->distill_temperature, o->distill, dst, err,
			       err_size);

	if (r == 0) {
		fprintf(stderr, "pearl-train: distillation: %s: %s; imitating "
				"instead\n", pearl_env_program_name(p), err);
		err[0] = 0;
		return 0;
	}
	if (r < 0)
		return -1;
	c->source = SOURCE_DISTILLED;
	c->best_speedup = c->greedy;
	snprintf(c->best, sizeof(c->best), "%s", c->greedy_schedule);
	return 1;
}

/* Finds the best schedule of program p (number i), records the decisions
 * that lead to it into *is and its line into csv. 1, 0 if the program
 * does not run (nothing recorded), or -1 with a message in err. */
static int imitate_program(pearl_env *env, pearl_env_program *p, int i,
			   const pearl_policy *policy, const struct options *o,
			   uint64_t *rng, struct imitation_set *is, FILE *csv,
			   char *err, size_t err_size)
{
	int held_out = held_out_program(i);
	struct pearl_ppo_batch *dst =
	    held_out ? &is->data.val : &is->data.train;
	struct pearl_env_result base;
	struct candidates c;
	int r;

	if (pearl_env_time(env, p, "", &base, err, err_size) < 0)
		return -1;
	if (base.status != PEARL_ENV_OK)
		return 0;
	r = best_schedule(env, p, policy, o, rng, &c, err, err_size);
	if (r == 0 && distills(&c, o))
		r = distill_greedy(p, is->teacher, &c, o, dst, err, err_size);
	if (r == 0)
		r = record_candidates(p, &c, o, held_out, dst, err, err_size);
	near_best_clear(&c.near);
	if (r < 0)
		return -1;
	is->by_source[c.source]++;
	fprintf(csv, "%s,%.6g,%.4f,%.4f,%.4f,%.4f,%s,%.4f,\"%s\",%d\n",
		pearl_env_program_name(p), base.base_seconds, c.heuristic,
		c.greedy, c.sampled, c.searched, source_names[c.source],
		c.source != SOURCE_NONE ? c.best_speedup : 1.0, c.best, r);
	fflush(csv);
	return 1;
}

/* The decisions to imitate on every program of `set`, one line each in
 * csv; 0, or -1 with a message in err. */
static int collect_imitation(pearl_env *env, struct program_set *set,
			     const pearl_policy *policy,
			     const struct options *o, uint64_t *rng,
			     struct imitation_set *is, FILE *csv, double t0,
			     char *err, size_t err_size)
{
	const int *by = is->by_source;
	int i, r;

	fprintf(csv, "program,base_seconds,heuristic,greedy,best_sampled,"
		     "searched,imitated,speedup,schedule,schedules_imitated\n");
	fprintf(stderr, "pearl-train: imitation: timing the candidates of "
			"%d programs\n", set->n);
	for (i = 0; i < set->n; ++i) {
		r = imitate_program(env, set->p[i], i, policy, o, rng, is, csv,
				    err, err_size);
		if (r < 0)
			return -1;
		if (r > 0 && ((i + 1) % 20 == 0 || i + 1 == set->n)) {
			struct pearl_env_stats st;

			pearl_env_get_stats(env, &st);
			fprintf(stderr,
				"pearl-train: imitation: %d/%d programs; "
				"imitating none %d, heuristic %d, greedy %d, "
				"sampled %d, pruned %d, search %d, target %d, "
				"distilled %d, likely %d; "
				"%d + %d decisions; %ld measurements, %.0f%% "
				"from the memo; %.0fs\n",
				i + 1, set->n, by[0], by[1], by[2], by[3],
				by[4], by[5], by[6], by[7], by[8],
				is->data.train.n_steps, is->data.val.n_steps,
				st.queries,
				st.queries ? 100.0 * st.memo_hits / st.queries
					   : 0.0,
				pearl_now() - t0);
		}
	}
	if (is->data.train.n_steps == 0) {
		snprintf(err, err_size, "imitation: no decisions to learn");
		return -1;
	}
	return 0;
}

/* With --distill-programs, the decisions of the policy's episodes (its
 * greedy one, --distill-samples sampled ones) on more programs, loaded one
 * at a time and timed not at all, with the teacher's distributions as
 * targets (distill_rollout), into is's training decisions. 0, or -1 with a
 * message in err. */
static int collect_distill_programs(pearl_env *env, const pearl_policy *policy,
				    const struct options *o, uint64_t *rng,
				    struct imitation_set *is, double t0,
				    char *err, size_t err_size)
{
	int i, k, skipped = 0;

	for (i = 0; i < o->distill_programs; ++i) {
		struct program_set one;

		memset(&one, 0, sizeof(one));
		if (program_set_add_generated(&one, env, o->first_distill + i,
					      1, o->scale, pearl_gen_family_any,
					      o->verbose, err, err_size) < 0)
			return -1;
		skipped += one.skipped;
		for (k = 0; one.n > 0 && k <= o->distill_samples; ++k) {
			struct pearl_agent_options ao = o->agent;

			ao.sample = k > 0;
			ao.seed = pearl_splitmix64(rng);
			if (distill_rollout(one.p[0], policy, &ao, is->teacher,
					    o->distill_temperature, o->distill,
					    &is->data.train, err,
					    err_size) < 0) {
				program_set_clear(&one);
				return -1;
			}
		}
		program_set_clear(&one);
		if ((i + 1) % 500 == 0 || i + 1 == o->distill_programs)
			fprintf(stderr,
				"pearl-train: distillation: %d/%d more "
				"programs (%d skipped); %d decisions to learn "
				"in all; %.0fs\n",
				i + 1, o->distill_programs, skipped,
				is->data.train.n_steps, pearl_now() - t0);
	}
	return 0;
}

int imitate(pearl_env *env, struct program_set *set, pearl_policy *policy,
	    const pearl_policy *teacher, const struct options *o,
	    uint64_t *rng, const char *dir, char *err, size_t err_size)
{
	struct imitation_set is;
	char *csv_path = pearl_path_join(dir, "imitate.csv");
	char *epochs_path = pearl_path_join(dir, "imitate-epochs.csv");
	char *select_path = pearl_path_join(dir, "imitate-select.csv");
	FILE *csv = NULL, *ecsv = NULL;
	double t0 = pearl_now();
	uint64_t fit_rng = (uint64_t)o->fit_seed;
	int rc = -1;

	memset(&is, 0, sizeof(is));
	is.teacher = teacher ? teacher : policy;
	is.data.env = env;
	is.data.programs = set;
	pearl_ppo_batch_init(&is.data.train, PEARL_N_ACTIONS);
	pearl_ppo_batch_init(&is.data.val, PEARL_N_ACTIONS);
	csv = csv_path ? fopen(csv_path, "w") : NULL;
	ecsv = epochs_path ? fopen(epochs_path, "w") : NULL;
	if (o->imitate_select_speed && select_path) {
		is.data.select_csv = fopen(select_path, "w");
		if (is.data.select_csv)
			fputs(held_out_speed_csv_header, is.data.select_csv);
	}
	if (!csv || !ecsv || (o->imitate_select_speed && !is.data.select_csv)) {
		snprintf(err, err_size, "cannot write %s/imitate*.csv", dir);
		goto out;
	}
	if (collect_imitation(env, set, policy, o, rng, &is, csv, t0, err,
			      err_size) < 0 ||
	    collect_distill_programs(env, policy, o, rng, &is, t0, err,
				     err_size) < 0)
		goto out;
	kind_weights_apply(&is.data.train, o->imitate_kind_weight);
	if (imitation_fit(policy, &is.data, o,
			  o->fit_seed >= 0 ? &fit_rng : rng, ecsv, t0, err,
			  err_size) < 0)
		goto out;
	rc = 0;
out:
	if (csv)
		fclose(csv);
	if (ecsv)
		fclose(ecsv);
	if (is.data.select_csv)
		fclose(is.data.select_csv);
	free(csv_path);
	free(epochs_path);
	free(select_path);
	pearl_ppo_batch_clear(&is.data.train);
	pearl_ppo_batch_clear(&is.data.val);
	return rc;
}
