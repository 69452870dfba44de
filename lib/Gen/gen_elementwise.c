/*
 * lib/Gen/gen_elementwise.c - the elementwise nest: out[x] = f(in[x], ...) over rank 1-4,
 * perhaps transposed, guarded, triangular or banded, in a time loop or in
 * place (the grammar in gen_build.c).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"

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
		e->src = gen_chain_any(p, e->nest, 1, GEN_MAX_RANK);
	if (e->src >= 0) {
		e->r = p->arrays[e->src].rank;
		memcpy(e->dims, p->arrays[e->src].dim, sizeof(e->dims));
		p->features |= pearl_gen_f_chain;
	} else {
		e->r = 1 + gen_pick(&p->rng, rank_w, N_OF(rank_w));
		for (a = 0; a < e->r; ++a)
			e->dims[a] = gen_random_dim(p);
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
		gen_shuffle(p, e->perm, r);
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
	in = gen_input_array(p, e->nest, r - 1, tdims, ELEMENTWISE_PRE_CHAIN);
	lf[n++] = gen_e_load(p, gen_access_levels(p, in, tlev, 0));
	if (gen_chance(&p->rng, ELEMENTWISE_PRE_CONST))
		lf[n++] = gen_e_const(p, gen_is_float(p) ? LIT(p, gen_f_large)
							 : LIT(p, gen_i_mul));
	e->tmp = gen_array_new(p, r - 1, tdims);
	gen_stmt_new(p, parent, t0 + r - 1,
		     gen_access_levels(p, e->tmp, tlev, 1),
		     gen_combine(p, lf, n, 0), 0);
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

		loop = gen_loop_tri(p, parent, t0 + l, d, t0 + e->l1, tri,
				    GEN_ROLE_SPACE);
		DESC(", triangular i%d %s i%d", t0 + e->l2, gen_tri_name[tri],
		     t0 + e->l1);
	} else if (l == e->l2 && e->shape == SHAPE_BAND) {
		int wi = gen_below(&p->rng, 4);
		int w = p->scale == pearl_gen_scale_small ? 1 + wi : 4 << wi;

		loop = gen_loop_band(p, parent, t0 + l, d, t0 + e->l1, w,
				     GEN_ROLE_SPACE);
		DESC(", band %d", w);
	} else {
		loop = gen_loop_dim(p, parent, t0 + l, d, 0, 0, GEN_ROLE_SPACE);
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
	int g = gen_node_new(p, GEN_NODE_IF, e->t0 + e->r);

	if (g >= 0) {
		struct gen_aff c = gen_aff_it(e->t0 + e->l2, 0);

		c.coef[e->t0 + e->l1] = -1;
		if (gen_chance(&p->rng, ELEMENTWISE_GUARD_FLIPPED)) {
			c.coef[e->t0 + e->l2] = -1;
			c.coef[e->t0 + e->l1] = 1;
		}
		p->nodes[g].n_cond = 1;
		p->nodes[g].cond[0] = c;
	}
	gen_add_child(p, parent, g, 0);
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
		e->root =
		    gen_loop_const(p, -1, 0, gen_time_steps(p), GEN_ROLE_TIME);
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
		e->src = gen_array_new(p, e->r, e->dims);
	in_place = gen_chance(&p->rng,
			      p->arrays[e->src >= 0 ? e->src : 0].writer >= 0
				      ? ELEMENTWISE_IN_PLACE_CHAINED
				      : ELEMENTWISE_IN_PLACE);
	e->leaves[e->n_leaves++] =
	    gen_e_load(p, gen_access_levels(p, e->src, e->lev, 0));
	e->out = in_place ? e->src : gen_array_new(p, e->r, e->dims);
	if (e->use_t && !in_place)
		e->leaves[e->n_leaves++] =
		    gen_e_load(p, gen_access_levels(p, e->out, e->lev, 0));
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
	arr =
	    gen_input_array(p, e->nest, nb, bdims, ELEMENTWISE_BROADCAST_CHAIN);
	p->features |= pearl_gen_f_broadcast;
	return gen_e_load(p, gen_access_levels(p, arr, blev, 0));
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
		arr = gen_input_array(p, e->nest, e->r, e->dims,
				      ELEMENTWISE_SAME_CHAIN);
		e->leaves[e->n_leaves++] =
		    gen_e_load(p, gen_access_levels(p, arr, e->lev, 0));
	} else if (k == BROADCAST) {
		e->leaves[e->n_leaves++] = elementwise_broadcast_read(p, e);
	} else {
		arr = gen_input_array(p, e->nest, e->r, e->dims,
				      ELEMENTWISE_TRANSPOSE_CHAIN);
		e->leaves[e->n_leaves++] =
		    gen_e_load(p, gen_access_levels(p, arr, blev, 0));
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
		e->leaves[e->n_leaves++] =
		    gen_e_load(p, gen_access_levels(p, e->tmp, tlev, 0));
		DESC(", pre-statement");
	}
	expr = gen_combine(p, e->leaves, e->n_leaves, e->use_t);
	write = gen_access_levels(p, e->out, e->lev, 1);
	gen_stmt_new(p, e->stmt_parent, t0 + r, write, expr, 0);
	if (e->shape == SHAPE_GUARD && gen_chance(&p->rng, ELEMENTWISE_ELSE)) {
		int x = gen_e_load(p, gen_access_levels(p, e->src, e->lev, 0));

		x = gen_e_bin(p, GEN_OP_MUL, x,
			      gen_e_const(p, gen_is_float(p)
						 ? LIT(p, gen_f_small)
						 : LIT(p, gen_i_mul)));
		gen_stmt_new(p, e->stmt_parent, t0 + r,
			     gen_access_levels(p, e->out, e->lev, 1), x, 1);
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
	row = gen_array_new(p, r - 1, rdims);
	for (a = 0; a < r; ++a)
		idx[a] =
		    a == inner_axis ? gen_aff_k(0) : gen_aff_it(e->lev[a], 0);
	lf[0] =
	    gen_e_load(p, e->out >= 0 ? gen_access_new(p, e->out, idx, 0) : -1);
	lf[1] = gen_e_load(p, gen_access_levels(p, row, rlev, 0));
	gen_stmt_new(p, r >= 2 ? e->loops[r - 2] : -1, e->t0 + r - 1,
		     gen_access_levels(p, row, rlev, 1),
		     gen_combine(p, lf, 2, e->use_t), 0);
	DESC(", post-statement");
}

int gen_build_elementwise(struct gen_prog *p, int nest, char *desc)
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
