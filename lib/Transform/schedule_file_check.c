/* Schedule files whose schedules are all Pearl's notation (see
 * pearl/schedule_file.h and pearl/transform.h). */
#include <stdio.h>
#include <stdlib.h>

#include "pearl/transform.h"

/* Checks one entry's schedule; reports it into err on failure. */
static pearl_stat check_entry(pearl_ctx *ctx,
			      const struct pearl_schedule_entry *e,
			      const char *name, char *err, size_t err_size)
{
	struct pearl_action *actions;
	int n = pearl_actions_parse(ctx, e->schedule, &actions);

	free(actions);
	if (n >= 0)
		return pearl_stat_ok;
	snprintf(err, err_size, "%s:%d: @%s region %d: %s", name, e->line,
		 e->function, e->region, pearl_ctx_last_error(ctx));
	return pearl_stat_error;
}

pearl_stat pearl_schedule_file_check(const pearl_schedule_file *file,
				     const char *name, char *err,
				     size_t err_size)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_stat st = pearl_stat_ok;
	int i;

	if (!ctx) {
		snprintf(err, err_size, "out of memory");
		return pearl_stat_error;
	}
	for (i = 0; st == pearl_stat_ok &&
		    i < pearl_schedule_file_n_entry(file); ++i)
		st = check_entry(ctx, pearl_schedule_file_get_entry(file, i),
				 name, err, err_size);
	pearl_ctx_free(ctx);
	return st;
}

pearl_schedule_file *pearl_schedule_file_load(const char *path, char *err,
					      size_t err_size)
{
	pearl_schedule_file *file;

	file = pearl_schedule_file_read(path, err, err_size);
	if (file && pearl_schedule_file_check(file, path, err, err_size) < 0)
		return pearl_schedule_file_free(file);
	return file;
}
