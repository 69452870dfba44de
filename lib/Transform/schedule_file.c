/* Schedule files in memory: entries, lookup, text form (see
 * pearl/schedule_file.h). */
#include "pearl/schedule_file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/fingerprint.h"
#include "pearl/grow.h"
#include "pearl/str.h"

struct pearl_schedule_file {
	struct pearl_schedule_entry *entries; /* strings owned */
	int n;
	int cap;
};

pearl_schedule_file *pearl_schedule_file_alloc(void)
{
	return calloc(1, sizeof(pearl_schedule_file));
}

static void clear_entry(struct pearl_schedule_entry *e)
{
	free((char *)e->function);
	free((char *)e->schedule);
}

/* clear_entry as the element callback of pearl_grow_free. */
static void clear_entry_elem(void *elem)
{
	clear_entry(elem);
}

pearl_schedule_file *pearl_schedule_file_free(pearl_schedule_file *file)
{
	if (!file)
		return NULL;
	pearl_grow_free(file->entries, file->n, sizeof(*file->entries),
			&clear_entry_elem);
	free(file);
	return NULL;
}

int pearl_schedule_file_n_entry(const pearl_schedule_file *file)
{
	return file->n;
}

const struct pearl_schedule_entry *pearl_schedule_file_get_entry(
    const pearl_schedule_file *file, int i)
{
	return i >= 0 && i < file->n ? &file->entries[i] : NULL;
}

/* The index of the entry of `region` of `function`, or -1. */
static int find(const pearl_schedule_file *file, const char *function,
		int region)
{
	int i;

	for (i = 0; i < file->n; ++i)
		if (file->entries[i].region == region &&
		    !strcmp(file->entries[i].function, function))
			return i;
	return -1;
}

const struct pearl_schedule_entry *pearl_schedule_file_find(
    const pearl_schedule_file *file, const char *function, int region)
{
	int i = find(file, function, region);

	return i < 0 ? NULL : &file->entries[i];
}

int pearl_schedule_entry_fits(const struct pearl_schedule_entry *entry,
			      uint64_t fp)
{
	return entry->any || entry->fingerprint == fp;
}

/* Why `entry` cannot be written as a line, or NULL if it can. */
static const char *bad_field(const struct pearl_schedule_entry *entry)
{
	const char *f = entry->function;

	if (!f || !*f)
		return "the function name is empty";
	if (f[strcspn(f, " \t\r\n\v\f\"")])
		return "the function name has a blank or a '\"'";
	if (*f == '@')
		return "the function name starts with '@' (write the symbol "
		       "name without it)";
	if (*f == '#')
		return "the function name starts with '#' (a comment)";
	if (entry->region < 0)
		return "the region is negative";
	if (!entry->schedule)
		return "there is no schedule";
	if (entry->schedule[strcspn(entry->schedule, "\"\r\n")])
		return "the schedule has a '\"' or a line break";
	return NULL;
}

pearl_stat pearl_schedule_file_add(pearl_schedule_file *file,
				   const struct pearl_schedule_entry *entry,
				   char *err, size_t err_size)
{
	const char *why = bad_field(entry);
	struct pearl_schedule_entry *e;
	int dup;

	if (why)
		return pearl_error_printf(err, err_size, "schedule file entry for @%s region "
			    "%d: %s", entry->function ? entry->function : "",
			    entry->region, why);
	dup = find(file, entry->function, entry->region);
	if (dup >= 0)
		return pearl_error_printf(err, err_size, "the schedule file already has an "
			    "entry for @%s region %d (line %d)",
			    entry->function, entry->region,
			    file->entries[dup].line);
	if (pearl_grow(&file->entries, &file->cap, file->n + 1,
		       sizeof(*file->entries)) < 0)
		return pearl_error_printf(err, err_size, "out of memory");
	e = &file->entries[file->n];
	*e = *entry;
	e->function = strdup(entry->function);
	e->schedule = strdup(entry->schedule);
	if (!e->function || !e->schedule) {
		clear_entry(e);
		return pearl_error_printf(err, err_size, "out of memory");
	}
	file->n++;
	return pearl_stat_ok;
}

int pearl_schedule_file_remove(pearl_schedule_file *file,
			       const char *function, int region)
{
	int i = find(file, function, region);

	if (i < 0)
		return 0;
	clear_entry(&file->entries[i]);
	memmove(&file->entries[i], &file->entries[i + 1],
		(file->n - i - 1) * sizeof(file->entries[0]));
	file->n--;
	return 1;
}

/* Appends the line of `entry` to `out`. */
static void print_entry(pearl_str *out, const struct pearl_schedule_entry *e)
{
	char fp[PEARL_FINGERPRINT_SIZE] = "*";

	if (!e->any)
		pearl_fingerprint_format(e->fingerprint, fp);
	pearl_str_printf(out, "%s %d %s \"%s\"\n", e->function, e->region, fp,
			 e->schedule);
}

char *pearl_schedule_file_to_str(const pearl_schedule_file *file)
{
	pearl_str out = PEARL_STR_INIT;
	int i;

	pearl_str_append(&out, PEARL_SCHEDULE_FILE_HEADER "\n"
			 PEARL_SCHEDULE_FILE_COLUMNS "\n");
	for (i = 0; i < file->n; ++i)
		print_entry(&out, &file->entries[i]);
	return pearl_str_take(&out);
}

char *pearl_schedule_entry_to_str(const struct pearl_schedule_entry *entry)
{
	pearl_str out = PEARL_STR_INIT;

	print_entry(&out, entry);
	return pearl_str_take(&out);
}
