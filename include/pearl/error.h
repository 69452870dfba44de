/*
 * pearl/error.h - the status of library calls and the error buffer of the
 * functions that have no context.
 *
 * Functions without a pearl_ctx (the policy network, the environment, the
 * schedule files) report an error as a message in a caller's buffer
 * (`char *err, size_t err_size`) and a return value of pearl_stat_error
 * (-1). This header needs nothing but libc, so that libraries without isl
 * (pearl_policy) use the same helper as the others.
 */
#ifndef PEARL_ERROR_H
#define PEARL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { pearl_stat_error = -1, pearl_stat_ok = 0 } pearl_stat;

/* Writes a printf-style message into err (err_size bytes, NUL-terminated
 * when err_size > 0; err may be NULL, then nothing is written), the error
 * buffer of functions that have no context; returns pearl_stat_error. */
pearl_stat pearl_error_printf(char *err, size_t err_size, const char *fmt,
			      ...) __attribute__((format(printf, 3, 4)));

/* pearl_error_printf with a va_list (`ap` is consumed as by vsnprintf). */
pearl_stat pearl_error_vprintf(char *err, size_t err_size, const char *fmt,
			       va_list ap)
    __attribute__((format(printf, 3, 0)));

#ifdef __cplusplus
}
#endif

#endif
