/* The states and proposals of the beam search (pearl/search.h). */
#ifndef PEARL_SEARCH_INTERNAL_H
#define PEARL_SEARCH_INTERNAL_H

#include "pearl/agent.h"
#include "pearl/search.h"
#include "pearl/str.h"
#include "pearl/transform.h"

/* A schedule reached by the search: the actions applied to the program's
 * model, in Pearl's notation, and the agent's memory of the branch in
 * focus. */
struct search_state {
	pearl_sched *sched;     /* owned */
	char *schedule;         /* owned; "" for the unscheduled program */
	int branch;             /* the branch in focus */
	struct pearl_branch_state branch_state;
	double speedup;         /* measured (1 for the root) */
	double prior;           /* the proposal's rank: lower first */
	int seq;                /* creation order among its level's children:
				 * breaks ties, so that sorts are stable */
	int last_kind;          /* enum pearl_action_kind of its last
				 * action, -1 for the root */
	int measured;           /* measured in the environment */
	int cluster;            /* adaptive sampling's cluster */
	double completed;       /* the speedup of its completion
				 * (search_completion), 0 if none was
				 * measured: the beam ranks a state by the
				 * larger of the two */
};

/* Frees what `s` holds (not s itself). */
void search_state_clear(struct search_state *s);

/* A growable array of states, owning them. */
struct search_states {
	struct search_state *s;
	int n, cap;
};

void search_states_clear(struct search_states *v);
/* Appends *s (taken: its contents now belong to v). 0, or -1 if memory is
 * exhausted (then *s is cleared). */
int search_states_push(struct search_states *v, struct search_state *s);

/* Counters the expansion keeps. */
struct search_counts {
	long illegal;
	long quota;   /* children refused because the isl operations quota
		       * ran out while applying them (not counted illegal) */
	long skipped; /* legal children never measured */
};

/* Appends to `children` the legal children of `parent` (kept): the
 * policy's top_k and the heuristic's actions on the parent's branch and
 * on the next one, each applied to a copy of its schedule; a branch
 * where no proposal gives a new legal child is passed over for the one
 * after it, until two branches gave children or none is left. A child
 * whose schedule text `children` already holds is dropped. Its prior
 * is the proposal's rank on its branch plus half the branches it skips
 * (0 is the policy's favourite; a later branch's proposals rank after
 * the current one's). No branch after `last_branch` is looked at (the
 * last of the nest searched; INT_MAX: every one). Returns 0, or -1 with
 * a message in err. */
int search_expand(const struct search_state *parent,
		  const pearl_policy *policy, const struct pearl_search_options *o,
		  int last_branch, struct search_states *children,
		  struct search_counts *counts, char *err, size_t err_size);

/* The child of `parent` (kept) by the action `a` (kept) on its branch in
 * focus, if the agent's rules allow `a` there and the dependences accept
 * it: 1 with *child filled (the caller clears it), 0 if not (refusals are
 * counted in counts->illegal), -1 with a message in err. */
int search_child(const struct search_state *parent,
		 const struct pearl_action *a, struct search_state *child,
		 struct search_counts *counts, char *err, size_t err_size);

/* Appends n tokens N (the focus n branches on) to the schedule text
 * `out`, each after a space unless `out` is empty. */
void search_append_next(pearl_str *out, int n);

/* Appends to `children` the children of `parent` (kept) on its branch
 * b, a later one, that reorder that branch's loops: the interchanges
 * and interchange chains, and the unroll-and-jams, among the proposals
 * search_expand makes there (its policy's top_k, the heuristic's, the
 * chains, the extended actions). None if b is not a later branch of
 * `parent`. Returns 0, or -1 with a message in err. */
int search_expand_reorderings(const struct search_state *parent, int b,
			      const pearl_policy *policy,
			      const struct pearl_search_options *o,
			      struct search_states *children,
			      struct search_counts *counts, char *err,
			      size_t err_size);

/* The search of branches first..last of the model of `p` (the root's
 * focus on branch `first`, reached by as many N; no branch after `last`
 * looked at): pearl_search_run on a part of the program. */
int search_run_branches(pearl_env *env, pearl_env_program *p,
			const struct pearl_search_options *o, int first,
			int last, struct pearl_search_result *r, char *err,
			size_t err_size);

/* Programs of more top-level nests are searched whole (nests.c). */
#define SEARCH_MAX_NESTS 16

/* The top-level nests of `sched` (kept): the children of the loop tree's
 * root, each the branches (statements) below it, which are consecutive.
 * Returns their number, first[k] the first branch of nest k (at most cap
 * written), or -1 if there is no loop tree. */
int search_nests(pearl_sched *sched, int *first, int cap);

/* The composition of the n nests' schedules best[k] (kept; each from a
 * search of nest k alone: first[k] N, then its actions, which stay on
 * its branches; NULL or "" for none): each nest's actions after the N
 * that reach its first branch from where the earlier nest's left the
 * focus. A nest whose actions include a copy (K adds branches) is left
 * out. Malloc'd ("" if nothing is left), NULL if memory is exhausted. */
char *search_compose_nests(char *const *best, const int *first, int n);

/* pearl_search_run with o->nests each or both: with both, the whole
 * program is searched first on half the budget and of the time, without
 * confirmation. Then each top-level nest is searched on its own
 * (search_run_branches) with an even share of the rest (less the n + 3
 * measurements of the last stage), without starting points or
 * confirmation; then the composition of their bests, each nest's best
 * alone, the whole search's best, the policy's decision and o's seeds are
 * measured and confirmed as the starting points of a search of no level.
 * A program of one nest (or more than SEARCH_MAX_NESTS) is searched whole,
 * on the whole budget. The progress names each stage (stage), its counts
 * the whole search's. The result counts every measurement; its
 * stop_reason is "nests". */
int search_run_nests(pearl_env *env, pearl_env_program *p,
		     const struct pearl_search_options *o,
		     struct pearl_search_result *r, char *err,
		     size_t err_size);

/* Whether `s` (kept) is a measured, OK state that a completion may pay
 * off: its last action an I, a T or a J, and no action of the parallel
 * phase or later (P, U, V) applied to its branch yet. */
int search_completable(const struct search_state *s);

/* The completion of a completable state `s` (kept; see
 * search_completable): the first P(l) of the action space (l = 0, 1),
 * from the outermost loop in, that the rules and the dependences allow, then
 * V(16) on the innermost loop where allowed. A tiling or a jam pays only
 * once its tile loop runs in parallel and its point loop is vectorized,
 * and an interchange that makes the innermost loop contiguous (2mm's
 * `D(1) N I(1,2)`) once the outer loop runs in parallel, so the state's
 * own speedup understates what it leads to. 1 with *schedule (malloc'd)
 * the completed schedule, 0 if `s` is not completable or neither action
 * applies, -1 with a message in err. */
int search_completion(const struct search_state *s, char **schedule,
		      struct search_counts *counts, char *err,
		      size_t err_size);

/* Makes `beam` (emptied first) the next level's states: at most `width`
 * of the measured, OK states of `children` (taken: emptied), and frees
 * the rest. The fastest, ranked by the larger of their speedup and their
 * completion's (`completed`), but `diversity` of the places go to the
 * fastest child of each kind of last action (last_kind) that the faster
 * ones kept do not end with, fastest first, if it is at least a quarter
 * as fast as the fastest child; places left go to the fastest left. A state whose last action pays only after later ones (a
 * tiling, before its tile loop is parallel and its point loop
 * vectorized) thus stays in the beam beside faster states of the same
 * prefix. 0, or -1 if memory is exhausted. */
int search_select_beam(struct search_states *children, int width,
		       int diversity, struct search_states *beam);

/* The fastest schedules a search measured, for its confirmation
 * (confirm.c): at most `cap`, fastest first, the unscheduled program ("")
 * left out, and at most two per family: schedules that differ only in
 * their actions of the unroll phase (U, V) are one family, and only its
 * two fastest are finalists. The confirmation thus compares loop structures
 * (k-i-j tiled and jammed against i-k-j jammed untiled), not three
 * unroll factors of the fastest structure, whose ranking by the first,
 * noisy measurements and by the JIT's code is the least sure. */
struct search_finalists {
	char **schedule;      /* owned strings */
	double *speedup;
	const char **origin;  /* static strings */
	int n, cap;
	int by_family;        /* two per family (the default), or 0: every
			       * distinct schedule (the starting points,
			       * which are all confirmed) */
};

/* Makes `f` hold at most cap finalists, two per family. 0, or -1 if
 * memory is exhausted. */
int search_finalists_init(struct search_finalists *f, int cap);
void search_finalists_clear(struct search_finalists *f);
/* The position of `schedule` among the finalists of f, or -1. */
int search_finalists_find(const struct search_finalists *f,
			  const char *schedule);
/* Notes a measured schedule (kept) with its speedup and origin (static):
 * it joins the finalists if it is among the cap fastest so far, replacing
 * the slower of the two of its family there already (if f->by_family). A schedule already noted keeps its first
 * speedup. 0, or -1 if memory is exhausted. */
int search_finalists_note(struct search_finalists *f, const char *schedule,
			  double speedup, const char *origin);

/* Hears each measurement of the confirmation: the schedule (kept) and its
 * speedup against the base's first time (0 if it did not run OK). */
typedef void (*search_confirm_fn)(void *user, const char *schedule,
				  double speedup);

/* The confirmation: the finalists of `f` and the unscheduled program are
 * measured again in p (pearl_env_time_again), `rounds` times each in
 * turn; then, up to `tie_rounds` times, the leader and the finalists
 * within 5% of it once more, until none is. Each measurement is the
 * fastest of its timed runs; each one counts by the median of its
 * measurements, and the fastest by that wins.
 * *best (malloc'd; "" for the base), *speedup (its median against the
 * base's, both from the confirmation) and *origin (the finalist's, or
 * "base") receive the winner. 0, or -1 with a message in err (also if
 * the unscheduled program does not run OK: a broken compiler). */
int search_confirm(pearl_env *env, pearl_env_program *p,
		   const struct search_finalists *f, int rounds,
		   int tie_rounds, search_confirm_fn heard, void *user,
		   char **best, double *speedup, const char **origin,
		   char *err, size_t err_size);

/* The median of the n measurements `sorted` (ascending); 0 if n is 0. */
double search_confirm_median(const double *sorted, int n);

/* The confirmation's leader among seconds[0] (the base's median time)
 * and seconds[1..n] (the finalists'; 0: none ran OK): the position of
 * the fastest, 0 if no finalist beat the base. */
int search_confirm_leader(const double *seconds, int n);

/* The confirmation's tie-break: the leader (search_confirm_leader) and
 * the finalists whose time is within 5% of its, their positions
 * in `which` (room for n), leader included. Returns how many, or 0 if no
 * finalist is that close to it or the base leads. */
int search_confirm_contenders(const double *seconds, int n, int *which);

/* Clusters `children` (their `cluster` fields) by k-means of `policy`'s
 * (kept) graph embedding of their schedules, at most max_k clusters.
 * Returns the number of clusters, or -1 with a message in err. */
int search_cluster_children(const pearl_policy *policy,
			    struct search_states *children, int max_k,
			    char *err, size_t err_size);

#endif
