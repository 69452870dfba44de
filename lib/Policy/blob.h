/*
 * blob.h - the weight blob of the policy network (internal to lib/Policy
 * and tools/pearl-model).
 *
 * A blob is little-endian throughout:
 *
 *   offset size  field
 *        0    4  magic "PRLW"
 *        4    4  uint32 version (PEARL_BLOB_VERSION = 2; blobs of
 *                version 1 have no focus loops in the readout: they
 *                load widened)
 *        8    4  int32 n_features  (PEARL_GRAPH_N_FEATURES = 537; blobs
 *                of 531, PEARL_GRAPH_N_FEATURES_V1, load widened)
 *       12    4  int32 hidden      (128)
 *       16    4  int32 heads       (4)
 *       20    4  int32 n_layers    (2)
 *       24    4  int32 n_actions   (PEARL_N_ACTIONS = 86; blobs of
 *                56 or 70, PEARL_N_ACTIONS_V1 or _V2, load widened)
 *       28    4  uint32 n_floats: the number of fp32 values that follow
 *       32    8  uint64 checksum: 64-bit FNV-1a of the n_floats * 4
 *                payload bytes (offset basis 0xcbf29ce484222325, prime
 *                0x100000001b3, one byte at a time)
 *       40  4 n  the payload: n_floats IEEE-754 binary32 values
 *
 * The blob is exactly 40 + 4 * n_floats bytes. A loader accepts only the
 * dimensions of pearl_policy_default_config(), and only finite weights.
 *
 * Payload order (d = hidden, H = heads, D = H * d, F = n_features; every
 * matrix W is stored row-major as [in, out], so a layer computes
 * y = x W + b; a PyTorch nn.Linear weight is the transpose of W):
 *
 *   for each GATv2 layer l = 0 .. n_layers-1 (d_in = F for l = 0, else d):
 *     gat<l>.w_src   [d_in, D]   source transform (PyG lin_l)
 *     gat<l>.b_src   [D]
 *     gat<l>.w_dst   [d_in, D]   target transform (PyG lin_r)
 *     gat<l>.b_dst   [D]
 *     gat<l>.att     [H, d]      attention vector of each head
 *     gat<l>.bias    [D]         added after concatenating the heads
 *     gat<l>.w_lin   [D, d]      projection of the heads back to d
 *     gat<l>.b_lin   [d]
 *   mlp.w1  [(2 + K) d n_layers, d]    mlp.b1  [d]
 *           (K = PEARL_POLICY_FOCUS_LEVELS in version 2, 0 in version 1;
 *           rows: the pooled states, then the focus loops' states;
 *           pearl/policy.h)
 *   mlp.w2  [d, d]               mlp.b2  [d]
 *   pi.w1   [d, d]               pi.b1   [d]
 *   pi.w2   [d, d]               pi.b2   [d]
 *   pi.w3   [d, n_actions]       pi.b3   [n_actions]
 *   v.w1    [d, d]               v.b1    [d]
 *   v.w2    [d, d]               v.b2    [d]
 *   v.w3    [d, 1]               v.b3    [1]
 *
 * With the default dimensions that is 1,139,671 floats: a blob of 4,558,724
 * bytes, the committed blob's size (a version-1 blob of 56 actions and 531
 * features, as committed until the nineteenth session, has 965,817:
 * 3,863,308 bytes). The walk over this order is pearl_policy_walk (weights.h).
 */
#ifndef PEARL_POLICY_BLOB_H
#define PEARL_POLICY_BLOB_H

#include <stddef.h>
#include <stdint.h>

#define PEARL_BLOB_MAGIC "PRLW"
#define PEARL_BLOB_VERSION 2u
#define PEARL_BLOB_VERSION_NO_FOCUS 1u
#define PEARL_BLOB_HEADER_SIZE 40u

/* The header fields, decoded (host byte order). */
struct pearl_blob_header {
	char magic[4];
	uint32_t version;
	int32_t n_features, hidden, heads, n_layers, n_actions;
	uint32_t n_floats;
	uint64_t checksum;
};

/* 64-bit FNV-1a of n bytes. */
uint64_t pearl_blob_fnv1a(const void *data, size_t n);

/* Decodes the first PEARL_BLOB_HEADER_SIZE bytes of data (which must have
 * that many bytes) into *hdr; checks nothing. */
void pearl_blob_read_header(const unsigned char *data,
			    struct pearl_blob_header *hdr);
/* Encodes *hdr into the first PEARL_BLOB_HEADER_SIZE bytes of out. */
void pearl_blob_write_header(unsigned char *out,
			     const struct pearl_blob_header *hdr);

/* The files of blobs (the policy's weights, the optimizer's state). */

/* Reads the whole of path into a malloc'd *buf of *size bytes (the
 * caller frees *buf); -1 with a message in err if it cannot be read or
 * is too large for a blob (1 GiB). */
int pearl_blob_read_file(const char *path, unsigned char **buf,
			 size_t *size, char *err, size_t err_size);

/* Writes size bytes of blob (taken: freed, also on failure) to path,
 * created or truncated; blob NULL stands for a failed serialization of
 * `what` ("policy", "optimizer"). Returns 0, or -1 with a message in
 * err. */
int pearl_blob_write_file(void *blob, size_t size, const char *what,
			  const char *path, char *err, size_t err_size);

/* Little-endian fp32 <-> host float, n values. */
void pearl_blob_decode_floats(float *dst, const unsigned char *src, size_t n);
void pearl_blob_encode_floats(unsigned char *dst, const float *src, size_t n);

#endif
