/* The schedules a tuning campaign found (targets.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pearl/schedule_file.h"
#include "targets.h"

int target_schedule(const char *dir, pearl_env_program *p, char **schedule,
		    char *err, size_t err_size)
{
	const char *name = pearl_env_program_name(p), *fp;
	const struct pearl_schedule_entry *entry;
	pearl_schedule_file *file;
	char *path;
	int found = 0;

	*schedule = NULL;
	path = malloc(strlen(dir) + strlen(name) + 8);
	if (!path) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	sprintf(path, "%s/%s.sched", dir, name);
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
