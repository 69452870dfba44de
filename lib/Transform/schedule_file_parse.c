/* Parsing schedule files (the format is in pearl/schedule_file.h). */
#include "pearl/schedule_file.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/fingerprint.h"

#define ENTRY_FORM "function region fingerprint \"schedule\""
#define VERSION_PREFIX "# pearl schedule file "

/* The line being parsed, [p, end) still to read, and where errors go. */
struct line {
	const char *p;
	const char *end;
	int number;       /* from 1 */
	const char *name; /* of the file, in messages */
	char *err;
	size_t err_size;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void skip_blanks(struct line *l)
{
	while (l->p < l->end && is_blank(*l->p))
		++l->p;
}

static int line_error(const struct line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports "name:line: message" in the error buffer; returns -1. */
static int line_error(const struct line *l, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pearl_error_printf(l->err, l->err_size, "%s:%d: %s", l->name,
				  l->number, msg);
}

/* The next run of non-blank characters: its start in *start, its length
 * returned (0 at the end of the line). */
static int next_field(struct line *l, const char **start)
{
	skip_blanks(l);
	*start = l->p;
	while (l->p < l->end && !is_blank(*l->p))
		++l->p;
	return (int)(l->p - *start);
}

/* Checks that the line is the version header. */
static int check_header(struct line *l)
{
	size_t n = strlen(PEARL_SCHEDULE_FILE_HEADER);
	size_t prefix = strlen(VERSION_PREFIX);
	const char *e = l->end;

	while (e > l->p && is_blank(e[-1]))
		--e;
	if ((size_t)(e - l->p) == n &&
	    !memcmp(l->p, PEARL_SCHEDULE_FILE_HEADER, n))
		return 0;
	if ((size_t)(e - l->p) > prefix &&
	    !memcmp(l->p, VERSION_PREFIX, prefix))
		return line_error(l, "unsupported schedule file version '%.*s' "
				  "(this Pearl reads version 1)",
				  (int)(e - l->p - prefix), l->p + prefix);
	return line_error(l, "not a pearl schedule file: the first line must "
			  "be '%s'", PEARL_SCHEDULE_FILE_HEADER);
}

/* Reads the function name (malloc'd) into *name. */
static int read_function(struct line *l, char **name)
{
	const char *s;
	int n = next_field(l, &s);

	if (memchr(s, '"', n))
		return line_error(l, "bad function name '%.*s': expected "
				  ENTRY_FORM, n, s);
	if (*s == '@')
		return line_error(l, "bad function name '%.*s': write the "
				  "symbol name without '@'", n, s);
	*name = strndup(s, n);
	return *name ? 0 : line_error(l, "out of memory");
}

/* Reads the region index (a decimal number from 0 that fits an int). */
static int read_region(struct line *l, int *region)
{
	const char *s;
	int i, n = next_field(l, &s);
	long long v = 0;

	if (n == 0)
		return line_error(l, "missing region: expected " ENTRY_FORM);
	for (i = 0; i < n && v <= INT_MAX; ++i) {
		if (s[i] < '0' || s[i] > '9')
			return line_error(l, "bad region '%.*s': a region is "
					  "a number from 0", n, s);
		v = 10 * v + (s[i] - '0');
	}
	if (v > INT_MAX)
		return line_error(l, "bad region '%.*s': too large", n, s);
	*region = (int)v;
	return 0;
}

/* Reads the fingerprint: 16 hex digits, or '*' (any model). */
static int read_fingerprint(struct line *l, struct pearl_schedule_entry *e)
{
	char digits[PEARL_FINGERPRINT_SIZE];
	const char *s;
	int n = next_field(l, &s);

	if (n == 0)
		return line_error(l, "missing fingerprint: expected "
				  ENTRY_FORM);
	if (n == 1 && *s == '*') {
		e->any = 1;
		return 0;
	}
	if (n == PEARL_FINGERPRINT_SIZE - 1) {
		memcpy(digits, s, n);
		digits[n] = '\0';
		if (pearl_fingerprint_parse(digits, &e->fingerprint) == 0)
			return 0;
	}
	return line_error(l, "bad fingerprint '%.*s': 16 hex digits, or '*' "
			  "for any model", n, s);
}

/* Reads the quoted schedule (malloc'd, without its quotes). */
static int read_schedule(struct line *l, char **schedule)
{
	const char *open, *close, *s;
	int n;

	skip_blanks(l);
	if (l->p == l->end)
		return line_error(l, "missing schedule: expected "
				  ENTRY_FORM);
	if (*l->p != '"') {
		n = next_field(l, &s);
		return line_error(l, "bad schedule '%.*s': write it in double "
				  "quotes (\"\" keeps the code)", n, s);
	}
	open = l->p + 1;
	close = memchr(open, '"', (size_t)(l->end - open));
	if (!close)
		return line_error(l, "unterminated quote: the schedule has no "
				  "closing '\"' on its line");
	*schedule = strndup(open, (size_t)(close - open));
	l->p = close + 1;
	return *schedule ? 0 : line_error(l, "out of memory");
}

/* Checks that nothing but blanks and a comment follows the schedule. */
static int read_end(struct line *l)
{
	const char *s;
	int n;

	skip_blanks(l);
	if (l->p == l->end || *l->p == '#')
		return 0;
	n = next_field(l, &s);
	return line_error(l, "unexpected '%.*s' after the schedule (comments "
			  "start with '#')", n, s);
}

/* Parses the entry on the line and adds it to `file`. */
static int parse_entry(pearl_schedule_file *file, struct line *l)
{
	struct pearl_schedule_entry e = { NULL, 0, 0, 0, NULL, l->number };
	const struct pearl_schedule_entry *dup;
	char *function = NULL, *schedule = NULL, msg[512];
	int r = -1;

	if (read_function(l, &function) == 0 &&
	    read_region(l, &e.region) == 0 && read_fingerprint(l, &e) == 0 &&
	    read_schedule(l, &schedule) == 0 && read_end(l) == 0) {
		e.function = function;
		e.schedule = schedule;
		dup = pearl_schedule_file_find(file, function, e.region);
		if (dup)
			line_error(l, "duplicate entry for @%s region %d "
				   "(first at line %d)", function, e.region,
				   dup->line);
		else if (pearl_schedule_file_add(file, &e, msg,
						 sizeof(msg)) < 0)
			line_error(l, "%s", msg);
		else
			r = 0;
	}
	free(function);
	free(schedule);
	return r;
}

static int parse_line(pearl_schedule_file *file, struct line *l)
{
	if (l->number == 1)
		return check_header(l);
	skip_blanks(l);
	if (l->p == l->end || *l->p == '#')
		return 0;
	return parse_entry(file, l);
}

pearl_schedule_file *pearl_schedule_file_parse(const char *text,
					       const char *name, char *err,
					       size_t err_size)
{
	struct line l = { text, NULL, 0, name ? name : "schedule file", err,
			  err_size };
	pearl_schedule_file *file = pearl_schedule_file_alloc();

	if (!file) {
		if (err && err_size)
			snprintf(err, err_size, "out of memory");
		return NULL;
	}
	for (;;) {
		const char *end = strchr(l.p, '\n');

		l.end = end ? end : l.p + strlen(l.p);
		l.number++;
		if (parse_line(file, &l) < 0)
			return pearl_schedule_file_free(file);
		if (!end)
			return file;
		l.p = end + 1;
	}
}
