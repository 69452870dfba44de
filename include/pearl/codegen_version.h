/*
 * pearl/codegen_version.h - the version of the code Pearl generates.
 *
 * Anything measured on generated code and stored (the environment's memo of
 * run times, lib/Env/env_memo.c) is keyed by this number, so that answers
 * recorded with an older code generator are not reused. ANY CHANGE TO THE
 * GENERATED CODE MUST BUMP IT: how an action transforms the schedule
 * (lib/Transform), the isl AST built from it, the MLIR code generator
 * (lib/Frontend/MLIR/codegen*.c and its unroller, unroll_shim.cpp), and the
 * lowering and compilation of the environment.
 *
 * History:
 *   1  everything before the version existed (U(f) strip-mined the
 *      innermost loop in isl and unrolled the point loop).
 *   2  U(f) no longer strip-mines: the loop itself is unrolled by MLIR's
 *      unroller with a cleanup loop, loops with max/min bounds versioned
 *      by their active bound first.
 *   3  innermost point loops of tilings carry a loop_annotation that
 *      disables LLVM's unrolling, and the environment's lowering keeps
 *      it (LLVM unrolled 32-iteration point loops completely and did not
 *      vectorize them).
 *   4  bands whose loops take a single value are removed before AST
 *      generation, with their marks: a parallel or unroll mark on such a
 *      band no longer lands on the loop inside it (which made a loop that
 *      carries a dependence parallel).
 *   5  point loops of tilings run over the original iterator (from the
 *      tile loop's value on) instead of from 0: the accesses and the
 *      bounds of loops inside use the iterator as it is, and LLVM
 *      unrolls the loops inside again (PolyBench nussinov). U(f) refuses
 *      a loop that holds other loops. The environment's measurements of
 *      this version also warm up by time (pearl_env_options.warmup_seconds).
 *   6  the hint against LLVM's unrolling (version 3) only on innermost
 *      point loops that carry no dependence and whose accesses are
 *      contiguous: LLVM unrolls tiled reductions and strided loops again
 *      (Pearl's mvt, tiled: 10.7x -> 19.6x).
 *   7  a band whose loops take a single value at each value of the loops
 *      around it (not only over all instances, version 4) gets no mark:
 *      a parallel mark on the point loop of a tile loop tiled again, or
 *      on tile loops that a skew makes distinct, no longer lands on the
 *      loop inside. An AST that leaves out a statement is refused. The
 *      benchmark kernels' code (policy and hand schedules, MINI to LARGE)
 *      is unchanged.
 *   8  the condition of an unrolled loop's versions is hoisted only out of
 *      a loop that holds nothing else (hoisting copied everything beside
 *      it into both versions: the code doubled with every unrolled loop
 *      of a nest). A region whose code would exceed 100,000 operations
 *      (isl's conditional expressions copy the statements) is left
 *      unchanged. isl writes disjunctive conditions (ast_build_allow_or
 *      on): without them its AST generator lost instances on skewed
 *      schedules. Benchmark kernels unchanged.
 *   9  a constant condition of isl's AST ("if (1)") is generated (true:
 *      its then-branch, false: its else-branch) instead of refusing the
 *      region. Benchmark kernels unchanged.
 *  10  the condition versioning an unrolled loop is hoisted by Pearl (out
 *      of the loops that hold only it), not by MLIR's hoistAffineIfOp,
 *      whose pattern driver also erased dead operations beside the code
 *      and canonicalized the maps of the function it touched: the maps of
 *      mvt and gemver under the policy stay unsimplified (constant and
 *      identity maps, which the lowering folds). New actions D, F, J, V
 *      (J's point loops are unrolled by the code generator, V's width is
 *      a loop_annotation); other benchmark kernels unchanged.
 *  11  a function the pass rewrote is marked pearl.noalias_memref_args,
 *      and the lowering gives its memref-argument loads and stores alias
 *      scopes (pearl/mlir_alias_scopes.h). Register promotion of the
 *      elements innermost loops update in place (promote_shim.cpp).
 *      Unroll marks carried by an attribute, so that the copies of a
 *      jammed loop made by versioning an inner one are unrolled too. A
 *      region whose unrolled code exceeds 30,000 operations is left
 *      unchanged. Every rewritten kernel's machine code may change.
 *  12  I(l,l+1) interchanges across a sequence: where loop l's body is a
 *      sequence with loop l+1 as one part, it is no longer refused as not
 *      perfectly nested (lib/Transform/restructure.c). Schedules recorded
 *      as illegal under 11 may be legal now; the code of every schedule
 *      legal under 11 is unchanged.
 *  13  K: a region whose copy loops (MLIR's copy generation) would read
 *      outside an array is left unchanged (such copies read 82 rows of a
 *      51-row array; the runs crashed or read garbage). After any code
 *      generation failure the new operations are destroyed last first
 *      (the old order corrupted the heap when K had allocated a buffer in
 *      the region's block). Found by expert iteration's first use of K.
 *  14  K: each copy is tried first on a clone of the function, and one
 *      that would read outside its array is not made (a remark counts
 *      it); the others are, and the region is rewritten. Under 13 such a
 *      schedule left the region unchanged: 223 of 78,600 answers of the
 *      training memo, most of its failures. The code of every other
 *      schedule is unchanged: version 13's answers are read as this
 *      version's (PEARL_CODEGEN_CARRIED), except those failures.
 *  15  register promotion over a loop of step s > 1 (the main loop of an
 *      unrolled one, U or J) also on its iterator's stride, lb + s * q,
 *      which MLIR's dependence analysis drops when lb is not constant:
 *      Nussinov's table[i][j], updated from table[i][k + c], is carried
 *      in a register by U(4)'s main loop, not only by its remainder. Of
 *      the 45 benchmark kernels' code under the policy (MEDIUM, LARGE),
 *      the hand schedules (MEDIUM, LARGE) and pearl-tune's (MEDIUM), only
 *      Nussinov's under the policy at MEDIUM changed (1.35x to 1.47x of
 *      unscheduled here). Versions 13 and 14's answers are read as this
 *      version's, but those version 14 made stale (SQL) and those of
 *      schedules with U or J whose code now has a loop promoted by its
 *      stride: the environment generates their code to tell
 *      (PEARL_CODEGEN_STRIDE).
 */
#ifndef PEARL_CODEGEN_VERSION_H
#define PEARL_CODEGEN_VERSION_H

#define PEARL_CODEGEN_VERSION 15

/* The oldest earlier version whose answers the memo also reads: every
 * version from it to the current one, the newest first (0: none), and the
 * condition (SQL on the memo's results) under which one of them no longer
 * holds: the code of every schedule is the same under those versions,
 * except those that failed so (version 14's change) and the schedules
 * the environment checks (PEARL_CODEGEN_STRIDE). Reset to 0 with the next
 * version whose change of code is not so confined. */
#define PEARL_CODEGEN_CARRIED 13
#define PEARL_CODEGEN_CARRIED_STALE \
	"status = 4 AND message LIKE 'code generation: a copy of K would " \
	"read outside its array%'"

/* The version whose register promotion also uses the stride of a loop:
 * an answer of an older version for a schedule that unrolls (U, J) holds
 * only if the code generator promotes no loop by its stride
 * (pearl_mlir_codegen_report), which the environment checks before it
 * reads such an answer. */
#define PEARL_CODEGEN_STRIDE 15

#endif
