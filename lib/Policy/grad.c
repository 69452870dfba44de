/* Training access to a policy: writable parameters, the tensor list and
 * gradient buffers shaped like the weights (pearl/train.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_grad.h"
#include "weights.h"

float *pearl_policy_get_params(pearl_policy *policy, size_t *n_floats)
{
	if (n_floats)
		*n_floats = policy ? policy->n_floats : 0;
	return policy ? policy->data : NULL;
}

const float *pearl_policy_get_params_const(const pearl_policy *policy,
					   size_t *n_floats)
{
	if (n_floats)
		*n_floats = policy ? policy->n_floats : 0;
	return policy ? policy->data : NULL;
}

int pearl_policy_n_tensors(const pearl_policy *policy)
{
	int n = 0;

	if (!policy)
		return 0;
	pearl_policy_walk(&policy->cfg, NULL, NULL, NULL, &n);
	return n;
}

int pearl_policy_get_tensor(const pearl_policy *policy, int t,
			    struct pearl_param_tensor *tensor)
{
	struct pearl_tensor tab[PEARL_POLICY_MAX_TENSORS];
	int n = 0;

	if (!policy || !tensor)
		return -1;
	pearl_policy_walk(&policy->cfg, NULL, NULL, tab, &n);
	if (t < 0 || t >= n || t >= PEARL_POLICY_MAX_TENSORS)
		return -1;
	tensor->name = tab[t].name;
	tensor->layer = tab[t].layer;
	tensor->rows = tab[t].rows;
	tensor->cols = tab[t].cols;
	tensor->is_matrix = tab[t].is_matrix;
	tensor->offset = tab[t].offset;
	return 0;
}

pearl_policy_grad *pearl_policy_grad_alloc(const pearl_policy *policy,
					   char *err, size_t err_size)
{
	pearl_policy_grad *grad;

	if (!policy) {
		pearl_error_printf(err, err_size, "no policy");
		return NULL;
	}
	grad = calloc(1, sizeof(*grad) + policy->n_floats * sizeof(float));
	if (!grad) {
		pearl_error_printf(err, err_size,
				   "out of memory allocating %zu gradients",
				   policy->n_floats);
		return NULL;
	}
	grad->cfg = policy->cfg;
	grad->n_floats = policy->n_floats;
	return grad;
}

pearl_policy_grad *pearl_policy_grad_free(pearl_policy_grad *grad)
{
	free(grad);
	return NULL;
}

void pearl_policy_grad_zero(pearl_policy_grad *grad)
{
	if (grad)
		memset(grad->data, 0, grad->n_floats * sizeof(float));
}

float *pearl_policy_grad_data(pearl_policy_grad *grad, size_t *n_floats)
{
	if (n_floats)
		*n_floats = grad ? grad->n_floats : 0;
	return grad ? grad->data : NULL;
}

const float *pearl_policy_grad_data_const(const pearl_policy_grad *grad,
					  size_t *n_floats)
{
	if (n_floats)
		*n_floats = grad ? grad->n_floats : 0;
	return grad ? grad->data : NULL;
}

void pearl_policy_grad_scale(pearl_policy_grad *grad, float s)
{
	size_t i;

	if (!grad)
		return;
	for (i = 0; i < grad->n_floats; ++i)
		grad->data[i] *= s;
}

int pearl_policy_grad_add(pearl_policy_grad *grad,
			  const pearl_policy_grad *other, char *err,
			  size_t err_size)
{
	size_t i;

	if (!grad || !other)
		return pearl_error_printf(err, err_size, "no gradient");
	if (grad->n_floats != other->n_floats ||
	    memcmp(&grad->cfg, &other->cfg, sizeof(grad->cfg)) != 0)
		return pearl_error_printf(err, err_size,
					  "gradients of different shapes "
					  "(%zu and %zu floats)",
					  grad->n_floats, other->n_floats);
	for (i = 0; i < grad->n_floats; ++i)
		grad->data[i] += other->data[i];
	return 0;
}

double pearl_policy_grad_norm(const pearl_policy_grad *grad)
{
	double s = 0.0;
	size_t i;

	if (!grad)
		return 0.0;
	for (i = 0; i < grad->n_floats; ++i)
		s += (double)grad->data[i] * grad->data[i];
	return sqrt(s);
}
