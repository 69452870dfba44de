#include "pearl/ctx.h"

#include <errno.h>
#include <isl/options.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* An armed watchdog: its thread aborts `isl` at `deadline` unless `stop`
 * is set first. */
struct pearl_watch {
	pthread_mutex_t lock;
	pthread_cond_t cond;	  /* signalled when stop is set */
	pthread_t thread;
	struct timespec deadline; /* CLOCK_MONOTONIC */
	isl_ctx *isl;
	int stop;  /* set by pearl_ctx_watch_stop */
	int fired; /* set by the thread once it has aborted isl */
};

struct pearl_ctx {
	isl_ctx *isl;
	int owns_isl;
	int saved_on_error;           /* error mode of a borrowed isl_ctx */
	unsigned long saved_max_ops;  /* and its operations quota */
	int quota_exceeded; /* since the last pearl_ctx_clear_error */
	double time_limit; /* seconds, 0: none */
	int skip_ast_check; /* pearl_ctx_set_check_ast(ctx, 0) */
	struct pearl_watch *watch; /* armed watchdog, or NULL */
	char msg[1024];
};

static pearl_ctx *alloc_ctx(isl_ctx *isl, int owns)
{
	pearl_ctx *ctx;

	if (!isl)
		return NULL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		if (owns)
			isl_ctx_free(isl);
		return NULL;
	}
	ctx->isl = isl;
	ctx->owns_isl = owns;
	ctx->saved_on_error = isl_options_get_on_error(isl);
	ctx->saved_max_ops = isl_ctx_get_max_operations(isl);
	ctx->time_limit = PEARL_TIME_LIMIT;
	isl_options_set_on_error(isl, ISL_ON_ERROR_CONTINUE);
	return ctx;
}

pearl_ctx *pearl_ctx_alloc(void)
{
	return alloc_ctx(isl_ctx_alloc(), 1);
}

pearl_ctx *pearl_ctx_alloc_borrowing(isl_ctx *isl)
{
	return alloc_ctx(isl, 0);
}

void pearl_ctx_free(pearl_ctx *ctx)
{
	if (!ctx)
		return;
	pearl_ctx_watch_stop(ctx);
	if (ctx->owns_isl) {
		/* In WARN mode isl reports objects that still reference the
		 * context (leaks) instead of staying silent. */
		isl_ctx_set_max_operations(ctx->isl, 0);
		isl_options_set_on_error(ctx->isl, ISL_ON_ERROR_WARN);
		isl_ctx_free(ctx->isl);
	} else {
		isl_options_set_on_error(ctx->isl, ctx->saved_on_error);
		isl_ctx_set_max_operations(ctx->isl, ctx->saved_max_ops);
	}
	free(ctx);
}

isl_ctx *pearl_ctx_get_isl(pearl_ctx *ctx)
{
	return ctx ? ctx->isl : NULL;
}

void pearl_ctx_set_max_operations(pearl_ctx *ctx, unsigned long max_ops)
{
	isl_ctx_set_max_operations(ctx->isl, max_ops);
	isl_ctx_reset_operations(ctx->isl);
}

void pearl_ctx_reset_operations(pearl_ctx *ctx)
{
	isl_ctx_reset_operations(ctx->isl);
}

void pearl_ctx_set_time_limit(pearl_ctx *ctx, double seconds)
{
	if (ctx)
		ctx->time_limit = seconds > 0 ? seconds : 0;
}

void pearl_ctx_set_check_ast(pearl_ctx *ctx, int check)
{
	if (ctx)
		ctx->skip_ast_check = !check;
}

int pearl_ctx_get_check_ast(pearl_ctx *ctx)
{
	return ctx && !ctx->skip_ast_check;
}

double pearl_ctx_get_time_limit(pearl_ctx *ctx)
{
	return ctx ? ctx->time_limit : 0;
}

/* The watchdog's thread: waits for w->stop until w->deadline, and aborts
 * w->isl if the deadline comes first. */
static void *watch_main(void *user)
{
	struct pearl_watch *w = user;
	int rc = 0;

	pthread_mutex_lock(&w->lock);
	while (!w->stop && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w->cond, &w->lock, &w->deadline);
	if (!w->stop) {
		isl_ctx_abort(w->isl);
		w->fired = 1;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Sets w->deadline to `seconds` from now on the monotonic clock. */
static void watch_set_deadline(struct pearl_watch *w, double seconds)
{
	long sec = (long)seconds;
	long nsec = (long)((seconds - (double)sec) * 1e9);

	clock_gettime(CLOCK_MONOTONIC, &w->deadline);
	w->deadline.tv_sec += sec;
	w->deadline.tv_nsec += nsec;
	if (w->deadline.tv_nsec >= 1000000000L) {
		w->deadline.tv_sec += 1;
		w->deadline.tv_nsec -= 1000000000L;
	}
}

/* A new, unstarted watchdog on `isl` (__isl_give; free with
 * watch_free), its condition variable on the monotonic clock; NULL if
 * memory is exhausted. */
static struct pearl_watch *watch_alloc(isl_ctx *isl)
{
	struct pearl_watch *w = calloc(1, sizeof(*w));
	pthread_condattr_t attr;

	if (!w)
		return NULL;
	w->isl = isl;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	return w;
}

/* Frees a watchdog whose thread is not running (__isl_take). */
static void watch_free(struct pearl_watch *w)
{
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

pearl_stat pearl_ctx_watch_start(pearl_ctx *ctx, double seconds)
{
	struct pearl_watch *w;

	if (!ctx || ctx->watch || !(seconds > 0))
		return pearl_stat_ok;
	w = watch_alloc(ctx->isl);
	if (!w)
		return pearl_stat_error;
	watch_set_deadline(w, seconds);
	if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
		watch_free(w);
		return pearl_stat_error;
	}
	ctx->watch = w;
	return pearl_stat_ok;
}

int pearl_ctx_watch_stop(pearl_ctx *ctx)
{
	struct pearl_watch *w = ctx ? ctx->watch : NULL;
	int fired;

	if (!w)
		return 0;
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	fired = w->fired;
	watch_free(w);
	ctx->watch = NULL;
	if (fired)
		isl_ctx_resume(ctx->isl);
	return fired;
}

pearl_stat pearl_ctx_error(pearl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx)
		return pearl_stat_error;
	va_start(ap, fmt);
	pearl_error_vprintf(ctx->msg, sizeof(ctx->msg), fmt, ap);
	va_end(ap);
	return pearl_stat_error;
}

pearl_stat pearl_ctx_isl_error(pearl_ctx *ctx, const char *what)
{
	enum isl_error err;
	const char *msg;

	if (!ctx)
		return pearl_stat_error;
	err = isl_ctx_last_error(ctx->isl);
	msg = isl_ctx_last_error_msg(ctx->isl);
	if (err == isl_error_quota) {
		ctx->quota_exceeded = 1;
		pearl_ctx_error(ctx, "isl operations quota exceeded in %s", what);
	} else if (msg)
		pearl_ctx_error(ctx, "%s: isl error: %s", what, msg);
	else
		pearl_ctx_error(ctx, "%s: isl error", what);
	isl_ctx_reset_error(ctx->isl);
	return pearl_stat_error;
}

pearl_stat pearl_ctx_time_error(pearl_ctx *ctx, const char *what,
				double seconds)
{
	if (!ctx)
		return pearl_stat_error;
	isl_ctx_reset_error(ctx->isl);
	ctx->quota_exceeded = 1;
	return pearl_ctx_error(ctx, "%s stopped after its time limit of %g s",
			       what, seconds);
}

const char *pearl_ctx_last_error(pearl_ctx *ctx)
{
	return ctx ? ctx->msg : "out of memory";
}

void pearl_ctx_clear_error(pearl_ctx *ctx)
{
	if (!ctx)
		return;
	ctx->msg[0] = '\0';
	ctx->quota_exceeded = 0;
}

int pearl_ctx_quota_exceeded(pearl_ctx *ctx)
{
	return ctx && ctx->quota_exceeded;
}
