/* The memory features of loops (Graph/memory.h). */
#include <isl/aff.h>
#include <isl/id.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/graph.h"

#include "loop_row.h"
#include "memory.h"

/* Parameter value assumed where bounds or subscripts are symbolic (as for
 * the extent features). */
#define SYMBOLIC_SIZE 1024

/* One access as a matrix over its statement's iterators. */
struct mem_access {
	int buffer; /* index into graph_memory.buffers */
	int n_dims;
	long coef[PEARL_GRAPH_MAX_DIMS][PEARL_GRAPH_MAX_DEPTH];
	long cst[PEARL_GRAPH_MAX_DIMS]; /* parameters at SYMBOLIC_SIZE */
};

struct mem_stmt {
	int n_iter;       /* -1: the bounds are unknown (no features) */
	double lo[PEARL_GRAPH_MAX_DEPTH], hi[PEARL_GRAPH_MAX_DEPTH];
	struct mem_access *acc; /* owned; the write, then the reads that are
				 * affine functions */
	int n_acc;
};

struct mem_buffer {
	const char *name;   /* borrowed from the access's tuple id */
	int n_dims;         /* -1 until an access sets it */
	double lo[PEARL_GRAPH_MAX_DIMS], hi[PEARL_GRAPH_MAX_DIMS];
	double stride[PEARL_GRAPH_MAX_DIMS]; /* elements per unit of the
					      * subscript */
	int elem_bytes;
	/* Scratch of graph_memory_loop_features: the elements of the buffer
	 * touched in one execution of the loop, and in one iteration of it. */
	double foot_exec, foot_iter;
};

struct graph_memory {
	pearl_program *prog;
	struct mem_stmt *stmts;   /* owned; one per statement */
	int n_stmt;
	struct mem_buffer *buffers; /* owned */
	int n_buffers;
};

/* Bytes of one element of type `type` ("f64", "i32", "index", ...). */
static int type_bytes(const char *type)
{
	int bits;

	if (!type || !strcmp(type, "index"))
		return 8;
	if ((type[0] == 'f' || type[0] == 'i') &&
	    sscanf(type + 1, "%d", &bits) == 1 && bits > 0 && bits <= 128)
		return bits < 8 ? 1 : bits / 8;
	return 8;
}

static int find_buffer(struct graph_memory *m, const char *name)
{
	int b;

	for (b = 0; b < m->n_buffers; ++b)
		if (!strcmp(m->buffers[b].name, name))
			return b;
	m->buffers[b].name = name;
	m->buffers[b].n_dims = -1;
	m->buffers[b].elem_bytes = 0;
	return m->n_buffers++;
}

/* The bounds of every iterator of `dom` (kept), parameters at
 * SYMBOLIC_SIZE; n_iter -1 if one is unbounded. */
static void iterator_bounds(__isl_keep isl_set *dom, struct mem_stmt *s)
{
	isl_size n = isl_set_dim(dom, isl_dim_set);
	isl_size np = isl_set_dim(dom, isl_dim_param);
	isl_set *fixed;
	int k, p;

	s->n_iter = -1;
	if (n < 0 || np < 0 || n > PEARL_GRAPH_MAX_DEPTH)
		return;
	fixed = isl_set_copy(dom);
	for (p = 0; p < np; ++p)
		fixed = isl_set_fix_si(fixed, isl_dim_param, p, SYMBOLIC_SIZE);
	for (k = 0; k < n; ++k) {
		isl_aff *var = isl_aff_var_on_domain(
		    isl_local_space_from_space(isl_set_get_space(fixed)),
		    isl_dim_set, k);
		isl_val *lo = isl_set_min_val(fixed, var);
		isl_val *hi = isl_set_max_val(fixed, var);
		int ok = isl_val_is_int(lo) == isl_bool_true &&
			 isl_val_is_int(hi) == isl_bool_true;

		if (ok) {
			s->lo[k] = isl_val_get_d(lo);
			s->hi[k] = isl_val_get_d(hi);
		}
		isl_val_free(lo);
		isl_val_free(hi);
		isl_aff_free(var);
		if (!ok) {
			isl_set_free(fixed);
			return;
		}
	}
	isl_set_free(fixed);
	s->n_iter = n;
}

/* `acc` (kept) as a matrix into *a; 0, or -1 if it is not an affine
 * function of the iterators (then it has no memory features). */
static int access_matrix(struct graph_memory *m, __isl_keep isl_map *acc,
			 struct mem_access *a)
{
	isl_ctx *ctx = isl_map_get_ctx(acc);
	isl_pw_multi_aff *pma;
	isl_size n_out;
	int d, k, ok = 1;

	memset(a, 0, sizeof(*a));
	pma = isl_pw_multi_aff_from_map(isl_map_copy(acc));
	if (!pma) {
		isl_ctx_reset_error(ctx);
		return -1;
	}
	n_out = isl_pw_multi_aff_dim(pma, isl_dim_out);
	if (n_out < 0 || n_out > PEARL_GRAPH_MAX_DIMS ||
	    isl_pw_multi_aff_n_piece(pma) != 1)
		ok = 0;
	for (d = 0; ok && d < n_out; ++d) {
		isl_aff *aff = loop_row_first_piece(
		    isl_pw_multi_aff_get_pw_aff(pma, d));
		isl_size n_in = isl_aff_dim(aff, isl_dim_in);
		isl_size np = isl_aff_dim(aff, isl_dim_param);

		ok = aff && n_in >= 0 && np >= 0 &&
		     n_in <= PEARL_GRAPH_MAX_DEPTH &&
		     isl_aff_dim(aff, isl_dim_div) == 0;
		for (k = 0; ok && k < n_in; ++k)
			a->coef[d][k] =
			    loop_row_coefficient(aff, isl_dim_in, k, 1);
		a->cst[d] = ok ? loop_row_coefficient(aff, isl_dim_cst, 0, 1)
			       : 0;
		for (k = 0; ok && k < np; ++k)
			a->cst[d] += SYMBOLIC_SIZE *
				     loop_row_coefficient(aff, isl_dim_param,
							  k, 1);
		isl_aff_free(aff);
	}
	isl_pw_multi_aff_free(pma);
	if (!ok)
		return -1;
	a->n_dims = n_out;
	a->buffer = find_buffer(m, isl_map_get_tuple_name(acc, isl_dim_out));
	return 0;
}

/* Widens the estimated extent of a's buffer by the values its subscripts
 * take over the bounds of statement `s`. */
static void span_buffer(struct graph_memory *m, const struct mem_stmt *s,
			const struct mem_access *a, int elem_bytes)
{
	struct mem_buffer *buf = &m->buffers[a->buffer];
	int d, k;

	if (buf->n_dims < 0) {
		buf->n_dims = a->n_dims;
		for (d = 0; d < a->n_dims; ++d) {
			buf->lo[d] = INFINITY;
			buf->hi[d] = -INFINITY;
		}
	}
	if (!buf->elem_bytes)
		buf->elem_bytes = elem_bytes;
	if (buf->n_dims != a->n_dims)
		return;
	for (d = 0; d < a->n_dims; ++d) {
		double lo = (double)a->cst[d], hi = (double)a->cst[d];

		for (k = 0; k < s->n_iter; ++k) {
			double c = (double)a->coef[d][k];

			lo += fmin(c * s->lo[k], c * s->hi[k]);
			hi += fmax(c * s->lo[k], c * s->hi[k]);
		}
		buf->lo[d] = fmin(buf->lo[d], lo);
		buf->hi[d] = fmax(buf->hi[d], hi);
	}
}

/* The accesses of statement `i` into m->stmts[i], writes first. */
static int collect_stmt(struct graph_memory *m, int i)
{
	pearl_program *prog = m->prog;
	struct mem_stmt *s = &m->stmts[i];
	int n_read = pearl_program_stmt_n_read(prog, i);
	int n_write = pearl_program_stmt_n_write(prog, i);
	int bytes = type_bytes(pearl_program_stmt_type(prog, i));
	int r;

	iterator_bounds(pearl_program_stmt_domain(prog, i), s);
	if (!pearl_program_stmt_domain(prog, i) || n_write < 1)
		return -1;
	s->acc = calloc((size_t)(n_write + n_read), sizeof(*s->acc));
	if (!s->acc)
		return -1;
	for (r = -n_write; r < n_read; ++r) {
		isl_map *acc =
		    r < 0 ? pearl_program_stmt_write_at(prog, i, r + n_write)
			  : pearl_program_stmt_read(prog, i, r);
		struct mem_access *a = &s->acc[s->n_acc];

		if (!acc || access_matrix(m, acc, a) < 0)
			continue;
		s->n_acc++;
		if (s->n_iter >= 0)
			span_buffer(m, s, a, bytes);
	}
	return 0;
}

/* Row-major strides of every buffer from its estimated extents. */
static void buffer_strides(struct graph_memory *m)
{
	int b, d;

	for (b = 0; b < m->n_buffers; ++b) {
		struct mem_buffer *buf = &m->buffers[b];
		double stride = 1;

		for (d = buf->n_dims - 1; d >= 0; --d) {
			double extent = buf->hi[d] - buf->lo[d] + 1;

			if (!(extent >= 1))
				extent = 1;
			buf->stride[d] = stride;
			stride *= extent;
		}
		if (!buf->elem_bytes)
			buf->elem_bytes = 8;
	}
}

int graph_n_accesses(pearl_program *prog)
{
	int s, n = 0;

	for (s = 0; s < pearl_program_n_stmt(prog); ++s)
		n += pearl_program_stmt_n_write(prog, s) +
		     pearl_program_stmt_n_read(prog, s);
	return n;
}

struct graph_memory *graph_memory_alloc(pearl_program *prog)
{
	struct graph_memory *m = calloc(1, sizeof(*m));
	int n = pearl_program_n_stmt(prog), max_buffers = graph_n_accesses(prog);
	int i;

	if (!m)
		return NULL;
	m->prog = prog;
	m->n_stmt = n;
	m->stmts = calloc((size_t)n + 1, sizeof(*m->stmts));
	m->buffers = calloc((size_t)max_buffers + 1, sizeof(*m->buffers));
	if (!m->stmts || !m->buffers)
		return graph_memory_free(m);
	for (i = 0; i < n; ++i)
		if (collect_stmt(m, i) < 0)
			return graph_memory_free(m);
	buffer_strides(m);
	return m;
}

struct graph_memory *graph_memory_free(struct graph_memory *m)
{
	int i;

	if (!m)
		return NULL;
	for (i = 0; m->stmts && i < m->n_stmt; ++i)
		free(m->stmts[i].acc);
	free(m->stmts);
	free(m->buffers);
	free(m);
	return NULL;
}

/* What varies below a cut through the loops above one statement: for each
 * iterator, the number of values it takes while the loops above the cut
 * are fixed (1 if none below the cut moves it). */
struct cut_extents {
	double exec[PEARL_GRAPH_MAX_DEPTH]; /* one execution of the loop */
	double iter[PEARL_GRAPH_MAX_DEPTH]; /* one iteration of it */
};

/* The only iterator `row` moves, with coefficient +-1; -1 if none. */
static int single_iterator(const struct loop_row *row)
{
	int k, found = -1;

	if (!row->valid)
		return -1;
	for (k = 0; k < PEARL_GRAPH_MAX_DEPTH; ++k) {
		if (!row->coef[k])
			continue;
		if (found >= 0 || labs(row->coef[k]) != 1)
			return -1;
		found = k;
	}
	return found;
}

/* The extents of statement `stmt`'s iterators below and at loop `node`
 * (an ancestor of `leaf`, the statement's node; its row over the
 * statement is `node_row`, computed by the caller). An iterator moved by a
 * loop between `node` and the statement (and, for one execution, by
 * `node` itself) varies; a tile loop among the fixed ones bounds its
 * iterator's values by the tile size. */
static void cut_extents(struct graph_memory *m, pearl_loop_tree *tree,
			int node, const struct loop_row *node_row, int leaf,
			const struct mem_stmt *s, struct cut_extents *c)
{
	double limit_exec[PEARL_GRAPH_MAX_DEPTH], limit_iter[PEARL_GRAPH_MAX_DEPTH];
	int vary_exec[PEARL_GRAPH_MAX_DEPTH] = { 0 };
	int vary_iter[PEARL_GRAPH_MAX_DEPTH] = { 0 };
	int stmt = tree->nodes[leaf].stmt, k, p, below = 1;

	for (k = 0; k < PEARL_GRAPH_MAX_DEPTH; ++k)
		limit_exec[k] = limit_iter[k] = INFINITY;
	for (p = tree->nodes[leaf].parent; p > 0; p = tree->nodes[p].parent) {
		struct loop_row row = { 0 };

		if (p == node) {
			below = 0;
			row = *node_row;
		} else {
			loop_row_compute(m->prog, &tree->nodes[p], stmt, &row);
		}
		for (k = 0; k < PEARL_GRAPH_MAX_DEPTH && row.valid; ++k) {
			if (!row.coef[k])
				continue;
			if (below || p == node)
				vary_exec[k] = 1;
			if (below)
				vary_iter[k] = 1;
		}
		k = single_iterator(&row);
		if (k < 0 || !row.tile)
			continue;
		if (!below)
			limit_iter[k] = fmin(limit_iter[k], row.tile);
		if (!below && p != node)
			limit_exec[k] = fmin(limit_exec[k], row.tile);
	}
	for (k = 0; k < PEARL_GRAPH_MAX_DEPTH; ++k) {
		double all = k < s->n_iter ? s->hi[k] - s->lo[k] + 1 : 1;

		c->exec[k] = vary_exec[k] ? fmin(all, limit_exec[k]) : 1;
		c->iter[k] = vary_iter[k] ? fmin(all, limit_iter[k]) : 1;
	}
}

/* The elements of a's buffer that `a` touches while its statement's
 * iterators take `extent[k]` values each (a box: each subscript spans its
 * range, cut to the buffer's extent). */
static double touched(const struct graph_memory *m, const struct mem_access *a,
		      const double *extent)
{
	const struct mem_buffer *buf = &m->buffers[a->buffer];
	double elements = 1;
	int d, k;

	for (d = 0; d < a->n_dims; ++d) {
		double span = 1;

		for (k = 0; k < PEARL_GRAPH_MAX_DEPTH; ++k)
			span += (double)labs(a->coef[d][k]) * (extent[k] - 1);
		if (buf->n_dims == a->n_dims)
			span = fmin(span, buf->hi[d] - buf->lo[d] + 1);
		elements *= fmax(span, 1);
	}
	return elements;
}

/* Elements of a's buffer between consecutive iterations of a loop that
 * moves iterator `k` by `step` (its absolute value; -1 if unknown). */
static double stride_of(const struct graph_memory *m,
			const struct mem_access *a, int k, double step)
{
	const struct mem_buffer *buf = &m->buffers[a->buffer];
	double stride = 0;
	int d;

	if (buf->n_dims != a->n_dims)
		return -1; /* unknown: the buffer's accesses disagree */
	for (d = 0; d < a->n_dims; ++d)
		stride += (double)a->coef[d][k] * buf->stride[d];
	return fabs(stride * step);
}

/* The accesses' classes and the largest stride in bytes. */
struct stride_counts {
	int invariant, unit, strided;
	double max_bytes;
};

static void count_strides(const struct graph_memory *m,
			  const struct mem_stmt *s, const struct loop_row *row,
			  struct stride_counts *sc)
{
	int k = single_iterator(row), i;
	double step = row->tile > 0 ? (double)row->tile : 1;

	for (i = 0; i < s->n_acc; ++i) {
		const struct mem_access *a = &s->acc[i];
		double stride = k >= 0 ? stride_of(m, a, k, step) : -1;

		if (stride < 0)
			sc->strided++; /* a skewed or scaled loop, or unknown */
		else if (stride == 0)
			sc->invariant++;
		else if (stride == 1)
			sc->unit++;
		else
			sc->strided++;
		if (stride > 0)
			sc->max_bytes = fmax(sc->max_bytes,
					     stride * m->buffers[a->buffer]
							  .elem_bytes);
	}
}

/* Whether tree node `leaf` lies below node `node`. */
static int is_below(pearl_loop_tree *tree, int leaf, int node)
{
	int p;

	for (p = tree->nodes[leaf].parent; p >= 0; p = tree->nodes[p].parent)
		if (p == node)
			return 1;
	return 0;
}

static float log_scaled(double v, double scale)
{
	return (float)(log2(1.0 + fabs(v)) / scale);
}

void graph_memory_loop_features(struct graph_memory *m,
				pearl_loop_tree *tree, int node, float *f)
{
	struct stride_counts sc = { 0 };
	double exec = 0, iter = 0;
	int i, b, n;

	for (b = 0; b < m->n_buffers; ++b)
		m->buffers[b].foot_exec = m->buffers[b].foot_iter = 0;
	for (i = node + 1; i < tree->n_nodes; ++i) {
		const struct mem_stmt *s;
		struct loop_row row = { 0 };
		struct cut_extents c;

		if (tree->nodes[i].kind != pearl_node_stmt ||
		    !is_below(tree, i, node))
			continue;
		s = &m->stmts[tree->nodes[i].stmt];
		if (s->n_iter < 0)
			continue;
		loop_row_compute(m->prog, &tree->nodes[node],
				 tree->nodes[i].stmt, &row);
		count_strides(m, s, &row, &sc);
		cut_extents(m, tree, node, &row, i, s, &c);
		for (b = 0; b < s->n_acc; ++b) {
			const struct mem_access *a = &s->acc[b];
			struct mem_buffer *buf = &m->buffers[a->buffer];

			buf->foot_exec =
			    fmax(buf->foot_exec, touched(m, a, c.exec));
			buf->foot_iter =
			    fmax(buf->foot_iter, touched(m, a, c.iter));
		}
	}
	for (b = 0; b < m->n_buffers; ++b) {
		exec += m->buffers[b].foot_exec * m->buffers[b].elem_bytes;
		iter += m->buffers[b].foot_iter * m->buffers[b].elem_bytes;
	}
	n = sc.invariant + sc.unit + sc.strided;
	if (n > 0) {
		f[0] = (float)sc.invariant / (float)n;
		f[1] = (float)sc.unit / (float)n;
		f[2] = (float)sc.strided / (float)n;
	}
	f[3] = log_scaled(sc.max_bytes, 24);
	f[4] = log_scaled(exec, 32);
	f[5] = log_scaled(iter, 32);
}
