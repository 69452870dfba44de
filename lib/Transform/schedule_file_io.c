/* Reading, writing and appending schedule files on disk (see
 * pearl/schedule_file.h). */
#include "pearl/schedule_file.h"
#include "pearl/file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of the file at `path` (malloc'd), or NULL with errno set (a
 * file with a NUL byte is no text: EILSEQ). */
static char *read_text(const char *path)
{
	size_t len;
	char *text = pearl_read_file(path, &len);

	if (text && strlen(text) != len) {
		free(text);
		errno = EILSEQ;
		return NULL;
	}
	return text;
}

/* Reports why `path` cannot be read. */
static void read_error(const char *path, char *err, size_t err_size)
{
	pearl_error_printf(err, err_size, "cannot read '%s': %s", path,
	     errno == EILSEQ ? "it has a NUL byte (not a text file)"
			     : strerror(errno));
}

pearl_schedule_file *pearl_schedule_file_read(const char *path, char *err,
					      size_t err_size)
{
	pearl_schedule_file *file;
	char *text = read_text(path);

	if (!text) {
		read_error(path, err, err_size);
		return NULL;
	}
	file = pearl_schedule_file_parse(text, path, err, err_size);
	free(text);
	return file;
}

/* Writes `text` to a new file at `path`. */
static pearl_stat write_text(const char *path, const char *text, char *err,
			     size_t err_size)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return pearl_error_printf(err, err_size, "cannot write '%s': %s", path,
			    strerror(errno));
	bad = fputs(text, f) < 0;
	bad |= fclose(f) != 0;
	if (bad)
		return pearl_error_printf(err, err_size, "cannot write '%s': %s", path,
			    strerror(errno));
	return pearl_stat_ok;
}

pearl_stat pearl_schedule_file_write(const pearl_schedule_file *file,
				     const char *path, char *err,
				     size_t err_size)
{
	char *text = pearl_schedule_file_to_str(file), *tmp;
	size_t n = strlen(path) + sizeof(".tmp");
	pearl_stat st;

	tmp = malloc(n);
	if (!text || !tmp) {
		free(text);
		free(tmp);
		return pearl_error_printf(err, err_size, "out of memory");
	}
	snprintf(tmp, n, "%s.tmp", path);
	st = write_text(tmp, text, err, err_size);
	if (st == pearl_stat_ok && rename(tmp, path) != 0) {
		st = pearl_error_printf(err, err_size, "cannot write '%s': %s", path,
			  strerror(errno));
		remove(tmp);
	}
	free(text);
	free(tmp);
	return st;
}

/* Appends `head` (if not NULL; with a newline first if `old` does not end
 * in one) and `line` to the file at `path`. */
static pearl_stat append_text(const char *path, const char *old,
			      const char *head, const char *line, char *err,
			      size_t err_size)
{
	FILE *f = fopen(path, "a");
	size_t n = strlen(old);
	int bad = 0;

	if (!f)
		return pearl_error_printf(err, err_size, "cannot write '%s': %s", path,
			    strerror(errno));
	if (n && old[n - 1] != '\n')
		bad |= fputc('\n', f) == EOF;
	if (head)
		bad |= fputs(head, f) < 0;
	bad |= fputs(line, f) < 0;
	bad |= fclose(f) != 0;
	if (bad)
		return pearl_error_printf(err, err_size, "cannot write '%s': %s", path,
			    strerror(errno));
	return pearl_stat_ok;
}

/* The parsed file at `path`; an empty file if it does not exist or is
 * empty (*fresh set); NULL with err if it cannot be read or parsed. Its
 * text goes to *text (malloc'd; "" for a fresh file). */
static pearl_schedule_file *read_for_append(const char *path, char **text,
					    int *fresh, char *err,
					    size_t err_size)
{
	pearl_schedule_file *file;

	*text = read_text(path);
	if (!*text && errno != ENOENT) {
		read_error(path, err, err_size);
		return NULL;
	}
	*fresh = !*text || !**text;
	if (!*fresh)
		return pearl_schedule_file_parse(*text, path, err, err_size);
	free(*text);
	*text = strdup("");
	file = pearl_schedule_file_alloc();
	if (!file || !*text) {
		pearl_error_printf(err, err_size, "out of memory");
		return pearl_schedule_file_free(file);
	}
	return file;
}

pearl_stat pearl_schedule_file_append(const char *path,
				      const struct pearl_schedule_entry *entry,
				      char *err, size_t err_size)
{
	static const char head[] = PEARL_SCHEDULE_FILE_HEADER "\n"
				   PEARL_SCHEDULE_FILE_COLUMNS "\n";
	char *text = NULL, *line = NULL;
	pearl_schedule_file *file;
	pearl_stat st = pearl_stat_error;
	int fresh = 0;

	file = read_for_append(path, &text, &fresh, err, err_size);
	if (file && pearl_schedule_file_add(file, entry, err, err_size) == 0) {
		line = pearl_schedule_entry_to_str(entry);
		st = line ? append_text(path, text, fresh ? head : NULL, line,
					err, err_size)
			  : pearl_error_printf(err, err_size, "out of memory");
	}
	free(line);
	free(text);
	pearl_schedule_file_free(file);
	return st;
}
