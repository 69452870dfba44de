/* The command-line parser of the tools (pearl/options.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/error.h"
#include "pearl/options.h"

static int is_end(const struct pearl_option *o)
{
	return !o->name && !o->short_name;
}

static int takes_value(const struct pearl_option *o)
{
	switch (o->kind) {
	case pearl_option_flag:
	case pearl_option_stop:
		return 0;
	case pearl_option_call:
		return o->takes_value;
	default:
		return 1;
	}
}

/* Records a usage error at argv[index] in res; returns -1. */
static int fail(struct pearl_options_result *res,
		enum pearl_options_failure failure, int index,
		const struct pearl_option *option, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int fail(struct pearl_options_result *res,
		enum pearl_options_failure failure, int index,
		const struct pearl_option *option, const char *fmt, ...)
{
	va_list ap;

	res->failure = failure;
	res->index = index;
	res->option = option;
	va_start(ap, fmt);
	pearl_error_vprintf(res->message, sizeof(res->message), fmt, ap);
	va_end(ap);
	return -1;
}

/* The option named `name` (its first `len` characters): the exact name,
 * else, with `prefixes`, the only one it is a prefix of. NULL if none;
 * *ambiguous set if several. */
static const struct pearl_option *find_long(const struct pearl_option *table,
					    const char *name, size_t len,
					    int prefixes, int *ambiguous)
{
	const struct pearl_option *o, *found = NULL;
	int n = 0;

	*ambiguous = 0;
	for (o = table; !is_end(o); ++o)
		if (o->name && strlen(o->name) == len &&
		    !strncmp(o->name, name, len))
			return o;
	if (!prefixes)
		return NULL;
	for (o = table; !is_end(o); ++o)
		if (o->name && !strncmp(o->name, name, len))
			found = o, ++n;
	*ambiguous = n > 1;
	return n == 1 ? found : NULL;
}

static const struct pearl_option *find_short(const struct pearl_option *table,
					     char c)
{
	const struct pearl_option *o;

	for (o = table; !is_end(o); ++o)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

/* How the option is spelled in messages: --name, or -x. */
static void spelling(const struct pearl_option *o, char *out, size_t size)
{
	if (o->name)
		snprintf(out, size, "--%s", o->name);
	else
		snprintf(out, size, "-%c", o->short_name);
}

/* What a bad value of o should have been, e.g. " (an integer >= 1)" or
 * "" if nothing is worth saying. */
static void expectation(const struct pearl_option *o, char *out, size_t size)
{
	const char *what;
	double top;

	if (o->expect) {
		snprintf(out, size, " (%s)", o->expect);
		return;
	}
	switch (o->kind) {
	case pearl_option_int:
	case pearl_option_long:
	case pearl_option_llong:
		what = "an integer";
		break;
	case pearl_option_u64:
		what = "an unsigned integer";
		break;
	case pearl_option_float:
	case pearl_option_double:
		what = "a number";
		break;
	default:
		out[0] = '\0';
		return;
	}
	top = o->kind == pearl_option_int     ? (double)INT_MAX
	      : o->kind == pearl_option_long  ? (double)LONG_MAX
	      : o->kind == pearl_option_llong ? (double)LLONG_MAX
					      : HUGE_VAL;
	if (!o->ranged)
		snprintf(out, size, " (%s)", what);
	else if (o->max >= top)
		snprintf(out, size, " (%s %s %g)", what,
			 o->above_min ? ">" : ">=", o->min);
	else
		snprintf(out, size, " (%s from %g to %g)", what, o->min, o->max);
}

static int in_range(const struct pearl_option *o, double v)
{
	if (!o->ranged)
		return 1;
	if (o->above_min ? !(v > o->min) : !(v >= o->min))
		return 0;
	return v <= o->max;
}

/* Converts `value` for o and stores it; 0, or a pearl_option_bad_value or
 * pearl_option_reported if it is not right. */
static int store(const struct pearl_option *o, const char *value)
{
	char *end;
	long long ll;
	unsigned long long ull;
	double d;
	float f;

	errno = 0;
	switch (o->kind) {
	case pearl_option_string:
		*(const char **)o->dest = value;
		return 0;
	case pearl_option_call:
		return o->parse(value, o->dest);
	case pearl_option_int:
	case pearl_option_long:
	case pearl_option_llong:
		ll = strtoll(value, &end, 10);
		if (errno || end == value || *end || !in_range(o, (double)ll))
			return -1;
		if (o->kind == pearl_option_int) {
			if (ll < INT_MIN || ll > INT_MAX)
				return -1;
			*(int *)o->dest = (int)ll;
		} else if (o->kind == pearl_option_long) {
			if (ll < LONG_MIN || ll > LONG_MAX)
				return -1;
			*(long *)o->dest = (long)ll;
		} else {
			*(long long *)o->dest = ll;
		}
		return 0;
	case pearl_option_u64:
		if (strchr(value, '-'))
			return -1;
		ull = strtoull(value, &end, 10);
		if (errno || end == value || *end || !in_range(o, (double)ull))
			return -1;
		*(uint64_t *)o->dest = (uint64_t)ull;
		return 0;
	case pearl_option_float:
		f = strtof(value, &end);
		if (end == value || *end || !in_range(o, (double)f))
			return -1;
		*(float *)o->dest = f;
		return 0;
	case pearl_option_double:
		d = strtod(value, &end);
		if (end == value || *end || !in_range(o, d))
			return -1;
		*(double *)o->dest = d;
		return 0;
	default:
		return -1;
	}
}

/* Applies option o of argv[index], its value `value` (NULL if it takes
 * none). 0, 1 for a stop, or -1 (res says why). */
static int apply(const struct pearl_option *o, const char *value, int index,
		 struct pearl_options_result *res)
{
	char name[64], expect[96];
	int r;

	switch (o->kind) {
	case pearl_option_stop:
		res->option = o;
		res->index = index;
		return 1;
	case pearl_option_flag:
		*(int *)o->dest = 1;
		return 0;
	default:
		break;
	}
	r = o->kind == pearl_option_call && !o->takes_value
		? o->parse(NULL, o->dest)
		: store(o, value);
	if (r == 0)
		return 0;
	res->value = value;
	if (r == pearl_option_reported)
		return fail(res, pearl_options_bad_value, index, o, "%s", "");
	spelling(o, name, sizeof(name));
	expectation(o, expect, sizeof(expect));
	if (!value)
		return fail(res, pearl_options_bad_value, index, o,
			    "%s cannot be given here%s", name, expect);
	return fail(res, pearl_options_bad_value, index, o,
		    "bad value '%s' for %s%s", value, name, expect);
}

/* Handles the long option argv[*i] ("--name" or "--name=value"),
 * advancing *i past a value in the next word. */
static int parse_long(const struct pearl_option *table, int prefixes,
		      int argc, char **argv, int *i,
		      struct pearl_options_result *res)
{
	const char *word = argv[*i], *name = word + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct pearl_option *o;
	int ambiguous, index = *i;

	o = find_long(table, name, len, prefixes, &ambiguous);
	if (!o)
		return fail(res, pearl_options_unknown, index, NULL,
			    ambiguous ? "option '%s' is ambiguous"
				      : "unrecognized option '%s'",
			    word);
	if (!takes_value(o)) {
		if (eq)
			return fail(res, pearl_options_unwanted_value, index,
				    o, "option '--%s' doesn't allow an "
				       "argument", o->name);
		return apply(o, NULL, index, res);
	}
	if (eq)
		return apply(o, eq + 1, index, res);
	if (*i + 1 >= argc)
		return fail(res, pearl_options_missing_value, index, o,
			    "option '--%s' requires an argument", o->name);
	*i += 1;
	return apply(o, argv[*i], index, res);
}

/* Handles the one-letter options of argv[*i] ("-x", "-xVALUE", "-xy"). */
static int parse_short(const struct pearl_option *table, int argc,
		       char **argv, int *i, struct pearl_options_result *res)
{
	const char *p = argv[*i] + 1;
	int index = *i, r;

	for (; *p; ++p) {
		const struct pearl_option *o = find_short(table, *p);

		if (!o)
			return fail(res, pearl_options_unknown, index, NULL,
				    "invalid option -- '%c'", *p);
		if (!takes_value(o)) {
			r = apply(o, NULL, index, res);
			if (r != 0)
				return r;
			continue;
		}
		if (p[1])
			return apply(o, p + 1, index, res);
		if (*i + 1 >= argc)
			return fail(res, pearl_options_missing_value, index, o,
				    "option requires an argument -- '%c'",
				    *p);
		*i += 1;
		return apply(o, argv[*i], index, res);
	}
	return 0;
}

static int add_argument(char *word, int index,
			struct pearl_options_result *res)
{
	if (!res->arguments)
		return fail(res, pearl_options_argument, index, NULL,
			    "unexpected argument '%s'", word);
	res->arguments[res->n_arguments++] = word;
	return 0;
}

int pearl_options_parse(const struct pearl_option *table, int prefixes,
			int argc, char **argv,
			struct pearl_options_result *res)
{
	int i, r = 0, only_arguments = 0;

	res->n_arguments = 0;
	res->index = 0;
	res->option = NULL;
	res->message[0] = '\0';
	res->value = NULL;
	for (i = 1; i < argc && r == 0; ++i) {
		char *word = argv[i];

		if (only_arguments || word[0] != '-' || !word[1])
			r = add_argument(word, i, res);
		else if (!strcmp(word, "--"))
			only_arguments = 1;
		else if (word[1] == '-')
			r = parse_long(table, prefixes, argc, argv, &i, res);
		else
			r = parse_short(table, argc, argv, &i, res);
	}
	return r;
}

void pearl_options_report_words(const char *tool,
				const struct pearl_options_result *res,
				int argc, char **argv)
{
	const char *word = argv[res->index];

	if (res->failure == pearl_options_bad_value && strchr(word, '='))
		fprintf(stderr, "%s: bad option or value: %s\n", tool, word);
	else if (res->index + 1 >= argc)
		fprintf(stderr, "%s: %s needs a value\n", tool, word);
	else
		fprintf(stderr, "%s: bad option or value: %s %s\n", tool,
			word, argv[res->index + 1]);
}

int pearl_options_parse_or_say(const char *tool, int words,
			       const struct pearl_option *table, int prefixes,
			       int argc, char **argv,
			       struct pearl_options_result *res)
{
	int r = pearl_options_parse(table, prefixes, argc, argv, res);

	if (r >= 0)
		return r;
	if (words)
		pearl_options_report_words(tool, res, argc, argv);
	else if (res->message[0])
		fprintf(stderr, "%s: %s\n", tool, res->message);
	return r;
}

int pearl_options_exit_status(int r, void (*usage)(FILE *out),
			      int usage_status)
{
	if (r == 0)
		return -1;
	usage(r > 0 ? stdout : stderr);
	return r > 0 ? 0 : usage_status;
}
