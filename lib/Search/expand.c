/* Proposals of the beam search: the children of a state (search_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/action_space.h"
#include "pearl/features.h"
#include "pearl/grow.h"
#include "pearl/train.h"
#include "search_internal.h"

/* The heuristic's actions: the data-driven paper's rules, as pearl-eval's
 * baseline applies them (T(L,L+1,32,32) for L = 0..3, P(0), P(1), U(4)),
 * after the interchanges I(L,L+1), L = 0..3, which the compiled-in policy
 * ranks low (it never interchanges) and without which loop orders such
 * as matmul's j-k-i are out of reach. */
static const int heuristic_ids[] = {0, 1, 2, 3, 14, 15, 16, 17, 12, 13, 51};
#define N_HEURISTIC ((int)(sizeof(heuristic_ids) / sizeof(heuristic_ids[0])))

void search_state_clear(struct search_state *s)
{
	pearl_sched_free(s->sched);
	free(s->schedule);
	s->sched = NULL;
	s->schedule = NULL;
}

void search_states_clear(struct search_states *v)
{
	int i;

	for (i = 0; i < v->n; ++i)
		search_state_clear(&v->s[i]);
	free(v->s);
	v->s = NULL;
	v->n = v->cap = 0;
}

int search_states_push(struct search_states *v, struct search_state *s)
{
	if (pearl_grow(&v->s, &v->cap, v->n + 1, sizeof(*v->s)) < 0) {
		search_state_clear(s);
		return -1;
	}
	v->s[v->n++] = *s;
	return 0;
}

/* Whether some state of `v` (kept) has the schedule text `schedule`. */
static int has_schedule(const struct search_states *v, const char *schedule)
{
	int i;

	for (i = 0; i < v->n; ++i)
		if (strcmp(v->s[i].schedule, schedule) == 0)
			return 1;
	return 0;
}

/* A proposal: up to MAX_CHAIN actions applied in a row on one branch:
 * actions of the policy's action space (ids[i] >= 0, acts[i] unused until
 * decoded), or actions beyond it (ids[i] = -1, acts[i] set). */
#define MAX_CHAIN 4
struct proposal {
	int ids[MAX_CHAIN];
	struct pearl_action acts[MAX_CHAIN];
	int n;
};

/* The i-th action of `prop` (kept) into *a. */
static void proposal_action(const struct proposal *prop, int i,
			    struct pearl_action *a)
{
	if (prop->ids[i] >= 0)
		pearl_action_space_decode(prop->ids[i], a);
	else
		*a = prop->acts[i];
}

/* The widths and factors the search tries for V and J: AVX-512's doubles
 * and floats, and a jam of 4 (an 4 x 8 or 4 x 16 register tile). */
#define SEARCH_VECTOR_F64 8
#define SEARCH_VECTOR_F32 16
#define SEARCH_JAM 4
/* Loops of a branch the extended actions are proposed on. */
#define SEARCH_MAX_LEVELS 8
/* Proposals on a branch at most: the action space, the interchange
 * chains, the extended actions (D and J per level, V twice). */
#define MAX_PROPOSALS \
	(PEARL_ACTION_SPACE_SIZE + 2 * MAX_CHAIN + 2 * SEARCH_MAX_LEVELS + 2)

/* Whether the agent's rules allow the action `a` beyond the policy's
 * proposals on a branch: by the mask `rules` of its id when it has one
 * (the order of the phases, one vector width per branch, no jam of an
 * unrolled loop, ...), else by the order of the phases alone
 * (pearl_action_phase), so that every
 * schedule the search finds is one the agent could take. */
static int extended_allowed(const struct pearl_action *a,
			    const unsigned char *rules,
			    const struct pearl_branch_state *state)
{
	int id = pearl_action_space_encode(a);

	if (id >= 0)
		return !rules[id];
	return (int)pearl_action_phase(a) >= state->phase;
}

/* Appends to props[*n] the actions of the action space v2 that the search
 * tries on a branch of `depth` loops whatever the policy's logits say
 * (a policy that has not learned them never proposes them; ids 56-69
 * cover part of them, with more levels here), where the agent's rules allow them: the
 * distribution of each of its loops, the unroll-and-jam of each loop but
 * the innermost by SEARCH_JAM, and the vectorization of the innermost
 * loop (8 and 16 lanes). The legality checks refuse those that do not fit
 * (a loop around a single part, a jam that reorders a dependence). */
static void add_extended_actions(int depth, const unsigned char *rules,
				 const struct pearl_branch_state *state,
				 struct proposal *props, int *n)
{
	static const int widths[] = { SEARCH_VECTOR_F64, SEARCH_VECTOR_F32 };
	struct proposal p = {{-1}, {{0}}, 1};
	int l, i;

	for (l = 0; l < depth && l < SEARCH_MAX_LEVELS; ++l) {
		memset(&p.acts[0], 0, sizeof(p.acts[0]));
		p.acts[0].kind = pearl_action_distribute;
		p.acts[0].level[0] = l;
		p.acts[0].n_level = 1;
		if (extended_allowed(&p.acts[0], rules, state))
			props[(*n)++] = p;
	}
	for (l = 0; l + 1 < depth && l < SEARCH_MAX_LEVELS; ++l) {
		memset(&p.acts[0], 0, sizeof(p.acts[0]));
		p.acts[0].kind = pearl_action_unroll_jam;
		p.acts[0].level[0] = l;
		p.acts[0].n_level = 1;
		p.acts[0].factor[0] = SEARCH_JAM;
		if (extended_allowed(&p.acts[0], rules, state))
			props[(*n)++] = p;
	}
	for (i = 0; depth > 0 && i < 2; ++i) {
		memset(&p.acts[0], 0, sizeof(p.acts[0]));
		p.acts[0].kind = pearl_action_vectorize;
		p.acts[0].factor[0] = widths[i];
		if (extended_allowed(&p.acts[0], rules, state))
			props[(*n)++] = p;
	}
}

void search_append_next(pearl_str *out, int n)
{
	for (; n > 0; --n)
		pearl_str_append(out, out->len ? " N" : "N");
}

/* The parent's schedule text followed by `skips` N and the actions of
 * `prop` (malloc'd; NULL if memory is exhausted). */
static char *child_text(const char *parent, int skips,
			const struct proposal *prop)
{
	pearl_str out = PEARL_STR_INIT;
	struct pearl_action a;
	char token[64];
	int i;

	pearl_str_append(&out, parent);
	search_append_next(&out, skips);
	for (i = 0; i < prop->n; ++i) {
		proposal_action(prop, i, &a);
		pearl_action_format(&a, token, sizeof(token));
		if (out.len)
			pearl_str_append(&out, " ");
		pearl_str_append(&out, token);
	}
	return pearl_str_take(&out);
}

/* Appends to props[*n] the interchange chains that move loop L of a branch
 * of `depth` loops innermost, I(L,L+1) ... I(depth-2,depth-1), for every
 * L that needs two interchanges or more and whose interchanges the mask
 * allows: in one step, the loop orders that put the loop with contiguous
 * accesses innermost (matmul j-k-i to k-i-j), whose first interchange
 * alone is often no faster and would leave the beam. Then the chains that
 * move loop L outermost, I(L-1,L) ... I(0,1), for every L >= 2 (matmul
 * i-j-k to k-i-j, the order whose innermost loop runs along the rows of
 * both B and C and whose outer loop is the reduction). */
static void add_interchange_chains(const unsigned char *mask, int depth,
				   struct proposal *props, int *n)
{
	int L, l;

	for (L = 0; L + 2 < depth && depth - 1 - L <= MAX_CHAIN; ++L) {
		struct proposal p = {{0}, {{0}}, 0};

		for (l = L; l + 1 < depth; ++l) {
			if (l > 3 || mask[l]) /* I(l,l+1) is action l */
				break;
			p.ids[p.n++] = l;
		}
		if (l + 1 == depth)
			props[(*n)++] = p;
	}
	for (L = 2; L < depth && L <= MAX_CHAIN; ++L) {
		struct proposal p = {{0}, {{0}}, 0};

		for (l = L - 1; l >= 0; --l) {
			if (l > 3 || mask[l])
				break;
			p.ids[p.n++] = l;
		}
		if (l < 0)
			props[(*n)++] = p;
	}
}

/* The context of `sched` (kept), its isl operations count reset: each
 * graph and each child of the search gets the whole quota (set by the
 * environment per program), as each candidate's legality check and code
 * generation do. Sharing one quota over a search's thousands of applies
 * would refuse legal children of large programs once it ran out. */
static pearl_ctx *fresh_quota(pearl_sched *sched)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));

	pearl_ctx_reset_operations(ctx);
	return ctx;
}

/* The graph of branch b of `sched` (kept) in `state` (kept), with the
 * agent's mask of the branch in mask[]: the caller frees the graph. NULL
 * with a message in err if either cannot be made. */
static struct pearl_graph *masked_graph(pearl_sched *sched, int b,
					const struct pearl_branch_state *state,
					unsigned char *mask, char *err,
					size_t err_size)
{
	struct pearl_graph *g;

	fresh_quota(sched);
	g = pearl_graph_build(sched, b);

	if (g && pearl_agent_mask(sched, b, state, g, mask) == 0)
		return g;
	pearl_graph_free(g);
	snprintf(err, err_size, "search: no graph or mask of branch %d: %s", b,
		 pearl_ctx_last_error(
		     pearl_program_get_ctx(pearl_sched_get_program(sched))));
	return NULL;
}

/* The proposals on branch b of `sched` (kept) in `state` (kept), into
 * props[] in rank order: the policy's top_k actions by logit among the
 * actions the masks allow, then the heuristic's the masks allow and the
 * policy did not rank, then the interchange chains. Returns their number,
 * or -1 with a message in err. */
static int proposals(pearl_sched *sched, int b,
		     const struct pearl_branch_state *state,
		     const pearl_policy *policy, int top_k, int extended,
		     struct proposal *props, char *err, size_t err_size)
{
	unsigned char mask[PEARL_ACTION_SPACE_SIZE], rules[PEARL_ACTION_SPACE_SIZE];
	struct pearl_graph *g = masked_graph(sched, b, state, mask, err,
					     err_size);
	float logits[PEARL_N_ACTIONS], value;
	int n = 0, i, k;

	if (!g)
		return -1;
	if (pearl_policy_eval(policy, g, logits, &value, err, err_size) < 0) {
		pearl_graph_free(g);
		return -1;
	}
	pearl_graph_free(g);
	mask[PEARL_ACTION_NEXT] = 1;
	memcpy(rules, mask, sizeof(rules));
	for (k = 0; k < top_k; ++k) {
		int best = pearl_masked_argmax(logits, mask,
					       PEARL_ACTION_SPACE_SIZE);

		if (best < 0)
			break;
		props[n].ids[0] = best;
		props[n++].n = 1;
		mask[best] = 1;
	}
	for (i = 0; i < N_HEURISTIC; ++i)
		if (!mask[heuristic_ids[i]]) {
			props[n].ids[0] = heuristic_ids[i];
			props[n++].n = 1;
			mask[heuristic_ids[i]] = 1;
		}
	add_interchange_chains(rules, pearl_sched_branch_depth(sched, b),
			       props, &n);
	if (extended)
		add_extended_actions(pearl_sched_branch_depth(sched, b), rules,
				     state, props, &n);
	return n;
}

/* Records in `state` the phase of `a`, an action without an id (D, J on
 * loops beyond the ids' levels), as pearl_branch_state_applied does for
 * the actions with one. */
static void note_phase(struct pearl_branch_state *state,
		       const struct pearl_action *a)
{
	if ((int)pearl_action_phase(a) > state->phase)
		state->phase = pearl_action_phase(a);
}

/* Applies the actions of `prop` to branch b of a copy of the parent's
 * schedule, and appends the child unless the dependences refuse one of
 * them (or the isl quota runs out on it: counted apart, in counts->quota)
 * or `children` already holds its text (another parent's child).
 * 0, or -1 with a message in err. */
static int add_child(const struct search_state *parent, int b,
		     const struct pearl_branch_state *state,
		     const struct proposal *prop, double prior,
		     struct search_states *children,
		     struct search_counts *counts, char *err, size_t err_size)
{
	struct search_state child = {0};
	struct pearl_action a;
	pearl_ctx *ctx;
	int i, id;

	child.schedule = child_text(parent->schedule, b - parent->branch, prop);
	if (child.schedule && has_schedule(children, child.schedule)) {
		search_state_clear(&child);
		return 0;
	}
	/* the schedule is copied only for a child not held yet */
	child.sched = child.schedule ? pearl_sched_copy(parent->sched) : NULL;
	if (!child.sched) {
		search_state_clear(&child);
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	ctx = fresh_quota(child.sched);
	child.branch_state = *state;
	for (i = 0; i < prop->n; ++i) {
		proposal_action(prop, i, &a);
		if (pearl_sched_apply(child.sched, b, &a) != pearl_stat_ok) {
			if (pearl_ctx_quota_exceeded(ctx))
				counts->quota++;
			else
				counts->illegal++;
			pearl_ctx_clear_error(ctx);
			search_state_clear(&child);
			return 0;
		}
		id = prop->ids[i] >= 0 ? prop->ids[i]
				       : pearl_action_space_encode(&a);
		if (id >= 0)
			pearl_branch_state_applied(&child.branch_state, id);
		else /* beyond the ids: its phase is reached all the same */
			note_phase(&child.branch_state, &a);
	}
	child.branch = b;
	child.last_kind = prop->n > 0 ? (int)a.kind : -1;
	child.prior = prior;
	child.seq = children->n;
	if (search_states_push(children, &child) < 0) {
		snprintf(err, err_size, "search: out of memory");
		return -1;
	}
	return 0;
}

/* The agent's memory of a branch it has not acted on yet, as `o` sets
 * it up. */
static void new_branch_state(struct pearl_branch_state *state,
			     const struct pearl_search_options *o)
{
	pearl_branch_state_init(state);
	state->min_parallel_work = o->min_parallel_work;
}

int search_expand(const struct search_state *parent,
		  const pearl_policy *policy,
		  const struct pearl_search_options *o, int last_branch,
		  struct search_states *children,
		  struct search_counts *counts, char *err, size_t err_size)
{
	int n_branch = pearl_sched_n_branch(parent->sched), b;
	int with_children = 0;

	if (last_branch < n_branch - 1)
		n_branch = last_branch + 1;
	/* Branches where the dependences refuse every proposal (a nest
	 * with a scalar carried through all its loops) are passed over, so
	 * that the nests after them are reached. */
	for (b = parent->branch; b < n_branch && with_children < 2; ++b) {
		struct pearl_branch_state state = parent->branch_state;
		struct proposal props[MAX_PROPOSALS];
		int n, i, before = children->n;

		if (b != parent->branch)
			new_branch_state(&state, o);
		n = proposals(parent->sched, b, &state, policy, o->top_k,
			      o->extended_actions, props, err, err_size);
		if (n < 0)
			return -1;
		for (i = 0; i < n; ++i) {
			double prior = i + (b - parent->branch) * 0.5;

			if (add_child(parent, b, &state, &props[i], prior,
				      children, counts, err, err_size) < 0)
				return -1;
		}
		with_children += children->n > before;
	}
	return 0;
}

/* Whether the first action of `prop` (kept) reorders the loops of its
 * branch: an interchange (alone or the first of a chain) or an
 * unroll-and-jam. */
static int reorders(const struct proposal *prop)
{
	struct pearl_action a;

	proposal_action(prop, 0, &a);
	return a.kind == pearl_action_interchange ||
	       a.kind == pearl_action_unroll_jam;
}

int search_expand_reorderings(const struct search_state *parent, int b,
			      const pearl_policy *policy,
			      const struct pearl_search_options *o,
			      struct search_states *children,
			      struct search_counts *counts, char *err,
			      size_t err_size)
{
	struct proposal props[MAX_PROPOSALS];
	struct pearl_branch_state state;
	int n, i;

	if (b <= parent->branch || b >= pearl_sched_n_branch(parent->sched))
		return 0;
	new_branch_state(&state, o);
	n = proposals(parent->sched, b, &state, policy, o->top_k,
		      o->extended_actions, props, err, err_size);
	if (n < 0)
		return -1;
	for (i = 0; i < n; ++i)
		if (reorders(&props[i]) &&
		    add_child(parent, b, &state, &props[i], i, children,
			      counts, err, err_size) < 0)
			return -1;
	return 0;
}

int search_child(const struct search_state *parent,
		 const struct pearl_action *a, struct search_state *child, struct search_counts *counts,
		 char *err, size_t err_size)
{
	unsigned char rules[PEARL_ACTION_SPACE_SIZE];
	struct search_states one = {0};
	struct proposal prop = {{-1}, {{0}}, 1};
	int b = parent->branch;
	struct pearl_graph *g = masked_graph(parent->sched, b,
					     &parent->branch_state, rules, err,
					     err_size);

	if (!g)
		return -1;
	pearl_graph_free(g);
	if (!extended_allowed(a, rules, &parent->branch_state))
		return 0;
	prop.acts[0] = *a;
	prop.ids[0] = pearl_action_space_encode(a);
	if (add_child(parent, b, &parent->branch_state, &prop, 0, &one,
		      counts, err, err_size) < 0)
		return -1;
	if (one.n == 0)
		return 0;
	*child = one.s[0];
	free(one.s);
	return 1;
}
