/*
 * pearl/agent.h - the episode driver: the policy schedules a region branch
 * by branch, as in the Pearl paper (section 4.2).
 *
 * The agent focuses on the leftmost branch (the path from the root to the
 * first statement), asks the policy for an action on it, applies it if it
 * is legal, and repeats until it picks N (Next); then it moves to the next
 * branch; N on the last branch ends the episode. At every step the policy's
 * logits are masked (pearl_agent_mask) before the choice:
 *   - actions already tried on this branch (applied or found illegal);
 *   - actions on loop levels the branch does not have, tiles and unroll
 *     factors larger than their loop (its extent in the graph), J on a
 *     loop no longer than its factor;
 *   - parallel loops too small to pay for their fork and join: P(l) when
 *     one execution of loop l runs fewer than min_parallel_work
 *     iterations of the branch's innermost loop (the product of the
 *     extents from l inward; not masked when an extent is symbolic), and
 *     P(l) of a loop of one iteration (nothing to run in parallel);
 *   - the order rules: loop reordering and restructuring (I, R, S, D, F)
 *     before tiling (T, J), before parallelization, before unrolling,
 *     vectorization and copies (U, V, K; one width per branch) (no
 *     reordering either once a loop of the branch is tiled through a loop
 *     it shares with another); one tiling, one parallel loop and one
 *     unrolling per branch; no skewing once a loop of the branch runs in
 *     parallel (data-driven paper's rule);
 *   - K when the schedule's code generator makes no copies (the clang
 *     plugin's: pearl_sched_get_copies_made), so that the C and MLIR paths
 *     try the same actions but for the copies; and K for the policy
 *     unless opts->copies (off by default; the search and the baselines
 *     keep K): in the memo's 2,653 schedules with K that have a measured
 *     twin without it, K made them 0.60x in geomean (1,971 slower, 329
 *     faster), and a policy that learned K from the search's targets
 *     copied inside time loops (heat-3d 0.50x);
 *   - for the policy, a second unroll-and-jam of a loop the branch has
 *     jammed already (the search keeps stacked jams): e16 stacked five
 *     jams on nussinov's branch at LARGE, J(1,4) J(0,4) J(1,16) J(1,6)
 *     J(1,8), and took 5.6 s to compile it for no speed over two jams;
 *     and an unroll-and-jam of a tile loop whose values step by at
 *     least its factor (the policy's tiles, 32 to 128, against factors
 *     of 4 to 16): each group of copies holds one value, so the code is
 *     that of the schedule without the J (with a factor that does not
 *     divide the step, the same loops with other bounds), at the cost
 *     of a legality check (e16's nussinov and adi at LARGE chose eight
 *     and two such jams: their pass times 190 and 151 ms, 121 and 127
 *     ms without them);
 *   - actions the dependences forbid: these are found by trying the
 *     chosen action on the schedule, which applies it only if legal; an
 *     illegal choice is masked and the choice is made again from the same
 *     logits. For argmax this
 *     is exactly the argmax over the fully masked logits, and for sampling
 *     it is exactly sampling from the fully masked distribution, at a
 *     fraction of the legality checks.
 * N is never masked. A branch that reaches the step cap gets N.
 *
 * After the episode (greedy, sampled or the critic's beam), two rules. First
 * the rule of parallel fill (opts->fill_parallel, on by default): each branch
 * the policy left with no parallel loop gets P on its outermost loop that the
 * action space has, the work mask allows (at least min_parallel_work innermost
 * iterations per execution), holds no other branch's parallel loop and the
 * dependences permit, if there is one. The policy leaves out parallel loops
 * that pay: in the memos of its training, 4,055 measured schedules without P(0)
 * on a branch have a twin with it, which took 0.74 of the time in geomean; in
 * pearl-bench at MEDIUM the rule moved PolyBench-30 from 1.87x to 2.01x (Polly
 * 1.55x in the same run; adi 1.0x -> 1.7x, gesummv 5.0x -> 8.3x, covariance
 * 4.7x -> 6.1x). A loop around another branch's parallel loop stays sequential
 * (syrk and syr2k at LARGE: 0.7 times the speed with their rows in parallel
 * around the update's j loop). Then the rule of uniform parallelism
 * (opts->uniform_parallel, on by default): a sequential loop must not run some
 * of its nests in parallel and others serially, counting the nests that do at
 * least min_parallel_work innermost iterations per execution of the loop.
 * Inside a time loop such a mix moves each step's data between the cores
 * (PolyBench fdtd-2d: about 0.45x with one of three stencils parallel, 1.5x
 * with all three). The rule parallelizes the serial nests where the dependences
 * allow (P on their loops below the sequential one that the action space has)
 * if all the parallel loops then split their iterations among the threads
 * alike, and otherwise runs all the loop's nests serially (drops their P). It
 * judges the P the fill added as the policy's. The episode's steps say what the
 * rules changed (step.rule), and the schedule is the changed episode replayed
 * (lib/Agent/uniform_parallel.c). Training observes the policy's decisions
 * only.
 */
#ifndef PEARL_AGENT_H
#define PEARL_AGENT_H

#include <stdint.h>

#include "pearl/action_space.h"
#include "pearl/policy.h"
#include "pearl/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pearl_agent_step;

/* Called once per decision, after the choice was made (and, for an action,
 * applied), with the state the policy saw: `graph` (__isl_keep, valid
 * during the call only; its focus is the step's branch) and the mask the
 * choice was made under (`mask`, __isl_keep: the rules' mask plus the
 * choices found illegal before this one; the chosen action is unmasked).
 * This is what training records of an episode. A nonzero return stops the
 * episode with an error. */
typedef int (*pearl_agent_observe_fn)(void *user,
				      const struct pearl_graph *graph,
				      const unsigned char *mask,
				      const struct pearl_agent_step *step);

struct pearl_agent_options {
	int sample;           /* 0: greedy (argmax); 1: sample */
	uint64_t seed;        /* seed of the sampler */
	int max_branch_steps; /* actions per branch before N is forced */
	int max_steps;        /* actions per episode (all branches) */
	long min_parallel_work; /* smallest parallel loop, in innermost
				 * iterations per execution; 0: no limit */
	pearl_agent_observe_fn observe; /* NULL: no observer */
	void *observe_user;             /* passed to observe */
	/* The critic's beam: with a critic (kept; NULL: none), the episode
	 * is not one rollout but a beam search. The greedy episode runs
	 * first. Then, from the initial state, every state of the beam is
	 * expanded by the policy's beam_top_k best legal decisions under
	 * the masks above (N included), each child is valued by the
	 * critic's value head on the graph of its schedule (no branch in
	 * focus; pearl-critic trains it to predict log2 of the speedup),
	 * and the beam_width highest stay. A child that takes N on the last
	 * branch is a complete episode. The complete episode the critic
	 * values highest is applied, but only if it values it above the
	 * greedy episode's; otherwise the greedy episode is. `sample` and
	 * `observe` are not used. */
	const pearl_policy *critic;
	int beam_width; /* states kept per step (default 4) */
	int beam_top_k; /* decisions tried per state (default 3) */
	/* Seconds the beam may take after the greedy episode (0: no
	 * limit); past them it stops expanding and the best complete
	 * episode so far competes with the greedy one. */
	double beam_seconds;
	/* The rule of uniform parallelism (above): 1 (default) applies it,
	 * 0 leaves the episode as the policy chose it. */
	int uniform_parallel;
	/* The rule of parallel fill (above): 1 (default) applies it, 0
	 * leaves serial the branches the policy left serial. */
	int fill_parallel;
	/* 1: the policy may choose K (copies); 0 (default): K is masked for
	 * it (above). */
	int copies;
};

/* The default smallest parallel loop: fork and join cost a few
 * microseconds on the machines Pearl was measured on, about what 2^14
 * innermost iterations of a small body take. Below it, schedules that run
 * a loop in parallel inside a sequential one were measured 10-20x slower
 * (polybench durbin, atax, jacobi-1d at MEDIUM). */
#define PEARL_AGENT_MIN_PARALLEL_WORK 16384L

/* Greedy, seed 0, 8 actions per branch, 64 per episode,
 * PEARL_AGENT_MIN_PARALLEL_WORK, no observer, no critic (beam 4 x 3),
 * uniform parallelism. */
void pearl_agent_options_init(struct pearl_agent_options *opts);

/* One decision of an episode. */
struct pearl_agent_step {
	int branch;     /* the branch in focus */
	int action;     /* the chosen action's number (PEARL_ACTION_NEXT: N) */
	int forced;     /* N forced by the step cap */
	float value;    /* the critic's estimate of the state */
	float prob;     /* probability of the choice under the final mask */
	int n_illegal;  /* choices found illegal before this one */
	int rule;       /* a pearl_agent_rule: pearl_agent_rule_none if the
			 * policy chose it; else added by that rule (value
			 * 0, prob 1) */
};

/* Who added a step of an episode. */
enum pearl_agent_rule {
	pearl_agent_rule_none = 0,    /* the policy */
	pearl_agent_rule_uniform = 1, /* the rule of uniform parallelism */
	pearl_agent_rule_fill = 2     /* the rule of parallel fill */
};

/* What an episode did. */
struct pearl_agent_trace {
	struct pearl_agent_step *steps; /* owned */
	int n_steps;
	int n_branches;
	int n_illegal;      /* illegal choices over the episode */
	double seconds;     /* graph + inference + legality, wall clock */
	double seconds_graph;    /* building graphs */
	double seconds_policy;   /* the network's forward passes */
	double seconds_legality; /* applying (and refusing) actions */
	/* The episode stopped because the policy could not be evaluated
	 * (e.g. non-finite outputs), not because of the program. */
	int policy_failed;
	/* The critic's beam only (beam_width 0 otherwise): */
	int beam_width;
	int beam_scored;         /* schedules the critic valued */
	float critic_value;      /* of the applied episode's schedule */
	float greedy_value;      /* of the greedy episode's schedule */
	int beam_chose_greedy;   /* no episode was valued above greedy's */
	int beam_timed_out;      /* stopped by beam_seconds */
	/* The rule of uniform parallelism: sequential loops it made uniform,
	 * P it added (steps with pearl_agent_rule_uniform) and P of the
	 * policy it dropped. */
	int n_uniform_loops;
	int n_uniform_added;
	int n_uniform_dropped;
	/* The rule of parallel fill: P it added (steps with
	 * pearl_agent_rule_fill). */
	int n_fill_added;
};

/* Runs an episode of `policy` (kept) on `sched` (kept), which it
 * transforms (the critic's beam if opts->critic is set; then the rule of
 * uniform parallelism if opts->uniform_parallel is, whose time counts as
 * legality's); fills *trace (the caller clears it with
 * pearl_agent_trace_clear, also on error). pearl_stat_error with a message
 * in the program's context if a graph cannot be built or the policy fails;
 * the schedule then holds the legal actions applied so far. */
pearl_stat pearl_agent_run(pearl_sched *sched, const pearl_policy *policy,
			   const struct pearl_agent_options *opts,
			   struct pearl_agent_trace *trace);
void pearl_agent_trace_clear(struct pearl_agent_trace *trace);

/* The episode's applied actions as a sequence for
 * pearl_sched_apply_sequence (N between branches, none after the last
 * branch with an action): *actions is malloc'd (caller frees). Returns the
 * number of actions, or -1 if memory is exhausted. */
int pearl_agent_trace_actions(const struct pearl_agent_trace *trace,
			      struct pearl_action **actions);

/* Appends to `out` the remark of an episode (`trace`, kept) of the
 * sampling agent (`sample`) or the greedy one that chose `actions` (n of
 * them as pearl_agent_trace_actions orders them, kept), as the MLIR pass
 * and the clang plugin both say it:
 *   pearl-schedule: agent (greedy) chose "T(1,2,32,128) P(1) U(4)" (2
 *   branches, 6 decisions, 1 illegal choices masked, value 0.724; decided
 *   in 4.10 ms: graphs 1.20, network 2.00, legality 0.90)
 * ("kept the original schedule" instead of chose "..." when n is 0). */
void pearl_agent_format_remark(pearl_str *out,
			       const struct pearl_agent_trace *trace,
			       const struct pearl_action *actions, int n,
			       int sample);

/* Runs an episode as pearl_agent_run does (`sched` is transformed; the
 * trace is not kept) and returns its applied actions in Pearl's notation,
 * as pearl_agent_trace_actions orders them ("" for none): malloc'd
 * (caller frees), or NULL with an error in the program's context (the
 * policy failed, or memory is exhausted). */
char *pearl_agent_schedule(pearl_sched *sched, const pearl_policy *policy,
			   const struct pearl_agent_options *opts);

/* What the agent remembers of the branch in focus. */
struct pearl_branch_state {
	unsigned char tried[PEARL_ACTION_SPACE_SIZE]; /* applied or illegal */
	int phase; /* latest enum pearl_action_phase applied, -1 if none */
	int tiled; /* a tiling was applied */
	long min_parallel_work; /* as in pearl_agent_options */
	int copies; /* K may be chosen (where copies are made) */
	int jam_rules; /* no second J on a loop of jammed[], none on a
			* tile loop */
	unsigned jammed; /* bit l: J applied to loop l of the branch */
};
/* Nothing tried, no phase, PEARL_AGENT_MIN_PARALLEL_WORK, copies allowed,
 * jams stackable (the agent sets min_parallel_work and copies from its
 * options, and jam_rules; the search and the baselines keep these
 * defaults). */
void pearl_branch_state_init(struct pearl_branch_state *state);
/* Records in `state` that action `id` was applied to the branch: tried,
 * its phase reached, tiled if it tiles, its loop jammed if it jams. */
void pearl_branch_state_applied(struct pearl_branch_state *state, int id);

/* The mask of branch `b` of `sched` (kept) before legality: mask[id] = 1
 * for every action the rules above exclude in `state` (kept), given the
 * branch's graph `graph` (kept, built with `b` in focus: its parallel and
 * unrolled tags are read). Returns 0, or -1 with an error in the
 * program's context. */
int pearl_agent_mask(pearl_sched *sched, int b,
		     const struct pearl_branch_state *state,
		     const struct pearl_graph *graph, unsigned char *mask);

#ifdef __cplusplus
}
#endif

#endif
