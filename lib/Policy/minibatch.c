/* One pass of minibatch gradient descent (pearl/train.h): the loop that
 * PPO, imitation and value regression share. */
#include "pearl/random.h"
#include "pearl/train.h"

int pearl_minibatch_pass(pearl_policy *policy, pearl_adam *adam,
			 pearl_policy_grad *grad, int *order, int n,
			 int minibatch, uint64_t *rng,
			 pearl_minibatch_sample_fn add_sample, void *user,
			 double *grad_norm_sum, int *adam_steps, char *err,
			 size_t err_size)
{
	int start;

	pearl_shuffle_indices(order, n, rng);
	for (start = 0; start < n; start += minibatch) {
		int end = start + minibatch < n ? start + minibatch : n, k;
		size_t n_params;
		float *params = pearl_policy_get_params(policy, &n_params);
		const float *g;
		double norm;

		pearl_policy_grad_zero(grad);
		for (k = start; k < end; ++k)
			if (add_sample(user, order[k], end - start, grad, err,
				       err_size) < 0)
				return -1;
		g = pearl_policy_grad_data_const(grad, &n_params);
		if (pearl_adam_step(adam, params, g, n_params, &norm, err,
				    err_size) < 0)
			return -1;
		if (grad_norm_sum)
			*grad_norm_sum += norm;
		if (adam_steps)
			++*adam_steps;
	}
	return 0;
}
