/* The schedules a tuning campaign found (targets.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pearl/schedule_file.h"
#include "targets.h"

/* DIR/NAME`suffix` for p's name NAME (malloc'd), or NULL with a message
 * in err. */
static char *target_path(const char *dir, pearl_env_program *p,
			 const char *suffix, char *err, size_t err_size)
{
	const char *name = pearl_env_program_name(p);
	char *path = malloc(strlen(dir) + strlen(name) + strlen(suffix) + 2);

	if (!path)
		snprintf(err, err_size, "out of memory");
	else
		sprintf(path, "%s/%s%s", dir, name, suffix);
	return path;
}

int target_schedule(const char *dir, pearl_env_program *p, char **schedule,
		    char *err, size_t err_size)
{
	const char *fp;
	const struct pearl_schedule_entry *entry;
	pearl_schedule_file *file;
	char *path;
	int found = 0;

	*schedule = NULL;
	path = target_path(dir, p, ".sched", err, err_size);
	if (!path)
		return -1;
	if (access(path, F_OK) < 0) {
		free(path);
		return 0;
	}
	file = pearl_schedule_file_read(path, err, err_size);
	free(path);
	if (!file)
		return -1;
	entry = pearl_schedule_file_find(file, pearl_env_program_function(p),
					 pearl_env_program_region(p));
	fp = entry ? pearl_env_program_fingerprint(p, err, err_size) : NULL;
	if (entry && !fp) {
		pearl_schedule_file_free(file);
		return -1;
	}
	if (entry && pearl_schedule_entry_fits(entry, strtoull(fp, NULL, 16))) {
		*schedule = strdup(entry->schedule);
		found = *schedule ? 1 : -1;
		if (!*schedule)
			snprintf(err, err_size, "out of memory");
	}
	pearl_schedule_file_free(file);
	return found;
}

void target_alternatives_free(char **schedules, int n)
{
	int i;

	for (i = 0; i < n; ++i)
		free(schedules[i]);
	free(schedules);
}

/* Appends a copy of line (its newline cut) to *list; 0, or -1. */
static int append_line(char ***list, int *n, const char *line)
{
	size_t len = strcspn(line, "\r\n");
	char **grown = realloc(*list, (size_t)(*n + 1) * sizeof(**list));
	char *copy;

	if (!grown)
		return -1;
	*list = grown;
	copy = strndup(line, len);
	if (!copy)
		return -1;
	grown[(*n)++] = copy;
	return 0;
}

int target_alternatives(const char *dir, pearl_env_program *p,
			char ***schedules, int *n, char *err, size_t err_size)
{
	char *path, line[4096];
	FILE *f;
	int rc = 0;

	*schedules = NULL;
	*n = 0;
	path = target_path(dir, p, ".near", err, err_size);
	if (!path)
		return -1;
	f = fopen(path, "r");
	if (!f) {
		rc = errno == ENOENT ? 0 : -1;
		if (rc < 0)
			snprintf(err, err_size, "%s: %s", path,
				 strerror(errno));
		free(path);
		return rc;
	}
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, err_size, "%s: a line too long", path);
			rc = -1;
		} else if (line[0] != '#' && line[strspn(line, " \r\n")] &&
			   append_line(schedules, n, line) < 0) {
			snprintf(err, err_size, "out of memory");
			rc = -1;
		}
	}
	fclose(f);
	free(path);
	if (rc < 0) {
		target_alternatives_free(*schedules, *n);
		*schedules = NULL;
		*n = 0;
	}
	return rc;
}
