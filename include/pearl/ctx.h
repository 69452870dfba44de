/*
 * pearl/ctx.h - the context every Pearl object lives in.
 *
 * A pearl_ctx wraps one isl_ctx (owned or borrowed), the operations quota that
 * bounds isl's work, and the message of the last error.  Library functions
 * never exit or abort: they return pearl_stat_error (or NULL) and leave a
 * message here, which the caller reads with pearl_ctx_last_error().
 *
 * Ownership follows isl's conventions: __isl_give returns a new reference the
 * caller must free, __isl_take consumes the argument, __isl_keep borrows it.
 */
#ifndef PEARL_CTX_H
#define PEARL_CTX_H

#include <isl/ctx.h>

#include "pearl/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pearl_ctx pearl_ctx;

/* A new context with its own isl_ctx, set to ISL_ON_ERROR_CONTINUE.
 * Returns NULL if memory is exhausted. */
pearl_ctx *pearl_ctx_alloc(void);

/* A context borrowing an existing isl_ctx (e.g. a Polly Scop's); the isl_ctx
 * must outlive the pearl_ctx and is not freed by pearl_ctx_free. Its error
 * mode is ISL_ON_ERROR_CONTINUE while the pearl_ctx lives; pearl_ctx_free
 * restores its error mode and operations quota. */
pearl_ctx *pearl_ctx_alloc_borrowing(isl_ctx *isl);

/* Frees the context; an owned isl_ctx is freed too (isl warns on stderr if
 * some isl object still references it, i.e. on a leak). Accepts NULL. */
void pearl_ctx_free(pearl_ctx *ctx);

/* The wrapped isl_ctx (__isl_keep). */
isl_ctx *pearl_ctx_get_isl(pearl_ctx *ctx);

/* Bounds the isl operations of the next computations (0: unbounded) and
 * restarts the count. Call before analysing each region. */
void pearl_ctx_set_max_operations(pearl_ctx *ctx, unsigned long max_ops);
void pearl_ctx_reset_operations(pearl_ctx *ctx);

/* A wall-clock limit on one isl computation. The operations quota counts
 * isl's steps (simplex pivots), not their cost: on some schedules (tiles
 * skewed and tiled again) isl's integers grow and every step slows down,
 * so a quota that takes milliseconds on ordinary code takes minutes there.
 * pearl_ctx_watch_start arms a watchdog thread that aborts the context's
 * isl computation (isl_ctx_abort: the computation fails as on an
 * exhausted quota) once `seconds` have passed; pearl_ctx_watch_stop
 * disarms it and returns 1 if it fired (the context is resumed, usable
 * again), 0 if not. Start and stop come in pairs around one computation.
 * seconds <= 0: no watchdog (stop returns 0). Returns pearl_stat_error if
 * no thread could be started (the computation then runs unwatched). */
pearl_stat pearl_ctx_watch_start(pearl_ctx *ctx, double seconds);
int pearl_ctx_watch_stop(pearl_ctx *ctx);

/* The time limit, in seconds, of each action's checks (pearl_sched_apply)
 * and of AST generation (pearl_sched_build_ast): PEARL_TIME_LIMIT unless
 * set (0: no limit). */
#define PEARL_TIME_LIMIT 4.0
void pearl_ctx_set_time_limit(pearl_ctx *ctx, double seconds);
double pearl_ctx_get_time_limit(pearl_ctx *ctx);

/* Whether pearl_sched_build_ast checks that isl's AST runs each instance
 * exactly once (pearl_ast_runs_schedule): 1 unless set. Turning it off
 * is for tests of the code generator on schedules whose check would take
 * longer than the time limit; the AST is then trusted. */
void pearl_ctx_set_check_ast(pearl_ctx *ctx, int check);
int pearl_ctx_get_check_ast(pearl_ctx *ctx);

/* Records a printf-style message as the last error; returns pearl_stat_error. */
pearl_stat pearl_ctx_error(pearl_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Records "what: isl error: <isl's message>" (or, when the operations quota
 * ran out, "isl operations quota exceeded in what")
 * and resets isl's error state; returns pearl_stat_error. */
pearl_stat pearl_ctx_isl_error(pearl_ctx *ctx, const char *what);
/* Records that `what` ran out of its time limit of `seconds` (it counts as
 * an exhausted quota); returns pearl_stat_error. */
pearl_stat pearl_ctx_time_error(pearl_ctx *ctx, const char *what,
				double seconds);

/* The last error message ("" if none) (__isl_keep) and a reset. */
const char *pearl_ctx_last_error(pearl_ctx *ctx);
void pearl_ctx_clear_error(pearl_ctx *ctx);
/* 1 if an error since the last pearl_ctx_clear_error was isl running out of
 * its operations quota or its time (pearl_ctx_watch_stop): the work was
 * too big, not the input wrong. */
int pearl_ctx_quota_exceeded(pearl_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
