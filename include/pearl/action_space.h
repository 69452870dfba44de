/*
 * pearl/action_space.h - the policy's 86 actions: the 56 of Pearl's paper
 * (ids 0-55, as its reference implementation numbers them), 14 of the
 * action space v2 (ids 56-69) and 16 of the action space v3 (ids 70-85),
 * numbered:
 *
 *    0- 3  I(L,L+1)          interchange, L = 0..3 (across a sequence
 *                            where loop L's body is one: pearl/transform.h)
 *    4- 8  R(L)              reversal, L = 0..4
 *    9-11  S(L,L+1)          skewing, L = 0..2, factors from the solver
 *   12-13  P(L)              parallelization, L = 0..1
 *   14-49  T(L,L+1,s1,s2)    tiling, id = 14 + 4 * p + L, L = 0..3, for the
 *                            size pairs p = (32,32) (64,64) (128,128)
 *                            (32,64) (32,128) (64,32) (64,128) (128,32)
 *                            (128,64)
 *   50-54  U(f)              unrolling of the innermost loop, f = 2..32
 *   55     N                 next branch (after the last: end of episode)
 *   56-59  D(L)              distribution of loop L's body, one loop per
 *                            part, L = 0..3
 *   60-63  F(L)              fusion of loop L with the next loop of its
 *                            sequence, shift from the solver, L = 0..3
 *   64-67  J(L,4)            unroll-and-jam of loop L by 4, L = 0..3
 *   68-69  V(w)              vectorization hint of width w = 8, 16
 *   70-81  J(L,f)            unroll-and-jam by the larger factors, id =
 *                            70 + 4 * q + L, L = 0..3, f = 6, 8, 16 for
 *                            q = 0, 1, 2 (register tiles such as
 *                            J(0,6) J(1,16))
 *   82-85  K(L)              copies of the arrays loop L only reads
 *                            (packing), L = 0..3; MLIR path only
 *
 * Policies trained on fewer actions (blobs with n_actions = 56 or 70) load
 * with the missing actions' logits fixed far below the others (see
 * PEARL_NEW_ACTION_BIAS in pearl/policy.h): they choose as before.
 */
#ifndef PEARL_ACTION_SPACE_H
#define PEARL_ACTION_SPACE_H

#include "pearl/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PEARL_ACTION_SPACE_SIZE 86
#define PEARL_ACTION_NEXT 55

/* The classes of actions in the order rules allow them on one branch:
 * loop reordering and restructuring (I, R, S, D, F) before tiling and
 * register tiling (T, J), before parallelization, before unrolling and
 * vectorization (U, V). */
enum pearl_action_phase {
	pearl_phase_reorder = 0,
	pearl_phase_tile = 1,
	pearl_phase_parallel = 2,
	pearl_phase_unroll = 3,
	pearl_phase_next = 4
};

/* The action with number `id` into *action; 0, or -1 if id is out of
 * range. */
int pearl_action_space_decode(int id, struct pearl_action *action);
/* The number of `action` (kept), or -1 if it is not one of the 86 (e.g.
 * explicit skew factors, three-level tiling, D(l,k), F(l,s), J(l,2)). */
int pearl_action_space_encode(const struct pearl_action *action);
/* The phase of action `id`. */
enum pearl_action_phase pearl_action_space_phase(int id);
/* The phase of `action` (kept), by its kind, whether or not it has an id:
 * I R S D F reorder, T J tile, P parallel, U V unroll, N next. */
enum pearl_action_phase pearl_action_phase(const struct pearl_action *action);
/* The deepest loop level (0-based) action `id` touches, -1 for U, V and
 * N. */
int pearl_action_space_max_level(int id);

#ifdef __cplusplus
}
#endif

#endif
