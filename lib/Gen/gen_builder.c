/*
 * lib/Gen/gen_builder.c - the pieces every grammar builds with: the
 * random numbers, affine expressions, loops, arrays, accesses, expressions
 * and statements, each appended to the program's pools (a full pool sets
 * p->full: GEN_FAIL).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"
#include "pearl/random.h"

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

struct gen_aff gen_aff_k(int k)
{
	struct gen_aff a;

	memset(&a, 0, sizeof(a));
	a.dim = -1;
	a.k = k;
	return a;
}

struct gen_aff gen_aff_d(int dim, int k)
{
	struct gen_aff a = gen_aff_k(k);

	a.dim = dim;
	return a;
}

struct gen_aff gen_aff_it(int level, int k)
{
	struct gen_aff a = gen_aff_k(k);

	a.coef[level] = 1;
	return a;
}

int gen_node_new(struct gen_prog *p, enum gen_node_kind kind, int depth)
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

void gen_add_child(struct gen_prog *p, int parent, int child, int in_else)
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
	int i, l = gen_node_new(p, GEN_NODE_LOOP, depth);

	if (l < 0)
		return -1;
	p->nodes[l].n_lb = n_lb;
	p->nodes[l].n_ub = n_ub;
	for (i = 0; i < n_lb; ++i)
		p->nodes[l].lb[i] = lb[i];
	for (i = 0; i < n_ub; ++i)
		p->nodes[l].ub[i] = ub[i];
	p->nodes[l].role = role;
	gen_add_child(p, parent, l, 0);
	return l;
}

void gen_need_dim(struct gen_prog *p, int dim, int min)
{
	if (dim >= 0 && dim < GEN_MAX_DIMS && p->dim_min[dim] < min)
		p->dim_min[dim] = min;
}

int gen_loop_dim(struct gen_prog *p, int parent, int depth, int dim, int lo,
		 int hi, enum gen_loop_role role)
{
	struct gen_aff lb = gen_aff_k(lo), ub = gen_aff_d(dim, -hi);

	gen_need_dim(p, dim, lo + hi + 2);
	return loop_new(p, parent, depth, 1, &lb, 1, &ub, role);
}

int gen_loop_const(struct gen_prog *p, int parent, int depth, int n,
		   enum gen_loop_role role)
{
	struct gen_aff lb = gen_aff_k(0), ub = gen_aff_k(n);

	return loop_new(p, parent, depth, 1, &lb, 1, &ub, role);
}

/* Triangle kinds of an inner loop over the size of an outer loop at
 * `ref` (which runs over [0, D)). */
const char *const gen_tri_name[N_TRI] = { "<=", "<", ">=", ">" };

int gen_loop_tri(struct gen_prog *p, int parent, int depth, int dim, int ref,
		 int kind, enum gen_loop_role role)
{
	struct gen_aff lb = gen_aff_k(0), ub = gen_aff_d(dim, 0);

	switch (kind) {
	case TRI_LE: ub = gen_aff_it(ref, 1); break;
	case TRI_LT: ub = gen_aff_it(ref, 0); break;
	case TRI_GE: lb = gen_aff_it(ref, 0); break;
	default: lb = gen_aff_it(ref, 1); break;
	}
	gen_need_dim(p, dim, 4);
	p->features |= pearl_gen_f_triangular;
	return loop_new(p, parent, depth, 1, &lb, 1, &ub, role);
}

int gen_loop_band(struct gen_prog *p, int parent, int depth, int dim, int ref,
		  int w, enum gen_loop_role role)
{
	struct gen_aff lb[2] = { gen_aff_k(0), gen_aff_it(ref, -w) };
	struct gen_aff ub[2] = { gen_aff_d(dim, 0), gen_aff_it(ref, w + 1) };

	gen_need_dim(p, dim, 2 * w + 3);
	p->features |= pearl_gen_f_banded;
	return loop_new(p, parent, depth, 2, lb, 2, ub, role);
}

int gen_array_new(struct gen_prog *p, int rank, const int *dims)
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

int gen_chain_any(struct gen_prog *p, int nest, int lo, int hi)
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

int gen_input_array(struct gen_prog *p, int nest, int rank, const int *dims,
		    int chain)
{
	int a = -1;

	if (nest > 0 && gen_chance(&p->rng, chain))
		a = chain_match(p, nest, rank, dims);
	if (a >= 0)
		p->features |= pearl_gen_f_chain;
	else
		a = gen_array_new(p, rank, dims);
	return a;
}

/* Chance, per mille (gen_chance), that an index of a read that is not a
 * plain iterator is printed through an affine.apply (one per read). */
enum { ACCESS_APPLY = 80 };

int gen_access_new(struct gen_prog *p, int array, const struct gen_aff *idx,
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

int gen_access_levels(struct gen_prog *p, int array, const int *lev,
		      int is_write)
{
	struct gen_aff idx[GEN_MAX_RANK];
	int d;

	if (array < 0)
		return -1;
	for (d = 0; d < p->arrays[array].rank; ++d)
		idx[d] = gen_aff_it(lev[d], 0);
	return gen_access_new(p, array, idx, is_write);
}

int gen_e_new(struct gen_prog *p, enum gen_op op, int a, int b)
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

int gen_e_load(struct gen_prog *p, int access)
{
	int e;

	if (access < 0) {
		GEN_FAIL(p);
		return -1;
	}
	e = gen_e_new(p, GEN_OP_LOAD, -1, -1);
	if (e >= 0)
		p->exprs[e].access = access;
	return e;
}

int gen_e_const(struct gen_prog *p, const char *literal)
{
	int e = gen_e_new(p, GEN_OP_CONST, -1, -1);

	if (e >= 0)
		p->exprs[e].literal = literal;
	return e;
}

int gen_is_float(const struct gen_prog *p)
{
	return p->type != pearl_gen_type_i32;
}

/* Literals. Floats are written so that f32 and f64 parse them alike. */
const char *const gen_f_small[] = { "0.5", "0.25", "0.75", "0.125" };
const char *const gen_f_large[] = { "1.5", "2.0", "3.0", "1.25" };
static const char *const f_div[] = { "2.0", "3.0", "4.0", "5.0", "7.0" };
const char *const gen_i_mul[] = { "2", "3", "5", "7", "-1" };
static const char *const i_div[] = { "2", "3", "4", "5", "7" };
static const char *const i_rem[] = { "7", "13", "64", "1000" };
const char *const gen_i_shr[] = { "1", "2", "3" };
static const char *const n_float[] = { "1.0", "2.0", "3.0", "4.0", "5.0",
	"6.0", "7.0", "8.0", "9.0", "10.0", "11.0", "12.0" };
static const char *const n_int[] = { "1", "2", "3", "4", "5", "6", "7",
	"8", "9", "10", "11", "12" };

const char *gen_zero_literal(const struct gen_prog *p)
{
	return gen_is_float(p) ? "0.0" : "0";
}

int gen_e_bin(struct gen_prog *p, enum gen_op op, int a, int b)
{
	return gen_e_new(p, op, a, b);
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

int gen_maybe_scale(struct gen_prog *p, int x)
{
	const char *c;

	if (!gen_chance(&p->rng, EXPR_SCALE))
		return x;
	if (gen_is_float(p))
		c = gen_chance(&p->rng, EXPR_SCALE_SMALL) ? LIT(p, gen_f_small)
							  : LIT(p, gen_f_large);
	else
		c = LIT(p, gen_i_mul);
	return gen_e_bin(p, GEN_OP_MUL, x, gen_e_const(p, c));
}

int gen_combine_bounded(struct gen_prog *p, const int *leaves, int n)
{
	enum gen_op fold = GEN_OP_ADD;
	int i, e = leaves[0], sh;

	if (n > 1 && gen_chance(&p->rng, EXPR_BOUNDED_MAX_MIN))
		fold = gen_chance(&p->rng, EXPR_BOUNDED_MAX) ? GEN_OP_MAX
							     : GEN_OP_MIN;
	for (i = 1; i < n; ++i)
		e = gen_e_bin(p, fold, e, leaves[i]);
	if (fold != GEN_OP_ADD || n < 2)
		return e;
	if (n > N_OF(n_float))
		n = N_OF(n_float);
	if (gen_is_float(p)) {
		if (gen_chance(&p->rng, EXPR_BOUNDED_DIV))
			return gen_e_bin(p, GEN_OP_DIV, e,
					 gen_e_const(p, n_float[n - 1]));
		return gen_e_bin(p, GEN_OP_MUL, e,
				 gen_e_const(p, n <= 2   ? "0.5"
						: n <= 4 ? "0.25"
						: n <= 8 ? "0.125"
							 : "0.0625"));
	}
	if (gen_chance(&p->rng, EXPR_BOUNDED_INT_DIV))
		return gen_e_bin(p, GEN_OP_DIV, e,
				 gen_e_const(p, n_int[n - 1]));
	for (sh = 0; (1 << sh) < n; ++sh)
		;
	return gen_e_bin(p, GEN_OP_SHR, e, gen_e_const(p, n_int[sh - 1]));
}

/* A random expression over the leaves (in order). */
static int combine_free(struct gen_prog *p, const int *leaves, int n)
{
	static const int w[] = { 40, 15, 30, 6, 5, 4 };
	static const enum gen_op ops[] = { GEN_OP_ADD, GEN_OP_SUB, GEN_OP_MUL,
		GEN_OP_MAX, GEN_OP_MIN, GEN_OP_SELECT };
	int i, e = gen_maybe_scale(p, leaves[0]);

	for (i = 1; i < n; ++i) {
		/* one draw per statement: the order of evaluation of function
		 * arguments is unspecified */
		enum gen_op op = ops[gen_pick(&p->rng, w, N_OF(w))];
		int x = gen_maybe_scale(p, leaves[i]);

		e = gen_e_bin(p, op, e, x);
	}
	if (gen_is_float(p)) {
		if (gen_chance(&p->rng, EXPR_SQRT))
			e = gen_e_new(p, GEN_OP_SQRT, e, -1);
		else if (gen_chance(&p->rng, EXPR_ABS))
			e = gen_e_new(p, GEN_OP_ABS, e, -1);
		if (gen_chance(&p->rng, EXPR_FLOAT_DIV))
			e = gen_e_bin(p, GEN_OP_DIV, e,
				      gen_e_const(p, LIT(p, f_div)));
		if (gen_chance(&p->rng, EXPR_NEG))
			e = gen_e_new(p, GEN_OP_NEG, e, -1);
	} else {
		if (gen_chance(&p->rng, EXPR_INT_DIV))
			e = gen_e_bin(p, GEN_OP_DIV, e,
				      gen_e_const(p, LIT(p, i_div)));
		else if (gen_chance(&p->rng, EXPR_INT_REM))
			e = gen_e_bin(p, GEN_OP_REM, e,
				      gen_e_const(p, LIT(p, i_rem)));
		else if (gen_chance(&p->rng, EXPR_INT_SHR))
			e = gen_e_bin(p, GEN_OP_SHR, e,
				      gen_e_const(p, LIT(p, gen_i_shr)));
	}
	return e;
}

int gen_combine(struct gen_prog *p, const int *leaves, int n, int bounded)
{
	if (n < 1) {
		GEN_FAIL(p);
		return -1;
	}
	return bounded ? gen_combine_bounded(p, leaves, n)
		       : combine_free(p, leaves, n);
}

int gen_stmt_new(struct gen_prog *p, int parent, int depth, int write, int expr,
		 int in_else)
{
	int s;

	if (write < 0 || expr < 0) {
		GEN_FAIL(p);
		return -1;
	}
	s = gen_node_new(p, GEN_NODE_STMT, depth);
	if (s < 0)
		return -1;
	p->nodes[s].write = write;
	p->nodes[s].expr = expr;
	gen_add_child(p, parent, s, in_else);
	return s;
}

int gen_random_dim(struct gen_prog *p)
{
	return gen_below(&p->rng, p->n_dims);
}

int gen_time_steps(struct gen_prog *p)
{
	return p->scale == pearl_gen_scale_small ? 2 + gen_below(&p->rng, 2)
						 : 2 + gen_below(&p->rng, 7);
}

void gen_shuffle(struct gen_prog *p, int *v, int n)
{
	int i, j, t;

	for (i = n - 1; i > 0; --i) {
		j = gen_below(&p->rng, i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}
