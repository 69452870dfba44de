/* The loop tree (Pearl's AST) derived from a schedule tree. */
#include "pearl/loop_tree.h"

#include <isl/aff.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <stdlib.h>

#include "pearl/grow.h"
#include "pearl/schedule.h"

struct walk {
	pearl_program *prog;
	pearl_loop_tree *tree;
	int cap;
	int failed;
};

static int new_node(struct walk *w, enum pearl_node_kind kind, int parent)
{
	pearl_loop_tree *t = w->tree;
	struct pearl_tree_node *n;

	if (pearl_grow(&t->nodes, &w->cap, t->n_nodes + 1,
		       sizeof(*t->nodes)) < 0)
		return -1;
	n = &t->nodes[t->n_nodes];
	*n = (struct pearl_tree_node){ .kind = kind, .parent = parent,
				       .stmt = -1, .loop_id = -1 };
	if (parent >= 0) {
		struct pearl_tree_node *p = &t->nodes[parent];
		int *children = realloc(p->children,
					(p->n_children + 1) * sizeof(int));
		if (!children)
			return -1;
		p->children = children;
		p->children[p->n_children++] = t->n_nodes;
		n->depth = p->depth + (p->kind == pearl_node_loop);
	}
	return t->n_nodes++;
}

/* The iterations of (outer loops..., this loop) for member `member` of
 * `band`. */
static __isl_give isl_set *loop_range(__isl_keep isl_schedule_node *band,
				      int member)
{
	isl_union_set *range = isl_union_set_apply(
	    isl_schedule_node_get_domain(band),
	    pearl_band_prefix_schedule(band, member));

	return isl_set_coalesce(pearl_union_set_unnamed_set(
	    range, pearl_band_prefix_dim(band, member)));
}

static void walk_node(struct walk *w, __isl_take isl_schedule_node *node,
		      int parent);

static void walk_children(struct walk *w, __isl_take isl_schedule_node *node,
			  int parent)
{
	isl_size n = isl_schedule_node_n_children(node);
	int i;

	for (i = 0; i < n && !w->failed; ++i)
		walk_node(w, isl_schedule_node_get_child(node, i), parent);
	isl_schedule_node_free(node);
}

static void add_leaf_stmts(struct walk *w, __isl_take isl_schedule_node *node,
			   int parent)
{
	isl_union_set *dom = isl_schedule_node_get_domain(node);
	int i, n = pearl_program_n_stmt(w->prog);

	/* Statements in program order, so the tree is deterministic. */
	for (i = 0; i < n && !w->failed; ++i) {
		isl_space *space = isl_set_get_space(
		    pearl_program_stmt_domain(w->prog, i));
		isl_set *s = isl_union_set_extract_set(dom, space);
		isl_bool empty = isl_set_is_empty(s);
		int id;

		isl_set_free(s);
		if (empty < 0) {
			w->failed = 1;
			break;
		}
		if (empty)
			continue;
		id = new_node(w, pearl_node_stmt, parent);
		if (id < 0)
			w->failed = 1;
		else
			w->tree->nodes[id].stmt = i;
	}
	isl_union_set_free(dom);
	isl_schedule_node_free(node);
}

static void walk_node(struct walk *w, __isl_take isl_schedule_node *node,
		      int parent)
{
	isl_size n;
	int i, id;

	switch (isl_schedule_node_get_type(node)) {
	case isl_schedule_node_leaf:
		add_leaf_stmts(w, node, parent);
		return;
	case isl_schedule_node_band:
		n = isl_schedule_node_band_n_member(node);
		for (i = 0; i < n && !w->failed; ++i) {
			struct pearl_tree_node *loop;

			id = new_node(w, pearl_node_loop, parent);
			if (id < 0) {
				w->failed = 1;
				break;
			}
			loop = &w->tree->nodes[id];
			loop->loop_id = w->tree->n_loops++;
			loop->band = isl_schedule_node_copy(node);
			loop->member = i;
			parent = id;
		}
		walk_children(w, node, parent);
		return;
	case isl_schedule_node_error:
		w->failed = 1;
		isl_schedule_node_free(node);
		return;
	default: /* domain, filter, sequence, set, mark, context, ... */
		walk_children(w, node, parent);
		return;
	}
}

pearl_loop_tree *pearl_loop_tree_from_schedule(pearl_program *prog,
					       __isl_keep isl_schedule *schedule)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	struct walk w = { prog, NULL, 0, 0 };

	w.tree = calloc(1, sizeof(*w.tree));
	if (!w.tree || new_node(&w, pearl_node_root, -1) < 0) {
		pearl_loop_tree_free(w.tree);
		pearl_ctx_error(ctx, "out of memory");
		return NULL;
	}
	if (!schedule) {
		pearl_loop_tree_free(w.tree);
		pearl_ctx_error(ctx, "loop tree: no schedule");
		return NULL;
	}
	walk_node(&w, isl_schedule_get_root(schedule), 0);
	if (w.failed) {
		pearl_loop_tree_free(w.tree);
		pearl_ctx_isl_error(ctx, "loop tree");
		return NULL;
	}
	return w.tree;
}

__isl_keep isl_set *pearl_loop_tree_range(pearl_loop_tree *tree, int node)
{
	struct pearl_tree_node *n = &tree->nodes[node];

	if (n->kind != pearl_node_loop)
		return NULL;
	if (!n->range)
		n->range = loop_range(n->band, n->member);
	return n->range;
}

pearl_loop_tree *pearl_loop_tree_free(pearl_loop_tree *tree)
{
	int i;

	if (!tree)
		return NULL;
	for (i = 0; i < tree->n_nodes; ++i) {
		free(tree->nodes[i].children);
		isl_schedule_node_free(tree->nodes[i].band);
		isl_set_free(tree->nodes[i].range);
	}
	free(tree->nodes);
	free(tree);
	return NULL;
}
