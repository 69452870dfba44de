/* Subtrees of a schedule tree as schedules of their own: the building block
 * of the actions that restructure the tree (distribution and fusion,
 * restructure.c), which take subtrees apart and put them together in a new
 * order. */
#include <isl/aff.h>
#include <isl/id.h>
#include <isl/schedule_node.h>
#include <isl/union_set.h>

#include "sched_internal.h"

/* Whether schedule `s` (kept) schedules no instance: 1, 0, or -1. */
static int is_empty(__isl_keep isl_schedule *s)
{
	isl_union_set *dom = isl_schedule_get_domain(s);
	isl_bool empty = isl_union_set_is_empty(dom);

	isl_union_set_free(dom);
	return empty < 0 ? -1 : empty;
}

__isl_give isl_schedule *pearl_subtree_append(__isl_take isl_schedule *acc,
					      __isl_take isl_schedule *s)
{
	int empty;

	if (!s)
		return isl_schedule_free(acc);
	empty = is_empty(s);
	if (empty < 0) {
		isl_schedule_free(acc);
		isl_schedule_free(s);
		return NULL;
	}
	if (empty && acc) {
		isl_schedule_free(s);
		return acc;
	}
	if (!acc)
		return s;
	if (is_empty(acc) == 1) {
		isl_schedule_free(acc);
		return s;
	}
	return isl_schedule_sequence(acc, s);
}

__isl_give isl_schedule *pearl_schedule_insert_loop_like(
    __isl_take isl_schedule *s, __isl_take isl_multi_union_pw_aff *mupa,
    __isl_keep isl_schedule_node *band)
{
	isl_schedule_node *node;

	s = pearl_schedule_insert_loop(s, mupa);
	if (!s)
		return NULL;
	node = isl_schedule_node_child(isl_schedule_get_root(s), 0);
	isl_schedule_free(s);
	node = pearl_band_copy_properties(node, band);
	s = isl_schedule_node_get_schedule(node);
	isl_schedule_node_free(node);
	return s;
}

__isl_give isl_schedule *pearl_subtree_loop_around(
    __isl_keep isl_schedule_node *band, __isl_take isl_schedule *s)
{
	return pearl_schedule_insert_loop_like(
	    s, isl_schedule_node_band_get_partial_schedule(band), band);
}

__isl_give isl_schedule_node *pearl_band_copy_properties(
    __isl_take isl_schedule_node *node, __isl_keep isl_schedule_node *band)
{
	isl_union_set *options;

	if (!node || !band)
		return isl_schedule_node_free(node);
	options = isl_schedule_node_band_get_ast_build_options(band);
	node = isl_schedule_node_band_set_ast_build_options(node, options);
	node = isl_schedule_node_band_member_set_coincident(
	    node, 0,
	    isl_schedule_node_band_member_get_coincident(band, 0) ==
		isl_bool_true);
	return isl_schedule_node_band_member_set_ast_loop_type(
	    node, 0, isl_schedule_node_band_member_get_ast_loop_type(band, 0));
}

__isl_give isl_schedule *pearl_schedule_insert_loop(
    __isl_take isl_schedule *s, __isl_take isl_multi_union_pw_aff *mupa)
{
	if (!s || !mupa) {
		isl_schedule_free(s);
		isl_multi_union_pw_aff_free(mupa);
		return NULL;
	}
	/* restricted to the statements of `s`, not to their instances: the
	 * partial schedules of the program's bands are not, and a schedule
	 * that runs the same instances at the same times keeps the same map */
	mupa = isl_multi_union_pw_aff_intersect_domain(
	    mupa, isl_union_set_universe(isl_schedule_get_domain(s)));
	return isl_schedule_insert_partial_schedule(s, mupa);
}

/* The children of `node` (kept, a sequence or set node) from `first` to
 * `last`, each as pearl_subtree_schedule, in a sequence (`is_set`: a set
 * node, whose children can run in any order, if there are several). */
static __isl_give isl_schedule *children(__isl_keep isl_schedule_node *node,
					 int first, int last, int is_set,
					 const struct pearl_subtree_edit *edit)
{
	isl_schedule *acc = NULL;
	int i;

	for (i = first; i <= last; ++i) {
		isl_schedule_node *child = isl_schedule_node_get_child(node, i);
		isl_schedule *s = pearl_subtree_schedule(child, edit);

		isl_schedule_node_free(child);
		if (!s)
			return isl_schedule_free(acc);
		if (is_set && acc && is_empty(s) == 0 && is_empty(acc) == 0)
			acc = isl_schedule_set(acc, s);
		else
			acc = pearl_subtree_append(acc, s);
		if (!acc)
			return NULL;
	}
	return acc;
}

__isl_give isl_schedule *pearl_subtree_children(
    __isl_keep isl_schedule_node *node, int first, int last)
{
	return children(node, first, last, 0, NULL);
}

__isl_give isl_schedule *pearl_subtree_schedule(
    __isl_keep isl_schedule_node *node, const struct pearl_subtree_edit *edit)
{
	isl_schedule_node *child;
	isl_schedule *s;
	isl_size n;

	if (!node)
		return NULL;
	if (edit && isl_schedule_node_is_equal(node, edit->at) == isl_bool_true)
		return isl_schedule_copy(edit->by);
	switch (isl_schedule_node_get_type(node)) {
	case isl_schedule_node_leaf:
		return isl_schedule_from_domain(isl_schedule_node_get_domain(node));
	case isl_schedule_node_band:
		child = isl_schedule_node_get_child(node, 0);
		s = pearl_subtree_schedule(child, edit);
		isl_schedule_node_free(child);
		return pearl_subtree_loop_around(node, s);
	case isl_schedule_node_sequence:
	case isl_schedule_node_set:
		n = isl_schedule_node_n_children(node);
		if (n < 0)
			return NULL;
		return children(node, 0, n - 1,
				isl_schedule_node_get_type(node) ==
				    isl_schedule_node_set,
				edit);
	case isl_schedule_node_mark:
		child = isl_schedule_node_get_child(node, 0);
		s = pearl_subtree_schedule(child, edit);
		isl_schedule_node_free(child);
		if (!s)
			return NULL;
		child = isl_schedule_node_child(isl_schedule_get_root(s), 0);
		isl_schedule_free(s);
		child = isl_schedule_node_insert_mark(
		    child, isl_schedule_node_mark_get_id(node));
		s = isl_schedule_node_get_schedule(child);
		isl_schedule_node_free(child);
		return s;
	case isl_schedule_node_domain:
	case isl_schedule_node_filter:
		/* the filter is what reaches the child: its domain */
		child = isl_schedule_node_get_child(node, 0);
		s = pearl_subtree_schedule(child, edit);
		isl_schedule_node_free(child);
		return s;
	default: /* context, guard, extension, expansion: not Pearl's */
		isl_die(isl_schedule_node_get_ctx(node), isl_error_unsupported,
			"schedule tree node Pearl does not rebuild",
			return NULL);
	}
}
