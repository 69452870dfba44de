/*
 * lib/Gen/gen_stencil.c - the stencil nest: star or box points of radius 1-2, out of
 * place, Jacobi or Gauss-Seidel in a time loop (the grammar in gen_build.c).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"

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
		s->src = gen_chain_any(p, s->nest, 1, 3);
	if (s->src >= 0) {
		s->r = p->arrays[s->src].rank;
		memcpy(s->dims, p->arrays[s->src].dim, sizeof(s->dims));
		p->features |= pearl_gen_f_chain;
	} else {
		s->r = 1 + gen_pick(&p->rng, rank_w, N_OF(rank_w));
		for (a = 0; a < s->r; ++a)
			s->dims[a] = gen_random_dim(p);
		s->src = gen_array_new(p, s->r, s->dims);
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
		gen_need_dim(p, s->dims[a], 2 * s->rad + 3);
	}
}

/* The affine.if keeping the points in bounds, in `parent` (loops over
 * the whole sizes): rad <= i_a < D - rad on every axis. */
static int stencil_guard(struct gen_prog *p, const struct stencil *s,
			 int parent)
{
	int a, g = gen_node_new(p, GEN_NODE_IF, s->t0 + s->r);

	if (g >= 0) {
		for (a = 0; a < s->r; ++a) {
			struct gen_aff lo = gen_aff_it(s->lev[a], -s->rad);
			struct gen_aff hi = gen_aff_d(s->dims[a], -1 - s->rad);

			hi.coef[s->lev[a]] = -1;
			p->nodes[g].cond[2 * a] = lo;
			p->nodes[g].cond[2 * a + 1] = hi;
		}
		p->nodes[g].n_cond = 2 * s->r;
	}
	gen_add_child(p, parent, g, 0);
	p->features |= pearl_gen_f_if;
	return g;
}

/* The space loops of one sweep (shrunk by the radius unless guarded) in
 * the time loop if any, and the guard; returns the statements' place. */
static int stencil_sweep_loops(struct gen_prog *p, struct stencil *s)
{
	int a, loop, parent = s->root, m = s->guard ? 0 : s->rad;

	for (a = 0; a < s->r; ++a) {
		loop = gen_loop_dim(p, parent, s->t0 + a, s->dims[a], m, m,
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
			idx[a] = gen_aff_it(s->lev[a], s->off[k][a]);
		leaves[k] = gen_e_load(p, gen_access_new(p, from, idx, 0));
	}
	k = s->n_off;
	bounded = s->variant != PLAIN || gen_chance(&p->rng, STENCIL_BOUNDED);
	if (s->variant == PLAIN && gen_chance(&p->rng, STENCIL_COEFFICIENTS)) {
		int coef = gen_input_array(p, s->nest, s->r, s->dims,
					   STENCIL_COEFFICIENTS_CHAIN);
		int c = gen_e_load(p, gen_access_levels(p, coef, s->lev, 0));
		int sum = gen_combine(p, leaves, k, bounded);

		DESC(", coefficient array");
		return gen_e_bin(p, GEN_OP_MUL, sum, c);
	}
	return gen_combine(p, leaves, k, bounded);
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
		to = gen_array_new(p, r, s->dims);
		s->other = to;
	} else {
		from = s->other;
		to = s->src;
	}
	stmt_parent = stencil_sweep_loops(p, s);
	expr = stencil_expr(p, s, from, desc);
	gen_stmt_new(p, stmt_parent, t0 + r,
		     gen_access_levels(p, to, s->lev, 1), expr, 0);
	if (s->guard) {
		/* boundary: copy */
		int x = gen_e_load(p, gen_access_levels(p, from, s->lev, 0));

		gen_stmt_new(p, stmt_parent, t0 + r,
			     gen_access_levels(p, to, s->lev, 1), x, 1);
		DESC(", boundary by affine.if/else");
	}
	if (s->variant == SEIDEL) {
		p->arrays[s->src].in_place = 1;
		p->features |= pearl_gen_f_in_place;
	}
}

int gen_build_stencil(struct gen_prog *p, int nest, char *desc)
{
	struct stencil s = { .nest = nest, .src = -1, .root = -1, .other = -1 };
	int i;

	stencil_choose_input(p, &s);
	stencil_choose_points(p, &s);
	stencil_choose_variant(p, &s);
	DESC("stencil: rank %d, %d points%s", s.r, s.n_off,
	     s.box ? " (box)" : "");
	if (s.use_t) {
		s.root =
		    gen_loop_const(p, -1, 0, gen_time_steps(p), GEN_ROLE_TIME);
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
