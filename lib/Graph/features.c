/* Pearl's AST graph of the current schedule: one feature row per node of
 * the loop tree, in the layout documented in pearl/graph.h. */
#include <isl/aff.h>
#include <isl/id.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/features.h"
#include "pearl/loop_tree.h"
#include "pearl/transform.h"

#include "loop_row.h"
#include "memory.h"

/* Parameter value assumed for the extent of loops with symbolic bounds. */
#define SYMBOLIC_SIZE 1024

struct builder {
	pearl_program *prog;
	pearl_loop_tree *tree;
	struct pearl_graph *g;
	struct loop_row *rows; /* per tree node */
	char *focus;           /* per tree node: on the focus branch */
	struct graph_memory *mem; /* for the memory features */
	const char **buffers;  /* buffer names, in order of first use */
	int n_buffers;
	int failed;
};

static float log_scaled(double v, double scale)
{
	double m = log2(1.0 + fabs(v)) / scale;

	return (float)(v < 0 ? -m : m);
}

static float clamped(long v)
{
	if (v > 8)
		v = 8;
	if (v < -8)
		v = -8;
	return (float)v / 8.0f;
}

/* The id of the buffer named `name`, numbered in order of first use. */
static int buffer_id(struct builder *b, const char *name)
{
	int i;

	if (!name)
		return 0;
	for (i = 0; i < b->n_buffers; ++i)
		if (!strcmp(b->buffers[i], name))
			return i;
	b->buffers[b->n_buffers] = name;
	return b->n_buffers++;
}

/* The statement index of the first statement below tree node `node`. */
static int first_stmt(pearl_loop_tree *tree, int node)
{
	while (tree->nodes[node].kind != pearl_node_stmt) {
		if (tree->nodes[node].n_children == 0)
			return -1;
		node = tree->nodes[node].children[0];
	}
	return tree->nodes[node].stmt;
}

/* The row of loop node `node` over its first statement. */
static void compute_row(struct builder *b, int node)
{
	int stmt = first_stmt(b->tree, node);

	if (stmt >= 0)
		loop_row_compute(b->prog, &b->tree->nodes[node], stmt,
				 &b->rows[node]);
}

/* A loop without a floor division is a point loop when an enclosing tile
 * loop tiles the same function (isl's unshifted point loops). */
static void mark_unshifted_points(struct builder *b, int node)
{
	struct loop_row *row = &b->rows[node];
	int p;

	if (!row->valid || row->tile || row->point)
		return;
	for (p = b->tree->nodes[node].parent; p > 0;
	     p = b->tree->nodes[p].parent)
		if (b->rows[p].tile && loop_row_same(&b->rows[p], row)) {
			row->point = 1;
			row->point_tile = b->rows[p].tile;
			return;
		}
}

/* Min, max and stride of the only dimension of `set` (kept, parameters
 * fixed), as doubles; 0 if unbounded. Tile loops step by their tile size. */
static int dim_bounds(__isl_keep isl_set *set, double *lo, double *hi,
		      double *stride)
{
	isl_val *st = isl_set_get_stride(set, 0);
	isl_aff *obj;
	isl_val *min, *max;
	int ok;

	obj = isl_aff_var_on_domain(isl_local_space_from_space(
	    isl_set_get_space(set)), isl_dim_set, 0);
	min = isl_set_min_val(set, obj);
	max = isl_set_max_val(set, obj);
	isl_aff_free(obj);
	ok = isl_val_is_int(min) == isl_bool_true &&
	     isl_val_is_int(max) == isl_bool_true;
	if (ok) {
		*lo = isl_val_get_d(min);
		*hi = isl_val_get_d(max);
	}
	*stride = st && isl_val_is_pos(st) == isl_bool_true ? isl_val_get_d(st)
							    : 1;
	isl_val_free(st);
	isl_val_free(min);
	isl_val_free(max);
	return ok;
}

/* Extent, bounds, symbolic and non-rectangular flags of a loop whose
 * iterations (outer loops..., this loop) are `range` (kept). Returns the
 * extent (number of values of the loop). */
static double bound_features(struct builder *b, __isl_keep isl_set *range,
			     float *f)
{
	isl_size dim = isl_set_dim(range, isl_dim_set);
	isl_size np = isl_set_dim(range, isl_dim_param);
	isl_set *last, *fixed, *outer, *rect;
	double lo = 0, hi = SYMBOLIC_SIZE - 1, stride = 1;
	int i, symbolic, bounded;
	isl_bool sub;

	if (!range || dim <= 0 || np < 0) {
		b->failed = 1;
		return 0;
	}
	last = isl_set_project_out(isl_set_copy(range), isl_dim_set, 0,
				   dim - 1);
	symbolic = np > 0 &&
		   isl_set_involves_dims(last, isl_dim_param, 0, np) ==
		       isl_bool_true;
	fixed = isl_set_copy(last);
	for (i = 0; i < np; ++i)
		fixed = isl_set_fix_si(fixed, isl_dim_param, i, SYMBOLIC_SIZE);
	bounded = dim_bounds(fixed, &lo, &hi, &stride);
	isl_set_free(fixed);
	if (!bounded) {
		lo = 0;
		hi = SYMBOLIC_SIZE - 1;
		stride = 1;
		symbolic = 1;
	}
	outer = isl_set_project_out(isl_set_copy(range), isl_dim_set,
				    dim - 1, 1);
	rect = isl_set_flat_product(outer, last);
	sub = isl_set_is_subset(rect, range);
	isl_set_free(rect);
	if (sub < 0)
		b->failed = 1;
	f[PEARL_F_EXTENT] = log_scaled(floor((hi - lo) / stride) + 1, 16);
	f[PEARL_F_LB] = log_scaled(lo, 16);
	f[PEARL_F_UB] = log_scaled(hi, 16);
	f[PEARL_F_SYMBOLIC] = (float)symbolic;
	f[PEARL_F_NONRECT] = (float)(sub == isl_bool_false);
	return floor((hi - lo) / stride) + 1;
}

/* Whether the iterators `row` (kept) combines are constrained together
 * with others in `dom` (kept): the loop's bounds depend on outer loops. */
static int coupled(__isl_keep isl_set *dom, const struct loop_row *row)
{
	isl_size n = isl_set_dim(dom, isl_dim_set);
	isl_set *in = isl_set_copy(dom), *out = isl_set_copy(dom), *box;
	isl_bool sub;
	int i;

	/* project onto the row's iterators (in) and onto the others (out) */
	for (i = n - 1; i >= 0; --i) {
		int used = i < PEARL_GRAPH_MAX_DEPTH && row->coef[i];

		if (used)
			out = isl_set_drop_constraints_involving_dims(
			    out, isl_dim_set, i, 1);
		else
			in = isl_set_drop_constraints_involving_dims(
			    in, isl_dim_set, i, 1);
	}
	box = isl_set_intersect(in, out);
	sub = isl_set_is_subset(box, dom);
	isl_set_free(box);
	return sub == isl_bool_false;
}

/* Extent, bounds, symbolic and non-rectangular flags of loop `node` from
 * its row: the values of the row's affine function over its statement's
 * domain (one LP each way, on the original domain, so tile loops cost no
 * more than others), scaled for tile loops and cut to the tile for point
 * loops. A loop is non-rectangular if its iterators are constrained
 * together with others in the domain, or if an enclosing loop combines one
 * of them differently (skewing). Returns the extent, or -1 if the row
 * cannot be used (then the loop's range is used). */
static double row_bounds(struct builder *b, int node, float *f)
{
	struct loop_row *row = &b->rows[node];
	isl_set *dom, *fixed;
	isl_aff *obj;
	isl_val *min, *max;
	isl_size n, np;
	double lo, hi, extent;
	int i, p, symbolic, nonrect;

	if (!row->valid || (row->point && row->point_tile <= 0))
		return -1;
	dom = pearl_program_stmt_domain(b->prog, row->stmt);
	n = isl_set_dim(dom, isl_dim_set);
	np = isl_set_dim(dom, isl_dim_param);
	if (n < 0 || np < 0 || n > PEARL_GRAPH_MAX_DEPTH)
		return -1;
	obj = isl_aff_zero_on_domain(isl_local_space_from_space(
	    isl_set_get_space(dom)));
	for (i = 0; i < n; ++i)
		obj = isl_aff_set_coefficient_si(obj, isl_dim_in, i,
						 row->coef[i]);
	obj = isl_aff_set_constant_si(obj, row->cst);
	min = isl_set_min_val(dom, obj);
	max = isl_set_max_val(dom, obj);
	symbolic = isl_val_is_int(min) != isl_bool_true ||
		   isl_val_is_int(max) != isl_bool_true;
	if (symbolic) {
		fixed = isl_set_copy(dom);
		for (i = 0; i < np; ++i)
			fixed = isl_set_fix_si(fixed, isl_dim_param, i,
					       SYMBOLIC_SIZE);
		isl_val_free(min);
		isl_val_free(max);
		min = isl_set_min_val(fixed, obj);
		max = isl_set_max_val(fixed, obj);
		isl_set_free(fixed);
	}
	isl_aff_free(obj);
	if (isl_val_is_int(min) != isl_bool_true ||
	    isl_val_is_int(max) != isl_bool_true) {
		isl_val_free(min);
		isl_val_free(max);
		return -1;
	}
	lo = isl_val_get_d(min);
	hi = isl_val_get_d(max);
	isl_val_free(min);
	isl_val_free(max);
	if (row->tile) {
		lo = row->tile * floor(lo / row->tile);
		hi = row->tile * floor(hi / row->tile);
		extent = (hi - lo) / row->tile + 1;
	} else if (row->point) {
		extent = fmin(row->point_tile, hi - lo + 1);
		lo = 0;
		hi = extent - 1;
	} else {
		extent = hi - lo + 1;
	}
	nonrect = coupled(dom, row);
	for (p = b->tree->nodes[node].parent; p > 0 && !nonrect;
	     p = b->tree->nodes[p].parent) {
		const struct loop_row *o = &b->rows[p];

		for (i = 0; i < PEARL_GRAPH_MAX_DEPTH && o->valid; ++i)
			if (o->coef[i] && row->coef[i] && !loop_row_same(o, row) &&
			    memcmp(o->coef, row->coef, sizeof(o->coef)))
				nonrect = 1;
	}
	f[PEARL_F_EXTENT] = log_scaled(extent, 16);
	f[PEARL_F_LB] = log_scaled(lo, 16);
	f[PEARL_F_UB] = log_scaled(hi, 16);
	f[PEARL_F_SYMBOLIC] = (float)(symbolic && np > 0);
	f[PEARL_F_NONRECT] = (float)nonrect;
	return extent;
}

static void loop_features(struct builder *b, int node, float *f)
{
	struct pearl_tree_node *n = &b->tree->nodes[node];
	struct loop_row *row = &b->rows[node];
	int level = n->depth < PEARL_GRAPH_N_LEVELS ? n->depth
						    : PEARL_GRAPH_N_LEVELS - 1;
	int i, nonzero = 0, first = 0, unroll;
	double extent;

	f[PEARL_F_KIND + 1] = 1;
	extent = row_bounds(b, node, f);
	if (extent < 0)
		extent = bound_features(b, pearl_loop_tree_range(b->tree, node),
					f);
	f[PEARL_F_LEVEL + level] = 1;
	f[PEARL_F_FOCUS] = b->focus[node];
	f[PEARL_F_PARALLEL] = isl_schedule_node_band_member_get_coincident(
				  n->band, n->member) == isl_bool_true;
	graph_memory_loop_features(b->mem, b->tree, node, f + PEARL_F_MEM);
	unroll = pearl_band_unroll_factor(n->band);
	if (unroll > 0) {
		f[PEARL_F_UNROLL] = 1;
		f[PEARL_F_UNROLL + 1] = log_scaled(unroll - 1, 5);
	}
	if (!row->valid)
		return;
	if (row->tile) {
		f[PEARL_F_TILE] = 1;
		f[PEARL_F_TILE + 1] = log_scaled(row->tile - 1, 8);
	}
	f[PEARL_F_POINT] = (float)row->point;
	for (i = 0; i < PEARL_GRAPH_MAX_DEPTH; ++i) {
		if (row->coef[i] && !nonzero++)
			first = row->coef[i] < 0;
		f[PEARL_F_ROW + i] = clamped(row->coef[i]);
	}
	f[PEARL_F_ROW + PEARL_GRAPH_MAX_DEPTH] = clamped(row->cst);
	f[PEARL_F_REVERSED] = (float)first;
	f[PEARL_F_SKEWED] = (float)(nonzero > 1);
}

/* The operation class of an operation name (an index into [OPS]). */
static int op_class(const char *name)
{
	static const char *const classes[][12] = {
		{ "addf", "addi", "subf", "subi", "negf", NULL },
		{ "mulf", "muli", "fma", NULL },
		{ "divf", "divsi", "divui", "remf", "remsi", "remui",
		  "floordivsi", "ceildivsi", "ceildivui", NULL },
		{ NULL },
		{ "cmpf", "cmpi", "select", "maxsi", "minsi", "maxui", "minui",
		  "maximumf", "minimumf", "maxnumf", "minnumf", NULL },
		{ "sitofp", "uitofp", "fptosi", "fptoui", "extf", "truncf",
		  "extsi", "extui", "trunci", "index_cast", "bitcast", NULL },
	};
	const char *dot = strchr(name, '.');
	const char *op = dot ? dot + 1 : name;
	int c, k;

	if (!strncmp(name, "math.", 5))
		return 3;
	for (c = 0; c < 6; ++c)
		for (k = 0; classes[c][k]; ++k)
			if (!strcmp(op, classes[c][k]))
				return c;
	return 6;
}

/* Fills one access block (PEARL_GRAPH_ACCESS_SIZE floats) for `acc`. */
static void access_features(struct builder *b, __isl_keep isl_map *acc,
			    float *f)
{
	isl_ctx *ctx = isl_map_get_ctx(acc);
	isl_id *id = isl_map_get_tuple_id(acc, isl_dim_out);
	isl_pw_multi_aff *pma;
	isl_size n_out, n_in, np;
	int r, i;

	f[0] = 1;
	f[1 + PEARL_GRAPH_MAX_DIMS * PEARL_GRAPH_ACCESS_COLS +
	  buffer_id(b, isl_id_get_name(id)) % PEARL_GRAPH_N_BUFFER_IDS] = 1;
	isl_id_free(id);
	pma = isl_pw_multi_aff_from_map(isl_map_copy(acc));
	if (!pma) { /* not a function: no matrix, but not an error */
		isl_ctx_reset_error(ctx);
		return;
	}
	n_out = isl_pw_multi_aff_dim(pma, isl_dim_out);
	for (r = 0; r < n_out && r < PEARL_GRAPH_MAX_DIMS; ++r) {
		isl_aff *aff = loop_row_first_piece(isl_pw_multi_aff_get_pw_aff(pma, r));
		float *m = f + 1 + r * PEARL_GRAPH_ACCESS_COLS;
		long params = 0;

		if (!aff)
			continue;
		n_in = isl_aff_dim(aff, isl_dim_in);
		np = isl_aff_dim(aff, isl_dim_param);
		for (i = 0; i < n_in && i < PEARL_GRAPH_MAX_DEPTH; ++i)
			m[i] = clamped(loop_row_coefficient(aff, isl_dim_in, i, 1));
		for (i = 0; i < np; ++i)
			params += loop_row_coefficient(aff, isl_dim_param, i, 1);
		m[PEARL_GRAPH_MAX_DEPTH] = clamped(params);
		m[PEARL_GRAPH_MAX_DEPTH + 1] =
		    clamped(loop_row_coefficient(aff, isl_dim_cst, 0, 1));
		isl_aff_free(aff);
	}
	isl_pw_multi_aff_free(pma);
}

static void stmt_features(struct builder *b, int node, float *f)
{
	pearl_program *prog = b->prog;
	int s = b->tree->nodes[node].stmt;
	const char *type = pearl_program_stmt_type(prog, s);
	int n_read = pearl_program_stmt_n_read(prog, s);
	int k, red, counts[7] = { 0 };
	isl_size depth;

	f[PEARL_F_KIND + 2] = 1;
	if (!type)
		type = "";
	f[PEARL_F_TYPE + (!strcmp(type, "f32")   ? 0
			  : !strcmp(type, "f64") ? 1
			  : !strcmp(type, "i32") ? 2
			  : (!strcmp(type, "i64") || !strcmp(type, "index"))
			      ? 3
			      : 4)] = 1;
	red = pearl_program_stmt_is_reduction(prog, s);
	if (red < 0)
		b->failed = 1;
	f[PEARL_F_REDUCTION] = red == 1;
	f[PEARL_F_SFOCUS] = b->focus[node];
	for (k = 0; k < pearl_program_stmt_n_op(prog, s); ++k)
		counts[op_class(pearl_program_stmt_op_name(prog, s, k))] +=
		    pearl_program_stmt_op_count(prog, s, k);
	for (k = 0; k < 7; ++k)
		f[PEARL_F_OPS + k] = log_scaled(counts[k], 4);
	f[PEARL_F_NREADS] = (float)n_read / PEARL_GRAPH_MAX_READS;
	depth = isl_set_dim(pearl_program_stmt_domain(prog, s), isl_dim_set);
	f[PEARL_F_DEPTH] = (float)depth / PEARL_GRAPH_MAX_DEPTH;
	access_features(b, pearl_program_stmt_write(prog, s),
			f + PEARL_F_WRITE);
	for (k = 0; k < n_read && k < PEARL_GRAPH_MAX_READS; ++k)
		access_features(b, pearl_program_stmt_read(prog, s, k),
				f + PEARL_F_READS +
				    k * PEARL_GRAPH_ACCESS_SIZE);
}

/* Marks the statement node of branch `focus` and its ancestors. */
static void mark_focus(struct builder *b, int focus)
{
	int i, k = -1;

	for (i = 0; i < b->tree->n_nodes; ++i)
		if (b->tree->nodes[i].kind == pearl_node_stmt && ++k == focus)
			break;
	for (; focus >= 0 && i > 0 && i < b->tree->n_nodes;
	     i = b->tree->nodes[i].parent)
		b->focus[i] = 1;
}

/* Buffers are numbered by first use over all statements (write first),
 * not by first appearance in the tree, so that ids do not change as
 * transformations reorder nothing but loops. */
static void number_buffers(struct builder *b)
{
	int s, r, n = pearl_program_n_stmt(b->prog);

	for (s = 0; s < n; ++s) {
		isl_map *w = pearl_program_stmt_write(b->prog, s);

		buffer_id(b, isl_map_get_tuple_name(w, isl_dim_out));
		for (r = 0; r < pearl_program_stmt_n_read(b->prog, s); ++r)
			buffer_id(b, isl_map_get_tuple_name(
			    pearl_program_stmt_read(b->prog, s, r),
			    isl_dim_out));
	}
}

struct pearl_graph *pearl_graph_build(pearl_sched *sched, int focus)
{
	struct builder b = { 0 };
	pearl_ctx *ctx;
	int i;

	b.prog = pearl_sched_get_program(sched);
	ctx = pearl_program_get_ctx(b.prog);
	b.tree = pearl_sched_peek_loop_tree(sched);
	if (!b.tree)
		return NULL;
	b.g = pearl_graph_alloc(b.tree->n_nodes, PEARL_GRAPH_N_FEATURES,
				b.tree->n_nodes);
	b.rows = calloc(b.tree->n_nodes, sizeof(*b.rows));
	b.focus = calloc(b.tree->n_nodes, 1);
	b.buffers = calloc(graph_n_accesses(b.prog) + 1, sizeof(*b.buffers));
	b.mem = graph_memory_alloc(b.prog);
	if (!b.g || !b.rows || !b.focus || !b.buffers || !b.mem) {
		pearl_ctx_error(ctx, "out of memory");
		b.failed = 1;
		goto done;
	}
	number_buffers(&b);
	mark_focus(&b, focus);
	for (i = 1; i < b.tree->n_nodes; ++i) {
		if (b.tree->nodes[i].kind == pearl_node_loop) {
			compute_row(&b, i);
			mark_unshifted_points(&b, i);
		}
		b.g->src[b.g->n_edges] = b.tree->nodes[i].parent;
		b.g->dst[b.g->n_edges++] = i;
	}
	b.g->x[PEARL_F_KIND] = 1; /* the root */
	for (i = 1; i < b.tree->n_nodes && !b.failed; ++i) {
		float *f = b.g->x + (size_t)i * PEARL_GRAPH_N_FEATURES;

		if (b.tree->nodes[i].kind == pearl_node_loop)
			loop_features(&b, i, f);
		else
			stmt_features(&b, i, f);
	}
	if (b.failed)
		pearl_ctx_isl_error(ctx, "graph features");
done:
	graph_memory_free(b.mem);
	free(b.rows);
	free(b.focus);
	free(b.buffers);
	if (b.failed)
		return pearl_graph_free(b.g);
	return b.g;
}

void pearl_graph_set_focus(struct pearl_graph *graph, int focus)
{
	int i, e, k = -1, node = -1;

	for (i = 0; i < graph->n_nodes; ++i) {
		float *f = graph->x + (size_t)i * graph->n_features;

		f[PEARL_F_FOCUS] = 0;
		f[PEARL_F_SFOCUS] = 0;
		if (f[PEARL_F_KIND + 2] > 0 && ++k == focus)
			node = i;
	}
	/* Up from the statement through the parent edges: its loops. */
	while (node > 0) {
		float *f = graph->x + (size_t)node * graph->n_features;

		f[f[PEARL_F_KIND + 2] > 0 ? PEARL_F_SFOCUS : PEARL_F_FOCUS] = 1;
		for (e = 0; e < graph->n_edges && graph->dst[e] != node; ++e)
			;
		node = e < graph->n_edges ? graph->src[e] : -1;
	}
}
