/*
 * lib/Gen/gen_build.c - the random structure of a program.
 *
 * The grammar (per mille where not weights; each named beside its code):
 *
 *   program  := nest{1,2,3}                  weights 40 : 40 : 20
 *   nest     := elementwise | stencil | reduction | contraction
 *                                            weights 25 : 25 : 22 : 28
 *   element type (whole program): f32 | f64 | i32    weights 40 : 30 : 30
 *
 * A nest after the first reads an array written by an earlier nest
 * (producer/consumer chain) when its kind finds one that fits (the chances
 * are given per kind).  Sizes are the program's D0..D2 (1-3 of them);
 * every array dimension is one of them (or a small constant for filters),
 * and loops run over [margin, D - margin), so every access stays in bounds
 * whatever sizes are chosen later (gen.c checks this once they are).
 *
 * elementwise: rank 1-4 (20:45:25:10) out[x] = f(in[x], ...)
 *   chain input 700; loop order permuted 250; domain rect / triangular /
 *   banded / affine.if guard (56:22:8:14, rank >= 2; band
 *   half-width 1-4, at the train scale 4-32); step 2 on the
 *   innermost loop 50; time loop 350 (rank <= 2) or 150 (rank 3), then
 *   the update is an in-place average; in place 250 on a chained array,
 *   120 otherwise; 0-2 extra reads: same shape (40), broadcast (35),
 *   transposed (25); imperfect (rank >= 2) 250: a statement before the
 *   innermost loop producing a row value the inner statement reads (500),
 *   else one after it reading the row's first element.
 * stencil: rank 1-3 (25:50:25), radius 2 (rank <= 2) 200, box 350 (rank
 *   2, radius 1) else star; chain input 650; variants out-of-place (40:
 *   weighted average 600, free expression otherwise; boundary handled by an
 *   affine.if/else copy 250 instead of shrunk loops; extra coefficient array
 *   250), Jacobi time loop B = f(A); A = f(B) (30), Gauss-Seidel in place
 *   (30, inside a time loop 600).
 * reduction: output rank 1-3 (45:40:15), reduced loops 1-2 (75:25); chain
 *   input 600; reduced axes first in the input 200; reduction loops
 *   outermost 300 (one reduced loop); triangular 300 (k <= i, k < i,
 *   k >= i, k > i); weight vector 450 or second full input 150; max
 *   instead of sum 200; init statement before the reduction loops 500,
 *   finishing statement after them 300 (when they are innermost).
 * contraction: matmul (45), batched matmul (15), doitgen (15),
 *   convolution (25).  matmul: chained A 600, A transposed 200, B chained
 *   300, B transposed 200, loop order ijk ikj jik kij jki kji
 *   (30:30:10:15:5:10), triangular 300 (j vs i or k vs i), alpha 300,
 *   init C = beta C or 0 before an innermost k loop 400.  batched: shared
 *   B 400, order bijk or bikj.  doitgen: init 600, copy-back loop 500.
 *   convolution: 3x3 (800) or 5x5 filter, channels 300, filter loops
 *   outermost 250, init 350.
 *
 * Families (pearl_gen_family) fix parts of this: matmul and gemm one
 * matmul nest (see gen.h); chain 2 or 3 (600:400) matmul nests, chained
 * A 700, order ijk ikj jik kij jki kji (50:10:20:10:5:5), init 800 before
 * an innermost k loop, never triangular; matvec its own grammar
 * (build_matvec_program: 2-3 nests over one matrix, as PolyBench's atax,
 * bicg, gemver, gesummv and mvt); sweep its own (build_sweep_program:
 * 2-3 fields of one shape (three 500 when the nests can write them all),
 * rank 1-3 (20:55:25), updated in turn by 2-4 nests (25:35:40), all in a
 * time loop 800; a boundary row copy first 300 (rank >= 2); each update
 * reads its own centre 600, another field by a star 350 (else a one-sided
 * difference), a third field 450; loops shuffled 250).
 *
 * Expressions: f32/f64 use addf subf mulf divf (by constants), maximumf
 * minimumf, cmpf+select, math.absf, math.sqrt(absf); i32 uses addi subi
 * muli divsi/remsi (by positive constants), shrsi, maxsi minsi, cmpi+select
 * (wrap-around is fine: comparisons are bit for bit).  Statements repeated
 * by a time loop use bounded averages so values neither overflow nor
 * vanish.
 */
#include <stdio.h>
#include <string.h>

#include "gen_internal.h"
#include "pearl/random.h"

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64 (pearl/random.h). */

uint64_t gen_rng_next(struct gen_rng *rng)
{
	return pearl_splitmix64(&rng->state);
}

int gen_below(struct gen_rng *rng, int n)
{
	if (n <= 1)
		return 0;
	return (int)(gen_rng_next(rng) % (uint64_t)n);
}

int gen_chance(struct gen_rng *rng, int permille)
{
	return gen_below(rng, 1000) < permille;
}

int gen_pick(struct gen_rng *rng, const int *weights, int n)
{
	int r = gen_below(rng, pearl_weights_total(weights, n));

	return pearl_weighted_index(weights, n, r);
}

/* ------------------------------------------------------------------ */
/* Affine expressions, nodes, arrays, accesses, expressions. */

/* Records the first line where the structure went wrong. */
#define GEN_FAIL(p) ((p)->full = (p)->full ? (p)->full : __LINE__)

static struct gen_aff aff_k(int k)
{
	struct gen_aff a;

	memset(&a, 0, sizeof(a));
	a.dim = -1;
	a.k = k;
	return a;
}

static struct gen_aff aff_d(int dim, int k)
{
	struct gen_aff a = aff_k(k);

	a.dim = dim;
	return a;
}

static struct gen_aff aff_it(int level, int k)
{
	struct gen_aff a = aff_k(k);

	a.coef[level] = 1;
	return a;
}

static int new_node(struct gen_prog *p, enum gen_node_kind kind, int depth)
{
	struct gen_node *n;

	if (p->n_nodes >= GEN_MAX_NODES || depth > GEN_MAX_DEPTH) {
		GEN_FAIL(p);
		return -1;
	}
	n = &p->nodes[p->n_nodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->depth = depth;
	n->step = 1;
	n->write = -1;
	n->expr = -1;
	return p->n_nodes++;
}

static void add_child(struct gen_prog *p, int parent, int child, int in_else)
{
	struct gen_node *n;

	if (parent < 0 || child < 0)
		return;
	n = &p->nodes[parent];
	if (in_else) {
		if (n->n_else >= GEN_MAX_CHILDREN) {
			GEN_FAIL(p);
			return;
		}
		n->else_child[n->n_else++] = child;
	} else {
		if (n->n_child >= GEN_MAX_CHILDREN) {
			GEN_FAIL(p);
			return;
		}
		n->child[n->n_child++] = child;
	}
}

/* A loop max(lb..) <= i < min(ub..) at `depth`, appended to parent's body
 * (parent -1: a nest root). */
static int loop_new(struct gen_prog *p, int parent, int depth, int n_lb,
		    const struct gen_aff *lb, int n_ub,
		    const struct gen_aff *ub, enum gen_loop_role role)
{
	int i, l = new_node(p, GEN_NODE_LOOP, depth);

	if (l < 0)
		return -1;
	p->nodes[l].n_lb = n_lb;
	p->nodes[l].n_ub = n_ub;
	for (i = 0; i < n_lb; ++i)
		p->nodes[l].lb[i] = lb[i];
	for (i = 0; i < n_ub; ++i)
		p->nodes[l].ub[i] = ub[i];
	p->nodes[l].role = role;
	add_child(p, parent, l, 0);
	return l;
}

static void need_dim(struct gen_prog *p, int dim, int min)
{
	if (dim >= 0 && dim < GEN_MAX_DIMS && p->dim_min[dim] < min)
		p->dim_min[dim] = min;
}

/* lo <= i < D[dim] - hi */
static int loop_dim(struct gen_prog *p, int parent, int depth, int dim,
		    int lo, int hi, enum gen_loop_role role)
{
	struct gen_aff lb = aff_k(lo), ub = aff_d(dim, -hi);

	need_dim(p, dim, lo + hi + 2);
	return loop_new(p, parent, depth, 1, &lb, 1, &ub, role);
}

/* 0 <= i < n */
static int loop_const(struct gen_prog *p, int parent, int depth, int n,
		      enum gen_loop_role role)
{
	struct gen_aff lb = aff_k(0), ub = aff_k(n);

	return loop_new(p, parent, depth, 1, &lb, 1, &ub, role);
}

/* Triangle kinds of an inner loop over the size of an outer loop at
 * `ref` (which runs over [0, D)). */
enum { TRI_LE, TRI_LT, TRI_GE, TRI_GT, N_TRI };
static const char *const tri_name[N_TRI] = { "<=", "<", ">=", ">" };

static int loop_tri(struct gen_prog *p, int parent, int depth, int dim,
		    int ref, int kind, enum gen_loop_role role)
{
	struct gen_aff lb = aff_k(0), ub = aff_d(dim, 0);

	switch (kind) {
	case TRI_LE: ub = aff_it(ref, 1); break;
	case TRI_LT: ub = aff_it(ref, 0); break;
	case TRI_GE: lb = aff_it(ref, 0); break;
	default: lb = aff_it(ref, 1); break;
	}
	need_dim(p, dim, 4);
	p->features |= pearl_gen_f_triangular;
	return loop_new(p, parent, depth, 1, &lb, 1, &ub, role);
}

/* max(0, i_ref - w) <= i < min(D, i_ref + w + 1) */
static int loop_band(struct gen_prog *p, int parent, int depth, int dim,
		     int ref, int w, enum gen_loop_role role)
{
	struct gen_aff lb[2] = { aff_k(0), aff_it(ref, -w) };
	struct gen_aff ub[2] = { aff_d(dim, 0), aff_it(ref, w + 1) };

	need_dim(p, dim, 2 * w + 3);
	p->features |= pearl_gen_f_banded;
	return loop_new(p, parent, depth, 2, lb, 2, ub, role);
}

static int array_new(struct gen_prog *p, int rank, const int *dims)
{
	struct gen_array *a;
	int d;

	if (p->n_arrays >= GEN_MAX_ARRAYS || rank < 1 || rank > GEN_MAX_RANK) {
		GEN_FAIL(p);
		return -1;
	}
	a = &p->arrays[p->n_arrays];
	memset(a, 0, sizeof(*a));
	a->rank = rank;
	for (d = 0; d < rank; ++d)
		a->dim[d] = dims[d];
	a->writer = -1;
	return p->n_arrays++;
}

static int array_dims_equal(const struct gen_array *a, int rank,
			    const int *dims)
{
	int d;

	if (a->rank != rank)
		return 0;
	for (d = 0; d < rank; ++d)
		if (a->dim[d] != dims[d])
			return 0;
	return 1;
}

static int array_is_sized(const struct gen_array *a)
{
	int d;

	for (d = 0; d < a->rank; ++d)
		if (a->dim[d] < 0)
			return 0;
	return 1;
}

/* An array written by a nest before `nest` with rank in [lo, hi] (sized
 * dimensions only), uniformly; -1 if none. */
static int chain_any(struct gen_prog *p, int nest, int lo, int hi)
{
	int cand[GEN_MAX_ARRAYS], n = 0, i;

	for (i = 0; i < p->n_arrays; ++i) {
		const struct gen_array *a = &p->arrays[i];

		if (a->writer >= 0 && a->writer < nest && a->rank >= lo &&
		    a->rank <= hi && array_is_sized(a))
			cand[n++] = i;
	}
	return n ? cand[gen_below(&p->rng, n)] : -1;
}

/* An array written by a nest before `nest` with exactly these dims. */
static int chain_match(struct gen_prog *p, int nest, int rank,
		       const int *dims)
{
	int cand[GEN_MAX_ARRAYS], n = 0, i;

	for (i = 0; i < p->n_arrays; ++i) {
		const struct gen_array *a = &p->arrays[i];

		if (a->writer >= 0 && a->writer < nest &&
		    array_dims_equal(a, rank, dims))
			cand[n++] = i;
	}
	return n ? cand[gen_below(&p->rng, n)] : -1;
}

/* An input array of these dims: an earlier nest's output with chance
 * `chain` (when one fits), else a new array. */
static int input_array(struct gen_prog *p, int nest, int rank,
		       const int *dims, int chain)
{
	int a = -1;

	if (nest > 0 && gen_chance(&p->rng, chain))
		a = chain_match(p, nest, rank, dims);
	if (a >= 0)
		p->features |= pearl_gen_f_chain;
	else
		a = array_new(p, rank, dims);
	return a;
}

/* Chance, per mille (gen_chance), that an index of a read that is not a
 * plain iterator is printed through an affine.apply (one per read). */
enum { ACCESS_APPLY = 80 };

/* An access to `array` with the given indices; an index that is not a
 * plain iterator is printed through affine.apply with chance ACCESS_APPLY
 * (at most one index of a read). */
static int access_new(struct gen_prog *p, int array, const struct gen_aff *idx,
		      int is_write)
{
	struct gen_access *acc;
	int d, l, plain;

	if (array < 0 || p->n_accesses >= GEN_MAX_ACCESSES) {
		GEN_FAIL(p);
		return -1;
	}
	acc = &p->accesses[p->n_accesses];
	acc->array = array;
	acc->apply_dim = -1;
	for (d = 0; d < p->arrays[array].rank; ++d) {
		acc->idx[d] = idx[d];
		plain = idx[d].k == 0 && idx[d].dim < 0;
		for (l = 0; l < GEN_MAX_DEPTH; ++l)
			if (idx[d].coef[l] != 0 && idx[d].coef[l] != 1)
				plain = 0;
		if (!plain && !is_write && acc->apply_dim < 0 &&
		    gen_chance(&p->rng, ACCESS_APPLY)) {
			acc->apply_dim = d;
			p->features |= pearl_gen_f_apply;
		}
	}
	if (is_write) {
		if (p->arrays[array].writer < 0)
			p->arrays[array].writer = p->n_nests;
	} else {
		p->arrays[array].read = 1;
	}
	return p->n_accesses++;
}

/* array[i_{lev[0]}, i_{lev[1]}, ...] */
static int access_levels(struct gen_prog *p, int array, const int *lev,
			 int is_write)
{
	struct gen_aff idx[GEN_MAX_RANK];
	int d;

	if (array < 0)
		return -1;
	for (d = 0; d < p->arrays[array].rank; ++d)
		idx[d] = aff_it(lev[d], 0);
	return access_new(p, array, idx, is_write);
}

static int e_new(struct gen_prog *p, enum gen_op op, int a, int b)
{
	struct gen_expr *e;

	if (p->n_exprs >= GEN_MAX_EXPRS || (op != GEN_OP_CONST &&
	    op != GEN_OP_LOAD && a < 0)) {
		GEN_FAIL(p);
		return -1;
	}
	e = &p->exprs[p->n_exprs];
	e->op = op;
	e->a = a;
	e->b = b;
	e->access = -1;
	e->literal = NULL;
	if (op == GEN_OP_MAX || op == GEN_OP_MIN || op == GEN_OP_SELECT)
		p->features |= pearl_gen_f_select;
	if (op == GEN_OP_ABS || op == GEN_OP_SQRT)
		p->features |= pearl_gen_f_math;
	return p->n_exprs++;
}

static int e_load(struct gen_prog *p, int access)
{
	int e;

	if (access < 0) {
		GEN_FAIL(p);
		return -1;
	}
	e = e_new(p, GEN_OP_LOAD, -1, -1);
	if (e >= 0)
		p->exprs[e].access = access;
	return e;
}

static int e_const(struct gen_prog *p, const char *literal)
{
	int e = e_new(p, GEN_OP_CONST, -1, -1);

	if (e >= 0)
		p->exprs[e].literal = literal;
	return e;
}

static int is_float(const struct gen_prog *p)
{
	return p->type != pearl_gen_type_i32;
}

/* Literals. Floats are written so that f32 and f64 parse them alike. */
static const char *const f_small[] = { "0.5", "0.25", "0.75", "0.125" };
static const char *const f_large[] = { "1.5", "2.0", "3.0", "1.25" };
static const char *const f_div[] = { "2.0", "3.0", "4.0", "5.0", "7.0" };
static const char *const i_mul[] = { "2", "3", "5", "7", "-1" };
static const char *const i_div[] = { "2", "3", "4", "5", "7" };
static const char *const i_rem[] = { "7", "13", "64", "1000" };
static const char *const i_shr[] = { "1", "2", "3" };
static const char *const n_float[] = { "1.0", "2.0", "3.0", "4.0", "5.0",
	"6.0", "7.0", "8.0", "9.0", "10.0", "11.0", "12.0" };
static const char *const n_int[] = { "1", "2", "3", "4", "5", "6", "7",
	"8", "9", "10", "11", "12" };
#define N_OF(t) ((int)(sizeof(t) / sizeof((t)[0])))
#define LIT(p, t) ((t)[gen_below(&(p)->rng, N_OF(t))])

static const char *zero_literal(const struct gen_prog *p)
{
	return is_float(p) ? "0.0" : "0";
}

static int e_bin(struct gen_prog *p, enum gen_op op, int a, int b)
{
	return e_new(p, op, a, b);
}

/* Chances of the expressions, per mille (gen_chance). */
enum {
	EXPR_SCALE = 200,		/* a leaf times a constant, ... */
	EXPR_SCALE_SMALL = 600,		/* ... for floats one below 1 */
	EXPR_BOUNDED_MAX_MIN = 150,	/* a bounded fold by max or min, ... */
	EXPR_BOUNDED_MAX = 500,		/* ... by max */
	EXPR_BOUNDED_DIV = 400,		/* a float sum divided by the count
					 * (else times a power of 1/2) */
	EXPR_BOUNDED_INT_DIV = 500,	/* an i32 sum divided by the count
					 * (else shifted right) */
	EXPR_SQRT = 100,		/* floats: sqrt(abs(e)), ... */
	EXPR_ABS = 60,			/* ... else math.absf(e) */
	EXPR_FLOAT_DIV = 80,		/* floats: e divided by a constant */
	EXPR_NEG = 40,			/* floats: e negated */
	EXPR_INT_DIV = 120,		/* i32: e divided by a constant, ... */
	EXPR_INT_REM = 60,		/* ... else its remainder by one, ... */
	EXPR_INT_SHR = 60,		/* ... else e shifted right */
};

/* x, or x times a constant (chance EXPR_SCALE). */
static int maybe_scale(struct gen_prog *p, int x)
{
	const char *c;

	if (!gen_chance(&p->rng, EXPR_SCALE))
		return x;
	if (is_float(p))
		c = gen_chance(&p->rng, EXPR_SCALE_SMALL) ? LIT(p, f_small)
							   : LIT(p, f_large);
	else
		c = LIT(p, i_mul);
	return e_bin(p, GEN_OP_MUL, x, e_const(p, c));
}

/* The sum (or max/min) of the leaves scaled down by their number, so that
 * its magnitude stays within the leaves' (floats); for integers the sum
 * divided or shifted. */
static int combine_bounded(struct gen_prog *p, const int *leaves, int n)
{
	enum gen_op fold = GEN_OP_ADD;
	int i, e = leaves[0], sh;

	if (n > 1 && gen_chance(&p->rng, EXPR_BOUNDED_MAX_MIN))
		fold = gen_chance(&p->rng, EXPR_BOUNDED_MAX) ? GEN_OP_MAX
							     : GEN_OP_MIN;
	for (i = 1; i < n; ++i)
		e = e_bin(p, fold, e, leaves[i]);
	if (fold != GEN_OP_ADD || n < 2)
		return e;
	if (n > N_OF(n_float))
		n = N_OF(n_float);
	if (is_float(p)) {
		if (gen_chance(&p->rng, EXPR_BOUNDED_DIV))
			return e_bin(p, GEN_OP_DIV, e,
				     e_const(p, n_float[n - 1]));
		return e_bin(p, GEN_OP_MUL, e, e_const(p, n <= 2 ? "0.5" :
				   n <= 4 ? "0.25" : n <= 8 ? "0.125" : "0.0625"));
	}
	if (gen_chance(&p->rng, EXPR_BOUNDED_INT_DIV))
		return e_bin(p, GEN_OP_DIV, e, e_const(p, n_int[n - 1]));
	for (sh = 0; (1 << sh) < n; ++sh)
		;
	return e_bin(p, GEN_OP_SHR, e, e_const(p, n_int[sh - 1]));
}

/* A random expression over the leaves (in order). */
static int combine_free(struct gen_prog *p, const int *leaves, int n)
{
	static const int w[] = { 40, 15, 30, 6, 5, 4 };
	static const enum gen_op ops[] = { GEN_OP_ADD, GEN_OP_SUB, GEN_OP_MUL,
		GEN_OP_MAX, GEN_OP_MIN, GEN_OP_SELECT };
	int i, e = maybe_scale(p, leaves[0]);

	for (i = 1; i < n; ++i) {
		/* one draw per statement: the order of evaluation of function
		 * arguments is unspecified */
		enum gen_op op = ops[gen_pick(&p->rng, w, N_OF(w))];
		int x = maybe_scale(p, leaves[i]);

		e = e_bin(p, op, e, x);
	}
	if (is_float(p)) {
		if (gen_chance(&p->rng, EXPR_SQRT))
			e = e_new(p, GEN_OP_SQRT, e, -1);
		else if (gen_chance(&p->rng, EXPR_ABS))
			e = e_new(p, GEN_OP_ABS, e, -1);
		if (gen_chance(&p->rng, EXPR_FLOAT_DIV))
			e = e_bin(p, GEN_OP_DIV, e, e_const(p, LIT(p, f_div)));
		if (gen_chance(&p->rng, EXPR_NEG))
			e = e_new(p, GEN_OP_NEG, e, -1);
	} else {
		if (gen_chance(&p->rng, EXPR_INT_DIV))
			e = e_bin(p, GEN_OP_DIV, e, e_const(p, LIT(p, i_div)));
		else if (gen_chance(&p->rng, EXPR_INT_REM))
			e = e_bin(p, GEN_OP_REM, e, e_const(p, LIT(p, i_rem)));
		else if (gen_chance(&p->rng, EXPR_INT_SHR))
			e = e_bin(p, GEN_OP_SHR, e, e_const(p, LIT(p, i_shr)));
	}
	return e;
}

static int combine(struct gen_prog *p, const int *leaves, int n, int bounded)
{
	if (n < 1) {
		GEN_FAIL(p);
		return -1;
	}
	return bounded ? combine_bounded(p, leaves, n)
		       : combine_free(p, leaves, n);
}

/* A statement write := expr appended to parent's body (or else-branch). */
static int stmt_new(struct gen_prog *p, int parent, int depth, int write,
		    int expr, int in_else)
{
	int s;

	if (write < 0 || expr < 0) {
		GEN_FAIL(p);
		return -1;
	}
	s = new_node(p, GEN_NODE_STMT, depth);
	if (s < 0)
		return -1;
	p->nodes[s].write = write;
	p->nodes[s].expr = expr;
	add_child(p, parent, s, in_else);
	return s;
}

static int random_dim(struct gen_prog *p)
{
	return gen_below(&p->rng, p->n_dims);
}

static int time_steps(struct gen_prog *p)
{
	return p->scale == pearl_gen_scale_small ? 2 + gen_below(&p->rng, 2)
						 : 2 + gen_below(&p->rng, 7);
}

static void shuffle(struct gen_prog *p, int *v, int n)
{
	int i, j, t;

	for (i = n - 1; i > 0; --i) {
		j = gen_below(&p->rng, i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

#define DESC(...)                                                         \
	snprintf(desc + strlen(desc), GEN_DESC_SIZE - strlen(desc),       \
		 __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* elementwise */

/* Chances of the elementwise grammar, per mille (gen_chance). */
enum {
	ELEMENTWISE_CHAIN = 700,	/* the input an earlier nest's output */
	ELEMENTWISE_TIME_LOOP = 350,	/* a time loop around rank 1-2, ... */
	ELEMENTWISE_TIME_LOOP_RANK3 = 150, /* ... around rank 3 */
	ELEMENTWISE_PERMUTED = 250,	/* the loops in a shuffled order */
	ELEMENTWISE_IMPERFECT = 250,	/* a statement beside the innermost
					 * loop (rank >= 2), ... */
	ELEMENTWISE_PRE = 500,		/* ... before it (else after it) */
	ELEMENTWISE_PRE_CHAIN = 500,	/* its input an earlier nest's output */
	ELEMENTWISE_PRE_CONST = 500,	/* it also uses a constant */
	ELEMENTWISE_STEP2 = 50,		/* step 2 on the innermost loop
					 * (rectangular domains) */
	ELEMENTWISE_GUARD_FLIPPED = 500, /* the guard is i_l1 >= i_l2 (else
					  * i_l2 >= i_l1) */
	ELEMENTWISE_IN_PLACE_CHAINED = 250, /* writes its input, an earlier
					     * nest's output */
	ELEMENTWISE_IN_PLACE = 120,	/* writes its input, a new array */
	ELEMENTWISE_SAME_CHAIN = 400,	/* an extra read of the same shape is
					 * of an earlier nest's output */
	ELEMENTWISE_BROADCAST_AXIS = 500, /* a broadcast read keeps an axis */
	ELEMENTWISE_BROADCAST_CHAIN = 300, /* it is an earlier nest's output */
	ELEMENTWISE_TRANSPOSE_CHAIN = 300, /* so is a transposed read */
	ELEMENTWISE_ELSE = 400,		/* a guarded statement has an else */
};

/* The domain shapes of an elementwise nest: loop l2 over the whole size,
 * triangular or banded against loop l1, or guarded by i_l2 >= i_l1. */
enum elementwise_shape { SHAPE_RECT, SHAPE_TRI, SHAPE_BAND, SHAPE_GUARD };

/* An elementwise nest out[x] = f(in[x], ...) being built: its choices,
 * then the nodes and arrays made from them. */
struct elementwise {
	int nest;			/* index of the nest */
	int r;				/* rank of the arrays and the nest */
	int dims[GEN_MAX_RANK];		/* program size of each array axis */
	int src;			/* the input array (-1: a new one) */
	int use_t;			/* a time loop around the nest */
	int t0;				/* level of the first space loop */
	int perm[GEN_MAX_RANK];		/* array axis of each space loop */
	int lev[GEN_MAX_RANK];		/* loop level of each array axis */
	enum elementwise_shape shape;
	int l1, l2;			/* the loops a shape relates */
	int pre, post;			/* a statement before / after the
					 * innermost loop */
	int step2;			/* step 2 on the innermost loop */
	int root;			/* the nest's outermost loop */
	int loops[GEN_MAX_DEPTH];	/* the space loops, outermost first */
	int stmt_parent;		/* where the main statement goes */
	int tmp;			/* the pre-statement's array, or -1 */
	int out;			/* the array the statement writes */
	int leaves[GEN_MAX_READS];	/* the main statement's operands */
	int n_leaves;
};

/* The input: an earlier nest's output (its rank and sizes), or a new
 * rank and sizes (the array itself is made later). */
static void elementwise_choose_input(struct gen_prog *p,
				     struct elementwise *e)
{
	static const int rank_w[] = { 20, 45, 25, 10 };
	int a;

	if (e->nest > 0 && gen_chance(&p->rng, ELEMENTWISE_CHAIN))
		e->src = chain_any(p, e->nest, 1, GEN_MAX_RANK);
	if (e->src >= 0) {
		e->r = p->arrays[e->src].rank;
		memcpy(e->dims, p->arrays[e->src].dim, sizeof(e->dims));
		p->features |= pearl_gen_f_chain;
	} else {
		e->r = 1 + gen_pick(&p->rng, rank_w, N_OF(rank_w));
		for (a = 0; a < e->r; ++a)
			e->dims[a] = random_dim(p);
	}
}

/* The time loop, the loop order and the domain's shape (loops l2 and l1
 * of one size, or the shape rectangular if a chained input's differ). */
static void elementwise_choose_loops(struct gen_prog *p,
				     struct elementwise *e)
{
	static const int shape_w[] = { 56, 22, 8, 14 };
	int a, l, r = e->r;

	e->use_t = r <= 3 &&
		   gen_chance(&p->rng, r <= 2 ? ELEMENTWISE_TIME_LOOP
					      : ELEMENTWISE_TIME_LOOP_RANK3);
	e->t0 = e->use_t ? 1 : 0;
	for (a = 0; a < r; ++a)
		e->perm[a] = a;
	if (r >= 2 && gen_chance(&p->rng, ELEMENTWISE_PERMUTED))
		shuffle(p, e->perm, r);
	if (r >= 2)
		e->shape = gen_pick(&p->rng, shape_w, N_OF(shape_w));
	if (e->shape != SHAPE_RECT) {
		e->l2 = 1 + gen_below(&p->rng, r - 1);
		e->l1 = gen_below(&p->rng, e->l2);
		if (e->dims[e->perm[e->l1]] != e->dims[e->perm[e->l2]]) {
			if (e->src < 0)
				e->dims[e->perm[e->l2]] =
					e->dims[e->perm[e->l1]];
			else
				e->shape = SHAPE_RECT;
		}
	}
	for (l = 0; l < r; ++l)
		e->lev[e->perm[l]] = e->t0 + l;
}

/* A statement before or after the innermost loop, and step 2 on it. */
static void elementwise_choose_extras(struct gen_prog *p,
				      struct elementwise *e)
{
	if (e->r >= 2 && gen_chance(&p->rng, ELEMENTWISE_IMPERFECT)) {
		e->pre = gen_chance(&p->rng, ELEMENTWISE_PRE);
		e->post = !e->pre;
		p->features |= pearl_gen_f_imperfect;
	}
	e->step2 = e->shape == SHAPE_RECT &&
		   gen_chance(&p->rng, ELEMENTWISE_STEP2);
}

/* tmp[outer] = f(in[outer]) in `parent`, before the innermost loop. */
static void elementwise_pre_statement(struct gen_prog *p,
				      struct elementwise *e, int parent)
{
	int tdims[GEN_MAX_RANK], tlev[GEN_MAX_RANK], in, lf[2];
	int i, n = 0, r = e->r, t0 = e->t0;

	for (i = 0; i < r - 1; ++i) {
		tdims[i] = e->dims[e->perm[i]];
		tlev[i] = t0 + i;
	}
	in = input_array(p, e->nest, r - 1, tdims, ELEMENTWISE_PRE_CHAIN);
	lf[n++] = e_load(p, access_levels(p, in, tlev, 0));
	if (gen_chance(&p->rng, ELEMENTWISE_PRE_CONST))
		lf[n++] = e_const(p, is_float(p) ?
			LIT(p, f_large) : LIT(p, i_mul));
	e->tmp = array_new(p, r - 1, tdims);
	stmt_new(p, parent, t0 + r - 1,
		 access_levels(p, e->tmp, tlev, 1),
		 combine(p, lf, n, 0), 0);
}

/* Space loop l in `parent`: triangular or banded against loop l1 if it is
 * loop l2 of such a shape, else over its whole size (with step 2 if it is
 * the innermost and that was chosen). */
static int elementwise_loop(struct gen_prog *p, const struct elementwise *e,
			    int l, int parent, char *desc)
{
	int d = e->dims[e->perm[l]], t0 = e->t0, loop;

	if (l == e->l2 && e->shape == SHAPE_TRI) {
		int tri = gen_below(&p->rng, N_TRI);

		loop = loop_tri(p, parent, t0 + l, d, t0 + e->l1, tri,
				GEN_ROLE_SPACE);
		DESC(", triangular i%d %s i%d", t0 + e->l2, tri_name[tri],
		     t0 + e->l1);
	} else if (l == e->l2 && e->shape == SHAPE_BAND) {
		int wi = gen_below(&p->rng, 4);
		int w = p->scale == pearl_gen_scale_small ? 1 + wi : 4 << wi;

		loop = loop_band(p, parent, t0 + l, d, t0 + e->l1, w,
				 GEN_ROLE_SPACE);
		DESC(", band %d", w);
	} else {
		loop = loop_dim(p, parent, t0 + l, d, 0, 0, GEN_ROLE_SPACE);
		if (l == e->r - 1 && e->step2 && loop >= 0) {
			p->nodes[loop].step = 2;
			p->features |= pearl_gen_f_step;
			DESC(", step 2");
		}
	}
	return loop;
}

/* The affine.if i_l2 >= i_l1 (or i_l1 >= i_l2) in `parent`, the main
 * statement's place in a guarded domain. */
static int elementwise_guard(struct gen_prog *p, const struct elementwise *e,
			     int parent, char *desc)
{
	int g = new_node(p, GEN_NODE_IF, e->t0 + e->r);

	if (g >= 0) {
		struct gen_aff c = aff_it(e->t0 + e->l2, 0);

		c.coef[e->t0 + e->l1] = -1;
		if (gen_chance(&p->rng, ELEMENTWISE_GUARD_FLIPPED)) {
			c.coef[e->t0 + e->l2] = -1;
			c.coef[e->t0 + e->l1] = 1;
		}
		p->nodes[g].n_cond = 1;
		p->nodes[g].cond[0] = c;
	}
	add_child(p, parent, g, 0);
	p->features |= pearl_gen_f_if;
	DESC(", if-guarded");
	return g;
}

/* The time loop and the space loops, the pre-statement before the
 * innermost, and the guard of a guarded domain. */
static void elementwise_emit_loops(struct gen_prog *p, struct elementwise *e,
				   char *desc)
{
	int l, parent;

	DESC("elementwise: rank %d", e->r);
	if (e->use_t) {
		e->root = loop_const(p, -1, 0, time_steps(p), GEN_ROLE_TIME);
		p->features |= pearl_gen_f_time_loop;
	}
	parent = e->root;
	for (l = 0; l < e->r; ++l) {
		if (l == e->r - 1 && e->pre)
			elementwise_pre_statement(p, e, parent);
		e->loops[l] = elementwise_loop(p, e, l, parent, desc);
		parent = e->loops[l];
	}
	if (e->root < 0)
		e->root = e->loops[0];
	e->stmt_parent = parent;
	if (e->shape == SHAPE_GUARD)
		e->stmt_parent = elementwise_guard(p, e, parent, desc);
}

/* The input as the first operand; the output: the input (in place) or a
 * new array, also read under a time loop. */
static void elementwise_choose_output(struct gen_prog *p,
				      struct elementwise *e, char *desc)
{
	int in_place;

	if (e->src < 0)
		e->src = array_new(p, e->r, e->dims);
	in_place = gen_chance(&p->rng,
			      p->arrays[e->src >= 0 ? e->src : 0].writer >= 0
				      ? ELEMENTWISE_IN_PLACE_CHAINED
				      : ELEMENTWISE_IN_PLACE);
	e->leaves[e->n_leaves++] = e_load(p, access_levels(p, e->src,
							   e->lev, 0));
	e->out = in_place ? e->src : array_new(p, e->r, e->dims);
	if (e->use_t && !in_place)
		e->leaves[e->n_leaves++] = e_load(p, access_levels(p, e->out,
								   e->lev, 0));
	if (in_place || e->use_t) {
		p->features |= pearl_gen_f_in_place;
		if (e->out >= 0)
			p->arrays[e->out].in_place = 1;
		DESC(", in place");
	}
	if (e->use_t)
		DESC(", time loop");
}

/* lev with the levels of the first two axes of one size swapped, in
 * blev; 0 if no two axes have the same size. */
static int elementwise_transposed_levels(const struct elementwise *e,
					 int *blev)
{
	int b1, b2;

	for (b1 = 0; b1 < e->r; ++b1)
		for (b2 = b1 + 1; b2 < e->r; ++b2)
			if (e->dims[b1] == e->dims[b2]) {
				memcpy(blev, e->lev, sizeof(e->lev));
				blev[b1] = e->lev[b2];
				blev[b2] = e->lev[b1];
				return 1;
			}
	return 0;
}

/* A read indexed by some of the iterators (at least one, not all). */
static int elementwise_broadcast_read(struct gen_prog *p,
				      const struct elementwise *e)
{
	int blev[GEN_MAX_RANK], bdims[GEN_MAX_RANK], nb = 0, a, arr;

	for (a = 0; a < e->r; ++a)
		if (gen_chance(&p->rng, ELEMENTWISE_BROADCAST_AXIS)) {
			bdims[nb] = e->dims[a];
			blev[nb++] = e->lev[a];
		}
	if (nb == 0 || nb == e->r) {
		nb = 1;
		a = gen_below(&p->rng, e->r);
		bdims[0] = e->dims[a];
		blev[0] = e->lev[a];
	}
	arr = input_array(p, e->nest, nb, bdims, ELEMENTWISE_BROADCAST_CHAIN);
	p->features |= pearl_gen_f_broadcast;
	return e_load(p, access_levels(p, arr, blev, 0));
}

/* One more operand: a read of the same shape, a broadcast one, or a
 * transposed one (of the same shape if no two axes have one size). */
static void elementwise_extra_read(struct gen_prog *p, struct elementwise *e)
{
	static const int kind_w[] = { 40, 35, 25 };
	enum { SAME, BROADCAST, TRANSPOSED };
	int k = e->r >= 2 ? gen_pick(&p->rng, kind_w, 3) : SAME;
	int blev[GEN_MAX_RANK], arr;

	if (k == TRANSPOSED && !elementwise_transposed_levels(e, blev))
		k = SAME;
	if (k == SAME) {
		arr = input_array(p, e->nest, e->r, e->dims,
				  ELEMENTWISE_SAME_CHAIN);
		e->leaves[e->n_leaves++] = e_load(p, access_levels(p, arr,
								   e->lev, 0));
	} else if (k == BROADCAST) {
		e->leaves[e->n_leaves++] = elementwise_broadcast_read(p, e);
	} else {
		arr = input_array(p, e->nest, e->r, e->dims,
				  ELEMENTWISE_TRANSPOSE_CHAIN);
		e->leaves[e->n_leaves++] = e_load(p, access_levels(p, arr,
								   blev, 0));
		p->features |= pearl_gen_f_transpose;
	}
}

/* out[x] = f(operands), the pre-statement's value among them, and in a
 * guarded domain possibly an else branch out[x] = c * in[x]. */
static void elementwise_main_statement(struct gen_prog *p,
				       struct elementwise *e, char *desc)
{
	int i, expr, write, tlev[GEN_MAX_RANK], t0 = e->t0, r = e->r;

	if (e->tmp >= 0) {
		for (i = 0; i < r - 1; ++i)
			tlev[i] = t0 + i;
		e->leaves[e->n_leaves++] = e_load(p, access_levels(p, e->tmp,
								   tlev, 0));
		DESC(", pre-statement");
	}
	expr = combine(p, e->leaves, e->n_leaves, e->use_t);
	write = access_levels(p, e->out, e->lev, 1);
	stmt_new(p, e->stmt_parent, t0 + r, write, expr, 0);
	if (e->shape == SHAPE_GUARD && gen_chance(&p->rng, ELEMENTWISE_ELSE)) {
		int x = e_load(p, access_levels(p, e->src, e->lev, 0));

		x = e_bin(p, GEN_OP_MUL, x, e_const(p, is_float(p) ?
					LIT(p, f_small) : LIT(p, i_mul)));
		stmt_new(p, e->stmt_parent, t0 + r,
			 access_levels(p, e->out, e->lev, 1), x, 1);
		DESC(" with else");
	}
}

/* row[outer] = f(out[outer.., 0 ..], row[outer]) after the innermost
 * loop (rank >= 2). */
static void elementwise_post_statement(struct gen_prog *p,
				       const struct elementwise *e,
				       char *desc)
{
	struct gen_aff idx[GEN_MAX_RANK];
	int rdims[GEN_MAX_RANK] = { 0 }, rlev[GEN_MAX_RANK], row, lf[2], i, a;
	int r = e->r, inner_axis = e->perm[r - 1];

	for (i = 0; i < r - 1; ++i) {
		rdims[i] = e->dims[e->perm[i]];
		rlev[i] = e->t0 + i;
	}
	row = array_new(p, r - 1, rdims);
	for (a = 0; a < r; ++a)
		idx[a] = a == inner_axis ? aff_k(0) : aff_it(e->lev[a], 0);
	lf[0] = e_load(p, e->out >= 0 ? access_new(p, e->out, idx, 0) : -1);
	lf[1] = e_load(p, access_levels(p, row, rlev, 0));
	stmt_new(p, r >= 2 ? e->loops[r - 2] : -1, e->t0 + r - 1,
		 access_levels(p, row, rlev, 1),
		 combine(p, lf, 2, e->use_t), 0);
	DESC(", post-statement");
}

static int build_elementwise(struct gen_prog *p, int nest, char *desc)
{
	struct elementwise e;
	int i, n_extra;

	memset(&e, 0, sizeof(e));
	e.nest = nest;
	e.src = -1;
	e.root = -1;
	e.tmp = -1;
	elementwise_choose_input(p, &e);
	elementwise_choose_loops(p, &e);
	elementwise_choose_extras(p, &e);
	elementwise_emit_loops(p, &e, desc);
	elementwise_choose_output(p, &e, desc);
	n_extra = gen_below(&p->rng, 3);
	for (i = 0; i < n_extra; ++i)
		elementwise_extra_read(p, &e);
	elementwise_main_statement(p, &e, desc);
	if (e.post && e.r >= 2)
		elementwise_post_statement(p, &e, desc);
	if (e.perm[0] != 0 || (e.r > 1 && e.perm[1] != 1))
		DESC(", permuted");
	return e.root;
}

/* ------------------------------------------------------------------ */
/* stencil */

/* Chances of the stencil grammar, per mille (gen_chance). */
enum {
	STENCIL_CHAIN = 650,		/* the input an earlier nest's output */
	STENCIL_RADIUS2 = 200,		/* radius 2 (rank 1-2) */
	STENCIL_BOX = 350,		/* a 3x3 box (rank 2, radius 1), else a
					 * star */
	STENCIL_SEIDEL_TIME_LOOP = 600,	/* Gauss-Seidel inside a time loop */
	STENCIL_GUARD = 250,		/* out of place: the boundary copied
					 * under affine.if/else (else the loops
					 * shrunk) */
	STENCIL_BOUNDED = 600,		/* out of place: a weighted average
					 * (else a free expression) */
	STENCIL_COEFFICIENTS = 250,	/* out of place: times a coefficient
					 * array, ... */
	STENCIL_COEFFICIENTS_CHAIN = 300, /* ... an earlier nest's output */
};

/* The variants of a stencil: out of place dst = f(src), a Jacobi time loop
 * B = f(A); A = f(B), Gauss-Seidel in place. */
enum stencil_variant { PLAIN, JACOBI, SEIDEL };

/* Room for a stencil's points (at most 9: a 3x3 box, a radius-2 star). */
#define STENCIL_MAX_POINTS 16

/* A stencil nest dst[x] = f(src[x + offsets]) being built: its choices,
 * then the nodes and arrays made from them. */
struct stencil {
	int nest;			/* index of the nest */
	int r;				/* rank of the arrays and the nest */
	int dims[GEN_MAX_RANK];		/* program size of each array axis */
	int src;			/* the input array */
	int rad;			/* radius of the points */
	int box;			/* a 3x3 box (else a star) */
	int off[STENCIL_MAX_POINTS][GEN_MAX_RANK];
	int n_off;			/* the points' offsets, centre first */
	enum stencil_variant variant;
	int use_t;			/* a time loop around the sweeps */
	int guard;			/* the boundary copied under
					 * affine.if/else */
	int t0;				/* level of the first space loop */
	int lev[GEN_MAX_RANK];		/* loop level of each array axis */
	int root;			/* the nest's outermost loop */
	int other;			/* Jacobi: the array B */
};

/* The input: an earlier nest's output, or a new array of a new rank and
 * sizes. */
static void stencil_choose_input(struct gen_prog *p, struct stencil *s)
{
	static const int rank_w[] = { 25, 50, 25 };
	int a;

	if (s->nest > 0 && gen_chance(&p->rng, STENCIL_CHAIN))
		s->src = chain_any(p, s->nest, 1, 3);
	if (s->src >= 0) {
		s->r = p->arrays[s->src].rank;
		memcpy(s->dims, p->arrays[s->src].dim, sizeof(s->dims));
		p->features |= pearl_gen_f_chain;
	} else {
		s->r = 1 + gen_pick(&p->rng, rank_w, N_OF(rank_w));
		for (a = 0; a < s->r; ++a)
			s->dims[a] = random_dim(p);
		s->src = array_new(p, s->r, s->dims);
	}
}

/* The radius, box or star, and the offsets of the points: the centre
 * first. */
static void stencil_choose_points(struct gen_prog *p, struct stencil *s)
{
	int i, a, d, r = s->r;

	s->rad = r <= 2 && gen_chance(&p->rng, STENCIL_RADIUS2) ? 2 : 1;
	s->box = r == 2 && s->rad == 1 && gen_chance(&p->rng, STENCIL_BOX);
	memset(s->off, 0, sizeof(s->off));
	s->n_off = 1;
	if (s->box) {
		for (i = -1; i <= 1; ++i)
			for (d = -1; d <= 1; ++d)
				if (i || d) {
					s->off[s->n_off][0] = i;
					s->off[s->n_off++][1] = d;
				}
	} else {
		for (a = 0; a < r; ++a)
			for (d = 1; d <= s->rad; ++d) {
				s->off[s->n_off++][a] = -d;
				s->off[s->n_off++][a] = d;
			}
	}
}

/* The variant, its time loop, the boundary's handling (out of place),
 * and the loop levels and the sizes the points need. */
static void stencil_choose_variant(struct gen_prog *p, struct stencil *s)
{
	static const int var_w[] = { 40, 30, 30 };
	int a;

	s->variant = gen_pick(&p->rng, var_w, N_OF(var_w));
	s->use_t = s->variant == JACOBI ||
		   (s->variant == SEIDEL &&
		    gen_chance(&p->rng, STENCIL_SEIDEL_TIME_LOOP));
	if (s->variant == PLAIN)
		s->guard = gen_chance(&p->rng, STENCIL_GUARD);
	s->t0 = s->use_t ? 1 : 0;
	for (a = 0; a < s->r; ++a) {
		s->lev[a] = s->t0 + a;
		need_dim(p, s->dims[a], 2 * s->rad + 3);
	}
}

/* The affine.if keeping the points in bounds, in `parent` (loops over
 * the whole sizes): rad <= i_a < D - rad on every axis. */
static int stencil_guard(struct gen_prog *p, const struct stencil *s,
			 int parent)
{
	int a, g = new_node(p, GEN_NODE_IF, s->t0 + s->r);

	if (g >= 0) {
		for (a = 0; a < s->r; ++a) {
			struct gen_aff lo = aff_it(s->lev[a], -s->rad);
			struct gen_aff hi = aff_d(s->dims[a], -1 - s->rad);

			hi.coef[s->lev[a]] = -1;
			p->nodes[g].cond[2 * a] = lo;
			p->nodes[g].cond[2 * a + 1] = hi;
		}
		p->nodes[g].n_cond = 2 * s->r;
	}
	add_child(p, parent, g, 0);
	p->features |= pearl_gen_f_if;
	return g;
}

/* The space loops of one sweep (shrunk by the radius unless guarded) in
 * the time loop if any, and the guard; returns the statements' place. */
static int stencil_sweep_loops(struct gen_prog *p, struct stencil *s)
{
	int a, loop, parent = s->root, m = s->guard ? 0 : s->rad;

	for (a = 0; a < s->r; ++a) {
		loop = loop_dim(p, parent, s->t0 + a, s->dims[a], m, m,
				GEN_ROLE_SPACE);
		if (a == 0 && s->root < 0)
			s->root = loop;
		parent = loop;
	}
	if (s->guard)
		return stencil_guard(p, s, parent);
	return parent;
}

/* f(from[x + offsets]): a weighted average or (out of place, perhaps) a
 * free expression, perhaps times a coefficient array. */
static int stencil_expr(struct gen_prog *p, const struct stencil *s, int from,
			char *desc)
{
	struct gen_aff idx[GEN_MAX_RANK];
	int leaves[STENCIL_MAX_POINTS], k, a, bounded;

	for (k = 0; k < s->n_off; ++k) {
		for (a = 0; a < s->r; ++a)
			idx[a] = aff_it(s->lev[a], s->off[k][a]);
		leaves[k] = e_load(p, access_new(p, from, idx, 0));
	}
	k = s->n_off;
	bounded = s->variant != PLAIN || gen_chance(&p->rng, STENCIL_BOUNDED);
	if (s->variant == PLAIN && gen_chance(&p->rng, STENCIL_COEFFICIENTS)) {
		int coef = input_array(p, s->nest, s->r, s->dims,
				       STENCIL_COEFFICIENTS_CHAIN);
		int c = e_load(p, access_levels(p, coef, s->lev, 0));
		int sum = combine(p, leaves, k, bounded);

		DESC(", coefficient array");
		return e_bin(p, GEN_OP_MUL, sum, c);
	}
	return combine(p, leaves, k, bounded);
}

/* Sweep i (of two for Jacobi): to = f(from) in its own loops, and the
 * boundary copied in the guard's else branch. */
static void stencil_sweep(struct gen_prog *p, struct stencil *s, int i,
			  char *desc)
{
	int from, to, stmt_parent, expr, r = s->r, t0 = s->t0;

	if (s->variant == SEIDEL) {
		from = to = s->src;
	} else if (i == 0) {
		from = s->src;
		to = array_new(p, r, s->dims);
		s->other = to;
	} else {
		from = s->other;
		to = s->src;
	}
	stmt_parent = stencil_sweep_loops(p, s);
	expr = stencil_expr(p, s, from, desc);
	stmt_new(p, stmt_parent, t0 + r, access_levels(p, to, s->lev, 1), expr,
		 0);
	if (s->guard) {
		/* boundary: copy */
		int x = e_load(p, access_levels(p, from, s->lev, 0));

		stmt_new(p, stmt_parent, t0 + r,
			 access_levels(p, to, s->lev, 1), x, 1);
		DESC(", boundary by affine.if/else");
	}
	if (s->variant == SEIDEL) {
		p->arrays[s->src].in_place = 1;
		p->features |= pearl_gen_f_in_place;
	}
}

static int build_stencil(struct gen_prog *p, int nest, char *desc)
{
	struct stencil s = { .nest = nest, .src = -1, .root = -1, .other = -1 };
	int i;

	stencil_choose_input(p, &s);
	stencil_choose_points(p, &s);
	stencil_choose_variant(p, &s);
	DESC("stencil: rank %d, %d points%s", s.r, s.n_off,
	     s.box ? " (box)" : "");
	if (s.use_t) {
		s.root = loop_const(p, -1, 0, time_steps(p), GEN_ROLE_TIME);
		p->features |= pearl_gen_f_time_loop;
	}
	/* one sweep dst = f(src) (twice for Jacobi: B = f(A); A = f(B)) */
	for (i = 0; i < (s.variant == JACOBI ? 2 : 1); ++i)
		stencil_sweep(p, &s, i, desc);
	DESC("%s", s.variant == JACOBI ? ", Jacobi time loop" :
		   s.variant == SEIDEL ? (s.use_t ? ", Gauss-Seidel time loop" :
					  ", Gauss-Seidel") : "");
	if (s.rad == 2)
		DESC(", radius 2");
	return s.root;
}

/* ------------------------------------------------------------------ */
/* reduction */

/* Chances of the reduction grammar, per mille (gen_chance). */
enum {
	REDUCTION_AXES_FIRST = 200,	/* the reduced axes first in the
					 * input */
	REDUCTION_CHAIN = 600,		/* the input an earlier nest's output */
	REDUCTION_CHAINED_TWO = 250,	/* such an input of rank >= 3 reduced
					 * over two axes (else one) */
	REDUCTION_OUTERMOST = 300,	/* one reduced loop outside the output
					 * loops */
	REDUCTION_TRIANGULAR = 300,	/* the last reduced loop bounded by an
					 * output loop */
	REDUCTION_WEIGHTS = 450,	/* the input times weights, ... */
	REDUCTION_WEIGHTS_CHAIN = 300,	/* ... an earlier nest's output */
	REDUCTION_SECOND_INPUT = 150,	/* else combined with a second full
					 * input, ... */
	REDUCTION_SECOND_INPUT_CHAIN = 400, /* ... an earlier nest's output */
	REDUCTION_SCALED = 150,		/* the term offered to maybe_scale */
	REDUCTION_MAX = 200,		/* max instead of sum */
	REDUCTION_INIT = 500,		/* an init statement before innermost
					 * reduced loops, ... */
	REDUCTION_INIT_ZERO = 500,	/* ... setting 0 (else scaling) */
	REDUCTION_FINISH = 300,		/* a statement after them, ... */
	REDUCTION_FINISH_SQRT = 500,	/* ... floats: a square root (else
					 * scaling) */
};

/* The operands of the term a reduction folds: the input alone, times
 * weights over the reduced axes, or combined with a second full input. */
enum reduction_operand { OPERAND_INPUT, OPERAND_WEIGHTS, OPERAND_SECOND_INPUT };

/* A reduction out[o] = out[o] + f(in[o, r]) (or max) over reduced loops r
 * being built: its choices, then the nodes and arrays made from them. */
struct reduction {
	int nest;			/* index of the nest */
	int ro, nr;			/* output rank, reduced loops */
	int od[GEN_MAX_RANK];		/* program sizes of the output axes */
	int rd[GEN_MAX_RANK];		/* ... of the reduced axes */
	int xdims[GEN_MAX_RANK];	/* ... of the input's axes */
	int src;			/* the input array */
	int red_first;			/* the reduced axes first in the
					 * input */
	int red_inner;			/* the reduced loops innermost */
	int tri;			/* triangle kind, or -1 */
	int tri_o;			/* the output loop it is against */
	int olev[GEN_MAX_RANK];		/* loop level of each output axis */
	int rlev[GEN_MAX_RANK];		/* ... of each reduced axis */
	int xlev[GEN_MAX_RANK];		/* ... of each input axis */
	int ldim[GEN_MAX_DEPTH];	/* program size of each loop */
	enum reduction_operand operand;	/* what the term is made of */
	int is_max;			/* max instead of sum */
	int init, post;			/* a statement before / after the
					 * reduced loops */
	int out;			/* the output array */
	int root;			/* the nest's outermost loop */
	int loops[GEN_MAX_DEPTH];	/* the loops, outermost first */
	int inner;			/* the innermost loop */
};

/* The output rank, the reduced loops and the input's layout; an earlier
 * nest's output as input gives them and the sizes, else the sizes are
 * new (the array itself is made later). */
static void reduction_choose_axes(struct gen_prog *p, struct reduction *r)
{
	static const int ro_w[] = { 45, 40, 15 };
	static const int nr_w[] = { 75, 25 };
	int i;

	r->ro = 1 + gen_pick(&p->rng, ro_w, N_OF(ro_w));
	r->nr = 1 + gen_pick(&p->rng, nr_w, N_OF(nr_w));
	r->red_first = gen_chance(&p->rng, REDUCTION_AXES_FIRST);
	if (r->nest > 0 && gen_chance(&p->rng, REDUCTION_CHAIN))
		r->src = chain_any(p, r->nest, 2, GEN_MAX_RANK);
	if (r->src >= 0) {
		int rk = p->arrays[r->src].rank;

		r->nr = rk >= 3 && gen_chance(&p->rng, REDUCTION_CHAINED_TWO)
			? 2 : 1;
		r->ro = rk - r->nr;
		for (i = 0; i < rk; ++i)
			r->xdims[i] = p->arrays[r->src].dim[i];
		for (i = 0; i < r->ro; ++i)
			r->od[i] = r->xdims[r->red_first ? r->nr + i : i];
		for (i = 0; i < r->nr; ++i)
			r->rd[i] = r->xdims[r->red_first ? i : r->ro + i];
		p->features |= pearl_gen_f_chain;
	} else {
		for (i = 0; i < r->ro; ++i)
			r->od[i] = random_dim(p);
		for (i = 0; i < r->nr; ++i)
			r->rd[i] = random_dim(p);
	}
}

/* The reduced loops innermost or (one of them) outermost, and the
 * triangle: the last reduced loop against an output loop (of its size,
 * or none if a chained input's differ). */
static void reduction_choose_loops(struct gen_prog *p, struct reduction *r)
{
	int nr = r->nr;

	r->red_inner = nr == 2 || !gen_chance(&p->rng, REDUCTION_OUTERMOST);
	if (gen_chance(&p->rng, REDUCTION_TRIANGULAR)) {
		r->tri_o = gen_below(&p->rng, r->ro);
		if (r->rd[nr - 1] == r->od[r->tri_o] || r->src < 0) {
			r->rd[nr - 1] = r->od[r->tri_o];
			r->tri = gen_below(&p->rng, N_TRI);
		}
	}
}

/* The input unless chained, and the loop levels of the output, reduced
 * and input axes and the size of each loop. */
static void reduction_layout(struct gen_prog *p, struct reduction *r)
{
	int i, ro = r->ro, nr = r->nr, red_first = r->red_first;

	if (r->src < 0) {
		for (i = 0; i < ro; ++i)
			r->xdims[red_first ? nr + i : i] = r->od[i];
		for (i = 0; i < nr; ++i)
			r->xdims[red_first ? i : ro + i] = r->rd[i];
		r->src = array_new(p, ro + nr, r->xdims);
	}
	for (i = 0; i < ro; ++i)
		r->olev[i] = r->red_inner ? i : nr + i;
	for (i = 0; i < nr; ++i)
		r->rlev[i] = r->red_inner ? ro + i : i;
	for (i = 0; i < ro; ++i) {
		r->xlev[red_first ? nr + i : i] = r->olev[i];
		r->ldim[r->olev[i]] = r->od[i];
	}
	for (i = 0; i < nr; ++i) {
		r->xlev[red_first ? i : ro + i] = r->rlev[i];
		r->ldim[r->rlev[i]] = r->rd[i];
	}
}

/* The term's operands, max or sum, the statements before and after the
 * reduced loops (when they are innermost), and the output array. */
static void reduction_choose_statements(struct gen_prog *p, struct reduction *r)
{
	r->operand = gen_chance(&p->rng, REDUCTION_WEIGHTS) ? OPERAND_WEIGHTS
		     : gen_chance(&p->rng, REDUCTION_SECOND_INPUT)
			 ? OPERAND_SECOND_INPUT
			 : OPERAND_INPUT;
	r->is_max = gen_chance(&p->rng, REDUCTION_MAX);
	r->init = r->red_inner && gen_chance(&p->rng, REDUCTION_INIT);
	r->post = r->red_inner && gen_chance(&p->rng, REDUCTION_FINISH);
	r->out = array_new(p, r->ro, r->od);
}

/* out = 0 or out = c * out in `parent`, before the reduced loops. */
static void reduction_init_statement(struct gen_prog *p,
				     const struct reduction *r, int parent,
				     char *desc)
{
	int v;

	if (gen_chance(&p->rng, REDUCTION_INIT_ZERO)) {
		v = e_const(p, zero_literal(p));
	} else {
		v = e_load(p, access_levels(p, r->out, r->olev, 0));
		v = e_bin(p, GEN_OP_MUL, v,
			  e_const(p, is_float(p) ? LIT(p, f_small)
						 : LIT(p, i_mul)));
	}
	stmt_new(p, parent, r->ro, access_levels(p, r->out, r->olev, 1), v, 0);
	p->features |= pearl_gen_f_imperfect;
	DESC(", init");
}

/* Loop l in `parent`: triangular if it is the inner loop of the
 * triangle, else over its whole size. */
static int reduction_loop(struct gen_prog *p, const struct reduction *r, int l,
			  int parent, char *desc)
{
	int is_red = r->red_inner ? l >= r->ro : l < r->nr;
	enum gen_loop_role role = is_red ? GEN_ROLE_REDUCTION : GEN_ROLE_SPACE;
	int last_red = r->rlev[r->nr - 1], tri_out = r->olev[r->tri_o];

	if (r->tri >= 0 && l == (r->red_inner ? last_red : tri_out)) {
		int ref = r->red_inner ? tri_out : last_red;

		DESC(", triangular i%d %s i%d", l, tri_name[r->tri], ref);
		return loop_tri(p, parent, l, r->ldim[l], ref, r->tri, role);
	}
	return loop_dim(p, parent, l, r->ldim[l], 0, 0, role);
}

/* The loops, outermost first, with the init statement before the first
 * reduced loop if chosen. */
static void reduction_emit_loops(struct gen_prog *p, struct reduction *r,
				 char *desc)
{
	int l, parent = -1;

	for (l = 0; l < r->ro + r->nr; ++l) {
		if (r->red_inner && l == r->ro && r->init)
			reduction_init_statement(p, r, parent, desc);
		r->loops[l] = reduction_loop(p, r, l, parent, desc);
		if (r->root < 0)
			r->root = r->loops[l];
		parent = r->loops[l];
	}
	r->inner = parent;
}

/* in[x], times weights[reduced] or combined with in2[x], perhaps
 * scaled. */
static int reduction_term(struct gen_prog *p, const struct reduction *r,
			  char *desc)
{
	int x = e_load(p, access_levels(p, r->src, r->xlev, 0)), term = x;

	if (r->operand == OPERAND_WEIGHTS) {
		int wv = input_array(p, r->nest, r->nr, r->rd,
				     REDUCTION_WEIGHTS_CHAIN);

		term = e_bin(p, GEN_OP_MUL, x,
			     e_load(p, access_levels(p, wv, r->rlev, 0)));
		DESC(", weights");
	} else if (r->operand == OPERAND_SECOND_INPUT) {
		int x2 = input_array(p, r->nest, r->ro + r->nr, r->xdims,
				     REDUCTION_SECOND_INPUT_CHAIN);
		int leaves[2];

		leaves[0] = x;
		leaves[1] = e_load(p, access_levels(p, x2, r->xlev, 0));
		term = combine(p, leaves, 2, 0);
	}
	if (gen_chance(&p->rng, REDUCTION_SCALED))
		term = maybe_scale(p, term);
	return term;
}

/* out = sqrt(out) or c * out (floats), out >> c (i32) after the reduced
 * loops, in the innermost output loop. */
static void reduction_finish_statement(struct gen_prog *p,
				       const struct reduction *r, char *desc)
{
	int v = e_load(p, access_levels(p, r->out, r->olev, 0)), host;

	if (is_float(p))
		v = gen_chance(&p->rng, REDUCTION_FINISH_SQRT)
			? e_new(p, GEN_OP_SQRT, v, -1)
			: e_bin(p, GEN_OP_MUL, v, e_const(p, LIT(p, f_small)));
	else
		v = e_bin(p, GEN_OP_SHR, v, e_const(p, LIT(p, i_shr)));
	host = r->ro >= 1 ? r->loops[r->ro - 1] : -1;
	stmt_new(p, host, r->ro, access_levels(p, r->out, r->olev, 1), v, 0);
	p->features |= pearl_gen_f_imperfect;
	DESC(", finish");
}

static int build_reduction(struct gen_prog *p, int nest, char *desc)
{
	struct reduction r = { .nest = nest, .src = -1, .tri = -1, .root = -1 };
	int term, upd;

	reduction_choose_axes(p, &r);
	reduction_choose_loops(p, &r);
	reduction_layout(p, &r);
	reduction_choose_statements(p, &r);
	DESC("reduction: %d output, %d reduced loop%s, %s%s", r.ro, r.nr,
	     r.nr > 1 ? "s" : "", r.is_max ? "max" : "sum",
	     r.red_inner ? "" : ", reduction outermost");
	reduction_emit_loops(p, &r, desc);
	term = reduction_term(p, &r, desc);
	upd = e_bin(p, r.is_max ? GEN_OP_MAX : GEN_OP_ADD,
		    e_load(p, access_levels(p, r.out, r.olev, 0)), term);
	stmt_new(p, r.inner, r.ro + r.nr, access_levels(p, r.out, r.olev, 1),
		 upd, 0);
	if (r.post)
		reduction_finish_statement(p, &r, desc);
	if (r.red_first)
		DESC(", reduced axes first");
	return r.root;
}

/* ------------------------------------------------------------------ */
/* contraction */

/* Chances of the contraction grammar, per mille (gen_chance). */
enum {
	MATMUL_A_TRANSPOSED = 200,	/* matmul: A read as A[k][i] */
	MATMUL_A_CHAIN = 600,		/* matmul: A an earlier nest's output */
	MATMUL_TRIANGULAR = 300,	/* a triangular pair of loops: ... */
	MATMUL_TRIANGULAR_J = 500,	/* ... j against i (else k against i) */
	MATMUL_SHARED_B = 400,		/* batched: one B for every batch */
	MATMUL_B_TRANSPOSED = 200,	/* matmul: B read as B[j][k] */
	MATMUL_B_CHAIN = 300,		/* B an earlier nest's output */
	MATMUL_INIT = 400,		/* matmul: C initialized before an
					 * innermost k loop, ... */
	MATMUL_BATCHED_INIT = 300,	/* ... the same, batched, ... */
	MATMUL_INIT_ZERO = 500,		/* ... to 0 (else C scaled) */
	MATMUL_ALPHA = 300,		/* the product times a constant */
	MATMUL_B_IS_A = 400,		/* gemm family: B is A, read
					 * transposed (syrk) */
	CHAIN_THIRD_NEST = 400,		/* chain family: three nests (else
					 * two) */
	CHAIN_A_CHAIN = 700,		/* chain family: A an earlier nest's
					 * output */
	CHAIN_INIT = 800,		/* chain family: C initialized before
					 * an innermost k loop */
	DOITGEN_CHAIN = 500,		/* A an earlier nest's output */
	DOITGEN_C4_CHAIN = 300,		/* C4 an earlier nest's output */
	DOITGEN_INIT = 600,		/* the sums set to 0 before loop s */
	DOITGEN_COPY = 500,		/* a loop copying the sums back to A */
	CONV_CHANNELS = 300,		/* a channel loop outermost */
	CONV_3X3 = 800,			/* a 3x3 filter (else 5x5; always 3x3
					 * at the small scale) */
	CONV_FILTER_OUTER = 250,	/* the filter loops outside the image
					 * loops */
	CONV_INIT = 350,		/* out set to 0 before the filter loops
					 * (when they are inside) */
	CONV_CHAIN = 500,		/* the input an earlier nest's output */
};

/* The loops of a perfect chain of `n` levels from `depth0` under parent,
 * with an optional triangular pair (inner level tri_in bounded by
 * tri_ref); a statement `pre` (node, already made) is placed just before
 * level pre_at.  Returns the root; loops[] gets every level's node. */
static int loop_chain(struct gen_prog *p, int parent, int depth0, int n,
		      const int *ldim, const int *lconst,
		      const enum gen_loop_role *role, int tri_in, int tri_ref,
		      int tri, int *loops)
{
	int l, root = -1;

	for (l = 0; l < n; ++l) {
		if (l == tri_in && tri >= 0)
			loops[l] = loop_tri(p, parent, depth0 + l, ldim[l],
					    depth0 + tri_ref, tri, role[l]);
		else if (ldim[l] < 0)
			loops[l] = loop_const(p, parent, depth0 + l, lconst[l],
					      role[l]);
		else
			loops[l] = loop_dim(p, parent, depth0 + l, ldim[l], 0,
					    lconst[l], role[l]);
		if (root < 0)
			root = loops[l];
		parent = loops[l];
	}
	return root;
}

/* Whether p is of a family of one matmul nest (matmul, gemm). */
static int one_matmul(const struct gen_prog *p)
{
	return p->family == pearl_gen_family_matmul ||
	       p->family == pearl_gen_family_gemm;
}

/* Whether every nest of p is a matmul (the matmul, gemm and chain
 * families). */
static int only_matmuls(const struct gen_prog *p)
{
	return one_matmul(p) || p->family == pearl_gen_family_chain;
}

/* The loop orders of a matmul, as the axis of each loop (I = 0, J = 1,
 * K = 2), and their names. */
static const int matmul_perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 },
	{ 1, 0, 2 }, { 2, 0, 1 }, { 1, 2, 0 }, { 2, 1, 0 } };
static const char *const matmul_perm_names[6] = { "ijk", "ikj", "jik",
	"kij", "jki", "kji" };

/* A matmul C[b][i][j] += A[b][i][k] * B[b][k][j] being built (b only if
 * batched): its choices, then the arrays and nodes made from them. Axes
 * I = 0, J = 1, K = 2. */
struct matmul {
	int nest;			/* index of the nest */
	int batched;			/* a batch loop b outermost */
	int b0;				/* level of the first of i, j, k */
	int pi;				/* the loop order: matmul_perms[pi]
					 * (batched: bijk or bikj) */
	const int *perm;		/* axis of each of the three loops */
	int lev[3];			/* loop level of axes I, J, K */
	int dI, dJ, dK, dB;		/* program sizes of I, J, K and b */
	int a_t, b_t;			/* A, B transposed */
	int shared_b;			/* one B for every batch */
	int tri, tri_in, tri_ref;	/* triangular: loop tri_in (among the
					 * three) bounded by loop tri_ref */
	int A, B, C;			/* the arrays */
	int na, nb;			/* ranks of A (and C), of B */
	int adims[3], bdims[3], cdims[3];
	int alev[3], blev[3], clev[3];	/* the loop level of each index */
	int init;			/* C initialized before the k loop */
	int row_init;			/* gemm family: C's row (or column)
					 * scaled by a loop of its own inside
					 * the outermost loop */
	int b_is_a;			/* B is A, read transposed */
	int root;			/* the nest's outermost loop */
	int loops[GEN_MAX_DEPTH];
};

/* The loop order, the sizes, A transposed, A an earlier nest's output
 * (which then gives the sizes of I and K). */
static void matmul_choose_loops(struct gen_prog *p, struct matmul *m)
{
	static const int perm_w[] = { 30, 30, 10, 15, 5, 10 };
	/* the chain family: k innermost (ijk, jik) mostly, as 2mm, 3mm */
	static const int chain_perm_w[] = { 50, 10, 20, 10, 5, 5 };
	/* the orders whose outermost loop is one of C's (i or j) */
	static const int c_outer[4] = { 0, 1, 2, 4 };
	int i, a_chain = MATMUL_A_CHAIN;

	m->pi = m->batched ? gen_below(&p->rng, 2)
			   : gen_pick(&p->rng, perm_w, N_OF(perm_w));
	if (p->family == pearl_gen_family_matmul)
		m->pi = gen_below(&p->rng, 6);
	if (p->family == pearl_gen_family_gemm)
		m->pi = c_outer[gen_below(&p->rng, 4)];
	if (p->family == pearl_gen_family_chain) {
		m->pi = gen_pick(&p->rng, chain_perm_w, N_OF(chain_perm_w));
		a_chain = CHAIN_A_CHAIN;
	}
	m->perm = matmul_perms[m->pi];
	m->dI = random_dim(p);
	m->dJ = random_dim(p);
	m->dK = random_dim(p);
	if (m->batched)
		m->dB = random_dim(p);
	m->a_t = !m->batched && gen_chance(&p->rng, MATMUL_A_TRANSPOSED);
	if (!m->batched && m->nest > 0 && gen_chance(&p->rng, a_chain)) {
		m->A = chain_any(p, m->nest, 2, 2);
		if (m->A >= 0) {
			m->dI = p->arrays[m->A].dim[m->a_t ? 1 : 0];
			m->dK = p->arrays[m->A].dim[m->a_t ? 0 : 1];
			p->features |= pearl_gen_f_chain;
		}
	}
	for (i = 0; i < 3; ++i)
		m->lev[m->perm[i]] = m->b0 + i;
}

/* A triangular pair: J or K against I (of I's size then), the inner of
 * the two loops bounded by the outer. */
static void matmul_choose_triangle(struct gen_prog *p, struct matmul *m)
{
	int pair_j, other, b0 = m->b0;

	if (p->family == pearl_gen_family_chain ||
	    !gen_chance(&p->rng, MATMUL_TRIANGULAR))
		return;
	pair_j = gen_chance(&p->rng, MATMUL_TRIANGULAR_J);
	other = pair_j ? 1 : 2;
	if (!pair_j && m->A >= 0 && m->dK != m->dI)
		return;
	if (pair_j)
		m->dJ = m->dI;
	else
		m->dK = m->dI;
	m->tri = gen_below(&p->rng, N_TRI);
	if (m->lev[0] < m->lev[other]) {
		m->tri_in = m->lev[other] - b0;
		m->tri_ref = m->lev[0] - b0;
	} else {
		m->tri_in = m->lev[0] - b0;
		m->tri_ref = m->lev[other] - b0;
	}
}

/* The sizes and index levels of A, B and C: [b] then the two matrix
 * axes, swapped for a transposed operand; no b in a shared B. */
static void matmul_layout(struct matmul *m)
{
	int i, *lev = m->lev;

	m->na = m->nb = 0;
	if (m->batched) {
		m->adims[m->na] = m->dB;
		m->alev[m->na++] = 0;
		if (!m->shared_b) {
			m->bdims[m->nb] = m->dB;
			m->blev[m->nb++] = 0;
		}
	}
	if (m->a_t) {
		m->adims[m->na] = m->dK; m->alev[m->na++] = lev[2];
		m->adims[m->na] = m->dI; m->alev[m->na++] = lev[0];
	} else {
		m->adims[m->na] = m->dI; m->alev[m->na++] = lev[0];
		m->adims[m->na] = m->dK; m->alev[m->na++] = lev[2];
	}
	if (m->b_t) {
		m->bdims[m->nb] = m->dJ; m->blev[m->nb++] = lev[1];
		m->bdims[m->nb] = m->dK; m->blev[m->nb++] = lev[2];
	} else {
		m->bdims[m->nb] = m->dK; m->blev[m->nb++] = lev[2];
		m->bdims[m->nb] = m->dJ; m->blev[m->nb++] = lev[1];
	}
	for (i = 0; i < m->na; ++i) {
		m->cdims[i] = i < m->na - 2 ? m->dB : i == m->na - 2 ? m->dI
								  : m->dJ;
		m->clev[i] = i < m->na - 2 ? 0 : i == m->na - 2 ? lev[0]
								: lev[1];
	}
}

/* B shared or transposed, then the three arrays (A unless chained, B
 * perhaps an earlier nest's output, C new). */
static void matmul_choose_arrays(struct gen_prog *p, struct matmul *m)
{
	m->shared_b = m->batched && gen_chance(&p->rng, MATMUL_SHARED_B);
	m->b_t = !m->batched && gen_chance(&p->rng, MATMUL_B_TRANSPOSED);
	if (p->family == pearl_gen_family_gemm && !m->a_t &&
	    gen_chance(&p->rng, MATMUL_B_IS_A)) {
		m->b_is_a = 1; /* B[j][k] read as A[j][k]: J of I's size */
		m->b_t = 1;
		m->dJ = m->dI;
	}
	matmul_layout(m);
	if (m->A < 0)
		m->A = array_new(p, m->na, m->adims);
	m->B = m->b_is_a ? m->A
			 : input_array(p, m->nest, m->nb, m->bdims,
				       MATMUL_B_CHAIN);
	m->C = array_new(p, m->na, m->cdims);
	if (m->a_t || m->b_t)
		p->features |= pearl_gen_f_transpose;
	if (m->batched)
		p->features |= pearl_gen_f_batched;
}

/* C = 0 or C = c * C in `parent`, before the k loop; C's indices at the
 * loop levels clev. */
static void matmul_init_statement(struct gen_prog *p, const struct matmul *m,
				  int parent, const int *clev)
{
	int v;

	if (gen_chance(&p->rng, MATMUL_INIT_ZERO)) {
		v = e_const(p, zero_literal(p));
	} else {
		v = e_load(p, access_levels(p, m->C, clev, 0));
		v = e_bin(p, GEN_OP_MUL, v, e_const(p,
			  is_float(p) ? LIT(p, f_large)
				      : LIT(p, i_mul)));
	}
	stmt_new(p, parent, m->b0 + 2, access_levels(p, m->C, clev, 1), v, 0);
	p->features |= pearl_gen_f_imperfect;
}

/* The gemm family's loops: the outermost (i or j), in it a loop over
 * C's other axis scaling (or zeroing) C there, triangular if that axis is
 * bounded by the outermost, then the product's two inner loops. */
static void matmul_emit_row_init_loops(struct gen_prog *p, struct matmul *m,
				       const int *dall, const int *c3,
				       const enum gen_loop_role *r3)
{
	int other = m->perm[0] == 0 ? 1 : 0; /* C's axis not outermost */
	int dim = other == 1 ? m->dJ : m->dI, clev[2], outer, l;

	m->row_init = 1;
	outer = loop_chain(p, -1, 0, 1, dall, c3, r3, -1, -1, -1, m->loops);
	m->root = outer;
	if (m->tri >= 0 && m->tri_ref == 0 && m->perm[m->tri_in] == other)
		l = loop_tri(p, outer, 1, dim, 0, m->tri, GEN_ROLE_SPACE);
	else
		l = loop_dim(p, outer, 1, dim, 0, 0, GEN_ROLE_SPACE);
	clev[m->perm[0]] = 0;
	clev[other] = 1;
	matmul_init_statement(p, m, l, clev);
	loop_chain(p, outer, 1, 2, dall + 1, c3, r3 + 1,
		   m->tri >= 0 ? m->tri_in - 1 : -1, m->tri_ref - 1, m->tri,
		   m->loops + 1);
}

/* The loops: [b], then the three in perm order, with C's initialization
 * before the k loop if it is innermost and that was chosen (the gemm
 * family: matmul_emit_row_init_loops). */
static void matmul_emit_loops(struct gen_prog *p, struct matmul *m)
{
	int d3[3], dall[GEN_MAX_DEPTH], c3[GEN_MAX_DEPTH], i, l, b0 = m->b0;
	enum gen_loop_role r3[GEN_MAX_DEPTH];
	int parent = -1, before;

	d3[0] = m->dI;
	d3[1] = m->dJ;
	d3[2] = m->dK;
	memset(c3, 0, sizeof(c3));
	if (p->family == pearl_gen_family_gemm) {
		for (i = 0; i < 3; ++i) {
			dall[i] = d3[m->perm[i]];
			r3[i] = m->perm[i] == 2 ? GEN_ROLE_REDUCTION
						: GEN_ROLE_SPACE;
		}
		matmul_emit_row_init_loops(p, m, dall, c3, r3);
		return;
	}
	m->init = m->perm[2] == 2 &&
		  gen_chance(&p->rng, m->batched ? MATMUL_BATCHED_INIT
				      : p->family == pearl_gen_family_chain
					  ? CHAIN_INIT
					  : MATMUL_INIT);
	before = m->init ? 2 : 3;
	if (m->batched) {
		dall[0] = m->dB;
		r3[0] = GEN_ROLE_SPACE;
		m->root = loop_chain(p, -1, 0, 1, dall, c3, r3, -1, -1, -1,
				     m->loops);
		parent = m->root;
	}
	for (i = 0; i < 3; ++i) {
		dall[i] = d3[m->perm[i]];
		r3[i] = m->perm[i] == 2 ? GEN_ROLE_REDUCTION : GEN_ROLE_SPACE;
	}
	l = loop_chain(p, parent, b0, before, dall, c3, r3,
		       m->tri_in < before ? m->tri_in : -1, m->tri_ref,
		       m->tri_in < before ? m->tri : -1, m->loops + b0);
	if (m->root < 0)
		m->root = l;
	if (m->init) {
		parent = m->loops[b0 + before - 1];
		matmul_init_statement(p, m, parent, m->clev);
		loop_chain(p, parent, b0 + 2, 1, dall + 2, c3, r3 + 2,
			   m->tri_in == 2 ? 0 : -1, m->tri_ref - 2,
			   m->tri_in == 2 ? m->tri : -1, m->loops + b0 + 2);
	}
}

/* C += A * B (times a constant if chosen) in the innermost loop. */
static void matmul_emit_statement(struct gen_prog *p, const struct matmul *m)
{
	int x, y, term, c_load;

	x = e_load(p, access_levels(p, m->A, m->alev, 0));
	y = e_load(p, access_levels(p, m->B, m->blev, 0));
	term = e_bin(p, GEN_OP_MUL, x, y);
	if (gen_chance(&p->rng, MATMUL_ALPHA))
		term = e_bin(p, GEN_OP_MUL, term, e_const(p,
			     is_float(p) ? LIT(p, f_large)
					 : LIT(p, i_mul)));
	c_load = e_load(p, access_levels(p, m->C, m->clev, 0));
	stmt_new(p, m->loops[m->b0 + 2], m->b0 + 3,
		 access_levels(p, m->C, m->clev, 1),
		 e_bin(p, GEN_OP_ADD, c_load, term), 0);
}

static void matmul_describe(const struct matmul *m, char *desc)
{
	DESC("contraction: %s %s%s%s%s", m->batched ? "batched matmul" :
	     "matmul", m->batched ? (m->pi ? "bikj" : "bijk")
				  : matmul_perm_names[m->pi],
	     m->a_t ? ", A^T" : "", m->b_t ? ", B^T" : "",
	     m->shared_b ? ", shared B" : "");
	if (m->tri >= 0)
		DESC(", triangular i%d %s i%d", m->b0 + m->tri_in,
		     tri_name[m->tri], m->b0 + m->tri_ref);
	if (m->init)
		DESC(", init");
	if (m->row_init)
		DESC(", C scaled in the outer loop");
	if (m->b_is_a)
		DESC(", B = A^T");
}

/* C[b][i][j] += A[b][i][k] * B[b][k][j], b only if batched. */
static int build_matmul(struct gen_prog *p, int nest, int batched,
			char *desc)
{
	struct matmul m;

	memset(&m, 0, sizeof(m));
	m.nest = nest;
	m.batched = batched;
	m.b0 = batched ? 1 : 0;
	m.A = -1;
	m.tri = m.tri_in = m.tri_ref = -1;
	m.root = -1;
	matmul_choose_loops(p, &m);
	matmul_choose_triangle(p, &m);
	matmul_choose_arrays(p, &m);
	matmul_emit_loops(p, &m);
	matmul_emit_statement(p, &m);
	matmul_describe(&m, desc);
	return m.root;
}

/* doitgen: sum[r][q][p] += A[r][q][s] * C4[s][p] (sum set to 0 first if
 * chosen); then optionally A[r][q][p] = sum[r][q][p] in a second p loop.
 * The loops r, q, p, s; `dims` are the sizes of r, q and s (= p). */
static int doitgen_emit(struct gen_prog *p, const int *dims, int A, int C4,
			int S, int init, int copy)
{
	static const int slev[3] = { 0, 1, 2 }, alev[3] = { 0, 1, 3 };
	static const int clev[2] = { 3, 2 }, wlev[3] = { 0, 1, 2 };
	int d4[4] = { dims[0], dims[1], dims[2], dims[2] };
	int c4[4] = { 0, 0, 0, 0 }, loops[GEN_MAX_DEPTH], root, x, y, v;
	enum gen_loop_role r4[4] = { GEN_ROLE_SPACE, GEN_ROLE_SPACE,
		GEN_ROLE_SPACE, GEN_ROLE_REDUCTION };

	root = loop_chain(p, -1, 0, 3, d4, c4, r4, -1, -1, -1, loops);
	if (init) {
		stmt_new(p, loops[2], 3, access_levels(p, S, slev, 1),
			 e_const(p, zero_literal(p)), 0);
		p->features |= pearl_gen_f_imperfect;
	}
	loop_chain(p, loops[2], 3, 1, d4 + 3, c4, r4 + 3, -1, -1, -1,
		   loops + 3);
	x = e_load(p, access_levels(p, A, alev, 0));
	y = e_load(p, access_levels(p, C4, clev, 0));
	v = e_load(p, access_levels(p, S, slev, 0));
	v = e_bin(p, GEN_OP_ADD, v, e_bin(p, GEN_OP_MUL, x, y));
	stmt_new(p, loops[3], 4, access_levels(p, S, slev, 1), v, 0);
	if (copy) {
		int l2 = loop_dim(p, loops[1], 2, dims[2], 0, 0,
				  GEN_ROLE_SPACE);

		stmt_new(p, l2, 3, access_levels(p, A, wlev, 1),
			 e_load(p, access_levels(p, S, slev, 0)), 0);
		p->features |= pearl_gen_f_imperfect;
	}
	return root;
}

/* doitgen's sizes and arrays (A perhaps an earlier nest's output), then
 * its loops and statements. */
static int build_doitgen(struct gen_prog *p, int nest, char *desc)
{
	int dims[3], cdims[2], A = -1, C4, S, init, copy, root, i;

	for (i = 0; i < 3; ++i)
		dims[i] = random_dim(p);
	if (nest > 0 && gen_chance(&p->rng, DOITGEN_CHAIN)) {
		A = chain_any(p, nest, 3, 3);
		if (A >= 0) {
			for (i = 0; i < 3; ++i)
				dims[i] = p->arrays[A].dim[i];
			p->features |= pearl_gen_f_chain;
		}
	}
	cdims[0] = cdims[1] = dims[2];
	if (A < 0)
		A = array_new(p, 3, dims);
	C4 = input_array(p, nest, 2, cdims, DOITGEN_C4_CHAIN);
	S = array_new(p, 3, dims);
	init = gen_chance(&p->rng, DOITGEN_INIT);
	copy = gen_chance(&p->rng, DOITGEN_COPY);
	root = doitgen_emit(p, dims, A, C4, S, init, copy);
	p->features |= pearl_gen_f_batched;
	DESC("contraction: doitgen%s%s", init ? ", init" : "",
	     copy ? ", copy-back loop" : "");
	return root;
}

/* A convolution out[c][i][j] += in[c][i + r][j + s] * w[c][r][s] (c only
 * with channels) being built. */
struct conv {
	int nest;			/* index of the nest */
	int chans;			/* a channel loop c outermost */
	int c0;				/* level of the first loop after c */
	int R;				/* the filter is R x R */
	int filt_outer;			/* loops r, s outside loops i, j */
	int init;			/* out set to 0 before loops r, s */
	int dc, di, dj;			/* program sizes of c, i, j */
	int in, out, w;			/* the arrays */
	int lvi, lvj, lvr, lvs;		/* levels of loops i, j, r, s */
	int olev[3];			/* out's index levels */
	int root;			/* the nest's outermost loop */
	int loops[GEN_MAX_DEPTH];
};

/* Channels, the filter's size, the loop order, the initialization, the
 * sizes (an earlier nest's output as input gives them). */
static void conv_choose(struct gen_prog *p, struct conv *c)
{
	c->chans = gen_chance(&p->rng, CONV_CHANNELS);
	/* drawn at both scales so that a seed has one structure */
	c->R = gen_chance(&p->rng, CONV_3X3) ||
	       p->scale == pearl_gen_scale_small ? 3 : 5;
	c->filt_outer = gen_chance(&p->rng, CONV_FILTER_OUTER);
	c->init = !c->filt_outer && gen_chance(&p->rng, CONV_INIT);
	c->c0 = c->chans ? 1 : 0;
	c->dc = random_dim(p);
	c->di = random_dim(p);
	c->dj = random_dim(p);
	c->in = -1;
	if (c->nest > 0 && gen_chance(&p->rng, CONV_CHAIN)) {
		c->in = chain_any(p, c->nest, 2 + c->c0, 2 + c->c0);
		if (c->in >= 0) {
			if (c->chans)
				c->dc = p->arrays[c->in].dim[0];
			c->di = p->arrays[c->in].dim[c->c0];
			c->dj = p->arrays[c->in].dim[c->c0 + 1];
			p->features |= pearl_gen_f_chain;
		}
	}
}

/* The arrays in, out and w, the sizes the filter needs, and the levels
 * of the loops and of out's indices. */
static void conv_arrays(struct gen_prog *p, struct conv *c)
{
	int idims[3], wdims[3], n = 0;

	if (c->chans) {
		idims[n] = c->dc;
		wdims[n++] = c->dc;
	}
	idims[n] = c->di;
	wdims[n++] = -c->R;
	idims[n] = c->dj;
	wdims[n++] = -c->R;
	if (c->in < 0)
		c->in = array_new(p, n, idims);
	c->out = array_new(p, n, idims);
	c->w = array_new(p, n, wdims);
	need_dim(p, c->di, c->R + 3);
	need_dim(p, c->dj, c->R + 3);
	c->lvi = c->c0 + (c->filt_outer ? 2 : 0);
	c->lvj = c->lvi + 1;
	c->lvr = c->c0 + (c->filt_outer ? 0 : 2);
	c->lvs = c->lvr + 1;
	n = 0;
	if (c->chans)
		c->olev[n++] = 0;
	c->olev[n++] = c->lvi;
	c->olev[n++] = c->lvj;
}

/* The loops [c], then i, j and r, s in the chosen order, with out set to
 * 0 before r and s if chosen. */
static void conv_emit_loops(struct gen_prog *p, struct conv *c)
{
	int dl[GEN_MAX_DEPTH], cl[GEN_MAX_DEPTH], c0 = c->c0, nl = c0 + 4;
	enum gen_loop_role rl[GEN_MAX_DEPTH];
	int parent;

	memset(cl, 0, sizeof(cl));
	if (c->chans) {
		dl[0] = c->dc;
		rl[0] = GEN_ROLE_SPACE;
	}
	dl[c->lvi] = c->di; cl[c->lvi] = c->R - 1; rl[c->lvi] = GEN_ROLE_SPACE;
	dl[c->lvj] = c->dj; cl[c->lvj] = c->R - 1; rl[c->lvj] = GEN_ROLE_SPACE;
	dl[c->lvr] = -1; cl[c->lvr] = c->R; rl[c->lvr] = GEN_ROLE_REDUCTION;
	dl[c->lvs] = -1; cl[c->lvs] = c->R; rl[c->lvs] = GEN_ROLE_REDUCTION;
	c->root = loop_chain(p, -1, 0, c->init ? c0 + 2 : nl, dl, cl, rl,
			     -1, -1, -1, c->loops);
	if (c->init) {
		parent = c->loops[c0 + 1];
		stmt_new(p, parent, c0 + 2,
			 access_levels(p, c->out, c->olev, 1),
			 e_const(p, zero_literal(p)), 0);
		p->features |= pearl_gen_f_imperfect;
		loop_chain(p, parent, c0 + 2, 2, dl + c0 + 2, cl + c0 + 2,
			   rl + c0 + 2, -1, -1, -1, c->loops + c0 + 2);
	}
}

/* out += in[.., i + r, j + s] * w[.., r, s] in the innermost loop. */
static void conv_emit_statement(struct gen_prog *p, const struct conv *c)
{
	struct gen_aff idx[3];
	int wlev[3], n = 0, x, y, v, nl = c->c0 + 4;

	if (c->chans) {
		idx[n] = aff_it(0, 0);
		wlev[n++] = 0;
	}
	idx[n] = aff_it(c->lvi, 0);
	idx[n++].coef[c->lvr] = 1;
	idx[n] = aff_it(c->lvj, 0);
	idx[n++].coef[c->lvs] = 1;
	wlev[n - 2] = c->lvr;
	wlev[n - 1] = c->lvs;
	x = e_load(p, access_new(p, c->in, idx, 0));
	y = e_load(p, access_levels(p, c->w, wlev, 0));
	v = e_load(p, access_levels(p, c->out, c->olev, 0));
	v = e_bin(p, GEN_OP_ADD, v, e_bin(p, GEN_OP_MUL, x, y));
	stmt_new(p, c->loops[nl - 1], nl, access_levels(p, c->out, c->olev, 1),
		 v, 0);
}

static int build_convolution(struct gen_prog *p, int nest, char *desc)
{
	struct conv c;

	memset(&c, 0, sizeof(c));
	c.nest = nest;
	conv_choose(p, &c);
	conv_arrays(p, &c);
	conv_emit_loops(p, &c);
	conv_emit_statement(p, &c);
	p->features |= pearl_gen_f_conv;
	DESC("contraction: convolution %dx%d%s%s%s", c.R, c.R,
	     c.chans ? ", channels" : "",
	     c.filt_outer ? ", filter loops outermost" : "",
	     c.init ? ", init" : "");
	return c.root;
}

static int build_contraction(struct gen_prog *p, int nest, char *desc)
{
	static const int var_w[] = { 45, 15, 15, 25 };
	enum { MATMUL, BATCHED, DOITGEN, CONV };
	int variant = gen_pick(&p->rng, var_w, N_OF(var_w));

	if (only_matmuls(p))
		variant = MATMUL;

	if (variant == MATMUL || variant == BATCHED)
		return build_matmul(p, nest, variant == BATCHED, desc);
	if (variant == DOITGEN)
		return build_doitgen(p, nest, desc);
	return build_convolution(p, nest, desc);
}

/* ------------------------------------------------------------------ */
/* the matrix-vector family */

/* Chances of the matrix-vector family, per mille (gen_chance). */
enum {
	MATVEC_RANK1_FIRST = 300,	/* the first nest updates A by outer
					 * products (gemver), ... */
	MATVEC_RANK1_TWO = 500,		/* ... by two of them */
	MATVEC_X_CHAIN = 500,		/* a product's vector an earlier
					 * nest's output */
	MATVEC_INIT = 450,		/* y set to 0 before the j loop */
	MATVEC_GESUMMV_POST = 600,	/* gesummv: y = a t + b y after it */
};

/* The kinds of matrix-vector nests, as PolyBench's kernels have them. */
enum matvec_kind {
	MATVEC_MV,		/* y[i] += A[i][j] x[j] (mvt, atax, gemver) */
	MATVEC_MVT_ROWS,	/* y[j] += A[i][j] x[i], i outer (atax, bicg) */
	MATVEC_MVT_COLS,	/* y[i] += A[j][i] x[j], i outer (mvt, gemver) */
	MATVEC_BICG,		/* s[j] += r[i] A[i][j]; q[i] += A[i][j] p[j] */
	MATVEC_GESUMMV,		/* t[i] += A[i][j] x[j]; y[i] += B[i][j] x[j] */
	MATVEC_AXPY,		/* x[i] = x[i] + c z[i] on an earlier output */
	MATVEC_N_KINDS
};

static const char *const matvec_kind_names[MATVEC_N_KINDS] = {
	"A x", "A^T x, row order", "A^T x, column order", "bicg", "gesummv",
	"axpy"
};

/* The family's program: one matrix A of sizes rows x cols (program
 * sizes), read by every nest. */
struct matvec {
	int rows, cols;
	int A;
};

/* A vector of program size `dim` a product reads: an earlier nest's
 * output with chance MATVEC_X_CHAIN (when one fits), else a new one. */
static int matvec_input(struct gen_prog *p, int nest, int dim)
{
	return input_array(p, nest, 1, &dim, MATVEC_X_CHAIN);
}

/* acc[lev] + a * b, stored to acc[lev], in `parent` at depth 2. */
static void matvec_accumulate(struct gen_prog *p, int parent, int acc,
			      const int *acc_lev, int a, int b)
{
	int v = e_bin(p, GEN_OP_ADD,
		      e_load(p, access_levels(p, acc, acc_lev, 0)),
		      e_bin(p, GEN_OP_MUL, a, b));

	stmt_new(p, parent, 2, access_levels(p, acc, acc_lev, 1), v, 0);
}

/* vec[i] = 0 in `parent` (the i loop), before the j loop. */
static void matvec_zero(struct gen_prog *p, int parent, int vec)
{
	static const int lev0[1] = { 0 };

	stmt_new(p, parent, 1, access_levels(p, vec, lev0, 1),
		 e_const(p, zero_literal(p)), 0);
	p->features |= pearl_gen_f_imperfect;
}

/* A[i][j] = A[i][j] + u[i] v[j] (+ u2[i] v2[j]): gemver's first nest. */
static int matvec_rank1(struct gen_prog *p, const struct matvec *m,
			char *desc)
{
	static const int lev_ij[2] = { 0, 1 }, lev_i[1] = { 0 },
			 lev_j[1] = { 1 };
	int n = gen_chance(&p->rng, MATVEC_RANK1_TWO) ? 2 : 1, t, v, i, j;

	i = loop_dim(p, -1, 0, m->rows, 0, 0, GEN_ROLE_SPACE);
	j = loop_dim(p, i, 1, m->cols, 0, 0, GEN_ROLE_SPACE);
	v = e_load(p, access_levels(p, m->A, lev_ij, 0));
	for (t = 0; t < n; ++t) {
		int u = array_new(p, 1, &m->rows), w = array_new(p, 1, &m->cols);

		v = e_bin(p, GEN_OP_ADD, v,
			  e_bin(p, GEN_OP_MUL,
				e_load(p, access_levels(p, u, lev_i, 0)),
				e_load(p, access_levels(p, w, lev_j, 0))));
	}
	stmt_new(p, j, 2, access_levels(p, m->A, lev_ij, 1), v, 0);
	p->features |= pearl_gen_f_broadcast | pearl_gen_f_in_place;
	DESC("matvec: A += %s", n == 2 ? "u1 v1^T + u2 v2^T" : "u v^T");
	return i;
}

/* x[i] = x[i] + c z[i] on an earlier nest's output x; -1 if none. */
static int matvec_axpy(struct gen_prog *p, int nest, char *desc)
{
	static const int lev_i[1] = { 0 };
	int x = chain_any(p, nest, 1, 1), z, i, v;

	if (x < 0)
		return -1;
	z = array_new(p, 1, p->arrays[x].dim);
	i = loop_dim(p, -1, 0, p->arrays[x].dim[0], 0, 0, GEN_ROLE_SPACE);
	v = e_bin(p, GEN_OP_ADD, e_load(p, access_levels(p, x, lev_i, 0)),
		  maybe_scale(p, e_load(p, access_levels(p, z, lev_i, 0))));
	stmt_new(p, i, 1, access_levels(p, x, lev_i, 1), v, 0);
	p->features |= pearl_gen_f_chain | pearl_gen_f_in_place;
	DESC("matvec: axpy");
	return i;
}

/* One product nest of kind k over A; its root. */
static int matvec_product(struct gen_prog *p, const struct matvec *m,
			  int nest, enum matvec_kind k, char *desc)
{
	static const int lev_ij[2] = { 0, 1 }, lev_ji[2] = { 1, 0 },
			 lev_i[1] = { 0 }, lev_j[1] = { 1 };
	/* the sizes of the loops i and j */
	int di = k == MATVEC_MVT_COLS ? m->cols : m->rows;
	int dj = k == MATVEC_MVT_COLS ? m->rows : m->cols;
	int init = k != MATVEC_MVT_ROWS && gen_chance(&p->rng, MATVEC_INIT);
	int i, j, a, x, y, y2, x2;

	DESC("matvec: %s%s", matvec_kind_names[k], init ? ", init" : "");

	i = loop_dim(p, -1, 0, di, 0, 0, k == MATVEC_MVT_ROWS
					      ? GEN_ROLE_REDUCTION
					      : GEN_ROLE_SPACE);
	/* the vectors read and written, then the loop over j */
	switch (k) {
	case MATVEC_MV:
	case MATVEC_MVT_COLS:
		x = matvec_input(p, nest, dj);
		y = array_new(p, 1, &di);
		if (init)
			matvec_zero(p, i, y);
		j = loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_REDUCTION);
		a = e_load(p, access_levels(p, m->A, k == MATVEC_MV ? lev_ij
								    : lev_ji,
					    0));
		matvec_accumulate(p, j, y, lev_i, a,
				  e_load(p, access_levels(p, x, lev_j, 0)));
		if (k == MATVEC_MVT_COLS)
			p->features |= pearl_gen_f_transpose;
		break;
	case MATVEC_MVT_ROWS:
		x = matvec_input(p, nest, di);
		y = array_new(p, 1, &dj);
		j = loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_SPACE);
		a = e_load(p, access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y, lev_j,
				  e_load(p, access_levels(p, x, lev_i, 0)), a);
		break;
	case MATVEC_BICG:
		x = matvec_input(p, nest, di);	/* r */
		x2 = matvec_input(p, nest, dj);	/* p */
		y = array_new(p, 1, &dj);	/* s */
		y2 = array_new(p, 1, &di);	/* q */
		if (init)
			matvec_zero(p, i, y2);
		j = loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_SPACE);
		a = e_load(p, access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y, lev_j,
				  e_load(p, access_levels(p, x, lev_i, 0)), a);
		a = e_load(p, access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y2, lev_i, a,
				  e_load(p, access_levels(p, x2, lev_j, 0)));
		break;
	default: /* MATVEC_GESUMMV */
		x = matvec_input(p, nest, dj);
		y = array_new(p, 1, &di);	/* t */
		y2 = array_new(p, 1, &di);	/* y */
		x2 = array_new(p, 2, p->arrays[m->A].dim);	/* B */
		if (init) {
			matvec_zero(p, i, y);
			matvec_zero(p, i, y2);
		}
		j = loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_REDUCTION);
		a = e_load(p, access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y, lev_i, a,
				  e_load(p, access_levels(p, x, lev_j, 0)));
		a = e_load(p, access_levels(p, x2, lev_ij, 0));
		matvec_accumulate(p, j, y2, lev_i, a,
				  e_load(p, access_levels(p, x, lev_j, 0)));
		if (gen_chance(&p->rng, MATVEC_GESUMMV_POST)) {
			int v = e_bin(p, GEN_OP_ADD,
				      maybe_scale(p, e_load(p,
					      access_levels(p, y, lev_i, 0))),
				      maybe_scale(p, e_load(p,
					      access_levels(p, y2, lev_i, 0))));

			stmt_new(p, i, 1, access_levels(p, y2, lev_i, 1), v,
				 0);
			p->features |= pearl_gen_f_imperfect;
			DESC(", post");
		}
		break;
	}
	return i;
}

/* The family's whole program: 2-3 nests over one matrix, the first
 * perhaps updating it by outer products, the others products with it
 * (or an axpy on an earlier product). */
static void build_matvec_program(struct gen_prog *p)
{
	static const int nests_w[] = { 55, 45 };	/* 2 or 3 */
	static const int kind_w[MATVEC_N_KINDS] = { 30, 20, 20, 15, 15, 10 };
	struct matvec m;
	int n, i;

	m.rows = random_dim(p);
	m.cols = random_dim(p);
	m.A = array_new(p, 2, (int[2]){ m.rows, m.cols });
	n = 2 + gen_pick(&p->rng, nests_w, N_OF(nests_w));
	for (i = 0; i < n && !p->full; ++i) {
		struct gen_nest *nest = &p->nests[i];
		char *desc = nest->desc;
		enum matvec_kind k;

		desc[0] = '\0';
		p->n_nests = i;	/* the nest being built, for array writers */
		nest->kind = pearl_gen_kind_reduction;
		if (i == 0 && gen_chance(&p->rng, MATVEC_RANK1_FIRST)) {
			nest->kind = pearl_gen_kind_elementwise;
			nest->root = matvec_rank1(p, &m, desc);
			continue;
		}
		k = (enum matvec_kind)gen_pick(&p->rng, kind_w, N_OF(kind_w));
		nest->root = k == MATVEC_AXPY ? matvec_axpy(p, i, desc) : -1;
		if (nest->root >= 0) {
			nest->kind = pearl_gen_kind_elementwise;
			continue;
		}
		if (k == MATVEC_AXPY)
			k = MATVEC_MV;
		nest->root = matvec_product(p, &m, i, k, desc);
		if (nest->root < 0)
			GEN_FAIL(p);
	}
	p->n_nests = n;
	p->features |= pearl_gen_f_multi_nest;
}

/* ------------------------------------------------------------------ */
/* the sweep family */

/* Chances of the sweep family, per mille (gen_chance). */
enum {
	SWEEP_TIME_LOOP = 800,		/* the nests inside one time loop
					 * (else each a nest of its own) */
	SWEEP_BOUNDARY = 300,		/* rank >= 2: the first nest copies a
					 * field's row 1 to its row 0 */
	SWEEP_PERMUTED = 250,		/* a nest's loops in a shuffled
					 * order */
	SWEEP_IN_PLACE = 600,		/* a nest reads the centre of the
					 * field it writes */
	SWEEP_STAR = 350,		/* the first read field by a radius-1
					 * star (else a one-sided
					 * difference) */
	SWEEP_SECOND_READ = 450,	/* a second other field, by a one-sided
					 * difference */
	SWEEP_THREE_FIELDS = 500,	/* three fields (when the nests can
					 * write them all), else two */
};

/* The family's program: 2-3 fields of one shape (rank r, program sizes
 * dims), updated in turn by 2-4 nests, perhaps all inside a time loop. */
struct sweep {
	int r;
	int dims[GEN_MAX_RANK];
	int n_fields;
	int field[3];
	int t0;				/* level of the first space loop */
	int time;			/* the time loop, or -1 */
};

/* The reads of one sweep nest: leaves and the margins they need. */
struct sweep_reads {
	int off[GEN_MAX_READS][GEN_MAX_RANK];
	int array[GEN_MAX_READS];
	int n;
	int lo[GEN_MAX_RANK], hi[GEN_MAX_RANK];	/* margins per axis */
};

static void sweep_read(struct sweep_reads *rd, int array, const int *off,
		       int r)
{
	int a;

	if (rd->n >= GEN_MAX_READS)
		return;
	rd->array[rd->n] = array;
	for (a = 0; a < r; ++a) {
		rd->off[rd->n][a] = off[a];
		if (-off[a] > rd->lo[a])
			rd->lo[a] = -off[a];
		if (off[a] > rd->hi[a])
			rd->hi[a] = off[a];
	}
	rd->n++;
}

/* Field f by a one-sided difference along a random axis: f[x] and
 * f[x -+ 1] (fdtd-2d's ex[i][j] - ex[i][j-1]). */
static void sweep_difference(struct gen_prog *p, const struct sweep *s,
			     struct sweep_reads *rd, int f)
{
	int off[GEN_MAX_RANK] = { 0 };
	int a = gen_below(&p->rng, s->r);

	sweep_read(rd, f, off, s->r);
	off[a] = gen_chance(&p->rng, 500) ? -1 : 1;
	sweep_read(rd, f, off, s->r);
}

/* Field f by a radius-1 star: its centre and both neighbours on every
 * axis (jacobi-2d, heat-3d). */
static void sweep_star(const struct sweep *s, struct sweep_reads *rd, int f)
{
	int off[GEN_MAX_RANK] = { 0 }, a;

	sweep_read(rd, f, off, s->r);
	for (a = 0; a < s->r; ++a) {
		off[a] = -1;
		sweep_read(rd, f, off, s->r);
		off[a] = 1;
		sweep_read(rd, f, off, s->r);
		off[a] = 0;
	}
}

/* The space loops of a nest over the whole sizes shrunk by the margins,
 * in the time loop if any, in array-axis order or shuffled; their levels
 * in lev[]; returns the innermost (the statement's parent). */
static int sweep_loops(struct gen_prog *p, const struct sweep *s, int rank,
		       int first_axis, const int *lo, const int *hi,
		       int *lev, int *root, char *desc)
{
	int order[GEN_MAX_RANK], k, parent = s->time;

	for (k = 0; k < rank; ++k)
		order[k] = first_axis + k;
	if (rank > 1 && gen_chance(&p->rng, SWEEP_PERMUTED)) {
		shuffle(p, order, rank);
		DESC(" (permuted)");
	}
	*root = -1;
	for (k = 0; k < rank; ++k) {
		int a = order[k];
		int l = loop_dim(p, parent, s->t0 + k, s->dims[a], lo[a],
				 hi[a], GEN_ROLE_SPACE);

		lev[a] = s->t0 + k;
		if (*root < 0)
			*root = l;
		parent = l;
	}
	return parent;
}

/* fields[w][0][...] = fields[w][1][...]: a boundary row copied from its
 * neighbour, over the other axes; returns its root. */
static int sweep_boundary(struct gen_prog *p, const struct sweep *s, int w,
			  char *desc)
{
	int zero[GEN_MAX_RANK] = { 0 }, lev[GEN_MAX_RANK] = { 0 };
	struct gen_aff idx[GEN_MAX_RANK];
	int root, parent, a, x;

	DESC("f%d row 0", w);
	parent = sweep_loops(p, s, s->r - 1, 1, zero, zero, lev, &root, desc);
	for (a = 1; a < s->r; ++a)
		idx[a] = aff_it(lev[a], 0);
	idx[0] = aff_k(1);
	x = e_load(p, access_new(p, s->field[w], idx, 0));
	idx[0] = aff_k(0);
	stmt_new(p, parent, s->t0 + s->r - 1,
		 access_new(p, s->field[w], idx, 1), x, 0);
	return root;
}

/* field w = a bounded average of its centre (perhaps) and of other
 * fields' points; returns its root.  Described as "f0 <- f0,f1*,f2": f0's
 * centre, f1 by a star (a "*"), f2 by a one-sided difference. */
static int sweep_update(struct gen_prog *p, const struct sweep *s, int w,
			char *desc)
{
	struct sweep_reads rd;
	int leaves[GEN_MAX_READS], lev[GEN_MAX_RANK] = { 0 };
	struct gen_aff idx[GEN_MAX_RANK];
	int f1, f2, k, a, root, parent, in_place, star;

	memset(&rd, 0, sizeof(rd));
	f1 = (w + 1 + gen_below(&p->rng, s->n_fields - 1)) % s->n_fields;
	in_place = gen_chance(&p->rng, SWEEP_IN_PLACE);
	if (in_place)
		sweep_read(&rd, s->field[w], (int[GEN_MAX_RANK]){ 0 }, s->r);
	star = gen_chance(&p->rng, SWEEP_STAR);
	if (star)
		sweep_star(s, &rd, s->field[f1]);
	else
		sweep_difference(p, s, &rd, s->field[f1]);
	if (in_place)
		DESC("f%d <- f%d,", w, w);
	else
		DESC("f%d <- ", w);
	DESC("f%d%s", f1, star ? "*" : "");
	if (s->n_fields == 3 && gen_chance(&p->rng, SWEEP_SECOND_READ)) {
		f2 = 3 - w - f1;	/* the third field */
		sweep_difference(p, s, &rd, s->field[f2]);
		DESC(",f%d", f2);
	}
	parent = sweep_loops(p, s, s->r, 0, rd.lo, rd.hi, lev, &root, desc);
	for (k = 0; k < rd.n; ++k) {
		for (a = 0; a < s->r; ++a)
			idx[a] = aff_it(lev[a], rd.off[k][a]);
		leaves[k] = e_load(p, access_new(p, rd.array[k], idx, 0));
	}
	stmt_new(p, parent, s->t0 + s->r,
		 access_levels(p, s->field[w], lev, 1),
		 combine_bounded(p, leaves, rd.n), 0);
	if (in_place) {
		p->arrays[s->field[w]].in_place = 1;
		p->features |= pearl_gen_f_in_place;
	}
	return root;
}

/* The family's whole program: fields updated in turn, as PolyBench's
 * fdtd-2d, jacobi-1d/2d and heat-3d, by 2-4 nests (each field written by
 * one at least), perhaps inside one time loop. */
static void build_sweep_program(struct gen_prog *p)
{
	static const int rank_w[] = { 20, 55, 25 };
	static const int nests_w[] = { 25, 35, 40 };	/* 2, 3 or 4 */
	struct sweep s;
	int n, i, a, boundary, use_t;
	char *desc;

	memset(&s, 0, sizeof(s));
	s.r = 1 + gen_pick(&p->rng, rank_w, N_OF(rank_w));
	for (a = 0; a < s.r; ++a) {
		s.dims[a] = random_dim(p);
		need_dim(p, s.dims[a], 5);
	}
	n = 2 + gen_pick(&p->rng, nests_w, N_OF(nests_w));
	boundary = s.r >= 2 && gen_chance(&p->rng, SWEEP_BOUNDARY);
	s.n_fields = 2;
	if (n - boundary >= 3 && gen_chance(&p->rng, SWEEP_THREE_FIELDS))
		s.n_fields = 3;
	if (n - boundary < s.n_fields)
		n = s.n_fields + boundary;
	for (i = 0; i < s.n_fields; ++i)
		s.field[i] = array_new(p, s.r, s.dims);
	use_t = gen_chance(&p->rng, SWEEP_TIME_LOOP);
	s.time = -1;
	p->n_nests = 0;
	if (use_t) {
		s.time = loop_const(p, -1, 0, time_steps(p), GEN_ROLE_TIME);
		s.t0 = 1;
		p->features |= pearl_gen_f_time_loop;
		p->nests[0].root = s.time;
		p->nests[0].kind = pearl_gen_kind_stencil;
		desc = p->nests[0].desc;
		desc[0] = '\0';
		DESC("sweep: rank %d, time loop", s.r);
	}
	for (i = 0; i < n && !p->full; ++i) {
		struct gen_nest *nest = &p->nests[use_t ? 0 : i];
		int root;

		desc = nest->desc;
		if (use_t) {
			DESC(i ? "; " : ": ");
		} else {
			desc[0] = '\0';
			nest->kind = pearl_gen_kind_stencil;
			p->n_nests = i;
			DESC("sweep: rank %d: ", s.r);
		}
		if (boundary && i == 0)
			root = sweep_boundary(p, &s, 0, desc);
		else
			root = sweep_update(p, &s, (i - boundary) % s.n_fields,
					    desc);
		if (!use_t)
			nest->root = root;
		if (root < 0)
			GEN_FAIL(p);
	}
	p->n_nests = use_t ? 1 : n;
	p->features |= pearl_gen_f_multi_nest;	/* n >= 2 */
}

/* ------------------------------------------------------------------ */

void gen_build(struct gen_prog *p)
{
	static const int nest_w[] = { 40, 40, 20 };
	static const int kind_w[] = { 25, 25, 22, 28 };
	static const int type_w[] = { 40, 30, 30 };
	int n, k, i;

	p->type = (enum pearl_gen_type)gen_pick(&p->rng, type_w, N_OF(type_w));
	p->n_dims = 1 + gen_below(&p->rng, GEN_MAX_DIMS);
	for (i = 0; i < p->n_dims; ++i) {
		p->dim_min[i] = p->scale == pearl_gen_scale_small ? 4 : 8;
		/* aspect between 1/2 and 2 of the common scale */
		p->dim_mul[i] = 32 + gen_below(&p->rng, 97);
	}
	if (p->family == pearl_gen_family_matvec) {
		build_matvec_program(p);
		return;
	}
	if (p->family == pearl_gen_family_sweep) {
		build_sweep_program(p);
		return;
	}
	n = 1 + gen_pick(&p->rng, nest_w, N_OF(nest_w));
	if (one_matmul(p))
		n = 1;
	if (p->family == pearl_gen_family_chain)
		n = gen_chance(&p->rng, CHAIN_THIRD_NEST) ? 3 : 2;
	for (i = 0; i < n && !p->full; ++i) {
		struct gen_nest *nest = &p->nests[i];

		k = gen_pick(&p->rng, kind_w, N_OF(kind_w));
		if (only_matmuls(p))
			k = pearl_gen_kind_contraction;
		nest->kind = (enum pearl_gen_kind)k;
		nest->desc[0] = '\0';
		p->n_nests = i;	/* the nest being built, for array writers */
		switch (nest->kind) {
		case pearl_gen_kind_elementwise:
			nest->root = build_elementwise(p, i, nest->desc);
			break;
		case pearl_gen_kind_stencil:
			nest->root = build_stencil(p, i, nest->desc);
			break;
		case pearl_gen_kind_reduction:
			nest->root = build_reduction(p, i, nest->desc);
			break;
		default:
			nest->root = build_contraction(p, i, nest->desc);
			break;
		}
		if (nest->root < 0)
			GEN_FAIL(p);
	}
	p->n_nests = n;
	if (n > 1)
		p->features |= pearl_gen_f_multi_nest;
}
