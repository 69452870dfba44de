/* Queries on isl schedule trees (see pearl/schedule.h). */
#include "pearl/schedule.h"

#include <isl/aff.h>
#include <isl/space.h>

__isl_give isl_union_map *pearl_band_prefix_schedule(
    __isl_keep isl_schedule_node *band, int member)
{
	isl_union_map *prefix;
	isl_multi_union_pw_aff *partial;
	isl_size n = isl_schedule_node_band_n_member(band);

	if (n < 0 || member < 0 || member >= n)
		return NULL;
	prefix = isl_schedule_node_get_prefix_schedule_union_map(band);
	partial = isl_schedule_node_band_get_partial_schedule(band);
	partial = isl_multi_union_pw_aff_drop_dims(partial, isl_dim_set,
						   member + 1, n - member - 1);
	prefix = isl_union_map_flat_range_product(
	    prefix, isl_union_map_from_multi_union_pw_aff(partial));
	return isl_union_map_intersect_domain(
	    prefix, isl_schedule_node_get_domain(band));
}

int pearl_band_prefix_dim(__isl_keep isl_schedule_node *band, int member)
{
	isl_size depth = isl_schedule_node_get_schedule_depth(band);

	return depth < 0 ? -1 : depth + member + 1;
}

__isl_give isl_set *pearl_union_set_unnamed_set(__isl_take isl_union_set *uset,
						int dim)
{
	isl_space *space;
	isl_set *set;

	if (!uset)
		return NULL;
	space = isl_space_set_alloc(isl_union_set_get_ctx(uset), 0, dim);
	space = isl_space_align_params(space, isl_union_set_get_space(uset));
	set = isl_union_set_extract_set(uset, space);
	isl_union_set_free(uset);
	return set;
}
