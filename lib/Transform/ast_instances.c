/* The statement instances an isl AST runs, read back from its loops,
 * conditions and calls, and compared with the domain it was built for.
 *
 * isl's AST generator has been seen to get this wrong without an error:
 * it dropped a statement (pearl-gen --seed 1208 --size-scale small,
 * "T(0,1,3,3) S(1,2,1,-1) I(3,0) T(1,2,4,2)", with disjunctions off) and
 * ran instances more than once (seed 170400, "T(0,1,1,2) T(0,1,2,3)
 * T(1,2,5,1)": 756 of 1,188 instances run twice or more). The check
 * reads the AST the way a code generator does (floor division, floor
 * remainder), so it vouches for the code generated from it. */
#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdio.h>
#include <stdlib.h>

#include "pearl/grow.h"
#include "pearl/transform.h"

/* The state of a walk over an AST.
 * iter[0..depth-1] are the iterators of the enclosing loops, outermost
 * first (owned); the iteration space at that point is a set space of
 * `depth` dimensions.
 * at (owned) maps the instances of each statement to the iterations
 * the schedule runs them at: the values of the bands above its leaf.
 * seen (owned) are the instances the user nodes walked so far run.
 * wrong is set when a user node runs an instance twice or one that an
 * earlier node runs too. */
struct walk {
	isl_id **iter;
	int depth;
	int capacity;
	isl_pw_multi_aff_list *at;
	isl_union_set *seen;
	int wrong;
};

static __isl_give isl_pw_aff *expr_pw_aff(struct walk *w,
					  __isl_keep isl_space *space,
					  __isl_keep isl_ast_expr *e);
static __isl_give isl_set *expr_set(struct walk *w,
				    __isl_keep isl_space *space,
				    __isl_keep isl_ast_expr *e);

/* The pw_aff of argument `i` of operation `e` (both kept). */
static __isl_give isl_pw_aff *arg_pw_aff(struct walk *w,
					 __isl_keep isl_space *space,
					 __isl_keep isl_ast_expr *e, int i)
{
	isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
	isl_pw_aff *pa = expr_pw_aff(w, space, arg);

	isl_ast_expr_free(arg);
	return pa;
}

/* The constant of argument `i` of `e` (kept): the divisor of a division,
 * which isl writes as an integer. NULL if it is not one. */
static __isl_give isl_val *arg_val(__isl_keep isl_ast_expr *e, int i)
{
	isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
	isl_val *v = NULL;

	if (arg && isl_ast_expr_get_type(arg) == isl_ast_expr_int)
		v = isl_ast_expr_int_get_val(arg);
	isl_ast_expr_free(arg);
	return v;
}

/* The identifier `id` (taken) on `space`: the innermost loop iterator of
 * that name, or a parameter. */
static __isl_give isl_pw_aff *id_pw_aff(struct walk *w,
					__isl_keep isl_space *space,
					__isl_take isl_id *id)
{
	int i;

	for (i = w->depth - 1; i >= 0; --i)
		if (w->iter[i] == id)
			break;
	if (i >= 0) {
		isl_id_free(id);
		return isl_pw_aff_var_on_domain(
		    isl_local_space_from_space(isl_space_copy(space)),
		    isl_dim_set, i);
	}
	return isl_pw_aff_param_on_domain_id(
	    isl_set_universe(isl_space_copy(space)), id);
}

/* floor(a / d) or a mod d (floor remainder), as the code generator
 * computes them, for operation `e` (kept). */
static __isl_give isl_pw_aff *division(struct walk *w,
				       __isl_keep isl_space *space,
				       __isl_keep isl_ast_expr *e,
				       int remainder)
{
	isl_pw_aff *a = arg_pw_aff(w, space, e, 0);
	isl_val *d = arg_val(e, 1);

	if (!d || !isl_val_is_pos(d)) {
		isl_val_free(d);
		return isl_pw_aff_free(a);
	}
	if (remainder)
		return isl_pw_aff_mod_val(a, d);
	return isl_pw_aff_floor(isl_pw_aff_scale_down_val(a, d));
}

/* min or max (as `max`) of all arguments of `e` (kept). */
static __isl_give isl_pw_aff *fold(struct walk *w,
				   __isl_keep isl_space *space,
				   __isl_keep isl_ast_expr *e, int max)
{
	isl_size i, n = isl_ast_expr_op_get_n_arg(e);
	isl_pw_aff *pa;

	if (n < 1)
		return NULL;
	pa = arg_pw_aff(w, space, e, 0);
	for (i = 1; i < n; ++i) {
		isl_pw_aff *next = arg_pw_aff(w, space, e, i);

		pa = max ? isl_pw_aff_max(pa, next) : isl_pw_aff_min(pa, next);
	}
	return pa;
}

/* "cond ? a : b" of `e` (kept). */
static __isl_give isl_pw_aff *conditional(struct walk *w,
					  __isl_keep isl_space *space,
					  __isl_keep isl_ast_expr *e)
{
	isl_ast_expr *c = isl_ast_expr_op_get_arg(e, 0);
	isl_set *then = expr_set(w, space, c);
	isl_set *other = isl_set_complement(isl_set_copy(then));
	isl_pw_aff *a = arg_pw_aff(w, space, e, 1);
	isl_pw_aff *b = arg_pw_aff(w, space, e, 2);

	isl_ast_expr_free(c);
	return isl_pw_aff_union_add(isl_pw_aff_intersect_domain(a, then),
				    isl_pw_aff_intersect_domain(b, other));
}

static __isl_give isl_pw_aff *op_pw_aff(struct walk *w,
					__isl_keep isl_space *space,
					__isl_keep isl_ast_expr *e)
{
	switch (isl_ast_expr_op_get_type(e)) {
	case isl_ast_expr_op_minus:
		return isl_pw_aff_neg(arg_pw_aff(w, space, e, 0));
	case isl_ast_expr_op_add:
		return isl_pw_aff_add(arg_pw_aff(w, space, e, 0),
				      arg_pw_aff(w, space, e, 1));
	case isl_ast_expr_op_sub:
		return isl_pw_aff_sub(arg_pw_aff(w, space, e, 0),
				      arg_pw_aff(w, space, e, 1));
	case isl_ast_expr_op_mul:
		return isl_pw_aff_mul(arg_pw_aff(w, space, e, 0),
				      arg_pw_aff(w, space, e, 1));
	case isl_ast_expr_op_div:
	case isl_ast_expr_op_fdiv_q:
	case isl_ast_expr_op_pdiv_q:
		return division(w, space, e, 0);
	case isl_ast_expr_op_pdiv_r:
	case isl_ast_expr_op_zdiv_r:
		return division(w, space, e, 1);
	case isl_ast_expr_op_min:
		return fold(w, space, e, 0);
	case isl_ast_expr_op_max:
		return fold(w, space, e, 1);
	case isl_ast_expr_op_select:
	case isl_ast_expr_op_cond:
		return conditional(w, space, e);
	default:
		return NULL;
	}
}

/* Expression `e` (kept) as a function on the iteration space `space`
 * (kept). NULL (with or without an isl error) if it is not one the check
 * can read. */
static __isl_give isl_pw_aff *expr_pw_aff(struct walk *w,
					  __isl_keep isl_space *space,
					  __isl_keep isl_ast_expr *e)
{
	switch (isl_ast_expr_get_type(e)) {
	case isl_ast_expr_id:
		return id_pw_aff(w, space, isl_ast_expr_id_get_id(e));
	case isl_ast_expr_int:
		return isl_pw_aff_val_on_domain(
		    isl_set_universe(isl_space_copy(space)),
		    isl_ast_expr_int_get_val(e));
	case isl_ast_expr_op:
		return op_pw_aff(w, space, e);
	default:
		return NULL;
	}
}

/* All iterations or none, for a constant condition `e` (kept) such as
 * "if (1)", which isl writes on some schedules. */
static __isl_give isl_set *constant_set(__isl_keep isl_space *space,
					__isl_keep isl_ast_expr *e)
{
	isl_val *v = isl_ast_expr_int_get_val(e);
	isl_bool zero = isl_val_is_zero(v);

	isl_val_free(v);
	if (zero < 0)
		return NULL;
	if (zero)
		return isl_set_empty(isl_space_copy(space));
	return isl_set_universe(isl_space_copy(space));
}

/* The iterations where condition `e` (kept) holds. */
static __isl_give isl_set *expr_set(struct walk *w,
				    __isl_keep isl_space *space,
				    __isl_keep isl_ast_expr *e)
{
	isl_ast_expr *l, *r;
	isl_set *set = NULL;

	if (isl_ast_expr_get_type(e) == isl_ast_expr_int)
		return constant_set(space, e);
	if (isl_ast_expr_get_type(e) != isl_ast_expr_op)
		return NULL;
	l = isl_ast_expr_op_get_arg(e, 0);
	r = isl_ast_expr_op_get_arg(e, 1);
	switch (isl_ast_expr_op_get_type(e)) {
	case isl_ast_expr_op_and:
	case isl_ast_expr_op_and_then:
		set = isl_set_intersect(expr_set(w, space, l),
					expr_set(w, space, r));
		break;
	case isl_ast_expr_op_or:
	case isl_ast_expr_op_or_else:
		set = isl_set_union(expr_set(w, space, l),
				    expr_set(w, space, r));
		break;
	case isl_ast_expr_op_eq:
		set = isl_pw_aff_eq_set(expr_pw_aff(w, space, l),
					expr_pw_aff(w, space, r));
		break;
	case isl_ast_expr_op_le:
		set = isl_pw_aff_le_set(expr_pw_aff(w, space, l),
					expr_pw_aff(w, space, r));
		break;
	case isl_ast_expr_op_lt:
		set = isl_pw_aff_lt_set(expr_pw_aff(w, space, l),
					expr_pw_aff(w, space, r));
		break;
	case isl_ast_expr_op_ge:
		set = isl_pw_aff_ge_set(expr_pw_aff(w, space, l),
					expr_pw_aff(w, space, r));
		break;
	case isl_ast_expr_op_gt:
		set = isl_pw_aff_gt_set(expr_pw_aff(w, space, l),
					expr_pw_aff(w, space, r));
		break;
	default:
		break;
	}
	isl_ast_expr_free(l);
	isl_ast_expr_free(r);
	return set;
}

static isl_stat walk_node(struct walk *w, __isl_keep isl_ast_node *node,
			  __isl_take isl_set *where);

/* Makes room for one more iterator on w->iter. */
static isl_stat grow_iterators(struct walk *w)
{
	if (pearl_grow(&w->iter, &w->capacity, w->depth + 1,
		       sizeof(*w->iter)) < 0)
		return isl_stat_error;
	return isl_stat_ok;
}

/* The iterations of for node `node` (kept) inside `where` (taken, in
 * the space of the loops around it), in a space with one more dimension
 * for its iterator: init <= it, (it - init) mod inc = 0 and cond hold.
 * The iterator's id is on w->iter while the body is walked. */
static isl_stat walk_for(struct walk *w, __isl_keep isl_ast_node *node,
			 __isl_take isl_set *where)
{
	isl_ast_expr *init = isl_ast_node_for_get_init(node);
	isl_ast_expr *cond = isl_ast_node_for_get_cond(node);
	isl_ast_expr *inc = isl_ast_node_for_get_inc(node);
	isl_ast_expr *it = isl_ast_node_for_get_iterator(node);
	isl_ast_node *body = isl_ast_node_for_get_body(node);
	isl_space *space;
	isl_pw_aff *var, *start = NULL;
	isl_val *step = NULL;
	isl_stat r = isl_stat_error;
	int pushed = it && grow_iterators(w) >= 0;

	if (pushed)
		w->iter[w->depth++] = isl_ast_expr_id_get_id(it);
	where = isl_set_add_dims(where, isl_dim_set, 1);
	if (!pushed)
		where = isl_set_free(where);
	space = isl_set_get_space(where);
	if (where) {
		start = expr_pw_aff(w, space, init);
		if (inc && isl_ast_expr_get_type(inc) == isl_ast_expr_int)
			step = isl_ast_expr_int_get_val(inc);
	}
	if (start && step && isl_val_is_pos(step)) {
		var = isl_pw_aff_var_on_domain(
		    isl_local_space_from_space(isl_space_copy(space)),
		    isl_dim_set, w->depth - 1);
		where = isl_set_intersect(
		    where, isl_pw_aff_zero_set(isl_pw_aff_mod_val(
			       isl_pw_aff_sub(isl_pw_aff_copy(var),
					      isl_pw_aff_copy(start)),
			       isl_val_copy(step))));
		where = isl_set_intersect(where, isl_pw_aff_ge_set(var, start));
		where = isl_set_intersect(where, expr_set(w, space, cond));
		r = walk_node(w, body, isl_set_coalesce(where));
	} else {
		isl_pw_aff_free(start);
		isl_set_free(where);
	}
	if (pushed) {
		w->depth--;
		isl_id_free(w->iter[w->depth]);
	}
	isl_val_free(step);
	isl_space_free(space);
	isl_ast_expr_free(it);
	isl_ast_expr_free(init);
	isl_ast_expr_free(cond);
	isl_ast_expr_free(inc);
	isl_ast_node_free(body);
	return r;
}

/* The then branch of if node `node` (kept) runs where its condition
 * holds, the else branch (if any) elsewhere in `where` (taken). */
static isl_stat walk_if(struct walk *w, __isl_keep isl_ast_node *node,
			__isl_take isl_set *where)
{
	isl_ast_expr *cond = isl_ast_node_if_get_cond(node);
	isl_space *space = isl_set_get_space(where);
	isl_set *holds = expr_set(w, space, cond);
	isl_ast_node *branch;
	isl_bool has_else = isl_ast_node_if_has_else_node(node);
	isl_stat r;

	isl_space_free(space);
	isl_ast_expr_free(cond);
	if (!holds || has_else < 0) {
		isl_set_free(holds);
		isl_set_free(where);
		return isl_stat_error;
	}
	branch = isl_ast_node_if_get_then_node(node);
	r = walk_node(w, branch,
		      isl_set_coalesce(isl_set_intersect(
			  isl_set_copy(where), isl_set_copy(holds))));
	isl_ast_node_free(branch);
	if (r >= 0 && has_else) {
		branch = isl_ast_node_if_get_else_node(node);
		r = walk_node(w, branch,
			      isl_set_coalesce(isl_set_subtract(
				  isl_set_copy(where), isl_set_copy(holds))));
		isl_ast_node_free(branch);
	}
	isl_set_free(holds);
	isl_set_free(where);
	return r;
}

static isl_stat walk_block(struct walk *w, __isl_keep isl_ast_node *node,
			   __isl_take isl_set *where)
{
	isl_ast_node_list *list = isl_ast_node_block_get_children(node);
	isl_size i, n = isl_ast_node_list_n_ast_node(list);
	isl_stat r = n < 0 ? isl_stat_error : isl_stat_ok;

	for (i = 0; r >= 0 && i < n; ++i) {
		isl_ast_node *child = isl_ast_node_list_get_ast_node(list, i);

		r = walk_node(w, child, isl_set_copy(where));
		isl_ast_node_free(child);
	}
	isl_ast_node_list_free(list);
	isl_set_free(where);
	return r;
}

/* Whether function `f` (kept) equals iterator k on all of `where` (kept;
 * f is defined there). */
static isl_bool equals_iterator(__isl_keep isl_pw_aff *f, int k,
				__isl_keep isl_set *where)
{
	isl_pw_aff *x = isl_pw_aff_var_on_domain(
	    isl_local_space_from_space(isl_set_get_space(where)), isl_dim_set,
	    k);
	isl_set *differ = isl_pw_aff_ne_set(isl_pw_aff_copy(f), x);
	isl_bool equal;

	differ = isl_set_intersect(differ, isl_set_copy(where));
	equal = isl_set_is_empty(differ);
	isl_set_free(differ);
	return equal;
}

/* Whether the user node that runs instance args(x) at each iteration x
 * of `where` runs each instance at most once, and none outside its
 * statement's domain (all kept; `at` maps the statement's instances to
 * the values of the bands above its leaf). The fast test, enough in the
 * common case: each loop of the node is one of those band dimensions, in
 * order (isl makes no loop for a dimension with a single value), so
 * iterator k equals at_j(args(x)) on `where` for some j after the
 * previous iterator's. Then args(x) determines x. The dimensions are
 * matched by these tests. isl also scales loops down by their stride
 * (then the iterator is not a band dimension): if the fast test fails,
 * the map from `where` to the instances must be injective, which isl
 * tests at a higher cost. The fast test is a substitution and a few
 * emptiness tests: the same with maps (composition, deltas) or with the
 * AST build's schedule (a map with dozens of integer divisions on tiled
 * and skewed schedules) took minutes. `where` comes coalesced (4x
 * faster on such a schedule): walk_for and walk_if coalesce the sets they
 * make, once for all the user nodes of a body. */
static isl_bool runs_on_schedule(__isl_keep isl_set *where,
				 __isl_keep isl_multi_pw_aff *args,
				 __isl_keep isl_pw_multi_aff *at)
{
	isl_pw_multi_aff *back;
	isl_set *defined;
	isl_size k, j = 0, n = isl_set_dim(where, isl_dim_set);
	isl_size m = isl_pw_multi_aff_dim(at, isl_dim_out);
	isl_bool ok;

	where = isl_set_copy(where);
	back = isl_pw_multi_aff_pullback_pw_multi_aff(
	    isl_pw_multi_aff_copy(at), isl_pw_multi_aff_from_multi_pw_aff(
		    isl_multi_pw_aff_copy(args)));
	defined = isl_pw_multi_aff_domain(isl_pw_multi_aff_copy(back));
	ok = isl_set_is_subset(where, defined);
	isl_set_free(defined);
	for (k = 0; ok == isl_bool_true && k < n; ++k) {
		ok = isl_bool_false;
		for (; ok == isl_bool_false && j < m; ++j) {
			isl_pw_aff *f = isl_pw_multi_aff_get_at(back, j);

			ok = equals_iterator(f, k, where);
			isl_pw_aff_free(f);
		}
	}
	isl_pw_multi_aff_free(back);
	if (ok == isl_bool_false) {
		isl_map *runs = isl_map_from_multi_pw_aff(
		    isl_multi_pw_aff_copy(args));

		runs = isl_map_intersect_domain(runs, isl_set_copy(where));
		ok = isl_map_is_injective(runs);
		isl_map_free(runs);
	}
	isl_set_free(where);
	return n < 0 || m < 0 ? isl_bool_error : ok;
}

/* The element of w->at for statement `id` (kept), NULL if none. */
static __isl_give isl_pw_multi_aff *statement_at(struct walk *w,
						 __isl_keep isl_id *id)
{
	isl_size i, n = isl_pw_multi_aff_list_size(w->at);

	for (i = 0; i < n; ++i) {
		isl_pw_multi_aff *at = isl_pw_multi_aff_list_get_at(w->at, i);
		isl_id *other = isl_pw_multi_aff_get_tuple_id(at, isl_dim_in);

		isl_id_free(other);
		if (other == id)
			return at;
		isl_pw_multi_aff_free(at);
	}
	return NULL;
}

/* Checks the instances user node `node` (kept) runs at the iterations
 * `where` (taken): args(x) for x in `where`, where args are the call's
 * arguments. They must run at the iterations w->at gives them, and no
 * earlier node may run them; they are added to w->seen. */
static isl_stat walk_user(struct walk *w, __isl_keep isl_ast_node *node,
			  __isl_take isl_set *where)
{
	isl_ctx *ctx = isl_set_get_ctx(where);
	isl_ast_expr *call = isl_ast_node_user_get_expr(node);
	isl_ast_expr *name = isl_ast_expr_op_get_arg(call, 0);
	isl_space *space = isl_set_get_space(where);
	isl_size i, n = isl_ast_expr_op_get_n_arg(call);
	isl_id *id = isl_ast_expr_id_get_id(name);
	isl_pw_multi_aff *at = statement_at(w, id);
	isl_space *range;
	isl_pw_aff_list *list;
	isl_multi_pw_aff *args;
	isl_set *ran;
	isl_bool ok;

	list = isl_pw_aff_list_alloc(ctx, n > 1 ? n - 1 : 1);
	for (i = 1; i < n; ++i)
		list = isl_pw_aff_list_add(list, arg_pw_aff(w, space, call, i));
	range = isl_space_set_from_params(isl_space_params(
	    isl_space_copy(space)));
	range = isl_space_add_dims(range, isl_dim_set, n > 1 ? n - 1 : 0);
	space = isl_space_map_from_domain_and_range(space, range);
	space = isl_space_set_tuple_id(space, isl_dim_out, id);
	args = isl_multi_pw_aff_from_pw_aff_list(space, list);
	ok = args && where && at ? runs_on_schedule(where, args, at)
				 : isl_bool_error;
	ran = isl_set_apply(where, isl_map_from_multi_pw_aff(args));
	if (ok == isl_bool_true) {
		isl_union_set *mine = isl_union_set_from_set(isl_set_copy(ran));

		ok = isl_union_set_is_disjoint(w->seen, mine);
		isl_union_set_free(mine);
	}
	if (ok == isl_bool_false)
		w->wrong = 1;
	w->seen = isl_union_set_add_set(w->seen, ran);
	isl_pw_multi_aff_free(at);
	isl_ast_expr_free(name);
	isl_ast_expr_free(call);
	return ok == isl_bool_true && w->seen ? isl_stat_ok : isl_stat_error;
}

/* Walks `node` (kept), which runs at the iterations `where` (taken). */
static isl_stat walk_node(struct walk *w, __isl_keep isl_ast_node *node,
			  __isl_take isl_set *where)
{
	isl_ast_node *inner;
	isl_stat r;

	if (!node || !where) {
		isl_set_free(where);
		return isl_stat_error;
	}
	switch (isl_ast_node_get_type(node)) {
	case isl_ast_node_for:
		return walk_for(w, node, where);
	case isl_ast_node_if:
		return walk_if(w, node, where);
	case isl_ast_node_block:
		return walk_block(w, node, where);
	case isl_ast_node_user:
		return walk_user(w, node, where);
	case isl_ast_node_mark:
		inner = isl_ast_node_mark_get_node(node);
		r = walk_node(w, inner, where);
		isl_ast_node_free(inner);
		return r;
	default:
		isl_set_free(where);
		return isl_stat_error;
	}
}

/* Adds the prefix schedule of `node` (kept) to the list at `user` if it
 * is a leaf: the iterations of the loops around its statements. */
static isl_bool add_leaf_prefix(__isl_keep isl_schedule_node *node,
				void *user)
{
	isl_union_pw_multi_aff **prefixes = user;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_leaf)
		return isl_bool_true;
	*prefixes = isl_union_pw_multi_aff_union_add(
	    *prefixes,
	    isl_schedule_node_get_prefix_schedule_union_pw_multi_aff(node));
	return *prefixes ? isl_bool_true : isl_bool_error;
}

static isl_stat add_to_list(__isl_take isl_pw_multi_aff *pma, void *user)
{
	isl_pw_multi_aff_list **list = user;

	*list = isl_pw_multi_aff_list_add(*list, pma);
	return *list ? isl_stat_ok : isl_stat_error;
}

/* The iterations of the loops around each statement of `schedule`
 * (kept) at which it runs each instance, one element per statement. */
static __isl_give isl_pw_multi_aff_list *leaf_prefixes(
    __isl_keep isl_schedule *schedule)
{
	isl_union_set *domain = isl_schedule_get_domain(schedule);
	isl_union_pw_multi_aff *prefixes;
	isl_pw_multi_aff_list *list;

	prefixes = isl_union_pw_multi_aff_empty(
	    isl_union_set_get_space(domain));
	isl_union_set_free(domain);
	if (isl_schedule_foreach_schedule_node_top_down(
		schedule, add_leaf_prefix, &prefixes) < 0)
		prefixes = isl_union_pw_multi_aff_free(prefixes);
	list = isl_pw_multi_aff_list_alloc(
	    isl_schedule_get_ctx(schedule),
	    prefixes ? isl_union_pw_multi_aff_n_pw_multi_aff(prefixes) : 0);
	if (isl_union_pw_multi_aff_foreach_pw_multi_aff(prefixes, add_to_list,
							&list) < 0)
		list = isl_pw_multi_aff_list_free(list);
	isl_union_pw_multi_aff_free(prefixes);
	return list;
}

int pearl_ast_runs_schedule(__isl_keep isl_ast_node *tree,
			    __isl_keep isl_schedule *schedule,
			    __isl_keep isl_set *context)
{
	struct walk w = { NULL, 0, 8, NULL, NULL, 0 };
	isl_union_set *domain;
	isl_set *top;
	isl_stat r = isl_stat_error;
	isl_bool same = isl_bool_error;

	if (!tree || !schedule)
		return -1;
	domain = isl_schedule_get_domain(schedule);
	if (context)
		domain = isl_union_set_intersect_params(domain,
							isl_set_copy(context));
	w.iter = malloc(w.capacity * sizeof(*w.iter));
	w.at = leaf_prefixes(schedule);
	w.seen = isl_union_set_empty(isl_union_set_get_space(domain));
	top = isl_set_universe(isl_space_set_from_params(
	    isl_space_params(isl_union_set_get_space(domain))));
	if (context)
		top = isl_set_intersect_params(top, isl_set_copy(context));
	if (w.iter && w.at)
		r = walk_node(&w, tree, top);
	else
		isl_set_free(top);
	if (r >= 0)
		same = isl_union_set_is_equal(w.seen, domain);
	free(w.iter);
	isl_pw_multi_aff_list_free(w.at);
	isl_union_set_free(w.seen);
	isl_union_set_free(domain);
	if (w.wrong)
		return 0;
	return same < 0 ? -1 : same;
}
