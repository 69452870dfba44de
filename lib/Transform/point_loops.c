/* Point loops of tilings: recognizing them, and making them run over the
 * original iterator. */
#include <isl/aff.h>
#include <isl/schedule_node.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include "sched_internal.h"

/* A test of one affine piece, and whether every piece passed it so far. */
struct every_piece {
	int (*ok)(__isl_keep isl_aff *aff);
	int all;
};

static isl_stat piece_passes(__isl_take isl_set *set, __isl_take isl_aff *aff,
			     void *user)
{
	struct every_piece *data = user;

	if (!data->ok(aff))
		data->all = 0;
	isl_set_free(set);
	isl_aff_free(aff);
	return data->all ? isl_stat_ok : isl_stat_error;
}

static isl_stat pw_passes(__isl_take isl_pw_aff *pa, void *user)
{
	isl_stat r = isl_pw_aff_foreach_piece(pa, piece_passes, user);

	isl_pw_aff_free(pa);
	return r;
}

/* Whether every affine piece of `upa` (kept) passes `ok`; 0 on error. */
static int every_piece(__isl_keep isl_union_pw_aff *upa,
		       int (*ok)(__isl_keep isl_aff *aff))
{
	struct every_piece data = { ok, 1 };

	if (!upa || isl_union_pw_aff_foreach_pw_aff(upa, pw_passes, &data) < 0)
		return 0;
	return data.all;
}

/* Whether `aff` (kept) is of the form e - k * floor(e / k): a first floor
 * division with a negative coefficient. */
static int is_point_piece(__isl_keep isl_aff *aff)
{
	isl_val *c = NULL;
	int point;

	if (isl_aff_dim(aff, isl_dim_div) > 0)
		c = isl_aff_get_coefficient_val(aff, isl_dim_div, 0);
	point = c && isl_val_is_neg(c) == isl_bool_true;
	isl_val_free(c);
	return point;
}

/* Whether `aff` (kept) has no floor division. */
static int has_no_div(__isl_keep isl_aff *aff)
{
	return isl_aff_dim(aff, isl_dim_div) == 0;
}

int pearl_band_is_point(__isl_keep isl_schedule_node *node)
{
	isl_multi_union_pw_aff *mupa;
	isl_union_pw_aff *upa;
	int point;

	if (isl_schedule_node_band_n_member(node) < 1)
		return 0;
	mupa = isl_schedule_node_band_get_partial_schedule(node);
	upa = isl_multi_union_pw_aff_get_at(mupa, 0);
	isl_multi_union_pw_aff_free(mupa);
	point = every_piece(upa, is_point_piece);
	isl_union_pw_aff_free(upa);
	return point;
}

/* Whether `upa` (kept) is defined on every instance that reaches `node`
 * (kept). */
static int defined_on_domain(__isl_keep isl_union_pw_aff *upa,
			     __isl_keep isl_schedule_node *node)
{
	isl_union_set *reaching = isl_schedule_node_get_domain(node);
	isl_union_set *defined =
	    isl_union_pw_aff_domain(isl_union_pw_aff_copy(upa));
	isl_bool subset = isl_union_set_is_subset(reaching, defined);

	isl_union_set_free(reaching);
	isl_union_set_free(defined);
	return subset == isl_bool_true;
}

/* The point loop of band `node` (kept, one member of the form
 * e - k * floor(e / k)) made to run over e itself: e - k * floor(e / k)
 * plus the member k * floor(e / k) of the nearest enclosing band whose
 * sum with it has no floor division (its tile loop), or NULL if there is
 * none. Inside the tile loop that member is fixed, so the sum orders the
 * instances as the point loop does and the loop has the same iterations,
 * shifted: isl's shifted point loops (0 to k) leave every use of the
 * original iterator as a sum of the tile and point iterators, and LLVM
 * refuses to unroll a loop inside whose trip count it then finds too
 * costly to compute (PolyBench nussinov's reduction loop, tiled: 0.8x of
 * the untiled code, where the same loop is unrolled by 4). */
static __isl_give isl_union_pw_aff *unshifted_point(
    __isl_keep isl_schedule_node *node)
{
	isl_multi_union_pw_aff *mupa;
	isl_union_pw_aff *point, *sum = NULL;
	int depth = isl_schedule_node_get_tree_depth(node);
	int g, m, n;

	mupa = isl_schedule_node_band_get_partial_schedule(node);
	point = isl_multi_union_pw_aff_get_at(mupa, 0);
	isl_multi_union_pw_aff_free(mupa);
	for (g = 1; g <= depth && !sum; ++g) {
		isl_schedule_node *anc = isl_schedule_node_ancestor(
		    isl_schedule_node_copy(node), g);

		if (isl_schedule_node_get_type(anc) != isl_schedule_node_band) {
			isl_schedule_node_free(anc);
			continue;
		}
		mupa = isl_schedule_node_band_get_partial_schedule(anc);
		n = isl_schedule_node_band_n_member(anc);
		isl_schedule_node_free(anc);
		for (m = 0; m < n && !sum; ++m) {
			sum = isl_union_pw_aff_add(
			    isl_multi_union_pw_aff_get_at(mupa, m),
			    isl_union_pw_aff_copy(point));
			if (!every_piece(sum, has_no_div))
				sum = isl_union_pw_aff_free(sum);
		}
		isl_multi_union_pw_aff_free(mupa);
	}
	isl_union_pw_aff_free(point);
	if (sum && !defined_on_domain(sum, node))
		sum = isl_union_pw_aff_free(sum);
	return sum;
}

/* Band `node` (taken, one member) with its partial schedule replaced by
 * `upa` (taken), keeping its coincidence, loop type and AST build
 * options. */
static __isl_give isl_schedule_node *band_replace_schedule(
    __isl_take isl_schedule_node *node, __isl_take isl_union_pw_aff *upa)
{
	isl_bool coincident =
	    isl_schedule_node_band_member_get_coincident(node, 0);
	isl_bool permutable = isl_schedule_node_band_get_permutable(node);
	enum isl_ast_loop_type type =
	    isl_schedule_node_band_member_get_ast_loop_type(node, 0);
	isl_union_set *options =
	    isl_schedule_node_band_get_ast_build_options(node);

	node = isl_schedule_node_delete(node);
	node = isl_schedule_node_insert_partial_schedule(
	    node, isl_multi_union_pw_aff_from_union_pw_aff(upa));
	node = isl_schedule_node_band_member_set_coincident(
	    node, 0, coincident == isl_bool_true);
	node = isl_schedule_node_band_set_permutable(
	    node, permutable == isl_bool_true);
	node = isl_schedule_node_band_member_set_ast_loop_type(node, 0, type);
	return isl_schedule_node_band_set_ast_build_options(node, options);
}

__isl_give isl_schedule_node *pearl_band_unshift_point(
    __isl_take isl_schedule_node *node)
{
	isl_union_pw_aff *unshifted;

	if (isl_schedule_node_band_n_member(node) != 1 ||
	    !pearl_band_is_point(node))
		return node;
	unshifted = unshifted_point(node);
	return unshifted ? band_replace_schedule(node, unshifted) : node;
}
