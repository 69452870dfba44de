/* The layers of the policy network (forward). */
#include "nn.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Rows are taken four at a time so that each row of w, once loaded, feeds
 * four outputs; every y[r][o] still sums its terms in the order of k. The
 * function is also compiled for AVX2 and picked at load time where the CPU
 * has it: vectors run across outputs, the order of the sums is the same
 * and FMA contraction is off, so both versions give the same bits. */
PEARL_NN_CLONES
void pearl_nn_linear(float *restrict y, const float *restrict x,
		     const float *restrict w, const float *restrict b, int n,
		     int d_in, int d_out)
{
	int r, k, o, i;

	for (r = 0; r < n; ++r)
		memcpy(y + (size_t)r * d_out, b, (size_t)d_out * sizeof(float));
	for (r = 0; r + 4 <= n; r += 4) {
		float *restrict y0 = y + (size_t)r * d_out;
		float *restrict y1 = y0 + d_out;
		float *restrict y2 = y1 + d_out;
		float *restrict y3 = y2 + d_out;
		const float *x0 = x + (size_t)r * d_in;

		for (k = 0; k < d_in; ++k) {
			const float *restrict wk = w + (size_t)k * d_out;
			float a0 = x0[k], a1 = x0[d_in + k];
			float a2 = x0[2 * d_in + k], a3 = x0[3 * d_in + k];

			if (a0 == 0.0f && a1 == 0.0f && a2 == 0.0f &&
			    a3 == 0.0f)
				continue;
			for (o = 0; o < d_out; ++o) {
				float wv = wk[o];
				y0[o] += a0 * wv;
				y1[o] += a1 * wv;
				y2[o] += a2 * wv;
				y3[o] += a3 * wv;
			}
		}
	}
	for (i = r; i < n; ++i) {
		float *restrict yr = y + (size_t)i * d_out;
		const float *xr = x + (size_t)i * d_in;

		for (k = 0; k < d_in; ++k) {
			const float *restrict wk = w + (size_t)k * d_out;
			float xv = xr[k];

			if (xv == 0.0f)
				continue;
			for (o = 0; o < d_out; ++o)
				yr[o] += xv * wk[o];
		}
	}
}

void pearl_nn_selu(float *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i)
		x[i] = x[i] > 0.0f ? PEARL_SELU_LAMBDA * x[i]
				   : PEARL_SELU_LAMBDA * PEARL_SELU_ALPHA *
					 expm1f(x[i]);
}

void pearl_nn_pool(float *restrict pooled, const float *restrict h, int n,
		   int d)
{
	float *restrict mean = pooled, *restrict max = pooled + d;
	int r, c;

	memcpy(mean, h, (size_t)d * sizeof(float));
	memcpy(max, h, (size_t)d * sizeof(float));
	for (r = 1; r < n; ++r) {
		const float *hr = h + (size_t)r * d;
		for (c = 0; c < d; ++c) {
			mean[c] += hr[c];
			max[c] = hr[c] > max[c] ? hr[c] : max[c];
		}
	}
	for (c = 0; c < d; ++c)
		mean[c] /= (float)n;
}

/* att . LeakyReLU(a + b) over one head's d values. */
static float attention_score(const float *restrict att,
			     const float *restrict a, const float *restrict b,
			     int d)
{
	float s = 0.0f;
	int c;

	for (c = 0; c < d; ++c) {
		float v = a[c] + b[c];
		v = v > 0.0f ? v : PEARL_GAT_NEG_SLOPE * v;
		s += att[c] * v;
	}
	return s;
}

/* attention_score for four consecutive heads at once (head h uses att,
 * a and b at offset h * d) into s[0..3]: four independent sums, each in the
 * order of c as in attention_score (same bits), interleaved so that they
 * do not wait on one another. */
static void attention_score4(float *restrict s, const float *restrict att,
			     const float *restrict a, const float *restrict b,
			     int d)
{
	float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
	int c;

	for (c = 0; c < d; ++c) {
		float v0 = a[c] + b[c], v1 = a[d + c] + b[d + c];
		float v2 = a[2 * d + c] + b[2 * d + c];
		float v3 = a[3 * d + c] + b[3 * d + c];

		v0 = v0 > 0.0f ? v0 : PEARL_GAT_NEG_SLOPE * v0;
		v1 = v1 > 0.0f ? v1 : PEARL_GAT_NEG_SLOPE * v1;
		v2 = v2 > 0.0f ? v2 : PEARL_GAT_NEG_SLOPE * v2;
		v3 = v3 > 0.0f ? v3 : PEARL_GAT_NEG_SLOPE * v3;
		s0 += att[c] * v0;
		s1 += att[d + c] * v1;
		s2 += att[2 * d + c] * v2;
		s3 += att[3 * d + c] * v3;
	}
	s[0] = s0;
	s[1] = s1;
	s[2] = s2;
	s[3] = s3;
}

/* Neighbourhoods up to this size have their scores computed four heads at
 * a time (into a buffer on the stack); larger ones one head at a time. */
#define GAT_BATCH_DEGREE 64

void pearl_nn_gatv2_target(float *restrict oi, int i,
			   const float *restrict xl, const float *restrict xr,
			   const struct pearl_gat_weights *g, int heads,
			   int hidden, const struct pearl_nn_adjacency *adj,
			   float *restrict scores)
{
	int D = heads * hidden;
	const int *nb = adj->src + adj->start[i];
	int deg = adj->start[i + 1] - adj->start[i];
	float batch[GAT_BATCH_DEGREE][4];
	int k, c, e;

	memcpy(oi, g->bias, (size_t)D * sizeof(float));
	for (k = 0; k < heads; ++k) {
		const float *att = g->att + (size_t)k * hidden;
		const float *xri = xr + (size_t)i * D + k * hidden;
		float *restrict oik = oi + k * hidden;
		float sum;

		/* Scores of heads k..k+3 together, when they fit. */
		if (k % 4 == 0 && k + 4 <= heads && deg <= GAT_BATCH_DEGREE)
			for (e = 0; e < deg; ++e)
				attention_score4(batch[e], att,
						 xl + (size_t)nb[e] * D +
						     k * hidden,
						 xri, hidden);
		/* Softmax over the neighbourhood, max subtracted. */
		for (e = 0; e < deg; ++e)
			scores[e] = k - k % 4 + 4 <= heads &&
					    deg <= GAT_BATCH_DEGREE
					? batch[e][k % 4]
					: attention_score(
					      att,
					      xl + (size_t)nb[e] * D +
						  k * hidden,
					      xri, hidden);
		sum = pearl_nn_exp_minus_max(scores, deg);
		for (e = 0; e < deg; ++e) {
			const float *restrict xlj =
			    xl + (size_t)nb[e] * D + k * hidden;
			float alpha = scores[e] / sum;
			for (c = 0; c < hidden; ++c)
				oik[c] += alpha * xlj[c];
		}
	}
}

void pearl_nn_gatv2(float *restrict out, const float *x, int d_in,
		    const struct pearl_gat_weights *g, int heads, int hidden,
		    const struct pearl_nn_adjacency *adj, float *restrict xl,
		    float *restrict xr, float *restrict scores)
{
	int n = adj->n_nodes, D = heads * hidden;
	int i;

	pearl_nn_linear(xl, x, g->w_src, g->b_src, n, d_in, D);
	pearl_nn_linear(xr, x, g->w_dst, g->b_dst, n, d_in, D);
	for (i = 0; i < n; ++i)
		pearl_nn_gatv2_target(out + (size_t)i * D, i, xl, xr, g, heads,
				      hidden, adj, scores);
}

/* Linear + SELU (the hidden layers of the MLP and the heads). */
static void dense_selu(float *y, const float *x, const float *w,
		       const float *b, int d_in, int d_out)
{
	pearl_nn_linear(y, x, w, b, 1, d_in, d_out);
	pearl_nn_selu(y, (size_t)d_out);
}

float *pearl_nn_readout_acts_carve(struct pearl_nn_readout_acts *act,
				   float *f, size_t d)
{
	float **v[6] = { &act->a, &act->b, &act->pt, &act->pu, &act->vt,
			 &act->vu };
	int i;

	for (i = 0; i < 6; ++i, f += d)
		*v[i] = f;
	return f;
}

uint64_t pearl_nn_layer_acts_floats(const struct pearl_policy_config *cfg,
				    size_t n)
{
	uint64_t d = (uint64_t)cfg->hidden, D = d * (uint64_t)cfg->heads;

	return (uint64_t)n * cfg->n_features +
	       (uint64_t)cfg->n_layers * n * (2 * D + d);
}

float *pearl_nn_layer_acts_carve(struct pearl_nn_layer_acts *acts,
				 const struct pearl_policy_config *cfg,
				 size_t n, float *f)
{
	size_t d = (size_t)cfg->hidden, D = d * (size_t)cfg->heads;
	int l;

	acts->x = f, f += n * (size_t)cfg->n_features;
	for (l = 0; l < cfg->n_layers; ++l) {
		acts->xl[l] = f, f += n * D;
		acts->xr[l] = f, f += n * D;
		acts->h[l] = f, f += n * d;
	}
	return f;
}

void *pearl_nn_block_alloc(uint64_t n_floats, uint64_t n_ints,
			   uint64_t n_bytes)
{
	if (n_floats + n_ints + n_bytes > SIZE_MAX / 8)
		return NULL;
	return malloc((size_t)n_floats * sizeof(float) +
		      (size_t)n_ints * sizeof(int) + (size_t)n_bytes);
}

size_t pearl_nn_readin_size(const struct pearl_policy_config *cfg)
{
	return (size_t)(2 + cfg->focus_levels) * (size_t)cfg->hidden *
	       (size_t)cfg->n_layers;
}

size_t pearl_nn_focus_offset(const struct pearl_policy_config *cfg, int l)
{
	size_t d = (size_t)cfg->hidden;

	return 2 * d * (size_t)cfg->n_layers +
	       (size_t)cfg->focus_levels * d * (size_t)l;
}

void pearl_nn_focus_nodes(int *nodes, const struct pearl_policy_config *cfg,
			  const float *x, int n)
{
	size_t F = (size_t)cfg->n_features;
	int i, k;

	for (k = 0; k < cfg->focus_levels; ++k)
		nodes[k] = -1;
	if (cfg->focus_levels == 0)
		return;
	for (i = 0; i < n; ++i) {
		const float *row = x + (size_t)i * F;
		int level = 0;

		if (!(row[PEARL_F_KIND + 1] > 0.5f) ||
		    !(row[PEARL_F_FOCUS] > 0.5f))
			continue;
		for (k = 1; k < PEARL_GRAPH_N_LEVELS; ++k)
			if (row[PEARL_F_LEVEL + k] > row[PEARL_F_LEVEL + level])
				level = k;
		if (level < cfg->focus_levels && nodes[level] < 0)
			nodes[level] = i;
	}
}

void pearl_nn_focus_gather(float *out, const float *h, const int *nodes,
			   int levels, int d)
{
	int k;

	for (k = 0; k < levels; ++k)
		if (nodes[k] >= 0)
			memcpy(out + (size_t)k * d, h + (size_t)nodes[k] * d,
			       (size_t)d * sizeof(float));
		else
			memset(out + (size_t)k * d, 0,
			       (size_t)d * sizeof(float));
}

void pearl_nn_readin_layer(float *readin,
			   const struct pearl_policy_config *cfg, int l,
			   const float *h, int n, const int *focus)
{
	int d = cfg->hidden;

	pearl_nn_pool(readin + (size_t)2 * d * l, h, n, d);
	pearl_nn_focus_gather(readin + pearl_nn_focus_offset(cfg, l), h, focus,
			      cfg->focus_levels, d);
}

void pearl_nn_readout(const struct pearl_policy_config *cfg,
		      const struct pearl_policy_weights *w,
		      const float *readin, struct pearl_nn_readout_acts *act,
		      float *logits, float *value)
{
	int d = cfg->hidden;

	dense_selu(act->a, readin, w->mlp_w1, w->mlp_b1,
		   (int)pearl_nn_readin_size(cfg), d);
	dense_selu(act->b, act->a, w->mlp_w2, w->mlp_b2, d, d);
	/* Policy head: raw logits. */
	dense_selu(act->pt, act->b, w->pi_w1, w->pi_b1, d, d);
	dense_selu(act->pu, act->pt, w->pi_w2, w->pi_b2, d, d);
	pearl_nn_linear(logits, act->pu, w->pi_w3, w->pi_b3, 1, d,
			cfg->n_actions);
	/* Value head. */
	dense_selu(act->vt, act->b, w->v_w1, w->v_b1, d, d);
	dense_selu(act->vu, act->vt, w->v_w2, w->v_b2, d, d);
	pearl_nn_linear(value, act->vu, w->v_w3, w->v_b3, 1, d, 1);
}
