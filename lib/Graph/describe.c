/* Pearl's AST graph as readable text, decoded from the feature rows. */
#include <math.h>
#include <stdlib.h>

#include "pearl/features.h"
#include "pearl/str.h"

/* Inverse of sign(v) * log2(1 + |v|) / scale. */
static long unlog(float f, double scale)
{
	double m = exp2(fabs(f) * scale) - 1;

	return lround(f < 0 ? -m : m);
}

static long unclamp(float f)
{
	return lround(f * 8);
}

/* An affine row: coefficients of i0..i4 then `extra` more columns named
 * in `names` (NULL entries print as constants). */
static void append_affine(pearl_str *s, const float *row, int n_iter,
			  const char *const *names, int n_names)
{
	int i, any = 0;

	for (i = 0; i < n_iter + n_names; ++i) {
		long c = unclamp(row[i]);
		const char *name = i < n_iter ? NULL : names[i - n_iter];

		if (!c)
			continue;
		if (any)
			pearl_str_append(s, c > 0 ? " + " : " - ");
		else if (c < 0)
			pearl_str_append(s, "-");
		c = labs(c);
		if (i < n_iter) {
			if (c != 1)
				pearl_str_printf(s, "%ld*", c);
			pearl_str_printf(s, "i%d", i);
		} else if (name) {
			if (c != 1)
				pearl_str_printf(s, "%ld*", c);
			pearl_str_append(s, name);
		} else {
			pearl_str_printf(s, "%ld", c);
		}
		any = 1;
	}
	if (!any)
		pearl_str_append(s, "0");
}

static void describe_loop(pearl_str *s, const float *f)
{
	static const char *const cst[] = { NULL };
	int level;

	for (level = 0; level < PEARL_GRAPH_N_LEVELS; ++level)
		if (f[PEARL_F_LEVEL + level] > 0)
			break;
	pearl_str_printf(s, " level %d extent %ld [%ld, %ld]", level,
			 unlog(f[PEARL_F_EXTENT], 16), unlog(f[PEARL_F_LB], 16),
			 unlog(f[PEARL_F_UB], 16));
	if (f[PEARL_F_SYMBOLIC] > 0)
		pearl_str_append(s, " symbolic");
	if (f[PEARL_F_NONRECT] > 0)
		pearl_str_append(s, " nonrect");
	if (f[PEARL_F_FOCUS] > 0)
		pearl_str_append(s, " focus");
	if (f[PEARL_F_PARALLEL] > 0)
		pearl_str_append(s, " parallel");
	if (f[PEARL_F_UNROLL] > 0)
		pearl_str_printf(s, " unroll %ld", lround(exp2(f[PEARL_F_UNROLL + 1] * 5)));
	if (f[PEARL_F_TILE] > 0)
		pearl_str_printf(s, " tile %ld", lround(exp2(f[PEARL_F_TILE + 1] * 8)));
	if (f[PEARL_F_POINT] > 0)
		pearl_str_append(s, " point");
	if (f[PEARL_F_REVERSED] > 0)
		pearl_str_append(s, " reversed");
	if (f[PEARL_F_SKEWED] > 0)
		pearl_str_append(s, " skewed");
	pearl_str_append(s, " row ");
	append_affine(s, f + PEARL_F_ROW, PEARL_GRAPH_MAX_DEPTH, cst, 1);
}

/* The memory features of a loop: "mem inv 1/3 unit 1/3 strided 1/3 stride
 * 512 B foot 4096 B iter 64 B" (fractions to two places, bytes as the
 * logarithms give them back). */
static void describe_memory(pearl_str *s, const float *m)
{
	pearl_str_printf(s, " mem inv %.2f unit %.2f strided %.2f stride %ld B "
			 "foot %ld B iter %ld B", m[0], m[1], m[2],
			 unlog(m[3], 24), unlog(m[4], 32), unlog(m[5], 32));
}

static void describe_access(pearl_str *s, const char *what, const float *a)
{
	static const char *const cols[] = { "p", NULL };
	int r, b, dims = 0;

	for (b = 0; b < PEARL_GRAPH_N_BUFFER_IDS; ++b)
		if (a[1 + PEARL_GRAPH_MAX_DIMS * PEARL_GRAPH_ACCESS_COLS + b] > 0)
			break;
	for (r = 0; r < PEARL_GRAPH_MAX_DIMS; ++r) {
		int c;

		for (c = 0; c < PEARL_GRAPH_ACCESS_COLS; ++c)
			if (a[1 + r * PEARL_GRAPH_ACCESS_COLS + c] != 0)
				dims = r + 1;
	}
	pearl_str_printf(s, "\n     %-5s b%d [", what, b);
	for (r = 0; r < dims; ++r) {
		if (r)
			pearl_str_append(s, "; ");
		append_affine(s, a + 1 + r * PEARL_GRAPH_ACCESS_COLS,
			      PEARL_GRAPH_MAX_DEPTH, cols, 2);
	}
	pearl_str_append(s, "]");
}

static void describe_stmt(pearl_str *s, const float *f)
{
	static const char *const types[] = { "f32", "f64", "i32", "i64",
					     "other" };
	static const char *const ops[] = { "add", "mul", "div", "math",
					   "cmp", "cast", "other" };
	int k;

	for (k = 0; k < 5; ++k)
		if (f[PEARL_F_TYPE + k] > 0)
			pearl_str_printf(s, " %s", types[k]);
	if (f[PEARL_F_REDUCTION] > 0)
		pearl_str_append(s, " reduction");
	if (f[PEARL_F_SFOCUS] > 0)
		pearl_str_append(s, " focus");
	pearl_str_append(s, " ops");
	for (k = 0; k < 7; ++k)
		if (f[PEARL_F_OPS + k] > 0)
			pearl_str_printf(s, " %s %ld", ops[k],
					 unlog(f[PEARL_F_OPS + k], 4));
	pearl_str_printf(s, " reads %ld depth %ld",
			 lround(f[PEARL_F_NREADS] * PEARL_GRAPH_MAX_READS),
			 lround(f[PEARL_F_DEPTH] * PEARL_GRAPH_MAX_DEPTH));
	describe_access(s, "write", f + PEARL_F_WRITE);
	for (k = 0; k < PEARL_GRAPH_MAX_READS; ++k)
		if (f[PEARL_F_READS + k * PEARL_GRAPH_ACCESS_SIZE] > 0)
			describe_access(s, "read",
					f + PEARL_F_READS +
					    k * PEARL_GRAPH_ACCESS_SIZE);
}

char *pearl_graph_describe(const struct pearl_graph *g)
{
	pearl_str s = PEARL_STR_INIT;
	int i, e;

	for (i = 0; i < g->n_nodes; ++i) {
		const float *f = g->x + (size_t)i * g->n_features;

		pearl_str_printf(&s, "n%d", i);
		if (f[PEARL_F_KIND] > 0)
			pearl_str_append(&s, " root");
		else
			pearl_str_append(&s, f[PEARL_F_KIND + 1] > 0 ? " loop"
								   : " stmt");
		for (e = 0; e < g->n_edges; ++e)
			if (g->dst[e] == i)
				pearl_str_printf(&s, " <- n%d", g->src[e]);
		if (f[PEARL_F_KIND + 1] > 0)
			describe_loop(&s, f);
		if (f[PEARL_F_KIND + 1] > 0 &&
		    g->n_features >= PEARL_GRAPH_N_FEATURES)
			describe_memory(&s, f + PEARL_F_MEM);
		else if (f[PEARL_F_KIND + 2] > 0)
			describe_stmt(&s, f);
		pearl_str_append(&s, "\n");
	}
	return pearl_str_take(&s);
}
