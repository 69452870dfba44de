/*
 * lib/Gen/gen_contraction.c - the contraction nest: matmul (the matmul, gemm and chain
 * families too), batched matmul, doitgen and convolution (the grammar in
 * gen_build.c).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"

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
	DOITGEN_SHARED = 700,		/* family doitgen: one sum row for all
					 * (r, q), as PolyBench's */
	DOITGEN_C4_T = 250,		/* family doitgen: C4[p][s] */
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
			loops[l] = gen_loop_tri(p, parent, depth0 + l, ldim[l],
						depth0 + tri_ref, tri, role[l]);
		else if (ldim[l] < 0)
			loops[l] = gen_loop_const(p, parent, depth0 + l,
						  lconst[l], role[l]);
		else
			loops[l] = gen_loop_dim(p, parent, depth0 + l, ldim[l],
						0, lconst[l], role[l]);
		if (root < 0)
			root = loops[l];
		parent = loops[l];
	}
	return root;
}

int gen_one_matmul(const struct gen_prog *p)
{
	return p->family == pearl_gen_family_matmul ||
	       p->family == pearl_gen_family_gemm;
}

int gen_only_matmuls(const struct gen_prog *p)
{
	return gen_one_matmul(p) || p->family == pearl_gen_family_chain;
}

int gen_chain_nests(struct gen_prog *p)
{
	return gen_chance(&p->rng, CHAIN_THIRD_NEST) ? 3 : 2;
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
	m->dI = gen_random_dim(p);
	m->dJ = gen_random_dim(p);
	m->dK = gen_random_dim(p);
	if (m->batched)
		m->dB = gen_random_dim(p);
	m->a_t = !m->batched && gen_chance(&p->rng, MATMUL_A_TRANSPOSED);
	if (!m->batched && m->nest > 0 && gen_chance(&p->rng, a_chain)) {
		m->A = gen_chain_any(p, m->nest, 2, 2);
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
		m->A = gen_array_new(p, m->na, m->adims);
	m->B = m->b_is_a ? m->A
			 : gen_input_array(p, m->nest, m->nb, m->bdims,
					   MATMUL_B_CHAIN);
	m->C = gen_array_new(p, m->na, m->cdims);
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
		v = gen_e_const(p, gen_zero_literal(p));
	} else {
		v = gen_e_load(p, gen_access_levels(p, m->C, clev, 0));
		v = gen_e_bin(p, GEN_OP_MUL, v,
			      gen_e_const(p, gen_is_float(p)
						 ? LIT(p, gen_f_large)
						 : LIT(p, gen_i_mul)));
	}
	gen_stmt_new(p, parent, m->b0 + 2, gen_access_levels(p, m->C, clev, 1),
		     v, 0);
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
		l = gen_loop_tri(p, outer, 1, dim, 0, m->tri, GEN_ROLE_SPACE);
	else
		l = gen_loop_dim(p, outer, 1, dim, 0, 0, GEN_ROLE_SPACE);
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

	x = gen_e_load(p, gen_access_levels(p, m->A, m->alev, 0));
	y = gen_e_load(p, gen_access_levels(p, m->B, m->blev, 0));
	term = gen_e_bin(p, GEN_OP_MUL, x, y);
	if (gen_chance(&p->rng, MATMUL_ALPHA))
		term = gen_e_bin(p, GEN_OP_MUL, term,
				 gen_e_const(p, gen_is_float(p)
						    ? LIT(p, gen_f_large)
						    : LIT(p, gen_i_mul)));
	c_load = gen_e_load(p, gen_access_levels(p, m->C, m->clev, 0));
	gen_stmt_new(p, m->loops[m->b0 + 2], m->b0 + 3,
		     gen_access_levels(p, m->C, m->clev, 1),
		     gen_e_bin(p, GEN_OP_ADD, c_load, term), 0);
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
		     gen_tri_name[m->tri], m->b0 + m->tri_ref);
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
 * The loops r, q, p, s; `dims` are the sizes of r, q and s (= p). With
 * `shared`, S is the 1-d row sum[p] (PolyBench's), reused by every (r, q);
 * with `c4_t`, C4 is read as C4[p][s]. */
static int doitgen_emit(struct gen_prog *p, const int *dims, int A, int C4,
			int S, int init, int copy, int shared, int c4_t)
{
	static const int slev3[3] = { 0, 1, 2 }, slev1[1] = { 2 };
	static const int alev[3] = { 0, 1, 3 }, wlev[3] = { 0, 1, 2 };
	static const int clev_n[2] = { 3, 2 }, clev_t[2] = { 2, 3 };
	const int *slev = shared ? slev1 : slev3;
	const int *clev = c4_t ? clev_t : clev_n;
	int d4[4] = { dims[0], dims[1], dims[2], dims[2] };
	int c4[4] = { 0, 0, 0, 0 }, loops[GEN_MAX_DEPTH], root, x, y, v;
	enum gen_loop_role r4[4] = { GEN_ROLE_SPACE, GEN_ROLE_SPACE,
		GEN_ROLE_SPACE, GEN_ROLE_REDUCTION };

	root = loop_chain(p, -1, 0, 3, d4, c4, r4, -1, -1, -1, loops);
	if (init) {
		gen_stmt_new(p, loops[2], 3, gen_access_levels(p, S, slev, 1),
			     gen_e_const(p, gen_zero_literal(p)), 0);
		p->features |= pearl_gen_f_imperfect;
	}
	loop_chain(p, loops[2], 3, 1, d4 + 3, c4, r4 + 3, -1, -1, -1,
		   loops + 3);
	x = gen_e_load(p, gen_access_levels(p, A, alev, 0));
	y = gen_e_load(p, gen_access_levels(p, C4, clev, 0));
	v = gen_e_load(p, gen_access_levels(p, S, slev, 0));
	v = gen_e_bin(p, GEN_OP_ADD, v, gen_e_bin(p, GEN_OP_MUL, x, y));
	gen_stmt_new(p, loops[3], 4, gen_access_levels(p, S, slev, 1), v, 0);
	if (copy) {
		int l2 =
		    gen_loop_dim(p, loops[1], 2, dims[2], 0, 0, GEN_ROLE_SPACE);

		gen_stmt_new(p, l2, 3, gen_access_levels(p, A, wlev, 1),
			     gen_e_load(p, gen_access_levels(p, S, slev, 0)),
			     0);
		p->features |= pearl_gen_f_imperfect;
	}
	return root;
}

/* doitgen's sizes and arrays (A perhaps an earlier nest's output), then
 * its loops and statements. */
static int build_doitgen(struct gen_prog *p, int nest, char *desc)
{
	int dims[3], cdims[2], A = -1, C4, S, init, copy, root, i;
	int shared = 0, c4_t = 0;

	for (i = 0; i < 3; ++i)
		dims[i] = gen_random_dim(p);
	if (nest > 0 && gen_chance(&p->rng, DOITGEN_CHAIN)) {
		A = gen_chain_any(p, nest, 3, 3);
		if (A >= 0) {
			for (i = 0; i < 3; ++i)
				dims[i] = p->arrays[A].dim[i];
			p->features |= pearl_gen_f_chain;
		}
	}
	cdims[0] = cdims[1] = dims[2];
	if (A < 0)
		A = gen_array_new(p, 3, dims);
	C4 = gen_input_array(p, nest, 2, cdims, DOITGEN_C4_CHAIN);
	if (p->family == pearl_gen_family_doitgen) {
		/* drawn only here: the "any" family's programs stay as they
		 * were */
		shared = gen_chance(&p->rng, DOITGEN_SHARED);
		c4_t = gen_chance(&p->rng, DOITGEN_C4_T);
	}
	S = shared ? gen_array_new(p, 1, dims + 2) : gen_array_new(p, 3, dims);
	init = gen_chance(&p->rng, DOITGEN_INIT);
	copy = gen_chance(&p->rng, DOITGEN_COPY);
	if (shared)
		init = copy = 1; /* a shared row is a temporary: both needed */
	root = doitgen_emit(p, dims, A, C4, S, init, copy, shared, c4_t);
	p->features |= pearl_gen_f_batched;
	DESC("contraction: doitgen%s%s%s%s", shared ? ", shared sum row" : "",
	     init ? ", init" : "", copy ? ", copy-back loop" : "",
	     c4_t ? ", C4 transposed" : "");
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
	c->dc = gen_random_dim(p);
	c->di = gen_random_dim(p);
	c->dj = gen_random_dim(p);
	c->in = -1;
	if (c->nest > 0 && gen_chance(&p->rng, CONV_CHAIN)) {
		c->in = gen_chain_any(p, c->nest, 2 + c->c0, 2 + c->c0);
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
		c->in = gen_array_new(p, n, idims);
	c->out = gen_array_new(p, n, idims);
	c->w = gen_array_new(p, n, wdims);
	gen_need_dim(p, c->di, c->R + 3);
	gen_need_dim(p, c->dj, c->R + 3);
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
		gen_stmt_new(p, parent, c0 + 2,
			     gen_access_levels(p, c->out, c->olev, 1),
			     gen_e_const(p, gen_zero_literal(p)), 0);
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
		idx[n] = gen_aff_it(0, 0);
		wlev[n++] = 0;
	}
	idx[n] = gen_aff_it(c->lvi, 0);
	idx[n++].coef[c->lvr] = 1;
	idx[n] = gen_aff_it(c->lvj, 0);
	idx[n++].coef[c->lvs] = 1;
	wlev[n - 2] = c->lvr;
	wlev[n - 1] = c->lvs;
	x = gen_e_load(p, gen_access_new(p, c->in, idx, 0));
	y = gen_e_load(p, gen_access_levels(p, c->w, wlev, 0));
	v = gen_e_load(p, gen_access_levels(p, c->out, c->olev, 0));
	v = gen_e_bin(p, GEN_OP_ADD, v, gen_e_bin(p, GEN_OP_MUL, x, y));
	gen_stmt_new(p, c->loops[nl - 1], nl,
		     gen_access_levels(p, c->out, c->olev, 1), v, 0);
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

int gen_build_contraction(struct gen_prog *p, int nest, char *desc)
{
	static const int var_w[] = { 45, 15, 15, 25 };
	enum { MATMUL, BATCHED, DOITGEN, CONV };
	int variant = gen_pick(&p->rng, var_w, N_OF(var_w));

	if (gen_only_matmuls(p))
		variant = MATMUL;
	if (p->family == pearl_gen_family_doitgen)
		variant = DOITGEN;

	if (variant == MATMUL || variant == BATCHED)
		return build_matmul(p, nest, variant == BATCHED, desc);
	if (variant == DOITGEN)
		return build_doitgen(p, nest, desc);
	return build_convolution(p, nest, desc);
}
