/* The layers of the policy network, backward (nn_grad.h). */
#include "nn_grad.h"

#include <math.h>
#include <string.h>

void pearl_policy_grads_map(struct pearl_policy_grads *gw,
			    const struct pearl_policy_config *cfg,
			    float *data)
{
	struct pearl_policy_weights w;
	int l;

	/* The walk yields const views; data itself is writable. */
	pearl_policy_walk(cfg, data, &w, NULL, NULL);
	memset(gw, 0, sizeof(*gw));
	for (l = 0; l < cfg->n_layers; ++l) {
		const struct pearl_gat_weights *g = &w.gat[l];
		struct pearl_gat_grads *d = &gw->gat[l];

		d->w_src = (float *)g->w_src;
		d->b_src = (float *)g->b_src;
		d->w_dst = (float *)g->w_dst;
		d->b_dst = (float *)g->b_dst;
		d->att = (float *)g->att;
		d->bias = (float *)g->bias;
		d->w_lin = (float *)g->w_lin;
		d->b_lin = (float *)g->b_lin;
	}
	gw->mlp_w1 = (float *)w.mlp_w1;
	gw->mlp_b1 = (float *)w.mlp_b1;
	gw->mlp_w2 = (float *)w.mlp_w2;
	gw->mlp_b2 = (float *)w.mlp_b2;
	gw->pi_w1 = (float *)w.pi_w1;
	gw->pi_b1 = (float *)w.pi_b1;
	gw->pi_w2 = (float *)w.pi_w2;
	gw->pi_b2 = (float *)w.pi_b2;
	gw->pi_w3 = (float *)w.pi_w3;
	gw->pi_b3 = (float *)w.pi_b3;
	gw->v_w1 = (float *)w.v_w1;
	gw->v_b1 = (float *)w.v_b1;
	gw->v_w2 = (float *)w.v_w2;
	gw->v_b2 = (float *)w.v_b2;
	gw->v_w3 = (float *)w.v_w3;
	gw->v_b3 = (float *)w.v_b3;
}

/* nn.h may provide AVX2 clones of the dense kernels; without it, one
 * version. */
#ifndef PEARL_NN_CLONES
#define PEARL_NN_CLONES
#endif

/* Eight floats in one vector (GNU C vector extension: one AVX register in
 * the AVX2 clone, two SSE registers otherwise). */
typedef float v8f __attribute__((vector_size(32)));

/* Vectors go by pointer or macro, never by value through a call, whose
 * ABI would differ between the clones. */
#define LOAD8(v, p) memcpy(&(v), (p), sizeof(v8f))

static inline float hsum8(const v8f *v)
{
	const v8f s = *v;

	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

/* a . b over n values, eight partial sums. */
static inline float dot(const float *restrict a, const float *restrict b,
			int n)
{
	v8f s = { 0 }, av, bv;
	float t;
	int o;

	for (o = 0; o + 8 <= n; o += 8) {
		LOAD8(av, a + o);
		LOAD8(bv, b + o);
		s += av * bv;
	}
	t = hsum8(&s);
	for (; o < n; ++o)
		t += a[o] * b[o];
	return t;
}

/* The dots of four rows a0..a3 with b (n values) into out[4]: b is loaded
 * once for the four. */
static inline void dot4(float *restrict out, const float *restrict a0,
			const float *restrict a1, const float *restrict a2,
			const float *restrict a3, const float *restrict b,
			int n)
{
	v8f s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 }, bv, av;
	int o;

	for (o = 0; o + 8 <= n; o += 8) {
		LOAD8(bv, b + o);
		LOAD8(av, a0 + o);
		s0 += av * bv;
		LOAD8(av, a1 + o);
		s1 += av * bv;
		LOAD8(av, a2 + o);
		s2 += av * bv;
		LOAD8(av, a3 + o);
		s3 += av * bv;
	}
	out[0] = hsum8(&s0);
	out[1] = hsum8(&s1);
	out[2] = hsum8(&s2);
	out[3] = hsum8(&s3);
	for (; o < n; ++o) {
		out[0] += a0[o] * b[o];
		out[1] += a1[o] * b[o];
		out[2] += a2[o] * b[o];
		out[3] += a3[o] * b[o];
	}
}

/* Rows are taken four at a time, as in pearl_nn_linear, so that each row
 * of dw and of w is loaded once for four rows of dy. */
PEARL_NN_CLONES
void pearl_nn_linear_backward(float *restrict dx, float *restrict dw,
			      float *restrict db, const float *restrict dy,
			      const float *restrict x, const float *restrict w,
			      int n, int d_in, int d_out)
{
	int r, k, o;

	for (r = 0; r < n; ++r)
		for (o = 0; o < d_out; ++o)
			db[o] += dy[(size_t)r * d_out + o];
	for (r = 0; r + 4 <= n; r += 4) {
		const float *restrict dy0 = dy + (size_t)r * d_out;
		const float *restrict dy1 = dy0 + d_out;
		const float *restrict dy2 = dy1 + d_out;
		const float *restrict dy3 = dy2 + d_out;
		const float *x0 = x + (size_t)r * d_in;

		for (k = 0; k < d_in; ++k) {
			float *restrict dwk = dw + (size_t)k * d_out;
			float a0 = x0[k], a1 = x0[d_in + k];
			float a2 = x0[2 * d_in + k], a3 = x0[3 * d_in + k];

			if (a0 == 0.0f && a1 == 0.0f && a2 == 0.0f &&
			    a3 == 0.0f)
				continue;
			for (o = 0; o < d_out; ++o)
				dwk[o] += (a0 * dy0[o] + a1 * dy1[o]) +
					  (a2 * dy2[o] + a3 * dy3[o]);
		}
		if (!dx)
			continue;
		for (k = 0; k < d_in; ++k) {
			float t[4];
			float *dxk = dx + (size_t)r * d_in + k;

			dot4(t, dy0, dy1, dy2, dy3, w + (size_t)k * d_out,
			     d_out);
			dxk[0] += t[0];
			dxk[d_in] += t[1];
			dxk[2 * d_in] += t[2];
			dxk[3 * d_in] += t[3];
		}
	}
	for (; r < n; ++r) {
		const float *restrict dyr = dy + (size_t)r * d_out;
		const float *restrict xr = x + (size_t)r * d_in;

		for (k = 0; k < d_in; ++k) {
			float *restrict dwk = dw + (size_t)k * d_out;
			float xv = xr[k];

			if (xv == 0.0f)
				continue;
			for (o = 0; o < d_out; ++o)
				dwk[o] += xv * dyr[o];
		}
		if (!dx)
			continue;
		for (k = 0; k < d_in; ++k)
			dx[(size_t)r * d_in + k] +=
			    dot(dyr, w + (size_t)k * d_out, d_out);
	}
}

void pearl_nn_selu_backward(float *dy, const float *y, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i)
		dy[i] *= y[i] > 0.0f ? PEARL_SELU_LAMBDA
				     : y[i] + PEARL_SELU_LAMBDA *
						  PEARL_SELU_ALPHA;
}

void pearl_nn_pool_backward(float *restrict dh, const float *restrict dpooled,
			    const float *restrict h, int n, int d)
{
	const float *dmean = dpooled, *dmax = dpooled + d;
	int r, c;

	for (r = 0; r < n; ++r)
		for (c = 0; c < d; ++c)
			dh[(size_t)r * d + c] += dmean[c] / (float)n;
	for (c = 0; c < d; ++c) {
		int best = 0;
		float max = h[c];

		/* The forward pass's scan: a later row wins only if it is
		 * strictly greater, so ties go to the first row. */
		for (r = 1; r < n; ++r)
			if (h[(size_t)r * d + c] > max) {
				max = h[(size_t)r * d + c];
				best = r;
			}
		dh[(size_t)best * d + c] += dmax[c];
	}
}

void pearl_nn_focus_scatter(float *dh, const float *dout, const int *nodes,
			    int levels, int d)
{
	int k, c;

	for (k = 0; k < levels; ++k)
		if (nodes[k] >= 0)
			for (c = 0; c < d; ++c)
				dh[(size_t)nodes[k] * d + c] +=
				    dout[(size_t)k * d + c];
}

/* The attention coefficients of target i, head k over its neighbourhood nb
 * (deg entries) into alpha, computed as pearl_nn_gatv2 does. */
static void attention(float *restrict alpha, const float *restrict att,
		      const float *xl, const float *restrict xri,
		      const int *nb, int deg, int D, int hidden)
{
	float sum;
	int e, c;

	for (e = 0; e < deg; ++e) {
		const float *xlj = xl + (size_t)nb[e] * D;
		float s = 0.0f;

		for (c = 0; c < hidden; ++c) {
			float v = xlj[c] + xri[c];
			v = v > 0.0f ? v : PEARL_GAT_NEG_SLOPE * v;
			s += att[c] * v;
		}
		alpha[e] = s;
	}
	sum = pearl_nn_exp_minus_max(alpha, deg);
	for (e = 0; e < deg; ++e)
		alpha[e] /= sum;
}

void pearl_nn_gatv2_backward(float *dx, const struct pearl_gat_grads *dg,
			     const float *dout, const float *x, int d_in,
			     const struct pearl_gat_weights *g, int heads,
			     int hidden, const struct pearl_nn_adjacency *adj,
			     const float *xl, const float *xr,
			     float *restrict dxl, float *restrict dxr,
			     float *restrict alpha, float *restrict dalpha)
{
	int n = adj->n_nodes, D = heads * hidden;
	int i, k, c, e;

	memset(dxl, 0, (size_t)n * D * sizeof(float));
	memset(dxr, 0, (size_t)n * D * sizeof(float));
	for (i = 0; i < n; ++i) {
		const int *nb = adj->src + adj->start[i];
		int deg = adj->start[i + 1] - adj->start[i];
		const float *doi = dout + (size_t)i * D;

		for (c = 0; c < D; ++c)
			dg->bias[c] += doi[c];
		for (k = 0; k < heads; ++k) {
			const float *att = g->att + (size_t)k * hidden;
			float *datt = dg->att + (size_t)k * hidden;
			const float *xri = xr + (size_t)i * D + k * hidden;
			float *dxri = dxr + (size_t)i * D + k * hidden;
			const float *gk = doi + k * hidden;
			float sdot = 0.0f;

			attention(alpha, att, xl + k * hidden, xri, nb, deg,
				  D, hidden);
			/* out = sum_j alpha_j xl_j: the message path. */
			for (e = 0; e < deg; ++e) {
				const float *xlj =
				    xl + (size_t)nb[e] * D + k * hidden;
				float *dxlj =
				    dxl + (size_t)nb[e] * D + k * hidden;

				dalpha[e] = 0.0f;
				for (c = 0; c < hidden; ++c) {
					dalpha[e] += gk[c] * xlj[c];
					dxlj[c] += alpha[e] * gk[c];
				}
				sdot += alpha[e] * dalpha[e];
			}
			/* Through the softmax to the scores, then through
			 * att . LeakyReLU(xl_j + xr_i). */
			for (e = 0; e < deg; ++e) {
				const float *xlj =
				    xl + (size_t)nb[e] * D + k * hidden;
				float *dxlj =
				    dxl + (size_t)nb[e] * D + k * hidden;
				float de = alpha[e] * (dalpha[e] - sdot);

				if (de == 0.0f)
					continue;
				for (c = 0; c < hidden; ++c) {
					float s = xlj[c] + xri[c];
					float v, ds;

					if (s > 0.0f) {
						v = s;
						ds = de * att[c];
					} else {
						v = PEARL_GAT_NEG_SLOPE * s;
						ds = de * att[c] *
						     PEARL_GAT_NEG_SLOPE;
					}
					datt[c] += de * v;
					dxlj[c] += ds;
					dxri[c] += ds;
				}
			}
		}
	}
	pearl_nn_linear_backward(dx, dg->w_src, dg->b_src, dxl, x, g->w_src, n,
				 d_in, D);
	pearl_nn_linear_backward(dx, dg->w_dst, dg->b_dst, dxr, x, g->w_dst, n,
				 d_in, D);
}
