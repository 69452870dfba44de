/*
 * lib/Gen/gen_sweep.c - the sweep family's programs: fields of one shape updated in
 * turn by stencil nests, as PolyBench's fdtd-2d, jacobi and heat-3d
 * (pearl/gen.h).
 */
#include <stdio.h>
#include <string.h>

#include "gen_build.h"

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
		gen_shuffle(p, order, rank);
		DESC(" (permuted)");
	}
	*root = -1;
	for (k = 0; k < rank; ++k) {
		int a = order[k];
		int l = gen_loop_dim(p, parent, s->t0 + k, s->dims[a], lo[a],
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
		idx[a] = gen_aff_it(lev[a], 0);
	idx[0] = gen_aff_k(1);
	x = gen_e_load(p, gen_access_new(p, s->field[w], idx, 0));
	idx[0] = gen_aff_k(0);
	gen_stmt_new(p, parent, s->t0 + s->r - 1,
		     gen_access_new(p, s->field[w], idx, 1), x, 0);
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
			idx[a] = gen_aff_it(lev[a], rd.off[k][a]);
		leaves[k] =
		    gen_e_load(p, gen_access_new(p, rd.array[k], idx, 0));
	}
	gen_stmt_new(p, parent, s->t0 + s->r,
		     gen_access_levels(p, s->field[w], lev, 1),
		     gen_combine_bounded(p, leaves, rd.n), 0);
	if (in_place) {
		p->arrays[s->field[w]].in_place = 1;
		p->features |= pearl_gen_f_in_place;
	}
	return root;
}

void gen_build_sweep(struct gen_prog *p)
{
	static const int rank_w[] = { 20, 55, 25 };
	static const int nests_w[] = { 25, 35, 40 };	/* 2, 3 or 4 */
	struct sweep s;
	int n, i, a, boundary, use_t;
	char *desc;

	memset(&s, 0, sizeof(s));
	s.r = 1 + gen_pick(&p->rng, rank_w, N_OF(rank_w));
	for (a = 0; a < s.r; ++a) {
		s.dims[a] = gen_random_dim(p);
		gen_need_dim(p, s.dims[a], 5);
	}
	n = 2 + gen_pick(&p->rng, nests_w, N_OF(nests_w));
	boundary = s.r >= 2 && gen_chance(&p->rng, SWEEP_BOUNDARY);
	s.n_fields = 2;
	if (n - boundary >= 3 && gen_chance(&p->rng, SWEEP_THREE_FIELDS))
		s.n_fields = 3;
	if (n - boundary < s.n_fields)
		n = s.n_fields + boundary;
	for (i = 0; i < s.n_fields; ++i)
		s.field[i] = gen_array_new(p, s.r, s.dims);
	use_t = gen_chance(&p->rng, SWEEP_TIME_LOOP);
	s.time = -1;
	p->n_nests = 0;
	if (use_t) {
		s.time =
		    gen_loop_const(p, -1, 0, gen_time_steps(p), GEN_ROLE_TIME);
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
