/*
 * lib/Gen/gen_build.h - what the generator's grammars share (internal to
 * lib/Gen): the pieces of gen_builder.c, with which every nest kind and
 * family appends loops, arrays, accesses, expressions and statements to the
 * program's pools, and the entry point of each kind and family for
 * gen_build.c, which draws the program's outline and calls them.
 *
 * Every piece returns the index of what it appended to its pool, or -1
 * when the pool is full or an operand is missing (-1): then it records the
 * place in p->full (GEN_FAIL), and gen.c refuses the program. Pieces that
 * take operands accept -1 and pass it on, so a grammar checks p->full once.
 * The pieces draw from p->rng in a fixed order: a program is a function of
 * its seed and scale.
 */
#ifndef PEARL_GEN_BUILD_H
#define PEARL_GEN_BUILD_H

#include "gen_internal.h"

/* Records the first place where the structure went wrong. */
#define GEN_FAIL(p)                                                            \
	((p)->full ? (void)0                                                   \
		   : (void)((p)->full = __LINE__, (p)->full_file = __FILE__))

#define N_OF(t) ((int)(sizeof(t) / sizeof((t)[0])))
/* One of the literals of table t, uniformly. */
#define LIT(p, t) ((t)[gen_below(&(p)->rng, N_OF(t))])
/* Appends to a nest's description `desc` (GEN_DESC_SIZE bytes). */
#define DESC(...)                                                              \
	snprintf(desc + strlen(desc), GEN_DESC_SIZE - strlen(desc), __VA_ARGS__)

/* Literals, written so that f32 and f64 parse them alike: small and large
 * float factors, integer factors and shift amounts. */
extern const char *const gen_f_small[4];
extern const char *const gen_f_large[4];
extern const char *const gen_i_mul[5];
extern const char *const gen_i_shr[3];

/* ---- Affine expressions -------------------------------------------------- */

/* The constant k. */
struct gen_aff gen_aff_k(int k);
/* D[dim] + k. */
struct gen_aff gen_aff_d(int dim, int k);
/* i_level + k. */
struct gen_aff gen_aff_it(int level, int k);

/* ---- Nodes and loops ----------------------------------------------------- */

/* A node of `kind` at `depth`, not yet attached. */
int gen_node_new(struct gen_prog *p, enum gen_node_kind kind, int depth);
/* Appends child to parent's body (in_else: its else-branch); nothing if
 * either is -1. */
void gen_add_child(struct gen_prog *p, int parent, int child, int in_else);
/* Raises the smallest size D[dim] may take to min. */
void gen_need_dim(struct gen_prog *p, int dim, int min);

/* Loops appended to parent's body (parent -1: a nest root) at `depth`:
 * lo <= i < D[dim] - hi; */
int gen_loop_dim(struct gen_prog *p, int parent, int depth, int dim, int lo,
		 int hi, enum gen_loop_role role);
/* 0 <= i < n; */
int gen_loop_const(struct gen_prog *p, int parent, int depth, int n,
		   enum gen_loop_role role);
/* over [0, D[dim]), bounded by the loop at depth `ref` as triangle kind
 * `kind` says (TRI_LE: i <= i_ref, ...); */
enum { TRI_LE, TRI_LT, TRI_GE, TRI_GT, N_TRI };
extern const char *const gen_tri_name[N_TRI]; /* "<=", "<", ">=", ">" */
int gen_loop_tri(struct gen_prog *p, int parent, int depth, int dim, int ref,
		 int kind, enum gen_loop_role role);
/* max(0, i_ref - w) <= i < min(D[dim], i_ref + w + 1). */
int gen_loop_band(struct gen_prog *p, int parent, int depth, int dim, int ref,
		  int w, enum gen_loop_role role);

/* ---- Arrays and accesses ------------------------------------------------- */

/* A new array of `rank` dimensions: dims[d] the index of a program size,
 * or -c for the constant extent c. */
int gen_array_new(struct gen_prog *p, int rank, const int *dims);
/* An array written by a nest before `nest` with rank in [lo, hi] (sized
 * dimensions only), uniformly; -1 if none. */
int gen_chain_any(struct gen_prog *p, int nest, int lo, int hi);
/* An input array of these dims: an earlier nest's output with chance
 * `chain` (when one fits), else a new array. */
int gen_input_array(struct gen_prog *p, int nest, int rank, const int *dims,
		    int chain);
/* An access to `array` with the given indices; an index that is not a
 * plain iterator is printed through affine.apply with chance ACCESS_APPLY
 * (at most one index of a read). */
int gen_access_new(struct gen_prog *p, int array, const struct gen_aff *idx,
		   int is_write);
/* array[i_{lev[0]}, i_{lev[1]}, ...] */
int gen_access_levels(struct gen_prog *p, int array, const int *lev,
		      int is_write);

/* ---- Expressions and statements ------------------------------------------ */

/* The expression a op b (b -1 for a unary op). */
int gen_e_new(struct gen_prog *p, enum gen_op op, int a, int b);
/* The same, for binary ops. */
int gen_e_bin(struct gen_prog *p, enum gen_op op, int a, int b);
/* A load through `access`. */
int gen_e_load(struct gen_prog *p, int access);
/* A constant (static storage). */
int gen_e_const(struct gen_prog *p, const char *literal);
/* Whether the program's element type is a float. */
int gen_is_float(const struct gen_prog *p);
/* "0.0" or "0", for the element type. */
const char *gen_zero_literal(const struct gen_prog *p);
/* x, or x times a constant (chance EXPR_SCALE). */
int gen_maybe_scale(struct gen_prog *p, int x);
/* The sum (or max/min) of the leaves scaled down by their number, so that
 * its magnitude stays within the leaves' (floats); for integers the sum
 * divided or shifted. */
int gen_combine_bounded(struct gen_prog *p, const int *leaves, int n);
/* The leaves combined: gen_combine_bounded if `bounded`, else by a free
 * expression. */
int gen_combine(struct gen_prog *p, const int *leaves, int n, int bounded);
/* A statement write := expr appended to parent's body (or else-branch). */
int gen_stmt_new(struct gen_prog *p, int parent, int depth, int write, int expr,
		 int in_else);

/* ---- Draws ---------------------------------------------------------------- */

/* One of the program's sizes, uniformly. */
int gen_random_dim(struct gen_prog *p);
/* The trip count of a time loop (2-3 at the small scale, else 2-8). */
int gen_time_steps(struct gen_prog *p);
/* Shuffles v[n] (Fisher-Yates). */
void gen_shuffle(struct gen_prog *p, int *v, int n);

/* ---- The nest kinds and the families -------------------------------------- */

/* Nest number `nest` of each kind (gen_elementwise.c, gen_stencil.c,
 * gen_reduction.c, gen_contraction.c): its root node, or -1; its one-line
 * description goes to desc (GEN_DESC_SIZE bytes). */
int gen_build_elementwise(struct gen_prog *p, int nest, char *desc);
int gen_build_stencil(struct gen_prog *p, int nest, char *desc);
int gen_build_reduction(struct gen_prog *p, int nest, char *desc);
int gen_build_contraction(struct gen_prog *p, int nest, char *desc);
/* Whether p is of a family of one matmul nest (matmul, gemm). */
int gen_one_matmul(const struct gen_prog *p);
/* Whether every nest of p is a matmul (the matmul, gemm and chain
 * families). */
int gen_only_matmuls(const struct gen_prog *p);
/* The number of nests of a chain-family program, 2 or 3 (drawn). */
int gen_chain_nests(struct gen_prog *p);

/* The whole program of the matrix-vector family (gen_matvec.c): 2-3 nests
 * over one matrix, the first perhaps updating it by outer products, the
 * others products with it (or an axpy on an earlier product). */
void gen_build_matvec(struct gen_prog *p);
/* The whole program of the sweep family (gen_sweep.c): fields updated in
 * turn, as PolyBench's fdtd-2d, jacobi-1d/2d and heat-3d, by 2-4 nests
 * (each field written by one at least), perhaps inside one time loop. */
void gen_build_sweep(struct gen_prog *p);

#endif
