/*
 * lib/Gen/gen.c - the public entry: builds the structure (gen_build.c),
 * decides the sizes from an operation budget, checks every access against
 * the array bounds, and prints the module (gen_emit.c).
 *
 * Sizes: every program size is D_d = clamp(mul_d * s / 64, min_d, max)
 * for one common scale s, with mul_d an aspect in [32, 128] drawn by the
 * builder and min_d what the structure needs (stencil margins, filters).
 * The estimated run time (cost_ps: operations per statement instance times
 * the estimated iterations, plus the cache-missing traffic of arrays
 * larger than L2 or L3) grows with s; the generator takes the largest s
 * whose estimate stays under a target drawn log-uniformly per program and
 * whose arrays fit a memory cap.  Everything is integer arithmetic, so the
 * sizes are the same on every machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

/* Time budgets in picoseconds of estimated run time (log-uniform in
 * quarter octaves from LO) and caps per scale.  The estimate (cost_ps) is
 * GEN_PS_PER_OP per operation plus GEN_PS_PER_L3_BYTE / _MEM_BYTE per byte
 * a statement whose arrays exceed L2 / L3 moves (an element for unit
 * stride, a cache line for other strides, nothing for reads the innermost
 * loop does not index), fitted (log error) to pearl-exec --time (JIT,
 * unscheduled, one thread) on 30 train programs on this project's
 * machines: most estimates within 0.5x-3x of the measured time. */
#define GEN_SMALL_PS_LO 200000ULL		/* 0.2 us */
#define GEN_SMALL_PS_LOG4 16
#define GEN_SMALL_MAX_DIM 24
#define GEN_SMALL_MAX_BYTES (1ULL << 20)
#define GEN_TRAIN_PS_LO 8000000000ULL		/* 8 ms */
#define GEN_TRAIN_PS_LOG4 15			/* 8 .. 108 ms */
#define GEN_TRAIN_MAX_DIM (1 << 22)
#define GEN_TRAIN_MAX_BYTES (48ULL << 20)
#define GEN_WIDE_PS_LO 250000000ULL		/* 0.25 ms */
#define GEN_WIDE_PS_LOG4 35			/* 0.25 .. 108 ms */
/* The cache scale: working sets log-uniform in quarter octaves from
 * GEN_CACHE_BYTES_LO (32 KiB) over GEN_CACHE_BYTES_LOG4 quarter octaves
 * (to 64 MiB), under the train scale's longest run time. */
#define GEN_CACHE_BYTES_LO (32ULL << 10)
#define GEN_CACHE_BYTES_LOG4 44			/* 32 KiB .. 64 MiB */
#define GEN_CACHE_MAX_PS (GEN_TRAIN_PS_LO * 27 / 2)	/* 108 ms */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int64_t aff_base(const struct gen_prog *p, const struct gen_aff *a)
{
	return a->k + (a->dim >= 0 ? p->dim[a->dim] : 0);
}

int64_t gen_aff_min(const struct gen_prog *p, const struct gen_aff *a,
		    const int64_t *lo, const int64_t *hi)
{
	int64_t v = aff_base(p, a);
	int l;

	for (l = 0; l < GEN_MAX_DEPTH; ++l)
		v += a->coef[l] * (a->coef[l] > 0 ? lo[l] : hi[l]);
	return v;
}

int64_t gen_aff_max(const struct gen_prog *p, const struct gen_aff *a,
		    const int64_t *lo, const int64_t *hi)
{
	int64_t v = aff_base(p, a);
	int l;

	for (l = 0; l < GEN_MAX_DEPTH; ++l)
		v += a->coef[l] * (a->coef[l] > 0 ? hi[l] : lo[l]);
	return v;
}

/* The bounding box [lo, hi] of loop `n`'s iterator given the boxes of the
 * enclosing ones. */
static void loop_box(const struct gen_prog *p, const struct gen_node *n,
		     const int64_t *lo, const int64_t *hi, int64_t *blo,
		     int64_t *bhi)
{
	int i;

	for (i = 0; i < n->n_lb; ++i) {
		int64_t v = gen_aff_min(p, &n->lb[i], lo, hi);

		if (i == 0 || v > *blo)
			*blo = v;
	}
	for (i = 0; i < n->n_ub; ++i) {
		int64_t v = gen_aff_max(p, &n->ub[i], lo, hi) - 1;

		if (i == 0 || v < *bhi)
			*bhi = v;
	}
}

/* Operations of one instance of a statement: its store, loads and
 * arithmetic (math.sqrt counts its absf too). */
static uint64_t expr_ops(const struct gen_prog *p, int e)
{
	const struct gen_expr *x;

	if (e < 0)
		return 0;
	x = &p->exprs[e];
	switch (x->op) {
	case GEN_OP_CONST:
		return 0;
	case GEN_OP_LOAD:
		return 1;
	case GEN_OP_SELECT:
		return 4 + expr_ops(p, x->a) + expr_ops(p, x->b);
	case GEN_OP_SQRT:
		return 2 + expr_ops(p, x->a);
	default:
		return 1 + expr_ops(p, x->a) + expr_ops(p, x->b);
	}
}

static int elem_bytes(enum pearl_gen_type t)
{
	return t == pearl_gen_type_f64 ? 8 : 4;
}

static int64_t array_extent(const struct gen_prog *p, const struct gen_array *a,
			    int d)
{
	return a->dim[d] >= 0 ? p->dim[a->dim[d]] : -a->dim[d];
}

static uint64_t array_bytes(const struct gen_prog *p, int arr)
{
	uint64_t n = (uint64_t)elem_bytes(p->type);
	int d;

	for (d = 0; d < p->arrays[arr].rank; ++d)
		n = sat_mul(n, (uint64_t)array_extent(p, &p->arrays[arr], d));
	return n;
}

/* Bytes one access instance moves through the memory hierarchy when the
 * array does not fit in the cache: 0 if the innermost loop's iterator
 * (level `inner`) does not index it (the value stays in a register or
 * L1), the element size for unit stride (that iterator only in the last
 * index, coefficient +-1), a whole cache line otherwise. */
static int access_bytes(const struct gen_prog *p, int acc, int inner)
{
	const struct gen_access *a = &p->accesses[acc];
	int d, rank = p->arrays[a->array].rank, used = 0, unit = 1;

	if (inner < 0)
		return 0;
	for (d = 0; d < rank; ++d) {
		int c = a->idx[d].coef[inner];

		if (!c)
			continue;
		used = 1;
		if (d != rank - 1 || (c != 1 && c != -1))
			unit = 0;
	}
	return !used ? 0 : unit ? elem_bytes(p->type) : 64;
}

/* The largest access_bytes per array of the loads in expression e, and
 * the arrays it loads. */
static void expr_bytes(const struct gen_prog *p, int e, int inner,
		       int *bytes, char *used)
{
	const struct gen_expr *x;

	if (e < 0)
		return;
	x = &p->exprs[e];
	if (x->op == GEN_OP_LOAD) {
		int arr = p->accesses[x->access].array;
		int b = access_bytes(p, x->access, inner);

		if (b > bytes[arr])
			bytes[arr] = b;
		used[arr] = 1;
	} else if (x->op != GEN_OP_CONST) {
		expr_bytes(p, x->a, inner, bytes, used);
		expr_bytes(p, x->b, inner, bytes, used);
	}
}

/* The cost model: operations, and bytes moved from L3 (the statement's
 * arrays exceed L2) or from memory (they exceed L3). */
struct cost {
	uint64_t ops;
	uint64_t l3;
	uint64_t mem;
};

static void cost_add(struct cost *a, struct cost b)
{
	a->ops = sat_add(a->ops, b.ops);
	a->l3 = sat_add(a->l3, b.l3);
	a->mem = sat_add(a->mem, b.mem);
}

/* One statement instance (neighbouring reads of one array share cache
 * lines: each array counts once, with its worst access).  The level that
 * serves it is decided by the statement's working set, the bytes of the
 * arrays it touches. */
static struct cost stmt_cost(const struct gen_prog *p,
			     const struct gen_node *node)
{
	int bytes[GEN_MAX_ARRAYS], i, w, wa = p->accesses[node->write].array;
	struct cost c = { 0, 0, 0 };
	uint64_t set = 0, moved = 0;
	char used[GEN_MAX_ARRAYS];

	memset(bytes, 0, sizeof(bytes));
	memset(used, 0, sizeof(used));
	expr_bytes(p, node->expr, node->depth - 1, bytes, used);
	w = access_bytes(p, node->write, node->depth - 1);
	if (w > bytes[wa])
		bytes[wa] = w;
	used[wa] = 1;
	c.ops = 1 + expr_ops(p, node->expr);
	for (i = 0; i < p->n_arrays; ++i) {
		if (!used[i])
			continue;
		set = sat_add(set, array_bytes(p, i));
		moved += (uint64_t)bytes[i];
	}
	if (set > GEN_L3_BYTES)
		c.mem = moved;
	else if (set > GEN_L2_BYTES)
		c.l3 = moved;
	return c;
}

/* Estimated cost of node `n` executed `mult` times per instance of its
 * enclosing loops (whose boxes are lo/hi). */
static struct cost count_cost(const struct gen_prog *p, int n, int64_t *lo,
			      int64_t *hi, uint64_t mult)
{
	const struct gen_node *node = &p->nodes[n];
	struct cost sum = { 0, 0, 0 }, t = { 0, 0, 0 }, e = { 0, 0, 0 };
	int i;

	if (node->kind == GEN_NODE_STMT) {
		struct cost c = stmt_cost(p, node);

		sum.ops = sat_mul(mult, c.ops);
		sum.l3 = sat_mul(mult, c.l3);
		sum.mem = sat_mul(mult, c.mem);
		return sum;
	}
	if (node->kind == GEN_NODE_IF) {
		for (i = 0; i < node->n_child; ++i)
			cost_add(&t, count_cost(p, node->child[i], lo, hi, mult));
		for (i = 0; i < node->n_else; ++i)
			cost_add(&e, count_cost(p, node->else_child[i], lo, hi,
						mult));
		return t.ops > e.ops ? t : e;
	} else {
		int d = node->depth;
		int64_t blo = 0, bhi = -1, ext;
		int dependent = 0;

		loop_box(p, node, lo, hi, &blo, &bhi);
		ext = bhi >= blo ? bhi - blo + 1 : 0;
		for (i = 0; i < node->n_lb; ++i)
			dependent |= gen_aff_has_iter(&node->lb[i]);
		for (i = 0; i < node->n_ub; ++i)
			dependent |= gen_aff_has_iter(&node->ub[i]);
		if (dependent && (node->n_lb > 1 || node->n_ub > 1)) {
			/* band: ub[1] - lb[1] wide around the outer iterator */
			int64_t w = node->ub[1].k - node->lb[1].k;

			if (w < ext)
				ext = w;
		} else if (dependent) {
			ext = (ext + 1) / 2;	/* triangle */
		}
		ext = (ext + node->step - 1) / node->step;
		lo[d] = blo;
		hi[d] = bhi;
		for (i = 0; i < node->n_child; ++i)
			cost_add(&sum, count_cost(p, node->child[i], lo, hi,
						  sat_mul(mult, (uint64_t)ext)));
		return sum;
	}
}

static struct cost program_cost(const struct gen_prog *p)
{
	int64_t lo[GEN_MAX_DEPTH + 1], hi[GEN_MAX_DEPTH + 1];
	struct cost sum = { 0, 0, 0 };
	int i;

	memset(lo, 0, sizeof(lo));
	memset(hi, 0, sizeof(hi));
	for (i = 0; i < p->n_nests; ++i)
		cost_add(&sum, count_cost(p, p->nests[i].root, lo, hi, 1));
	return sum;
}

/* Estimated run time in picoseconds. */
static uint64_t cost_ps(struct cost c)
{
	return sat_add(sat_add(sat_mul(c.ops, GEN_PS_PER_OP),
			       sat_mul(c.l3, GEN_PS_PER_L3_BYTE)),
		       sat_mul(c.mem, GEN_PS_PER_MEM_BYTE));
}

static uint64_t program_bytes(const struct gen_prog *p)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < p->n_arrays; ++i)
		sum = sat_add(sum, array_bytes(p, i));
	return sum;
}

static void set_scale(struct gen_prog *p, int64_t s, int64_t max_dim)
{
	int d;

	for (d = 0; d < p->n_dims; ++d) {
		int64_t v = p->dim_mul[d] * s / 64;

		if (v > max_dim)
			v = max_dim;
		if (v < p->dim_min[d])
			v = p->dim_min[d];
		p->dim[d] = v;
	}
}

/* A target drawn log-uniformly in quarter octaves: lo times 2^(u/4) for
 * u uniform in 0..steps. */
static uint64_t draw_quarter_octaves(struct gen_rng *rng, uint64_t lo,
				     int steps)
{
	static const uint64_t quarter[4] = { 1000, 1189, 1414, 1682 };
	int u = gen_below(rng, steps + 1);

	return (lo << (u / 4)) * quarter[u % 4] / 1000;
}

/* Sets the largest scale s in [1, 2^22] whose estimated run time stays
 * under max_ps and whose arrays fit max_bytes (1 if even that does
 * not). */
static void largest_scale(struct gen_prog *p, uint64_t max_ps,
			  uint64_t max_bytes, int64_t max_dim)
{
	int64_t a = 1, b = 1 << 22;

	while (a < b) {
		int64_t m = a + (b - a + 1) / 2;

		set_scale(p, m, max_dim);
		if (cost_ps(program_cost(p)) <= max_ps &&
		    program_bytes(p) <= max_bytes)
			a = m;
		else
			b = m - 1;
	}
	set_scale(p, a, max_dim);
}

/* The sizes: the largest scale whose estimated run time stays under a
 * random target and whose arrays fit the scale's cap; for the cache
 * scale, whose arrays fit a random working set and whose run time stays
 * under the cap. */
static void choose_sizes(struct gen_prog *p)
{
	int small = p->scale == pearl_gen_scale_small;
	int wide = p->scale == pearl_gen_scale_wide;

	if (p->scale == pearl_gen_scale_cache)
		largest_scale(p, GEN_CACHE_MAX_PS,
			      draw_quarter_octaves(&p->rng, GEN_CACHE_BYTES_LO,
						   GEN_CACHE_BYTES_LOG4),
			      GEN_TRAIN_MAX_DIM);
	else
		largest_scale(
		    p,
		    draw_quarter_octaves(&p->rng,
					 small ? GEN_SMALL_PS_LO
					 : wide ? GEN_WIDE_PS_LO
						: GEN_TRAIN_PS_LO,
					 small ? GEN_SMALL_PS_LOG4
					 : wide ? GEN_WIDE_PS_LOG4
						: GEN_TRAIN_PS_LOG4),
		    small ? GEN_SMALL_MAX_BYTES : GEN_TRAIN_MAX_BYTES,
		    small ? GEN_SMALL_MAX_DIM : GEN_TRAIN_MAX_DIM);
}

/* ------------------------------------------------------------------ */
/* Checks: every loop can run, every access is in bounds. */

static int check_access(const struct gen_prog *p, int acc, const int64_t *lo,
			const int64_t *hi, char *err, size_t err_size)
{
	const struct gen_access *a = &p->accesses[acc];
	const struct gen_array *arr = &p->arrays[a->array];
	int d;

	for (d = 0; d < arr->rank; ++d) {
		int64_t mn = gen_aff_min(p, &a->idx[d], lo, hi);
		int64_t mx = gen_aff_max(p, &a->idx[d], lo, hi);

		if (mn < 0 || mx >= array_extent(p, arr, d)) {
			snprintf(err, err_size, "internal: access %d to array "
				 "%d dimension %d spans [%lld, %lld] of %lld",
				 acc, a->array, d, (long long)mn, (long long)mx,
				 (long long)array_extent(p, arr, d));
			return -1;
		}
	}
	return 0;
}

static int check_expr(const struct gen_prog *p, int e, const int64_t *lo,
		      const int64_t *hi, char *err, size_t err_size)
{
	const struct gen_expr *x;

	if (e < 0) {
		snprintf(err, err_size, "internal: missing expression");
		return -1;
	}
	x = &p->exprs[e];
	if (x->op == GEN_OP_LOAD)
		return check_access(p, x->access, lo, hi, err, err_size);
	if (x->op == GEN_OP_CONST)
		return 0;
	if (check_expr(p, x->a, lo, hi, err, err_size) < 0)
		return -1;
	if (x->b >= 0 && check_expr(p, x->b, lo, hi, err, err_size) < 0)
		return -1;
	return 0;
}

static int check_node(const struct gen_prog *p, int n, int64_t *lo,
		      int64_t *hi, char *err, size_t err_size)
{
	const struct gen_node *node = &p->nodes[n];
	int i;

	if (node->kind == GEN_NODE_STMT) {
		if (check_access(p, node->write, lo, hi, err, err_size) < 0)
			return -1;
		return check_expr(p, node->expr, lo, hi, err, err_size);
	}
	if (node->kind == GEN_NODE_LOOP) {
		int64_t blo = 0, bhi = -1;

		loop_box(p, node, lo, hi, &blo, &bhi);
		if (bhi < blo) {
			snprintf(err, err_size, "internal: loop at depth %d "
				 "never runs ([%lld, %lld])", node->depth,
				 (long long)blo, (long long)bhi);
			return -1;
		}
		lo[node->depth] = blo;
		hi[node->depth] = bhi;
	}
	if (node->kind == GEN_NODE_IF) {
		/* the then-branch sees the boxes narrowed by the conditions
		 * on a single iterator (+-i + c >= 0) */
		int64_t tlo[GEN_MAX_DEPTH + 1], thi[GEN_MAX_DEPTH + 1];
		int c, l;

		memcpy(tlo, lo, sizeof(tlo));
		memcpy(thi, hi, sizeof(thi));
		for (c = 0; c < node->n_cond; ++c) {
			const struct gen_aff *a = &node->cond[c];
			int n_it = 0, at = 0;
			int64_t k = aff_base(p, a);

			for (l = 0; l < GEN_MAX_DEPTH; ++l)
				if (a->coef[l]) {
					n_it++;
					at = l;
				}
			if (n_it != 1)
				continue;
			if (a->coef[at] == 1 && -k > tlo[at])
				tlo[at] = -k;
			if (a->coef[at] == -1 && k < thi[at])
				thi[at] = k;
		}
		for (i = 0; i < node->n_child; ++i)
			if (check_node(p, node->child[i], tlo, thi, err,
				       err_size) < 0)
				return -1;
	}
	for (i = 0; node->kind != GEN_NODE_IF && i < node->n_child; ++i)
		if (check_node(p, node->child[i], lo, hi, err, err_size) < 0)
			return -1;
	for (i = 0; i < node->n_else; ++i)
		if (check_node(p, node->else_child[i], lo, hi, err,
			       err_size) < 0)
			return -1;
	return 0;
}

static int max_depth(const struct gen_prog *p, int n)
{
	const struct gen_node *node = &p->nodes[n];
	int i, m = node->kind == GEN_NODE_LOOP ? node->depth + 1 : node->depth;

	for (i = 0; i < node->n_child; ++i) {
		int d = max_depth(p, node->child[i]);

		if (d > m)
			m = d;
	}
	for (i = 0; i < node->n_else; ++i) {
		int d = max_depth(p, node->else_child[i]);

		if (d > m)
			m = d;
	}
	return m;
}

/* ------------------------------------------------------------------ */

char *pearl_gen_program(uint64_t seed, const struct pearl_gen_options *opts,
			struct pearl_gen_info *info, char *err,
			size_t err_size)
{
	struct gen_prog *p;
	struct pearl_gen_info local;
	int64_t lo[GEN_MAX_DEPTH + 1], hi[GEN_MAX_DEPTH + 1];
	char dummy[8];
	char *text;
	int i;

	if (!err) {
		err = dummy;
		err_size = sizeof(dummy);
	}
	if (err_size)
		err[0] = '\0';
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	p->seed = seed;
	p->scale = opts ? opts->scale : pearl_gen_scale_small;
	p->family = opts ? opts->family : pearl_gen_family_any;
	if ((unsigned)p->family >= pearl_gen_n_families) {
		snprintf(err, err_size, "unknown program family %d",
			 (int)p->family);
		free(p);
		return NULL;
	}
	if (p->scale != pearl_gen_scale_small &&
	    p->scale != pearl_gen_scale_train &&
	    p->scale != pearl_gen_scale_wide &&
	    p->scale != pearl_gen_scale_cache) {
		snprintf(err, err_size, "unknown size scale %d", (int)p->scale);
		free(p);
		return NULL;
	}
	/* One stream per (seed, scale): the scale changes the sizes drawn,
	 * and keeping the structure of a seed equal across scales makes the
	 * small programs of the tests stand for the training ones. */
	p->rng.state = seed ^ 0x5045524c2d47454eULL;	/* "PERL-GEN" */
	gen_build(p);
	if (p->full) {
		const char *file = strrchr(p->full_file, '/');

		snprintf(err, err_size, "internal: program of seed %llu "
			 "exceeds the generator's pools (%s:%d)",
			 (unsigned long long)seed,
			 file ? file + 1 : p->full_file, p->full);
		free(p);
		return NULL;
	}
	choose_sizes(p);
	memset(lo, 0, sizeof(lo));
	memset(hi, 0, sizeof(hi));
	for (i = 0; i < p->n_nests; ++i)
		if (check_node(p, p->nests[i].root, lo, hi, err, err_size) < 0) {
			free(p);
			return NULL;
		}

	memset(&local, 0, sizeof(local));
	local.family = p->family;
	local.n_nests = p->n_nests;
	for (i = 0; i < p->n_nests; ++i) {
		int d = max_depth(p, p->nests[i].root);

		if (d > local.max_depth)
			local.max_depth = d;
		local.kinds |= 1u << p->nests[i].kind;
	}
	local.types = 1u << p->type;
	local.features = p->features;
	local.n_arrays = p->n_arrays;
	{
		struct cost c = program_cost(p);

		local.ops = c.ops;
		local.l3_bytes = c.l3;
		local.mem_bytes = c.mem;
		local.est_ps = cost_ps(c);
	}
	local.bytes = program_bytes(p);
	local.est_ms = (double)local.est_ps * 1e-9;
	text = opts && opts->lang == pearl_gen_lang_c ? gen_emit_c(p, &local)
						      : gen_emit(p, &local);
	free(p);
	if (!text) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (info)
		*info = local;
	return text;
}
