/* Whole files in memory (pearl/file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "pearl/file.h"

/* Reads the rest of `f` (kept) into a malloc'd, NUL-terminated buffer. */
static char *read_stream(FILE *f, size_t *len_out)
{
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[len] = 0;
	if (len_out)
		*len_out = len;
	return buf;
}

char *pearl_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;

	if (!f)
		return NULL;
	text = read_stream(f, len);
	fclose(f);
	return text;
}
