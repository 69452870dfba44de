/* The context (owned and borrowed isl_ctx, errors, quota) and strings. */
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <stdlib.h>

#include "check.h"
#include "pearl/ctx.h"
#include "pearl/str.h"

static void test_borrowed(void)
{
	isl_ctx *isl = isl_ctx_alloc();
	pearl_ctx *ctx;

	isl_options_set_on_error(isl, ISL_ON_ERROR_WARN);
	isl_ctx_set_max_operations(isl, 12345);
	ctx = pearl_ctx_alloc_borrowing(isl);
	CHECK(pearl_ctx_get_isl(ctx) == isl);
	CHECK(isl_options_get_on_error(isl) == ISL_ON_ERROR_CONTINUE);
	pearl_ctx_set_max_operations(ctx, 7);
	CHECK(isl_ctx_get_max_operations(isl) == 7);
	pearl_ctx_free(ctx);
	/* The owner's settings are back; the isl_ctx is still usable. */
	CHECK(isl_options_get_on_error(isl) == ISL_ON_ERROR_WARN);
	CHECK(isl_ctx_get_max_operations(isl) == 12345);
	isl_ctx_free(isl);
}

static void test_errors(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	isl_ctx *isl = pearl_ctx_get_isl(ctx);
	isl_set *set;

	CHECK_STR(pearl_ctx_last_error(ctx), "");
	CHECK(pearl_ctx_error(ctx, "bad %s %d", "thing", 3) == pearl_stat_error);
	CHECK_STR(pearl_ctx_last_error(ctx), "bad thing 3");
	pearl_ctx_clear_error(ctx);
	CHECK_STR(pearl_ctx_last_error(ctx), "");

	/* An isl error is reported, not fatal, and then cleared. */
	set = isl_set_read_from_str(isl, "{ [i] : i < }");
	CHECK(set == NULL);
	CHECK(pearl_ctx_isl_error(ctx, "parsing") == pearl_stat_error);
	CHECK(strncmp(pearl_ctx_last_error(ctx), "parsing: isl error", 18) == 0);
	CHECK(isl_ctx_last_error(isl) == isl_error_none);
	CHECK(!pearl_ctx_quota_exceeded(ctx));

	/* Running out of the operations quota is recognised as such. */
	pearl_ctx_set_max_operations(ctx, 1);
	set = isl_set_read_from_str(isl, "{ [i, j] : 0 <= i < 10 and 0 <= j < i }");
	set = isl_set_coalesce(isl_set_union(set, isl_set_read_from_str(
	    isl, "{ [i, j] : 5 <= i < 20 and 0 <= j < 3 }")));
	set = isl_set_lexmin(set);
	CHECK(set == NULL);
	pearl_ctx_isl_error(ctx, "work");
	CHECK(pearl_ctx_quota_exceeded(ctx));
	CHECK_STR(pearl_ctx_last_error(ctx), "isl operations quota exceeded in work");
	pearl_ctx_clear_error(ctx);
	CHECK(!pearl_ctx_quota_exceeded(ctx));
	pearl_ctx_free(ctx);
}

static void test_str(void)
{
	pearl_str s = PEARL_STR_INIT;
	char *text;
	int i;

	pearl_str_append(&s, "a");
	pearl_str_printf(&s, "%d-%s", 42, "b");
	pearl_str_indent(&s, 3);
	for (i = 0; i < 1000; ++i) /* grows past the first buffer */
		pearl_str_append(&s, "x");
	text = pearl_str_take(&s);
	CHECK(text && strncmp(text, "a42-b   x", 9) == 0 && strlen(text) == 1008);
	free(text);
	pearl_str_append_take(&s, NULL); /* a failed producer fails the string */
	pearl_str_append(&s, "ignored");
	CHECK(pearl_str_take(&s) == NULL);
	text = pearl_str_take(&s); /* reset after take: empty, not failed */
	CHECK_STR(text, "");
	free(text);
}

int main(void)
{
	test_borrowed();
	test_errors();
	test_str();
	return check_done("test_ctx");
}
