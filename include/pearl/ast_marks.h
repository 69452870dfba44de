/*
 * pearl/ast_marks.h - the names of the mark nodes in the isl ASTs Pearl
 * builds (pearl_sched_build_ast, pearl/transform.h), which the code
 * generators read (lib/Frontend/MLIR/codegen.c, gen_mark): the one
 * contract between the library that places them and those that read them.
 */
#ifndef PEARL_AST_MARKS_H
#define PEARL_AST_MARKS_H

/* Wraps an innermost loop LLVM's loop vectorizer is asked to vectorize
 * (V(w)); its isl_id's user pointer holds the width as an intptr_t. */
#define PEARL_VECTOR_MARK "vectorize"

/* Wraps parallel loops. */
#define PEARL_PARALLEL_MARK "parallel"

/* Wraps loops to unroll; its isl_id's user pointer holds the unroll factor
 * as an intptr_t, negated for a loop that carries no dependence (one
 * LLVM's loop vectorizer takes and unrolls itself: the MLIR code generator
 * leaves it as a loop). */
#define PEARL_UNROLL_MARK "unroll"

/* Wraps the innermost point loop of a tiling (a loop with no loop inside)
 * that carries no dependence and whose accesses are contiguous from one
 * iteration to the next. A short loop LLVM would unroll completely before
 * its loop vectorizer sees it, then fail to vectorize the copies: the MLIR
 * code generator asks LLVM not to unroll it. A point loop that carries a
 * dependence (a reduction) or has a strided access gains from LLVM's
 * unrolling and is not marked. */
#define PEARL_POINT_MARK "point"

/* Wraps loops before each run of which the arrays they read and do not
 * write are copied into local buffers (K; pearl_mlir_copy_read_only);
 * outside every other mark. */
#define PEARL_COPY_MARK "copy"

#endif
