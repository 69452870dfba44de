/*
 * pearl/fingerprint.h - a fingerprint of a region's polyhedral model, to tell
 * whether a schedule tuned for a region still fits its code.
 *
 * The fingerprint is FNV-1a (64 bits) over isl's printouts of what gives a
 * schedule its meaning, in a fixed order: every statement in program order
 * (its domain, its write, its reads in order), then the original schedule
 * tree. Statement, array and parameter names are part of the printouts; the
 * program's name is not (schedule files key regions by function), nor are
 * element types and operation counts (they change a schedule's speed, not
 * what it does).
 *
 * The same region gives the same fingerprint through pearl-opt and through
 * the training environment (both build the model with pearl_mlir_extract;
 * pearl-env --fingerprint prints the environment's value). isl prints its
 * inner form of a set, not a canonical one, so values compare only between
 * models built by the same code: a C kernel through the clang plugin and
 * its MLIR twin have different fingerprints. As a precaution both passes
 * and the environment compute it at the same point, right after the model
 * is built and before any analysis works with its sets.
 */
#ifndef PEARL_FINGERPRINT_H
#define PEARL_FINGERPRINT_H

#include <stdint.h>

#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The size of a formatted fingerprint: 16 hex digits and a NUL. */
#define PEARL_FINGERPRINT_SIZE 17

/* The fingerprint of `prog` (kept; it must have its schedule) in *fp.
 * pearl_stat_error with a message in the program's context if isl cannot
 * print part of it. */
pearl_stat pearl_program_fingerprint(pearl_program *prog, uint64_t *fp);

/* `fp` as 16 lowercase hex digits into buf (PEARL_FINGERPRINT_SIZE bytes). */
void pearl_fingerprint_format(uint64_t fp, char *buf);

/* Reads exactly 16 hex digits (either case) from `text` into *fp.
 * Returns 0, or -1 if `text` is anything else (*fp is then unchanged). */
int pearl_fingerprint_parse(const char *text, uint64_t *fp);

#ifdef __cplusplus
}
#endif

#endif
