/*
 * lib/Gen/gen_reduction.c - the reduction nest: sums or maxima over 1-2 reduced axes,
 * perhaps triangular, with init and finishing statements (the grammar in
 * gen_build.c).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"

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
		r->src = gen_chain_any(p, r->nest, 2, GEN_MAX_RANK);
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
			r->od[i] = gen_random_dim(p);
		for (i = 0; i < r->nr; ++i)
			r->rd[i] = gen_random_dim(p);
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
		r->src = gen_array_new(p, ro + nr, r->xdims);
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
	r->out = gen_array_new(p, r->ro, r->od);
}

/* out = 0 or out = c * out in `parent`, before the reduced loops. */
static void reduction_init_statement(struct gen_prog *p,
				     const struct reduction *r, int parent,
				     char *desc)
{
	int v;

	if (gen_chance(&p->rng, REDUCTION_INIT_ZERO)) {
		v = gen_e_const(p, gen_zero_literal(p));
	} else {
		v = gen_e_load(p, gen_access_levels(p, r->out, r->olev, 0));
		v = gen_e_bin(p, GEN_OP_MUL, v,
			      gen_e_const(p, gen_is_float(p)
						 ? LIT(p, gen_f_small)
						 : LIT(p, gen_i_mul)));
	}
	gen_stmt_new(p, parent, r->ro, gen_access_levels(p, r->out, r->olev, 1),
		     v, 0);
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

		DESC(", triangular i%d %s i%d", l, gen_tri_name[r->tri], ref);
		return gen_loop_tri(p, parent, l, r->ldim[l], ref, r->tri,
				    role);
	}
	return gen_loop_dim(p, parent, l, r->ldim[l], 0, 0, role);
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
	int x = gen_e_load(p, gen_access_levels(p, r->src, r->xlev, 0)),
	    term = x;

	if (r->operand == OPERAND_WEIGHTS) {
		int wv = gen_input_array(p, r->nest, r->nr, r->rd,
					 REDUCTION_WEIGHTS_CHAIN);

		term = gen_e_bin(p, GEN_OP_MUL, x,
				 gen_e_load(p, gen_access_levels(p, wv, r->rlev,
								 0)));
		DESC(", weights");
	} else if (r->operand == OPERAND_SECOND_INPUT) {
		int x2 = gen_input_array(p, r->nest, r->ro + r->nr, r->xdims,
					 REDUCTION_SECOND_INPUT_CHAIN);
		int leaves[2];

		leaves[0] = x;
		leaves[1] = gen_e_load(p, gen_access_levels(p, x2, r->xlev, 0));
		term = gen_combine(p, leaves, 2, 0);
	}
	if (gen_chance(&p->rng, REDUCTION_SCALED))
		term = gen_maybe_scale(p, term);
	return term;
}

/* out = sqrt(out) or c * out (floats), out >> c (i32) after the reduced
 * loops, in the innermost output loop. */
static void reduction_finish_statement(struct gen_prog *p,
				       const struct reduction *r, char *desc)
{
	int v = gen_e_load(p, gen_access_levels(p, r->out, r->olev, 0)), host;

	if (gen_is_float(p))
		v = gen_chance(&p->rng, REDUCTION_FINISH_SQRT)
			? gen_e_new(p, GEN_OP_SQRT, v, -1)
			: gen_e_bin(p, GEN_OP_MUL, v,
				    gen_e_const(p, LIT(p, gen_f_small)));
	else
		v = gen_e_bin(p, GEN_OP_SHR, v,
			      gen_e_const(p, LIT(p, gen_i_shr)));
	host = r->ro >= 1 ? r->loops[r->ro - 1] : -1;
	gen_stmt_new(p, host, r->ro, gen_access_levels(p, r->out, r->olev, 1),
		     v, 0);
	p->features |= pearl_gen_f_imperfect;
	DESC(", finish");
}

int gen_build_reduction(struct gen_prog *p, int nest, char *desc)
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
	upd = gen_e_bin(p, r.is_max ? GEN_OP_MAX : GEN_OP_ADD,
			gen_e_load(p, gen_access_levels(p, r.out, r.olev, 0)),
			term);
	gen_stmt_new(p, r.inner, r.ro + r.nr,
		     gen_access_levels(p, r.out, r.olev, 1), upd, 0);
	if (r.post)
		reduction_finish_statement(p, &r, desc);
	if (r.red_first)
		DESC(", reduced axes first");
	return r.root;
}
