/*
 * lib/Gen/gen_matvec.c - the matrix-vector family's programs: 2-3 nests over one
 * matrix, as PolyBench's atax, bicg, gemver, gesummv and mvt (pearl/gen.h).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"

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
	return gen_input_array(p, nest, 1, &dim, MATVEC_X_CHAIN);
}

/* acc[lev] + a * b, stored to acc[lev], in `parent` at depth 2. */
static void matvec_accumulate(struct gen_prog *p, int parent, int acc,
			      const int *acc_lev, int a, int b)
{
	int v = gen_e_bin(p, GEN_OP_ADD,
			  gen_e_load(p, gen_access_levels(p, acc, acc_lev, 0)),
			  gen_e_bin(p, GEN_OP_MUL, a, b));

	gen_stmt_new(p, parent, 2, gen_access_levels(p, acc, acc_lev, 1), v, 0);
}

/* vec[i] = 0 in `parent` (the i loop), before the j loop. */
static void matvec_zero(struct gen_prog *p, int parent, int vec)
{
	static const int lev0[1] = { 0 };

	gen_stmt_new(p, parent, 1, gen_access_levels(p, vec, lev0, 1),
		     gen_e_const(p, gen_zero_literal(p)), 0);
	p->features |= pearl_gen_f_imperfect;
}

/* A[i][j] = A[i][j] + u[i] v[j] (+ u2[i] v2[j]): gemver's first nest. */
static int matvec_rank1(struct gen_prog *p, const struct matvec *m,
			char *desc)
{
	static const int lev_ij[2] = { 0, 1 }, lev_i[1] = { 0 },
			 lev_j[1] = { 1 };
	int n = gen_chance(&p->rng, MATVEC_RANK1_TWO) ? 2 : 1, t, v, i, j;

	i = gen_loop_dim(p, -1, 0, m->rows, 0, 0, GEN_ROLE_SPACE);
	j = gen_loop_dim(p, i, 1, m->cols, 0, 0, GEN_ROLE_SPACE);
	v = gen_e_load(p, gen_access_levels(p, m->A, lev_ij, 0));
	for (t = 0; t < n; ++t) {
		int u = gen_array_new(p, 1, &m->rows),
		    w = gen_array_new(p, 1, &m->cols);

		v = gen_e_bin(
		    p, GEN_OP_ADD, v,
		    gen_e_bin(p, GEN_OP_MUL,
			      gen_e_load(p, gen_access_levels(p, u, lev_i, 0)),
			      gen_e_load(p,
					 gen_access_levels(p, w, lev_j, 0))));
	}
	gen_stmt_new(p, j, 2, gen_access_levels(p, m->A, lev_ij, 1), v, 0);
	p->features |= pearl_gen_f_broadcast | pearl_gen_f_in_place;
	DESC("matvec: A += %s", n == 2 ? "u1 v1^T + u2 v2^T" : "u v^T");
	return i;
}

/* x[i] = x[i] + c z[i] on an earlier nest's output x; -1 if none. */
static int matvec_axpy(struct gen_prog *p, int nest, char *desc)
{
	static const int lev_i[1] = { 0 };
	int x = gen_chain_any(p, nest, 1, 1), z, i, v;

	if (x < 0)
		return -1;
	z = gen_array_new(p, 1, p->arrays[x].dim);
	i = gen_loop_dim(p, -1, 0, p->arrays[x].dim[0], 0, 0, GEN_ROLE_SPACE);
	v = gen_e_bin(p, GEN_OP_ADD,
		      gen_e_load(p, gen_access_levels(p, x, lev_i, 0)),
		      gen_maybe_scale(
			  p, gen_e_load(p, gen_access_levels(p, z, lev_i, 0))));
	gen_stmt_new(p, i, 1, gen_access_levels(p, x, lev_i, 1), v, 0);
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

	i = gen_loop_dim(p, -1, 0, di, 0, 0,
			 k == MATVEC_MVT_ROWS ? GEN_ROLE_REDUCTION
					      : GEN_ROLE_SPACE);
	/* the vectors read and written, then the loop over j */
	switch (k) {
	case MATVEC_MV:
	case MATVEC_MVT_COLS:
		x = matvec_input(p, nest, dj);
		y = gen_array_new(p, 1, &di);
		if (init)
			matvec_zero(p, i, y);
		j = gen_loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_REDUCTION);
		a = gen_e_load(p, gen_access_levels(p, m->A,
						    k == MATVEC_MV ? lev_ij
								   : lev_ji,
						    0));
		matvec_accumulate(p, j, y, lev_i, a,
				  gen_e_load(p, gen_access_levels(p, x, lev_j,
								  0)));
		if (k == MATVEC_MVT_COLS)
			p->features |= pearl_gen_f_transpose;
		break;
	case MATVEC_MVT_ROWS:
		x = matvec_input(p, nest, di);
		y = gen_array_new(p, 1, &dj);
		j = gen_loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_SPACE);
		a = gen_e_load(p, gen_access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y, lev_j,
				  gen_e_load(p,
					     gen_access_levels(p, x, lev_i, 0)),
				  a);
		break;
	case MATVEC_BICG:
		x = matvec_input(p, nest, di);	/* r */
		x2 = matvec_input(p, nest, dj);	/* p */
		y = gen_array_new(p, 1, &dj);   /* s */
		y2 = gen_array_new(p, 1, &di);  /* q */
		if (init)
			matvec_zero(p, i, y2);
		j = gen_loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_SPACE);
		a = gen_e_load(p, gen_access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y, lev_j,
				  gen_e_load(p,
					     gen_access_levels(p, x, lev_i, 0)),
				  a);
		a = gen_e_load(p, gen_access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y2, lev_i, a,
				  gen_e_load(p, gen_access_levels(p, x2, lev_j,
								  0)));
		break;
	default: /* MATVEC_GESUMMV */
		x = matvec_input(p, nest, dj);
		y = gen_array_new(p, 1, &di);                  /* t */
		y2 = gen_array_new(p, 1, &di);                 /* y */
		x2 = gen_array_new(p, 2, p->arrays[m->A].dim); /* B */
		if (init) {
			matvec_zero(p, i, y);
			matvec_zero(p, i, y2);
		}
		j = gen_loop_dim(p, i, 1, dj, 0, 0, GEN_ROLE_REDUCTION);
		a = gen_e_load(p, gen_access_levels(p, m->A, lev_ij, 0));
		matvec_accumulate(p, j, y, lev_i, a,
				  gen_e_load(p, gen_access_levels(p, x, lev_j,
								  0)));
		a = gen_e_load(p, gen_access_levels(p, x2, lev_ij, 0));
		matvec_accumulate(p, j, y2, lev_i, a,
				  gen_e_load(p, gen_access_levels(p, x, lev_j,
								  0)));
		if (gen_chance(&p->rng, MATVEC_GESUMMV_POST)) {
			int v = gen_e_bin(
			    p, GEN_OP_ADD,
			    gen_maybe_scale(
				p, gen_e_load(p, gen_access_levels(p, y, lev_i,
								   0))),
			    gen_maybe_scale(
				p, gen_e_load(p, gen_access_levels(p, y2, lev_i,
								   0))));

			gen_stmt_new(p, i, 1,
				     gen_access_levels(p, y2, lev_i, 1), v, 0);
			p->features |= pearl_gen_f_imperfect;
			DESC(", post");
		}
		break;
	}
	return i;
}

void gen_build_matvec(struct gen_prog *p)
{
	static const int nests_w[] = { 55, 45 };	/* 2 or 3 */
	static const int kind_w[MATVEC_N_KINDS] = { 30, 20, 20, 15, 15, 10 };
	struct matvec m;
	int n, i;

	m.rows = gen_random_dim(p);
	m.cols = gen_random_dim(p);
	m.A = gen_array_new(p, 2, (int[2]){ m.rows, m.cols });
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
