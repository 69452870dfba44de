/* Whole files in memory, and all of a buffer to a file descriptor
 * (pearl/file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int pearl_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

char *pearl_path_join(const char *dir, const char *file)
{
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, file);
	return p;
}
