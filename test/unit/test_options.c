/* The command-line parser of the tools (pearl/options.h): both spellings
 * of a value, flags, ranges, prefixes, arguments and the messages. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "pearl/options.h"

struct values {
	int flag, n;
	long big;
	uint64_t seed, repeat;
	float lr;
	double factor;
	const char *name;
	int color;
	int calls;
};

static int parse_color(const char *value, void *dest)
{
	int *color = dest;

	if (!strcmp(value, "red"))
		*color = 1;
	else if (!strcmp(value, "blue"))
		*color = 2;
	else
		return pearl_option_bad_value;
	return pearl_option_ok;
}

static int count_call(const char *value, void *dest)
{
	++*(int *)dest;
	return value ? pearl_option_bad_value : pearl_option_ok;
}

/* Parses the words (NULL-terminated, argv[0] added) into *v; the result's
 * arguments go to args (room for 16). */
static int parse(struct values *v, int prefixes,
		 struct pearl_options_result *res, char **args,
		 const char *const *words)
{
	const struct pearl_option table[] = {
	    {.name = "flag", .short_name = 'f', .kind = pearl_option_flag,
	     .dest = &v->flag},
	    PEARL_OPTION_INT("number", &v->n, 1, 10),
	    PEARL_OPTION_LONG("big", &v->big, 0, LONG_MAX),
	    PEARL_OPTION_U64("seed", &v->seed),
	    PEARL_OPTION_U64_RANGE("repeat", &v->repeat, 1, HUGE_VAL),
	    PEARL_OPTION_FLOAT_ABOVE("lr", &v->lr, 0),
	    PEARL_OPTION_DOUBLE_RANGE("factor", &v->factor, 1, 4),
	    {.name = "name", .short_name = 'o', .kind = pearl_option_string,
	     .dest = &v->name},
	    PEARL_OPTION_CALL("color", &v->color, parse_color, "red|blue"),
	    PEARL_OPTION_ACTION("count", &v->calls, count_call, NULL),
	    PEARL_OPTION_CALL("counted", &v->calls, count_call, NULL),
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_END};
	char *argv[32];
	int argc = 1;

	argv[0] = "tool";
	while (*words)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	memset(v, 0, sizeof(*v));
	memset(res, 0, sizeof(*res));
	res->arguments = args;
	return pearl_options_parse(table, prefixes, argc, argv, res);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

int main(void)
{
	struct pearl_options_result res;
	struct values v;
	char *args[16];

	/* Both spellings, flags, grouped and attached short options. */
	CHECK(parse(&v, 0, &res, args,
		    WORDS("--number", "3", "--big=70000000000", "a.mlir",
			  "--seed", "18446744073709551615", "--lr", "1e-4",
			  "--factor=2.5", "-fo", "out", "--color", "blue",
			  "--count", "b.mlir")) == 0);
	CHECK(v.n == 3 && v.big == 70000000000L && v.flag == 1);
	CHECK(v.seed == UINT64_MAX && v.lr == 1e-4f && v.factor == 2.5);
	CHECK_STR(v.name, "out");
	CHECK(v.color == 2 && v.calls == 1);
	CHECK(res.n_arguments == 2);
	CHECK_STR(args[0], "a.mlir");
	CHECK_STR(args[1], "b.mlir");
	CHECK(parse(&v, 0, &res, args, WORDS("-oout", "--", "--flag", "-")) ==
	      0);
	CHECK_STR(v.name, "out");
	CHECK(!v.flag && res.n_arguments == 2);
	CHECK_STR(args[0], "--flag");
	CHECK_STR(args[1], "-");

	/* Ranges and conversions, with the messages. */
	CHECK(parse(&v, 0, &res, args, WORDS("--number", "0")) < 0);
	CHECK(res.failure == pearl_options_bad_value && res.index == 1);
	CHECK_STR(res.message, "bad value '0' for --number (an integer from "
			       "1 to 10)");
	CHECK(parse(&v, 0, &res, args, WORDS("--number", "2x")) < 0);
	CHECK(parse(&v, 0, &res, args, WORDS("--big", "-1")) < 0);
	CHECK_STR(res.message, "bad value '-1' for --big (an integer >= 0)");
	CHECK(parse(&v, 0, &res, args, WORDS("--seed", "-1")) < 0);
	CHECK_STR(res.value, "-1");
	CHECK(parse(&v, 0, &res, args,
		    WORDS("--seed", "18446744073709551616")) < 0);
	CHECK(parse(&v, 0, &res, args, WORDS("--repeat", "0")) < 0);
	CHECK_STR(res.message,
		  "bad value '0' for --repeat (an unsigned integer >= 1)");
	CHECK(parse(&v, 0, &res, args, WORDS("--repeat=7")) == 0);
	CHECK(v.repeat == 7);
	CHECK(parse(&v, 0, &res, args, WORDS("--lr", "0")) < 0);
	CHECK_STR(res.message, "bad value '0' for --lr (a number > 0)");
	CHECK(parse(&v, 0, &res, args, WORDS("--lr", "nan")) < 0);
	CHECK(parse(&v, 0, &res, args, WORDS("--factor=4.5")) < 0);
	CHECK_STR(res.value, "4.5");
	CHECK(parse(&v, 0, &res, args, WORDS("--color", "green")) < 0);
	CHECK_STR(res.message, "bad value 'green' for --color (red|blue)");
	CHECK(parse(&v, 0, &res, args, WORDS("--counted", "x")) < 0);
	CHECK(v.calls == 1);

	/* Words that are not right. */
	CHECK(parse(&v, 0, &res, args, WORDS("a", "--nope", "1")) < 0);
	CHECK(res.failure == pearl_options_unknown && res.index == 2);
	CHECK_STR(res.message, "unrecognized option '--nope'");
	CHECK(!res.value);
	CHECK(parse(&v, 0, &res, args, WORDS("--number")) < 0);
	CHECK(res.failure == pearl_options_missing_value);
	CHECK_STR(res.message, "option '--number' requires an argument");
	CHECK(parse(&v, 0, &res, args, WORDS("--flag=1")) < 0);
	CHECK(res.failure == pearl_options_unwanted_value);
	CHECK(parse(&v, 0, &res, args, WORDS("-x")) < 0);
	CHECK_STR(res.message, "invalid option -- 'x'");
	res.arguments = NULL;
	CHECK(parse(&v, 0, &res, NULL, WORDS("file")) < 0);
	CHECK(res.failure == pearl_options_argument);

	/* Prefixes: only when asked for, and only unambiguous ones. */
	CHECK(parse(&v, 0, &res, args, WORDS("--num", "2")) < 0);
	CHECK(parse(&v, 1, &res, args, WORDS("--num", "2")) == 0 && v.n == 2);
	CHECK(parse(&v, 1, &res, args, WORDS("--co", "red")) < 0);
	CHECK_STR(res.message, "option '--co' is ambiguous");
	CHECK(parse(&v, 1, &res, args, WORDS("--count")) == 0 && v.calls == 1);

	/* A stop ends the parse at once. */
	CHECK(parse(&v, 0, &res, args, WORDS("--flag", "-h", "--nope")) == 1);
	CHECK(v.flag && res.option && !strcmp(res.option->name, "help"));
	return check_done("test_options");
}
