/*
 * lib/Gen/gen_emit_c.c - prints a sized program as a C program: the same
 * loops, conditions, statements and initial values as the MLIR module of
 * gen_emit.c, for the clang plugin (passes/llvm) and its differential
 * fuzzing (tools/pearl-fuzz).
 *
 * Arrays are static globals A, B, ... of fixed size (Polly sees their
 * dimensions, as the kernels of test/LLVM do); iterators are i<level>;
 * init() fills every array with gen_emit.c's formula; kernel() holds the
 * nests (noinline, so that the plugin schedules it as one function); main
 * runs both and prints an FNV-1a checksum of the bytes of every array the
 * kernel writes, one line "NAME HASH" each.
 *
 * The program has no undefined behaviour whatever the inputs, so that
 * clang may not compile it differently with and without the plugin for
 * that reason: i32 addition, subtraction, multiplication and negation wrap
 * (computed in unsigned), divisions and remainders are by the generator's
 * positive constants, and every index stays within its array
 * (gen.c's check_node).
 */
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

static int is_float(const struct gen_prog *p)
{
	return p->type != pearl_gen_type_i32;
}

static const char *c_type(const struct gen_prog *p)
{
	switch (p->type) {
	case pearl_gen_type_f32:
		return "float";
	case pearl_gen_type_f64:
		return "double";
	default:
		return "int";
	}
}

/* A, B, ..., Z, then A1, ... */
static void array_name(struct gen_sb *s, int arr)
{
	if (arr < 26)
		gen_sb_printf(s, "%c", 'A' + arr);
	else
		gen_sb_printf(s, "%c%d", 'A' + arr % 26, arr / 26);
}

static void indent(struct gen_sb *s, int n)
{
	gen_sb_printf(s, "%.*s", n, "\t\t\t\t\t\t\t\t\t\t\t\t");
}

/* An affine expression over the iterators i<level> and one size. */
static void print_aff(struct gen_sb *s, const struct gen_prog *p,
		      const struct gen_aff *a)
{
	gen_print_aff(s, p, a, "i");
}

/* max(b[0], ...) or min(b[0], ...) through the helpers pg_max / pg_min. */
static void print_bound(struct gen_sb *s, const struct gen_prog *p,
			const struct gen_aff *b, int n, const char *fn)
{
	int i;

	for (i = 0; i + 1 < n; ++i)
		gen_sb_printf(s, "%s(", fn);
	print_aff(s, p, &b[0]);
	for (i = 1; i < n; ++i) {
		gen_sb_printf(s, ", ");
		print_aff(s, p, &b[i]);
		gen_sb_printf(s, ")");
	}
}

static void print_access(struct gen_sb *s, const struct gen_prog *p, int acc)
{
	const struct gen_access *a = &p->accesses[acc];
	int d;

	array_name(s, a->array);
	for (d = 0; d < p->arrays[a->array].rank; ++d) {
		gen_sb_printf(s, "[");
		print_aff(s, p, &a->idx[d]);
		gen_sb_printf(s, "]");
	}
}

/* A literal of the element type: "0.5f" for f32, "0.5" for f64, "3". */
static void print_literal(struct gen_sb *s, const struct gen_prog *p,
			  const char *lit)
{
	gen_sb_printf(s, "%s%s", lit, p->type == pearl_gen_type_f32 ? "f" : "");
}

static void print_expr(struct gen_sb *s, const struct gen_prog *p, int e);

/* A binary operation of ints that wraps: computed in unsigned. */
static void print_wrapping(struct gen_sb *s, const struct gen_prog *p,
			   const struct gen_expr *x, char op)
{
	gen_sb_printf(s, "(int)((unsigned)");
	print_expr(s, p, x->a);
	gen_sb_printf(s, " %c (unsigned)", op);
	print_expr(s, p, x->b);
	gen_sb_printf(s, ")");
}

static void print_binary(struct gen_sb *s, const struct gen_prog *p,
			 const struct gen_expr *x, const char *op)
{
	gen_sb_printf(s, "(");
	print_expr(s, p, x->a);
	gen_sb_printf(s, " %s ", op);
	print_expr(s, p, x->b);
	gen_sb_printf(s, ")");
}

/* The libm function `f64` ("fmax") of the element type: "fmaxf" for f32. */
static void print_math(struct gen_sb *s, const struct gen_prog *p,
		       const char *f64)
{
	gen_sb_printf(s, "%s%s", f64, p->type == pearl_gen_type_f32 ? "f" : "");
}

/* fn(a) or fn(a, b). */
static void print_call(struct gen_sb *s, const struct gen_prog *p,
		       const char *fn, int a, int b)
{
	if (is_float(p))
		print_math(s, p, fn);
	else
		gen_sb_printf(s, "%s", fn);
	gen_sb_printf(s, "(");
	print_expr(s, p, a);
	if (b >= 0) {
		gen_sb_printf(s, ", ");
		print_expr(s, p, b);
	}
	gen_sb_printf(s, ")");
}

/* Expression e, with gen_emit.c's meaning of each operation. */
static void print_expr(struct gen_sb *s, const struct gen_prog *p, int e)
{
	const struct gen_expr *x = &p->exprs[e];
	int fl = is_float(p);

	switch (x->op) {
	case GEN_OP_LOAD:
		print_access(s, p, x->access);
		return;
	case GEN_OP_CONST:
		print_literal(s, p, x->literal);
		return;
	case GEN_OP_ADD:
	case GEN_OP_SUB:
	case GEN_OP_MUL: {
		char op = x->op == GEN_OP_ADD ? '+' : x->op == GEN_OP_SUB ?
								'-' : '*';
		char ops[2] = { op, '\0' };

		if (fl)
			print_binary(s, p, x, ops);
		else
			print_wrapping(s, p, x, op);
		return;
	}
	case GEN_OP_DIV:
		print_binary(s, p, x, "/");
		return;
	case GEN_OP_REM:
		print_binary(s, p, x, "%");
		return;
	case GEN_OP_SHR:
		print_binary(s, p, x, ">>");
		return;
	case GEN_OP_MAX:
		print_call(s, p, fl ? "fmax" : "pg_max", x->a, x->b);
		return;
	case GEN_OP_MIN:
		print_call(s, p, fl ? "fmin" : "pg_min", x->a, x->b);
		return;
	case GEN_OP_SELECT:
		/* a > b ? a - b : b - a */
		gen_sb_printf(s, "(");
		print_expr(s, p, x->a);
		gen_sb_printf(s, " > ");
		print_expr(s, p, x->b);
		gen_sb_printf(s, " ? ");
		if (fl) {
			print_binary(s, p, &(struct gen_expr){ GEN_OP_SUB, x->a,
							       x->b, -1, NULL },
				     "-");
			gen_sb_printf(s, " : ");
			print_binary(s, p, &(struct gen_expr){ GEN_OP_SUB, x->b,
							       x->a, -1, NULL },
				     "-");
		} else {
			print_wrapping(s, p, &(struct gen_expr){ GEN_OP_SUB,
					x->a, x->b, -1, NULL }, '-');
			gen_sb_printf(s, " : ");
			print_wrapping(s, p, &(struct gen_expr){ GEN_OP_SUB,
					x->b, x->a, -1, NULL }, '-');
		}
		gen_sb_printf(s, ")");
		return;
	case GEN_OP_ABS:
		print_call(s, p, "fabs", x->a, -1);
		return;
	case GEN_OP_SQRT:
		print_math(s, p, "sqrt");
		gen_sb_printf(s, "(");
		print_call(s, p, "fabs", x->a, -1);
		gen_sb_printf(s, ")");
		return;
	case GEN_OP_NEG:
		if (fl) {
			gen_sb_printf(s, "(-");
			print_expr(s, p, x->a);
			gen_sb_printf(s, ")");
		} else {
			gen_sb_printf(s, "(int)(0u - (unsigned)");
			print_expr(s, p, x->a);
			gen_sb_printf(s, ")");
		}
		return;
	}
}

static void print_node(struct gen_sb *s, const struct gen_prog *p, int n,
		       int ind);

static void print_children(struct gen_sb *s, const struct gen_prog *p,
			   const int *child, int n, int ind)
{
	int i;

	for (i = 0; i < n; ++i)
		print_node(s, p, child[i], ind);
}

static void print_node(struct gen_sb *s, const struct gen_prog *p, int n,
		       int ind)
{
	const struct gen_node *node = &p->nodes[n];
	int i;

	indent(s, ind);
	if (node->kind == GEN_NODE_LOOP) {
		gen_sb_printf(s, "for (int i%d = ", node->depth);
		print_bound(s, p, node->lb, node->n_lb, "pg_max");
		gen_sb_printf(s, "; i%d < ", node->depth);
		print_bound(s, p, node->ub, node->n_ub, "pg_min");
		gen_sb_printf(s, "; i%d += %d) {\n", node->depth, node->step);
		print_children(s, p, node->child, node->n_child, ind + 1);
		indent(s, ind);
		gen_sb_printf(s, "}\n");
	} else if (node->kind == GEN_NODE_IF) {
		gen_sb_printf(s, "if (");
		for (i = 0; i < node->n_cond; ++i) {
			gen_sb_printf(s, "%s", i ? " && " : "");
			print_aff(s, p, &node->cond[i]);
			gen_sb_printf(s, " >= 0");
		}
		gen_sb_printf(s, ") {\n");
		print_children(s, p, node->child, node->n_child, ind + 1);
		indent(s, ind);
		if (node->n_else) {
			gen_sb_printf(s, "} else {\n");
			print_children(s, p, node->else_child, node->n_else,
				       ind + 1);
			indent(s, ind);
		}
		gen_sb_printf(s, "}\n");
	} else {
		print_access(s, p, node->write);
		gen_sb_printf(s, " = ");
		print_expr(s, p, node->expr);
		gen_sb_printf(s, ";\n");
	}
}

static void print_arrays(struct gen_sb *s, const struct gen_prog *p)
{
	int i, d;

	for (i = 0; i < p->n_arrays; ++i) {
		const struct gen_array *a = &p->arrays[i];

		gen_sb_printf(s, "static %s ", c_type(p));
		array_name(s, i);
		for (d = 0; d < a->rank; ++d)
			gen_sb_printf(s, "[%lld]",
				      (long long)gen_array_extent(p, a, d));
		gen_sb_printf(s, ";\n");
	}
}

/* init(): gen_emit.c's @init, element by element. */
static void print_init(struct gen_sb *s, const struct gen_prog *p)
{
	static const int coefs[] = { 1, 3, 5, 7, 11, 13, 17 };
	static const int mods[] = { 13, 17, 23, 29, 31, 37 };
	int i, d;

	gen_sb_printf(s, "static void init(void)\n{\n");
	for (i = 0; i < p->n_arrays; ++i) {
		const struct gen_array *a = &p->arrays[i];
		int m = mods[i % 6];

		for (d = 0; d < a->rank; ++d) {
			indent(s, 1 + d);
			gen_sb_printf(s, "for (long x%d = 0; x%d < %lld; "
				      "x%d++)\n", d, d,
				      (long long)gen_array_extent(p, a, d), d);
		}
		indent(s, 1 + a->rank);
		array_name(s, i);
		for (d = 0; d < a->rank; ++d)
			gen_sb_printf(s, "[x%d]", d);
		gen_sb_printf(s, " = ");
		if (is_float(p))
			gen_sb_printf(s, "(%s)(int)((", c_type(p));
		else
			gen_sb_printf(s, "(int)((");
		for (d = 0; d < a->rank; ++d)
			gen_sb_printf(s, "x%d * %d + ", d, coefs[(i + d) % 7]);
		if (is_float(p))
			gen_sb_printf(s, "%d) %% %d + 1) / (%s)%d.0;\n", i + 1,
				      m, c_type(p), m + 1);
		else
			gen_sb_printf(s, "%d) %% %d - %d);\n", i + 1, m, m / 2);
	}
	gen_sb_printf(s, "}\n");
}

static void print_kernel(struct gen_sb *s, const struct gen_prog *p)
{
	int i;

	gen_sb_printf(s, "__attribute__((noinline)) void kernel(void)\n{\n");
	for (i = 0; i < p->n_nests; ++i) {
		indent(s, 1);
		gen_sb_printf(s, "/* nest %d: %s */\n", i, p->nests[i].desc);
		print_node(s, p, p->nests[i].root, 1);
	}
	gen_sb_printf(s, "}\n");
}

static const char prelude[] =
	"#include <math.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"\n"
	"__attribute__((unused)) static inline int pg_max(int a, int b)\n"
	"{\n\treturn a > b ? a : b;\n}\n"
	"__attribute__((unused)) static inline int pg_min(int a, int b)\n"
	"{\n\treturn a < b ? a : b;\n}\n"
	"\n"
	"static void print_checksum(const char *name, const void *data, "
	"size_t size)\n"
	"{\n"
	"\tconst unsigned char *p = data;\n"
	"\tuint64_t h = 1469598103934665603ull;\n"
	"\n"
	"\tfor (size_t i = 0; i < size; i++)\n"
	"\t\th = (h ^ p[i]) * 1099511628211ull;\n"
	"\tprintf(\"%s %016llx\\n\", name, (unsigned long long)h);\n"
	"}\n\n";

static void print_main(struct gen_sb *s, const struct gen_prog *p)
{
	int i;

	gen_sb_printf(s, "int main(void)\n{\n\tinit();\n\tkernel();\n");
	for (i = 0; i < p->n_arrays; ++i) {
		if (p->arrays[i].writer < 0)
			continue;
		gen_sb_printf(s, "\tprint_checksum(\"");
		array_name(s, i);
		gen_sb_printf(s, "\", ");
		array_name(s, i);
		gen_sb_printf(s, ", sizeof(");
		array_name(s, i);
		gen_sb_printf(s, "));\n");
	}
	gen_sb_printf(s, "\treturn 0;\n}\n");
}

char *gen_emit_c(const struct gen_prog *p, const struct pearl_gen_info *info)
{
	struct gen_sb s = { NULL, 0, 0, 0 };
	char line[512], name[64];

	pearl_gen_info_str(info, p->seed, line, sizeof(line));
	pearl_gen_program_name(p->family, p->seed, name, sizeof(name));
	gen_sb_printf(&s, "/* %s: generated by pearl-gen --seed %llu "
		      "--size-scale %s%s%s --lang c\n * %s */\n",
		      name, (unsigned long long)p->seed,
		      pearl_gen_scale_name(p->scale),
		      p->family ? " --family " : "",
		      p->family ? pearl_gen_family_name(p->family) : "", line);
	gen_sb_printf(&s, "%s", prelude);
	print_arrays(&s, p);
	gen_sb_printf(&s, "\n");
	print_init(&s, p);
	gen_sb_printf(&s, "\n");
	print_kernel(&s, p);
	gen_sb_printf(&s, "\n");
	print_main(&s, p);
	return gen_sb_take(&s);
}
