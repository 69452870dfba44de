/* Program sets for training and evaluation (programs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "pearl/file.h"
#include "pearl/gen.h"
#include "pearl/grow.h"

/* Loads text as a program and checks that it can be modeled; 1 if added,
 * 0 if skipped, -1 if out of memory. */
static int add(struct program_set *set, pearl_env *env, const char *text,
	       const char *name, int verbose)
{
	char err[512];
	pearl_env_program *p;
	pearl_sched *sched;

	p = pearl_env_program_load(env, text, name, err, sizeof(err));
	sched = p ? pearl_env_program_sched(p, err, sizeof(err)) : NULL;
	if (!sched) {
		if (verbose)
			fprintf(stderr, "pearl: skipping %s: %s\n", name, err);
		pearl_env_program_free(p);
		set->skipped++;
		return 0;
	}
	pearl_sched_free(sched);
	if (pearl_grow(&set->p, &set->cap, set->n + 1, sizeof(*set->p)) < 0) {
		pearl_env_program_free(p);
		return -1;
	}
	set->p[set->n++] = p;
	return 1;
}

int program_set_add_generated(struct program_set *set, pearl_env *env,
			      uint64_t first, int count,
			      enum pearl_gen_scale scale,
			      enum pearl_gen_family family,
			      int verbose, char *err, size_t err_size)
{
	struct pearl_gen_options opts;
	int i;

	memset(&opts, 0, sizeof(opts));
	opts.scale = scale;
	opts.family = family;
	for (i = 0; i < count; ++i) {
		char name[64];
		char *text = pearl_gen_program(first + i, &opts, NULL, err,
					       err_size);

		if (!text)
			return -1;
		pearl_gen_program_name(family, first + i, name, sizeof(name));
		if (add(set, env, text, name, verbose) < 0) {
			free(text);
			snprintf(err, err_size, "out of memory");
			return -1;
		}
		free(text);
	}
	return 0;
}

int program_set_add_files(struct program_set *set, pearl_env *env,
			  char *const *paths, int n, int verbose, char *err,
			  size_t err_size)
{
	int i;

	for (i = 0; i < n; ++i) {
		char name[256], *dot;
		const char *base = strrchr(paths[i], '/');
		char *text = pearl_read_file(paths[i], NULL);

		if (!text) {
			snprintf(err, err_size, "cannot read %s", paths[i]);
			return -1;
		}
		snprintf(name, sizeof(name), "%s", base ? base + 1 : paths[i]);
		if ((dot = strchr(name, '.')))
			*dot = 0;
		if (add(set, env, text, name, verbose) < 0) {
			free(text);
			snprintf(err, err_size, "out of memory");
			return -1;
		}
		free(text);
	}
	return 0;
}

void program_set_clear(struct program_set *set)
{
	int i;

	for (i = 0; i < set->n; ++i)
		pearl_env_program_free(set->p[i]);
	free(set->p);
	memset(set, 0, sizeof(*set));
}
