/* Pearl's actions on the schedule tree (see pearl/transform.h). */
#include <isl/aff.h>
#include <isl/ast_type.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/schedule_node.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/deps.h"
#include "pearl/schedule.h"
#include "sched_internal.h"

/* One loop (a single-member band) detached from the tree. */
struct loop_desc {
	isl_multi_union_pw_aff *mupa;
	isl_bool coincident;
	enum isl_ast_loop_type type;
	isl_union_set *options; /* AST build options (the unroll factor) */
};

static void free_descs(struct loop_desc *d, int n)
{
	int i;

	for (i = 0; i < n; ++i) {
		d[i].mupa = isl_multi_union_pw_aff_free(d[i].mupa);
		d[i].options = isl_union_set_free(d[i].options);
	}
}

/* The band node of loop `level` of branch `b`, after checking that loops
 * level..level+n-1 exist and are perfectly nested (each band's child is the
 * next band). */
static __isl_give isl_schedule_node *get_chain(pearl_sched *sched, int b,
					       int level, int n)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_schedule_node *node, *cur;
	int depth = pearl_sched_branch_depth(sched, b), i;

	if (depth >= 0 && level + n > depth) {
		pearl_ctx_error(ctx, "level %d does not exist in branch %d "
				"(%d loops)", level + n - 1, b, depth);
		return NULL;
	}
	node = pearl_sched_branch_loop(sched, b, level, NULL);
	cur = isl_schedule_node_copy(node);
	for (i = 1; cur && i < n; ++i) {
		cur = isl_schedule_node_child(cur, 0);
		if (isl_schedule_node_get_type(cur) != isl_schedule_node_band) {
			pearl_ctx_error(ctx, "loops %d..%d of branch %d are not "
					"perfectly nested", level, level + n - 1, b);
			node = isl_schedule_node_free(node);
		}
	}
	isl_schedule_node_free(cur);
	return node;
}

/* Detaches the n bands from `node` down; returns the node that takes their
 * place. */
static __isl_give isl_schedule_node *take_chain(
    __isl_take isl_schedule_node *node, int n, struct loop_desc *d)
{
	int i;

	for (i = 0; i < n && node; ++i) {
		d[i].mupa = isl_schedule_node_band_get_partial_schedule(node);
		d[i].coincident =
		    isl_schedule_node_band_member_get_coincident(node, 0);
		d[i].type = isl_schedule_node_band_member_get_ast_loop_type(
		    node, 0);
		d[i].options = isl_schedule_node_band_get_ast_build_options(node);
		node = isl_schedule_node_delete(node);
	}
	return node;
}

/* Inserts bands d[0] (outermost) .. d[n-1] above `node`; returns the
 * outermost. The partial schedules and options are taken. */
static __isl_give isl_schedule_node *put_chain(
    __isl_take isl_schedule_node *node, int n, struct loop_desc *d)
{
	int i;

	for (i = n - 1; i >= 0; --i) {
		node = isl_schedule_node_insert_partial_schedule(node, d[i].mupa);
		d[i].mupa = NULL;
		if (d[i].options)
			node = isl_schedule_node_band_set_ast_build_options(
			    node, d[i].options);
		d[i].options = NULL;
		node = isl_schedule_node_band_member_set_coincident(
		    node, 0, d[i].coincident == isl_bool_true);
		node = isl_schedule_node_band_member_set_ast_loop_type(
		    node, 0, d[i].type);
	}
	return node;
}

static __isl_give isl_schedule *schedule_of(__isl_take isl_schedule_node *node)
{
	isl_schedule *s = isl_schedule_node_get_schedule(node);

	isl_schedule_node_free(node);
	return s;
}

/* Whether the body of loop `l` of branch `b` is a sequence (or set) of
 * parts: 1, 0, or -1 with an error in the context. */
static int loop_body_is_sequence(pearl_sched *sched, int b, int l)
{
	isl_schedule_node *node = pearl_sched_branch_loop(sched, b, l, NULL);
	enum isl_schedule_node_type type;

	if (!node)
		return -1;
	node = isl_schedule_node_child(node, 0);
	type = isl_schedule_node_get_type(node);
	isl_schedule_node_free(node);
	return type == isl_schedule_node_sequence ||
	       type == isl_schedule_node_set;
}

/* Interchange of loops l1 < l2 of branch b, a perfect nest from l1 to l2
 * (two loops whose body is a sequence go to interchange_across). The
 * exact test on the dependences decides (pearl_sched_branch_loops_
 * reorderable); the full check of the new schedule only names a violated
 * pair for a refusal (explain) or verifies the test (verify). */
static pearl_stat interchange(pearl_sched *sched, int b, int l1, int l2)
{
	struct loop_desc d[PEARL_MAX_DEPTH] = { { 0 } };
	struct loop_desc tmp;
	isl_schedule_node *node;
	int order[PEARL_MAX_DEPTH], n, i, legal;
	char action[32], reason[96];

	if (l1 > l2) {
		n = l1;
		l1 = l2;
		l2 = n;
	}
	n = l2 - l1 + 1;
	if (l1 == l2)
		return pearl_ctx_error(pearl_sched_ctx(sched),
				       "interchange needs two distinct loops");
	if (n == 2 && l2 < pearl_sched_branch_depth(sched, b)) {
		int across = loop_body_is_sequence(sched, b, l1);

		if (across < 0)
			return pearl_stat_error;
		if (across)
			return pearl_sched_interchange_across(sched, b, l1);
	}
	node = get_chain(sched, b, l1, n);
	if (!node)
		return pearl_stat_error;
	/* the new order: l2, the loops between, l1 */
	for (i = 0; i < n; ++i)
		order[i] = i == 0 ? n - 1 : i == n - 1 ? 0 : i;
	if (pearl_sched_branch_loops_reorderable(sched, b, l2, n, order,
						 &legal) < 0) {
		isl_schedule_node_free(node);
		return pearl_stat_error;
	}
	node = take_chain(node, n, d);
	tmp = d[0];
	d[0] = d[n - 1];
	d[n - 1] = tmp;
	node = put_chain(node, n, d);
	free_descs(d, n);
	if (legal)
		return pearl_sched_commit_ordered(sched, schedule_of(node));
	snprintf(action, sizeof(action), "I(%d,%d)", l1, l2);
	snprintf(reason, sizeof(reason), "interchanging loops %d and %d "
		 "reverses a dependence", l1, l2);
	return pearl_sched_refuse(sched, schedule_of(node), "interchange",
				  action, reason);
}

/* Reversing a loop negates the distances it carries and nothing else:
 * pairs of instances that the outer loops order keep their order, and so
 * do pairs that the loop does not separate (its distance is 0, the inner
 * loops decide). It is legal exactly when the loop carries no dependence,
 * which is the (cached) parallel test of the current schedule; every
 * loop's parallel and carried results then hold for the reversed schedule
 * as well. A loop that carries one goes through the full check, which says
 * which dependence is violated. */
static pearl_stat reverse(pearl_sched *sched, int b, int l)
{
	struct loop_desc d[1] = { { 0 } };
	isl_schedule_node *node;
	int parallel;

	if (pearl_sched_branch_loop_parallel(sched, b, l, &parallel,
					     NULL) < 0)
		return pearl_stat_error;
	node = get_chain(sched, b, l, 1);
	if (!node)
		return pearl_stat_error;
	node = take_chain(node, 1, d);
	d[0].mupa = isl_multi_union_pw_aff_neg(d[0].mupa);
	node = put_chain(node, 1, d);
	if (parallel)
		return pearl_sched_commit_reversed(sched, schedule_of(node));
	return pearl_sched_commit(sched, schedule_of(node));
}

/* x, y with a*x + b*y = gcd(a, b). */
static long ext_gcd(long a, long b, long *x, long *y)
{
	long g, x1, y1;

	if (b == 0) {
		*x = a >= 0 ? 1 : -1;
		*y = 0;
		return a >= 0 ? a : -a;
	}
	g = ext_gcd(b, a % b, &x1, &y1);
	*x = y1;
	*y = x1 - (a / b) * y1;
	return g;
}

static __isl_give isl_multi_union_pw_aff *combine(
    __isl_keep isl_multi_union_pw_aff *m0, long f0,
    __isl_keep isl_multi_union_pw_aff *m1, long f1)
{
	isl_ctx *ctx = isl_multi_union_pw_aff_get_ctx(m0);
	isl_union_pw_aff *u0 = isl_multi_union_pw_aff_get_at(m0, 0);
	isl_union_pw_aff *u1 = isl_multi_union_pw_aff_get_at(m1, 0);

	u0 = isl_union_pw_aff_scale_val(u0, isl_val_int_from_si(ctx, f0));
	u1 = isl_union_pw_aff_scale_val(u1, isl_val_int_from_si(ctx, f1));
	return isl_multi_union_pw_aff_from_union_pw_aff(
	    isl_union_pw_aff_add(u0, u1));
}

/* The schedule with loops (i, j) = l, l+1 of branch b mapped to
 * (a*i + b*j, c*i + d*j), a unimodular matrix completing (a, b); NULL with an
 * error if gcd(a, b) != 1 or the loops are not perfectly nested. */
static __isl_give isl_schedule *skewed(pearl_sched *sched, int b, int l,
				       long fa, long fb)
{
	struct loop_desc d[2] = { { 0 } }, e[2];
	isl_schedule_node *node;
	long x, y, c, dd;

	if (ext_gcd(fa, fb, &x, &y) != 1) {
		pearl_ctx_error(pearl_sched_ctx(sched), "skew factors %ld, %ld "
				"are not coprime", fa, fb);
		return NULL;
	}
	/* The inner row (c, d) completes (a, b) to a unimodular matrix
	 * (determinant +-1): the inner loop stays j when a = 1, becomes i when
	 * b = +-1, and otherwise (-y, x) with a*x + b*y = 1. */
	if (fa == 1) {
		c = 0;
		dd = 1;
	} else if (fb == 1 || fb == -1) {
		c = 1;
		dd = 0;
	} else {
		c = -y;
		dd = x;
	}
	node = get_chain(sched, b, l, 2);
	if (!node)
		return NULL;
	node = take_chain(node, 2, d);
	e[0] = d[0];
	e[1] = d[1];
	e[0].mupa = combine(d[0].mupa, fa, d[1].mupa, fb);
	e[1].mupa = combine(d[0].mupa, c, d[1].mupa, dd);
	/* skewed loops are new loops: an unroll factor does not carry over */
	e[0].options = NULL;
	e[1].options = NULL;
	free_descs(d, 2);
	node = put_chain(node, 2, e);
	return schedule_of(node);
}

/* Small coprime factor pairs, simplest first. */
static const int skew_candidates[][2] = {
	{ 1, 1 }, { 1, -1 }, { 1, 2 }, { 2, 1 }, { 1, -2 }, { 2, -1 },
	{ 1, 3 }, { 3, 1 }, { 1, -3 }, { 3, -1 }, { 2, 3 }, { 3, 2 },
	{ 2, -3 }, { 3, -2 },
};

/* The distance vectors (d_l, d_l+1) of the dependences inside loops l and
 * l+1 of branch b that agree on every loop outside them (__isl_give; an
 * empty set if there are none), NULL on error. */
static __isl_give isl_set *pair_distances(pearl_sched *sched, int b, int l)
{
	struct pearl_loop_deps ld;
	isl_set *d;
	isl_size dim;
	int k;

	if (pearl_sched_branch_loop_deps(sched, b, l + 1, &ld) < 0)
		return NULL;
	if (!ld.distances)
		return isl_set_empty(isl_space_set_alloc(
		    pearl_ctx_get_isl(pearl_sched_ctx(sched)), 0, 2));
	d = ld.distances;
	dim = isl_set_dim(d, isl_dim_set);
	for (k = 0; k < dim - 2; ++k)
		d = isl_set_fix_si(d, isl_dim_set, k, 0);
	return isl_set_project_out(d, isl_dim_set, 0, dim - 2);
}

/* Whether `set` (taken) intersected with the constraints `cond` (an isl
 * set over [t1, t2]) is empty. */
static isl_bool none_where(__isl_take isl_set *set, const char *cond)
{
	isl_set *c = isl_set_read_from_str(isl_set_get_ctx(set), cond);
	isl_bool empty;

	c = isl_set_align_params(c, isl_set_get_space(set));
	set = isl_set_align_params(set, isl_set_get_space(c));
	set = isl_set_intersect(set, c);
	empty = isl_set_is_empty(set);
	isl_set_free(set);
	return empty;
}

/* For skew factors (fa, fb) completed to a unimodular (c, dd) as in
 * skewed(): 1 if the transformed distances are legal and make the outer
 * (want 0) or inner (want 1) loop parallel, 0 if not, -1 on error. */
static int skew_fits(__isl_keep isl_set *dist, long fa, long fb, int want)
{
	isl_ctx *ctx = isl_set_get_ctx(dist);
	long x, y, c, dd;
	char text[160];
	isl_map *m;
	isl_set *t;
	isl_bool ok;

	ext_gcd(fa, fb, &x, &y);
	c = fa == 1 ? 0 : (fb == 1 || fb == -1) ? 1 : -y;
	dd = fa == 1 ? 1 : (fb == 1 || fb == -1) ? 0 : x;
	snprintf(text, sizeof(text),
		 "{ [x, y] -> [%ld * x + %ld * y, %ld * x + %ld * y] }", fa, fb,
		 c, dd);
	m = isl_map_read_from_str(ctx, text);
	m = isl_map_align_params(m, isl_set_get_space(dist));
	t = isl_set_apply(isl_set_align_params(isl_set_copy(dist),
					       isl_map_get_space(m)), m);
	/* legal: every transformed distance is lexicographically >= 0 */
	ok = none_where(isl_set_copy(t), "{ [t1, t2] : t1 < 0 }");
	if (ok == isl_bool_true)
		ok = none_where(isl_set_copy(t), "{ [t1, t2] : t1 = 0 and t2 < 0 }");
	if (ok == isl_bool_true && want == 0)
		ok = none_where(isl_set_copy(t), "{ [t1, t2] : t1 != 0 }");
	if (ok == isl_bool_true && want == 1)
		ok = none_where(isl_set_copy(t), "{ [t1, t2] : t1 = 0 and t2 != 0 }");
	isl_set_free(t);
	return ok < 0 ? -1 : ok == isl_bool_true;
}

/* Chooses skew factors: the simplest pair whose transformed dependence
 * distances are legal and make the outer loop parallel, else the inner
 * one. The chosen skew is then checked in full like any other. */
static pearl_stat skew_solve(pearl_sched *sched, int b, int l, long *fa,
			     long *fb)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int n = sizeof(skew_candidates) / sizeof(skew_candidates[0]);
	isl_set *dist = pair_distances(sched, b, l);
	int want, i, fits = 0;

	if (!dist)
		return pearl_ctx_isl_error(ctx, "skew solver");
	for (want = 0; want < 2 && !fits; ++want)
		for (i = 0; i < n && !fits; ++i) {
			fits = skew_fits(dist, skew_candidates[i][0],
					 skew_candidates[i][1], want);
			if (fits > 0) {
				*fa = skew_candidates[i][0];
				*fb = skew_candidates[i][1];
			}
		}
	isl_set_free(dist);
	if (fits < 0)
		return pearl_ctx_isl_error(ctx, "skew solver");
	if (fits)
		return pearl_stat_ok;
	return pearl_ctx_error(ctx, "no skew of loops %d and %d with factors "
			       "up to 3 is legal and makes one of them parallel",
			       l, l + 1);
}

/* Checks that loops l and l+1 of branch b exist and are perfectly nested
 * (an error naming the level and the branch's depth if not). */
static pearl_stat check_pair(pearl_sched *sched, int b, int l)
{
	isl_schedule_node *node = get_chain(sched, b, l, 2);

	if (!node)
		return pearl_stat_error;
	isl_schedule_node_free(node);
	return pearl_stat_ok;
}

/* A skew (a, b) spreads loops l and l+1 (ei and ej values) over about
 * |a| (ei - 1) + |b| (ej - 1) + 1 values of its outer loop, and the
 * generated code scans them all: beyond SKEW_MAX_SPREAD times the ei * ej
 * iterations of the pair (and SKEW_MIN_SPREAD values), most of what it
 * scans is empty (S(l,l+1,1,1000000) on loops of 41 and 3 values: 2
 * million values for 123 iterations, a program 10,000 times slower). */
#define SKEW_MAX_SPREAD 16
#define SKEW_MIN_SPREAD 4096

static long loop_extent(pearl_sched *sched, int b, int level);

static pearl_stat check_spread(pearl_sched *sched, int b, int l, long fa,
			       long fb)
{
	long ei = loop_extent(sched, b, l), ej = loop_extent(sched, b, l + 1);
	double spread, points;

	if (ei <= 0 || ej <= 0) { /* not bounded by constants: cannot say */
		pearl_ctx_clear_error(pearl_sched_ctx(sched));
		return pearl_stat_ok;
	}
	spread = fabs((double)fa) * (double)(ei - 1) +
		 fabs((double)fb) * (double)(ej - 1) + 1;
	points = (double)ei * (double)ej;
	if (spread <= SKEW_MAX_SPREAD * points || spread <= SKEW_MIN_SPREAD)
		return pearl_stat_ok;
	return pearl_ctx_error(pearl_sched_ctx(sched), "skew factors %ld, %ld "
			       "would spread loops %d and %d of branch %d "
			       "(%ld and %ld values) over %.0f values of the "
			       "new loop %d, %.0f times their iterations: the "
			       "generated code would scan mostly empty ones",
			       fa, fb, l, l + 1, b, ei, ej, spread, l,
			       spread / points);
}

static pearl_stat skew(pearl_sched *sched, int b, int l, long fa, long fb)
{
	isl_schedule *cand;

	/* the solver needs the loops before it can say anything of them */
	if (fa == 0 && fb == 0 &&
	    (check_pair(sched, b, l) < 0 || skew_solve(sched, b, l, &fa, &fb) < 0))
		return pearl_stat_error;
	if (check_pair(sched, b, l) < 0 || check_spread(sched, b, l, fa, fb) < 0)
		return pearl_stat_error;
	cand = skewed(sched, b, l, fa, fb);
	if (!cand)
		return pearl_stat_error;
	return pearl_sched_commit(sched, cand);
}

/* The values loop `level` of branch b takes (__isl_give, a 1-D set; NULL
 * on error): the image of the instances that reach its band under the
 * band's function. The projection of the loop's range (outer loops...,
 * this loop) onto its last dimension, without the outer loops' functions,
 * which cost more on tiled schedules. */
static __isl_give isl_set *loop_values(pearl_sched *sched, int b, int level)
{
	isl_schedule_node *node;
	isl_multi_union_pw_aff *partial;
	isl_union_set *values;
	isl_set *range = NULL;
	isl_size dim;

	node = pearl_sched_branch_loop(sched, b, level, NULL);
	if (!node)
		return NULL;
	if (isl_schedule_node_band_n_member(node) == 1) {
		partial = isl_schedule_node_band_get_partial_schedule(node);
		values = isl_union_set_apply(
		    isl_schedule_node_get_domain(node),
		    isl_union_map_from_multi_union_pw_aff(partial));
		isl_schedule_node_free(node);
		return pearl_union_set_unnamed_set(values, 1);
	}
	/* a band of several loops: project the loop's range */
	isl_schedule_node_free(node);
	node = pearl_sched_branch_loop(sched, b, level, &range);
	isl_schedule_node_free(node);
	dim = isl_set_dim(range, isl_dim_set);
	if (dim < 1)
		return isl_set_free(range);
	return isl_set_project_out(range, isl_dim_set, 0, dim - 1);
}

/* `v` (taken, an integer) as a long, LONG_MAX if it is larger (no
 * wrapped number); -1 if it is not an integer. */
static long val_to_long_sat(__isl_take isl_val *v)
{
	isl_val *max = isl_val_int_from_si(isl_val_get_ctx(v), LONG_MAX);
	long r = -1;

	if (isl_val_is_int(v) == isl_bool_true)
		r = isl_val_gt(v, max) == isl_bool_true ? LONG_MAX
							 : isl_val_get_num_si(v);
	isl_val_free(max);
	isl_val_free(v);
	return r;
}

/* The number of values loop `level` of branch b takes, from the smallest
 * to the largest over all outer iterations (LONG_MAX if more), or -1 if it
 * is not bounded by a constant. Computed in isl: loops whose values span
 * more than 2^63 (near the limits of 64-bit indices) do not wrap. */
static long loop_extent(pearl_sched *sched, int b, int level)
{
	isl_set *range = loop_values(sched, b, level);
	isl_val *min, *max;
	isl_aff *obj;
	long extent = -1;

	if (!range)
		return -1;
	obj = isl_aff_var_on_domain(isl_local_space_from_space(
	    isl_set_get_space(range)), isl_dim_set, 0);
	min = isl_set_min_val(range, obj);
	max = isl_set_max_val(range, obj);
	if (isl_val_is_int(min) == isl_bool_true &&
	    isl_val_is_int(max) == isl_bool_true)
		extent = val_to_long_sat(isl_val_add_ui(
		    isl_val_sub(isl_val_copy(max), isl_val_copy(min)), 1));
	isl_val_free(min);
	isl_val_free(max);
	isl_aff_free(obj);
	isl_set_free(range);
	return extent;
}

/* Checks that no dependence inside loops l..l+n-1 of branch b has a
 * negative distance at any of them (with equal outer loops). */
static pearl_stat check_permutable(pearl_sched *sched, int b, int l, int n)
{
	int permutable;

	if (pearl_sched_branch_loops_permutable(sched, b, l + n - 1, n,
						&permutable) < 0)
		return pearl_stat_error;
	if (!permutable)
		return pearl_ctx_error(pearl_sched_ctx(sched), "loops %d..%d "
				       "of branch %d are not permutable (a "
				       "dependence distance is negative), "
				       "tiling them is illegal", l, l + n - 1,
				       b);
	return pearl_stat_ok;
}

static pearl_stat tile(pearl_sched *sched, int b, int l, int n,
		       const int *sizes)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	struct loop_desc d[PEARL_MAX_TILE_DIMS] = { { 0 } };
	isl_multi_union_pw_aff *band;
	isl_schedule_node *node;
	isl_multi_val *mv;
	int i;

	node = get_chain(sched, b, l, n);
	if (!node)
		return pearl_stat_error;
	for (i = 0; i < n; ++i) {
		long extent = loop_extent(sched, b, l + i);
		if (sizes[i] < 1 || (extent >= 0 && sizes[i] > extent)) {
			isl_schedule_node_free(node);
			if (sizes[i] < 1)
				return pearl_ctx_error(ctx, "tile size %d is "
						       "not positive", sizes[i]);
			return pearl_ctx_error(ctx, "tile size %d is larger "
					       "than loop %d (%ld iterations)",
					       sizes[i], l + i, extent);
		}
	}
	if (check_permutable(sched, b, l, n) < 0) {
		isl_schedule_node_free(node);
		return pearl_stat_error;
	}
	node = take_chain(node, n, d);
	band = d[0].mupa;
	d[0].mupa = NULL;
	for (i = 1; i < n; ++i) {
		band = isl_multi_union_pw_aff_flat_range_product(band,
								 d[i].mupa);
		d[i].mupa = NULL;
	}
	/* tile and point loops start without options (an unroll factor) */
	free_descs(d, n);
	node = isl_schedule_node_insert_partial_schedule(node, band);
	mv = isl_multi_val_zero(isl_schedule_node_band_get_space(node));
	for (i = 0; i < n; ++i)
		mv = isl_multi_val_set_at(mv, i, isl_val_int_from_si(
		    isl_schedule_node_get_ctx(node), sizes[i]));
	node = isl_schedule_node_band_tile(node, mv);
	/* Tile loops take over the parallel marks; point loops have none. */
	for (i = 0; i < n; ++i) {
		node = isl_schedule_node_band_member_set_coincident(
		    node, i, d[i].coincident == isl_bool_true);
		node = isl_schedule_node_band_member_set_ast_loop_type(
		    node, i, isl_ast_loop_default);
	}
	node = isl_schedule_node_child(node, 0);
	for (i = 0; i < n; ++i) {
		node = isl_schedule_node_band_member_set_coincident(node, i, 0);
		node = isl_schedule_node_band_member_set_ast_loop_type(
		    node, i, isl_ast_loop_default);
	}
	/* Legal: the band is permutable (checked above). */
	return pearl_sched_commit_tiled(
	    sched, pearl_split_bands(schedule_of(node)), b, l, n);
}

/* The value of Pearl's AST build option `name` on band `band` (kept), if
 * it is 1 or more; else 0. */
static int band_option(__isl_keep isl_schedule_node *band, const char *name)
{
	isl_union_set *options;
	isl_space *space;
	isl_set *set;
	isl_val *v;
	int f = 0;

	if (isl_schedule_node_get_type(band) != isl_schedule_node_band)
		return 0;
	options = isl_schedule_node_band_get_ast_build_options(band);
	if (!options)
		return 0;
	space = isl_space_set_alloc(isl_schedule_node_get_ctx(band), 0, 1);
	space = isl_space_set_tuple_name(space, isl_dim_set, name);
	set = isl_union_set_extract_set(options, space);
	isl_union_set_free(options);
	v = isl_set_plain_get_val_if_fixed(set, isl_dim_set, 0);
	if (v && isl_val_is_int(v) == isl_bool_true)
		f = (int)isl_val_get_num_si(v);
	isl_val_free(v);
	isl_set_free(set);
	return f >= 1 ? f : 0;
}

/* Band `node` (taken) with Pearl's AST build option `name` set to `value`
 * beside its other options. */
static __isl_give isl_schedule_node *set_band_option(
    __isl_take isl_schedule_node *node, const char *name, int value)
{
	isl_union_set *options;
	isl_space *space;
	isl_set *set;

	if (!node)
		return NULL;
	space = isl_space_set_alloc(isl_schedule_node_get_ctx(node), 0, 1);
	space = isl_space_set_tuple_name(space, isl_dim_set, name);
	set = isl_set_fix_si(isl_set_universe(space), isl_dim_set, 0, value);
	options = isl_schedule_node_band_get_ast_build_options(node);
	options = isl_union_set_union(options, isl_union_set_from_set(set));
	return isl_schedule_node_band_set_ast_build_options(node, options);
}

int pearl_band_unroll_factor(__isl_keep isl_schedule_node *band)
{
	return band_option(band, PEARL_UNROLL_OPTION);
}

int pearl_band_jam_factor(__isl_keep isl_schedule_node *band)
{
	return band_option(band, PEARL_JAM_OPTION);
}

int pearl_band_vector_width(__isl_keep isl_schedule_node *band)
{
	return band_option(band, PEARL_VECTOR_OPTION);
}

int pearl_band_copies(__isl_keep isl_schedule_node *band)
{
	return band_option(band, PEARL_COPY_OPTION) ? 1 : 0;
}

static isl_bool is_not_band(__isl_keep isl_schedule_node *node, void *user)
{
	(void)user;
	return isl_bool_not(isl_bool_ok(isl_schedule_node_get_type(node) ==
					isl_schedule_node_band));
}

int pearl_band_holds_loop(__isl_keep isl_schedule_node *node)
{
	isl_schedule_node *child = isl_schedule_node_get_child(node, 0);
	isl_bool none = isl_schedule_node_every_descendant(child, is_not_band,
							   NULL);

	isl_schedule_node_free(child);
	return none < 0 ? -1 : !none;
}

/* Marks the innermost loop of branch b to be unrolled by `factor`: the
 * factor goes into the band's AST build options, the loop stays as it is
 * (no strip-mining: the code generator unrolls the loop it generates,
 * with a cleanup loop for the iterations the factor does not divide). */
static pearl_stat unroll(pearl_sched *sched, int b, int factor)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int depth = pearl_sched_branch_depth(sched, b);
	isl_schedule_node *node;
	long extent;

	if (depth < 0)
		return pearl_ctx_error(ctx, "branch %d does not exist", b);
	if (depth == 0)
		return pearl_ctx_error(ctx, "branch %d has no loop to unroll", b);
	if (factor < 2)
		return pearl_ctx_error(ctx, "unroll factor %d is below 2", factor);
	extent = loop_extent(sched, b, depth - 1);
	if (extent >= 0 && factor > extent)
		return pearl_ctx_error(ctx, "unroll factor %d is larger than "
				       "loop %d (%ld iterations)", factor,
				       depth - 1, extent);
	node = pearl_sched_branch_loop(sched, b, depth - 1, NULL);
	if (!node)
		return pearl_stat_error;
	if (pearl_band_unroll_factor(node) > 0) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "the innermost loop of branch %d "
				       "is already unrolled", b);
	}
	/* U unrolls innermost loops. A branch's innermost loop can hold the
	 * loops of other branches (statements beside a nested loop): its
	 * copies would then be whole loop nests, one after the other, and
	 * LLVM no longer unrolls or vectorizes the loops inside as it would
	 * (PolyBench nussinov, its j loop: 0.8x of the same tiling without
	 * U). */
	switch (pearl_band_holds_loop(node)) {
	case 1:
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "the innermost loop of branch %d "
				       "(loop %d) holds other loops: only a "
				       "loop with no loop inside is unrolled",
				       b, depth - 1);
	case -1:
		isl_schedule_node_free(node);
		return pearl_ctx_isl_error(ctx, "loop nesting");
	}
	node = set_band_option(node, PEARL_UNROLL_OPTION, factor);
	/* Unrolling keeps the order of execution and the loops: the
	 * analysis of every loop still holds. */
	return pearl_sched_commit_marked(sched, schedule_of(node));
}

/* V(w): the innermost loop of branch b is to be vectorized by `width`
 * lanes; a hint for LLVM's loop vectorizer, kept in the band's AST build
 * options. */
static pearl_stat vectorize(pearl_sched *sched, int b, int width)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int depth = pearl_sched_branch_depth(sched, b), jammed, level, parallel;
	isl_schedule_node *node, *child;

	if (width < 2 || width > 64 || (width & (width - 1)))
		return pearl_ctx_error(ctx, "vector width %d is not a power "
				       "of 2 from 2 to 64", width);
	if (depth == 0)
		return pearl_ctx_error(ctx, "branch %d has no loop to "
				       "vectorize", b);
	level = depth - 1;
	node = pearl_sched_branch_loop(sched, b, level, NULL);
	/* the point loop of J is unrolled away: the loop around it is the
	 * innermost loop of the code */
	if (node && depth >= 2 && pearl_band_jam_factor(node)) {
		isl_schedule_node_free(node);
		node = pearl_sched_branch_loop(sched, b, --level, NULL);
	}
	if (!node)
		return pearl_stat_error;
	/* With a width hint, LLVM's vectorizer reorders reductions, floating
	 * point ones too (an f32 sum, pearl-gen --seed 150288 --size-scale
	 * small, "N V(2)": wrong outputs, found by fuzzing): only a loop that
	 * carries no dependence is vectorized. */
	if (pearl_sched_branch_loop_parallel(sched, b, level, &parallel,
					     NULL) < 0) {
		isl_schedule_node_free(node);
		return pearl_stat_error;
	}
	if (!parallel) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "loop %d of branch %d carries a "
				       "dependence (e.g. a reduction, which "
				       "the vectorizer would reorder): it is "
				       "not vectorized", level, b);
	}
	if (pearl_band_vector_width(node)) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "the innermost loop of branch %d "
				       "is already vectorized", b);
	}
	child = isl_schedule_node_get_child(node, 0);
	jammed = pearl_band_jam_factor(child);
	isl_schedule_node_free(child);
	if (pearl_band_holds_loop(node) != 0 && !jammed) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "the innermost loop of branch %d "
				       "holds the loops of other branches: "
				       "only a loop with no loop inside is "
				       "vectorized", b);
	}
	node = set_band_option(node, PEARL_VECTOR_OPTION, width);
	/* a hint: the order of execution and the loops are unchanged */
	return pearl_sched_commit_marked(sched, schedule_of(node));
}

/* The arrays (spaces of the ranges of the accesses) that the instances
 * of `domain` (kept) read and do not write; NULL on error. */
static __isl_give isl_union_set *read_only_arrays(
    pearl_program *prog, __isl_keep isl_union_set *domain)
{
	isl_union_map *reads = pearl_program_get_reads(prog);
	isl_union_map *writes = pearl_program_get_writes(prog);
	isl_union_set *read, *written;

	reads = isl_union_map_intersect_domain(reads,
					       isl_union_set_copy(domain));
	writes = isl_union_map_intersect_domain(writes,
						isl_union_set_copy(domain));
	read = isl_union_set_universe(isl_union_map_range(reads));
	written = isl_union_set_universe(isl_union_map_range(writes));
	return isl_union_set_subtract(read, written);
}

/* K(l): before each run of loop l of branch b, the arrays the loop reads
 * and does not write are copied into local buffers, which the loop reads
 * instead; an option of the band for the MLIR code generator. Legal
 * whenever there is such an array: the copies hold the values the loop
 * would read, since it writes none of them. */
static pearl_stat copy_read_only(pearl_sched *sched, int b, int l)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_schedule_node *node = get_chain(sched, b, l, 1);
	isl_union_set *domain, *arrays;
	isl_bool none;

	if (!node)
		return pearl_stat_error;
	if (!pearl_sched_get_copies_made(sched)) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "this code generator makes no "
				       "copies of arrays (K): only the MLIR "
				       "pass does");
	}
	if (pearl_band_copies(node)) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "loop %d of branch %d already "
				       "copies the arrays it reads", l, b);
	}
	domain = isl_schedule_node_get_domain(node);
	arrays = read_only_arrays(pearl_sched_get_program(sched), domain);
	isl_union_set_free(domain);
	none = isl_union_set_is_empty(arrays);
	isl_union_set_free(arrays);
	if (none != isl_bool_false) {
		isl_schedule_node_free(node);
		if (none < 0)
			return pearl_ctx_isl_error(ctx, "the arrays of a loop");
		return pearl_ctx_error(ctx, "loop %d of branch %d writes every "
				       "array it reads: nothing to copy", l, b);
	}
	node = set_band_option(node, PEARL_COPY_OPTION, 1);
	/* the order of execution and the loops are unchanged */
	return pearl_sched_commit_marked(sched, schedule_of(node));
}

/* Unroll-and-jam (register tiling) of loop `l` of branch b by `factor`:
 * the loop is strip-mined by the factor, its point loop (factor
 * iterations) moved inside the loops below it, down to the innermost, and
 * marked to be unrolled completely by the code generator (the
 * PEARL_JAM_OPTION build option): the loops inside then run `factor`
 * copies of their body, one per value of loop l, side by side. Loops
 * l..innermost must be perfectly nested. Moving the point loop inwards is
 * legal if no pair of instances that one group of copies holds turns
 * around (pearl_sched_branch_loop_jammable, exact); the full check of the
 * jammed schedule runs only to name a violated pair (explain) or to
 * verify the test (verify). */
static pearl_stat unroll_and_jam(pearl_sched *sched, int b, int l, int factor)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int depth = pearl_sched_branch_depth(sched, b), i, jammable;
	struct loop_desc point[1] = { { 0 } };
	isl_schedule_node *node;
	isl_multi_val *mv;
	char action[32], reason[96];
	long extent;

	if (depth >= 0 && l >= 0 && l == depth - 1)
		return pearl_ctx_error(ctx, "loop %d is the innermost loop of "
				       "branch %d: no loop inside to jam its "
				       "copies into (U(f) unrolls it)", l, b);
	if (factor < 2)
		return pearl_ctx_error(ctx, "unroll-and-jam factor %d is below "
				       "2", factor);
	node = get_chain(sched, b, l, depth - l);
	if (!node)
		return pearl_stat_error;
	extent = loop_extent(sched, b, l);
	if (extent >= 0 && factor > extent) {
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "unroll-and-jam factor %d is larger "
				       "than loop %d (%ld iterations)", factor,
				       l, extent);
	}
	if (pearl_sched_branch_loop_jammable(sched, b, l, factor,
					     &jammable) < 0) {
		isl_schedule_node_free(node);
		return pearl_stat_error;
	}
	mv = isl_multi_val_zero(isl_schedule_node_band_get_space(node));
	mv = isl_multi_val_set_at(mv, 0, isl_val_int_from_si(
	    isl_schedule_node_get_ctx(node), factor));
	node = isl_schedule_node_band_tile(node, mv);
	node = isl_schedule_node_band_member_set_ast_loop_type(
	    node, 0, isl_ast_loop_default);
	/* the point loop goes below the innermost loop of the chain */
	node = take_chain(isl_schedule_node_child(node, 0), 1, point);
	for (i = l + 1; i < depth && node; ++i)
		node = isl_schedule_node_child(node, 0);
	point[0].coincident = isl_bool_false;
	point[0].type = isl_ast_loop_default;
	point[0].options = isl_union_set_free(point[0].options);
	node = put_chain(node, 1, point);
	node = set_band_option(node, PEARL_JAM_OPTION, factor);
	free_descs(point, 1);
	/* The test on the dependences decides; the full check of the
	 * jammed schedule, which costs tens of ms on tiled nests with large
	 * constant bounds, only names a violated pair for a refusal (or
	 * verifies the test). */
	if (jammable)
		return pearl_sched_commit_jammed(sched, schedule_of(node), b,
						 l);
	snprintf(action, sizeof(action), "J(%d,%d)", l, factor);
	snprintf(reason, sizeof(reason), "jamming copies of loop %d into the "
		 "loops inside it reverses a dependence", l);
	return pearl_sched_refuse(sched, schedule_of(node), "unroll-and-jam",
				  action, reason);
}

static pearl_stat parallelize(pearl_sched *sched, int b, int l)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_schedule_node *node = get_chain(sched, b, l, 1);
	int explain = pearl_sched_get_explain(sched);
	unsigned carried = 0;
	int parallel, k;

	if (!node)
		return pearl_stat_error;
	/* Which kinds of dependence the loop carries costs a test per kind:
	 * only refusals that are explained name them. */
	if (pearl_sched_branch_loop_parallel(sched, b, l, &parallel,
					     explain ? &carried : NULL) < 0) {
		isl_schedule_node_free(node);
		return pearl_stat_error;
	}
	if (!parallel) {
		char kinds[32] = "";

		for (k = 0; k < PEARL_DEP_KINDS; ++k)
			if (carried & (1u << k))
				snprintf(kinds + strlen(kinds),
					 sizeof(kinds) - strlen(kinds), "%s%s",
					 kinds[0] ? " " : " (",
					 pearl_dep_kind_name(k));
		isl_schedule_node_free(node);
		return pearl_ctx_error(ctx, "loop %d of branch %d carries a "
				       "dependence%s%s and cannot run in "
				       "parallel", l, b, kinds,
				       kinds[0] ? ")" : "");
	}
	node = isl_schedule_node_band_member_set_coincident(node, 0, 1);
	/* The order is unchanged and the loop carries no dependence; the
	 * other parallel loops were checked on the same order. */
	return pearl_sched_commit_marked(sched, schedule_of(node));
}

/* Applies action `a` to branch b of sched (see pearl_sched_apply); what
 * a solver chose is written back into *a (F's shift). */
static pearl_stat apply_action(pearl_sched *sched, int b,
			       struct pearl_action *a)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);

	switch (a->kind) {
	case pearl_action_interchange:
		return interchange(sched, b, a->level[0], a->level[1]);
	case pearl_action_reverse:
		return reverse(sched, b, a->level[0]);
	case pearl_action_skew:
		return skew(sched, b, a->level[0], a->factor[0], a->factor[1]);
	case pearl_action_tile:
		return tile(sched, b, a->level[0], a->n_level, a->size);
	case pearl_action_unroll:
		return unroll(sched, b, a->factor[0]);
	case pearl_action_parallel:
		return parallelize(sched, b, a->level[0]);
	case pearl_action_next:
		return pearl_stat_ok;
	case pearl_action_distribute:
		return pearl_sched_distribute(sched, b, a->level[0], a->split);
	case pearl_action_fuse:
		if (pearl_sched_fuse(sched, b, a->level[0], a->factor[1],
				     &a->factor[0]) < 0)
			return pearl_stat_error;
		a->factor[1] = 1;
		return pearl_stat_ok;
	case pearl_action_unroll_jam:
		return unroll_and_jam(sched, b, a->level[0], a->factor[0]);
	case pearl_action_vectorize:
		return vectorize(sched, b, a->factor[0]);
	case pearl_action_copy:
		return copy_read_only(sched, b, a->level[0]);
	}
	return pearl_ctx_error(ctx, "unknown action");
}

/* The checks run under the context's time limit as well as its
 * operations quota: on some schedules (tiles skewed, then their point
 * loops skewed and tiled again) each isl step works on integers that keep
 * growing, and the quota alone would allow minutes. */
pearl_stat pearl_sched_apply(pearl_sched *sched, int b,
			     const struct pearl_action *a)
{
	struct pearl_action resolved = *a;

	return pearl_sched_apply_resolved(sched, b, &resolved);
}

pearl_stat pearl_sched_apply_resolved(pearl_sched *sched, int b,
				      struct pearl_action *a)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	double limit = pearl_ctx_get_time_limit(ctx);
	char what[64], name[48];
	pearl_stat st;

	if (a->kind == pearl_action_next)
		return pearl_stat_ok;
	pearl_ctx_watch_start(ctx, limit);
	st = apply_action(sched, b, a);
	if (pearl_ctx_watch_stop(ctx) && st < 0) {
		pearl_action_format(a, name, sizeof(name));
		snprintf(what, sizeof(what), "checking %s", name);
		return pearl_ctx_time_error(ctx, what, limit);
	}
	return st;
}

int pearl_sched_apply_sequence(pearl_sched *sched,
			       const struct pearl_action *actions, int n,
			       pearl_action_report_fn report, void *user)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int i, b = 0, applied = 0;

	for (i = 0; i < n; ++i) {
		struct pearl_action resolved;
		int ok;

		if (actions[i].kind == pearl_action_next) {
			b++;
			continue;
		}
		pearl_ctx_clear_error(ctx);
		resolved = actions[i];
		ok = pearl_sched_apply_resolved(sched, b, &resolved) ==
		     pearl_stat_ok;
		applied += ok;
		if (report)
			report(b, ok ? &resolved : &actions[i], ok,
			       ok ? "" : pearl_ctx_last_error(ctx), user);
	}
	pearl_ctx_clear_error(ctx);
	return applied;
}
