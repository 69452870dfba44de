#include "pearl/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(pearl_str *s, size_t extra)
{
	size_t need, cap;
	char *buf;

	if (s->failed)
		return -1;
	need = s->len + extra + 1;
	if (need <= s->cap)
		return 0;
	cap = s->cap ? s->cap : 256;
	while (cap < need)
		cap *= 2;
	buf = realloc(s->buf, cap);
	if (!buf) {
		s->failed = 1;
		return -1;
	}
	s->buf = buf;
	s->cap = cap;
	return 0;
}

void pearl_str_append(pearl_str *s, const char *text)
{
	size_t n = strlen(text);

	if (reserve(s, n) < 0)
		return;
	memcpy(s->buf + s->len, text, n + 1);
	s->len += n;
}

void pearl_str_printf(pearl_str *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		s->failed = 1;
		return;
	}
	if (reserve(s, (size_t)n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	s->len += (size_t)n;
}

void pearl_str_append_take(pearl_str *s, char *text)
{
	if (!text) {
		s->failed = 1;
		return;
	}
	pearl_str_append(s, text);
	free(text);
}

void pearl_str_indent(pearl_str *s, int n)
{
	pearl_str_printf(s, "%*s", n, "");
}

void pearl_str_append_indented(pearl_str *s, const char *text, int n)
{
	const char *line = text, *end;

	while (*line) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		pearl_str_printf(s, "%*s%.*s\n", n, "", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
}

char *pearl_str_take(pearl_str *s)
{
	char *r = NULL;

	if (!s->failed) {
		r = s->buf ? s->buf : strdup("");
		s->buf = NULL;
	}
	pearl_str_clear(s);
	return r;
}

void pearl_str_clear(pearl_str *s)
{
	free(s->buf);
	s->buf = NULL;
	s->len = s->cap = 0;
	s->failed = 0;
}

int pearl_str_index(const char *const *strings, int n, const char *s)
{
	int i;

	for (i = 0; i < n; ++i)
		if (!strcmp(strings[i], s))
			return i;
	return -1;
}

void pearl_str_array_free(char **strings, int n)
{
	int i;

	for (i = 0; i < n; ++i)
		free(strings[i]);
	free(strings);
}
