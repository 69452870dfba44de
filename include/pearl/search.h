/*
 * pearl/search.h - a measured beam search over the agent's action space:
 * the best schedule Pearl's actions can express for one program, found by
 * running candidates in the environment (pearl/env.h).
 *
 * The search walks the space the agent walks (pearl/agent.h): branch by
 * branch, under the same masks and order rules (pearl_agent_mask), with
 * the same legality checks. A state is a schedule reached so far: the
 * actions applied, the branch in focus, and what the agent remembers of
 * that branch. Level L of the search holds states of L actions.
 *
 * Expanding a state proposes, on its branch and on the next one (after an
 * N), the policy's top_k actions by logit among those the masks allow, and
 * the heuristic's actions where the masks allow them: the interchanges of
 * adjacent loops, tilings of a pair of loops by 32x32, the outermost two
 * loops in parallel, unrolling of the innermost by 4; and, as one
 * proposal each, the chains of interchanges that move one loop innermost
 * (I(0,1) I(1,2) turns matmul's j-k-i into k-i-j: the first interchange
 * alone is no faster and would not stay in the beam) or outermost
 * (I(1,2) I(0,1) turns i-j-k into k-i-j). Each proposal is
 * applied to a copy of the state's schedule; the dependences refuse some
 * (counted, never measured). The legal
 * children of all states of a level are measured in the environment, best
 * prior first (the policy's rank, parents in turn): the memo first, then
 * compile and run, outputs checked bit for bit against the unscheduled
 * program. The beam_width fastest children make the next level, but for
 * beam_diversity places kept for the fastest child of each kind of last
 * action the fastest ones do not end with.
 *
 * Before the first level, the search measures its starting points (level
 * 0): the policy's greedy decision, i.e. what pearl-schedule would do
 * (seed_policy), and the schedules the caller knows (seeds, e.g. a
 * committed hand schedule or an earlier tuning's best). Each may become
 * the best schedule, so the search never returns one slower, in its own
 * measurements, than its starting points. They are measured, not
 * expanded: the levels start from the unscheduled program.
 *
 * The search stops when a level brings no child faster than the best
 * child of the earlier levels by more than min_gain (patience levels in a
 * row), when
 * no state can be expanded, at max_depth, or when the budget runs out:
 * max_measurements candidates measured (memo hits included: the budget
 * counts schedules looked at, so a rerun with a full memo does the same
 * search), or max_seconds of wall clock.
 *
 * After each level, the fastest completable children (an interchange, a
 * tiling or a jam last, nothing parallel or vectorized yet) are measured
 * once more, completed by a parallel loop and V(16) (completions); the
 * beam ranks them by what the completion gives. Likewise the fastest
 * children whose last action is a distribution, followed by the
 * interchanges and jams of the part split off (reorderings), the fastest
 * of which is completed too.
 *
 * After the last level, the fastest schedules, at most two per family
 * (alike but for U and V), and the unscheduled program are measured again in turn
 * (confirm, confirm_rounds), without the memo, and the fastest of those
 * measurements is the result.
 *
 * Ownership follows isl's conventions (__isl_give, __isl_take,
 * __isl_keep). Errors: -1 with a message in err (NUL-terminated when
 * err_size > 0); nothing here exits. A WRONG_OUTPUT candidate (a Pearl
 * bug) is counted and skipped, not fatal.
 */
#ifndef PEARL_SEARCH_H
#define PEARL_SEARCH_H

#include <stddef.h>

#include "pearl/env.h"
#include "pearl/policy.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pearl_search_progress;

/* How the children of a level are chosen for measurement. */
enum pearl_search_sampling {
	/* all of them, best prior first, while the budget lasts */
	pearl_search_plain,
	/* adaptive sampling when the level has more children than the
	 * budget left: see pearl_search_adaptive_always */
	pearl_search_adaptive,
	/* adaptive sampling on every level: the children are clustered by
	 * k-means of the policy network's graph embedding of their schedule
	 * (pearl_policy_embed), k at the knee of the loss curve (the RELEASE
	 * paper); each cluster's representative, its member of best prior,
	 * is measured; then beam_width more children, each the best-prior
	 * unmeasured member of the cluster whose fastest measured member
	 * is fastest. A level costs k + beam_width measurements instead of
	 * one per child. */
	pearl_search_adaptive_always
};

/* How a program of several top-level loop nests is searched. */
enum pearl_search_nests {
	/* the whole program at once, one action a level: n nests need n
	 * times the levels */
	pearl_search_nests_whole,
	/* each top-level loop nest on its own, its root's focus on the
	 * nest's first branch, with an even share of the budget and of
	 * the time; then the composition of their bests, each best alone,
	 * the policy's decision and the seeds are measured and confirmed
	 * (stop_reason "nests"). Faster where every nest needs several
	 * actions (2mm: 9.7x against 3.5x), slower where one nest holds
	 * all the gain (bicg: 4.3x against 7.4x). */
	pearl_search_nests_each,
	/* the whole program on half the budget and of the time, then each
	 * nest on the rest, the whole search's best measured beside the
	 * composition in the last stage: a hedge between the two, each on
	 * half the budget (seven multi-nest PolyBench kernels at MEDIUM,
	 * 200 candidates: 3.8x against 2.8x whole and 4.2x per nest; half
	 * the budget is too little for 2mm's ten actions) */
	pearl_search_nests_both
};

/* Called after every measured candidate; a nonzero return stops the
 * search (the best so far is kept). */
typedef int (*pearl_search_progress_fn)(
    void *user, const struct pearl_search_progress *progress);

struct pearl_search_options {
	int beam_width;         /* states kept per level (default 8: with 4,
				 * the k-i-j matmul lost its I(0,1) state to
				 * faster tiled ones and ended at 0.78 of
				 * the best; with 8, 0.96) */
	int beam_diversity;     /* places of the beam kept for the
				 * fastest state of each kind of last action
				 * (T, J, P, ...) the fastest states do not
				 * end with (default 4; 0: the fastest
				 * only) */
	int top_k;              /* policy actions per state and branch
				 * (default 6) */
	int max_depth;          /* actions in a schedule (default 10) */
	long max_measurements;  /* candidates measured (default 200) */
	double max_seconds;     /* wall clock, 0: no limit (default 0) */
	double min_gain;        /* a level brings something when its best
				 * child beats the best so far by this
				 * factor (default 1.02: 2%) */
	int patience;           /* levels in a row that bring nothing before
				 * the search stops (default 2: bicg and
				 * symm stopped after one level with 9 and
				 * 13 of their 200 candidates measured) */
	long min_parallel_work; /* as in pearl_agent_options (default
				 * PEARL_AGENT_MIN_PARALLEL_WORK) */
	enum pearl_search_sampling sampling; /* default pearl_search_adaptive */
	int extended_actions;   /* also propose the actions beyond the
				 * policy's action space: D(l) per loop,
				 * J(l,4) per loop but the innermost, V(8)
				 * and V(16) (default 1) */
	/* After each level, the completions of its `completions` fastest
	 * completable children (an I, T or J last, no P, U or V yet on
	 * their branch) are measured: the child with its outermost loop
	 * that may run in parallel in parallel, then V(16). The beam ranks
	 * such a child by the larger of its speedup and its completion's:
	 * k-i-j matmul tiled and jammed, 24x before P and V, ranked below
	 * eight untiled states and left the beam though it led to the
	 * fastest schedule (default 4; 0: none). */
	int completions;
	/* After each level, its `reorderings` fastest children whose last
	 * action is a D(l) (measured first if sampling left them out) are
	 * followed by each reordering of the branch after theirs (the part
	 * the distribution split off): its interchanges, interchange chains
	 * and jams, at most 6 measured. The beam ranks such a child by the
	 * fastest, as a completion: 2mm's `D(1)` gains nothing by itself,
	 * `D(1) N I(1,2)` puts the reduction outside (default 2; 0: none). */
	int reorderings;
	/* How a program of several top-level loop nests is searched
	 * (default whole; see enum pearl_search_nests). */
	enum pearl_search_nests nests;
	/* Measure the policy's greedy decision first (default 1). */
	int seed_policy;
	/* Schedules measured first, in Pearl's notation (kept; n_seeds of
	 * them; default none). Illegal ones are counted as refused. */
	const char *const *seeds;
	int n_seeds;
	/* After the search, its 2 x `confirm` fastest schedules, at most
	 * two per family (schedules alike but for U and V are one
	 * family), its starting points that ran (the policy's decision,
	 * the seeds) and the unscheduled program are measured again,
	 * `confirm_rounds` times each in turn, without the memo
	 * (pearl_env_time_again: compiled by the environment's
	 * again_compiler, the user's compiler, if it has one), and the
	 * fastest by the median of its measurements wins: the best of
	 * hundreds of noisy first measurements is often one that was lucky,
	 * the base's own first measurement sets every speedup, and the JIT's
	 * code can rank two schedules otherwise than the user's. The median,
	 * not the fastest measurement: the fastest favours the schedules
	 * whose time varies most (many parallel loops a call). 0: no
	 * confirmation (default 3 and 3). Then, up to `confirm_tie_rounds`
	 * times (default 3), the fastest and those within 5% of it are
	 * measured once more, until none is that close: one compiled
	 * schedule measures up to 10% apart from one process to the next. */
	int confirm;
	int confirm_rounds;
	int confirm_tie_rounds;
	/* The policy ranking the actions (kept); NULL: the compiled-in
	 * one. */
	const pearl_policy *policy;
	pearl_search_progress_fn progress; /* NULL: none */
	void *progress_user;
};

/* Fills `o` with the defaults above. */
void pearl_search_options_init(struct pearl_search_options *o);

/* An option parser (pearl/options.h, PEARL_OPTION_CALL) of "whole",
 * "each" or "both" into the enum pearl_search_nests at dest; with value
 * NULL (PEARL_OPTION_ACTION, a flag such as --per-nest), "each". */
int pearl_search_nests_option(const char *value, void *dest);

/* Where a search stands (passed to the progress callback) and, at the
 * end, what it did. */
struct pearl_search_progress {
	int level;             /* the level being measured (1-based; 0:
				* the starting points; -1: the confirmation
				* of the finalists) */
	long measured;         /* candidates measured */
	long memo_hits;        /* of which the memo answered */
	long illegal;          /* proposals the dependences refused */
	long failed;           /* candidates that timed out, failed to
				* compile or run, or gave wrong outputs */
	long wrong_outputs;    /* of which wrong outputs (Pearl bugs) */
	double best_speedup;   /* over the unscheduled program; 1 at first */
	const char *best_schedule; /* (__isl_keep, valid during the call) */
	double base_seconds;   /* the unscheduled program's time */
	double elapsed;        /* seconds since the search started */
	double seconds_left;   /* of max_seconds; -1 without a limit */
	const char *last_schedule; /* the candidate just measured */
	double last_speedup;   /* its speedup, 0 unless OK */
	const char *stage;     /* with nests each or both, the stage
				* measuring: "whole", "nest 2/3", "composed"
				* (the counts are the whole search's);
				* NULL otherwise (static or valid during
				* the call) */
};

struct pearl_search_result {
	char *best_schedule;   /* malloc'd; "" when nothing beat the base */
	double best_speedup;
	double base_seconds;
	int levels;            /* levels measured */
	long measured, memo_hits, illegal, failed, wrong_outputs;
	long quota;            /* children left out because the isl
				* operations quota ran out on them */
	long skipped;          /* legal children never measured (adaptive
				* sampling or the budget left them) */
	long clustered_levels; /* levels adaptive sampling chose for */
	double seconds;
	/* The confirmation: finalists measured again (schedules, the base
	 * included), and the speedup the search's own measurements gave
	 * the best before it (equal to best_speedup without one). */
	int confirmed;
	double search_speedup;
	/* Where the best schedule came from: "search" (a level),
	 * "policy" (the policy's decision), "seed" (one of the seeds), or
	 * "base" (nothing beat the unscheduled program). Static string. */
	const char *best_origin;
	/* Why the search stopped: "no gain", "budget", "time", "depth",
	 * "exhausted" (no state had a legal proposal left), "stopped" (by
	 * the progress callback). Static string. */
	const char *stop_reason;
};

/* Frees what `r` holds (not r itself). Accepts NULL. */
void pearl_search_result_clear(struct pearl_search_result *r);

/* Searches the best schedule of @kernel of `p` (kept) in `env` (kept).
 * `o` (kept) may be NULL for the defaults. Fills *r (the caller clears it
 * with pearl_search_result_clear, also on error). Returns 0, or -1 with
 * the reason in err: the program cannot be modeled, its base does not
 * run, the policy fails, or an error of the environment. */
int pearl_search_run(pearl_env *env, pearl_env_program *p,
		     const struct pearl_search_options *o,
		     struct pearl_search_result *r, char *err,
		     size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
