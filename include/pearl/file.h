/*
 * pearl/file.h - whole files in memory.
 */
#ifndef PEARL_FILE_H
#define PEARL_FILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The contents of the file at `path`, NUL-terminated, in a malloc'd
 * buffer (__isl_give; the caller frees it), its length in *len when len
 * is not NULL. NULL with errno set if the file cannot be read or memory
 * is exhausted. */
char *pearl_read_file(const char *path, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
