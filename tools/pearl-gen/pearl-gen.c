/*
 * pearl-gen - writes seeded random affine programs as MLIR (pearl/gen.h).
 *
 *   pearl-gen --seed S [--count N] [-o DIR/|DIR|FILE]
 *             [--size-scale small|train|wide|cache] [--family any|matmul|gemm|chain|matvec|sweep|doitgen]
 *             [--lang mlir|c] [--quiet]
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
 * --family matmul gives one matmul nest per seed in one of its six loop
 * orders, drawn uniformly (programs named mm-<seed>, files
 * DIR/mm-<seed>.mlir.in); --family gemm one matmul nest shaped as
 * PolyBench's gemm, syrk and syr2k, C scaled in its outer loop (named
 * gemm-<seed>); --family chain two or three chained matmul nests as
 * PolyBench's 2mm and 3mm (named chain-<seed>); --family matvec two or
 * three nests over one matrix as PolyBench's atax, bicg, gemver, gesummv
 * and mvt (named mv-<seed>); --family sweep two or three fields updated
 * in turn by 2-4 stencil nests, mostly in a time loop, as fdtd-2d, jacobi
 * and heat-3d (named sw-<seed>); --family doitgen one doitgen nest,
 * mostly with PolyBench's sum row shared by every (r, q) (named
 * dg-<seed>); the default, any, every structure.
 * Exit status: 0 success, 1 error (generation or output), 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pearl/gen.h"
#include "pearl/options.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-gen --seed S [--count N] [-o DIR/|FILE] "
		"[--size-scale small|train|wide|cache]\n"
		"                 [--family any|matmul|gemm|chain|matvec|sweep|doitgen] [--lang mlir|c] [--quiet]\n"
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

/* The command line. */
struct gen_args {
	struct pearl_gen_options opts;
	unsigned long long seed, count;
	const char *out;
	int have_seed, quiet;
};

/* --seed S */
static int parse_seed(const char *value, void *dest)
{
	struct gen_args *a = dest;

	if (parse_u64(value, &a->seed) < 0)
		return pearl_option_bad_value;
	a->have_seed = 1;
	return pearl_option_ok;
}

/* --count N (1 to 10^7) */
static int parse_count(const char *value, void *dest)
{
	unsigned long long *count = dest;

	if (parse_u64(value, count) < 0 || *count < 1 || *count > 10000000)
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* --lang mlir|c */
static int parse_lang(const char *value, void *dest)
{
	enum pearl_gen_lang *lang = dest;

	if (strcmp(value, "mlir") && strcmp(value, "c"))
		return pearl_option_bad_value;
	*lang = strcmp(value, "c") ? pearl_gen_lang_mlir : pearl_gen_lang_c;
	return pearl_option_ok;
}

/* Fills *a from the command line. Returns -1 to go on, or the exit status
 * (after --help or --list-features, or a usage error said on stderr). */
static int parse_args(int argc, char **argv, struct gen_args *a)
{
	const struct pearl_option table[] = {
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_STOP("list-features"),
	    PEARL_OPTION_CALL("seed", a, parse_seed, NULL),
	    PEARL_OPTION_CALL("count", &a->count, parse_count, NULL),
	    {.short_name = 'o', .kind = pearl_option_string, .dest = &a->out},
	    PEARL_OPTION_CALL("size-scale", &a->opts.scale,
			      pearl_gen_scale_option, NULL),
	    PEARL_OPTION_CALL("lang", &a->opts.lang, parse_lang, NULL),
	    PEARL_OPTION_CALL("family", &a->opts.family,
			      pearl_gen_family_option, NULL),
	    {.name = "quiet", .short_name = 'q', .kind = pearl_option_flag,
	     .dest = &a->quiet},
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};
	int r = pearl_options_parse(table, 0, argc, argv, &res);

	if (r > 0) {
		if (res.option->name && !strcmp(res.option->name, "help"))
			usage(stdout);
		else
			list_features();
		return pearl_exit_ok;
	}
	if (r < 0) {
		if (res.failure == pearl_options_bad_value ||
		    res.failure == pearl_options_missing_value)
			fprintf(stderr, "pearl-gen: bad or missing value for "
				"%s\n", argv[res.index]);
		else
			fprintf(stderr, "pearl-gen: unknown argument %s\n",
				argv[res.index]);
		usage(stderr);
		return pearl_exit_usage;
	}
	if (!a->have_seed) {
		fprintf(stderr, "pearl-gen: --seed is required\n");
		usage(stderr);
		return pearl_exit_usage;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct gen_args a = { { pearl_gen_scale_train, pearl_gen_lang_mlir,
				pearl_gen_family_any },
			      0, 1, NULL, 0, 0 };
	struct pearl_gen_options opts;
	unsigned long long seed, count, k;
	const char *out;
	int quiet, to_dir = 0, status = pearl_exit_ok;
	FILE *stream = NULL, *summary;

	status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;
	status = pearl_exit_ok;
	opts = a.opts;
	seed = a.seed;
	count = a.count;
	out = a.out;
	quiet = a.quiet;

	if (out && (is_dir(out) || out[strlen(out) - 1] == '/')) {
		to_dir = 1;
		if (!is_dir(out) && mkdir(out, 0777) != 0) {
			fprintf(stderr, "pearl-gen: cannot create %s: %s\n",
				out, strerror(errno));
			return pearl_exit_error;
		}
	} else if (out) {
		stream = fopen(out, "w");
		if (!stream) {
			fprintf(stderr, "pearl-gen: cannot write %s: %s\n",
				out, strerror(errno));
			return pearl_exit_error;
		}
	} else {
		stream = stdout;
	}
	summary = stream == stdout ? stderr : stdout;

	for (k = 0; k < count && status == pearl_exit_ok; ++k) {
		unsigned long long s = seed + k;
		struct pearl_gen_info info;
		char err[256], line[512], name[64];
		char *text = pearl_gen_program(s, &opts, &info, err,
					       sizeof(err));

		if (!text) {
			fprintf(stderr, "pearl-gen: seed %llu: %s\n", s, err);
			status = pearl_exit_error;
			break;
		}
		if (to_dir) {
			size_t n = strlen(out) + 64;
			char *path = malloc(n);
			FILE *f;

			if (!path) {
				fprintf(stderr, "pearl-gen: out of memory\n");
				free(text);
				status = pearl_exit_error;
				break;
			}
			snprintf(path, n, "%s%s%s.%s", out,
				 out[strlen(out) - 1] == '/' ? "" : "/",
				 pearl_gen_program_name(opts.family, s, name,
							sizeof(name)),
				 opts.lang == pearl_gen_lang_c ? "c"
							       : "mlir.in");
			f = fopen(path, "w");
			if (!f || write_all(f, text) < 0)
				status = pearl_exit_error;
			if (f && fclose(f) != 0)
				status = pearl_exit_error;
			if (status != pearl_exit_ok)
				fprintf(stderr, "pearl-gen: cannot write %s\n",
					path);
			free(path);
		} else {
			if ((k > 0 && write_all(stream, "// -----\n") < 0) ||
			    write_all(stream, text) < 0) {
				fprintf(stderr, "pearl-gen: cannot write %s\n",
					out ? out : "standard output");
				status = pearl_exit_error;
			}
		}
		free(text);
		if (status == pearl_exit_ok && !quiet) {
			pearl_gen_info_str(&info, s, line, sizeof(line));
			fprintf(summary, "%s\n", line);
		}
	}
	if (stream && stream != stdout) {
		if (fclose(stream) != 0 && status == pearl_exit_ok) {
			fprintf(stderr, "pearl-gen: cannot write %s\n", out);
			status = pearl_exit_error;
		}
	} else if (fflush(stdout) != 0 && status == pearl_exit_ok) {
		status = pearl_exit_error;
	}
	return status;
}
