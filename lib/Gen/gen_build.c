/*
 * lib/Gen/gen_build.c - the random structure of a program: its outline
 * (element type, sizes, the nests and their kinds), each nest then drawn
 * by its kind's grammar (gen_elementwise.c, gen_stencil.c,
 * gen_reduction.c, gen_contraction.c) or the whole program by its family's
 * (gen_matvec.c, gen_sweep.c), from the pieces of gen_builder.c
 * (gen_build.h).
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
 * (gen_build_matvec: 2-3 nests over one matrix, as PolyBench's atax,
 * bicg, gemver, gesummv and mvt); sweep its own (gen_build_sweep:
 * 2-3 fields of one shape (three 500 when the nests can write them all),
 * rank 1-3 (20:55:25), updated in turn by 2-4 nests (25:35:40), all in a
 * time loop 800; a boundary row copy first 300 (rank >= 2); each update
 * reads its own centre 600, another field by a star 350 (else a one-sided
 * difference), a third field 450; loops shuffled 250); doitgen one
 * doitgen nest (build_doitgen: a sum row shared by every (r, q) 700, with
 * its init and copy-back loop, else the "any" family's 3-d sum; C4 read
 * transposed 250).
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

#include "gen_build.h"

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
		gen_build_matvec(p);
		return;
	}
	if (p->family == pearl_gen_family_sweep) {
		gen_build_sweep(p);
		return;
	}
	n = 1 + gen_pick(&p->rng, nest_w, N_OF(nest_w));
	if (gen_one_matmul(p) || p->family == pearl_gen_family_doitgen)
		n = 1;
	if (p->family == pearl_gen_family_chain)
		n = gen_chain_nests(p);
	for (i = 0; i < n && !p->full; ++i) {
		struct gen_nest *nest = &p->nests[i];

		k = gen_pick(&p->rng, kind_w, N_OF(kind_w));
		if (gen_only_matmuls(p) ||
		    p->family == pearl_gen_family_doitgen)
			k = pearl_gen_kind_contraction;
		nest->kind = (enum pearl_gen_kind)k;
		nest->desc[0] = '\0';
		p->n_nests = i;	/* the nest being built, for array writers */
		switch (nest->kind) {
		case pearl_gen_kind_elementwise:
			nest->root = gen_build_elementwise(p, i, nest->desc);
			break;
		case pearl_gen_kind_stencil:
			nest->root = gen_build_stencil(p, i, nest->desc);
			break;
		case pearl_gen_kind_reduction:
			nest->root = gen_build_reduction(p, i, nest->desc);
			break;
		default:
			nest->root = gen_build_contraction(p, i, nest->desc);
			break;
		}
		if (nest->root < 0)
			GEN_FAIL(p);
	}
	p->n_nests = n;
	if (n > 1)
		p->features |= pearl_gen_f_multi_nest;
}
