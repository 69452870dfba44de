/*
 * lib/Gen/gen_emit.c - prints a sized program as an MLIR module in the
 * benchmark kernel contract (test/bench/kernels/README.md).
 *
 * Arguments are %A, %B, ... in order of creation; iterators are %i<level>
 * (level 0 outermost, sibling loops reuse names); constants of @kernel are
 * defined once at its top (%k<n>), values are %v<n>, affine.apply results
 * %a<n>.  @init gives element (x0, x1, ...) of array n the value
 * ((sum_d c_d x_d + n + 1) mod m + 1) / (m + 1) (floats, in (0, 1]) or
 * (sum_d c_d x_d + n + 1) mod m - m / 2 (i32), with c_d and m from small
 * tables indexed by n.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "pearl/str.h"

void gen_sb_printf(struct gen_sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->oom)
		return;
	for (;;) {
		size_t room = s->cap - s->len;

		va_start(ap, fmt);
		n = vsnprintf(s->buf ? s->buf + s->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			s->oom = 1;
			return;
		}
		if ((size_t)n < room) {
			s->len += (size_t)n;
			return;
		}
		{
			size_t cap = s->cap ? 2 * s->cap : 8192;
			char *b;

			while (cap - s->len <= (size_t)n)
				cap *= 2;
			b = realloc(s->buf, cap);
			if (!b) {
				s->oom = 1;
				return;
			}
			s->buf = b;
			s->cap = cap;
		}
	}
}

char *gen_sb_take(struct gen_sb *s)
{
	if (s->oom) {
		free(s->buf);
		return NULL;
	}
	return s->buf;
}

static void indent(struct gen_sb *s, int n)
{
	gen_sb_printf(s, "%*s", 2 * n, "");
}

static const char *type_str(const struct gen_prog *p)
{
	return pearl_gen_type_name(p->type);
}

static int is_float(const struct gen_prog *p)
{
	return p->type != pearl_gen_type_i32;
}

int64_t gen_array_extent(const struct gen_prog *p, const struct gen_array *a,
			 int d)
{
	return a->dim[d] >= 0 ? p->dim[a->dim[d]] : -a->dim[d];
}

static void memref_type(struct gen_sb *s, const struct gen_prog *p, int arr)
{
	const struct gen_array *a = &p->arrays[arr];
	int d;

	gen_sb_printf(s, "memref<");
	for (d = 0; d < a->rank; ++d)
		gen_sb_printf(s, "%lldx", (long long)gen_array_extent(p, a, d));
	gen_sb_printf(s, "%s>", type_str(p));
}

/* Argument names: A..Z, then A1.. (at most GEN_MAX_ARRAYS anyway). */
static void array_name(struct gen_sb *s, int arr)
{
	if (arr < 26)
		gen_sb_printf(s, "%%%c", 'A' + arr);
	else
		gen_sb_printf(s, "%%%c%d", 'A' + arr % 26, arr / 26);
}

static void signature(struct gen_sb *s, const struct gen_prog *p,
		      const char *name)
{
	int i;

	gen_sb_printf(s, "func.func @%s(", name);
	for (i = 0; i < p->n_arrays; ++i) {
		if (i)
			gen_sb_printf(s, ", ");
		array_name(s, i);
		gen_sb_printf(s, ": ");
		memref_type(s, p, i);
	}
	gen_sb_printf(s, ") {\n");
}

void gen_print_aff(struct gen_sb *s, const struct gen_prog *p,
		      const struct gen_aff *a, const char *prefix)
{
	int64_t k = a->k + (a->dim >= 0 ? p->dim[a->dim] : 0);
	int l, first = 1;

	for (l = 0; l < GEN_MAX_DEPTH; ++l) {
		int c = a->coef[l];

		if (!c)
			continue;
		if (first)
			gen_sb_printf(s, "%s%s%d", c < 0 ? "-" : "", prefix, l);
		else
			gen_sb_printf(s, " %c %s%d", c < 0 ? '-' : '+', prefix, l);
		if (c != 1 && c != -1)
			gen_sb_printf(s, " * %d", c < 0 ? -c : c);
		first = 0;
	}
	if (first)
		gen_sb_printf(s, "%lld", (long long)k);
	else if (k)
		gen_sb_printf(s, " %c %lld", k < 0 ? '-' : '+',
			  (long long)(k < 0 ? -k : k));
}

/* (d0, ..., d<n-1>) */
static void map_dims(struct gen_sb *s, int n)
{
	int l;

	gen_sb_printf(s, "(");
	for (l = 0; l < n; ++l)
		gen_sb_printf(s, "%sd%d", l ? ", " : "", l);
	gen_sb_printf(s, ")");
}

/* (%i0, ..., %i<n-1>) */
static void map_operands(struct gen_sb *s, int n)
{
	int l;

	gen_sb_printf(s, "(");
	for (l = 0; l < n; ++l)
		gen_sb_printf(s, "%s%%i%d", l ? ", " : "", l);
	gen_sb_printf(s, ")");
}

/* A loop bound: a constant, or an affine map (max/min of several terms)
 * over the enclosing iterators. */
static void print_bound(struct gen_sb *s, const struct gen_prog *p,
			const struct gen_aff *b, int n, int depth,
			const char *minmax)
{
	int i, dep = 0;

	for (i = 0; i < n; ++i)
		dep |= gen_aff_has_iter(&b[i]);
	if (n == 1 && !dep) {
		gen_print_aff(s, p, &b[0], "d");
		return;
	}
	if (n > 1)
		gen_sb_printf(s, "%s ", minmax);
	gen_sb_printf(s, "affine_map<");
	map_dims(s, depth);
	gen_sb_printf(s, " -> (");
	for (i = 0; i < n; ++i) {
		if (i)
			gen_sb_printf(s, ", ");
		gen_print_aff(s, p, &b[i], "d");
	}
	gen_sb_printf(s, ")>");
	map_operands(s, depth);
}

struct emitter {
	struct gen_sb *s;
	const struct gen_prog *p;
	int next_value;
	int next_apply;
	const char *consts[64];	/* literals of @kernel, by %k index */
	int n_consts;
};

static int const_index(struct emitter *em, const char *lit)
{
	return pearl_str_index(em->consts, em->n_consts, lit);
}

static void collect_consts(struct emitter *em)
{
	const struct gen_prog *p = em->p;
	int i;

	for (i = 0; i < p->n_exprs; ++i) {
		const char *lit = p->exprs[i].literal;

		if (p->exprs[i].op != GEN_OP_CONST || !lit ||
		    const_index(em, lit) >= 0)
			continue;
		if (em->n_consts < (int)(sizeof(em->consts) /
					 sizeof(em->consts[0])))
			em->consts[em->n_consts++] = lit;
	}
}

/* The index list of an access: "[%i0 + 1, %a3]"; affine.apply lines for
 * an apply_dim index are printed first (at indentation ind). */
static void print_access(struct emitter *em, int acc, int ind)
{
	const struct gen_prog *p = em->p;
	const struct gen_access *a = &p->accesses[acc];
	int apply, depth = 0, l;

	if (a->apply_dim >= 0) {
		const struct gen_aff *x = &a->idx[a->apply_dim];

		for (l = 0; l < GEN_MAX_DEPTH; ++l)
			if (x->coef[l])
				depth = l + 1;
		apply = em->next_apply++;
		indent(em->s, ind);
		gen_sb_printf(em->s, "%%a%d = affine.apply affine_map<", apply);
		map_dims(em->s, depth);
		gen_sb_printf(em->s, " -> (");
		gen_print_aff(em->s, p, x, "d");
		gen_sb_printf(em->s, ")>");
		map_operands(em->s, depth);
		gen_sb_printf(em->s, "\n");
	}
}

static void print_indices(struct emitter *em, int acc, int apply)
{
	const struct gen_prog *p = em->p;
	const struct gen_access *a = &p->accesses[acc];
	int d;

	gen_sb_printf(em->s, "[");
	for (d = 0; d < p->arrays[a->array].rank; ++d) {
		if (d)
			gen_sb_printf(em->s, ", ");
		if (d == a->apply_dim)
			gen_sb_printf(em->s, "%%a%d", apply);
		else
			gen_print_aff(em->s, p, &a->idx[d], "%i");
	}
	gen_sb_printf(em->s, "]");
}

static int emit_expr(struct emitter *em, int e, int ind);

/* A value of emit_expr: %v<n>, or the constant %k<k> for -1 - k. */
static void print_operand(struct gen_sb *s, int v)
{
	if (v < 0)
		gen_sb_printf(s, "%%k%d", -1 - v);
	else
		gen_sb_printf(s, "%%v%d", v);
}

/* %v<n> = name a : type, a new value n. */
static int emit_unary(struct emitter *em, const char *name, int a, int ind)
{
	int v = em->next_value++;

	indent(em->s, ind);
	gen_sb_printf(em->s, "%%v%d = %s ", v, name);
	print_operand(em->s, a);
	gen_sb_printf(em->s, " : %s\n", type_str(em->p));
	return v;
}

/* %v<n> = name a, b : type, a new value n. */
static int emit_binary(struct emitter *em, const char *name, int a, int b,
		       int ind)
{
	int v = em->next_value++;

	indent(em->s, ind);
	gen_sb_printf(em->s, "%%v%d = %s ", v, name);
	print_operand(em->s, a);
	gen_sb_printf(em->s, ", ");
	print_operand(em->s, b);
	gen_sb_printf(em->s, " : %s\n", type_str(em->p));
	return v;
}

/* The affine.apply of the access if any, then the affine.load. */
static int emit_load(struct emitter *em, int acc, int ind)
{
	const struct gen_prog *p = em->p;
	int apply = em->next_apply, v;

	print_access(em, acc, ind);
	v = em->next_value++;
	indent(em->s, ind);
	gen_sb_printf(em->s, "%%v%d = affine.load ", v);
	array_name(em->s, p->accesses[acc].array);
	print_indices(em, acc, apply);
	gen_sb_printf(em->s, " : ");
	memref_type(em->s, p, p->accesses[acc].array);
	gen_sb_printf(em->s, "\n");
	return v;
}

/* -a, |a| or sqrt(|a|) (floats). */
static int emit_math(struct emitter *em, const struct gen_expr *x, int ind)
{
	int a = emit_expr(em, x->a, ind);

	if (x->op == GEN_OP_NEG)
		return emit_unary(em, "arith.negf", a, ind);
	a = emit_unary(em, "math.absf", a, ind);
	if (x->op == GEN_OP_ABS)
		return a;
	return emit_unary(em, "math.sqrt", a, ind);
}

/* a > b ? a - b : b - a */
static int emit_select(struct emitter *em, const struct gen_expr *x, int ind)
{
	int fl = is_float(em->p), a, b, c, d1, d2, v;
	const char *sub = fl ? "arith.subf" : "arith.subi";

	a = emit_expr(em, x->a, ind);
	b = emit_expr(em, x->b, ind);
	c = emit_binary(em, fl ? "arith.cmpf ogt," : "arith.cmpi sgt,", a, b,
			ind);
	d1 = emit_binary(em, sub, a, b, ind);
	d2 = emit_binary(em, sub, b, a, ind);
	v = em->next_value++;
	indent(em->s, ind);
	gen_sb_printf(em->s, "%%v%d = arith.select %%v%d, %%v%d, %%v%d : %s\n",
		      v, c, d1, d2, type_str(em->p));
	return v;
}

/* The operation of a binary op on floats (fl) or i32. */
static const char *binary_name(enum gen_op op, int fl)
{
	switch (op) {
	case GEN_OP_ADD: return fl ? "arith.addf" : "arith.addi";
	case GEN_OP_SUB: return fl ? "arith.subf" : "arith.subi";
	case GEN_OP_MUL: return fl ? "arith.mulf" : "arith.muli";
	case GEN_OP_DIV: return fl ? "arith.divf" : "arith.divsi";
	case GEN_OP_REM: return "arith.remsi";
	case GEN_OP_SHR: return "arith.shrsi";
	case GEN_OP_MAX: return fl ? "arith.maximumf" : "arith.maxsi";
	default: return fl ? "arith.minimumf" : "arith.minsi";
	}
}

/* Prints the operations of expression e; returns its value number, or
 * -1 - k for the constant %k<k>. */
static int emit_expr(struct emitter *em, int e, int ind)
{
	const struct gen_expr *x = &em->p->exprs[e];
	int a, b;

	switch (x->op) {
	case GEN_OP_CONST:
		return -1 - const_index(em, x->literal);
	case GEN_OP_LOAD:
		return emit_load(em, x->access, ind);
	case GEN_OP_ABS:
	case GEN_OP_SQRT:
	case GEN_OP_NEG:
		return emit_math(em, x, ind);
	case GEN_OP_SELECT:
		return emit_select(em, x, ind);
	default:
		a = emit_expr(em, x->a, ind);
		b = emit_expr(em, x->b, ind);
		return emit_binary(em, binary_name(x->op, is_float(em->p)), a,
				   b, ind);
	}
}

static void emit_node(struct emitter *em, int n, int ind);

static void emit_children(struct emitter *em, const int *child, int n,
			  int ind)
{
	int i;

	for (i = 0; i < n; ++i)
		emit_node(em, child[i], ind);
}

static void emit_node(struct emitter *em, int n, int ind)
{
	const struct gen_prog *p = em->p;
	const struct gen_node *node = &p->nodes[n];
	struct gen_sb *s = em->s;
	int i;

	if (node->kind == GEN_NODE_LOOP) {
		indent(s, ind);
		gen_sb_printf(s, "affine.for %%i%d = ", node->depth);
		print_bound(s, p, node->lb, node->n_lb, node->depth, "max");
		gen_sb_printf(s, " to ");
		print_bound(s, p, node->ub, node->n_ub, node->depth, "min");
		if (node->step != 1)
			gen_sb_printf(s, " step %d", node->step);
		gen_sb_printf(s, " {\n");
		emit_children(em, node->child, node->n_child, ind + 1);
		indent(s, ind);
		gen_sb_printf(s, "}\n");
	} else if (node->kind == GEN_NODE_IF) {
		indent(s, ind);
		gen_sb_printf(s, "affine.if affine_set<");
		map_dims(s, node->depth);
		gen_sb_printf(s, " : (");
		for (i = 0; i < node->n_cond; ++i) {
			if (i)
				gen_sb_printf(s, ", ");
			gen_print_aff(s, p, &node->cond[i], "d");
			gen_sb_printf(s, " >= 0");
		}
		gen_sb_printf(s, ")>");
		map_operands(s, node->depth);
		gen_sb_printf(s, " {\n");
		emit_children(em, node->child, node->n_child, ind + 1);
		indent(s, ind);
		if (node->n_else) {
			gen_sb_printf(s, "} else {\n");
			emit_children(em, node->else_child, node->n_else,
				      ind + 1);
			indent(s, ind);
		}
		gen_sb_printf(s, "}\n");
	} else {
		const struct gen_access *w = &p->accesses[node->write];
		int v = emit_expr(em, node->expr, ind), apply;

		apply = em->next_apply;
		print_access(em, node->write, ind);
		indent(s, ind);
		gen_sb_printf(s, "affine.store ");
		print_operand(s, v);
		gen_sb_printf(s, ", ");
		array_name(s, w->array);
		print_indices(em, node->write, apply);
		gen_sb_printf(s, " : ");
		memref_type(s, p, w->array);
		gen_sb_printf(s, "\n");
	}
}

/* @init: every array gets the formula of the file comment. */
static void emit_init(struct gen_sb *s, const struct gen_prog *p)
{
	static const int coefs[] = { 1, 3, 5, 7, 11, 13, 17 };
	static const int mods[] = { 13, 17, 23, 29, 31, 37 };
	int i, d;

	signature(s, p, "init");
	for (i = 0; i < p->n_arrays; ++i) {
		const struct gen_array *a = &p->arrays[i];
		int m = mods[i % 6];

		for (d = 0; d < a->rank; ++d) {
			indent(s, 1 + d);
			gen_sb_printf(s, "affine.for %%i%d = 0 to %lld {\n", d,
				  (long long)gen_array_extent(p, a, d));
		}
		indent(s, 1 + a->rank);
		gen_sb_printf(s, "%%q = affine.apply affine_map<");
		map_dims(s, a->rank);
		gen_sb_printf(s, " -> ((");
		for (d = 0; d < a->rank; ++d)
			gen_sb_printf(s, "d%d * %d + ", d, coefs[(i + d) % 7]);
		if (is_float(p))
			gen_sb_printf(s, "%d) mod %d + 1)>", i + 1, m);
		else
			gen_sb_printf(s, "%d) mod %d - %d)>", i + 1, m, m / 2);
		map_operands(s, a->rank);
		gen_sb_printf(s, "\n");
		indent(s, 1 + a->rank);
		gen_sb_printf(s, "%%n = arith.index_cast %%q : index to i32\n");
		if (is_float(p)) {
			indent(s, 1 + a->rank);
			gen_sb_printf(s, "%%f = arith.sitofp %%n : i32 to %s\n",
				  type_str(p));
			indent(s, 1 + a->rank);
			gen_sb_printf(s, "%%m = arith.constant %d.0 : %s\n", m + 1,
				  type_str(p));
			indent(s, 1 + a->rank);
			gen_sb_printf(s, "%%x = arith.divf %%f, %%m : %s\n",
				  type_str(p));
		}
		indent(s, 1 + a->rank);
		gen_sb_printf(s, "affine.store %s, ", is_float(p) ? "%x" : "%n");
		array_name(s, i);
		gen_sb_printf(s, "[");
		for (d = 0; d < a->rank; ++d)
			gen_sb_printf(s, "%s%%i%d", d ? ", " : "", d);
		gen_sb_printf(s, "] : ");
		memref_type(s, p, i);
		gen_sb_printf(s, "\n");
		for (d = a->rank - 1; d >= 0; --d) {
			indent(s, 1 + d);
			gen_sb_printf(s, "}\n");
		}
	}
	gen_sb_printf(s, "  return\n}\n");
}

static void emit_kernel(struct gen_sb *s, const struct gen_prog *p)
{
	struct emitter em;
	int i;

	memset(&em, 0, sizeof(em));
	em.s = s;
	em.p = p;
	collect_consts(&em);
	signature(s, p, "kernel");
	for (i = 0; i < em.n_consts; ++i)
		gen_sb_printf(s, "  %%k%d = arith.constant %s : %s\n", i,
			  em.consts[i], type_str(p));
	for (i = 0; i < p->n_nests; ++i)
		emit_node(&em, p->nests[i].root, 1);
	gen_sb_printf(s, "  return\n}\n");
}

static void sizes_line(struct gen_sb *s, const struct gen_prog *p)
{
	static const char *const names[] = { "MINI", "SMALL", "MEDIUM",
		"LARGE", "EXTRALARGE" };
	int i, d;

	gen_sb_printf(s, "// sizes:");
	for (i = 0; i < 5; ++i) {
		gen_sb_printf(s, "%s %s", i ? " |" : "", names[i]);
		for (d = 0; d < p->n_dims; ++d)
			gen_sb_printf(s, " D%d=%lld", d, (long long)p->dim[d]);
	}
	gen_sb_printf(s, "\n");
}

char *gen_emit(const struct gen_prog *p, const struct pearl_gen_info *info)
{
	struct gen_sb s = { NULL, 0, 0, 0 };
	char line[512], name[64];
	int i, first = 1;
	unsigned long long est_ms;

	pearl_gen_info_str(info, p->seed, line, sizeof(line));
	pearl_gen_program_name(p->family, p->seed, name, sizeof(name));
	gen_sb_printf(&s, "// pearl-bench kernel: %s (pearl) generated by "
		  "pearl-gen: %d nest%s, %s\n", name,
		  p->n_nests, p->n_nests > 1 ? "s" : "", type_str(p));
	sizes_line(&s, p);
	gen_sb_printf(&s, "// outputs: ");
	for (i = 0; i < p->n_arrays; ++i)
		if (p->arrays[i].writer >= 0) {
			gen_sb_printf(&s, "%s%d", first ? "" : ",", i);
			first = 0;
		}
	gen_sb_printf(&s, "\n");
	/* integers only: the text must not depend on printf's rounding */
	est_ms = (unsigned long long)(info->est_ps / 1000000000ULL);
	gen_sb_printf(&s, "// generator: pearl-gen --seed %llu --size-scale %s%s%s "
		  "(%llu operations, estimated %llu ms unscheduled)\n",
		  (unsigned long long)p->seed,
		  pearl_gen_scale_name(p->scale),
		  p->family ? " --family " : "",
		  p->family ? pearl_gen_family_name(p->family) : "",
		  (unsigned long long)info->ops, est_ms);
	{
		const char *sp = strchr(line, ' ');

		/* "nests=.. depth=.. kinds=.. types=.. features=.." */
		gen_sb_printf(&s, "// summary:%.*s\n",
			  (int)(strstr(line, " ops=") ? strstr(line, " ops=") - sp
						      : (long)strlen(sp)), sp);
	}
	for (i = 0; i < p->n_nests; ++i)
		gen_sb_printf(&s, "// nest %d: %s\n", i, p->nests[i].desc);
	gen_sb_printf(&s, "\n");
	emit_init(&s, p);
	gen_sb_printf(&s, "\n");
	emit_kernel(&s, p);
	return gen_sb_take(&s);
}
