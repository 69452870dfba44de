/* The error buffer of functions without a context (pearl/error.h). */
#include <stdio.h>

#include "pearl/error.h"

pearl_stat pearl_error_vprintf(char *err, size_t err_size, const char *fmt,
			       va_list ap)
{
	if (err && err_size)
		vsnprintf(err, err_size, fmt, ap);
	return pearl_stat_error;
}

pearl_stat pearl_error_printf(char *err, size_t err_size, const char *fmt,
			      ...)
{
	va_list ap;

	va_start(ap, fmt);
	pearl_error_vprintf(err, err_size, fmt, ap);
	va_end(ap);
	return pearl_stat_error;
}
