/*
 * pearl/policy.h - the policy network: a GATv2 actor-critic over Pearl's
 * AST graph (pearl/graph.h), evaluated in plain C.
 *
 * Architecture (lib/README.md, "The policy network"; Pearl paper section 4.4):
 *   for each of n_layers GATv2 layers (heads attention heads of width
 *   hidden, concatenated, over the graph's edges taken in both directions
 *   plus a self-loop per node), a Linear(heads*hidden -> hidden) and SELU;
 *   after each layer the node states are pooled as concat(mean, max);
 *   the pooled vectors of all layers, then the states of the focus loops
 *   of all layers (below) are concatenated ((2 + focus_levels) * hidden
 *   * n_layers) and go through an MLP of 2 Linear+SELU layers (-> hidden);
 *   a policy head Linear+SELU, Linear+SELU, Linear(-> n_actions) and a
 *   value head of the same shape ending in Linear(-> 1).
 * The focus loops: for k < focus_levels, the state of the loop at depth k
 * on the branch the agent works on (read off the graph's features: the
 * first node, in node order, whose kind is loop, whose [FOCUS] is set and
 * whose largest [LEVEL] entry is k), or zeros if there is none. Pooling
 * keeps what the graph holds but not where: the actions name loops by
 * depth (I(L,L+1), T(L,..), P(L)), and these rows tell the readout which
 * loop is at which depth (not in Pearl's paper; added with blob version 2).
 * The attention follows PyTorch Geometric's GATv2Conv (share_weights=False,
 * concat=True): the graph's edges are made undirected (an edge given twice,
 * or in both directions, counts once; an edge from a node to itself is the
 * self-loop every node has anyway). models/README.md is the model card;
 * test/Policy/reference.py is an independent NumPy implementation.
 *
 * Weights live in a versioned blob (format in lib/Policy/blob.h): magic,
 * version, dimensions, a checksum, then fp32 tensors in a fixed order. One
 * blob is compiled into the plugin and pearl-opt (models/); another can be
 * loaded from a file.
 *
 * A pearl_policy is immutable once loaded: one policy may be evaluated from
 * several threads at once (each call allocates its own scratch buffers).
 * Only training changes weights, through pearl/train.h, never while the
 * policy is being evaluated.
 * Functions that can fail write a message into err (err_size bytes,
 * NUL-terminated) and return NULL or -1; nothing here exits or aborts.
 */
#ifndef PEARL_POLICY_H
#define PEARL_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PEARL_N_ACTIONS 86
/* Blobs of policies trained before the action space v2 have the first
 * PEARL_N_ACTIONS_V1 actions, before the v3 the first PEARL_N_ACTIONS_V2.
 * They load (pearl_policy_from_blob) with the rows of the new actions'
 * logits zero and their bias at PEARL_NEW_ACTION_BIAS: softmax gives them
 * about e^-30 of the mass, so the policy chooses as before until it is
 * trained on them. */
#define PEARL_N_ACTIONS_V1 56
#define PEARL_N_ACTIONS_V2 70
#define PEARL_NEW_ACTION_BIAS -30.0f
/* Blobs of policies trained before the memory features (pearl/graph.h,
 * [MEM]) read the first PEARL_GRAPH_N_FEATURES_V1 features; they load with
 * zero weights for the others, and so decide as before. Blobs of version 1
 * have no focus loops in the readout (focus_levels 0); they load with zero
 * rows of mlp.w1 for them, and so decide as before too. */

/* The dimensions of a network, as recorded in its blob. */
struct pearl_policy_config {
	int n_features; /* node feature width (PEARL_GRAPH_N_FEATURES) */
	int hidden;     /* 128 */
	int heads;      /* 4 */
	int n_layers;   /* GATv2 layers, 2 */
	int n_actions;  /* PEARL_N_ACTIONS */
	int focus_levels; /* PEARL_POLICY_FOCUS_LEVELS; 0: pooling only (the
			   * readout of blob version 1); needs n_features >
			   * PEARL_F_FOCUS */
};

/* The depths of the focus loops the readout reads: 0..4, the loops the
 * actions name (R(4) the deepest). */
#define PEARL_POLICY_FOCUS_LEVELS 5

typedef struct pearl_policy pearl_policy;

/* The default configuration (PEARL_GRAPH_N_FEATURES = 537, 128, 4, 2,
 * 86, PEARL_POLICY_FOCUS_LEVELS). */
struct pearl_policy_config pearl_policy_default_config(void);

/* What a blob's header records, as stored (a blob of an older action
 * space or feature layout records its own dimensions; it loads widened). */
struct pearl_policy_blob_info {
	unsigned version;
	struct pearl_policy_config cfg;
	unsigned n_floats;
	unsigned long long bytes;    /* the blob's size: header and payload */
	unsigned long long checksum; /* FNV-1a of the payload, as stored */
};

/* The header of the blob in file `path` (NULL: the compiled-in blob) into
 * *info: 0, or -1 with a message in err if it cannot be read. Nothing is
 * checked: pearl_policy_load_file says whether the blob is valid. */
int pearl_policy_blob_info(const char *path,
			   struct pearl_policy_blob_info *info, char *err,
			   size_t err_size);

/* Loads a policy from a blob of `size` bytes (copied; __isl_keep data).
 * NULL with a message in err if the blob is truncated, has another magic
 * or version, fails its checksum, has dimensions other than the ones Pearl's
 * graph uses, or memory is exhausted. The caller frees the policy. */
pearl_policy *pearl_policy_from_blob(const void *data, size_t size,
				     char *err, size_t err_size);
/* The same from a file. */
pearl_policy *pearl_policy_load_file(const char *path, char *err,
				     size_t err_size);
/* The compiled-in policy (models/), loaded anew; NULL as above. */
pearl_policy *pearl_policy_load_builtin(char *err, size_t err_size);
/* Accepts NULL; returns NULL. */
pearl_policy *pearl_policy_free(pearl_policy *policy);

/* The dimensions of `policy` (__isl_keep). */
const struct pearl_policy_config *pearl_policy_get_config(
    const pearl_policy *policy);

/* Opens the actions a widened blob added (pearl_policy_from_blob) to
 * training: every action whose column of the last policy layer is zero
 * and whose bias is PEARL_NEW_ACTION_BIAS gets the mean bias of the other
 * actions, so that sampling tries it about as often as an average action
 * (at -30, PPO would never sample it, and so never learn it). Returns the
 * number of actions opened (0 for a policy trained on all actions).
 * `policy` is modified in place (__isl_keep). */
int pearl_policy_open_new_actions(pearl_policy *policy);

/* A policy with fresh weights drawn from a seeded generator (Xavier-uniform
 * matrices, zero biases; splitmix64, the same on every machine, see
 * lib/Policy/init.c): the untrained network, and the start of training.
 * cfg (__isl_keep) may differ from the default (every dimension positive,
 * at most 8 layers), but only default-sized blobs load back. NULL with a
 * message in err if memory is exhausted or the configuration is invalid. */
pearl_policy *pearl_policy_init_random(const struct pearl_policy_config *cfg,
				       uint64_t seed, char *err,
				       size_t err_size);
/* Serializes `policy` (__isl_keep) into a malloc'd blob (*size bytes;
 * caller frees; NULL if memory is exhausted), or writes it to a file (0 on
 * success, -1 with a message in err). */
void *pearl_policy_to_blob(const pearl_policy *policy, size_t *size);
int pearl_policy_save_file(const pearl_policy *policy, const char *path,
			   char *err, size_t err_size);

/* The forward pass on `graph` (__isl_keep): n_actions raw logits (no mask,
 * no softmax) into logits[], the value estimate into *value. Returns 0, or
 * -1 with a message in err if the graph's feature width is not the
 * policy's, the graph is malformed (an edge names a missing node, no
 * nodes, a feature is NaN or infinite), a logit or the value comes out
 * NaN or infinite (finite weights so large that the network's sums
 * overflow), or memory is exhausted. The outputs
 * depend only on the policy and the graph (not on the order or direction
 * of its edges) and are the same on every call. */
int pearl_policy_eval(const pearl_policy *policy,
		      const struct pearl_graph *graph, float *logits,
		      float *value, char *err, size_t err_size);

/* The graph embedding the heads read: the pooled node states of every
 * layer, concat(mean, max) per layer (pearl_policy_embedding_size floats:
 * 2 * hidden * n_layers). Graphs the network sees alike embed close
 * together; the search clusters candidates by it. Returns 0, or -1 with a
 * message in err (the graph errors of pearl_policy_eval). */
int pearl_policy_embedding_size(const pearl_policy *policy);
int pearl_policy_embed(const pearl_policy *policy,
		       const struct pearl_graph *graph, float *embedding,
		       char *err, size_t err_size);

/*
 * Incremental evaluation. A pearl_policy_cache keeps the intermediate
 * results of the last pass it served (the graph's features and edges, the
 * attention projections and node states of every layer). When the next
 * graph has the same nodes and edges, only the nodes whose features
 * changed, and the nodes they reach through n_layers edges, are computed
 * again: between two decisions of the agent usually a few nodes of the
 * whole function's graph. The outputs are the values pearl_policy_eval
 * gives (a zero may differ in sign).
 *
 * A cache is used by one thread at a time and belongs to the caller. It
 * refers to the policy of its last pass (not owned) and trusts that
 * policy's weights not to change: after a training step on that policy,
 * or before freeing it, call pearl_policy_cache_clear (or free the cache).
 */
typedef struct pearl_policy_cache pearl_policy_cache;

/* An empty cache (__isl_give), or NULL if memory is exhausted. */
pearl_policy_cache *pearl_policy_cache_alloc(void);
/* Accepts NULL; returns NULL. */
pearl_policy_cache *pearl_policy_cache_free(pearl_policy_cache *cache);
/* Forgets the cached pass (keeps the memory). Accepts NULL. */
void pearl_policy_cache_clear(pearl_policy_cache *cache);

/* pearl_policy_eval on `graph` (__isl_keep) through `cache` (__isl_keep,
 * updated to this pass; NULL: a plain pearl_policy_eval). Same outputs
 * and errors as pearl_policy_eval; the cache stays usable after an
 * error. */
int pearl_policy_eval_cached(const pearl_policy *policy,
			     pearl_policy_cache *cache,
			     const struct pearl_graph *graph, float *logits,
			     float *value, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
