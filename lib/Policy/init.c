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
 */
#include <math.h>

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

		if (tab[t].is_matrix)
			xavier_uniform(p, tab[t].rows, tab[t].cols, &state);
		else
			for (i = 0; i < n; ++i)
				p[i] = 0.0f;
	}
	return policy;
}
