/* Random schedules in Pearl's notation for one program (fuzz.h).
 *
 * The agent's order rules do not bind explicit schedules, so none bind
 * these: several tilings of one branch, skews and reversals after a
 * tiling, unrolling before interchange, and so on. Three modes:
 *
 *   guided  every action is tried on a copy of the program's schedule
 *           (pearl_sched_apply, which checks legality and adds the loops a
 *           tiling makes); a refused action is dropped, except in one
 *           schedule in ten, which ends with the first refused action
 *           (illegal on purpose). Levels are drawn within the branch's
 *           current depth. The copy verifies its legality tests against
 *           the full dependence check (pearl_sched_set_verify): a
 *           disagreement ends the program with an error.
 *   blind   the same draws, legality not checked; depths are the branches'
 *           original ones plus the loops the schedule's own tilings add.
 *   wild    any levels (also negative and beyond the depth), tile sizes,
 *           unroll and skew factors from 0 and negatives to the notation's
 *           limit, long runs of N, and now and then malformed text.
 *
 * Sizes and factors favour odd and prime values (1, 2, 3, 5, 7, 13, ...)
 * besides the powers of two the policy uses; skews come with explicit
 * factors, negative ones included, or without (the solver's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pearl/random.h"

/* isl operations allowed per schedule drawn (the environment's quota). */
#define GEN_MAX_OPERATIONS 20000000UL
/* Longest schedule drawn. */
#define GEN_MAX_ACTIONS 24

/* A number in [0, n). */
static int draw(uint64_t *rng, int n)
{
	return n > 0 ? (int)(pearl_splitmix64(rng) % (uint64_t)n) : 0;
}

/* 1 with probability percent / 100. */
static int chance(uint64_t *rng, int percent)
{
	return draw(rng, 100) < percent;
}

/* An index in [0, n) drawn with the given weights. */
static int draw_weighted(uint64_t *rng, const int *weights, int n)
{
	int x = draw(rng, pearl_weights_total(weights, n));

	return pearl_weighted_index(weights, n, x);
}

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const int tile_sizes[] = { 1, 2, 3, 4, 5, 7, 8, 13, 16, 32, 64 };
static const int tile_weights[] = { 6, 10, 10, 8, 10, 8, 6, 8, 6, 6, 2 };
static const int unroll_factors[] = { 2, 3, 4, 5, 7, 8, 13, 16, 32 };
/* Explicit skew factors (a, b): (i, j) -> (a*i + b*j, ...); coprime. */
static const int skew_factors[][2] = {
	{ 1, 1 }, { 1, -1 }, { -1, 1 }, { 2, 1 }, { 1, 2 }, { 2, -1 },
	{ -1, 2 }, { 3, 2 }, { 3, -2 }, { 1, -3 }, { 5, 3 }, { -1, -1 },
	{ 1, 0 }, { 0, 1 }, { 7, -5 },
};
/* Values of the wild mode for levels beyond the depth, sizes, factors. */
static const int wild_sizes[] = { -3, -1, 0, 1, 2, 3, 5, 13, 127, 1000,
				  999983, 1000000 };
static const int wild_factors[] = { -1000000, -13, -2, -1, 0, 1, 2, 3, 4,
				    6, 13, 1000000 };

enum draw_kind { k_inter, k_rev, k_skew, k_tile2, k_tile3, k_unroll, k_par,
		 k_dist, k_fuse, k_jam, k_vec, k_copy, n_draw_kinds };
static const int kind_weights[] = { 15, 10, 15, 20, 8, 12, 12, 8, 8, 8, 6,
				    6 };
/* Vector widths of V (the wild mode draws others). */
static const int vector_widths[] = { 2, 4, 8, 16 };
/* Explicit shifts of a fusion. */
static const int fuse_shifts[] = { -2, -1, 0, 1, 2, 3 };

/* Draws the kind of an action for a branch of depth d (>= 1): only kinds
 * with enough loops. */
static enum draw_kind draw_kind(uint64_t *rng, int d)
{
	int w[n_draw_kinds];

	memcpy(w, kind_weights, sizeof(w));
	if (d < 2)
		w[k_inter] = w[k_skew] = w[k_tile2] = w[k_jam] = 0;
	if (d < 3)
		w[k_tile3] = 0;
	return (enum draw_kind)draw_weighted(rng, w, n_draw_kinds);
}

static int draw_tile_size(uint64_t *rng)
{
	return tile_sizes[draw_weighted(rng, tile_weights, N_OF(tile_sizes))];
}

/* An action for a branch of depth d (>= 1), its levels within the depth:
 * into *a. */
static void draw_sane_action(uint64_t *rng, int d, struct pearl_action *a)
{
	enum draw_kind kind = draw_kind(rng, d);
	int i, k;

	memset(a, 0, sizeof(*a));
	switch (kind) {
	case k_inter:
		a->kind = pearl_action_interchange;
		a->n_level = 2;
		a->level[0] = draw(rng, d);
		a->level[1] = (a->level[0] + 1 + draw(rng, d - 1)) % d;
		break;
	case k_rev:
		a->kind = pearl_action_reverse;
		a->n_level = 1;
		a->level[0] = draw(rng, d);
		break;
	case k_skew:
		a->kind = pearl_action_skew;
		a->n_level = 2;
		a->level[0] = draw(rng, d - 1);
		a->level[1] = a->level[0] + 1;
		if (chance(rng, 75)) {
			k = draw(rng, N_OF(skew_factors));
			a->factor[0] = skew_factors[k][0];
			a->factor[1] = skew_factors[k][1];
		}
		break;
	case k_tile2:
	case k_tile3:
		a->kind = pearl_action_tile;
		a->n_level = kind == k_tile3 ? 3 : 2;
		a->level[0] = draw(rng, d - a->n_level + 1);
		for (i = 0; i < a->n_level; ++i) {
			a->level[i] = a->level[0] + i;
			a->size[i] = draw_tile_size(rng);
		}
		break;
	case k_unroll:
		a->kind = pearl_action_unroll;
		a->factor[0] = unroll_factors[draw(rng, N_OF(unroll_factors))];
		break;
	case k_dist:
		a->kind = pearl_action_distribute;
		a->n_level = 1;
		a->level[0] = draw(rng, d);
		if (chance(rng, 30))
			a->split = 1 + draw(rng, 3);
		break;
	case k_fuse:
		a->kind = pearl_action_fuse;
		a->n_level = 1;
		a->level[0] = draw(rng, d);
		if (chance(rng, 30)) {
			a->factor[0] = fuse_shifts[draw(rng, N_OF(fuse_shifts))];
			a->factor[1] = 1;
		}
		break;
	case k_jam:
		a->kind = pearl_action_unroll_jam;
		a->n_level = 1;
		a->level[0] = draw(rng, d - 1);
		a->factor[0] = unroll_factors[draw(rng, N_OF(unroll_factors))];
		break;
	case k_vec:
		a->kind = pearl_action_vectorize;
		a->factor[0] = vector_widths[draw(rng, N_OF(vector_widths))];
		break;
	case k_copy:
		a->kind = pearl_action_copy;
		a->n_level = 1;
		a->level[0] = draw(rng, d);
		break;
	case k_par:
	default:
		a->kind = pearl_action_parallel;
		a->n_level = 1;
		a->level[0] = draw(rng, d);
		break;
	}
}

/* A level for the wild mode: mostly within the depth, sometimes -1 or a
 * few beyond it. */
static int wild_level(uint64_t *rng, int d)
{
	if (chance(rng, 70) && d > 0)
		return draw(rng, d);
	return draw(rng, d + 4) - 1;
}

/* An action with wild levels, sizes and factors into *a. */
static void draw_wild_action(uint64_t *rng, int d, struct pearl_action *a)
{
	int i;

	draw_sane_action(rng, d > 0 ? d : 1, a);
	switch (a->kind) {
	case pearl_action_interchange:
		a->level[0] = wild_level(rng, d);
		a->level[1] = chance(rng, 20) ? a->level[0]
					      : wild_level(rng, d);
		break;
	case pearl_action_reverse:
	case pearl_action_parallel:
	case pearl_action_copy:
		a->level[0] = wild_level(rng, d);
		break;
	case pearl_action_skew:
		a->level[0] = wild_level(rng, d);
		a->level[1] = a->level[0] + 1;
		if (chance(rng, 70)) {
			a->factor[0] = wild_factors[draw(rng,
							 N_OF(wild_factors))];
			a->factor[1] = wild_factors[draw(rng,
							 N_OF(wild_factors))];
		}
		break;
	case pearl_action_tile:
		a->level[0] = wild_level(rng, d);
		for (i = 0; i < a->n_level; ++i) {
			a->level[i] = a->level[0] + i;
			a->size[i] = chance(rng, 50)
					 ? draw_tile_size(rng)
					 : wild_sizes[draw(rng,
							   N_OF(wild_sizes))];
		}
		break;
	case pearl_action_unroll:
		a->factor[0] = chance(rng, 50)
				   ? unroll_factors[draw(rng,
							 N_OF(unroll_factors))]
				   : wild_factors[draw(rng, N_OF(wild_factors))];
		break;
	case pearl_action_distribute:
		a->level[0] = wild_level(rng, d);
		if (chance(rng, 50))
			a->split = wild_sizes[draw(rng, N_OF(wild_sizes))];
		if (a->split < 1)
			a->split = 0; /* the notation has no D(l,k) with k < 1 */
		break;
	case pearl_action_unroll_jam:
		a->level[0] = wild_level(rng, d);
		a->factor[0] = wild_factors[draw(rng, N_OF(wild_factors))];
		break;
	case pearl_action_vectorize:
		a->factor[0] = chance(rng, 50)
				   ? wild_factors[draw(rng, N_OF(wild_factors))]
				   : vector_widths[draw(rng, N_OF(vector_widths))];
		break;
	case pearl_action_fuse:
		a->level[0] = wild_level(rng, d);
		if (chance(rng, 50)) {
			a->factor[0] = wild_factors[draw(rng,
							 N_OF(wild_factors))];
			a->factor[1] = 1;
		}
		break;
	case pearl_action_next:
		break;
	}
}

/* The length of a schedule to draw: mostly short, some long. */
static int draw_length(uint64_t *rng)
{
	static const int lengths[] = { 1, 2, 3, 4, 5, 6, 8, 10, 14 };
	static const int weights[] = { 10, 16, 16, 14, 12, 10, 10, 7, 5 };

	return lengths[draw_weighted(rng, weights, N_OF(lengths))];
}

/* The schedule being drawn. */
struct drawn {
	struct pearl_action acts[GEN_MAX_ACTIONS];
	int n;
};

static void push(struct drawn *s, const struct pearl_action *a)
{
	if (s->n < GEN_MAX_ACTIONS)
		s->acts[s->n++] = *a;
}

static void push_next(struct drawn *s)
{
	struct pearl_action a;

	memset(&a, 0, sizeof(a));
	a.kind = pearl_action_next;
	push(s, &a);
}

/* Tells `trace` about the schedule so far followed by `a`. */
static void tell(const struct drawn *s, const struct pearl_action *a,
		 fuzz_trace_fn trace, void *user)
{
	struct pearl_action acts[GEN_MAX_ACTIONS + 1];
	char *text;

	if (!trace)
		return;
	memcpy(acts, s->acts, (size_t)s->n * sizeof(*acts));
	acts[s->n] = *a;
	text = fuzz_actions_str(acts, s->n + 1);
	if (text)
		trace(text, user);
	free(text);
}

/* Whether to move on to the next branch now (there is one after b). */
static int move_on(uint64_t *rng, int b, int n_branch)
{
	return b + 1 < n_branch && chance(rng, 25);
}

/* Guided drawing on `sched` (modified): see the header comment. 0, or -1
 * with the disagreement of a legality test in err. */
static int draw_guided(pearl_sched *sched, uint64_t *rng, struct drawn *s,
		       fuzz_trace_fn trace, void *user, char *err,
		       size_t err_size)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	int n_branch = pearl_sched_n_branch(sched);
	int target = draw_length(rng), attempts, b = 0, d;
	int end_illegal = chance(rng, 10);
	struct pearl_action a;
	char *text;

	pearl_sched_set_explain(sched, 0);
	pearl_sched_set_verify(sched, 1);
	pearl_ctx_set_max_operations(ctx, GEN_MAX_OPERATIONS);
	for (attempts = 0; attempts < 4 * target && s->n < target;
	     ++attempts) {
		d = pearl_sched_branch_depth(sched, b);
		if (move_on(rng, b, n_branch) || d < 1) {
			if (b + 1 >= n_branch)
				break;
			push_next(s);
			b++;
			continue;
		}
		draw_sane_action(rng, d, &a);
		tell(s, &a, trace, user);
		pearl_ctx_clear_error(ctx);
		if (pearl_sched_apply(sched, b, &a) == pearl_stat_ok) {
			push(s, &a);
		} else if (!strncmp(pearl_ctx_last_error(ctx), "verify:", 7)) {
			push(s, &a);
			text = fuzz_actions_str(s->acts, s->n);
			snprintf(err, err_size, "%s (schedule drawn: %s)",
				 pearl_ctx_last_error(ctx),
				 text ? text : "?");
			free(text);
			pearl_ctx_clear_error(ctx);
			return -1;
		} else if (end_illegal) {
			push(s, &a);
			break;
		}
	}
	pearl_ctx_clear_error(ctx);
	return 0;
}

/* The number of loops a schedule's own action adds to its branch. */
static int loops_added(const struct pearl_action *a)
{
	return a->kind == pearl_action_tile ? a->n_level : 0;
}

/* Blind drawing: depths from `sched` (kept), no legality. */
static int draw_blind(pearl_sched *sched, uint64_t *rng, struct drawn *s)
{
	int n_branch = pearl_sched_n_branch(sched);
	int target = draw_length(rng), b = 0, d, added = 0;
	struct pearl_action a;

	while (s->n < target) {
		d = pearl_sched_branch_depth(sched, b) + added;
		if (move_on(rng, b, n_branch) || d < 1) {
			if (b + 1 >= n_branch)
				break;
			push_next(s);
			b++;
			added = 0;
			continue;
		}
		draw_sane_action(rng, d, &a);
		added += loops_added(&a);
		push(s, &a);
	}
	return 0;
}

/* Wild drawing: depths from `sched` (kept) as a rough guide only. */
static int draw_wild(pearl_sched *sched, uint64_t *rng, struct drawn *s)
{
	int n_branch = pearl_sched_n_branch(sched);
	int target = 1 + draw(rng, 20), b = 0, d;
	struct pearl_action a;

	while (s->n < target) {
		if (chance(rng, 15)) {
			push_next(s);
			b++;
			continue;
		}
		d = b < n_branch ? pearl_sched_branch_depth(sched, b) : 2;
		draw_wild_action(rng, d < 0 ? 0 : d, &a);
		push(s, &a);
	}
	return 0;
}

/* Breaks `text` (modified) at a random place: a parenthesis or comma
 * dropped, a letter changed, an argument emptied. */
static void garble(char *text, uint64_t *rng)
{
	static const char junk[] = "QZ(,)-+ x9";
	size_t len = strlen(text);
	size_t at;

	if (len == 0)
		return;
	at = (size_t)draw(rng, (int)len);
	if (chance(rng, 50)) {
		memmove(text + at, text + at + 1, len - at);
		return;
	}
	text[at] = junk[draw(rng, (int)sizeof(junk) - 1)];
}

enum fuzz_gen_mode fuzz_draw_mode(uint64_t *rng)
{
	static const int weights[fuzz_n_gen_modes] = { 65, 20, 15 };

	return (enum fuzz_gen_mode)draw_weighted(rng, weights,
						 fuzz_n_gen_modes);
}

char *fuzz_random_schedule(pearl_sched *base, uint64_t *rng,
			   enum fuzz_gen_mode mode, fuzz_trace_fn trace,
			   void *user, char *err, size_t err_size)
{
	struct drawn s;
	pearl_sched *copy;
	char *text;

	memset(&s, 0, sizeof(s));
	if (mode == fuzz_gen_guided) {
		copy = pearl_sched_copy(base);
		if (!copy) {
			snprintf(err, err_size, "cannot copy the schedule");
			return NULL;
		}
		if (draw_guided(copy, rng, &s, trace, user, err,
				err_size) < 0) {
			pearl_sched_free(copy);
			return NULL;
		}
		pearl_sched_free(copy);
	} else if (mode == fuzz_gen_blind) {
		draw_blind(base, rng, &s);
	} else {
		draw_wild(base, rng, &s);
	}
	/* a trailing N changes nothing (the environment drops it) */
	while (mode != fuzz_gen_wild && s.n > 0 &&
	       s.acts[s.n - 1].kind == pearl_action_next)
		s.n--;
	text = fuzz_actions_str(s.acts, s.n);
	if (!text) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (mode == fuzz_gen_wild && chance(rng, 5))
		garble(text, rng);
	return text;
}
