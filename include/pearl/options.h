/*
 * pearl/options.h - the command-line parser of Pearl's C tools: a table of
 * options in, values written where the table says, a clear message out.
 *
 * Words of the command line:
 *   --name VALUE, --name=VALUE   an option with a value
 *   --name                       a flag (a value is refused)
 *   -x VALUE, -xVALUE, -x        the same by a one-letter name; one-letter
 *                                flags may be grouped (-vh)
 *   --                           the words after it are all arguments
 *   anything else (also "-")     an argument (positional)
 * With `prefixes` set, a long name may be shortened to any prefix that
 * names one option only (what getopt_long accepts).
 *
 * Options are handled in the order given; a value is converted (all of it:
 * "2x" is not a number) and checked against the option's range before it
 * is stored, and the first word that is not right stops the parse with a
 * message (the tool prints it, then its usage, and exits with its status
 * for usage errors). The parser never prints and never exits.
 *
 * Ownership: the table and argv are kept (__isl_keep); string values and
 * arguments point into argv.
 */
#ifndef PEARL_OPTIONS_H
#define PEARL_OPTIONS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pearl_option_kind {
	pearl_option_flag,   /* no value: *(int *)dest = 1 */
	pearl_option_int,    /* a decimal integer: *(int *)dest */
	pearl_option_long,   /* a decimal integer: *(long *)dest */
	pearl_option_llong,  /* a decimal integer: *(long long *)dest */
	pearl_option_u64,    /* an unsigned decimal integer (a "-" sign is
			      * refused): *(uint64_t *)dest */
	pearl_option_float,  /* a number (strtof): *(float *)dest */
	pearl_option_double, /* a number (strtod): *(double *)dest */
	pearl_option_string, /* *(const char **)dest = the value (in argv) */
	pearl_option_call,   /* parse(value, dest); value NULL if !takes_value */
	pearl_option_stop,   /* no value: the parse ends here and returns 1
			      * (--help) */
};

/* What `parse` of a pearl_option_call option returns. */
enum {
	pearl_option_ok = 0,
	pearl_option_bad_value = -1, /* a usage error: "bad value ..." */
	pearl_option_reported = -2,  /* a usage error parse has already
				      * reported (the message is empty) */
};

/* One option of a table; a table ends with an entry whose name and
 * short_name are both empty (PEARL_OPTION_END). */
struct pearl_option {
	const char *name;  /* long name without "--" (NULL: none) */
	char short_name;   /* one-letter name (0: none) */
	enum pearl_option_kind kind;
	void *dest;        /* __isl_keep: where the value goes, or the
			    * user data of `parse` */
	/* Numbers: accepted values min <= v <= max (min < v with
	 * above_min) when `ranged`; NaN is never in a range. */
	int ranged;
	double min, max;
	int above_min;
	/* pearl_option_call: whether a value follows, and the conversion
	 * (a pearl_option_ok or pearl_option_bad_value). */
	int takes_value;
	int (*parse)(const char *value, void *dest);
	/* For the message of a bad value: what is expected (e.g.
	 * "step|final"); NULL: said from the kind and range. */
	const char *expect;
};

/* Table entries. Ranges are inclusive; _ABOVE: min < v. */
#define PEARL_OPTION_FLAG(n, d) \
	{ .name = (n), .kind = pearl_option_flag, .dest = (d) }
#define PEARL_OPTION_STRING(n, d) \
	{ .name = (n), .kind = pearl_option_string, .dest = (d) }
#define PEARL_OPTION_INT(n, d, lo, hi) \
	{ .name = (n), .kind = pearl_option_int, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = (hi) }
#define PEARL_OPTION_LONG(n, d, lo, hi) \
	{ .name = (n), .kind = pearl_option_long, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = (hi) }
#define PEARL_OPTION_LLONG(n, d, lo, hi) \
	{ .name = (n), .kind = pearl_option_llong, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = (hi) }
#define PEARL_OPTION_U64(n, d) \
	{ .name = (n), .kind = pearl_option_u64, .dest = (d) }
#define PEARL_OPTION_U64_RANGE(n, d, lo, hi) \
	{ .name = (n), .kind = pearl_option_u64, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = (hi) }
#define PEARL_OPTION_FLOAT(n, d) \
	{ .name = (n), .kind = pearl_option_float, .dest = (d) }
#define PEARL_OPTION_FLOAT_RANGE(n, d, lo, hi) \
	{ .name = (n), .kind = pearl_option_float, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = (hi) }
#define PEARL_OPTION_FLOAT_ABOVE(n, d, lo) \
	{ .name = (n), .kind = pearl_option_float, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = HUGE_VAL, .above_min = 1 }
#define PEARL_OPTION_DOUBLE(n, d) \
	{ .name = (n), .kind = pearl_option_double, .dest = (d) }
#define PEARL_OPTION_DOUBLE_RANGE(n, d, lo, hi) \
	{ .name = (n), .kind = pearl_option_double, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = (hi) }
#define PEARL_OPTION_DOUBLE_ABOVE(n, d, lo) \
	{ .name = (n), .kind = pearl_option_double, .dest = (d), .ranged = 1, \
	  .min = (lo), .max = HUGE_VAL, .above_min = 1 }
/* parse(value, d) for each occurrence; `what` is expected of the value. */
#define PEARL_OPTION_CALL(n, d, fn, what) \
	{ .name = (n), .kind = pearl_option_call, .dest = (d), \
	  .takes_value = 1, .parse = (fn), .expect = (what) }
/* parse(NULL, d) for each occurrence; `what` says when it may be given. */
#define PEARL_OPTION_ACTION(n, d, fn, what) \
	{ .name = (n), .kind = pearl_option_call, .dest = (d), .parse = (fn), \
	  .expect = (what) }
#define PEARL_OPTION_STOP(n) { .name = (n), .kind = pearl_option_stop }
#define PEARL_OPTION_END { .name = NULL, .short_name = 0 }

/* The exit statuses of the tools (pearl-exec, which compares, has its
 * own): success, an error, a usage error. */
enum pearl_exit {
	pearl_exit_ok = 0,
	pearl_exit_error = 1,
	pearl_exit_usage = 2,
};

/* What went wrong, for a tool that words its messages itself. */
enum pearl_options_failure {
	pearl_options_unknown,       /* no such option (or an ambiguous
				      * prefix) */
	pearl_options_missing_value, /* the last word needs a value */
	pearl_options_unwanted_value, /* --flag=VALUE */
	pearl_options_bad_value,     /* the value does not convert, is out
				      * of range, or parse refused it */
	pearl_options_argument,      /* an argument where none is taken */
};

/* The outcome of pearl_options_parse. */
struct pearl_options_result {
	/* The arguments, in order: argv's words (__isl_keep). With
	 * `arguments` NULL, any argument is an error. */
	char **arguments; /* set by the caller: room for argc words */
	int n_arguments;
	/* On failure: what, where (the index in argv of the word at fault),
	 * the option (NULL if unknown) and a message without the tool's
	 * name, e.g. "bad value '0' for --batch (an integer >= 1)" ("" if
	 * the option's parse function has reported the error itself), and
	 * for a bad value, the value (in argv; NULL if the option takes
	 * none). */
	enum pearl_options_failure failure;
	int index;
	const struct pearl_option *option;
	char message[256];
	const char *value;
};

/* Parses argv[1..argc-1] against `table` (kept), writing each value where
 * its option says and the arguments to res->arguments. `prefixes`: long
 * names may be shortened (see above). Returns 0, 1 if a pearl_option_stop
 * option was met (res->option says which; the words after it are not
 * looked at), or -1 on a usage error described in *res. */
int pearl_options_parse(const struct pearl_option *table, int prefixes,
			int argc, char **argv,
			struct pearl_options_result *res);

/* Says on stderr, after "tool: ", which words of argv (kept) the failure
 * in *res (kept) is about, for tools that name the words rather than print
 * res->message: "bad option or value: WORD" (with the next word when that
 * is the value), or "WORD needs a value" when WORD is the last word. */
void pearl_options_report_words(const char *tool,
				const struct pearl_options_result *res,
				int argc, char **argv);

/* pearl_options_parse, saying a usage error on stderr after "tool: ":
 * res->message (nothing if it is empty: a parse function has said it),
 * or with `words`, the words at fault (pearl_options_report_words).
 * Returns what pearl_options_parse returns. */
int pearl_options_parse_or_say(const char *tool, int words,
			       const struct pearl_option *table, int prefixes,
			       int argc, char **argv,
			       struct pearl_options_result *res);

/* The end of a tool's command-line handling, `r` its outcome (0: go on,
 * 1: help was asked for, -1: a usage error, already said on stderr).
 * Returns -1 if r is 0; otherwise prints the usage with `usage`, on
 * stdout after help or on stderr after an error, and returns the exit
 * status: 0 after help, else usage_status. */
int pearl_options_exit_status(int r, void (*usage)(FILE *out),
			      int usage_status);

#ifdef __cplusplus
}
#endif

#endif
