/*
 * pearl/print.h - the stable text form of a program model, for tests and for
 * users who want to see what the pass sees.
 *
 *   model @<name>
 *     parameters: [p, ...]
 *     statements:
 *       S0 <type> ops: arith.mulf x1 ...        [reduction]
 *         domain: <isl set>
 *         write:  <isl map>
 *         read:   <isl map>                      (one line per read)
 *     loop tree:
 *       L0 <range of (outer..., this) iterations> parallel|carries RAW ...
 *         distances: <isl set>                    (if any dependence)
 *         ...
 *           S0
 *     schedule:
 *       <isl schedule tree, block YAML>
 *     dependences:
 *       RAW: <isl union map>
 *       WAR: ...
 *       WAW: ...
 */
#ifndef PEARL_PRINT_H
#define PEARL_PRINT_H

#include "pearl/deps.h"
#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The model of `prog` with its dependences `deps` (both kept) as text;
 * the caller frees the string with free(). NULL on error (message in the
 * program's context). */
char *pearl_program_to_str(pearl_program *prog, pearl_deps *deps);

/* A schedule tree (kept) in isl's block YAML form (malloc'd; caller frees;
 * NULL on error). */
char *pearl_schedule_to_str(__isl_keep isl_schedule *sched);

#ifdef __cplusplus
}
#endif

#endif
