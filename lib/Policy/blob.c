/* The blob's byte-level format: checksum, header and fp32 payload coding. */
#include "blob.h"

#include <string.h>

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
