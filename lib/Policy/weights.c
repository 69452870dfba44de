/* The layout of the weights (one walk in blob order) and the policy object. */
#include "weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pearl_policy_config pearl_policy_default_config(void)
{
	struct pearl_policy_config cfg = {
		.n_features = PEARL_GRAPH_N_FEATURES,
		.hidden = 128,
		.heads = 4,
		.n_layers = 2,
		.n_actions = PEARL_N_ACTIONS,
		.focus_levels = PEARL_POLICY_FOCUS_LEVELS,
	};
	return cfg;
}

const struct pearl_policy_config *pearl_policy_get_config(
    const pearl_policy *policy)
{
	return policy ? &policy->cfg : NULL;
}

static int check_dim(const char *name, int v, int max, char *err,
		     size_t err_size)
{
	if (v >= 1 && v <= max)
		return 0;
	return pearl_error_printf(err, err_size,
				  "invalid configuration: %s = %d (must be in "
				  "1..%d)", name, v, max);
}

int pearl_policy_config_check(const struct pearl_policy_config *cfg,
			      char *err, size_t err_size)
{
	uint64_t n;

	if (!cfg)
		return pearl_error_printf(err, err_size,
					  "invalid configuration: NULL");
	if (check_dim("n_features", cfg->n_features, 1 << 16, err,
		      err_size) < 0 ||
	    check_dim("hidden", cfg->hidden, 1 << 12, err, err_size) < 0 ||
	    check_dim("heads", cfg->heads, 64, err, err_size) < 0 ||
	    check_dim("n_layers", cfg->n_layers, PEARL_POLICY_MAX_LAYERS, err,
		      err_size) < 0 ||
	    check_dim("n_actions", cfg->n_actions, 1 << 12, err, err_size) < 0)
		return -1;
	if (cfg->focus_levels < 0 || cfg->focus_levels > PEARL_GRAPH_N_LEVELS)
		return pearl_error_printf(err, err_size,
					  "invalid configuration: focus_levels "
					  "= %d (must be in 0..%d)",
					  cfg->focus_levels,
					  PEARL_GRAPH_N_LEVELS);
	if (cfg->focus_levels > 0 && cfg->n_features <= PEARL_F_FOCUS)
		return pearl_error_printf(err, err_size,
					  "invalid configuration: focus loops "
					  "need the kind, level and focus "
					  "features (n_features > %d, not %d)",
					  PEARL_F_FOCUS, cfg->n_features);
	/* Bounded dimensions keep this product far from overflowing. */
	n = pearl_policy_walk(cfg, NULL, NULL, NULL, NULL);
	if (n >= UINT32_MAX / 4)
		return pearl_error_printf(err, err_size,
					  "invalid configuration: %llu weights "
					  "is too many for a blob",
					  (unsigned long long)n);
	return 0;
}

/* The walk's cursor: where the next tensor goes. */
struct walk {
	const float *base; /* NULL: only count */
	uint64_t off;
	struct pearl_tensor *tab; /* NULL: record nothing */
	int n;
};

static const float *take(struct walk *wk, const char *name, int layer,
			 int rows, int cols, int is_matrix)
{
	const float *p = wk->base ? wk->base + wk->off : NULL;

	if (wk->tab && wk->n < PEARL_POLICY_MAX_TENSORS) {
		struct pearl_tensor *t = &wk->tab[wk->n];
		t->name = name;
		t->layer = layer;
		t->rows = rows;
		t->cols = cols;
		t->is_matrix = is_matrix;
		t->offset = (size_t)wk->off;
	}
	wk->n++;
	wk->off += (uint64_t)rows * (uint64_t)cols;
	return p;
}

#define MAT(wk, name, layer, r, c) take(wk, name, layer, r, c, 1)
#define VEC(wk, name, layer, n) take(wk, name, layer, 1, n, 0)

uint64_t pearl_policy_walk(const struct pearl_policy_config *cfg,
			   const float *base, struct pearl_policy_weights *w,
			   struct pearl_tensor *tab, int *n_tensors)
{
	struct pearl_policy_weights dummy;
	struct walk wk = { base, 0, tab, 0 };
	int d = cfg->hidden, D = cfg->heads * cfg->hidden;
	int l;

	if (!w)
		w = &dummy;
	memset(w, 0, sizeof(*w));
	for (l = 0; l < cfg->n_layers; ++l) {
		struct pearl_gat_weights *g = &w->gat[l];
		int d_in = l == 0 ? cfg->n_features : d;

		g->w_src = MAT(&wk, "w_src", l, d_in, D);
		g->b_src = VEC(&wk, "b_src", l, D);
		g->w_dst = MAT(&wk, "w_dst", l, d_in, D);
		g->b_dst = VEC(&wk, "b_dst", l, D);
		g->att = MAT(&wk, "att", l, cfg->heads, d);
		g->bias = VEC(&wk, "bias", l, D);
		g->w_lin = MAT(&wk, "w_lin", l, D, d);
		g->b_lin = VEC(&wk, "b_lin", l, d);
	}
	w->mlp_w1 = MAT(&wk, "mlp.w1", -1,
			(2 + cfg->focus_levels) * d * cfg->n_layers, d);
	w->mlp_b1 = VEC(&wk, "mlp.b1", -1, d);
	w->mlp_w2 = MAT(&wk, "mlp.w2", -1, d, d);
	w->mlp_b2 = VEC(&wk, "mlp.b2", -1, d);
	w->pi_w1 = MAT(&wk, "pi.w1", -1, d, d);
	w->pi_b1 = VEC(&wk, "pi.b1", -1, d);
	w->pi_w2 = MAT(&wk, "pi.w2", -1, d, d);
	w->pi_b2 = VEC(&wk, "pi.b2", -1, d);
	w->pi_w3 = MAT(&wk, "pi.w3", -1, d, cfg->n_actions);
	w->pi_b3 = VEC(&wk, "pi.b3", -1, cfg->n_actions);
	w->v_w1 = MAT(&wk, "v.w1", -1, d, d);
	w->v_b1 = VEC(&wk, "v.b1", -1, d);
	w->v_w2 = MAT(&wk, "v.w2", -1, d, d);
	w->v_b2 = VEC(&wk, "v.b2", -1, d);
	w->v_w3 = MAT(&wk, "v.w3", -1, d, 1);
	w->v_b3 = VEC(&wk, "v.b3", -1, 1);
	if (n_tensors)
		*n_tensors = wk.n;
	return wk.off;
}

pearl_policy *pearl_policy_alloc(const struct pearl_policy_config *cfg,
				 char *err, size_t err_size)
{
	pearl_policy *policy;
	uint64_t n;

	if (pearl_policy_config_check(cfg, err, err_size) < 0)
		return NULL;
	n = pearl_policy_walk(cfg, NULL, NULL, NULL, NULL);
	policy = calloc(1, sizeof(*policy));
	if (policy)
		policy->data = malloc((size_t)n * sizeof(float));
	if (!policy || !policy->data) {
		pearl_policy_free(policy);
		pearl_error_printf(err, err_size,
				   "out of memory allocating %llu weights",
				   (unsigned long long)n);
		return NULL;
	}
	policy->cfg = *cfg;
	policy->n_floats = (size_t)n;
	pearl_policy_walk(cfg, policy->data, &policy->w, NULL, NULL);
	return policy;
}

pearl_policy *pearl_policy_free(pearl_policy *policy)
{
	if (!policy)
		return NULL;
	free(policy->data);
	free(policy);
	return NULL;
}
