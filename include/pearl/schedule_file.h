/*
 * pearl/schedule_file.h - schedule files: one schedule per (function,
 * region), written by the autotuner and applied at compile time by both
 * passes (pearl-schedule's schedule-file=, the clang plugin's
 * -pearl-schedule-file=).
 *
 * The format, version 1 (text, one entry a line):
 *
 *   # pearl schedule file 1
 *   # function region fingerprint schedule
 *   kernel 0 9f3a1c2b7d4e5f60 "I(1,2) T(0,1,32,32) P(0)"
 *   kernel 1 * ""
 *
 * The first line must be the version header exactly (trailing blanks
 * allowed). After it, blank lines and lines starting with '#' (after
 * blanks) are comments. An entry has four fields separated by blanks:
 *
 *   function     the function's symbol name, without '@' (any characters
 *                but blanks and '"'; it cannot start with '@' or '#')
 *   region       the region's index in the function, from 0, as the pass
 *                numbers them (pearl-schedule: the function's regions in
 *                order; clang: the Scops ScopInfo builds, in order)
 *   fingerprint  the region model's fingerprint (pearl/fingerprint.h), 16
 *                hex digits, or '*' for any model (hand-written files)
 *   schedule     the region's schedule in Pearl's notation, in double
 *                quotes (no escapes: it ends at the next '"'); "" keeps
 *                the region's code as it is
 *
 * and may be followed by blanks and a '#' comment. A (function, region)
 * has at most one entry. Whether the schedules are Pearl's notation is not
 * checked here (this module knows no actions): pearl_schedule_file_check
 * (pearl/transform.h) does it.
 *
 * Errors go to an err buffer (err_size bytes, NUL-terminated) and name the
 * file and line ("tuned.sched:3: ..."); nothing here exits. Ownership as in
 * isl: __isl_give returns a new object the caller frees, __isl_take
 * consumes an argument, __isl_keep borrows it.
 */
#ifndef PEARL_SCHEDULE_FILE_H
#define PEARL_SCHEDULE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version header, the first line of every schedule file. */
#define PEARL_SCHEDULE_FILE_HEADER "# pearl schedule file 1"
/* The comment naming the columns, the second line of files Pearl writes. */
#define PEARL_SCHEDULE_FILE_COLUMNS "# function region fingerprint schedule"

/* One entry. */
struct pearl_schedule_entry {
	const char *function; /* symbol name, without '@' */
	int region;           /* from 0 */
	int any;              /* 1: fingerprint '*', fits any model */
	uint64_t fingerprint; /* when !any */
	const char *schedule; /* Pearl's notation; "" keeps the code */
	int line;             /* where it was read (from 1); 0 if added */
};

typedef struct pearl_schedule_file pearl_schedule_file;

/* An empty schedule file (__isl_give), NULL if memory is exhausted. */
__isl_give pearl_schedule_file *pearl_schedule_file_alloc(void);
/* Frees `file` (__isl_take; accepts NULL). Returns NULL. */
pearl_schedule_file *pearl_schedule_file_free(
    __isl_take pearl_schedule_file *file);

/* Parses `text` (kept), the contents of a file called `name` in messages.
 * Returns the file (__isl_give), or NULL with the first error in err: a bad
 * header, a bad field, an unterminated quote, text after the schedule, a
 * duplicate entry. */
__isl_give pearl_schedule_file *pearl_schedule_file_parse(const char *text,
    const char *name, char *err, size_t err_size);
/* Reads and parses the file at `path`; NULL with the error in err (also
 * when the file cannot be read). */
__isl_give pearl_schedule_file *pearl_schedule_file_read(const char *path,
    char *err, size_t err_size);

int pearl_schedule_file_n_entry(__isl_keep const pearl_schedule_file *file);
/* Entry i, in file order (__isl_keep: valid until the file changes). */
__isl_keep const struct pearl_schedule_entry *pearl_schedule_file_get_entry(
    __isl_keep const pearl_schedule_file *file, int i);
/* The entry of `region` of `function`, or NULL (__isl_keep). */
__isl_keep const struct pearl_schedule_entry *pearl_schedule_file_find(
    __isl_keep const pearl_schedule_file *file, const char *function,
    int region);
/* 1 if `entry` was tuned for a model of fingerprint `fp` (or for any). */
int pearl_schedule_entry_fits(
    __isl_keep const struct pearl_schedule_entry *entry, uint64_t fp);

/* Adds a copy of `entry` (kept; its line is ignored). pearl_stat_error
 * with the reason in err if a field cannot be written (a function name
 * that is empty, has blanks or '"' or starts with '@' or '#'; a negative
 * region; a schedule with '"' or a line break), if the file already has
 * an entry for that (function, region), or on memory exhaustion. */
pearl_stat pearl_schedule_file_add(__isl_keep pearl_schedule_file *file,
    __isl_keep const struct pearl_schedule_entry *entry, char *err,
    size_t err_size);
/* Removes the entry of `region` of `function`; 1 if there was one, else 0
 * (replace an entry: remove it, then add the new one). */
int pearl_schedule_file_remove(__isl_keep pearl_schedule_file *file,
    const char *function, int region);

/* The line of `entry` (kept) in a file, with its newline (malloc'd;
 * caller frees; NULL if memory is exhausted). The entry must be one
 * pearl_schedule_file_add accepts. */
char *pearl_schedule_entry_to_str(
    __isl_keep const struct pearl_schedule_entry *entry);
/* The file as text: the header, the column comment, one line per entry
 * in order (malloc'd; caller frees; NULL if memory is exhausted). */
char *pearl_schedule_file_to_str(__isl_keep const pearl_schedule_file *file);
/* Writes the file to `path` (through a temporary file renamed over it, so
 * that readers never see half a file). pearl_stat_error with err. */
pearl_stat pearl_schedule_file_write(__isl_keep const pearl_schedule_file *file,
    const char *path, char *err, size_t err_size);
/* Appends `entry` (kept) as one line to the file at `path`, which is
 * created with its header if it does not exist or is empty. The file is
 * read first: a malformed one, or one that already has an entry for the
 * (function, region), is left alone and pearl_stat_error returned with
 * the reason in err. */
pearl_stat pearl_schedule_file_append(const char *path,
    __isl_keep const struct pearl_schedule_entry *entry, char *err,
    size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
