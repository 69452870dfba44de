/* The actions that restructure the schedule tree: loop distribution D and
 * loop fusion F (with a shift). Both take subtrees apart and put them
 * together in a new shape (subtree.c). An exact test on the dependences
 * decides a distribution; fusion and the interchange across a sequence go
 * through the full legality check of pearl_sched_commit. */
#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/schedule_node.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

/* The largest shift fusion without an explicit one chooses: beyond it the
 * fused loop would mostly run the two bodies in different iterations (a
 * loop of 40 reading another backwards needs a shift of 39). */
#define PEARL_MAX_FUSE_SHIFT 16

/* The schedule of `sched` with the subtree at `at` (kept) replaced by `by`
 * (taken). */
static __isl_give isl_schedule *replaced(pearl_sched *sched,
					 __isl_keep isl_schedule_node *at,
					 __isl_take isl_schedule *by)
{
	struct pearl_subtree_edit edit = { at, by };
	isl_schedule_node *root;
	isl_schedule *s;

	if (!by)
		return NULL;
	root = isl_schedule_get_root(pearl_sched_peek(sched));
	s = pearl_subtree_schedule(root, &edit);
	isl_schedule_node_free(root);
	isl_schedule_free(by);
	return s;
}

/* The instances of parts first..last of `body` (kept, a sequence or set)
 * (__isl_give). */
static __isl_give isl_union_set *parts_domain(__isl_keep isl_schedule_node *body,
					      int first, int last)
{
	isl_union_set *dom = NULL;
	int i;

	for (i = first; i <= last; ++i) {
		/* below the filter: the instances it lets through */
		isl_schedule_node *in = isl_schedule_node_child(
		    isl_schedule_node_get_child(body, i), 0);
		isl_union_set *d = isl_schedule_node_get_domain(in);

		isl_schedule_node_free(in);
		dom = dom ? isl_union_set_union(dom, d) : d;
	}
	return dom;
}

/* Whether distributing loop `l` of branch `b` over the `n` parts of its
 * body `body` (kept) keeps every dependence (*legal): no dependence runs
 * backwards across a cut between two groups (split as in distribute). */
static pearl_stat distribution_legal(pearl_sched *sched, int b, int l,
				     __isl_keep isl_schedule_node *body,
				     int n, int split, int *legal)
{
	int cut, backward = 0;

	for (cut = split > 0 ? split : 1; cut < n && !backward;
	     cut = split > 0 ? n : cut + 1) {
		isl_union_set *before = parts_domain(body, 0, cut - 1);
		isl_union_set *after = parts_domain(body, cut, n - 1);
		pearl_stat st = pearl_stat_error;

		if (before && after)
			st = pearl_sched_branch_loop_splits_backward(
			    sched, b, l, before, after, &backward);
		else
			pearl_ctx_isl_error(pearl_sched_ctx(sched),
					    "distribution");
		isl_union_set_free(before);
		isl_union_set_free(after);
		if (st < 0)
			return st;
	}
	*legal = !backward;
	return pearl_stat_ok;
}

/* Distribution: loop `l` of branch `b` becomes one loop per group of the
 * parts of its body (the children of the sequence it holds), in their
 * order. With `split` > 0, two groups: parts 0..split-1 and split..; with
 * `split` 0, one group per part. */
static pearl_stat distribute(pearl_sched *sched, int b, int l, int split)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_schedule_node *band, *body;
	isl_schedule *acc = NULL;
	isl_size n = 0;
	int first, last, legal = 0;
	char action[32], reason[96];

	band = pearl_sched_branch_loop(sched, b, l, NULL);
	if (!band)
		return pearl_stat_error;
	body = isl_schedule_node_get_child(band, 0);
	if (isl_schedule_node_get_type(body) == isl_schedule_node_sequence ||
	    isl_schedule_node_get_type(body) == isl_schedule_node_set)
		n = isl_schedule_node_n_children(body);
	if (n < 2) {
		pearl_ctx_error(ctx, "loop %d of branch %d holds one loop or "
				"statement: nothing to distribute", l, b);
	} else if (split < 0 || split >= n) {
		pearl_ctx_error(ctx, "loop %d of branch %d holds %d parts: the "
				"split point must be 1..%d", l, b, (int)n,
				(int)n - 1);
	} else if (distribution_legal(sched, b, l, body, n, split,
				      &legal) == pearl_stat_ok) {
		int ok = 1;

		for (first = 0; first < n && ok; first = last + 1) {
			isl_schedule *part;

			last = split == 0	  ? first
			       : first < split ? split - 1
					       : n - 1;
			part = pearl_subtree_loop_around(
			    band, pearl_subtree_children(body, first, last));
			acc = part ? pearl_subtree_append(acc, part)
				   : isl_schedule_free(acc);
			ok = acc != NULL;
		}
		if (!acc)
			pearl_ctx_isl_error(ctx, "distribution");
	}
	isl_schedule_node_free(body);
	if (!acc) {
		isl_schedule_node_free(band);
		return pearl_stat_error;
	}
	acc = replaced(sched, band, acc);
	isl_schedule_node_free(band);
	if (legal)
		return pearl_sched_commit_ordered(sched, acc);
	if (split > 0)
		snprintf(action, sizeof(action), "D(%d,%d)", l, split);
	else
		snprintf(action, sizeof(action), "D(%d)", l);
	snprintf(reason, sizeof(reason), "distributing loop %d runs a "
		 "dependence from a later part to an earlier one", l);
	return pearl_sched_refuse(sched, acc, "distribution", action, reason);
}

/* The partial schedule of loop `band` (kept) plus `shift`, as one union
 * piecewise affine function. */
static __isl_give isl_union_pw_aff *shifted(__isl_keep isl_schedule_node *band,
					    int shift)
{
	isl_multi_union_pw_aff *mupa =
	    isl_schedule_node_band_get_partial_schedule(band);
	isl_union_pw_aff *upa = isl_multi_union_pw_aff_get_union_pw_aff(mupa, 0);
	isl_union_set *dom;

	isl_multi_union_pw_aff_free(mupa);
	if (!shift || !upa)
		return upa;
	dom = isl_union_pw_aff_domain(isl_union_pw_aff_copy(upa));
	return isl_union_pw_aff_add(
	    upa, isl_union_pw_aff_val_on_domain(
		     dom, isl_val_int_from_si(isl_union_pw_aff_get_ctx(upa),
					      shift)));
}

/* What fusion works on: loop `first` and the loop `second` right after it
 * in the sequence `seq` (at position `pos`, of `n` children). */
struct fusion {
	isl_schedule_node *first, *second, *seq;
	int pos, n;
};

static void fusion_free(struct fusion *f)
{
	isl_schedule_node_free(f->first);
	isl_schedule_node_free(f->second);
	isl_schedule_node_free(f->seq);
}

/* Finds loop `l` of branch `b` and the loop after it (see struct fusion). */
static pearl_stat find_fusion(pearl_sched *sched, int b, int l,
			      struct fusion *f)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_schedule_node *filter, *next;

	memset(f, 0, sizeof(*f));
	f->first = pearl_sched_branch_loop(sched, b, l, NULL);
	if (!f->first)
		return pearl_stat_error;
	filter = isl_schedule_node_parent(isl_schedule_node_copy(f->first));
	if (isl_schedule_node_get_type(filter) != isl_schedule_node_filter ||
	    isl_schedule_node_get_parent_type(filter) !=
		isl_schedule_node_sequence) {
		isl_schedule_node_free(filter);
		return pearl_ctx_error(ctx, "loop %d of branch %d is not a part "
				       "of a sequence: nothing to fuse it with",
				       l, b);
	}
	f->pos = isl_schedule_node_get_child_position(filter);
	f->seq = isl_schedule_node_parent(filter);
	f->n = isl_schedule_node_n_children(f->seq);
	if (f->pos < 0 || f->n < 0)
		return pearl_ctx_isl_error(ctx, "fusion");
	if (f->pos + 1 >= f->n)
		return pearl_ctx_error(ctx, "loop %d of branch %d is the last "
				       "part of its sequence: nothing to fuse it "
				       "with", l, b);
	next = isl_schedule_node_get_child(f->seq, f->pos + 1);
	f->second = isl_schedule_node_child(next, 0);
	if (isl_schedule_node_get_type(f->second) != isl_schedule_node_band)
		return pearl_ctx_error(ctx, "the part after loop %d of branch "
				       "%d is not a loop: nothing to fuse it "
				       "with", l, b);
	return pearl_stat_ok;
}

/* The schedule with the two loops of `f` fused, the second shifted by
 * `shift`: one loop over the union of their iterations, whose body runs
 * the first loop's body, then the second's. */
static __isl_give isl_schedule *fused(pearl_sched *sched,
				      const struct fusion *f, int shift)
{
	isl_schedule_node *body1, *body2, *node;
	isl_schedule *inner, *s;
	isl_union_pw_aff *upa;
	isl_bool par1, par2;

	body1 = isl_schedule_node_get_child(f->first, 0);
	body2 = isl_schedule_node_get_child(f->second, 0);
	inner = pearl_subtree_schedule(body1, NULL);
	if (inner)
		inner = pearl_subtree_append(
		    inner, pearl_subtree_schedule(body2, NULL));
	isl_schedule_node_free(body1);
	isl_schedule_node_free(body2);
	upa = isl_union_pw_aff_union_add(shifted(f->first, 0),
					 shifted(f->second, shift));
	s = pearl_schedule_insert_loop(
	    inner, isl_multi_union_pw_aff_from_union_pw_aff(upa));
	if (!s)
		return NULL;
	/* A loop marked parallel stays so (or the fusion is refused). */
	par1 = isl_schedule_node_band_member_get_coincident(f->first, 0);
	par2 = isl_schedule_node_band_member_get_coincident(f->second, 0);
	node = isl_schedule_node_child(isl_schedule_get_root(s), 0);
	isl_schedule_free(s);
	node = isl_schedule_node_band_member_set_coincident(
	    node, 0, par1 == isl_bool_true || par2 == isl_bool_true);
	s = isl_schedule_node_get_schedule(node);
	isl_schedule_node_free(node);

	if (f->pos > 0)
		s = pearl_subtree_append(
		    pearl_subtree_children(f->seq, 0, f->pos - 1), s);
	if (s && f->pos + 2 < f->n)
		s = pearl_subtree_append(
		    s, pearl_subtree_children(f->seq, f->pos + 2, f->n - 1));
	return replaced(sched, f->seq, s);
}

/* The dependences of `sched` from the first loop's statements to the
 * second's in one iteration of the loops around them (__isl_give). */
static __isl_give isl_union_map *deps_between(pearl_sched *sched,
					      const struct fusion *f)
{
	isl_union_map *deps = pearl_deps_get_all(pearl_sched_get_deps(sched));
	isl_multi_union_pw_aff *outer;

	deps = isl_union_map_intersect_domain(
	    deps, isl_schedule_node_get_domain(f->first));
	deps = isl_union_map_intersect_range(
	    deps, isl_schedule_node_get_domain(f->second));
	outer = isl_schedule_node_get_prefix_schedule_multi_union_pw_aff(f->seq);
	if (isl_multi_union_pw_aff_dim(outer, isl_dim_set) > 0)
		return isl_union_map_eq_at_multi_union_pw_aff(deps, outer);
	isl_multi_union_pw_aff_free(outer);
	return deps;
}

/* The smallest shift of the second loop of `f` after which no dependence
 * between the two loops runs backwards: the largest P1(x) - P2(y) over
 * the dependences x -> y of deps_between, P1 and P2 the loops' schedules
 * (with the loops' values equal, the first loop's body runs first); 0 if
 * that is below 0 (no shift needed). Into *shift: 1, 0 if no shift can
 * (the difference is unbounded, or above PEARL_MAX_FUSE_SHIFT), -1 on
 * errors. */
static int minimal_shift(pearl_sched *sched, const struct fusion *f,
			 int *shift)
{
	isl_union_map *deps = deps_between(sched, f);
	isl_union_pw_multi_aff *src, *dst;
	isl_union_pw_aff *diff;
	isl_val *max;
	int found;

	src = isl_union_map_domain_map_union_pw_multi_aff(
	    isl_union_map_copy(deps));
	dst = isl_union_pw_multi_aff_from_union_map(
	    isl_union_map_range_map(deps));
	diff = isl_union_pw_aff_sub(
	    isl_union_pw_aff_pullback_union_pw_multi_aff(shifted(f->first, 0),
							 src),
	    isl_union_pw_aff_pullback_union_pw_multi_aff(shifted(f->second, 0),
							 dst));
	max = isl_union_pw_aff_max_val(diff);
	if (!max)
		return -1;
	/* -infinity (or NaN): no dependence between the loops */
	found = isl_val_is_neginfty(max) || isl_val_is_nan(max) ||
		(isl_val_is_int(max) &&
		 isl_val_cmp_si(max, PEARL_MAX_FUSE_SHIFT) <= 0);
	*shift = found && isl_val_is_int(max) && isl_val_is_pos(max)
		     ? (int)isl_val_get_num_si(max)
		     : 0;
	isl_val_free(max);
	return found;
}

/* Fusion: loop `l` of branch `b` and the loop right after it (the next
 * part of the sequence that holds it) become one loop, the second shifted
 * by `shift` iterations; without `has_shift`, by the smallest shift that
 * respects the dependences between the two loops (minimal_shift), written
 * into *shift. The full check of pearl_sched_commit decides either way. */
static pearl_stat fuse(pearl_sched *sched, int b, int l, int has_shift,
		       int *shift)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	struct fusion f;
	pearl_stat st;

	if (find_fusion(sched, b, l, &f) < 0) {
		fusion_free(&f);
		return pearl_stat_error;
	}
	if (!has_shift) {
		int found = minimal_shift(sched, &f, shift);

		if (found < 0) {
			fusion_free(&f);
			return pearl_ctx_isl_error(ctx, "fusion");
		}
		if (!found) {
			fusion_free(&f);
			return pearl_ctx_error(ctx, "fusing loop %d of branch %d "
					       "with the next loop: no shift up "
					       "to %d keeps every dependence "
					       "between them forward", l, b,
					       PEARL_MAX_FUSE_SHIFT);
		}
	}
	st = pearl_sched_commit(sched, fused(sched, &f, *shift));
	fusion_free(&f);
	return st;
}

/* What an interchange across a sequence works on: loop `outer` (loop l of
 * the branch), whose body is the sequence (or set) `seq` of `n` parts, and
 * loop `inner` (loop l+1), the part at position `pos`. */
struct crossing {
	isl_schedule_node *outer, *seq, *inner;
	int pos, n;
};

static void crossing_free(struct crossing *c)
{
	isl_schedule_node_free(c->outer);
	isl_schedule_node_free(c->seq);
	isl_schedule_node_free(c->inner);
}

/* Whether band `band` (kept) has AST build options (a mark of U, J, V or
 * K): 1, 0, or -1. */
static int has_options(__isl_keep isl_schedule_node *band)
{
	isl_union_set *options =
	    isl_schedule_node_band_get_ast_build_options(band);
	isl_bool empty = isl_union_set_is_empty(options);

	isl_union_set_free(options);
	return empty < 0 ? -1 : !empty;
}

/* Finds loops `l` and `l`+1 of branch `b` for interchange_across, or says
 * why they are not such a pair. */
static pearl_stat find_crossing(pearl_sched *sched, int b, int l,
				struct crossing *c)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_schedule_node *filter, *up;
	int marked;

	memset(c, 0, sizeof(*c));
	c->outer = pearl_sched_branch_loop(sched, b, l, NULL);
	c->inner = pearl_sched_branch_loop(sched, b, l + 1, NULL);
	if (!c->outer || !c->inner)
		return pearl_stat_error;
	filter = isl_schedule_node_parent(isl_schedule_node_copy(c->inner));
	c->seq = isl_schedule_node_parent(isl_schedule_node_copy(filter));
	c->pos = isl_schedule_node_get_child_position(filter);
	isl_schedule_node_free(filter);
	c->n = isl_schedule_node_n_children(c->seq);
	up = isl_schedule_node_parent(isl_schedule_node_copy(c->seq));
	if (c->pos < 0 || c->n < 0 || !up) {
		isl_schedule_node_free(up);
		return pearl_ctx_isl_error(ctx, "interchange");
	}
	if (isl_schedule_node_is_equal(up, c->outer) != isl_bool_true) {
		isl_schedule_node_free(up);
		return pearl_ctx_error(ctx, "loops %d..%d of branch %d are not "
				       "perfectly nested, and loop %d is not a "
				       "part of loop %d's body", l, l + 1, b,
				       l + 1, l);
	}
	isl_schedule_node_free(up);
	if (c->n < 2)
		return pearl_ctx_error(ctx, "loop %d of branch %d holds one part: "
				       "nothing to interchange across", l, b);
	marked = has_options(c->outer);
	if (marked >= 0 && !marked)
		marked = has_options(c->inner);
	if (marked < 0)
		return pearl_ctx_isl_error(ctx, "interchange");
	if (marked)
		return pearl_ctx_error(ctx, "loops %d..%d of branch %d are not "
				       "perfectly nested, and one of them is "
				       "marked to unroll, jam, vectorize or "
				       "copy: only unmarked loops are "
				       "interchanged across a sequence", l, l + 1,
				       b);
	return pearl_stat_ok;
}

/* The schedule of interchange_across with the other parts of the sequence
 * placed by `where`: 0 in their place, 1 all before the inner loop, 2 all
 * after it (each keeping their order). */
static __isl_give isl_schedule *crossed(pearl_sched *sched,
					const struct crossing *c, int where)
{
	isl_schedule_node *body;
	isl_schedule *inner, *before = NULL, *after = NULL, *s;
	isl_union_set *others;
	isl_union_pw_aff *upa;
	isl_multi_union_pw_aff *mupa;

	/* the old outer loop around the inner loop's body */
	body = isl_schedule_node_get_child(c->inner, 0);
	inner = pearl_subtree_loop_around(c->outer,
					  pearl_subtree_schedule(body, NULL));
	isl_schedule_node_free(body);
	if (c->pos > 0)
		before = pearl_subtree_children(c->seq, 0, c->pos - 1);
	if (c->pos + 1 < c->n)
		after = pearl_subtree_children(c->seq, c->pos + 1, c->n - 1);
	if ((c->pos > 0 && !before) || (c->pos + 1 < c->n && !after) ||
	    !inner) {
		isl_schedule_free(before);
		isl_schedule_free(after);
		return isl_schedule_free(inner);
	}
	others = before ? isl_schedule_get_domain(before)
			: isl_schedule_get_domain(after);
	if (before && after)
		others = isl_union_set_union(others,
					     isl_schedule_get_domain(after));

	if (where == 0) {
		s = pearl_subtree_append(before, inner);
		s = after ? pearl_subtree_append(s, after) : s;
	} else {
		s = before;
		if (after)
			s = s ? pearl_subtree_append(s, after) : after;
		s = where == 1 ? pearl_subtree_append(s, inner)
			       : pearl_subtree_append(inner, s);
	}

	/* the new outer loop: the inner loop for its statements, the old
	 * outer loop for the others */
	mupa = isl_schedule_node_band_get_partial_schedule(c->outer);
	upa = isl_multi_union_pw_aff_get_union_pw_aff(mupa, 0);
	isl_multi_union_pw_aff_free(mupa);
	upa = isl_union_pw_aff_intersect_domain_union_set(
	    upa, isl_union_set_universe(others));
	mupa = isl_schedule_node_band_get_partial_schedule(c->inner);
	upa = isl_union_pw_aff_union_add(
	    isl_multi_union_pw_aff_get_union_pw_aff(mupa, 0), upa);
	isl_multi_union_pw_aff_free(mupa);
	s = pearl_schedule_insert_loop_like(
	    s, isl_multi_union_pw_aff_from_union_pw_aff(upa), c->inner);
	return replaced(sched, c->outer, s);
}

/* Interchange across a sequence: loop l+1 of branch b is one part of the
 * sequence that is loop l's body. Loop l+1 becomes the outer loop, over
 * loop l+1's values for its statements and over loop l's for the
 * statements of the other parts; inside it, loop l runs the body of loop
 * l+1, and the other parts run beside it, at the iteration of the outer
 * loop equal to their loop l value: in their place, before loop l, or
 * after it, the first of these that keeps every dependence. */
static pearl_stat interchange_across(pearl_sched *sched, int b, int l)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	struct crossing c;
	pearl_stat st = pearl_stat_error;
	char *first_reason = NULL;
	int where;

	if (find_crossing(sched, b, l, &c) < 0) {
		crossing_free(&c);
		return pearl_stat_error;
	}
	for (where = 0; where < 3 && st != pearl_stat_ok; ++where) {
		/* the same order as in their place */
		if ((where == 1 && c.pos == c.n - 1) || (where == 2 && c.pos == 0))
			continue;
		st = pearl_sched_commit(sched, crossed(sched, &c, where));
		if (st != pearl_stat_ok && !first_reason &&
		    pearl_ctx_last_error(ctx))
			first_reason = strdup(pearl_ctx_last_error(ctx));
	}
	crossing_free(&c);
	if (st != pearl_stat_ok && first_reason)
		pearl_ctx_error(ctx, "%s", first_reason);
	free(first_reason);
	return st;
}

pearl_stat pearl_sched_interchange_across(pearl_sched *sched, int b, int l)
{
	return interchange_across(sched, b, l);
}

pearl_stat pearl_sched_distribute(pearl_sched *sched, int b, int l,
				  int split)
{
	return distribute(sched, b, l, split);
}

pearl_stat pearl_sched_fuse(pearl_sched *sched, int b, int l, int has_shift,
			    int *shift)
{
	return fuse(sched, b, l, has_shift, shift);
}
