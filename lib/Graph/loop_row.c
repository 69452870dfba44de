/* One loop as an affine function of a statement's original iterators
 * (Graph/loop_row.h). */
#include <isl/aff.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>
#include <limits.h>
#include <string.h>

#include "loop_row.h"

/* Keeps the first piece it is given in *user (an isl_aff **). */
static isl_stat take_first(__isl_take isl_set *set, __isl_take isl_aff *aff,
			   void *user)
{
	isl_aff **first = user;

	isl_set_free(set);
	if (*first) {
		isl_aff_free(aff);
		return isl_stat_ok;
	}
	*first = aff;
	return isl_stat_ok;
}

__isl_give isl_aff *loop_row_first_piece(__isl_take isl_pw_aff *pa)
{
	isl_aff *aff = NULL;

	if (pa)
		isl_pw_aff_foreach_piece(pa, take_first, &aff);
	isl_pw_aff_free(pa);
	return aff;
}

/* The integer `v` (kept) as a long, saturated at LONG_MIN and LONG_MAX
 * (no isl error, no wrapped number: constants of loops near the limits of
 * 64-bit indices, scaled), 0 if it is not an integer. */
static long val_get_long_sat(__isl_keep isl_val *v)
{
	isl_ctx *ctx = isl_val_get_ctx(v);
	isl_val *min, *max;
	long r = 0;

	if (isl_val_is_int(v) != isl_bool_true)
		return 0;
	min = isl_val_int_from_si(ctx, LONG_MIN);
	max = isl_val_int_from_si(ctx, LONG_MAX);
	if (isl_val_lt(v, min) == isl_bool_true)
		r = LONG_MIN;
	else if (isl_val_gt(v, max) == isl_bool_true)
		r = LONG_MAX;
	else
		r = isl_val_get_num_si(v);
	isl_val_free(min);
	isl_val_free(max);
	return r;
}

long loop_row_coefficient(__isl_keep isl_aff *aff, enum isl_dim_type type,
			int pos, long scale)
{
	isl_val *v = type == isl_dim_cst
			 ? isl_aff_get_constant_val(aff)
			 : isl_aff_get_coefficient_val(aff, type, pos);
	long r;

	v = isl_val_mul_ui(v, scale);
	r = v ? val_get_long_sat(v) : 0;
	isl_val_free(v);
	return r;
}

/* Fills row->coef and row->cst from `aff` (kept) over the statement's
 * iterators, scaled by `scale`. */
static void fill_row(struct loop_row *row, __isl_keep isl_aff *aff,
		     long scale)
{
	isl_size n_in = isl_aff_dim(aff, isl_dim_in);
	int i;

	for (i = 0; i < n_in && i < PEARL_GRAPH_MAX_DEPTH; ++i)
		row->coef[i] = loop_row_coefficient(aff, isl_dim_in, i, scale);
	row->cst = loop_row_coefficient(aff, isl_dim_cst, 0, scale);
	row->valid = 1;
}

void loop_row_compute(pearl_program *prog, const struct pearl_tree_node *n,
		      int stmt, struct loop_row *row)
{
	isl_multi_union_pw_aff *mupa;
	isl_union_pw_aff *upa;
	isl_space *space;
	isl_aff *aff;
	isl_size n_div;

	if (stmt < 0)
		return;
	row->stmt = stmt;
	mupa = isl_schedule_node_band_get_partial_schedule(n->band);
	upa = isl_multi_union_pw_aff_get_union_pw_aff(mupa, n->member);
	isl_multi_union_pw_aff_free(mupa);
	space = isl_space_from_domain(
	    isl_set_get_space(pearl_program_stmt_domain(prog, stmt)));
	space = isl_space_add_dims(space, isl_dim_out, 1);
	aff = loop_row_first_piece(isl_union_pw_aff_extract_pw_aff(upa, space));
	isl_union_pw_aff_free(upa);
	if (!aff)
		return;
	n_div = isl_aff_dim(aff, isl_dim_div);
	if (n_div > 0 && loop_row_coefficient(aff, isl_dim_div, 0, 1) > 0) {
		isl_aff *div = isl_aff_get_div(aff, 0);
		isl_val *den = isl_aff_get_denominator_val(div);

		if (den && isl_val_is_int(den) == isl_bool_true) {
			row->tile = isl_val_get_num_si(den);
			fill_row(row, div, row->tile);
		}
		isl_val_free(den);
		isl_aff_free(div);
	} else {
		fill_row(row, aff, 1);
		row->point = n_div > 0;
		if (row->point)
			row->point_tile = -loop_row_coefficient(aff, isl_dim_div, 0, 1);
	}
	isl_aff_free(aff);
}

int loop_row_same(const struct loop_row *a, const struct loop_row *b)
{
	return a->valid && b->valid &&
	       !memcmp(a->coef, b->coef, sizeof(a->coef));
}

