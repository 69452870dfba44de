/*
 * pearl-model - makes, inspects and evaluates policy weight blobs.
 *
 *   pearl-model init [--seed S] -o FILE    random-initialized blob (seed 1)
 *   pearl-model info FILE | --builtin      dimensions, size, checksum
 *   pearl-model eval [--repeat N] FILE | --builtin GRAPH.txt
 *   pearl-model average [--builtin] [--weights W,...] -o OUT FILE...
 *                                          weighted mean of the parameters
 *
 * eval reads a graph in pearl_graph_print's text format ("-" for standard
 * input) and prints the raw logits and the value, one per line with %.9g:
 * "logit <i> <v>" for every action, then "value <v>". With --repeat N it
 * evaluates N times and prints the mean time per evaluation on stderr.
 *
 * average writes one blob whose every parameter is the weighted mean of
 * that parameter in the given blobs (the compiled-in one first with
 * --builtin): a "model soup" of policies fine-tuned from one starting
 * point. The weights (default: equal) are non-negative and are divided by
 * their sum. The blobs must load with the same dimensions (older ones are
 * widened first, pearl_policy_from_blob). It prints the checksum of the
 * blob written.
 *
 * Exit status: 0 success, 1 error (unreadable or invalid blob or graph),
 * 2 usage.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pearl/graph.h"
#include "pearl/options.h"
#include "pearl/policy.h"
#include "pearl/train.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-model init [--seed S] -o FILE\n"
		"       pearl-model info FILE|--builtin\n"
		"       pearl-model eval [--repeat N] FILE|--builtin "
		"GRAPH.txt\n"
		"       pearl-model average [--builtin] [--weights W,...] "
		"-o OUT FILE...\n");
}

/* Parses the words of a subcommand, argv[0] its name, against `table`
 * (kept): the values go where the table says, the arguments to args
 * (room for argc words; NULL: an argument is a usage error). Returns the
 * number of arguments, or -1 after saying on stderr what is wrong:
 * "bad <what> VALUE" for a value an option refuses, else the usage. */
static int parse_words(const struct pearl_option *table, const char *what,
		       int argc, char **argv, char **args)
{
	struct pearl_options_result res = { .arguments = args };

	if (pearl_options_parse(table, 0, argc, argv, &res) == 0)
		return res.n_arguments;
	if (res.failure == pearl_options_bad_value)
		fprintf(stderr, "pearl-model: bad %s %s\n", what, res.value);
	else
		usage(stderr);
	return -1;
}

static int cmd_init(int argc, char **argv)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	uint64_t seed = 1;
	const char *out = NULL;
	const struct pearl_option table[] = {
	    PEARL_OPTION_U64("seed", &seed),
	    {.short_name = 'o', .kind = pearl_option_string, .dest = &out},
	    PEARL_OPTION_END};
	char err[256];
	pearl_policy *policy;
	int rc;

	if (parse_words(table, "seed", argc, argv, NULL) < 0)
		return pearl_exit_usage;
	if (!out) {
		usage(stderr);
		return pearl_exit_usage;
	}
	policy = pearl_policy_init_random(&cfg, seed, err, sizeof(err));
	if (!policy) {
		fprintf(stderr, "pearl-model: %s\n", err);
		return pearl_exit_error;
	}
	rc = pearl_policy_save_file(policy, out, err, sizeof(err));
	pearl_policy_free(policy);
	if (rc < 0) {
		fprintf(stderr, "pearl-model: %s\n", err);
		return pearl_exit_error;
	}
	return pearl_exit_ok;
}

/* Loads the policy named by `name` ("--builtin" or a file). */
static pearl_policy *load(const char *name)
{
	char err[256];
	pearl_policy *policy;

	if (!strcmp(name, "--builtin"))
		policy = pearl_policy_load_builtin(err, sizeof(err));
	else
		policy = pearl_policy_load_file(name, err, sizeof(err));
	if (!policy)
		fprintf(stderr, "pearl-model: %s: %s\n", name, err);
	return policy;
}

/* The stored blob's header (the loader checked it, its checksum and its
 * weights), and the dimensions it loads with: a blob of the first
 * PEARL_N_ACTIONS_V1 actions or PEARL_GRAPH_N_FEATURES_V1 features, or of
 * version 1 (no focus loops), is widened. */
static int cmd_info(int argc, char **argv, char **args)
{
	struct pearl_policy_blob_info info;
	const char *blob, *path;
	pearl_policy *policy;
	int loaded, loaded_features, loaded_focus, builtin = 0, n;
	const struct pearl_option table[] = {
	    PEARL_OPTION_FLAG("builtin", &builtin),
	    PEARL_OPTION_END};
	char err[256];

	n = parse_words(table, NULL, argc, argv, args);
	if (n < 0)
		return pearl_exit_usage;
	if (n != 1 - builtin) {
		usage(stderr);
		return pearl_exit_usage;
	}
	blob = builtin ? "--builtin" : args[0];
	policy = load(blob);
	if (!policy)
		return pearl_exit_error;
	loaded = pearl_policy_get_config(policy)->n_actions;
	loaded_features = pearl_policy_get_config(policy)->n_features;
	loaded_focus = pearl_policy_get_config(policy)->focus_levels;
	pearl_policy_free(policy);
	path = builtin ? NULL : blob;
	if (pearl_policy_blob_info(path, &info, err, sizeof(err)) < 0) {
		fprintf(stderr, "pearl-model: %s\n", err);
		return pearl_exit_error;
	}
	printf("blob %s\n", blob);
	printf("version %u\n", info.version);
	printf("n_features %d\nhidden %d\nheads %d\nn_layers %d\n"
	       "n_actions %d\nfocus_levels %d\n",
	       info.cfg.n_features, info.cfg.hidden, info.cfg.heads,
	       info.cfg.n_layers, info.cfg.n_actions, info.cfg.focus_levels);
	printf("n_floats %u\n", info.n_floats);
	printf("bytes %llu\n", info.bytes);
	printf("checksum 0x%016llx\n", info.checksum);
	printf("valid yes\n");
	if (loaded != info.cfg.n_actions)
		printf("loads as n_actions %d (the new actions' logits at "
		       "%g)\n", loaded, (double)PEARL_NEW_ACTION_BIAS);
	if (loaded_features != info.cfg.n_features)
		printf("loads as n_features %d (the new features' weights "
		       "0)\n", loaded_features);
	if (loaded_focus != info.cfg.focus_levels)
		printf("loads as focus_levels %d (the focus loops' weights "
		       "0)\n", loaded_focus);
	return pearl_exit_ok;
}

static struct pearl_graph *read_graph(const char *path)
{
	char err[256];
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct pearl_graph *graph;

	if (!f) {
		fprintf(stderr, "pearl-model: cannot open %s\n", path);
		return NULL;
	}
	graph = pearl_graph_read(f, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (!graph)
		fprintf(stderr, "pearl-model: %s: %s\n", path, err);
	return graph;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmd_eval(int argc, char **argv, char **args)
{
	uint64_t repeat = 1, r;
	int builtin = 0;
	const struct pearl_option table[] = {
	    PEARL_OPTION_U64_RANGE("repeat", &repeat, 1, HUGE_VAL),
	    PEARL_OPTION_FLAG("builtin", &builtin),
	    PEARL_OPTION_END};
	pearl_policy *policy;
	struct pearl_graph *graph;
	const struct pearl_policy_config *cfg;
	const char *graph_path;
	float *logits, value;
	char err[256];
	int i, n, rc = 0;
	double t0;

	n = parse_words(table, "repeat count", argc, argv, args);
	if (n < 0)
		return pearl_exit_usage;
	if (n != 2 - builtin) {
		usage(stderr);
		return pearl_exit_usage;
	}
	policy = load(builtin ? "--builtin" : args[0]);
	if (!policy)
		return pearl_exit_error;
	graph_path = args[n - 1];
	graph = read_graph(graph_path);
	cfg = pearl_policy_get_config(policy);
	logits = malloc((size_t)cfg->n_actions * sizeof(float));
	if (!graph || !logits) {
		free(logits);
		pearl_graph_free(graph);
		pearl_policy_free(policy);
		return pearl_exit_error;
	}
	t0 = now();
	for (r = 0; r < repeat && rc == 0; ++r)
		rc = pearl_policy_eval(policy, graph, logits, &value, err,
				       sizeof(err));
	if (rc == 0 && repeat > 1)
		fprintf(stderr, "pearl-model: %d nodes: %.1f us per eval\n",
			graph->n_nodes, 1e6 * (now() - t0) / (double)repeat);
	if (rc < 0)
		fprintf(stderr, "pearl-model: %s: %s\n", graph_path, err);
	else {
		for (i = 0; i < cfg->n_actions; ++i)
			printf("logit %d %.9g\n", i, (double)logits[i]);
		printf("value %.9g\n", (double)value);
	}
	free(logits);
	pearl_graph_free(graph);
	pearl_policy_free(policy);
	return rc < 0 ? pearl_exit_error : pearl_exit_ok;
}

/* Parses "W,W,..." into weights[n] (non-negative, sum > 0), divided by
 * their sum; NULL list: equal weights. 0, or -1 after a message. */
static int parse_weights(const char *list, double *weights, int n)
{
	const char *p = list;
	double sum = 0;
	int i;

	for (i = 0; i < n; ++i) {
		char *end;

		if (!list) {
			weights[i] = 1;
		} else {
			weights[i] = strtod(p, &end);
			if (end == p || weights[i] < 0 ||
			    !(weights[i] < HUGE_VAL) ||
			    *end != (i + 1 < n ? ',' : '\0')) {
				fprintf(stderr,
					"pearl-model: bad weights %s (%d "
					"non-negative numbers expected, one "
					"per blob)\n", list, n);
				return -1;
			}
			p = end + 1;
		}
		sum += weights[i];
	}
	if (!(sum > 0)) {
		fprintf(stderr, "pearl-model: bad weights %s (their sum is "
			"0)\n", list);
		return -1;
	}
	for (i = 0; i < n; ++i)
		weights[i] /= sum;
	return 0;
}

/* Adds weight * the parameters of `member` into sum[n] (double, for the
 * rounding). Every blob loads with the default dimensions (an older one
 * widened, pearl_policy_from_blob), so the counts match; another count is
 * refused all the same, as it would overrun sum: 0, or -1 after a
 * message. */
static int add_member(double *sum, size_t n, double weight,
		      const pearl_policy *member, const char *name)
{
	const float *params;
	size_t i, m;

	params = pearl_policy_get_params_const(member, &m);
	if (m != n) {
		fprintf(stderr, "pearl-model: %s: dimensions differ from the "
			"first blob's\n", name);
		return -1;
	}
	for (i = 0; i < n; ++i)
		sum[i] += weight * (double)params[i];
	return 0;
}

static int cmd_average(int argc, char **argv, char **args)
{
	const char *out = NULL, *weight_list = NULL;
	int builtin = 0, n, n_blobs, b, rc = 0;
	const struct pearl_option table[] = {
	    PEARL_OPTION_FLAG("builtin", &builtin),
	    PEARL_OPTION_STRING("weights", &weight_list),
	    {.short_name = 'o', .kind = pearl_option_string, .dest = &out},
	    PEARL_OPTION_END};
	struct pearl_policy_blob_info info;
	pearl_policy *result = NULL;
	double *weights, *sum = NULL;
	float *params;
	size_t n_params = 0, i;
	char err[256];

	n = parse_words(table, NULL, argc, argv, args);
	if (n < 0)
		return pearl_exit_usage;
	n_blobs = n + builtin;
	if (!out || n_blobs < 1) {
		usage(stderr);
		return pearl_exit_usage;
	}
	weights = calloc((size_t)n_blobs, sizeof(*weights));
	if (!weights) {
		fprintf(stderr, "pearl-model: out of memory\n");
		return pearl_exit_error;
	}
	if (parse_weights(weight_list, weights, n_blobs) < 0) {
		free(weights);
		return pearl_exit_usage;
	}
	for (b = 0; b < n_blobs && rc == 0; ++b) {
		const char *name = b < builtin ? "--builtin"
					       : args[b - builtin];
		pearl_policy *member = load(name);

		if (!member) {
			rc = -1;
			break;
		}
		if (!result) {
			result = member;
			pearl_policy_get_params(result, &n_params);
			sum = calloc(n_params, sizeof(*sum));
			if (!sum) {
				fprintf(stderr, "pearl-model: out of "
					"memory\n");
				rc = -1;
			}
		}
		if (rc == 0)
			rc = add_member(sum, n_params, weights[b], member,
					name);
		if (member != result)
			pearl_policy_free(member);
	}
	if (rc == 0) {
		params = pearl_policy_get_params(result, &n_params);
		for (i = 0; i < n_params; ++i)
			params[i] = (float)sum[i];
		rc = pearl_policy_save_file(result, out, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "pearl-model: %s\n", err);
	}
	if (rc == 0) {
		rc = pearl_policy_blob_info(out, &info, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "pearl-model: %s\n", err);
		else
			printf("averaged %d blobs into %s: checksum "
			       "0x%016llx\n", n_blobs, out, info.checksum);
	}
	free(sum);
	free(weights);
	pearl_policy_free(result);
	return rc < 0 ? pearl_exit_error : pearl_exit_ok;
}

/* Runs the subcommand argv[0]; args has room for argc words. */
static int command(int argc, char **argv, char **args)
{
	if (!strcmp(argv[0], "init"))
		return cmd_init(argc, argv);
	if (!strcmp(argv[0], "info"))
		return cmd_info(argc, argv, args);
	if (!strcmp(argv[0], "eval"))
		return cmd_eval(argc, argv, args);
	if (!strcmp(argv[0], "average"))
		return cmd_average(argc, argv, args);
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		usage(stdout);
		return pearl_exit_ok;
	}
	usage(stderr);
	return pearl_exit_usage;
}

int main(int argc, char **argv)
{
	char **args;
	int status;

	if (argc < 2) {
		usage(stderr);
		return pearl_exit_usage;
	}
	args = calloc(argc, sizeof(*args));
	if (!args) {
		fprintf(stderr, "pearl-model: out of memory\n");
		return pearl_exit_error;
	}
	status = command(argc - 1, argv + 1, args);
	free(args);
	return status;
}
