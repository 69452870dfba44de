/*
 * pearl-gen - writes seeded random affine programs as MLIR (pearl/gen.h).
 *
 *   pearl-gen --seed S [--count N] [-o DIR/|DIR|FILE]
 *             [--size-scale small|train|wide|cache] [--lang mlir|c] [--quiet]
 *   pearl-gen --list-features
 *
 * Program k (0 <= k < N) is the one of seed S + k.  With -o naming a
 * directory (an existing one, or any path ending in '/', created if
 * missing) each program goes to DIR/gen-<seed>.mlir.in (the benchmark
 * kernel contract, so `pearl-bench --kernel-dir DIR` or `--kernels FILE`
 * take them as they are); with -o FILE, or without -o (standard output),
 * the programs are written one after the other, separated by
 * "// -----" lines (mlir-opt --split-input-file).  For each program a
 * summary line goes to standard output (to standard error when the
 * programs themselves go to standard output):
 *
 *   gen-<seed>: nests=N depth=D kinds=.. types=.. features=.. ops=O
 *   est=E ms mem=M KB
 *
 * With --lang c the same programs are written as standalone C programs
 * (DIR/gen-<seed>.c), which print a checksum of every array they write.
 * The default scale is train (run times of roughly 5-150 ms); small gives
 * tiny sizes for tests; wide the train structures at 0.25-108 ms.
 * Exit status: 0 success, 1 error (generation or output), 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pearl/gen.h"

enum { exit_ok = 0, exit_error = 1, exit_usage = 2 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-gen --seed S [--count N] [-o DIR/|FILE] "
		"[--size-scale small|train|wide|cache] [--lang mlir|c] [--quiet]\n"
		"       pearl-gen --list-features\n"
		"Writes N random affine programs (seeds S .. S+N-1) as MLIR "
		"modules in the\npearl-bench kernel contract: into "
		"DIR/gen-<seed>.mlir.in, or into FILE or\nstandard output "
		"separated by '// -----' lines; one summary line each.\n"
		"With --lang c, the same programs as C programs "
		"(DIR/gen-<seed>.c).\n");
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static void list_features(void)
{
	int i;

	printf("kinds:");
	for (i = 0; i < pearl_gen_n_kinds; ++i)
		printf(" %s", pearl_gen_kind_name((enum pearl_gen_kind)i));
	printf("\ntypes:");
	for (i = 0; i < pearl_gen_n_types; ++i)
		printf(" %s", pearl_gen_type_name((enum pearl_gen_type)i));
	printf("\nfeatures:\n");
	for (i = 0; i < pearl_gen_n_features; ++i) {
		enum pearl_gen_feature f = (enum pearl_gen_feature)(1u << i);

		printf("  %-12s %s\n", pearl_gen_feature_name(f),
		       pearl_gen_feature_description(f));
	}
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int write_all(FILE *f, const char *text)
{
	size_t n = strlen(text);

	return fwrite(text, 1, n, f) == n ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct pearl_gen_options opts = { pearl_gen_scale_train,
					  pearl_gen_lang_mlir };
	unsigned long long seed = 0, count = 1, k;
	const char *out = NULL;
	int have_seed = 0, quiet = 0, to_dir = 0, i, status = exit_ok;
	FILE *stream = NULL, *summary;

	for (i = 1; i < argc; ++i) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return exit_ok;
		} else if (!strcmp(a, "--list-features")) {
			list_features();
			return exit_ok;
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(v, &seed) < 0)
				goto bad;
			have_seed = 1;
			++i;
		} else if (!strcmp(a, "--count")) {
			if (parse_u64(v, &count) < 0 || count < 1 ||
			    count > 10000000)
				goto bad;
			++i;
		} else if (!strcmp(a, "-o")) {
			if (!v)
				goto bad;
			out = v;
			++i;
		} else if (!strcmp(a, "--size-scale")) {
			if (pearl_gen_scale_parse(v, &opts.scale) < 0)
				goto bad;
			++i;
		} else if (!strcmp(a, "--lang")) {
			if (!v || (strcmp(v, "mlir") && strcmp(v, "c")))
				goto bad;
			opts.lang = strcmp(v, "c") ? pearl_gen_lang_mlir
						   : pearl_gen_lang_c;
			++i;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else {
			fprintf(stderr, "pearl-gen: unknown argument %s\n", a);
			usage(stderr);
			return exit_usage;
		}
		continue;
bad:
		fprintf(stderr, "pearl-gen: bad or missing value for %s\n", a);
		usage(stderr);
		return exit_usage;
	}
	if (!have_seed) {
		fprintf(stderr, "pearl-gen: --seed is required\n");
		usage(stderr);
		return exit_usage;
	}

	if (out && (is_dir(out) || out[strlen(out) - 1] == '/')) {
		to_dir = 1;
		if (!is_dir(out) && mkdir(out, 0777) != 0) {
			fprintf(stderr, "pearl-gen: cannot create %s: %s\n",
				out, strerror(errno));
			return exit_error;
		}
	} else if (out) {
		stream = fopen(out, "w");
		if (!stream) {
			fprintf(stderr, "pearl-gen: cannot write %s: %s\n",
				out, strerror(errno));
			return exit_error;
		}
	} else {
		stream = stdout;
	}
	summary = stream == stdout ? stderr : stdout;

	for (k = 0; k < count && status == exit_ok; ++k) {
		unsigned long long s = seed + k;
		struct pearl_gen_info info;
		char err[256], line[512];
		char *text = pearl_gen_program(s, &opts, &info, err,
					       sizeof(err));

		if (!text) {
			fprintf(stderr, "pearl-gen: seed %llu: %s\n", s, err);
			status = exit_error;
			break;
		}
		if (to_dir) {
			size_t n = strlen(out) + 64;
			char *path = malloc(n);
			FILE *f;

			if (!path) {
				fprintf(stderr, "pearl-gen: out of memory\n");
				free(text);
				status = exit_error;
				break;
			}
			snprintf(path, n, "%s%sgen-%llu.%s", out,
				 out[strlen(out) - 1] == '/' ? "" : "/", s,
				 opts.lang == pearl_gen_lang_c ? "c"
							       : "mlir.in");
			f = fopen(path, "w");
			if (!f || write_all(f, text) < 0)
				status = exit_error;
			if (f && fclose(f) != 0)
				status = exit_error;
			if (status != exit_ok)
				fprintf(stderr, "pearl-gen: cannot write %s\n",
					path);
			free(path);
		} else {
			if ((k > 0 && write_all(stream, "// -----\n") < 0) ||
			    write_all(stream, text) < 0) {
				fprintf(stderr, "pearl-gen: cannot write %s\n",
					out ? out : "standard output");
				status = exit_error;
			}
		}
		free(text);
		if (status == exit_ok && !quiet) {
			pearl_gen_info_str(&info, s, line, sizeof(line));
			fprintf(summary, "%s\n", line);
		}
	}
	if (stream && stream != stdout) {
		if (fclose(stream) != 0 && status == exit_ok) {
			fprintf(stderr, "pearl-gen: cannot write %s\n", out);
			status = exit_error;
		}
	} else if (fflush(stdout) != 0 && status == exit_ok) {
		status = exit_error;
	}
	return status;
}
