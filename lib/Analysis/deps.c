/* Memory-based dependences (isl dataflow) and per-loop parallelism. */
#include "pearl/deps.h"

#include <isl/aff.h>
#include <isl/flow.h>
#include <isl/map.h>
#include <isl/space.h>
#include <isl/set.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdlib.h>

#include "pearl/schedule.h"

/* The most loops the reordering and jam tests take in turn. */
#define MAX_LOOPS_IN_TURN 32

struct pearl_deps {
	pearl_ctx *ctx;
	isl_union_map *rel[PEARL_DEP_KINDS];
	isl_union_map *all; /* union of rel[], computed on first use */
};

const char *pearl_dep_kind_name(enum pearl_dep_kind kind)
{
	static const char *names[] = { "RAW", "WAR", "WAW" };
	return kind >= 0 && kind < PEARL_DEP_KINDS ? names[kind] : "?";
}

/* May-dependences from `source` accesses to later `sink` accesses. */
static __isl_give isl_union_map *flow(__isl_take isl_union_map *sink,
				      __isl_take isl_union_map *source,
				      __isl_take isl_schedule *schedule)
{
	isl_union_access_info *info;
	isl_union_flow *flow;
	isl_union_map *dep;

	info = isl_union_access_info_from_sink(sink);
	info = isl_union_access_info_set_may_source(info, source);
	info = isl_union_access_info_set_schedule(info, schedule);
	flow = isl_union_access_info_compute_flow(info);
	dep = isl_union_flow_get_may_dependence(flow);
	isl_union_flow_free(flow);
	return isl_union_map_coalesce(dep);
}

pearl_deps *pearl_deps_compute(pearl_program *prog)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	isl_schedule *sched = pearl_program_peek_schedule(prog);
	isl_union_map *reads, *writes;
	pearl_deps *deps;
	int k;

	if (!sched) {
		pearl_ctx_error(ctx, "dependences: program has no schedule");
		return NULL;
	}
	deps = calloc(1, sizeof(*deps));
	if (!deps) {
		pearl_ctx_error(ctx, "out of memory");
		return NULL;
	}
	deps->ctx = ctx;
	reads = pearl_program_get_reads(prog);
	writes = pearl_program_get_writes(prog);
	deps->rel[pearl_dep_raw] = flow(isl_union_map_copy(reads),
					isl_union_map_copy(writes),
					isl_schedule_copy(sched));
	deps->rel[pearl_dep_war] = flow(isl_union_map_copy(writes), reads,
					isl_schedule_copy(sched));
	deps->rel[pearl_dep_waw] = flow(isl_union_map_copy(writes), writes,
					isl_schedule_copy(sched));
	for (k = 0; k < PEARL_DEP_KINDS; ++k)
		if (!deps->rel[k]) {
			pearl_ctx_isl_error(ctx, "dependence analysis");
			return pearl_deps_free(deps);
		}
	return deps;
}

pearl_deps *pearl_deps_free(pearl_deps *deps)
{
	int k;

	if (!deps)
		return NULL;
	for (k = 0; k < PEARL_DEP_KINDS; ++k)
		isl_union_map_free(deps->rel[k]);
	isl_union_map_free(deps->all);
	free(deps);
	return NULL;
}

__isl_give isl_union_map *pearl_deps_get(pearl_deps *deps,
					 enum pearl_dep_kind kind)
{
	if (kind < 0 || kind >= PEARL_DEP_KINDS)
		return NULL;
	return isl_union_map_copy(deps->rel[kind]);
}

__isl_give isl_union_map *pearl_deps_get_all(pearl_deps *deps)
{
	isl_union_map *all = isl_union_map_copy(deps->rel[0]);
	int k;

	for (k = 1; k < PEARL_DEP_KINDS; ++k)
		all = isl_union_map_union(all, isl_union_map_copy(deps->rel[k]));
	return isl_union_map_coalesce(all);
}

/* The distance vectors of `dep` (taken) in the space of `prefix` (kept),
 * limited to pairs inside the band. NULL on error; an empty set if none. */
static __isl_give isl_set *distances(__isl_take isl_union_map *dep,
				     __isl_keep isl_union_map *prefix,
				     int dim)
{
	dep = isl_union_map_apply_domain(dep, isl_union_map_copy(prefix));
	dep = isl_union_map_apply_range(dep, isl_union_map_copy(prefix));
	return isl_set_coalesce(pearl_union_set_unnamed_set(
	    isl_union_map_deltas(dep), dim));
}

/* Distances whose first `outer` components are all zero. */
static __isl_give isl_set *same_outer(__isl_take isl_set *d, int outer)
{
	int i;

	for (i = 0; i < outer; ++i)
		d = isl_set_fix_si(d, isl_dim_set, i, 0);
	return d;
}

/* pearl_stat_ok if member `member` of `band` (kept) is a loop of a band
 * node; otherwise an error in deps' context. */
static pearl_stat check_loop(pearl_deps *deps,
			     __isl_keep isl_schedule_node *band, int member)
{
	if (isl_schedule_node_get_type(band) != isl_schedule_node_band ||
	    member < 0 || member >= isl_schedule_node_band_n_member(band))
		return pearl_ctx_error(deps->ctx, "not a loop of a band node");
	return pearl_stat_ok;
}

pearl_stat pearl_deps_analyze_loop(pearl_deps *deps,
				   __isl_keep isl_schedule_node *band, int member,
				   struct pearl_loop_deps *out)
{
	isl_union_map *prefix;
	isl_set *all = NULL;
	int depth, k;

	out->parallel = 1;
	out->carried = 0;
	out->distances = NULL;
	if (check_loop(deps, band, member) < 0)
		return pearl_stat_error;
	depth = pearl_band_prefix_dim(band, member) - 1;
	prefix = pearl_band_prefix_schedule(band, member);
	for (k = 0; k < PEARL_DEP_KINDS; ++k) {
		isl_set *d, *here;
		isl_bool nonzero, positive;

		d = distances(isl_union_map_copy(deps->rel[k]), prefix,
			      depth + 1);
		isl_set *zero;

		here = same_outer(isl_set_copy(d), depth);
		zero = isl_set_fix_si(isl_set_copy(here), isl_dim_set, depth, 0);
		nonzero = isl_bool_not(isl_set_is_subset(here, zero));
		isl_set_free(zero);
		here = isl_set_lower_bound_si(here, isl_dim_set, depth, 1);
		positive = isl_bool_not(isl_set_is_empty(here));
		isl_set_free(here);
		if (nonzero < 0 || positive < 0 || !d) {
			isl_set_free(d);
			isl_set_free(all);
			isl_union_map_free(prefix);
			return pearl_ctx_isl_error(deps->ctx, "loop dependences");
		}
		if (nonzero)
			out->parallel = 0;
		if (positive)
			out->carried |= 1u << k;
		all = all ? isl_set_union(all, d) : d;
	}
	isl_union_map_free(prefix);
	all = isl_set_coalesce(all);
	if (!all)
		return pearl_ctx_isl_error(deps->ctx, "loop dependences");
	if (isl_set_is_empty(all) == isl_bool_true)
		all = isl_set_free(all);
	out->distances = all;
	return pearl_stat_ok;
}

/* The dependences of all kinds together (kept; computed once). */
static __isl_keep isl_union_map *peek_all(pearl_deps *deps)
{
	if (!deps->all)
		deps->all = pearl_deps_get_all(deps);
	return deps->all;
}

/* The prefix schedule of member `member` of `band` (kept) as a function:
 * (outer loops..., member) (__isl_give). Unlike
 * pearl_band_prefix_schedule, its domain is not limited to the instances
 * that reach the band. */
static __isl_give isl_multi_union_pw_aff *prefix_function(
    __isl_keep isl_schedule_node *band, int member)
{
	isl_multi_union_pw_aff *prefix, *partial;
	isl_size n = isl_schedule_node_band_n_member(band);

	if (n < 0)
		return NULL;
	prefix = isl_schedule_node_get_prefix_schedule_multi_union_pw_aff(band);
	partial = isl_schedule_node_band_get_partial_schedule(band);
	partial = isl_multi_union_pw_aff_drop_dims(partial, isl_dim_set,
						   member + 1, n - member - 1);
	return isl_multi_union_pw_aff_flat_range_product(prefix, partial);
}

/* Dimensions first..first+n-1 of `f` (kept) (__isl_give). */
static __isl_give isl_multi_union_pw_aff *dims(
    __isl_keep isl_multi_union_pw_aff *f, int first, int n)
{
	isl_size dim = isl_multi_union_pw_aff_dim(f, isl_dim_set);

	if (dim < 0)
		return NULL;
	f = isl_multi_union_pw_aff_drop_dims(isl_multi_union_pw_aff_copy(f),
					     isl_dim_set, first + n,
					     dim - first - n);
	return isl_multi_union_pw_aff_drop_dims(f, isl_dim_set, 0, first);
}

/* The pairs of `dep` (taken) between instances that reach `band` (kept)
 * and agree on the first `outer` dimensions of `f` (kept), the band's
 * prefix function (__isl_give). Nothing is projected: the pairs stay in
 * the statements' spaces, which keeps the later tests cheap. */
static __isl_give isl_union_map *same_outer_pairs(
    __isl_take isl_union_map *dep, __isl_keep isl_schedule_node *band,
    __isl_keep isl_multi_union_pw_aff *f, int outer)
{
	isl_union_set *dom = isl_schedule_node_get_domain(band);

	dep = isl_union_map_intersect_domain(dep, isl_union_set_copy(dom));
	dep = isl_union_map_intersect_range(dep, dom);
	if (outer > 0)
		dep = isl_union_map_eq_at_multi_union_pw_aff(dep,
							     dims(f, 0, outer));
	return dep;
}

struct ordered_at_data {
	isl_multi_union_pw_aff *at; /* kept */
	int lt;
	isl_bool found;
};

/* Sets data->found if `map` (taken) has a pair ordered as data asks, and
 * then stops the walk (an error that found tells apart). */
static isl_stat map_ordered_at(__isl_take isl_map *map, void *user)
{
	struct ordered_at_data *data = user;
	isl_union_map *one = isl_union_map_from_map(map);
	isl_multi_union_pw_aff *at = isl_multi_union_pw_aff_copy(data->at);
	isl_bool empty;

	if (data->lt)
		one = isl_union_map_lex_lt_at_multi_union_pw_aff(one, at);
	else
		one = isl_union_map_lex_gt_at_multi_union_pw_aff(one, at);
	empty = isl_union_map_is_empty(one);
	isl_union_map_free(one);
	data->found = isl_bool_not(empty);
	return data->found == isl_bool_false ? isl_stat_ok : isl_stat_error;
}

/* Whether `dep` (taken) has a pair whose source comes before its target
 * (lt) or after it (!lt) in dimension `k` of `f` (kept). The maps of dep
 * (one per pair of statements) are tested one by one, up to the first
 * that has one: a loop that carries a dependence is told as soon as one
 * of its pairs of statements is found (nussinov: most of the cost of a
 * refused parallelization). */
static isl_bool ordered_at(__isl_take isl_union_map *dep,
			   __isl_keep isl_multi_union_pw_aff *f, int k, int lt)
{
	struct ordered_at_data data = { dims(f, k, 1), lt, isl_bool_false };

	if (!data.at || !dep)
		data.found = isl_bool_error;
	else
		isl_union_map_foreach_map(dep, map_ordered_at, &data);
	isl_multi_union_pw_aff_free(data.at);
	isl_union_map_free(dep);
	return data.found;
}

/* The pairs of `dep` (taken) that agree on dimension `k` of `f` (kept)
 * (__isl_give). */
static __isl_give isl_union_map *equal_at(__isl_take isl_union_map *dep,
					  __isl_keep isl_multi_union_pw_aff *f,
					  int k)
{
	return isl_union_map_eq_at_multi_union_pw_aff(dep, dims(f, k, 1));
}

/* Whether a pair of `dep` (taken) has its source after its target in the
 * first of dimensions at[0..n-1] of `f` (kept), taken in that order, in
 * which the two differ: the order those dimensions would run the pair in
 * turns it around. */
static isl_bool turns_around(__isl_take isl_union_map *dep,
			     __isl_keep isl_multi_union_pw_aff *f,
			     const int *at, int n)
{
	isl_bool back = isl_bool_false;
	int i;

	for (i = 0; i < n && back == isl_bool_false; ++i) {
		/* equal in the dimensions before, source after target */
		back = ordered_at(isl_union_map_copy(dep), f, at[i], 0);
		if (i + 1 < n)
			dep = equal_at(dep, f, at[i]);
	}
	isl_union_map_free(dep);
	return back;
}

/* For the pairs of `dep` (taken) that agree on the first `depth`
 * dimensions of `f` (kept, the prefix function of `band`): whether one has
 * a positive distance at dimension `depth` (*positive), and whether one
 * has a nonzero distance there (*nonzero, may be NULL: then not tested). */
static pearl_stat distance_signs(__isl_take isl_union_map *dep,
				 __isl_keep isl_schedule_node *band,
				 __isl_keep isl_multi_union_pw_aff *f,
				 int depth, isl_bool *positive,
				 isl_bool *nonzero)
{
	dep = same_outer_pairs(dep, band, f, depth);
	*positive = ordered_at(isl_union_map_copy(dep), f, depth, 1);
	if (nonzero)
		*nonzero = *positive ? *positive
				     : ordered_at(isl_union_map_copy(dep), f,
						  depth, 0);
	isl_union_map_free(dep);
	if (*positive < 0 || (nonzero && *nonzero < 0))
		return pearl_stat_error;
	return pearl_stat_ok;
}

pearl_stat pearl_deps_loop_parallel(pearl_deps *deps,
				    __isl_keep isl_schedule_node *band,
				    int member, int *parallel,
				    unsigned *carried)
{
	isl_multi_union_pw_aff *f;
	isl_bool positive, nonzero;
	pearl_stat st;
	int depth, k;

	*parallel = 1;
	if (carried)
		*carried = 0;
	if (check_loop(deps, band, member) < 0)
		return pearl_stat_error;
	depth = pearl_band_prefix_dim(band, member) - 1;
	f = prefix_function(band, member);
	st = distance_signs(isl_union_map_copy(peek_all(deps)), band, f,
			    depth, &positive, &nonzero);
	if (st == pearl_stat_ok && nonzero) {
		*parallel = 0;
		for (k = 0; carried && k < PEARL_DEP_KINDS &&
			    st == pearl_stat_ok; ++k) {
			st = distance_signs(isl_union_map_copy(deps->rel[k]),
					    band, f, depth, &positive, NULL);
			if (st == pearl_stat_ok && positive)
				*carried |= 1u << k;
		}
	}
	isl_multi_union_pw_aff_free(f);
	if (st < 0)
		return pearl_ctx_isl_error(deps->ctx, "loop dependences");
	return pearl_stat_ok;
}

/* The pairs of `dep` (taken) whose values at dimension `k` of `f` (kept)
 * fall in one group of `factor` (the same floor(value / factor): one tile
 * of isl_schedule_node_band_tile) (__isl_give). */
static __isl_give isl_union_map *same_group_at(
    __isl_take isl_union_map *dep, __isl_keep isl_multi_union_pw_aff *f,
    int k, int factor)
{
	isl_multi_union_pw_aff *at = dims(f, k, 1);
	isl_union_pw_aff *group = isl_multi_union_pw_aff_get_at(at, 0);
	isl_ctx *ctx = isl_multi_union_pw_aff_get_ctx(f);

	isl_multi_union_pw_aff_free(at);
	group = isl_union_pw_aff_scale_down_val(
	    group, isl_val_int_from_si(ctx, factor));
	group = isl_union_pw_aff_floor(group);
	return isl_union_map_eq_at_multi_union_pw_aff(
	    dep, isl_multi_union_pw_aff_from_union_pw_aff(group));
}

pearl_stat pearl_deps_loop_jammable(pearl_deps *deps,
				    __isl_keep isl_schedule_node *band,
				    int member, int n, int factor,
				    int *jammable)
{
	isl_multi_union_pw_aff *f;
	isl_union_map *dep;
	isl_bool back;
	int inside[MAX_LOOPS_IN_TURN], dim, k;

	*jammable = 0;
	if (check_loop(deps, band, member) < 0)
		return pearl_stat_error;
	dim = pearl_band_prefix_dim(band, member);
	if (n < 2 || n > dim || n - 1 > MAX_LOOPS_IN_TURN || factor < 2)
		return pearl_ctx_error(deps->ctx, "no unroll-and-jam of %d "
				       "loops by %d among the band's %d", n,
				       factor, dim);
	f = prefix_function(band, member);
	dep = same_outer_pairs(isl_union_map_copy(peek_all(deps)), band, f,
			       dim - n);
	/* the pairs the jam runs side by side: one group of copies, the
	 * source's copy before the target's */
	dep = same_group_at(dep, f, dim - n, factor);
	dep = isl_union_map_lex_lt_at_multi_union_pw_aff(
	    dep, dims(f, dim - n, 1));
	/* the loops inside, in their order, decide the jammed pairs */
	for (k = 0; k < n - 1; ++k)
		inside[k] = dim - n + 1 + k;
	back = turns_around(dep, f, inside, n - 1);
	isl_multi_union_pw_aff_free(f);
	if (back < 0)
		return pearl_ctx_isl_error(deps->ctx, "loop dependences");
	*jammable = !back;
	return pearl_stat_ok;
}

pearl_stat pearl_deps_loops_permutable(pearl_deps *deps,
				       __isl_keep isl_schedule_node *band,
				       int member, int n, int *permutable)
{
	isl_multi_union_pw_aff *f;
	isl_union_map *dep;
	isl_bool neg = isl_bool_false;
	int dim, k;

	*permutable = 1;
	if (check_loop(deps, band, member) < 0)
		return pearl_stat_error;
	dim = pearl_band_prefix_dim(band, member);
	if (n < 1 || n > dim)
		return pearl_ctx_error(deps->ctx, "%d loops are not inside the "
				       "band's %d", n, dim);
	f = prefix_function(band, member);
	dep = same_outer_pairs(isl_union_map_copy(peek_all(deps)), band, f,
			       dim - n);
	for (k = dim - n; k < dim && neg == isl_bool_false; ++k)
		neg = ordered_at(isl_union_map_copy(dep), f, k, 0);
	isl_union_map_free(dep);
	isl_multi_union_pw_aff_free(f);
	if (neg < 0)
		return pearl_ctx_isl_error(deps->ctx, "loop dependences");
	*permutable = !neg;
	return pearl_stat_ok;
}

pearl_stat pearl_deps_loops_reorderable(pearl_deps *deps,
					__isl_keep isl_schedule_node *band,
					int member, int n, const int *order,
					int *legal)
{
	isl_multi_union_pw_aff *f;
	isl_union_map *dep;
	isl_bool back;
	unsigned seen = 0;
	int at[MAX_LOOPS_IN_TURN], dim, i;

	*legal = 0;
	if (check_loop(deps, band, member) < 0)
		return pearl_stat_error;
	dim = pearl_band_prefix_dim(band, member);
	if (n < 2 || n > dim || n > MAX_LOOPS_IN_TURN)
		return pearl_ctx_error(deps->ctx, "no reordering of %d loops "
				       "among the band's %d", n, dim);
	for (i = 0; i < n; ++i) {
		if (order[i] < 0 || order[i] >= n || (seen >> order[i]) & 1)
			return pearl_ctx_error(deps->ctx, "the new order of "
					       "%d loops is not a permutation",
					       n);
		seen |= 1u << order[i];
	}
	for (i = 0; i < n; ++i)
		at[i] = dim - n + order[i];
	f = prefix_function(band, member);
	dep = same_outer_pairs(isl_union_map_copy(peek_all(deps)), band, f,
			       dim - n);
	back = turns_around(dep, f, at, n);
	isl_multi_union_pw_aff_free(f);
	if (back < 0)
		return pearl_ctx_isl_error(deps->ctx, "loop dependences");
	*legal = !back;
	return pearl_stat_ok;
}

pearl_stat pearl_deps_backward_between(pearl_deps *deps,
				       __isl_keep isl_schedule_node *band,
				       int member,
				       __isl_keep isl_union_set *before,
				       __isl_keep isl_union_set *after,
				       int *backward)
{
	isl_multi_union_pw_aff *f;
	isl_union_map *dep;
	isl_bool empty;
	int depth;

	*backward = 1;
	if (check_loop(deps, band, member) < 0)
		return pearl_stat_error;
	depth = pearl_band_prefix_dim(band, member) - 1;
	/* both sets lie in the band's subtree: no need to restrict the
	 * pairs to it, and without any pair the loops around do not
	 * matter */
	dep = isl_union_map_intersect_domain(
	    isl_union_map_copy(peek_all(deps)), isl_union_set_copy(after));
	dep = isl_union_map_intersect_range(dep, isl_union_set_copy(before));
	empty = isl_union_map_is_empty(dep);
	if (empty == isl_bool_false && depth > 0) {
		f = prefix_function(band, member);
		dep = isl_union_map_eq_at_multi_union_pw_aff(dep,
							     dims(f, 0, depth));
		isl_multi_union_pw_aff_free(f);
		empty = isl_union_map_is_empty(dep);
	}
	isl_union_map_free(dep);
	if (empty < 0)
		return pearl_ctx_isl_error(deps->ctx, "loop dependences");
	*backward = !empty;
	return pearl_stat_ok;
}
