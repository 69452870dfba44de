/*
 * lib/Gen/gen_internal.h - the generator's program model, shared by the
 * builder (gen_build.c and the grammars of gen_build.h: random structure),
 * the sizer (gen.c: sizes from an operation budget) and the printers
 * (gen_emit.c: MLIR text; gen_emit_c.c: C).
 *
 * A program is a forest of nodes in fixed pools (no allocation until the
 * text is printed): loop nodes with affine bounds, statement nodes (one
 * affine.store of an expression tree over loads) and affine.if nodes.
 * Bounds and indices are affine expressions over the enclosing iterators,
 * numbered by loop depth, plus optionally one program size D[dim] (the
 * sizes are decided after the structure, so everything that depends on a
 * size refers to it symbolically).
 */
#ifndef PEARL_GEN_INTERNAL_H
#define PEARL_GEN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/gen.h"

#define GEN_MAX_DEPTH 5		/* loops per nest (Pearl's graph limit) */
#define GEN_MAX_RANK 5		/* array dimensions (Pearl's graph limit) */
#define GEN_MAX_DIMS 3		/* program sizes D0..D2 */
#define GEN_MAX_ARRAYS 16
#define GEN_MAX_NESTS 4
#define GEN_MAX_NODES 96
#define GEN_MAX_EXPRS 512
#define GEN_MAX_ACCESSES 192
#define GEN_MAX_CHILDREN 4
#define GEN_MAX_BOUNDS 2	/* terms of a max (lower) or min (upper) bound */
#define GEN_MAX_CONDS 6		/* constraints of an affine.if */
#define GEN_MAX_READS 10	/* loads per statement (Pearl's graph limit) */
#define GEN_DESC_SIZE 160	/* a nest's one-line description */
/* The run-time estimate of unscheduled code on one thread (gen.c),
 * calibrated with pearl-exec --time: picoseconds per operation (load,
 * arithmetic, store) and per byte moved from or to an array larger than
 * the L2 cache (but within L3) or larger than L3. */
#define GEN_PS_PER_OP 80
#define GEN_PS_PER_L3_BYTE 20
#define GEN_PS_PER_MEM_BYTE 70
#define GEN_L2_BYTES (1ULL << 20)
#define GEN_L3_BYTES (16ULL << 20)

/* splitmix64 */
struct gen_rng {
	uint64_t state;
};

uint64_t gen_rng_next(struct gen_rng *rng);
/* Uniform in [0, n) for n >= 1 (0 for n <= 1). */
int gen_below(struct gen_rng *rng, int n);
/* 1 with probability permille / 1000. */
int gen_chance(struct gen_rng *rng, int permille);
/* Index i with probability weights[i] / sum(weights). */
int gen_pick(struct gen_rng *rng, const int *weights, int n);

/* sum_l coef[l] * i_l + (dim >= 0 ? D[dim] : 0) + k, over the iterators
 * i_0 (outermost) .. of the enclosing loops. */
struct gen_aff {
	int coef[GEN_MAX_DEPTH];
	int dim;
	int k;
};

/* Whether `a` (kept) depends on a loop iterator (a bound of a loop that
 * depends on the loops around it). */
static inline int gen_aff_has_iter(const struct gen_aff *a)
{
	int l;

	for (l = 0; l < GEN_MAX_DEPTH; ++l)
		if (a->coef[l])
			return 1;
	return 0;
}

struct gen_array {
	int rank;
	int dim[GEN_MAX_RANK];	/* program size index of each dimension */
	int writer;		/* first nest writing it, -1 if only read */
	int read;		/* read by @kernel */
	int in_place;		/* some statement reads and writes it */
};

/* An access: array[idx...]; apply_dim >= 0 prints that index through an
 * affine.apply. */
struct gen_access {
	int array;
	struct gen_aff idx[GEN_MAX_RANK];
	int apply_dim;
};

enum gen_op {
	GEN_OP_LOAD,	/* access */
	GEN_OP_CONST,	/* literal */
	GEN_OP_ADD,
	GEN_OP_SUB,
	GEN_OP_MUL,
	GEN_OP_DIV,	/* by a constant operand b */
	GEN_OP_REM,	/* integers, by a constant operand b */
	GEN_OP_SHR,	/* integers, by a constant operand b */
	GEN_OP_MAX,
	GEN_OP_MIN,
	GEN_OP_SELECT,	/* a > b ? a : b * 0.5 (cmp + select) */
	GEN_OP_ABS,	/* floats: math.absf; unary */
	GEN_OP_SQRT,	/* floats: math.sqrt(math.absf(a)); unary */
	GEN_OP_NEG	/* unary */
};

struct gen_expr {
	enum gen_op op;
	int a, b;		/* operands (expr indices), -1 if none */
	int access;		/* GEN_OP_LOAD */
	const char *literal;	/* GEN_OP_CONST; static string */
};

enum gen_node_kind { GEN_NODE_LOOP, GEN_NODE_STMT, GEN_NODE_IF };

enum gen_loop_role { GEN_ROLE_SPACE, GEN_ROLE_TIME, GEN_ROLE_REDUCTION };

struct gen_node {
	enum gen_node_kind kind;
	int depth;		/* loops enclosing the node */
	/* loop: max(lb) <= i < min(ub), step */
	int n_lb, n_ub;
	struct gen_aff lb[GEN_MAX_BOUNDS], ub[GEN_MAX_BOUNDS];
	int step;
	enum gen_loop_role role;
	/* if: all cond[c] >= 0 */
	int n_cond;
	struct gen_aff cond[GEN_MAX_CONDS];
	/* loop body or then-branch; else-branch */
	int n_child, child[GEN_MAX_CHILDREN];
	int n_else, else_child[GEN_MAX_CHILDREN];
	/* statement */
	int write;		/* access */
	int expr;
};

struct gen_nest {
	int root;		/* node */
	enum pearl_gen_kind kind;
	char desc[GEN_DESC_SIZE]; /* e.g. "contraction: matmul ikj,
				   * triangular" */
};

struct gen_prog {
	uint64_t seed;
	enum pearl_gen_scale scale;
	enum pearl_gen_family family;
	enum pearl_gen_type type;
	struct gen_rng rng;

	int n_dims;
	int dim_min[GEN_MAX_DIMS];	/* smallest size the structure allows */
	int dim_mul[GEN_MAX_DIMS];	/* aspect: D = mul * s / 64 */
	int64_t dim[GEN_MAX_DIMS];	/* the sizes, once decided */

	int n_arrays;
	struct gen_array arrays[GEN_MAX_ARRAYS];
	int n_nests;
	struct gen_nest nests[GEN_MAX_NESTS];
	int n_nodes;
	struct gen_node nodes[GEN_MAX_NODES];
	int n_exprs;
	struct gen_expr exprs[GEN_MAX_EXPRS];
	int n_accesses;
	struct gen_access accesses[GEN_MAX_ACCESSES];

	unsigned features;
	int full;		/* a pool overflowed or an operand was missing
				 * (a generator bug): the line that saw it, */
	const char *full_file;	/* in this file (GEN_FAIL) */
};

/* gen_build.c: the random structure of the program (sizes left symbolic;
 * the grammars are in gen_build.h's files). */
void gen_build(struct gen_prog *p);

/* gen.c: helpers on the model with the sizes decided. */
int64_t gen_aff_min(const struct gen_prog *p, const struct gen_aff *a,
		    const int64_t *lo, const int64_t *hi);
int64_t gen_aff_max(const struct gen_prog *p, const struct gen_aff *a,
		    const int64_t *lo, const int64_t *hi);

/* A growing string; oom is set (and the text dropped) once memory runs
 * out. */
struct gen_sb {
	char *buf;
	size_t len, cap;
	int oom;
};

/* gen_emit.c: printf at the end of *s. */
void gen_sb_printf(struct gen_sb *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* gen_emit.c: the text of *s (__isl_give: the caller frees it), or NULL
 * (the text freed) if memory ran out; *s is spent. */
char *gen_sb_take(struct gen_sb *s);
/* gen_emit.c: an affine expression over the sizes and the iterators,
 * printed as prefix<level> ("%i" in MLIR indices, "d" in maps, "i" in C). */
void gen_print_aff(struct gen_sb *s, const struct gen_prog *p,
		   const struct gen_aff *a, const char *prefix);
/* The extent of dimension d of array a, once the sizes are decided. */
int64_t gen_array_extent(const struct gen_prog *p, const struct gen_array *a,
			 int d);

/* gen_emit.c: the MLIR text (malloc'd), NULL if memory is exhausted. */
char *gen_emit(const struct gen_prog *p, const struct pearl_gen_info *info);
/* gen_emit_c.c: the same program as a C program (malloc'd), NULL if
 * memory is exhausted. */
char *gen_emit_c(const struct gen_prog *p, const struct pearl_gen_info *info);

#endif
