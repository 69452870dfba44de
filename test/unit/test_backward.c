/*
 * The training pass of the policy network (pearl/train.h): gradient checks
 * of every layer and of the whole network against central finite
 * differences of an independent double-precision implementation written
 * here, the tape forward against pearl_policy_eval (bit for bit), the
 * masked log-softmax and entropy, Adam (a quadratic, clipping, state
 * round trip), and a few hundred steps fitting the value head.
 *
 * Tolerances: the analytic gradients are computed in float, the reference
 * ones in double (central differences with step 1e-6 on a double forward:
 * truncation ~1e-12, rounding ~1e-10), so an analytic gradient g must
 * match the reference r within |g - r| <= RTOL |r| + ATOL s, with s the
 * largest |r| of its tensor (float sums of mixed-sign terms lose precision
 * relative to the tensor's scale, not to each tiny entry).
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "Policy/adjacency.h"
#include "Policy/nn.h"
#include "Policy/nn_grad.h"
#include "check.h"
#include "pearl/graph.h"
#include "pearl/policy.h"
#include "pearl/random.h"
#include "pearl/train.h"

#define RTOL 1e-3
#define ATOL 1e-4
#define FD_EPS 1e-6
#define SAMPLES 40 /* entries checked per large tensor */

/* ---- Random numbers ----------------------------------------------------- */

static uint64_t rng_state = 0x1234567u;

static uint64_t rng_next(void)
{
	return pearl_splitmix64(&rng_state);
}

/* Uniform in [lo, hi). */
static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * pearl_random_unit(&rng_state);
}

static void fill(float *v, size_t n, double lo, double hi)
{
	size_t i;

	for (i = 0; i < n; ++i)
		v[i] = (float)uniform(lo, hi);
}

/* ---- Comparison --------------------------------------------------------- */

/* The worst error of a tensor, normalized as in the tolerance. */
struct cmp {
	double worst; /* max |g - r| / (RTOL |r| + ATOL s), <= 1 passes */
	double max_rel; /* max |g - r| / max(|r|, ATOL s / RTOL) */
	int n;
};

static void cmp_add(struct cmp *c, double g, double r, double scale)
{
	double err = fabs(g - r);
	double tol = RTOL * fabs(r) + ATOL * scale + 1e-12;
	double rel = err / fmax(fabs(r), ATOL * scale / RTOL + 1e-12);

	if (err / tol > c->worst)
		c->worst = err / tol;
	if (rel > c->max_rel)
		c->max_rel = rel;
	c->n++;
}

static int verbose;

static void cmp_report(const struct cmp *c, const char *what, int layer)
{
	if (verbose || c->worst > 1.0) {
		if (layer >= 0)
			printf("  gat%d.%-8s", layer, what);
		else
			printf("  %-13s", what);
		printf(" %4d entries, max rel err %.2e%s\n", c->n, c->max_rel,
		       c->worst > 1.0 ? "  FAILED" : "");
	}
	CHECK(c->n > 0 && c->worst <= 1.0);
}

/* The indices of a tensor of n entries to check: all of a small one, else
 * the first, the last and random ones. */
static int pick(size_t *idx, size_t n)
{
	int k;

	if (n <= SAMPLES) {
		for (k = 0; k < (int)n; ++k)
			idx[k] = (size_t)k;
		return (int)n;
	}
	idx[0] = 0;
	idx[1] = n - 1;
	for (k = 2; k < SAMPLES; ++k)
		idx[k] = (size_t)(rng_next() % n);
	return SAMPLES;
}

/* ---- Double-precision reference layers ---------------------------------- */

static double selu_d(double x)
{
	return x > 0 ? 1.0507009873554805 * x
		     : 1.0507009873554805 * 1.6732632423543772 * expm1(x);
}

/* y[n, o] = x[n, i] w[i, o] + b[o] */
static void linear_d(double *y, const double *x, const double *w,
		     const double *b, int n, int d_in, int d_out)
{
	int r, k, o;

	for (r = 0; r < n; ++r)
		for (o = 0; o < d_out; ++o) {
			double s = b[o];
			for (k = 0; k < d_in; ++k)
				s += x[r * d_in + k] * w[k * d_out + o];
			y[r * d_out + o] = s;
		}
}

static void pool_d(double *pooled, const double *h, int n, int d)
{
	int r, c;

	for (c = 0; c < d; ++c) {
		double s = 0, m = h[c];
		for (r = 0; r < n; ++r) {
			s += h[r * d + c];
			m = fmax(m, h[r * d + c]);
		}
		pooled[c] = s / n;
		pooled[d + c] = m;
	}
}

/* A dense neighbourhood matrix: nb[i * n + j] = j sends to i (edges both
 * ways, self-loops). */
static unsigned char *neighbours(const struct pearl_graph *g)
{
	int n = g->n_nodes, i, k;
	unsigned char *nb = calloc((size_t)n * n, 1);

	if (!nb)
		return NULL;
	for (i = 0; i < n; ++i)
		nb[i * n + i] = 1;
	for (k = 0; k < g->n_edges; ++k) {
		nb[g->src[k] * n + g->dst[k]] = 1;
		nb[g->dst[k] * n + g->src[k]] = 1;
	}
	return nb;
}

/* One GATv2 layer in double: tensors w_src, b_src, w_dst, b_dst, att, bias
 * as separate arrays. */
struct gat_d {
	const double *w_src, *b_src, *w_dst, *b_dst, *att, *bias;
};

static void gatv2_d(double *out, const double *x, int n, int d_in,
		    const struct gat_d *g, int heads, int hidden,
		    const unsigned char *nb)
{
	int D = heads * hidden, i, j, k, c;
	double *xl = malloc(sizeof(double) * n * D);
	double *xr = malloc(sizeof(double) * n * D);
	double *e = malloc(sizeof(double) * n);

	if (!xl || !xr || !e)
		abort();
	linear_d(xl, x, g->w_src, g->b_src, n, d_in, D);
	linear_d(xr, x, g->w_dst, g->b_dst, n, d_in, D);
	for (i = 0; i < n; ++i)
		for (k = 0; k < heads; ++k) {
			double max = -INFINITY, sum = 0;

			for (j = 0; j < n; ++j) {
				double s = 0;
				if (!nb[i * n + j])
					continue;
				for (c = 0; c < hidden; ++c) {
					double v = xl[j * D + k * hidden + c] +
						   xr[i * D + k * hidden + c];
					v = v > 0 ? v : 0.2 * v;
					s += g->att[k * hidden + c] * v;
				}
				e[j] = s;
				max = fmax(max, s);
			}
			for (j = 0; j < n; ++j)
				if (nb[i * n + j])
					sum += exp(e[j] - max);
			for (c = 0; c < hidden; ++c) {
				double o = g->bias[k * hidden + c];
				for (j = 0; j < n; ++j)
					if (nb[i * n + j])
						o += exp(e[j] - max) / sum *
						     xl[j * D + k * hidden + c];
				out[i * D + k * hidden + c] = o;
			}
		}
	free(xl);
	free(xr);
	free(e);
}

/* ---- A small graph ------------------------------------------------------ */

/* n_nodes nodes: a tree in which node 1 has several children, plus a
 * duplicated edge, an edge given in both directions and a self-edge;
 * features random with some zeros. */
static struct pearl_graph *small_graph(int n, int f, uint64_t seed)
{
	struct pearl_graph *g = pearl_graph_alloc(n, f, n + 3);
	int i;

	if (!g)
		return NULL;
	rng_state = seed;
	for (i = 0; i < n * f; ++i)
		g->x[i] = rng_next() % 3 == 0 ? 0.0f
					       : (float)uniform(-1.0, 1.0);
	for (i = 1; i < n; ++i) {
		g->src[g->n_edges] = i < 5 ? (i == 1 ? 0 : 1) : i / 2;
		g->dst[g->n_edges++] = i;
	}
	if (n >= 4) {
		g->src[g->n_edges] = 1, g->dst[g->n_edges++] = 3; /* again */
		g->src[g->n_edges] = 3, g->dst[g->n_edges++] = 1; /* reverse */
		g->src[g->n_edges] = 2, g->dst[g->n_edges++] = 2; /* self */
	}
	return g;
}

/* ---- Layer checks ------------------------------------------------------- */

static void to_double(double *d, const float *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i)
		d[i] = f[i];
}

static double dot_d(const double *a, const double *b, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; ++i)
		s += a[i] * b[i];
	return s;
}

/* Linear: loss = R . (x w + b); gradients of w, b and x. */
static void test_linear(void)
{
	enum { N = 5, I = 6, O = 7 };
	float x[N * I], w[I * O], b[O], y[N * O], r[N * O];
	float dx[N * I] = { 0 }, dw[I * O] = { 0 }, db[O] = { 0 };
	double xd[N * I], wd[I * O], bd[O], yd[N * O], rd[N * O];
	double *params[3] = { wd, bd, xd };
	const float *grads[3] = { dw, db, dx };
	const char *names[3] = { "linear.w", "linear.b", "linear.x" };
	size_t sizes[3] = { I * O, O, N * I };
	int t, i;

	rng_state = 11;
	fill(x, N * I, -1, 1);
	x[3] = x[I + 2] = 0.0f; /* skipped zeros */
	fill(w, I * O, -1, 1);
	fill(b, O, -1, 1);
	fill(r, N * O, -1, 1);
	pearl_nn_linear(y, x, w, b, N, I, O);
	pearl_nn_linear_backward(dx, dw, db, r, x, w, N, I, O);
	to_double(xd, x, N * I);
	to_double(wd, w, I * O);
	to_double(bd, b, O);
	to_double(rd, r, N * O);
	for (t = 0; t < 3; ++t) {
		struct cmp c = { 0 };
		double num[N * O > I * O ? N * O : I * O], scale = 0;

		for (i = 0; i < (int)sizes[t]; ++i) {
			double save = params[t][i], lp, lm;
			params[t][i] = save + FD_EPS;
			linear_d(yd, xd, wd, bd, N, I, O);
			lp = dot_d(rd, yd, N * O);
			params[t][i] = save - FD_EPS;
			linear_d(yd, xd, wd, bd, N, I, O);
			lm = dot_d(rd, yd, N * O);
			params[t][i] = save;
			num[i] = (lp - lm) / (2 * FD_EPS);
			scale = fmax(scale, fabs(num[i]));
		}
		for (i = 0; i < (int)sizes[t]; ++i)
			cmp_add(&c, grads[t][i], num[i], scale);
		cmp_report(&c, names[t], -1);
	}
}

/* SELU on both sides of 0: loss = R . selu(x). */
static void test_selu(void)
{
	enum { N = 64 };
	float x[N], y[N], r[N], dy[N];
	struct cmp c = { 0 };
	double num[N], scale = 0;
	int i;

	rng_state = 12;
	fill(x, N, -4, 3);
	fill(r, N, -1, 1);
	memcpy(y, x, sizeof(x));
	pearl_nn_selu(y, N);
	memcpy(dy, r, sizeof(r));
	pearl_nn_selu_backward(dy, y, N);
	for (i = 0; i < N; ++i) {
		num[i] = r[i] *
			 (selu_d((double)x[i] + FD_EPS) -
			  selu_d((double)x[i] - FD_EPS)) /
			 (2 * FD_EPS);
		scale = fmax(scale, fabs(num[i]));
	}
	for (i = 0; i < N; ++i)
		cmp_add(&c, dy[i], num[i], scale);
	cmp_report(&c, "selu", -1);
}

/* Mean and max pooling; a tied column sends its max gradient to the first
 * row holding the maximum. */
static void test_pool(void)
{
	enum { N = 5, D = 4 };
	float h[N * D], pooled[2 * D], r[2 * D], dh[N * D] = { 0 };
	double hd[N * D], pd[2 * D], rd[2 * D], num[N * D], scale = 0;
	struct cmp c = { 0 };
	int i;

	rng_state = 13;
	fill(h, N * D, -2, 2);
	fill(r, 2 * D, -1, 1);
	/* Column 3: rows 1 and 3 tie for the maximum. */
	h[1 * D + 3] = h[3 * D + 3] = 5.0f;
	pearl_nn_pool(pooled, h, N, D);
	pearl_nn_pool_backward(dh, r, h, N, D);
	to_double(hd, h, N * D);
	to_double(rd, r, 2 * D);
	for (i = 0; i < N * D; ++i) {
		double save = hd[i], lp, lm;

		if (i % D == 3)
			continue;
		hd[i] = save + FD_EPS;
		pool_d(pd, hd, N, D);
		lp = dot_d(rd, pd, 2 * D);
		hd[i] = save - FD_EPS;
		pool_d(pd, hd, N, D);
		lm = dot_d(rd, pd, 2 * D);
		hd[i] = save;
		num[i] = (lp - lm) / (2 * FD_EPS);
		scale = fmax(scale, fabs(num[i]));
	}
	for (i = 0; i < N * D; ++i)
		if (i % D != 3)
			cmp_add(&c, dh[i], num[i], scale);
	cmp_report(&c, "pool", -1);
	/* The tie: mean share everywhere, the max share on row 1 only. */
	for (i = 0; i < N; ++i) {
		float want = r[3] / (float)N + (i == 1 ? r[D + 3] : 0.0f);
		CHECK(fabsf(dh[i * D + 3] - want) <= 1e-6f);
	}
}

/* One GATv2 layer on a 7-node graph whose node 1 has four neighbours
 * besides itself: loss = R . out, every tensor and the input checked. */
static void test_gatv2(void)
{
	enum { N = 7, I = 5, H = 2, HID = 3, D = H * HID };
	struct pearl_graph *g = small_graph(N, I, 21);
	float w_src[I * D], b_src[D], w_dst[I * D], b_dst[D], att[D], bias[D];
	float out[N * D], xl[N * D], xr[N * D], r[N * D];
	float dxl[N * D], dxr[N * D], dx[N * I] = { 0 };
	float gw[2 * I * D + 4 * D] = { 0 };
	struct pearl_gat_grads dg = { gw, gw + I * D, gw + I * D + D,
				      gw + 2 * I * D + D,
				      gw + 2 * I * D + 2 * D,
				      gw + 2 * I * D + 3 * D, NULL, NULL };
	struct pearl_gat_weights gwt = { w_src, b_src, w_dst, b_dst, att,
					 bias, NULL, NULL };
	double pd[2 * I * D + 4 * D], xd[N * I], rd[N * D], od[N * D];
	struct gat_d gd = { pd, pd + I * D, pd + I * D + D,
			    pd + 2 * I * D + D, pd + 2 * I * D + 2 * D,
			    pd + 2 * I * D + 3 * D };
	struct {
		const char *name;
		double *p;
		const float *grad;
		int n;
	} t[7] = {
		{ "w_src", pd, dg.w_src, I * D },
		{ "b_src", pd + I * D, dg.b_src, D },
		{ "w_dst", pd + I * D + D, dg.w_dst, I * D },
		{ "b_dst", pd + 2 * I * D + D, dg.b_dst, D },
		{ "att", pd + 2 * I * D + 2 * D, dg.att, D },
		{ "bias", pd + 2 * I * D + 3 * D, dg.bias, D },
		{ "x", xd, dx, N * I },
	};
	struct pearl_nn_adjacency adj;
	int start[N + 1], src[N + 2 * (N + 3)];
	float alpha[N + 2 * (N + 3)], dalpha[N + 2 * (N + 3)];
	unsigned char *nb = g ? neighbours(g) : NULL;
	int k, i;

	CHECK(g && nb);
	if (!g || !nb)
		goto out;
	rng_state = 22;
	fill(w_src, I * D, -1, 1);
	fill(b_src, D, -0.5, 0.5);
	fill(w_dst, I * D, -1, 1);
	fill(b_dst, D, -0.5, 0.5);
	fill(att, D, -1.5, 1.5);
	fill(bias, D, -0.5, 0.5);
	fill(r, N * D, -1, 1);
	adj.start = start;
	adj.src = src;
	pearl_nn_adjacency_build(&adj, g);
	CHECK(adj.start[2] - adj.start[1] == 5); /* 0, 1, 2, 3, 4 */
	pearl_nn_gatv2(out, g->x, I, &gwt, H, HID, &adj, xl, xr, alpha);
	pearl_nn_gatv2_backward(dx, &dg, r, g->x, I, &gwt, H, HID, &adj, xl,
				xr, dxl, dxr, alpha, dalpha);

	to_double(pd, w_src, I * D);
	to_double(pd + I * D, b_src, D);
	to_double(pd + I * D + D, w_dst, I * D);
	to_double(pd + 2 * I * D + D, b_dst, D);
	to_double(pd + 2 * I * D + 2 * D, att, D);
	to_double(pd + 2 * I * D + 3 * D, bias, D);
	to_double(xd, g->x, N * I);
	to_double(rd, r, N * D);
	/* The reference agrees with the float layer. */
	gatv2_d(od, xd, N, I, &gd, H, HID, nb);
	for (i = 0; i < N * D; ++i)
		CHECK(fabs(od[i] - out[i]) <= 1e-5 * (1 + fabs(od[i])));
	for (k = 0; k < 7; ++k) {
		struct cmp c = { 0 };
		double num[N * I > I * D ? N * I : I * D], scale = 0;

		for (i = 0; i < t[k].n; ++i) {
			double save = t[k].p[i], lp, lm;
			t[k].p[i] = save + FD_EPS;
			gatv2_d(od, xd, N, I, &gd, H, HID, nb);
			lp = dot_d(rd, od, N * D);
			t[k].p[i] = save - FD_EPS;
			gatv2_d(od, xd, N, I, &gd, H, HID, nb);
			lm = dot_d(rd, od, N * D);
			t[k].p[i] = save;
			num[i] = (lp - lm) / (2 * FD_EPS);
			scale = fmax(scale, fabs(num[i]));
		}
		for (i = 0; i < t[k].n; ++i)
			cmp_add(&c, t[k].grad[i], num[i], scale);
		cmp_report(&c, t[k].name, 0);
	}
out:
	free(nb);
	pearl_graph_free(g);
}

/* ---- The whole network in double ---------------------------------------- */

/* The network's tensors in double, by blob order. */
struct net_d {
	struct pearl_policy_config cfg;
	double *p;                /* every parameter */
	size_t n;
	size_t off[8 * 8 + 16];   /* tensor offsets */
};

static int net_d_init(struct net_d *net, const pearl_policy *policy)
{
	const float *w = pearl_policy_get_params_const(policy, &net->n);
	int t, n_t = pearl_policy_n_tensors(policy);

	net->cfg = *pearl_policy_get_config(policy);
	net->p = malloc(net->n * sizeof(double));
	if (!net->p || n_t != 8 * net->cfg.n_layers + 16)
		return -1;
	to_double(net->p, w, net->n);
	for (t = 0; t < n_t; ++t) {
		struct pearl_param_tensor info;
		if (pearl_policy_get_tensor(policy, t, &info) < 0)
			return -1;
		net->off[t] = info.offset;
	}
	return 0;
}

/* Tensor j (0..7) of GATv2 layer l, or tensor j (0..15) after them. */
static double *gat_t(const struct net_d *net, int l, int j)
{
	return net->p + net->off[8 * l + j];
}

static double *top_t(const struct net_d *net, int j)
{
	return net->p + net->off[8 * net->cfg.n_layers + j];
}

/* Linear + SELU on one row. */
static void dense_selu_d(double *y, const double *x, const double *w,
			 const double *b, int d_in, int d_out)
{
	int o;

	linear_d(y, x, w, b, 1, d_in, d_out);
	for (o = 0; o < d_out; ++o)
		y[o] = selu_d(y[o]);
}

static void net_d_eval(const struct net_d *net, const struct pearl_graph *g,
		       const unsigned char *nb, double *logits, double *value)
{
	const struct pearl_policy_config *cfg = &net->cfg;
	int n = g->n_nodes, d = cfg->hidden, D = cfg->heads * d;
	int L = cfg->n_layers, A = cfg->n_actions, l, i;
	double *x = malloc(sizeof(double) * n * cfg->n_features);
	double *h = malloc(sizeof(double) * n * (D > cfg->n_features
						     ? D
						     : cfg->n_features));
	double *agg = malloc(sizeof(double) * n * D);
	int K = cfg->focus_levels, width = (2 + K) * d * L, focus[8], k;
	double *pooled = calloc((size_t)width, sizeof(double));
	double *a = malloc(sizeof(double) * 6 * d);

	if (!x || !h || !agg || !pooled || !a || K > 8)
		abort();
	to_double(x, g->x, (size_t)n * cfg->n_features);
	/* The focus loops, as pearl/policy.h defines them. */
	for (k = 0; k < K; ++k)
		focus[k] = -1;
	for (i = 0; K > 0 && i < n; ++i) {
		const double *row = x + (size_t)i * cfg->n_features;
		int level = 0, j;

		for (j = 1; j < PEARL_GRAPH_N_LEVELS; ++j)
			if (row[PEARL_F_LEVEL + j] > row[PEARL_F_LEVEL + level])
				level = j;
		if (row[PEARL_F_KIND + 1] > 0.5 && row[PEARL_F_FOCUS] > 0.5 &&
		    level < K && focus[level] < 0)
			focus[level] = i;
	}
	for (l = 0; l < L; ++l) {
		struct gat_d gd = { gat_t(net, l, 0), gat_t(net, l, 1),
				    gat_t(net, l, 2), gat_t(net, l, 3),
				    gat_t(net, l, 4), gat_t(net, l, 5) };
		int d_in = l == 0 ? cfg->n_features : d;

		gatv2_d(agg, l == 0 ? x : h, n, d_in, &gd, cfg->heads, d, nb);
		linear_d(h, agg, gat_t(net, l, 6), gat_t(net, l, 7), n, D, d);
		for (i = 0; i < n * d; ++i)
			h[i] = selu_d(h[i]);
		pool_d(pooled + 2 * d * l, h, n, d);
		for (k = 0; k < K; ++k)
			if (focus[k] >= 0)
				memcpy(pooled + 2 * d * L + (size_t)(K * l + k) * d,
				       h + (size_t)focus[k] * d,
				       (size_t)d * sizeof(double));
	}
	dense_selu_d(a, pooled, top_t(net, 0), top_t(net, 1), width, d);
	dense_selu_d(a + d, a, top_t(net, 2), top_t(net, 3), d, d);
	dense_selu_d(a + 2 * d, a + d, top_t(net, 4), top_t(net, 5), d, d);
	dense_selu_d(a + 3 * d, a + 2 * d, top_t(net, 6), top_t(net, 7), d, d);
	linear_d(logits, a + 3 * d, top_t(net, 8), top_t(net, 9), 1, d, A);
	dense_selu_d(a + 4 * d, a + d, top_t(net, 10), top_t(net, 11), d, d);
	dense_selu_d(a + 5 * d, a + 4 * d, top_t(net, 12), top_t(net, 13), d,
		     d);
	linear_d(value, a + 5 * d, top_t(net, 14), top_t(net, 15), 1, d, 1);
	free(x);
	free(h);
	free(agg);
	free(pooled);
	free(a);
}

/* ---- Masked distribution in double -------------------------------------- */

static void log_softmax_d(double *logp, const double *z,
			  const unsigned char *mask, int n)
{
	double max = -INFINITY, s = 0;
	int i;

	for (i = 0; i < n; ++i)
		if (!mask[i])
			max = fmax(max, z[i]);
	for (i = 0; i < n; ++i)
		if (!mask[i])
			s += exp(z[i] - max);
	for (i = 0; i < n; ++i)
		logp[i] = mask[i] ? -INFINITY : z[i] - max - log(s);
}

static double entropy_d(const double *logp, const unsigned char *mask, int n)
{
	double h = 0;
	int i;

	for (i = 0; i < n; ++i)
		if (!mask[i])
			h -= exp(logp[i]) * logp[i];
	return h;
}

/* sum_j t_j logp_j over the unmasked actions, in double. */
static double expected_logp_d(const double *logp, const float *t,
			      const unsigned char *mask, int n)
{
	double e = 0;
	int i;

	for (i = 0; i < n; ++i)
		if (!mask[i])
			e += t[i] * logp[i];
	return e;
}

/* A PPO-like loss of the logits and value:
 *   -adv logp[action] - beta entropy + c (value - target)^2. */
struct ppo_loss {
	const unsigned char *mask;
	int action;
	double adv, beta, c, target;
};

static double ppo_loss_d(const struct ppo_loss *ls, const double *z,
			 double value, int n)
{
	double logp[64];

	log_softmax_d(logp, z, ls->mask, n);
	return -ls->adv * logp[ls->action] -
	       ls->beta * entropy_d(logp, ls->mask, n) +
	       ls->c * (value - ls->target) * (value - ls->target);
}

/* Its gradient through the float helpers of pearl/train.h. */
static void ppo_loss_grad(const struct ppo_loss *ls, const float *z,
			  float value, int n, float *dz, float *dvalue)
{
	float logp[64];

	memset(dz, 0, sizeof(float) * n);
	CHECK(pearl_masked_log_softmax(logp, z, ls->mask, n) == 0);
	pearl_masked_log_softmax_grad(dz, logp, ls->mask, n, ls->action,
				      (float)-ls->adv);
	pearl_masked_entropy_grad(dz, logp, ls->mask, n, (float)-ls->beta);
	*dvalue = (float)(2 * ls->c * (value - ls->target));
}

/* The helpers alone: log-softmax, entropy and their gradients against
 * finite differences, masked entries untouched, errors. */
static void test_masked(void)
{
	enum { A = 9 };
	unsigned char mask[A] = { 0, 1, 0, 0, 1, 0, 0, 0, 1 };
	unsigned char all[A];
	float z[A], logp[A], dz[A], dv;
	double zd[A], num, scale = 0, lp, lm, sum = 0;
	struct ppo_loss ls = { mask, 3, 0.7, 0.1, 0.0, 0.0 };
	struct cmp c = { 0 };
	double nums[A];
	int i;

	rng_state = 31;
	fill(z, A, -3, 3);
	z[4] = 1e30f; /* masked: ignored entirely */
	CHECK(pearl_masked_log_softmax(logp, z, mask, A) == 0);
	for (i = 0; i < A; ++i) {
		if (mask[i])
			CHECK(isinf(logp[i]) && logp[i] < 0);
		else
			sum += exp(logp[i]);
	}
	CHECK(fabs(sum - 1) < 1e-6);
	CHECK(pearl_masked_entropy(logp, mask, A) > 0);
	/* the greedy pick: the masked 1e30 is passed over, the logits and
	 * the log-probabilities agree, ties go to the lowest number */
	for (i = 0; i < A; ++i)
		if (!mask[i])
			CHECK(z[pearl_masked_argmax(z, mask, A)] >= z[i]);
	CHECK(pearl_masked_argmax(z, mask, A) != 4);
	CHECK(pearl_masked_argmax(z, mask, A) ==
	      pearl_masked_argmax(logp, mask, A));
	{
		float ties[4] = { 1, 2, 2, 2 };
		unsigned char first[4] = { 0, 1, 0, 0 };

		CHECK(pearl_masked_argmax(ties, NULL, 4) == 1);
		CHECK(pearl_masked_argmax(ties, first, 4) == 2);
		memset(all, 1, sizeof(all));
		CHECK(pearl_masked_argmax(z, all, A) == -1);
	}
	to_double(zd, z, A);
	for (i = 0; i < A; ++i) {
		double save = zd[i];
		zd[i] = save + 1e-6;
		lp = ppo_loss_d(&ls, zd, 0, A);
		zd[i] = save - 1e-6;
		lm = ppo_loss_d(&ls, zd, 0, A);
		zd[i] = save;
		nums[i] = mask[i] ? 0 : (lp - lm) / 2e-6;
		scale = fmax(scale, fabs(nums[i]));
	}
	ppo_loss_grad(&ls, z, 0, A, dz, &dv);
	for (i = 0; i < A; ++i) {
		if (mask[i]) {
			CHECK(dz[i] == 0.0f);
			continue;
		}
		cmp_add(&c, dz[i], nums[i], scale);
	}
	cmp_report(&c, "masked lsm+H", -1);
	/* Minus the cross-entropy to a distribution over the unmasked
	 * actions: sum_j t_j logp_j, its gradient against finite
	 * differences; with a one-hot t, the action's gradient exactly. */
	{
		float t[A] = { 0.1f, 0, 0.3f, 0.05f, 0, 0.4f, 0.1f, 0.05f, 0 };
		float d1[A] = { 0 }, d2[A] = { 0 }, onehot[A] = { 0 };
		double lsd[A];
		struct cmp ce = { 0 };

		for (i = 0; i < A; ++i) {
			double save = zd[i];

			zd[i] = save + 1e-6;
			log_softmax_d(lsd, zd, mask, A);
			lp = expected_logp_d(lsd, t, mask, A);
			zd[i] = save - 1e-6;
			log_softmax_d(lsd, zd, mask, A);
			lm = expected_logp_d(lsd, t, mask, A);
			zd[i] = save;
			nums[i] = mask[i] ? 0 : (lp - lm) / 2e-6;
		}
		CHECK(pearl_masked_log_softmax(logp, z, mask, A) == 0);
		pearl_masked_expected_log_softmax_grad(d1, logp, mask, A, t,
						       1.0f);
		for (i = 0; i < A; ++i) {
			if (mask[i])
				CHECK(d1[i] == 0.0f);
			else
				cmp_add(&ce, d1[i], nums[i], 1.0);
		}
		cmp_report(&ce, "masked cross-entropy", -1);
		onehot[3] = 1;
		pearl_masked_expected_log_softmax_grad(d1, logp, mask, A,
						       onehot, -0.5f);
		pearl_masked_log_softmax_grad(d2, logp, mask, A, 3, -0.5f);
		pearl_masked_expected_log_softmax_grad(d2, logp, mask, A, t,
						       1.0f);
		for (i = 0; i < A; ++i)
			CHECK(fabsf(d1[i] - d2[i]) < 1e-6f);
	}
	/* The entropy of a uniform distribution over 6 actions. */
	for (i = 0; i < A; ++i)
		z[i] = mask[i] ? -5.0f : 2.0f;
	CHECK(pearl_masked_log_softmax(logp, z, mask, A) == 0);
	CHECK(fabsf(pearl_masked_entropy(logp, mask, A) - logf(6)) < 1e-6f);
	/* No mask: everything counts. */
	CHECK(pearl_masked_log_softmax(logp, z, NULL, A) == 0);
	num = pearl_masked_entropy(logp, NULL, A);
	CHECK(num > 0 && num < log(A));
	/* Errors. */
	memset(all, 1, sizeof(all));
	CHECK(pearl_masked_log_softmax(logp, z, all, A) == -1);
	CHECK(pearl_masked_log_softmax(logp, z, mask, 0) == -1);
	z[0] = NAN;
	CHECK(pearl_masked_log_softmax(logp, z, mask, A) == -1);
	z[0] = 1.0f;
	z[1] = NAN; /* masked: fine */
	CHECK(pearl_masked_log_softmax(logp, z, mask, A) == 0);
}

/* ---- The whole network -------------------------------------------------- */

static const struct pearl_policy_config tiny_cfg = { 7, 8, 2, 2, 5, 0 };
/* With the focus loops of depths 0..3 in the readout: the features up to
 * [FOCUS] and one more. */
static const struct pearl_policy_config focus_cfg = {
	PEARL_F_FOCUS + 2, 8, 2, 2, 5, 4
};

/* Marks nodes of g as loops on the focus branch: node i >= 1 is a loop at
 * depth (i - 1) % 3, or a statement if i % 4 == 3; the loops are in focus
 * unless i % 5 == 4. For 8 nodes the focus loops of depths 0, 1, 2 are
 * nodes 1, 2, 6 (node 4, at depth 0, comes after node 1; node 5, at depth
 * 1, is not in focus) and depth 3 has none. */
static void mark_focus(struct pearl_graph *g)
{
	int i, f = g->n_features;

	for (i = 1; i < g->n_nodes; ++i) {
		float *row = g->x + (size_t)i * f;

		memset(row, 0, 3 * sizeof(float));
		row[PEARL_F_KIND + (i % 4 == 3 ? 2 : 1)] = 1.0f;
		memset(row + PEARL_F_LEVEL, 0,
		       PEARL_GRAPH_N_LEVELS * sizeof(float));
		row[PEARL_F_LEVEL + (i - 1) % 3] = 1.0f;
		row[PEARL_F_FOCUS] = i % 5 == 4 ? 0.0f : 1.0f;
	}
}

/* A policy for cfg with random weights and (unlike init_random) random
 * nonzero biases, so that every path carries a gradient. */
static pearl_policy *tiny_policy(const struct pearl_policy_config *cfg,
				 uint64_t seed)
{
	char err[256];
	pearl_policy *p = pearl_policy_init_random(cfg, seed, err,
						   sizeof(err));
	int t, n_t;

	if (!p) {
		fprintf(stderr, "init_random: %s\n", err);
		return NULL;
	}
	rng_state = seed * 7 + 1;
	n_t = pearl_policy_n_tensors(p);
	for (t = 0; t < n_t; ++t) {
		struct pearl_param_tensor info;
		float *w = pearl_policy_get_params(p, NULL);
		pearl_policy_get_tensor(p, t, &info);
		if (!info.is_matrix)
			fill(w + info.offset, (size_t)info.cols, -0.3, 0.3);
	}
	return p;
}

/* The gradient of mlp.w1 (dw) under focus_cfg on a mark_focus graph:
 * nonzero in the rows of the focus loops of depths 0..2 in both layers,
 * zero in those of depth 3 (no such loop: its inputs are zeros). */
static void check_focus_rows(const struct pearl_policy_config *cfg,
			     const float *dw)
{
	int d = cfg->hidden, L = cfg->n_layers, K = cfg->focus_levels;
	int l, k, r;

	for (l = 0; l < L; ++l)
		for (k = 0; k < K; ++k) {
			int row0 = 2 * d * L + (K * l + k) * d;
			double s = 0;

			for (r = row0 * d; r < (row0 + d) * d; ++r)
				s += fabs(dw[r]);
			CHECK(k < 3 ? s > 0 : s == 0);
		}
}

/* The full network on configuration cfg (tiny_cfg or focus_cfg, whose
 * graphs get focus loops) and a graph of n_nodes nodes: every tensor's
 * gradient (all entries of small tensors, SAMPLES of the others) under a
 * PPO-like loss with a mask, against the double reference. */
static void test_network(const struct pearl_policy_config *cfg, int n_nodes,
			 uint64_t seed)
{
	pearl_policy *p = tiny_policy(cfg, seed);
	struct pearl_graph *g = small_graph(n_nodes, cfg->n_features,
					    seed + 36);
	pearl_policy_grad *grad = p ? pearl_policy_grad_alloc(p, NULL, 0)
				    : NULL;
	unsigned char mask[5] = { 0, 1, 0, 0, 0 };
	struct ppo_loss ls = { mask, 2, -1.3, 0.05, 0.5, 0.4 };
	unsigned char *nb = g ? neighbours(g) : NULL;
	pearl_policy_tape *tape = NULL;
	struct net_d net = { 0 };
	float logits[5], value, elog[5], evalue, dz[5], dv;
	double ld[5], vd;
	const float *gd;
	char err[256];
	int t, n_t, k, i;

	CHECK(p && g && grad && nb);
	if (!p || !g || !grad || !nb)
		goto out;
	if (cfg->focus_levels)
		mark_focus(g);
	tape = pearl_policy_forward(p, g, logits, &value, err, sizeof(err));
	CHECK(tape != NULL);
	if (!tape)
		goto out;
	/* Bit-identical to pearl_policy_eval. */
	CHECK(pearl_policy_eval(p, g, elog, &evalue, err, sizeof(err)) == 0);
	CHECK(memcmp(elog, logits, sizeof(elog)) == 0);
	CHECK(memcmp(&evalue, &value, sizeof(value)) == 0);
	/* The reference agrees with the float network. */
	CHECK(net_d_init(&net, p) == 0);
	net_d_eval(&net, g, nb, ld, &vd);
	for (i = 0; i < 5; ++i)
		CHECK(fabs(ld[i] - logits[i]) <= 1e-5 * (1 + fabs(ld[i])));
	CHECK(fabs(vd - value) <= 1e-5 * (1 + fabs(vd)));

	ppo_loss_grad(&ls, logits, value, 5, dz, &dv);
	CHECK(pearl_policy_backward(tape, dz, dv, grad, err, sizeof(err)) ==
	      0);
	gd = pearl_policy_grad_data_const(grad, NULL);
	n_t = pearl_policy_n_tensors(p);
	for (t = 0; t < n_t; ++t) {
		struct pearl_param_tensor info;
		size_t idx[SAMPLES], n;
		double num[SAMPLES], scale = 0;
		struct cmp c = { 0 };
		int m;

		pearl_policy_get_tensor(p, t, &info);
		n = (size_t)info.rows * info.cols;
		m = pick(idx, n);
		for (k = 0; k < m; ++k) {
			double *q = net.p + info.offset + idx[k];
			double save = *q, lp, lm;

			*q = save + FD_EPS;
			net_d_eval(&net, g, nb, ld, &vd);
			lp = ppo_loss_d(&ls, ld, vd, 5);
			*q = save - FD_EPS;
			net_d_eval(&net, g, nb, ld, &vd);
			lm = ppo_loss_d(&ls, ld, vd, 5);
			*q = save;
			num[k] = (lp - lm) / (2 * FD_EPS);
			scale = fmax(scale, fabs(num[k]));
		}
		for (k = 0; k < m; ++k)
			cmp_add(&c, gd[info.offset + idx[k]], num[k], scale);
		/* Every tensor takes part in the loss (with one node, the
		 * attention is a constant 1: no gradient reaches w_dst,
		 * b_dst, att). */
		CHECK(scale > 1e-6 ||
		      (n_nodes == 1 && (!strcmp(info.name, "w_dst") ||
					!strcmp(info.name, "b_dst") ||
					!strcmp(info.name, "att"))));
		cmp_report(&c, info.name, info.layer);
		if (!strcmp(info.name, "mlp.w1") && cfg->focus_levels)
			check_focus_rows(cfg, gd + info.offset);
	}
out:
	free(net.p);
	free(nb);
	pearl_policy_tape_free(tape);
	pearl_policy_grad_free(grad);
	pearl_graph_free(g);
	pearl_policy_free(p);
}

/* The same network checked with float finite differences through the
 * public API (pearl_policy_eval on parameters written in place): a looser
 * check of the real forward pass, one entry per tensor. */
static void test_network_float_fd(void)
{
	pearl_policy *p = tiny_policy(&tiny_cfg, 6);
	struct pearl_graph *g = small_graph(6, tiny_cfg.n_features, 42);
	pearl_policy_grad *grad = p ? pearl_policy_grad_alloc(p, NULL, 0)
				    : NULL;
	pearl_policy_tape *tape = NULL;
	float logits[5], value, r[5] = { 0.3f, -0.7f, 0.2f, 0.9f, -0.4f };
	float *w;
	const float *gd;
	int t, n_t, bad = 0;

	CHECK(p && g && grad);
	if (!p || !g || !grad)
		goto out;
	tape = pearl_policy_forward(p, g, logits, &value, NULL, 0);
	CHECK(tape && pearl_policy_backward(tape, r, 0.8f, grad, NULL, 0) ==
			  0);
	w = pearl_policy_get_params(p, NULL);
	gd = pearl_policy_grad_data_const(grad, NULL);
	n_t = pearl_policy_n_tensors(p);
	rng_state = 43;
	for (t = 0; t < n_t; ++t) {
		struct pearl_param_tensor info;
		size_t i;
		float save, eps = 1e-2f;
		double lp, lm, num;
		int a;

		pearl_policy_get_tensor(p, t, &info);
		i = info.offset + rng_next() % ((size_t)info.rows * info.cols);
		save = w[i];
		w[i] = save + eps;
		pearl_policy_eval(p, g, logits, &value, NULL, 0);
		for (lp = 0.8 * value, a = 0; a < 5; ++a)
			lp += r[a] * logits[a];
		w[i] = save - eps;
		pearl_policy_eval(p, g, logits, &value, NULL, 0);
		for (lm = 0.8 * value, a = 0; a < 5; ++a)
			lm += r[a] * logits[a];
		w[i] = save;
		num = (lp - lm) / (2.0 * eps);
		if (fabs(num - gd[i]) > 2e-2 * fabs(num) + 2e-3) {
			printf("  float fd: %s[%zu]: %g vs %g\n", info.name,
			       i - info.offset, (double)gd[i], num);
			bad++;
		}
	}
	CHECK(bad == 0);
out:
	pearl_policy_tape_free(tape);
	pearl_policy_grad_free(grad);
	pearl_graph_free(g);
	pearl_policy_free(p);
}

/* Tape forward = pearl_policy_eval bit for bit on the default network and
 * a sparse 537-wide graph; gradients accumulate; errors. */
static void test_tape(void)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	pearl_policy *p = pearl_policy_init_random(&cfg, 7, NULL, 0);
	pearl_policy *q = tiny_policy(&tiny_cfg, 8);
	struct pearl_graph *g = small_graph(12, cfg.n_features, 51);
	struct pearl_graph *bad = small_graph(3, cfg.n_features, 52);
	pearl_policy_grad *g1 = p ? pearl_policy_grad_alloc(p, NULL, 0) : NULL;
	pearl_policy_grad *g2 = p ? pearl_policy_grad_alloc(p, NULL, 0) : NULL;
	pearl_policy_grad *gq = q ? pearl_policy_grad_alloc(q, NULL, 0) : NULL;
	pearl_policy_tape *tape = NULL;
	float logits[PEARL_N_ACTIONS], value, elog[PEARL_N_ACTIONS], evalue;
	float dz[PEARL_N_ACTIONS];
	const float *a, *b;
	double norm;
	size_t n, i;
	char err[256];
	int ok;

	CHECK(p && q && g && bad && g1 && g2 && gq);
	if (!p || !q || !g || !bad || !g1 || !g2 || !gq)
		goto out;
	/* Sparse features, as in real graphs. */
	for (i = 0; i < (size_t)g->n_nodes * g->n_features; ++i)
		if (i % 7)
			g->x[i] = 0.0f;
	tape = pearl_policy_forward(p, g, logits, &value, err, sizeof(err));
	CHECK(tape != NULL);
	CHECK(pearl_policy_eval(p, g, elog, &evalue, err, sizeof(err)) == 0);
	CHECK(memcmp(elog, logits, sizeof(elog)) == 0);
	CHECK(memcmp(&evalue, &value, sizeof(value)) == 0);
	if (!tape)
		goto out;
	/* Twice into g1 = 2 x once into g2 (up to rounding: the second pass
	 * adds its partial sums to nonzero entries); add; scale. */
	rng_state = 53;
	fill(dz, PEARL_N_ACTIONS, -1, 1);
	CHECK(pearl_policy_backward(tape, dz, 0.5f, g1, NULL, 0) == 0);
	CHECK(pearl_policy_backward(tape, dz, 0.5f, g1, NULL, 0) == 0);
	CHECK(pearl_policy_backward(tape, dz, 0.5f, g2, NULL, 0) == 0);
	a = pearl_policy_grad_data_const(g1, &n);
	b = pearl_policy_grad_data_const(g2, NULL);
	CHECK(n == 1139671);
	norm = pearl_policy_grad_norm(g2);
	CHECK(norm > 0);
	for (ok = 1, i = 0; i < n; ++i)
		ok &= fabsf(a[i] - 2 * b[i]) <= 1e-6f * (float)norm;
	CHECK(ok);
	CHECK(pearl_policy_grad_add(g2, g2, NULL, 0) == 0);
	CHECK(pearl_policy_grad_norm(g2) == 2 * norm);
	pearl_policy_grad_scale(g2, 0.0f);
	CHECK(pearl_policy_grad_norm(g2) == 0);
	/* A NULL d_logits is zero: only the value head and below. */
	CHECK(pearl_policy_backward(tape, NULL, 1.0f, g2, NULL, 0) == 0);
	{
		struct pearl_param_tensor info;
		int t, n_t = pearl_policy_n_tensors(p);
		b = pearl_policy_grad_data_const(g2, NULL);
		for (t = 0; t < n_t; ++t) {
			double s = 0;
			pearl_policy_get_tensor(p, t, &info);
			for (i = 0; i < (size_t)info.rows * info.cols; ++i)
				s += fabs(b[info.offset + i]);
			if (!strncmp(info.name, "pi.", 3))
				CHECK(s == 0);
			else if (strcmp(info.name, "b_src") &&
				 strcmp(info.name, "b_dst"))
				CHECK(s > 0);
		}
	}
	/* Errors: a gradient of another shape, a bad graph. */
	CHECK(pearl_policy_backward(tape, dz, 0.5f, gq, err, sizeof(err)) ==
	      -1);
	CHECK_STR(err, "the gradient buffer (1558 floats) does not match the "
		       "policy (1139671)");
	CHECK(pearl_policy_grad_add(g1, gq, err, sizeof(err)) == -1);
	bad->src[0] = 5;
	CHECK(!pearl_policy_forward(p, bad, logits, &value, err, sizeof(err)));
	CHECK_STR(err, "edge 0 (5 -> 1) names a missing node (the graph has 3 "
		       "nodes)");
	CHECK(!pearl_policy_forward(q, g, logits, &value, err, sizeof(err)));
	CHECK_STR(err, "graph has 537 features per node, the policy expects 7");
	CHECK(pearl_policy_tape_free(NULL) == NULL);
	CHECK(pearl_policy_grad_free(NULL) == NULL);
out:
	pearl_policy_tape_free(tape);
	pearl_policy_grad_free(g1);
	pearl_policy_grad_free(g2);
	pearl_policy_grad_free(gq);
	pearl_graph_free(g);
	pearl_graph_free(bad);
	pearl_policy_free(p);
	pearl_policy_free(q);
}

/* Tensor listing: blob order, offsets contiguous, sizes add up. */
static void test_tensors(void)
{
	pearl_policy *p = tiny_policy(&tiny_cfg, 9);
	struct pearl_param_tensor info;
	size_t n, off = 0;
	int t, n_t;

	CHECK(p != NULL);
	if (!p)
		return;
	pearl_policy_get_params(p, &n);
	n_t = pearl_policy_n_tensors(p);
	CHECK(n_t == 8 * 2 + 16);
	for (t = 0; t < n_t; ++t) {
		CHECK(pearl_policy_get_tensor(p, t, &info) == 0);
		CHECK(info.offset == off);
		off += (size_t)info.rows * info.cols;
	}
	CHECK(off == n && n == 1558);
	CHECK(pearl_policy_get_tensor(p, 4, &info) == 0);
	CHECK_STR(info.name, "att");
	CHECK(info.layer == 0 && info.rows == 2 && info.cols == 8);
	CHECK(pearl_policy_get_tensor(p, n_t - 1, &info) == 0);
	CHECK_STR(info.name, "v.b3");
	CHECK(info.layer == -1 && info.rows == 1 && info.cols == 1);
	CHECK(pearl_policy_get_tensor(p, n_t, &info) == -1);
	CHECK(pearl_policy_get_tensor(p, -1, &info) == -1);
	pearl_policy_free(p);
}

/* ---- Adam --------------------------------------------------------------- */

/* loss = sum a_i (p_i - t_i)^2 */
static double quad(const float *p, const float *a, const float *t, int n,
		   float *grad)
{
	double s = 0;
	int i;

	for (i = 0; i < n; ++i) {
		s += a[i] * (double)(p[i] - t[i]) * (p[i] - t[i]);
		if (grad)
			grad[i] = 2 * a[i] * (p[i] - t[i]);
	}
	return s;
}

static void test_adam(void)
{
	enum { N = 10 };
	struct pearl_adam_config cfg = pearl_adam_default_config();
	float p[N], a[N], t[N], g[N], p2[N], before[N];
	pearl_adam *adam, *copy = NULL;
	double l0, l1, norm;
	char err[256];
	void *blob;
	size_t size;
	int i, s;

	CHECK(cfg.lr == 1e-4f && cfg.beta1 == 0.9f && cfg.beta2 == 0.999f &&
	      cfg.eps == 1e-8f && cfg.max_grad_norm == 0.0f);
	rng_state = 61;
	fill(p, N, -2, 2);
	fill(a, N, 0.1, 10); /* badly conditioned on purpose */
	fill(t, N, -1, 1);
	cfg.lr = 0.05f;
	adam = pearl_adam_alloc(N, &cfg, err, sizeof(err));
	CHECK(adam != NULL);
	if (!adam)
		return;
	l0 = quad(p, a, t, N, NULL);
	for (s = 0; s < 500; ++s) {
		quad(p, a, t, N, g);
		CHECK(pearl_adam_step(adam, p, g, N, &norm, NULL, 0) == 0);
	}
	l1 = quad(p, a, t, N, NULL);
	if (verbose)
		printf("  adam quadratic: loss %.4g -> %.3g\n", l0, l1);
	CHECK(l1 < 1e-3 * l0);
	CHECK(pearl_adam_get_step(adam) == 500);

	/* The first step moves each parameter by lr against its gradient's
	 * sign (bias-corrected m / sqrt(v) = sign(g)). */
	{
		pearl_adam *f = pearl_adam_alloc(N, &cfg, NULL, 0);
		fill(p2, N, -2, 2);
		memcpy(before, p2, sizeof(p2));
		quad(p2, a, t, N, g);
		CHECK(f && pearl_adam_step(f, p2, g, N, NULL, NULL, 0) == 0);
		for (i = 0; i < N; ++i)
			CHECK(fabsf(before[i] - p2[i] -
				    (g[i] > 0 ? 0.05f : -0.05f)) < 1e-6f);
		pearl_adam_free(f);
	}
	/* Clipping: the reported norm is the unclipped one; with a tiny
	 * bound, g / ||g|| scaling leaves the first step unchanged (Adam is
	 * scale-invariant) but the moments hold the clipped gradient. */
	{
		struct pearl_adam_config cc = cfg;
		pearl_adam *f;
		double want = 0;

		cc.max_grad_norm = 1e-3f;
		f = pearl_adam_alloc(N, &cc, NULL, 0);
		quad(p2, a, t, N, g); /* far from the optimum: clipped */
		for (i = 0; i < N; ++i)
			want += (double)g[i] * g[i];
		CHECK(f && pearl_adam_step(f, p2, g, N, &norm, NULL, 0) == 0);
		CHECK(fabs(norm - sqrt(want)) <= 1e-6 * sqrt(want));
		blob = f ? pearl_adam_to_blob(f, &size) : NULL;
		CHECK(blob && size == 56 + 8 * N);
		if (blob) {
			/* m = (1 - beta1) g_clipped: its norm is 0.1e-3. */
			float m[N];
			double mn = 0;
			for (i = 0; i < N; ++i) {
				memcpy(&m[i], (char *)blob + 56 + 4 * i, 4);
				mn += (double)m[i] * m[i];
			}
			CHECK(fabs(sqrt(mn) - 1e-4) < 1e-7);
		}
		free(blob);
		pearl_adam_free(f);
	}
	/* Weight decay (AdamW): the first step is the plain one applied to
	 * the parameters shrunk by lr * weight_decay; with a zero gradient
	 * only the shrinking is left. The decay is kept in the state blob,
	 * and a decay that would flip the parameters' sign is refused. */
	{
		struct pearl_adam_config wc = cfg;
		pearl_adam *f, *back;
		float zero[N] = {0};

		CHECK(cfg.weight_decay == 0.0f);
		wc.weight_decay = 2.0f; /* lr 0.05: keep 0.9 of each */
		f = pearl_adam_alloc(N, &wc, NULL, 0);
		fill(p2, N, -2, 2);
		memcpy(before, p2, sizeof(p2));
		quad(p2, a, t, N, g);
		CHECK(f && pearl_adam_step(f, p2, g, N, NULL, NULL, 0) == 0);
		for (i = 0; i < N; ++i)
			CHECK(fabsf(0.9f * before[i] - p2[i] -
				    (g[i] > 0 ? 0.05f : -0.05f)) < 1e-5f);
		blob = f ? pearl_adam_to_blob(f, &size) : NULL;
		back = blob ? pearl_adam_from_blob(blob, size, NULL, 0) : NULL;
		CHECK(back && pearl_adam_get_config(back)->weight_decay == 2.0f);
		free(blob);
		pearl_adam_free(back);
		/* a fresh optimizer, zero moments: the step is the decay */
		back = pearl_adam_alloc(N, &wc, NULL, 0);
		memcpy(before, p2, sizeof(p2));
		CHECK(back && pearl_adam_step(back, p2, zero, N, NULL, NULL,
					      0) == 0);
		for (i = 0; i < N; ++i)
			CHECK(p2[i] == 0.9f * before[i]);
		pearl_adam_free(back);
		pearl_adam_free(f);
		wc.weight_decay = 20.0f; /* lr * decay = 1 */
		CHECK(pearl_adam_alloc(N, &wc, err, sizeof(err)) == NULL);
		wc.weight_decay = -1.0f;
		CHECK(pearl_adam_alloc(N, &wc, err, sizeof(err)) == NULL);
	}
	/* A non-finite gradient updates nothing. */
	memcpy(before, p, sizeof(p));
	g[3] = INFINITY;
	CHECK(pearl_adam_step(adam, p, g, N, NULL, err, sizeof(err)) == -1);
	CHECK_STR(err, "the gradient is not finite");
	CHECK(memcmp(before, p, sizeof(p)) == 0);
	CHECK(pearl_adam_get_step(adam) == 500);
	CHECK(pearl_adam_step(adam, p, g, N - 1, NULL, err, sizeof(err)) ==
	      -1);
	CHECK_STR(err, "9 parameters given to an optimizer of 10");

	/* State round trip: both continue identically. */
	blob = pearl_adam_to_blob(adam, &size);
	CHECK(blob != NULL);
	if (blob) {
		unsigned char *bytes = blob;

		copy = pearl_adam_from_blob(blob, size, err, sizeof(err));
		CHECK(copy != NULL);
		CHECK(copy && pearl_adam_get_step(copy) == 500);
		memcpy(p2, p, sizeof(p));
		for (s = 0; s < 5; ++s) {
			quad(p, a, t, N, g);
			pearl_adam_step(adam, p, g, N, NULL, NULL, 0);
			quad(p2, a, t, N, g);
			if (copy)
				pearl_adam_step(copy, p2, g, N, NULL, NULL, 0);
		}
		CHECK(memcmp(p, p2, sizeof(p)) == 0);
		/* Corruptions. */
		CHECK(!pearl_adam_from_blob(blob, size - 1, err, sizeof(err)));
		CHECK_STR(err, "truncated optimizer state: expected 136 "
			       "bytes, got 135");
		CHECK(!pearl_adam_from_blob(blob, 10, err, sizeof(err)));
		CHECK_STR(err, "truncated optimizer state: expected at least "
			       "56 bytes, got 10");
		bytes[60] ^= 1;
		CHECK(!pearl_adam_from_blob(blob, size, err, sizeof(err)));
		CHECK_STR(err, "checksum mismatch in the optimizer state");
		bytes[60] ^= 1;
		bytes[4] = 2;
		CHECK(!pearl_adam_from_blob(blob, size, err, sizeof(err)));
		CHECK_STR(err, "unsupported optimizer state version 2 (this "
			       "build reads version 1)");
		bytes[4] = 1;
		bytes[0] = 'X';
		CHECK(!pearl_adam_from_blob(blob, size, err, sizeof(err)));
		CHECK_STR(err, "bad magic: not a Pearl optimizer state "
			       "(expected \"PRLA\")");
		free(blob);
	}
	/* Files. */
	CHECK(pearl_adam_save_file(adam, "test_backward.adam", err,
				   sizeof(err)) == 0);
	pearl_adam_free(copy);
	copy = pearl_adam_load_file("test_backward.adam", err, sizeof(err));
	CHECK(copy && pearl_adam_get_step(copy) == 505);
	remove("test_backward.adam");
	CHECK(!pearl_adam_load_file("no/such/dir/x.adam", err, sizeof(err)));
	/* Configuration errors. */
	cfg.beta2 = 1.0f;
	CHECK(!pearl_adam_alloc(N, &cfg, err, sizeof(err)));
	CHECK_STR(err, "invalid Adam betas 0.9, 1 (must be in [0, 1))");
	cfg.beta2 = 0.999f;
	cfg.lr = 0.0f;
	CHECK(!pearl_adam_alloc(N, &cfg, err, sizeof(err)));
	CHECK_STR(err, "invalid learning rate 0");
	CHECK(!pearl_adam_alloc(0, pearl_adam_get_config(adam), err,
				sizeof(err)));
	CHECK(pearl_adam_set_lr(adam, 1e-3f) == 0);
	CHECK(pearl_adam_get_config(adam)->lr == 1e-3f);
	CHECK(pearl_adam_set_lr(adam, -1.0f) == -1);
	CHECK(pearl_adam_free(NULL) == NULL);
	pearl_adam_free(copy);
	pearl_adam_free(adam);
}

/* ---- The training loop -------------------------------------------------- */

/* Adam fits the value head of the tiny network to fixed targets on four
 * fixed graphs: the MSE falls by more than 10x. */
static void test_fit_value(void)
{
	enum { G = 4, STEPS = 300 };
	const float target[G] = { -1.0f, 0.5f, 1.5f, 0.2f };
	pearl_policy *p = pearl_policy_init_random(&tiny_cfg, 3, NULL, 0);
	pearl_policy_grad *grad = p ? pearl_policy_grad_alloc(p, NULL, 0)
				    : NULL;
	struct pearl_adam_config cfg = pearl_adam_default_config();
	struct pearl_graph *g[G] = { 0 };
	pearl_adam *adam = NULL;
	double mse0 = -1, mse = -1;
	float logits[5], value;
	size_t n;
	int i, s, ok = 1;

	for (i = 0; i < G; ++i)
		g[i] = small_graph(3 + 2 * i, tiny_cfg.n_features, 70 + i);
	cfg.lr = 1e-2f;
	cfg.max_grad_norm = 10.0f;
	pearl_policy_get_params(p, &n);
	adam = pearl_adam_alloc(n, &cfg, NULL, 0);
	CHECK(p && grad && adam && g[G - 1]);
	if (!p || !grad || !adam || !g[G - 1])
		goto out;
	for (s = 0; s <= STEPS && ok; ++s) {
		double sum = 0;

		pearl_policy_grad_zero(grad);
		for (i = 0; i < G; ++i) {
			pearl_policy_tape *t = pearl_policy_forward(
			    p, g[i], logits, &value, NULL, 0);
			float err = value - target[i];

			ok &= t != NULL &&
			      pearl_policy_backward(t, NULL, 2 * err / G,
						    grad, NULL, 0) == 0;
			sum += (double)err * err;
			pearl_policy_tape_free(t);
		}
		mse = sum / G;
		if (s == 0)
			mse0 = mse;
		if (s < STEPS)
			ok &= pearl_adam_step(adam,
					      pearl_policy_get_params(p, NULL),
					      pearl_policy_grad_data(grad, NULL),
					      n, NULL, NULL, 0) == 0;
	}
	CHECK(ok);
	printf("  value fit: MSE %.4g -> %.3g after %d Adam steps (%.0fx)\n",
	       mse0, mse, STEPS, mse0 / mse);
	CHECK(mse0 > 0 && mse < mse0 / 10);
out:
	for (i = 0; i < G; ++i)
		pearl_graph_free(g[i]);
	pearl_adam_free(adam);
	pearl_policy_grad_free(grad);
	pearl_policy_free(p);
}

/* Adam on -log pi(a | graph) under a mask raises the probability of the
 * chosen action on each of two graphs (a different action each) above
 * 0.9, with an entropy bonus in the loss; masked actions stay at 0. */
static void test_fit_policy(void)
{
	enum { G = 2, STEPS = 100 };
	const int action[G] = { 3, 0 };
	unsigned char mask[5] = { 0, 1, 0, 0, 1 };
	pearl_policy *p = pearl_policy_init_random(&tiny_cfg, 11, NULL, 0);
	pearl_policy_grad *grad = p ? pearl_policy_grad_alloc(p, NULL, 0)
				    : NULL;
	struct pearl_adam_config cfg = pearl_adam_default_config();
	struct pearl_graph *g[G];
	pearl_adam *adam = NULL;
	float logits[5], value, logp[5], dz[5];
	double p0[G], p1[G];
	size_t n;
	int i, s, ok = 1;

	for (i = 0; i < G; ++i)
		g[i] = small_graph(4 + i, tiny_cfg.n_features, 100 + i);
	cfg.lr = 1e-2f;
	pearl_policy_get_params(p, &n);
	adam = pearl_adam_alloc(n, &cfg, NULL, 0);
	CHECK(p && grad && adam && g[0] && g[1]);
	if (!p || !grad || !adam || !g[0] || !g[1])
		goto out;
	for (s = 0; s <= STEPS && ok; ++s) {
		pearl_policy_grad_zero(grad);
		for (i = 0; i < G; ++i) {
			pearl_policy_tape *t = pearl_policy_forward(
			    p, g[i], logits, &value, NULL, 0);

			ok &= t != NULL &&
			      pearl_masked_log_softmax(logp, logits, mask,
						       5) == 0;
			if (s == 0)
				p0[i] = exp(logp[action[i]]);
			p1[i] = exp(logp[action[i]]);
			memset(dz, 0, sizeof(dz));
			pearl_masked_log_softmax_grad(dz, logp, mask, 5,
						      action[i], -1.0f / G);
			pearl_masked_entropy_grad(dz, logp, mask, 5,
						  -0.01f / G);
			ok &= dz[1] == 0.0f && dz[4] == 0.0f;
			ok &= t && pearl_policy_backward(t, dz, 0.0f, grad,
							 NULL, 0) == 0;
			pearl_policy_tape_free(t);
		}
		if (s < STEPS)
			ok &= pearl_adam_step(adam,
					      pearl_policy_get_params(p, NULL),
					      pearl_policy_grad_data(grad, NULL),
					      n, NULL, NULL, 0) == 0;
	}
	CHECK(ok);
	printf("  policy fit: pi(a) %.3f, %.3f -> %.3f, %.3f after %d Adam "
	       "steps\n", p0[0], p0[1], p1[0], p1[1], STEPS);
	CHECK(p1[0] > 0.9 && p1[1] > 0.9);
out:
	for (i = 0; i < G; ++i)
		pearl_graph_free(g[i]);
	pearl_adam_free(adam);
	pearl_policy_grad_free(grad);
	pearl_policy_free(p);
}

/* ---- Threads ----------------------------------------------------------- */

struct job {
	const pearl_policy *policy;
	struct pearl_graph **graphs;
	int n_graphs;
	pearl_policy_grad *grad;
	int ok;
};

/* Forward and backward over every graph into job->grad. */
static void *run_job(void *arg)
{
	struct job *job = arg;
	float logits[5], value, dz[5] = { 0.5f, -1, 0.25f, 0, 2 };
	int i;

	job->ok = 1;
	for (i = 0; i < job->n_graphs; ++i) {
		pearl_policy_tape *t = pearl_policy_forward(
		    job->policy, job->graphs[i], logits, &value, NULL, 0);
		job->ok &= t && pearl_policy_backward(t, dz, value, job->grad,
						      NULL, 0) == 0;
		pearl_policy_tape_free(t);
	}
	return NULL;
}

/* Four threads on one policy, each with its own gradient buffer, get the
 * sequential gradient bit for bit. */
static void test_threads(void)
{
	enum { T = 4, G = 3 };
	pearl_policy *p = tiny_policy(&tiny_cfg, 10);
	struct pearl_graph *g[G];
	struct job jobs[T + 1];
	pthread_t tid[T];
	const float *want, *got;
	size_t n;
	int i, started[T] = { 0 };

	for (i = 0; i < G; ++i)
		g[i] = small_graph(4 + 3 * i, tiny_cfg.n_features, 90 + i);
	for (i = 0; i <= T; ++i) {
		jobs[i].policy = p;
		jobs[i].graphs = g;
		jobs[i].n_graphs = G;
		jobs[i].grad = p ? pearl_policy_grad_alloc(p, NULL, 0) : NULL;
		jobs[i].ok = 0;
	}
	CHECK(p && g[0] && g[1] && g[2] && jobs[T].grad);
	if (!p || !g[0] || !g[1] || !g[2] || !jobs[T].grad)
		goto out;
	run_job(&jobs[T]);
	for (i = 0; i < T; ++i)
		started[i] = pthread_create(&tid[i], NULL, run_job,
					    &jobs[i]) == 0;
	for (i = 0; i < T; ++i)
		if (started[i])
			pthread_join(tid[i], NULL);
	want = pearl_policy_grad_data_const(jobs[T].grad, &n);
	CHECK(jobs[T].ok);
	for (i = 0; i < T; ++i) {
		CHECK(started[i] && jobs[i].ok);
		got = pearl_policy_grad_data_const(jobs[i].grad, NULL);
		CHECK(got && memcmp(got, want, n * sizeof(float)) == 0);
	}
out:
	for (i = 0; i <= T; ++i)
		pearl_policy_grad_free(jobs[i].grad);
	for (i = 0; i < G; ++i)
		pearl_graph_free(g[i]);
	pearl_policy_free(p);
}

/* ---- Timing ------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Forward (eval), forward with a tape and backward at the default size on
 * a 30-node graph with sparse features (reported, not checked). */
static void time_default(int reps)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	pearl_policy *p = pearl_policy_init_random(&cfg, 1, NULL, 0);
	struct pearl_graph *g = small_graph(30, cfg.n_features, 81);
	pearl_policy_grad *grad = p ? pearl_policy_grad_alloc(p, NULL, 0)
				    : NULL;
	float logits[PEARL_N_ACTIONS], value, dz[PEARL_N_ACTIONS];
	double t0, t_eval, t_fwd, t_bwd = 0;
	size_t i;
	int r;

	if (!p || !g || !grad)
		goto out;
	for (i = 0; i < (size_t)g->n_nodes * g->n_features; ++i)
		if (i % 10)
			g->x[i] = 0.0f;
	rng_state = 82;
	fill(dz, PEARL_N_ACTIONS, -1, 1);
	t0 = now();
	for (r = 0; r < reps; ++r)
		pearl_policy_eval(p, g, logits, &value, NULL, 0);
	t_eval = (now() - t0) / reps;
	t0 = now();
	for (r = 0; r < reps; ++r)
		pearl_policy_tape_free(
		    pearl_policy_forward(p, g, logits, &value, NULL, 0));
	t_fwd = (now() - t0) / reps;
	for (r = 0; r < reps; ++r) {
		pearl_policy_tape *t =
		    pearl_policy_forward(p, g, logits, &value, NULL, 0);
		t0 = now();
		pearl_policy_backward(t, dz, 1.0f, grad, NULL, 0);
		t_bwd += now() - t0;
		pearl_policy_tape_free(t);
	}
	t_bwd /= reps;
	printf("  default network, 30 nodes: eval %.2f ms, forward+tape "
	       "%.2f ms, backward %.2f ms (%.1fx eval)\n",
	       1e3 * t_eval, 1e3 * t_fwd, 1e3 * t_bwd, t_bwd / t_eval);
out:
	pearl_policy_grad_free(grad);
	pearl_graph_free(g);
	pearl_policy_free(p);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	test_linear();
	test_selu();
	test_pool();
	test_gatv2();
	test_masked();
	test_tensors();
	test_network(&tiny_cfg, 9, 5);
	if (verbose)
		printf("  (one node)\n");
	test_network(&tiny_cfg, 1, 4);
	if (verbose)
		printf("  (focus loops)\n");
	test_network(&focus_cfg, 8, 7);
	test_network_float_fd();
	test_tape();
	test_threads();
	test_adam();
	test_fit_value();
	test_fit_policy();
	time_default(verbose ? 50 : 5);
	return check_done("test_backward");
}
