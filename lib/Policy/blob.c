/* The blob's byte-level format: checksum, header and fp32 payload coding. */
#include "blob.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/error.h"

uint64_t pearl_blob_fnv1a(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* Two's complement without implementation-defined conversions. */
static int32_t get_i32(const unsigned char *p)
{
	uint32_t u = get_u32(p);

	if (u <= INT32_MAX)
		return (int32_t)u;
	return (int32_t)(u - 0x80000000u) + INT32_MIN;
}

static void put_i32(unsigned char *p, int32_t v)
{
	put_u32(p, (uint32_t)v);
}

void pearl_blob_read_header(const unsigned char *data,
			    struct pearl_blob_header *hdr)
{
	memcpy(hdr->magic, data, 4);
	hdr->version = get_u32(data + 4);
	hdr->n_features = get_i32(data + 8);
	hdr->hidden = get_i32(data + 12);
	hdr->heads = get_i32(data + 16);
	hdr->n_layers = get_i32(data + 20);
	hdr->n_actions = get_i32(data + 24);
	hdr->n_floats = get_u32(data + 28);
	hdr->checksum = (uint64_t)get_u32(data + 32) |
			(uint64_t)get_u32(data + 36) << 32;
}

void pearl_blob_write_header(unsigned char *out,
			     const struct pearl_blob_header *hdr)
{
	memcpy(out, hdr->magic, 4);
	put_u32(out + 4, hdr->version);
	put_i32(out + 8, hdr->n_features);
	put_i32(out + 12, hdr->hidden);
	put_i32(out + 16, hdr->heads);
	put_i32(out + 20, hdr->n_layers);
	put_i32(out + 24, hdr->n_actions);
	put_u32(out + 28, hdr->n_floats);
	put_u32(out + 32, (uint32_t)hdr->checksum);
	put_u32(out + 36, (uint32_t)(hdr->checksum >> 32));
}

void pearl_blob_decode_floats(float *dst, const unsigned char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i) {
		uint32_t u = get_u32(src + 4 * i);
		memcpy(&dst[i], &u, 4);
	}
}

void pearl_blob_encode_floats(unsigned char *dst, const float *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i) {
		uint32_t u;
		memcpy(&u, &src[i], 4);
		put_u32(dst + 4 * i, u);
	}
}

int pearl_blob_read_file(const char *path, unsigned char **buf,
			 size_t *size, char *err, size_t err_size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n;
	int failed = 0;

	*buf = NULL;
	*size = 0;
	if (!f)
		return pearl_error_printf(err, err_size, "cannot open %s: %s",
					  path, strerror(errno));
	for (;;) {
		if (*size == cap) {
			unsigned char *p;
			/* No valid blob is anywhere near this size. */
			if (cap >= ((size_t)1 << 30)) {
				failed = pearl_error_printf(
				    err, err_size,
				    "%s: too large for a weight blob", path);
				break;
			}
			cap = cap ? 2 * cap : (size_t)1 << 16;
			p = realloc(*buf, cap);
			if (!p) {
				failed = pearl_error_printf(
				    err, err_size, "out of memory reading %s",
				    path);
				break;
			}
			*buf = p;
		}
		n = fread(*buf + *size, 1, cap - *size, f);
		*size += n;
		if (n == 0)
			break;
	}
	if (!failed && ferror(f))
		failed = pearl_error_printf(err, err_size, "error reading %s",
					    path);
	fclose(f);
	if (failed) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

int pearl_blob_write_file(void *blob, size_t size, const char *what,
			  const char *path, char *err, size_t err_size)
{
	FILE *f;
	int ok;

	if (!blob)
		return pearl_error_printf(err, err_size,
					  "out of memory serializing the %s",
					  what);
	f = fopen(path, "wb");
	if (!f) {
		pearl_error_printf(err, err_size, "cannot create %s: %s", path,
				   strerror(errno));
		free(blob);
		return -1;
	}
	ok = fwrite(blob, 1, size, f) == size;
	ok = (fclose(f) == 0) && ok;
	free(blob);
	if (!ok)
		return pearl_error_printf(err, err_size, "error writing %s",
					  path);
	return 0;
}
