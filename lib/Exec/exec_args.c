/* Argument buffers of pearl-exec: allocation, inputs, comparison. */
#include "pearl/exec_args.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Buffers are aligned to a cache line (and to any vector width). */
#define EXEC_ALIGN 64

/* The memref descriptor of the LLVM lowering, for any rank:
 * !llvm.struct<(ptr, ptr, i64, array<rank x i64>, array<rank x i64>)>. */
struct exec_memref_desc {
	void *allocated;
	void *aligned;
	int64_t offset;
	int64_t dims[];		/* sizes[rank], then strides[rank] */
};

/* One argument of a call. */
struct exec_slot {
	void *data;		/* owned; memref buffer */
	size_t nelems;
	size_t bytes;
	struct exec_memref_desc *desc; /* owned */
	void *desc_ptr;		/* == desc; the argument value of a memref */
	union exec_scalar scalar;
};

struct exec_frame {
	const struct exec_sig *sig;	/* borrowed */
	struct exec_slot *slots;	/* owned, sig->n_args entries */
	union exec_scalar result;
	void **packed;			/* owned, n_args + n_results entries */
};

int exec_fail(struct exec_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

size_t exec_elem_size(enum exec_elem elem)
{
	switch (elem) {
	case exec_i8:
		return 1;
	case exec_i16:
		return 2;
	case exec_f32:
	case exec_i32:
		return 4;
	case exec_f64:
	case exec_i64:
	case exec_index:
		return 8;
	}
	return 0;
}

static void type_clear(struct exec_type *type)
{
	free(type->shape);
	free(type->spelling);
}

void exec_sig_clear(struct exec_sig *sig)
{
	int i;

	for (i = 0; i < sig->n_args; ++i)
		type_clear(&sig->args[i]);
	for (i = 0; i < sig->n_results; ++i)
		type_clear(&sig->results[i]);
	free(sig->args);
	free(sig->results);
	memset(sig, 0, sizeof(*sig));
}

static int types_equal(const struct exec_type *a, const struct exec_type *b,
		       int n)
{
	int i;

	for (i = 0; i < n; ++i)
		if (strcmp(a[i].spelling, b[i].spelling) != 0)
			return 0;
	return 1;
}

int exec_sig_equal(const struct exec_sig *a, const struct exec_sig *b)
{
	if (a->n_args != b->n_args || a->n_results != b->n_results)
		return 0;
	return types_equal(a->args, b->args, a->n_args) &&
	       types_equal(a->results, b->results, a->n_results);
}

/* Sizes and strides (row-major, identity layout) of a memref argument;
 * the number of elements in *nelems.  Fails if the count overflows. */
static int fill_desc(struct exec_memref_desc *desc,
		     const struct exec_type *type, int64_t size,
		     size_t *nelems, struct exec_err *err)
{
	int64_t n = 1, dim;
	int d;

	for (d = type->rank - 1; d >= 0; --d) {
		dim = type->shape[d] < 0 ? size : type->shape[d];
		desc->dims[d] = dim;
		desc->dims[type->rank + d] = n;
		if (__builtin_mul_overflow(n, dim, &n))
			return exec_fail(err, "%s: too many elements",
					 type->spelling);
	}
	desc->offset = 0;
	*nelems = (size_t)n;
	return 0;
}

/* Allocates the buffer and descriptor of memref argument `slot`. */
static int alloc_memref(struct exec_slot *slot, const struct exec_type *type,
			int64_t size, struct exec_err *err)
{
	size_t esize = exec_elem_size(type->elem), bytes, rounded;

	slot->desc = calloc(1, sizeof(*slot->desc) +
				   2 * (size_t)type->rank * sizeof(int64_t));
	if (!slot->desc)
		return exec_fail(err, "out of memory");
	if (fill_desc(slot->desc, type, size, &slot->nelems, err) < 0)
		return -1;
	if (__builtin_mul_overflow(slot->nelems, esize, &bytes) ||
	    bytes > SIZE_MAX - EXEC_ALIGN)
		return exec_fail(err, "%s: buffer too large", type->spelling);
	/* aligned_alloc wants a multiple of the alignment, and never 0. */
	rounded = (bytes + EXEC_ALIGN) / EXEC_ALIGN * EXEC_ALIGN;
	slot->data = aligned_alloc(EXEC_ALIGN, rounded);
	if (!slot->data)
		return exec_fail(err, "%s: cannot allocate %zu bytes",
				 type->spelling, bytes);
	memset(slot->data, 0, rounded);
	slot->bytes = bytes;
	slot->desc->allocated = slot->data;
	slot->desc->aligned = slot->data;
	slot->desc_ptr = slot->desc;
	return 0;
}

struct exec_frame *exec_frame_alloc(const struct exec_sig *sig, int64_t size,
				    struct exec_err *err)
{
	struct exec_frame *frame;
	int i;

	frame = calloc(1, sizeof(*frame));
	if (frame) {
		frame->sig = sig;
		frame->slots = calloc(sig->n_args + 1, sizeof(*frame->slots));
		frame->packed = calloc(sig->n_args + sig->n_results + 1,
				       sizeof(*frame->packed));
	}
	if (!frame || !frame->slots || !frame->packed) {
		exec_fail(err, "out of memory");
		exec_frame_free(frame);
		return NULL;
	}
	for (i = 0; i < sig->n_args; ++i) {
		struct exec_slot *slot = &frame->slots[i];

		if (!sig->args[i].is_memref) {
			frame->packed[i] = &slot->scalar;
			continue;
		}
		if (alloc_memref(slot, &sig->args[i], size, err) < 0) {
			exec_frame_free(frame);
			return NULL;
		}
		frame->packed[i] = &slot->desc_ptr;
	}
	if (sig->n_results)
		frame->packed[sig->n_args] = &frame->result;
	return frame;
}

void exec_frame_free(struct exec_frame *frame)
{
	int i;

	if (!frame)
		return;
	if (frame->slots)
		for (i = 0; i < frame->sig->n_args; ++i) {
			free(frame->slots[i].data);
			free(frame->slots[i].desc);
		}
	free(frame->slots);
	free(frame->packed);
	free(frame);
}

void **exec_frame_packed(struct exec_frame *frame)
{
	return frame->packed;
}

/* The input pattern of element `i` of argument `arg`, before conversion:
 * an integer in [0, 101) for floats, in [0, 17) for integers.  Reduced
 * first so that no product overflows. */
static uint64_t pattern(uint64_t i, int arg, uint64_t mod)
{
	return ((i % mod) * 7 + (uint64_t)arg * 13) % mod;
}

/* Fills the buffer of memref argument `arg`.  Floats are in (0, 1): never
 * zero (no division by zero in kernels), NaN or denormal. */
static void init_memref(struct exec_slot *slot, enum exec_elem elem, int arg)
{
	size_t i;

	for (i = 0; i < slot->nelems; ++i) {
		double f = (double)(1 + pattern(i, arg, 101)) / 102.0;
		int64_t v = (int64_t)pattern(i, arg, 17) - 8;

		switch (elem) {
		case exec_f32:
			((float *)slot->data)[i] = (float)f;
			break;
		case exec_f64:
			((double *)slot->data)[i] = f;
			break;
		case exec_i8:
			((int8_t *)slot->data)[i] = (int8_t)v;
			break;
		case exec_i16:
			((int16_t *)slot->data)[i] = (int16_t)v;
			break;
		case exec_i32:
			((int32_t *)slot->data)[i] = (int32_t)v;
			break;
		case exec_i64:
		case exec_index:
			((int64_t *)slot->data)[i] = v;
			break;
		}
	}
}

/* The value of a scalar argument. */
static union exec_scalar scalar_input(enum exec_elem elem, int64_t size)
{
	union exec_scalar s;

	memset(&s, 0, sizeof(s));
	switch (elem) {
	case exec_f32:
		s.f32 = 1.5f;
		break;
	case exec_f64:
		s.f64 = 1.5;
		break;
	case exec_i32:
		s.i32 = 3;
		break;
	case exec_index:
		s.i64 = size;
		break;
	default:
		s.i64 = 3;
		break;
	}
	return s;
}

void exec_frame_init(struct exec_frame *frame, int64_t size)
{
	const struct exec_sig *sig = frame->sig;
	int i;

	for (i = 0; i < sig->n_args; ++i) {
		if (sig->args[i].is_memref)
			init_memref(&frame->slots[i], sig->args[i].elem, i);
		else
			frame->slots[i].scalar =
			    scalar_input(sig->args[i].elem, size);
	}
	memset(&frame->result, 0, sizeof(frame->result));
}

void exec_frame_copy(struct exec_frame *dst, const struct exec_frame *src)
{
	int i;

	for (i = 0; i < src->sig->n_args; ++i) {
		if (src->sig->args[i].is_memref)
			memcpy(dst->slots[i].data, src->slots[i].data,
			       src->slots[i].bytes);
		else
			dst->slots[i].scalar = src->slots[i].scalar;
	}
	memset(&dst->result, 0, sizeof(dst->result));
}

/* Prints element `p` (of kind elem) to out. */
static void print_elem(FILE *out, enum exec_elem elem, const void *p)
{
	float f;
	double d;
	int8_t i8;
	int16_t i16;
	int32_t i32;
	int64_t i64;

	switch (elem) {
	case exec_f32:
		memcpy(&f, p, sizeof(f));
		fprintf(out, "%.9g", f);
		break;
	case exec_f64:
		memcpy(&d, p, sizeof(d));
		fprintf(out, "%.17g", d);
		break;
	case exec_i8:
		memcpy(&i8, p, sizeof(i8));
		fprintf(out, "%d", i8);
		break;
	case exec_i16:
		memcpy(&i16, p, sizeof(i16));
		fprintf(out, "%d", i16);
		break;
	case exec_i32:
		memcpy(&i32, p, sizeof(i32));
		fprintf(out, "%" PRId32, i32);
		break;
	case exec_i64:
	case exec_index:
		memcpy(&i64, p, sizeof(i64));
		fprintf(out, "%" PRId64, i64);
		break;
	}
}

/* Compares n elements of size esize of a and b; prints the verdict after
 * the caller's prefix.  Returns 1 if they differ. */
static int compare_elems(FILE *out, enum exec_elem elem, const char *a,
			 const char *b, size_t n)
{
	size_t esize = exec_elem_size(elem), i, first = 0, count = 0;

	for (i = 0; i < n; ++i)
		if (memcmp(a + i * esize, b + i * esize, esize) != 0) {
			if (!count)
				first = i;
			++count;
		}
	if (!count) {
		fprintf(out, "identical\n");
		return 0;
	}
	fprintf(out, "DIFFER at %zu: ", first);
	print_elem(out, elem, a + first * esize);
	fprintf(out, " vs ");
	print_elem(out, elem, b + first * esize);
	fprintf(out, " (%zu differing)\n", count);
	return 1;
}

int exec_frame_compare(FILE *out, const struct exec_frame *orig,
		       const struct exec_frame *sched)
{
	const struct exec_sig *sig = orig->sig;
	int i, n_differ = 0;

	for (i = 0; i < sig->n_args; ++i) {
		const struct exec_slot *a = &orig->slots[i];
		const struct exec_slot *b = &sched->slots[i];

		if (!sig->args[i].is_memref)
			continue;
		fprintf(out, "arg%d %s %zu elements: ", i,
			sig->args[i].spelling, a->nelems);
		n_differ += compare_elems(out, sig->args[i].elem, a->data,
					  b->data, a->nelems);
	}
	for (i = 0; i < sig->n_results; ++i) {
		fprintf(out, "result%d %s: ", i, sig->results[i].spelling);
		n_differ += compare_elems(out, sig->results[i].elem,
					  (const char *)&orig->result,
					  (const char *)&sched->result, 1);
	}
	return n_differ;
}

#define FNV_OFFSET 0xcbf29ce484222325ULL

/* The 64-bit FNV-1a hash of n bytes, continuing from h. */
static uint64_t fnv1a_more(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The 64-bit FNV-1a hash of n bytes. */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	return fnv1a_more(FNV_OFFSET, p, n);
}

uint64_t exec_frame_hash(const struct exec_frame *frame, const int *args,
			 int n)
{
	const struct exec_sig *sig = frame->sig;
	uint64_t h = FNV_OFFSET;
	int i, k;

	if (!args)
		n = sig->n_args;
	for (i = 0; i < n; ++i) {
		k = args ? args[i] : i;
		if (k < 0 || k >= sig->n_args || !sig->args[k].is_memref)
			continue;
		h = fnv1a_more(h, frame->slots[k].data, frame->slots[k].bytes);
	}
	if (!args && sig->n_results)
		h = fnv1a_more(h, (const unsigned char *)&frame->result,
			       exec_elem_size(sig->results[0].elem));
	return h;
}

void exec_frame_flip_bit(struct exec_frame *frame, int arg)
{
	if (arg >= 0 && arg < frame->sig->n_args &&
	    frame->sig->args[arg].is_memref && frame->slots[arg].bytes)
		((unsigned char *)frame->slots[arg].data)[0] ^= 1;
}

void exec_frame_print_checksums(FILE *out, const struct exec_frame *frame)
{
	const struct exec_sig *sig = frame->sig;
	int i;

	for (i = 0; i < sig->n_args; ++i) {
		const struct exec_slot *s = &frame->slots[i];

		if (!sig->args[i].is_memref)
			continue;
		fprintf(out, "arg%d %s %zu elements: fnv1a 0x%016" PRIx64 "\n",
			i, sig->args[i].spelling, s->nelems,
			fnv1a(s->data, s->bytes));
	}
	for (i = 0; i < sig->n_results; ++i) {
		enum exec_elem elem = sig->results[i].elem;

		fprintf(out, "result%d %s: ", i, sig->results[i].spelling);
		print_elem(out, elem, &frame->result);
		fprintf(out, " fnv1a 0x%016" PRIx64 "\n",
			fnv1a((const unsigned char *)&frame->result,
			      exec_elem_size(elem)));
	}
}
