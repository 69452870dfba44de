/* Whether the accesses of a loop are contiguous from one iteration to the
 * next: what makes a loop worth leaving to LLVM's loop vectorizer. */
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "sched_internal.h"

/* The map from each instance under band `node` (kept, one member) to the
 * instances under it one iteration of the band's loop later (the loops
 * outside at the same values; of every statement: check_access keeps the
 * pairs of one statement), or NULL on error. */
static __isl_give isl_union_map *next_iteration(
    __isl_keep isl_schedule_node *node)
{
	isl_union_map *sched, *inner, *later;
	isl_union_set *ranges;
	isl_set *range;
	isl_space *space;
	isl_multi_aff *step;
	isl_aff *last;
	isl_size n;

	sched = isl_schedule_node_get_prefix_schedule_union_map(node);
	inner = isl_schedule_node_band_get_partial_schedule_union_map(node);
	sched = isl_union_map_flat_range_product(sched, inner);
	sched = isl_union_map_intersect_domain(
	    sched, isl_schedule_node_get_domain(node));
	ranges = isl_union_map_range(isl_union_map_copy(sched));
	if (isl_union_set_n_set(ranges) != 1) { /* no instance, or an error */
		isl_union_set_free(ranges);
		return isl_union_map_free(sched);
	}
	range = isl_set_from_union_set(ranges);
	space = isl_set_get_space(range);
	isl_set_free(range);
	n = isl_space_dim(space, isl_dim_set);
	if (n < 1) {
		isl_space_free(space);
		return isl_union_map_free(sched);
	}
	step = isl_multi_aff_identity(isl_space_map_from_set(space));
	last = isl_aff_add_constant_si(isl_multi_aff_get_at(step, n - 1), 1);
	step = isl_multi_aff_set_at(step, n - 1, last);
	/* instance -> schedule -> schedule one step later -> instance (in
	 * steps: the order of evaluation of arguments is not specified, and
	 * reverse takes `sched`) */
	later = isl_union_map_apply_range(
	    isl_union_map_copy(sched),
	    isl_union_map_from_map(isl_map_from_multi_aff(step)));
	return isl_union_map_apply_range(later, isl_union_map_reverse(sched));
}

/* Whether `deltas` (kept, differences of array elements) lie in
 * { [0, ..., 0, c] : -1 <= c <= 1 }. */
static isl_bool unit_stride(__isl_keep isl_set *deltas)
{
	isl_size n = isl_set_dim(deltas, isl_dim_set);
	isl_set *allowed;
	isl_bool ok;
	int i;

	if (n < 0)
		return isl_bool_error;
	allowed = isl_set_universe(isl_set_get_space(deltas));
	for (i = 0; i + 1 < n; ++i)
		allowed = isl_set_fix_si(allowed, isl_dim_set, i, 0);
	if (n > 0) {
		allowed = isl_set_lower_bound_si(allowed, isl_dim_set, n - 1, -1);
		allowed = isl_set_upper_bound_si(allowed, isl_dim_set, n - 1, 1);
	}
	ok = isl_set_is_subset(deltas, allowed);
	isl_set_free(allowed);
	return ok;
}

struct stride_data {
	isl_union_map *next; /* kept */
	int contiguous;      /* cleared at the first strided access */
};

/* Clears data->contiguous if access `bmap` (taken, one access of one
 * statement) moves by more than one element along the last array
 * dimension, or at all along another, from one iteration to the next. */
static isl_stat check_access(__isl_take isl_basic_map *bmap, void *user)
{
	struct stride_data *data = user;
	isl_map *access = isl_map_from_basic_map(bmap);
	isl_space *stmt = isl_space_domain(isl_map_get_space(access));
	isl_map *next, *moved;
	isl_set *deltas;
	isl_bool ok;

	next = isl_union_map_extract_map(
	    data->next, isl_space_map_from_set(stmt));
	/* element -> instance -> next instance -> element (in steps: the
	 * order of evaluation of arguments is not specified) */
	moved = isl_map_apply_range(isl_map_reverse(isl_map_copy(access)),
				    next);
	moved = isl_map_apply_range(moved, access);
	deltas = isl_map_deltas(moved);
	ok = unit_stride(deltas);
	isl_set_free(deltas);
	if (ok != isl_bool_true)
		data->contiguous = 0;
	return data->contiguous ? isl_stat_ok : isl_stat_error;
}

static isl_stat check_map(__isl_take isl_map *map, void *user)
{
	isl_stat r = isl_map_foreach_basic_map(map, check_access, user);

	isl_map_free(map);
	return r;
}

int pearl_band_accesses_contiguous(pearl_sched *sched,
				   __isl_keep isl_schedule_node *node)
{
	struct stride_data data = { NULL, 1 };
	isl_union_map *accesses;

	data.next = next_iteration(node);
	if (!data.next)
		return 0;
	accesses = isl_union_map_union(pearl_program_get_reads(sched->prog),
				       pearl_program_get_writes(sched->prog));
	accesses = isl_union_map_intersect_domain(
	    accesses, isl_schedule_node_get_domain(node));
	if (isl_union_map_foreach_map(accesses, check_map, &data) < 0)
		data.contiguous = 0;
	isl_union_map_free(accesses);
	isl_union_map_free(data.next);
	return data.contiguous;
}
