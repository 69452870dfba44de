/*
 * pearl/file.h - whole files in memory, and all of a buffer to a file
 * descriptor.
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

/* "dir/file" in a malloc'd string, or NULL if memory is exhausted. */
char *pearl_path_join(const char *dir, const char *file);

/* Writes all len bytes of buf to the file descriptor fd, again after a
 * write that an interrupt cut short (EINTR) or that wrote part; 0, or -1
 * when a write fails or writes nothing. Only write(2): safe in a forked
 * child and in a signal handler. */
int pearl_write_all(int fd, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
