#include "pearl/ctx.h"

#include <isl/options.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct pearl_ctx {
	isl_ctx *isl;
	int owns_isl;
	int saved_on_error;           /* error mode of a borrowed isl_ctx */
	unsigned long saved_max_ops;  /* and its operations quota */
	int quota_exceeded; /* since the last pearl_ctx_clear_error */
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

pearl_stat pearl_ctx_error(pearl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx)
		return pearl_stat_error;
	va_start(ap, fmt);
	vsnprintf(ctx->msg, sizeof(ctx->msg), fmt, ap);
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
