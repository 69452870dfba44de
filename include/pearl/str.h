/*
 * pearl/str.h - a growable string used to build printed output, and the
 * lookup and freeing of an array of strings.
 *
 * Memory exhaustion makes the string "failed": later appends are ignored and
 * pearl_str_take returns NULL, so callers check once at the end.
 */
#ifndef PEARL_STR_H
#define PEARL_STR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pearl_str {
	char *buf;
	size_t len;
	size_t cap;
	int failed;
} pearl_str;

#define PEARL_STR_INIT { NULL, 0, 0, 0 }

void pearl_str_append(pearl_str *s, const char *text);
void pearl_str_printf(pearl_str *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends `text` and frees it (accepts NULL, which marks the string failed). */
void pearl_str_append_take(pearl_str *s, char *text);
void pearl_str_indent(pearl_str *s, int n);
/* Appends every line of `text` (kept) indented by n spaces, each ending in
 * a newline. */
void pearl_str_append_indented(pearl_str *s, const char *text, int n);
/* Returns the built string, caller frees with free(); NULL on failure.
 * The pearl_str is reset either way. */
char *pearl_str_take(pearl_str *s);
void pearl_str_clear(pearl_str *s);

/* The position of the first of the n strings (kept) equal to `s` (kept),
 * or -1. */
int pearl_str_index(const char *const *strings, int n, const char *s);
/* Frees the n strings of `strings` (__isl_take; each may be NULL) and then
 * the array (__isl_take; may be NULL when n is 0), both malloc'd. */
void pearl_str_array_free(char **strings, int n);

#ifdef __cplusplus
}
#endif

#endif
