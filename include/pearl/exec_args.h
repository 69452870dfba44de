/*
 * pearl/exec_args.h - the signature of the function pearl-exec (and the
 * training environment) runs and the argument values of one call: memref
 * buffers, their descriptors, scalars.
 *
 * A call is made through the packed wrapper of the function's C interface
 * (`_mlir__mlir_ciface_NAME(void **args)`): args[i] points to the i-th
 * argument of `_mlir_ciface_NAME`, i.e. to a pointer to a memref descriptor
 * for a memref and to the value itself for a scalar; args[n_args] points to
 * where a scalar result is stored.
 *
 * Ownership follows isl's conventions (__isl_give: the caller frees the
 * result; __isl_take: consumed; __isl_keep: borrowed).  Errors: functions
 * return -1 (or NULL) and leave a message in a struct exec_err; nothing
 * here exits.
 */
#ifndef PEARL_EXEC_ARGS_H
#define PEARL_EXEC_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct exec_err {
	char msg[1024];
};

/* Records a printf-style message in err (if not NULL); returns -1. */
int exec_fail(struct exec_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Element types of memrefs and types of scalars. */
enum exec_elem {
	exec_f32,
	exec_f64,
	exec_i8,
	exec_i16,
	exec_i32,
	exec_i64,
	exec_index,
};

/* Size in bytes of one element of kind `elem`. */
size_t exec_elem_size(enum exec_elem elem);

/* The type of one argument or result. */
struct exec_type {
	int is_memref;
	enum exec_elem elem;	/* element type of a memref, or the scalar type */
	int rank;		/* memrefs only */
	int64_t *shape;		/* owned; rank sizes, -1 for `?` */
	char *spelling;		/* owned; the MLIR spelling, e.g. memref<?x4xf32> */
};

/* The signature of the entry function. */
struct exec_sig {
	int n_args;
	struct exec_type *args;	/* owned, n_args entries */
	int n_results;		/* 0 or 1 (a scalar) */
	struct exec_type *results; /* owned, n_results entries */
};

/* Frees what sig owns (not sig itself, which is __isl_keep); accepts a
 * zeroed sig. */
void exec_sig_clear(struct exec_sig *sig);
/* 1 if both signatures spell the same types, else 0 (__isl_keep both). */
int exec_sig_equal(const struct exec_sig *a, const struct exec_sig *b);

/* A scalar value of any supported kind. */
union exec_scalar {
	float f32;
	double f64;
	int32_t i32;
	int64_t i64;
};

/* The values of all arguments of one call, allocated for one signature. */
struct exec_frame;

/* Allocates the arguments of a call to a function with signature sig
 * (__isl_keep; must outlive the frame): each memref gets its own 64-byte
 * aligned buffer, with every `?` dimension set to `size`; scalars are left
 * zero.  Returns a new frame (__isl_give; free with exec_frame_free), or
 * NULL (message in err) if the sizes overflow or memory is exhausted. */
struct exec_frame *exec_frame_alloc(const struct exec_sig *sig, int64_t size,
				    struct exec_err *err);
/* Frees `frame` (__isl_take) and its buffers; accepts NULL. */
void exec_frame_free(struct exec_frame *frame);

/* Fills every argument of `frame` (__isl_keep) with the deterministic
 * inputs of pearl-exec: memref element i of argument k gets
 * (1 + (7 i + 13 k) mod 101) / 102 (floats) or ((7 i + 13 k) mod 17) - 8
 * (integers); float scalars get 1.5, integer scalars 3 and index scalars
 * `size`.  The result slot is zeroed. */
void exec_frame_init(struct exec_frame *frame, int64_t size);

/* Copies every argument value of src into dst (both __isl_keep, allocated
 * for the same signature and size); the result slot of dst is zeroed. */
void exec_frame_copy(struct exec_frame *dst, const struct exec_frame *src);

/* The packed argument array of the frame (__isl_keep), for the packed C
 * interface wrapper described above. */
void **exec_frame_packed(struct exec_frame *frame);

/* Prints one line per memref argument and result of `orig` and `sched`
 * (__isl_keep both; frames of the same signature) to out: identical, or the
 * first differing element, both values and the number of differing
 * elements.
 * Returns the number of buffers (and results) that differ. */
int exec_frame_compare(FILE *out, const struct exec_frame *orig,
		       const struct exec_frame *sched);

/* The 64-bit FNV-1a hash of the bytes of the memref arguments args[0..n-1]
 * of `frame` (__isl_keep; in that order; indices that are not memref
 * arguments are skipped), or of every memref argument and the result if
 * args is NULL. */
uint64_t exec_frame_hash(const struct exec_frame *frame, const int *args,
			 int n);

/* Flips the lowest bit of the first byte of memref argument `arg` of
 * `frame` (__isl_keep; a test hook: a wrong output on purpose). */
void exec_frame_flip_bit(struct exec_frame *frame, int arg);

/* Prints one line per memref argument and result of `frame` (__isl_keep)
 * with the 64-bit FNV-1a hash of its bytes. */
void exec_frame_print_checksums(FILE *out, const struct exec_frame *frame);

#endif
