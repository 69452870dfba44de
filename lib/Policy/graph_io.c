/* The graph as plain data: allocation and the text format. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/error.h"
#include "pearl/graph.h"

/* Bounds on what pearl_graph_alloc and pearl_graph_read accept, far above
 * any program's AST graph, so that a bad header cannot ask for gigabytes. */
#define MAX_NODES (1 << 20)
#define MAX_FEATURES (1 << 16)
#define MAX_FLOATS ((size_t)1 << 28)

struct pearl_graph *pearl_graph_alloc(int n_nodes, int n_features,
				      int max_edges)
{
	struct pearl_graph *g;
	size_t n_x;

	if (n_nodes < 0 || n_nodes > MAX_NODES || n_features < 1 ||
	    n_features > MAX_FEATURES || max_edges < 0 ||
	    max_edges > INT_MAX / 2)
		return NULL;
	n_x = (size_t)n_nodes * (size_t)n_features;
	if (n_x > MAX_FLOATS)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->n_nodes = n_nodes;
	g->n_features = n_features;
	/* At least one element each, so that empty arrays are not NULL. */
	g->x = calloc(n_x ? n_x : 1, sizeof(float));
	g->src = calloc(max_edges ? (size_t)max_edges : 1, sizeof(int));
	g->dst = calloc(max_edges ? (size_t)max_edges : 1, sizeof(int));
	if (!g->x || !g->src || !g->dst)
		return pearl_graph_free(g);
	return g;
}

struct pearl_graph *pearl_graph_free(struct pearl_graph *graph)
{
	if (!graph)
		return NULL;
	free(graph->x);
	free(graph->src);
	free(graph->dst);
	free(graph);
	return NULL;
}

int pearl_graph_print(FILE *out, const struct pearl_graph *graph)
{
	int i, j, k;

	if (!out || !graph)
		return -1;
	fprintf(out, "graph %d %d %d\n", graph->n_nodes, graph->n_features,
		graph->n_edges);
	for (i = 0; i < graph->n_nodes; ++i) {
		const float *row = graph->x + (size_t)i * graph->n_features;
		for (j = 0; j < graph->n_features; ++j)
			fprintf(out, j ? " %.9g" : "%.9g", (double)row[j]);
		fputc('\n', out);
	}
	for (k = 0; k < graph->n_edges; ++k)
		fprintf(out, "%d %d\n", graph->src[k], graph->dst[k]);
	return ferror(out) ? -1 : 0;
}

/* The reader's state: the current line, its number, the error buffer. */
struct reader {
	FILE *in;
	char *line;
	size_t cap;
	int lineno;
	char *err;
	size_t err_size;
};

static int fail(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!r->err || r->err_size == 0)
		return -1;
	if (r->lineno > 0)
		n = snprintf(r->err, r->err_size, "line %d: ", r->lineno);
	if (n < 0 || (size_t)n >= r->err_size)
		return -1;
	va_start(ap, fmt);
	pearl_error_vprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Reports the end of the input where more was expected. */
static int fail_eof(struct reader *r, const char *what, int k, int n)
{
	int last = r->lineno;

	r->lineno = 0;
	return fail(r, "unexpected end of input after line %d: expected %s "
		       "%d of %d", last, what, k, n);
}

/* Reads the next line into r->line; -1 at the end of the input. */
static int next_line(struct reader *r)
{
	if (getline(&r->line, &r->cap, r->in) < 0)
		return -1;
	r->lineno++;
	return 0;
}

static int is_blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* Parses a decimal int at *s, advancing it. */
static int parse_int(char **s, int *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(*s, &end, 10);
	if (end == *s || errno || x < INT_MIN || x > INT_MAX)
		return -1;
	if (*end && !strchr(" \t\r\n", *end))
		return -1;
	*v = (int)x;
	*s = end;
	return 0;
}

static int parse_float(char **s, float *v)
{
	char *end;

	*v = strtof(*s, &end);
	if (end == *s || (*end && !strchr(" \t\r\n", *end)))
		return -1;
	*s = end;
	return 0;
}

static int read_header(struct reader *r, int *n_nodes, int *n_features,
		       int *n_edges)
{
	char *s;

	if (next_line(r) < 0)
		return fail(r, "empty input: expected \"graph <nodes> "
			       "<features> <edges>\"");
	s = r->line + strspn(r->line, " \t");
	if (strncmp(s, "graph", 5) != 0 || !strchr(" \t", s[5]))
		return fail(r, "expected \"graph <nodes> <features> "
			       "<edges>\"");
	s += 5;
	if (parse_int(&s, n_nodes) < 0 || parse_int(&s, n_features) < 0 ||
	    parse_int(&s, n_edges) < 0 || !is_blank(s))
		return fail(r, "expected \"graph <nodes> <features> "
			       "<edges>\"");
	if (*n_nodes < 0 || *n_nodes > MAX_NODES)
		return fail(r, "node count %d out of range 0..%d", *n_nodes,
			    MAX_NODES);
	if (*n_features < 1 || *n_features > MAX_FEATURES)
		return fail(r, "feature count %d out of range 1..%d",
			    *n_features, MAX_FEATURES);
	if ((size_t)*n_nodes * (size_t)*n_features > MAX_FLOATS)
		return fail(r, "graph too large (%d x %d features)", *n_nodes,
			    *n_features);
	if (*n_edges < 0 || *n_edges > INT_MAX / 2)
		return fail(r, "edge count %d out of range", *n_edges);
	return 0;
}

static int read_node(struct reader *r, struct pearl_graph *g, int i)
{
	float *row = g->x + (size_t)i * g->n_features;
	char *s;
	int j;

	if (next_line(r) < 0)
		return fail_eof(r, "node", i, g->n_nodes);
	s = r->line;
	for (j = 0; j < g->n_features; ++j) {
		s += strspn(s, " \t");
		if (*s == '\0' || *s == '\n' || *s == '\r')
			return fail(r, "node %d: expected %d features, got %d",
				    i, g->n_features, j);
		if (parse_float(&s, &row[j]) < 0)
			return fail(r, "node %d: feature %d is not a number",
				    i, j);
	}
	if (!is_blank(s))
		return fail(r, "node %d: more than %d features", i,
			    g->n_features);
	return 0;
}

static int read_edge(struct reader *r, struct pearl_graph *g, int k)
{
	char *s;

	if (next_line(r) < 0)
		return fail_eof(r, "edge", k, g->n_edges);
	s = r->line;
	if (parse_int(&s, &g->src[k]) < 0 || parse_int(&s, &g->dst[k]) < 0 ||
	    !is_blank(s))
		return fail(r, "edge %d: expected \"<src> <dst>\"", k);
	if (g->src[k] < 0 || g->src[k] >= g->n_nodes || g->dst[k] < 0 ||
	    g->dst[k] >= g->n_nodes)
		return fail(r, "edge %d (%d -> %d) names a missing node (the "
			       "graph has %d nodes)",
			    k, g->src[k], g->dst[k], g->n_nodes);
	return 0;
}

struct pearl_graph *pearl_graph_read(FILE *in, char *err, size_t err_size)
{
	struct reader r = { in, NULL, 0, 0, err, err_size };
	struct pearl_graph *g = NULL;
	int n_nodes = 0, n_features = 0, n_edges = 0, i, ok = 0;

	if (!in) {
		fail(&r, "no input");
		return NULL;
	}
	if (read_header(&r, &n_nodes, &n_features, &n_edges) < 0)
		goto done;
	g = pearl_graph_alloc(n_nodes, n_features, n_edges);
	if (!g) {
		fail(&r, "out of memory");
		goto done;
	}
	for (i = 0; i < n_nodes; ++i)
		if (read_node(&r, g, i) < 0)
			goto done;
	g->n_edges = n_edges;
	for (i = 0; i < n_edges; ++i)
		if (read_edge(&r, g, i) < 0)
			goto done;
	while (next_line(&r) == 0)
		if (!is_blank(r.line)) {
			fail(&r, "unexpected text after the last edge");
			goto done;
		}
	ok = 1;
done:
	free(r.line);
	if (!ok)
		return pearl_graph_free(g);
	return g;
}

struct pearl_graph *pearl_graph_copy(const struct pearl_graph *graph)
{
	struct pearl_graph *copy;

	copy = pearl_graph_alloc(graph->n_nodes, graph->n_features,
				 graph->n_edges);
	if (!copy)
		return NULL;
	memcpy(copy->x, graph->x,
	       (size_t)graph->n_nodes * graph->n_features * sizeof(float));
	if (graph->n_edges > 0) {
		memcpy(copy->src, graph->src, graph->n_edges * sizeof(int));
		memcpy(copy->dst, graph->dst, graph->n_edges * sizeof(int));
	}
	copy->n_edges = graph->n_edges;
	return copy;
}
