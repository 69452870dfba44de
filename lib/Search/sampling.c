/* Adaptive sampling of a level's children (pearl_search_adaptive in
 * pearl/search.h): clusters by the policy's graph embedding. */
#include <stdio.h>
#include <stdlib.h>

#include "pearl/cluster.h"
#include "pearl/features.h"
#include "search_internal.h"

/* The embedding of child `c` (kept): its schedule's graph with its branch
 * in focus, into `out` (dim floats). A child whose graph cannot be built
 * (its isl computations past the context's time limit or quota, which a
 * loaded machine makes likelier) gets the zero vector: it is clustered
 * with the others of its kind and still measured, and the search goes on
 * (it used to stop the whole search, and a training run with it). 0, or
 * -1 with a message in err. */
static int embed_child(const pearl_policy *policy,
		       const struct search_state *c, float *out, int dim,
		       char *err, size_t err_size)
{
	struct pearl_graph *g = pearl_graph_build(c->sched, c->branch);
	int rc, i;

	if (!g) {
		pearl_ctx_clear_error(pearl_program_get_ctx(
		    pearl_sched_get_program(c->sched)));
		for (i = 0; i < dim; ++i)
			out[i] = 0;
		return 0;
	}
	rc = pearl_policy_embed(policy, g, out, err, err_size);
	pearl_graph_free(g);
	return rc;
}

int search_cluster_children(const pearl_policy *policy,
			    struct search_states *children, int max_k,
			    char *err, size_t err_size)
{
	int dim = pearl_policy_embedding_size(policy), n = children->n, i, k;
	float *points = malloc((size_t)n * dim * sizeof(float));
	int *cluster = malloc(n * sizeof(int));

	k = -1;
	if (!points || !cluster) {
		snprintf(err, err_size, "search: out of memory");
		goto out;
	}
	for (i = 0; i < n; ++i)
		if (embed_child(policy, &children->s[i],
				points + (size_t)i * dim, dim, err,
				err_size) < 0)
			goto out;
	k = pearl_cluster_knee(points, n, dim, max_k, cluster);
	if (k < 0) {
		snprintf(err, err_size, "search: out of memory");
		goto out;
	}
	for (i = 0; i < n; ++i)
		children->s[i].cluster = cluster[i];
out:
	free(points);
	free(cluster);
	return k;
}
