/* Loading and saving policies: blobs in memory, files, the built-in blob. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "weights.h"

/* The blob compiled in by builtin_blob.S (models/pearl-policy.bin). */
extern const unsigned char pearl_policy_builtin_blob[]
    __attribute__((visibility("hidden")));
extern const unsigned char pearl_policy_builtin_blob_end[]
    __attribute__((visibility("hidden")));

/* Reports the first dimension of hdr that differs from the default; a
 * blob of the first PEARL_N_ACTIONS_V1 or PEARL_N_ACTIONS_V2 actions or of
 * the first
 * PEARL_GRAPH_N_FEATURES_V1 features is accepted (it is widened on
 * loading). */
static int check_dims(const struct pearl_blob_header *hdr, char *err,
		      size_t err_size)
{
	struct pearl_policy_config def = pearl_policy_default_config();
	const struct {
		const char *name;
		int32_t got, want;
	} dims[] = {
		{ "n_features", hdr->n_features, def.n_features },
		{ "hidden", hdr->hidden, def.hidden },
		{ "heads", hdr->heads, def.heads },
		{ "n_layers", hdr->n_layers, def.n_layers },
		{ "n_actions", hdr->n_actions, def.n_actions },
	};
	size_t i;

	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); ++i)
		if (dims[i].got != dims[i].want &&
		    !((dims[i].got == PEARL_N_ACTIONS_V1 ||
		       dims[i].got == PEARL_N_ACTIONS_V2) &&
		      !strcmp(dims[i].name, "n_actions")) &&
		    !(dims[i].got == PEARL_GRAPH_N_FEATURES_V1 &&
		      !strcmp(dims[i].name, "n_features")))
			return pearl_error_printf(
			    err, err_size,
			    "dimension mismatch: blob has %s = %d, this "
			    "build of Pearl expects %d",
			    dims[i].name, (int)dims[i].got, (int)dims[i].want);
	return 0;
}

/* The first non-finite weight of policy, named; 0 if there is none. */
static int check_finite(const pearl_policy *policy, char *err,
			size_t err_size)
{
	struct pearl_tensor tab[PEARL_POLICY_MAX_TENSORS];
	int n_tensors, t;
	size_t i;

	for (i = 0; i < policy->n_floats; ++i)
		if (!isfinite(policy->data[i]))
			break;
	if (i == policy->n_floats)
		return 0;
	pearl_policy_walk(&policy->cfg, NULL, NULL, tab, &n_tensors);
	for (t = n_tensors - 1; t > 0 && tab[t].offset > i; --t)
		;
	if (tab[t].layer >= 0)
		return pearl_error_printf(
		    err, err_size,
		    "non-finite weight %g at float %zu (gat%d.%s[%zu])",
		    (double)policy->data[i], i, tab[t].layer, tab[t].name,
		    i - tab[t].offset);
	return pearl_error_printf(err, err_size,
				  "non-finite weight %g at float %zu (%s[%zu])",
				  (double)policy->data[i], i, tab[t].name,
				  i - tab[t].offset);
}

/* The focus loops the readout of a blob of `version` reads: none in
 * version 1. */
static int focus_levels_of_version(uint32_t version)
{
	return version == PEARL_BLOB_VERSION_NO_FOCUS
		   ? 0
		   : PEARL_POLICY_FOCUS_LEVELS;
}

/* The configuration a (checked) header records: the default's, with the
 * header's action and feature counts and its version's focus loops. */
static void cfg_of_header(struct pearl_policy_config *cfg,
			  const struct pearl_blob_header *hdr)
{
	cfg->n_actions = hdr->n_actions;
	cfg->n_features = hdr->n_features;
	cfg->focus_levels = focus_levels_of_version(hdr->version);
}

/* Checks everything about the blob that precedes decoding its payload. */
static int check_blob(const unsigned char *bytes, size_t size, char *err,
		      size_t err_size)
{
	struct pearl_blob_header hdr;
	struct pearl_policy_config cfg = pearl_policy_default_config();
	uint64_t want_floats, want_size, sum;

	if (size < PEARL_BLOB_HEADER_SIZE)
		return pearl_error_printf(err, err_size,
					  "truncated blob: expected at least "
					  "%u bytes (the header), got %zu",
					  PEARL_BLOB_HEADER_SIZE, size);
	pearl_blob_read_header(bytes, &hdr);
	if (memcmp(hdr.magic, PEARL_BLOB_MAGIC, 4) != 0)
		return pearl_error_printf(err, err_size,
					  "bad magic: not a Pearl weight blob "
					  "(expected \"PRLW\")");
	if (hdr.version != PEARL_BLOB_VERSION &&
	    hdr.version != PEARL_BLOB_VERSION_NO_FOCUS)
		return pearl_error_printf(err, err_size,
					  "unsupported blob version %u "
					  "(this build reads versions %u and "
					  "%u)",
					  hdr.version,
					  PEARL_BLOB_VERSION_NO_FOCUS,
					  PEARL_BLOB_VERSION);
	if (check_dims(&hdr, err, err_size) < 0)
		return -1;
	cfg_of_header(&cfg, &hdr);
	want_floats = pearl_policy_walk(&cfg, NULL, NULL, NULL, NULL);
	if (hdr.n_floats != want_floats)
		return pearl_error_printf(err, err_size,
					  "inconsistent blob: n_floats = %u, "
					  "but the dimensions need %llu",
					  hdr.n_floats,
					  (unsigned long long)want_floats);
	want_size = PEARL_BLOB_HEADER_SIZE + 4 * want_floats;
	if (size < want_size)
		return pearl_error_printf(err, err_size,
					  "truncated blob: expected %llu "
					  "bytes, got %zu",
					  (unsigned long long)want_size, size);
	if (size > want_size)
		return pearl_error_printf(err, err_size,
					  "trailing data after the blob: "
					  "expected %llu bytes, got %zu",
					  (unsigned long long)want_size, size);
	sum = pearl_blob_fnv1a(bytes + PEARL_BLOB_HEADER_SIZE,
			       (size_t)(4 * want_floats));
	if (sum != hdr.checksum)
		return pearl_error_printf(err, err_size,
					  "checksum mismatch: header says "
					  "0x%016llx, payload has 0x%016llx",
					  (unsigned long long)hdr.checksum,
					  (unsigned long long)sum);
	return 0;
}

/* `old` (taken), a policy of the first PEARL_N_ACTIONS_V1 or _V2 actions, of
 * the first PEARL_GRAPH_N_FEATURES_V1 features or without focus loops, as
 * a policy of the default configuration: the same weights; for each new
 * action a zero column of pi.w3 and the bias PEARL_NEW_ACTION_BIAS; for
 * each new feature a zero row of the first layer's w_src and w_dst; for
 * the focus loops' inputs (after the pooled ones) zero rows of mlp.w1 (so
 * none changes anything until training gives it weight). */
static pearl_policy *widen(pearl_policy *old, char *err, size_t err_size)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	struct pearl_tensor from[PEARL_POLICY_MAX_TENSORS];
	struct pearl_tensor to[PEARL_POLICY_MAX_TENSORS];
	pearl_policy *policy = pearl_policy_alloc(&cfg, err, err_size);
	int n_from, n_to, t, r, c;

	if (!policy)
		return pearl_policy_free(old);
	pearl_policy_walk(&old->cfg, NULL, NULL, from, &n_from);
	pearl_policy_walk(&policy->cfg, NULL, NULL, to, &n_to);
	for (t = 0; t < n_to && t < n_from; ++t) {
		const float *src = old->data + from[t].offset;
		float *dst = policy->data + to[t].offset;
		int bias = !strcmp(to[t].name, "pi.b3");

		for (r = 0; r < to[t].rows; ++r)
			for (c = 0; c < to[t].cols; ++c)
				dst[r * to[t].cols + c] =
				    r < from[t].rows && c < from[t].cols
					? src[r * from[t].cols + c]
				    : bias ? PEARL_NEW_ACTION_BIAS
					   : 0.0f;
	}
	pearl_policy_free(old);
	return policy;
}

/* The tensor called `name` in `tab` (n of them), or NULL. */
static const struct pearl_tensor *find_tensor(const struct pearl_tensor *tab,
					      int n, const char *name)
{
	int t;

	for (t = 0; t < n; ++t)
		if (!strcmp(tab[t].name, name))
			return &tab[t];
	return NULL;
}

/* Whether action `a` of `policy` is one a widening added and training has
 * not touched: its column of pi.w3 (`w3`) zero, its bias in pi.b3 (`b3`)
 * PEARL_NEW_ACTION_BIAS. */
static int closed_action(const pearl_policy *policy,
			 const struct pearl_tensor *w3,
			 const struct pearl_tensor *b3, int a)
{
	const float *w = policy->data + w3->offset;
	int r;

	if (policy->data[b3->offset + a] != PEARL_NEW_ACTION_BIAS)
		return 0;
	for (r = 0; r < w3->rows; ++r)
		if (w[r * w3->cols + a] != 0.0f)
			return 0;
	return 1;
}

int pearl_policy_open_new_actions(pearl_policy *policy)
{
	struct pearl_tensor tab[PEARL_POLICY_MAX_TENSORS];
	const struct pearl_tensor *w3, *b3;
	double sum = 0;
	int n, a, n_closed = 0;

	pearl_policy_walk(&policy->cfg, NULL, NULL, tab, &n);
	w3 = find_tensor(tab, n, "pi.w3");
	b3 = find_tensor(tab, n, "pi.b3");
	if (!w3 || !b3 || b3->cols != w3->cols)
		return 0;
	for (a = 0; a < b3->cols; ++a) {
		if (closed_action(policy, w3, b3, a))
			n_closed++;
		else
			sum += policy->data[b3->offset + a];
	}
	if (n_closed == 0 || n_closed == b3->cols)
		return 0;
	for (a = 0; a < b3->cols; ++a)
		if (closed_action(policy, w3, b3, a))
			policy->data[b3->offset + a] =
			    (float)(sum / (b3->cols - n_closed));
	return n_closed;
}

pearl_policy *pearl_policy_from_blob(const void *data, size_t size,
				     char *err, size_t err_size)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	struct pearl_blob_header hdr;
	pearl_policy *policy;

	if (!data)
		size = 0;
	if (check_blob(data, size, err, err_size) < 0)
		return NULL;
	pearl_blob_read_header(data, &hdr);
	cfg_of_header(&cfg, &hdr);
	policy = pearl_policy_alloc(&cfg, err, err_size);
	if (!policy)
		return NULL;
	pearl_blob_decode_floats(policy->data,
				 (const unsigned char *)data +
				     PEARL_BLOB_HEADER_SIZE,
				 policy->n_floats);
	if (check_finite(policy, err, err_size) < 0)
		return pearl_policy_free(policy);
	if (cfg.n_actions != PEARL_N_ACTIONS ||
	    cfg.n_features != PEARL_GRAPH_N_FEATURES ||
	    cfg.focus_levels != PEARL_POLICY_FOCUS_LEVELS)
		policy = widen(policy, err, err_size);
	return policy;
}

pearl_policy *pearl_policy_load_file(const char *path, char *err,
				     size_t err_size)
{
	unsigned char *buf;
	size_t size;
	pearl_policy *policy;

	if (!path) {
		pearl_error_printf(err, err_size, "no file name");
		return NULL;
	}
	if (pearl_blob_read_file(path, &buf, &size, err, err_size) < 0)
		return NULL;
	policy = pearl_policy_from_blob(buf ? buf : (void *)"", size, err,
					err_size);
	free(buf);
	return policy;
}

int pearl_policy_blob_info(const char *path,
			   struct pearl_policy_blob_info *info, char *err,
			   size_t err_size)
{
	unsigned char bytes[PEARL_BLOB_HEADER_SIZE];
	struct pearl_blob_header hdr;

	if (path) {
		FILE *f = fopen(path, "rb");
		size_t n = f ? fread(bytes, 1, sizeof(bytes), f) : 0;

		if (f)
			fclose(f);
		if (n != sizeof(bytes))
			return pearl_error_printf(err, err_size, "cannot read "
						  "the header of %s", path);
	} else {
		memcpy(bytes, pearl_policy_builtin_blob, sizeof(bytes));
	}
	pearl_blob_read_header(bytes, &hdr);
	info->version = hdr.version;
	info->cfg.n_features = hdr.n_features;
	info->cfg.hidden = hdr.hidden;
	info->cfg.heads = hdr.heads;
	info->cfg.n_layers = hdr.n_layers;
	info->cfg.n_actions = hdr.n_actions;
	info->cfg.focus_levels = focus_levels_of_version(hdr.version);
	info->n_floats = hdr.n_floats;
	info->bytes = PEARL_BLOB_HEADER_SIZE + 4ull * hdr.n_floats;
	info->checksum = hdr.checksum;
	return 0;
}

pearl_policy *pearl_policy_load_builtin(char *err, size_t err_size)
{
	size_t size = (size_t)(pearl_policy_builtin_blob_end -
			       pearl_policy_builtin_blob);

	return pearl_policy_from_blob(pearl_policy_builtin_blob, size, err,
				      err_size);
}

void *pearl_policy_to_blob(const pearl_policy *policy, size_t *size)
{
	struct pearl_blob_header hdr;
	unsigned char *out;
	size_t n_bytes;

	if (!policy || !size)
		return NULL;
	n_bytes = PEARL_BLOB_HEADER_SIZE + 4 * policy->n_floats;
	out = malloc(n_bytes);
	if (!out)
		return NULL;
	pearl_blob_encode_floats(out + PEARL_BLOB_HEADER_SIZE, policy->data,
				 policy->n_floats);
	memcpy(hdr.magic, PEARL_BLOB_MAGIC, 4);
	/* A policy without focus loops (only a non-default configuration,
	 * since loading widens) is written as version 1 describes it. */
	hdr.version = policy->cfg.focus_levels ? PEARL_BLOB_VERSION
					       : PEARL_BLOB_VERSION_NO_FOCUS;
	hdr.n_features = policy->cfg.n_features;
	hdr.hidden = policy->cfg.hidden;
	hdr.heads = policy->cfg.heads;
	hdr.n_layers = policy->cfg.n_layers;
	hdr.n_actions = policy->cfg.n_actions;
	hdr.n_floats = (uint32_t)policy->n_floats;
	hdr.checksum = pearl_blob_fnv1a(out + PEARL_BLOB_HEADER_SIZE,
					4 * policy->n_floats);
	pearl_blob_write_header(out, &hdr);
	*size = n_bytes;
	return out;
}

int pearl_policy_save_file(const pearl_policy *policy, const char *path,
			   char *err, size_t err_size)
{
	size_t size;
	void *blob = pearl_policy_to_blob(policy, &size);

	return pearl_blob_write_file(blob, size, "policy", path, err,
				     err_size);
}
