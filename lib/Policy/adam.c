/*
 * Adam over the flat parameter array (pearl/train.h), and its state as a
 * versioned blob for checkpoints (format in pearl/train.h; encoding and
 * checksum shared with the weight blob, blob.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "pearl/train.h"
#include "weights.h"

#define ADAM_MAGIC "PRLA"
#define ADAM_HEADER_SIZE 56u

struct pearl_adam {
	struct pearl_adam_config cfg;
	uint64_t step;
	size_t n;
	float *v;      /* m + n */
	float m[];     /* n first moments, then the n second moments: one
			* allocation with the struct */
};

struct pearl_adam_config pearl_adam_default_config(void)
{
	struct pearl_adam_config cfg = {
		.lr = 1e-4f,
		.beta1 = 0.9f,
		.beta2 = 0.999f,
		.eps = 1e-8f,
		.max_grad_norm = 0.0f,
		.weight_decay = 0.0f,
	};
	return cfg;
}

static int check_config(const struct pearl_adam_config *cfg, char *err,
			size_t err_size)
{
	if (!cfg)
		return pearl_error_printf(err, err_size,
					  "no optimizer configuration");
	if (!(isfinite(cfg->lr) && cfg->lr > 0.0f))
		return pearl_error_printf(err, err_size,
					  "invalid learning rate %g",
					  (double)cfg->lr);
	if (!(cfg->beta1 >= 0.0f && cfg->beta1 < 1.0f) ||
	    !(cfg->beta2 >= 0.0f && cfg->beta2 < 1.0f))
		return pearl_error_printf(err, err_size,
					  "invalid Adam betas %g, %g (must be "
					  "in [0, 1))",
					  (double)cfg->beta1,
					  (double)cfg->beta2);
	if (!(isfinite(cfg->eps) && cfg->eps > 0.0f))
		return pearl_error_printf(err, err_size,
					  "invalid Adam epsilon %g",
					  (double)cfg->eps);
	if (isnan(cfg->max_grad_norm))
		return pearl_error_printf(err, err_size,
					  "invalid gradient norm bound");
	if (!(isfinite(cfg->weight_decay) && cfg->weight_decay >= 0.0f &&
	      cfg->lr * cfg->weight_decay < 1.0f))
		return pearl_error_printf(err, err_size,
					  "invalid weight decay %g (must be "
					  ">= 0, with learning rate times "
					  "weight decay below 1)",
					  (double)cfg->weight_decay);
	return 0;
}

pearl_adam *pearl_adam_alloc(size_t n, const struct pearl_adam_config *cfg,
			     char *err, size_t err_size)
{
	pearl_adam *adam;

	if (check_config(cfg, err, err_size) < 0)
		return NULL;
	if (n == 0 || n > SIZE_MAX / 2 / sizeof(float)) {
		pearl_error_printf(err, err_size,
				   "invalid parameter count %zu", n);
		return NULL;
	}
	adam = calloc(1, sizeof(*adam) + 2 * n * sizeof(float));
	if (!adam) {
		pearl_error_printf(err, err_size,
				   "out of memory allocating the optimizer "
				   "of %zu parameters", n);
		return NULL;
	}
	adam->v = adam->m + n;
	adam->n = n;
	adam->cfg = *cfg;
	return adam;
}

pearl_adam *pearl_adam_free(pearl_adam *adam)
{
	free(adam);
	return NULL;
}

const struct pearl_adam_config *pearl_adam_get_config(const pearl_adam *adam)
{
	return adam ? &adam->cfg : NULL;
}

int pearl_adam_set_lr(pearl_adam *adam, float lr)
{
	if (!adam || !(isfinite(lr) && lr > 0.0f))
		return -1;
	adam->cfg.lr = lr;
	return 0;
}

uint64_t pearl_adam_get_step(const pearl_adam *adam)
{
	return adam ? adam->step : 0;
}

int pearl_adam_step(pearl_adam *adam, float *params, const float *grad,
		    size_t n, double *grad_norm, char *err, size_t err_size)
{
	double sq = 0.0, norm, scale = 1.0, bc1, bc2, step_size;
	float b1, b2, g1, g2, eps, s;
	size_t i;

	if (!adam || !params || !grad)
		return pearl_error_printf(err, err_size,
					  "no optimizer, parameters or "
					  "gradient");
	if (n != adam->n)
		return pearl_error_printf(err, err_size,
					  "%zu parameters given to an optimizer "
					  "of %zu",
					  n, adam->n);
	for (i = 0; i < n; ++i)
		sq += (double)grad[i] * grad[i];
	norm = sqrt(sq);
	if (grad_norm)
		*grad_norm = norm;
	if (!isfinite(norm))
		return pearl_error_printf(err, err_size,
					  "the gradient is not finite");
	if (adam->cfg.max_grad_norm > 0.0f &&
	    norm > adam->cfg.max_grad_norm)
		scale = adam->cfg.max_grad_norm / (norm + 1e-6);
	adam->step++;
	b1 = adam->cfg.beta1;
	b2 = adam->cfg.beta2;
	g1 = 1.0f - b1;
	g2 = 1.0f - b2;
	bc1 = 1.0 - pow(b1, (double)adam->step);
	bc2 = 1.0 - pow(b2, (double)adam->step);
	/* p -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps) */
	step_size = adam->cfg.lr / bc1;
	s = (float)scale;
	eps = adam->cfg.eps;
	{
		float inv_sqrt_bc2 = (float)(1.0 / sqrt(bc2));
		float lr1 = (float)step_size;
		/* decoupled weight decay; exactly 1 without it, so that the
		 * update is then bit for bit Adam's */
		float keep = 1.0f - adam->cfg.lr * adam->cfg.weight_decay;

		for (i = 0; i < n; ++i) {
			float gi = grad[i] * s;
			float m = b1 * adam->m[i] + g1 * gi;
			float v = b2 * adam->v[i] + g2 * gi * gi;

			adam->m[i] = m;
			adam->v[i] = v;
			params[i] = keep * params[i] -
				    lr1 * m / (sqrtf(v) * inv_sqrt_bc2 + eps);
		}
	}
	return 0;
}

/* ---- State blob --------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void putf(unsigned char *p, float f)
{
	pearl_blob_encode_floats(p, &f, 1);
}

static float getf(const unsigned char *p)
{
	float f;

	pearl_blob_decode_floats(&f, p, 1);
	return f;
}

void *pearl_adam_to_blob(const pearl_adam *adam, size_t *size)
{
	unsigned char *out;
	size_t payload;

	if (!adam || !size || adam->n > (SIZE_MAX - ADAM_HEADER_SIZE) / 8)
		return NULL;
	payload = 8 * adam->n;
	out = malloc(ADAM_HEADER_SIZE + payload);
	if (!out)
		return NULL;
	memcpy(out, ADAM_MAGIC, 4);
	put32(out + 4, PEARL_ADAM_STATE_VERSION);
	put64(out + 8, (uint64_t)adam->n);
	put64(out + 16, adam->step);
	putf(out + 24, adam->cfg.lr);
	putf(out + 28, adam->cfg.beta1);
	putf(out + 32, adam->cfg.beta2);
	putf(out + 36, adam->cfg.eps);
	putf(out + 40, adam->cfg.max_grad_norm);
	putf(out + 44, adam->cfg.weight_decay);
	/* m and v are contiguous: one payload of 2 n floats. */
	pearl_blob_encode_floats(out + ADAM_HEADER_SIZE, adam->m, 2 * adam->n);
	put64(out + 48, pearl_blob_fnv1a(out + ADAM_HEADER_SIZE, payload));
	*size = ADAM_HEADER_SIZE + payload;
	return out;
}

pearl_adam *pearl_adam_from_blob(const void *data, size_t size, char *err,
				 size_t err_size)
{
	const unsigned char *in = data;
	struct pearl_adam_config cfg;
	pearl_adam *adam;
	uint64_t n, step;
	size_t i;

	if (!in || size < ADAM_HEADER_SIZE) {
		pearl_error_printf(err, err_size,
				   "truncated optimizer state: expected at "
				   "least %u bytes, got %zu",
				   ADAM_HEADER_SIZE, in ? size : 0);
		return NULL;
	}
	if (memcmp(in, ADAM_MAGIC, 4) != 0) {
		pearl_error_printf(err, err_size,
				   "bad magic: not a Pearl optimizer state "
				   "(expected \"PRLA\")");
		return NULL;
	}
	if (get32(in + 4) != PEARL_ADAM_STATE_VERSION) {
		pearl_error_printf(err, err_size,
				   "unsupported optimizer state version %u "
				   "(this build reads version %u)",
				   get32(in + 4), PEARL_ADAM_STATE_VERSION);
		return NULL;
	}
	n = get64(in + 8);
	step = get64(in + 16);
	if (n == 0 || n > (SIZE_MAX - ADAM_HEADER_SIZE) / 8 ||
	    n > UINT64_MAX / 8) {
		pearl_error_printf(err, err_size,
				   "invalid optimizer state: %llu parameters",
				   (unsigned long long)n);
		return NULL;
	}
	if (size != ADAM_HEADER_SIZE + 8 * n) {
		pearl_error_printf(err, err_size,
				   "%s optimizer state: expected %llu bytes, "
				   "got %zu",
				   size < ADAM_HEADER_SIZE + 8 * n
				       ? "truncated"
				       : "trailing data after the",
				   (unsigned long long)(ADAM_HEADER_SIZE +
							8 * n),
				   size);
		return NULL;
	}
	if (pearl_blob_fnv1a(in + ADAM_HEADER_SIZE, (size_t)(8 * n)) !=
	    get64(in + 48)) {
		pearl_error_printf(err, err_size,
				   "checksum mismatch in the optimizer state");
		return NULL;
	}
	cfg.lr = getf(in + 24);
	cfg.beta1 = getf(in + 28);
	cfg.beta2 = getf(in + 32);
	cfg.eps = getf(in + 36);
	cfg.max_grad_norm = getf(in + 40);
	cfg.weight_decay = getf(in + 44);
	adam = pearl_adam_alloc((size_t)n, &cfg, err, err_size);
	if (!adam)
		return NULL;
	adam->step = step;
	pearl_blob_decode_floats(adam->m, in + ADAM_HEADER_SIZE, 2 * (size_t)n);
	for (i = 0; i < 2 * (size_t)n; ++i)
		if (!isfinite(adam->m[i]) || (i >= n && adam->m[i] < 0.0f)) {
			pearl_error_printf(err, err_size,
					   "invalid optimizer state: moment "
					   "%zu is %g",
					   i, (double)adam->m[i]);
			return pearl_adam_free(adam);
		}
	return adam;
}

int pearl_adam_save_file(const pearl_adam *adam, const char *path, char *err,
			 size_t err_size)
{
	size_t size;
	void *blob = pearl_adam_to_blob(adam, &size);

	return pearl_blob_write_file(blob, size, "optimizer", path, err,
				     err_size);
}

pearl_adam *pearl_adam_load_file(const char *path, char *err,
				 size_t err_size)
{
	unsigned char *buf;
	size_t size;
	pearl_adam *adam;

	if (pearl_blob_read_file(path, &buf, &size, err, err_size) < 0)
		return NULL;
	adam = pearl_adam_from_blob(buf, size, err, err_size);
	free(buf);
	return adam;
}
