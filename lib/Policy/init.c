/*
 * Random initialization of a policy, deterministic across machines.
 *
 * The generator is splitmix64 (pearl/random.h), started at the seed.
 * Tensors are filled in blob order (blob.h), each matrix element in
 * storage order:
 * u = (next() >> 11) * 2^-53 in [0, 1), w = (2 u - 1) a, computed in double
 * and rounded to float once, with a = sqrt(6 / (rows + cols)) (Xavier /
 * Glorot uniform over the stored [in, out] shape; for the attention
 * vectors [heads, hidden]). Biases are 0 and draw nothing.
 * The rows of mlp.w1 that read the focus loops (pearl/policy.h) are 0 too
 * and draw nothing; its pooled rows are drawn as the whole matrix of a
 * policy without focus loops is (a over 2 d n_layers + d). So a fresh
 * policy starts as the one without focus loops of the same seed, and the
 * focus rows, like a widened blob's, grow from zero with training.
 */
#include <math.h>
#include <string.h>

#include "weights.h"
#include "pearl/random.h"

static void xavier_uniform(float *w, int rows, int cols, uint64_t *state)
{
	double a = sqrt(6.0 / ((double)rows + (double)cols));
	size_t i, n = (size_t)rows * (size_t)cols;

	for (i = 0; i < n; ++i) {
		double u = pearl_random_unit(state);

		w[i] = (float)((2.0 * u - 1.0) * a);
	}
}

pearl_policy *pearl_policy_init_random(const struct pearl_policy_config *cfg,
				       uint64_t seed, char *err,
				       size_t err_size)
{
	struct pearl_tensor tab[PEARL_POLICY_MAX_TENSORS];
	pearl_policy *policy = pearl_policy_alloc(cfg, err, err_size);
	uint64_t state = seed;
	int n_tensors, t;

	if (!policy)
		return NULL;
	pearl_policy_walk(cfg, NULL, NULL, tab, &n_tensors);
	for (t = 0; t < n_tensors; ++t) {
		float *p = policy->data + tab[t].offset;
		size_t i, n = (size_t)tab[t].rows * (size_t)tab[t].cols;

		if (!strcmp(tab[t].name, "mlp.w1") && cfg->focus_levels > 0) {
			int pooled = 2 * cfg->hidden * cfg->n_layers;

			xavier_uniform(p, pooled, tab[t].cols, &state);
			for (i = (size_t)pooled * (size_t)tab[t].cols; i < n;
			     ++i)
				p[i] = 0.0f;
		} else if (tab[t].is_matrix)
			xavier_uniform(p, tab[t].rows, tab[t].cols, &state);
		else
			for (i = 0; i < n; ++i)
				p[i] = 0.0f;
	}
	return policy;
}
