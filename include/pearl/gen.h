/*
 * pearl/gen.h - seeded generator of random affine programs (MLIR).
 *
 * pearl_gen_program(seed, opts, ...) returns the text of one MLIR module in
 * the benchmark kernel contract of test/bench/kernels/README.md: a header
 * (kernel name gen-<seed>, sizes, outputs, then a features line), a public
 * @init that fills every argument deterministically and a public @kernel
 * with the same signature, every argument a statically shaped memref.
 * @kernel holds 1-4 loop nests of depth 1-5 built from the patterns of the
 * Tiramisu/LOOPer random program generators: element-wise maps, stencils,
 * reductions and contractions, on rectangular, triangular and banded
 * domains, with producer/consumer chains between nests and imperfect nests
 * (statements before or after an inner loop).  Only operations Pearl's
 * pass models appear in @kernel: affine.for / if / load / store / apply
 * (min and max in loop bounds) and arith / math.
 *
 * The same seed and options give byte-identical text on every machine: the
 * generator draws from its own splitmix64 stream and decides sizes with
 * integer arithmetic only.
 *
 * Ownership follows isl's conventions (__isl_give: the caller frees the
 * result; __isl_keep: borrowed): the returned text is __isl_give (malloc'd,
 * freed with free); `opts` and `info` are __isl_keep.  Errors (out of
 * memory, a generator bug caught by the internal checks) return NULL and
 * leave a message in err[err_size] (when err is not NULL); nothing here
 * exits or aborts.
 */
#ifndef PEARL_GEN_H
#define PEARL_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How large the generated problems are. */
enum pearl_gen_scale {
	/* Tiny sizes (loops of a few to a few dozen iterations, time loops of
	 * 1-3 steps) for tests: a program runs in microseconds. */
	pearl_gen_scale_small = 0,
	/* Training sizes: the estimated run time of @kernel (unscheduled, one
	 * thread) is drawn log-uniformly between about 5 and 150 ms, with
	 * arrays from cache-resident to tens of megabytes. */
	pearl_gen_scale_train = 1,
	/* The training structures over a wider range of run times: the
	 * estimate is drawn log-uniformly between about 0.25 and 150 ms, so
	 * that training also sees programs that run in well under a
	 * millisecond, where a parallel region or a tile loop costs more than
	 * it saves. */
	pearl_gen_scale_wide = 2,
	/* Sizes by working set, for training where loop order and tiling
	 * matter: the bytes of all arrays are drawn log-uniformly between
	 * 32 KiB (L1 and L2 resident) and 64 MiB (beyond a 32 MiB L3), and
	 * the sizes are the largest that fit them while the estimated run
	 * time stays under about 108 ms (so the largest working sets are
	 * reached by the programs whose time allows). */
	pearl_gen_scale_cache = 3
};

/* The scale called `name` ("small", "train", "wide", "cache") in *scale; 0 on
 * success, -1 for an unknown name. */
int pearl_gen_scale_parse(const char *name, enum pearl_gen_scale *scale);

/* pearl_gen_scale_parse as the callback of a tool's --size-scale option
 * (PEARL_OPTION_CALL, pearl/options.h; dest: an enum pearl_gen_scale). */
int pearl_gen_scale_option(const char *value, void *dest);

/* The name of `scale` (__isl_keep, static), "?" if out of range. */
const char *pearl_gen_scale_name(enum pearl_gen_scale scale);

/* The language of the text: the MLIR module of the kernel contract, or
 * the same program as a standalone C program (tools/pearl-gen/README.md). */
enum pearl_gen_lang {
	pearl_gen_lang_mlir = 0,
	pearl_gen_lang_c
};

/* Which programs a seed stands for. */
enum pearl_gen_family {
	/* Every structure: 1-3 nests of every kind (the default). */
	pearl_gen_family_any = 0,
	/* One matmul nest, C += A B (A perhaps transposed, a loop pair
	 * perhaps triangular), its loop order drawn uniformly from the six:
	 * for training where the loop order alone decides which interchange
	 * pays. Its programs are named mm-<seed>. */
	pearl_gen_family_matmul,
	/* One matmul nest shaped as PolyBench's gemm, syrk and syr2k: C's
	 * row (or column) scaled by a loop of its own inside the outermost
	 * loop, before the product's two inner loops; the outermost loop is
	 * one of C's (the orders ijk, ikj, jik, jki, drawn uniformly); B
	 * perhaps A itself, read transposed (syrk), a loop pair perhaps
	 * triangular, the scaling loop then too. Named gemm-<seed>. */
	pearl_gen_family_gemm,
	/* Two or three matmul nests, later ones mostly reading an earlier
	 * one's product, as PolyBench's 2mm and 3mm: most have k innermost
	 * and C set to 0 or scaled before the k loop; rectangular. Named
	 * chain-<seed>. */
	pearl_gen_family_chain,
	/* Two or three nests over one matrix A, as PolyBench's atax, bicg,
	 * gemver, gesummv and mvt: A x, A^T x in row or column order, bicg's
	 * and gesummv's fused pairs, an axpy on an earlier product; the
	 * first nest perhaps updates A by outer products (gemver). Named
	 * mv-<seed>. */
	pearl_gen_family_matvec,
	/* Two or three fields of one shape (rank 1-3) updated in turn by 2-4
	 * stencil nests, as PolyBench's fdtd-2d, jacobi-1d/2d and heat-3d:
	 * each a bounded average of its own centre (perhaps) and of other
	 * fields by a one-sided difference or a radius-1 star; the first nest
	 * perhaps copying a boundary row; a nest's loops perhaps in a shuffled
	 * order; all nests inside one time loop (mostly) or each a nest of
	 * its own. Named sw-<seed>. */
	pearl_gen_family_sweep,
	/* One doitgen nest, as PolyBench's: sum[p] += A[r][q][s] * C4[s][p]
	 * over the loops r, q, p, s, then A[r][q][p] = sum[p] in a second p
	 * loop. The sum is mostly one row shared by every (r, q), set to 0
	 * before loop s (PolyBench's form: distributing loop q is then
	 * illegal), else a 3-d sum[r][q][p] as in the "any" family's
	 * doitgens; C4 perhaps read transposed. Named dg-<seed>. */
	pearl_gen_family_doitgen,
	pearl_gen_n_families
};

/* The family called `name` ("any", "matmul", "gemm", "chain", "matvec",
 * "sweep", "doitgen")
 * in *family; 0 on success, -1 for an unknown name. */
int pearl_gen_family_parse(const char *name, enum pearl_gen_family *family);
/* pearl_gen_family_parse as the callback of a tool's --family option
 * (dest: an enum pearl_gen_family). */
int pearl_gen_family_option(const char *value, void *dest);
/* The name of `family` (static), "?" if out of range. */
const char *pearl_gen_family_name(enum pearl_gen_family family);
/* The name of program `seed` of `family`: "gen-<seed>", "mm-<seed>",
 * "gemm-<seed>", "chain-<seed>", "mv-<seed>", "sw-<seed>" or "dg-<seed>"
 * into buf[size] (truncated if need be); returns buf. */
char *pearl_gen_program_name(enum pearl_gen_family family, uint64_t seed,
			     char *buf, size_t size);

/* Options of pearl_gen_program; zero-initialize, then set fields. */
struct pearl_gen_options {
	enum pearl_gen_scale scale;
	enum pearl_gen_lang lang;	/* 0: MLIR */
	enum pearl_gen_family family;	/* 0: any */
};

/* The kinds of loop nests. */
enum pearl_gen_kind {
	pearl_gen_kind_elementwise = 0,
	pearl_gen_kind_stencil,
	pearl_gen_kind_reduction,
	pearl_gen_kind_contraction,
	pearl_gen_n_kinds
};

/* Element types. */
enum pearl_gen_type {
	pearl_gen_type_f32 = 0,
	pearl_gen_type_f64,
	pearl_gen_type_i32,
	pearl_gen_n_types
};

/* Program features (bits of pearl_gen_info.features). */
enum pearl_gen_feature {
	pearl_gen_f_multi_nest = 1u << 0,  /* more than one loop nest */
	pearl_gen_f_chain = 1u << 1,       /* a nest reads what an earlier one wrote */
	pearl_gen_f_triangular = 1u << 2,  /* a bound depends on an outer iterator */
	pearl_gen_f_banded = 1u << 3,      /* max/min bound maps around an outer iterator */
	pearl_gen_f_imperfect = 1u << 4,   /* a statement before/after an inner loop */
	pearl_gen_f_time_loop = 1u << 5,   /* an outer loop repeating a sweep */
	pearl_gen_f_in_place = 1u << 6,    /* a statement reads and writes one array */
	pearl_gen_f_if = 1u << 7,          /* affine.if (with or without else) */
	pearl_gen_f_apply = 1u << 8,       /* an index computed by affine.apply */
	pearl_gen_f_step = 1u << 9,        /* a loop with step 2 */
	pearl_gen_f_transpose = 1u << 10,  /* a read with permuted iterators */
	pearl_gen_f_broadcast = 1u << 11,  /* a read indexed by some of the iterators */
	pearl_gen_f_math = 1u << 12,       /* math.sqrt / math.absf */
	pearl_gen_f_select = 1u << 13,     /* cmp + select, max/min */
	pearl_gen_f_conv = 1u << 14,       /* convolution (i + r indices) */
	pearl_gen_f_batched = 1u << 15,    /* batched or 4-d contraction */
	pearl_gen_n_features = 16
};

/* What a generated program contains. */
struct pearl_gen_info {
	enum pearl_gen_family family;
	int n_nests;
	int max_depth;		/* deepest loop nest */
	unsigned kinds;		/* bit 1 << pearl_gen_kind per kind present */
	unsigned types;		/* bit 1 << pearl_gen_type per element type */
	unsigned features;	/* pearl_gen_feature bits */
	int n_arrays;
	uint64_t ops;		/* estimated operations (loads, arith, stores) */
	uint64_t l3_bytes;	/* estimated traffic from arrays beyond L2 */
	uint64_t mem_bytes;	/* ... and from arrays beyond L3 */
	uint64_t bytes;		/* bytes of all arguments */
	uint64_t est_ps;	/* estimated unscheduled single-thread run time
				 * (picoseconds; operations and traffic) */
	double est_ms;		/* the same in milliseconds */
};

/* The MLIR text of program `seed` (__isl_give: malloc'd, caller frees),
 * and, when info (__isl_keep) is not NULL, a description of it.  opts
 * (__isl_keep) NULL means the small scale.  NULL on error, with a message
 * in err. */
char *pearl_gen_program(uint64_t seed, const struct pearl_gen_options *opts,
			struct pearl_gen_info *info, char *err,
			size_t err_size);

/* Name of a kind, type or feature bit (e.g. "stencil", "f32",
 * "triangular"; __isl_keep, static); NULL if out of range. */
const char *pearl_gen_kind_name(enum pearl_gen_kind kind);
const char *pearl_gen_type_name(enum pearl_gen_type type);
const char *pearl_gen_feature_name(enum pearl_gen_feature feature);
/* One-line description of a feature bit (__isl_keep, static); NULL if out
 * of range. */
const char *pearl_gen_feature_description(enum pearl_gen_feature feature);

/* Writes the one-line summary of `info` (__isl_keep) for program `seed`:
 * "gen-<seed>: nests=N depth=D kinds=a,b types=t features=x,y ops=O
 *  est=E ms mem=M KB" (without newline) to buf[size], truncated if needed.
 * Returns the length it would have had, like snprintf. */
int pearl_gen_info_str(const struct pearl_gen_info *info, uint64_t seed,
		       char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
