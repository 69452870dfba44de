/* The polyhedral model of one region: statements, accesses, schedule. */
#include "pearl/program.h"

#include <stdlib.h>
#include <string.h>

#include "pearl/grow.h"

struct pearl_op_count {
	char *name;
	int count;
};

struct pearl_stmt {
	isl_id *id; /* the domain's tuple id */
	isl_set *domain;
	isl_map *write; /* the statement's own write: its stored value */
	isl_map **more_writes; /* the other cells each instance writes */
	int n_more_write;
	isl_map **reads;
	int n_read;
	char *type;
	void *user;
	struct pearl_op_count *ops;
	int n_op;
	/* memo of pearl_program_stmt_is_reduction, valid if reduction_known */
	int reduction_known;
	int reduction;
};

struct pearl_program {
	pearl_ctx *ctx;
	char *name;
	struct pearl_stmt *stmts;
	int n_stmt;
	isl_schedule *schedule;
};

pearl_program *pearl_program_alloc(pearl_ctx *ctx, const char *name)
{
	pearl_program *prog = calloc(1, sizeof(*prog));

	if (!prog) {
		pearl_ctx_error(ctx, "out of memory");
		return NULL;
	}
	prog->ctx = ctx;
	prog->name = strdup(name ? name : "");
	if (!prog->name) {
		free(prog);
		pearl_ctx_error(ctx, "out of memory");
		return NULL;
	}
	return prog;
}

/* Releases what the statement at "elem" owns (a struct pearl_stmt *,
 * the element callback of pearl_grow_free). */
static void free_stmt(void *elem)
{
	struct pearl_stmt *s = elem;
	int i;

	isl_id_free(s->id);
	isl_set_free(s->domain);
	isl_map_free(s->write);
	for (i = 0; i < s->n_more_write; ++i)
		isl_map_free(s->more_writes[i]);
	free(s->more_writes);
	for (i = 0; i < s->n_read; ++i)
		isl_map_free(s->reads[i]);
	free(s->reads);
	for (i = 0; i < s->n_op; ++i)
		free(s->ops[i].name);
	free(s->ops);
	free(s->type);
}

pearl_program *pearl_program_free(pearl_program *prog)
{
	if (!prog)
		return NULL;
	pearl_grow_free(prog->stmts, prog->n_stmt, sizeof(*prog->stmts),
			&free_stmt);
	isl_schedule_free(prog->schedule);
	free(prog->name);
	free(prog);
	return NULL;
}

pearl_ctx *pearl_program_get_ctx(pearl_program *prog)
{
	return prog->ctx;
}

const char *pearl_program_get_name(pearl_program *prog)
{
	return prog->name;
}

/* 1 if `write` (kept) is an access of the instances of `domain` (kept),
 * 0 if not, -1 on error. */
static isl_bool write_matches(__isl_keep isl_set *domain,
			      __isl_keep isl_map *write)
{
	isl_set *wdom = isl_map_domain(isl_map_copy(write));
	isl_bool ok = isl_set_has_equal_space(domain, wdom);

	isl_set_free(wdom);
	return ok;
}

/* Appends `map` (taken) to the n maps at *maps; -1 if out of memory
 * (`map` is freed). */
static int append_map(isl_map ***maps, int *n, __isl_take isl_map *map)
{
	isl_map **grown = realloc(*maps, (*n + 1) * sizeof(*grown));

	if (!grown) {
		isl_map_free(map);
		return -1;
	}
	*maps = grown;
	grown[(*n)++] = map;
	return 0;
}

int pearl_program_add_stmt(pearl_program *prog, __isl_take isl_set *domain,
			   __isl_take isl_map *write, const char *elem_type,
			   void *user)
{
	struct pearl_stmt *stmts, *s;
	isl_bool ok;

	if (!domain || !write) {
		pearl_ctx_isl_error(prog->ctx, "statement");
		goto error;
	}
	if (!isl_set_has_tuple_id(domain)) {
		pearl_ctx_error(prog->ctx, "statement domain has no tuple id");
		goto error;
	}
	/* Same statement tuple; parameters may differ and are aligned. */
	domain = isl_set_align_params(domain, isl_map_get_space(write));
	write = isl_map_align_params(write, isl_set_get_space(domain));
	ok = write_matches(domain, write);
	if (ok < 0 || !ok) {
		pearl_ctx_error(prog->ctx,
				"write access does not match the statement domain");
		goto error;
	}
	stmts = realloc(prog->stmts, (prog->n_stmt + 1) * sizeof(*stmts));
	if (!stmts) {
		pearl_ctx_error(prog->ctx, "out of memory");
		goto error;
	}
	prog->stmts = stmts;
	s = &prog->stmts[prog->n_stmt];
	memset(s, 0, sizeof(*s));
	s->id = isl_set_get_tuple_id(domain);
	s->domain = domain;
	s->write = write;
	s->type = strdup(elem_type ? elem_type : "?");
	s->user = user;
	if (!s->type || !s->id) {
		s->id = isl_id_free(s->id);
		free(s->type);
		s->domain = NULL;
		s->write = NULL;
		pearl_ctx_error(prog->ctx, "out of memory");
		goto error;
	}
	return prog->n_stmt++;
error:
	isl_set_free(domain);
	isl_map_free(write);
	return -1;
}

static struct pearl_stmt *get_stmt(pearl_program *prog, int i)
{
	if (i < 0 || i >= prog->n_stmt) {
		pearl_ctx_error(prog->ctx, "no statement %d", i);
		return NULL;
	}
	return &prog->stmts[i];
}

pearl_stat pearl_program_add_read(pearl_program *prog, int stmt,
				  __isl_take isl_map *read)
{
	struct pearl_stmt *s = get_stmt(prog, stmt);

	if (!s || !read) {
		isl_map_free(read);
		return read ? pearl_stat_error
			    : pearl_ctx_isl_error(prog->ctx, "read access");
	}
	read = isl_map_align_params(read, isl_set_get_space(s->domain));
	if (!read)
		return pearl_ctx_isl_error(prog->ctx, "read access");
	s->reduction_known = 0;
	if (append_map(&s->reads, &s->n_read, read) < 0)
		return pearl_ctx_error(prog->ctx, "out of memory");
	return pearl_stat_ok;
}

pearl_stat pearl_program_add_write(pearl_program *prog, int stmt,
				   __isl_take isl_map *write)
{
	struct pearl_stmt *s = get_stmt(prog, stmt);
	isl_bool ok;

	if (!s || !write) {
		isl_map_free(write);
		return write ? pearl_stat_error
			     : pearl_ctx_isl_error(prog->ctx, "write access");
	}
	write = isl_map_align_params(write, isl_set_get_space(s->domain));
	ok = write_matches(s->domain, write);
	if (ok < 0 || !ok) {
		isl_map_free(write);
		return pearl_ctx_error(prog->ctx, "write access does not match "
				       "the statement domain");
	}
	if (append_map(&s->more_writes, &s->n_more_write, write) < 0)
		return pearl_ctx_error(prog->ctx, "out of memory");
	return pearl_stat_ok;
}

pearl_stat pearl_program_add_op_count(pearl_program *prog, int stmt,
				      const char *op, int n)
{
	struct pearl_stmt *s = get_stmt(prog, stmt);
	struct pearl_op_count *ops;
	int k;

	if (!s)
		return pearl_stat_error;
	for (k = 0; k < s->n_op; ++k)
		if (strcmp(s->ops[k].name, op) == 0) {
			s->ops[k].count += n;
			return pearl_stat_ok;
		}
	ops = realloc(s->ops, (s->n_op + 1) * sizeof(*ops));
	if (!ops)
		return pearl_ctx_error(prog->ctx, "out of memory");
	s->ops = ops;
	s->ops[s->n_op].name = strdup(op);
	if (!s->ops[s->n_op].name)
		return pearl_ctx_error(prog->ctx, "out of memory");
	s->ops[s->n_op++].count = n;
	return pearl_stat_ok;
}

pearl_stat pearl_program_set_schedule(pearl_program *prog,
				      __isl_take isl_schedule *schedule)
{
	if (!schedule)
		return pearl_ctx_isl_error(prog->ctx, "schedule");
	isl_schedule_free(prog->schedule);
	prog->schedule = schedule;
	return pearl_stat_ok;
}

int pearl_program_n_stmt(pearl_program *prog)
{
	return prog->n_stmt;
}

int pearl_program_find_stmt(pearl_program *prog, __isl_keep isl_id *id)
{
	int i;

	for (i = 0; i < prog->n_stmt; ++i)
		if (prog->stmts[i].id == id)
			return i;
	return -1;
}

__isl_keep isl_id *pearl_program_stmt_id(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->id : NULL;
}

__isl_keep isl_set *pearl_program_stmt_domain(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->domain : NULL;
}

__isl_keep isl_map *pearl_program_stmt_write(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->write : NULL;
}

int pearl_program_stmt_n_write(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? 1 + s->n_more_write : -1;
}

__isl_keep isl_map *pearl_program_stmt_write_at(pearl_program *prog, int i,
						int w)
{
	struct pearl_stmt *s = get_stmt(prog, i);

	if (!s || w < 0 || w > s->n_more_write)
		return NULL;
	return w == 0 ? s->write : s->more_writes[w - 1];
}

int pearl_program_stmt_n_read(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->n_read : -1;
}

__isl_keep isl_map *pearl_program_stmt_read(pearl_program *prog, int i, int r)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s && r >= 0 && r < s->n_read ? s->reads[r] : NULL;
}

const char *pearl_program_stmt_type(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->type : NULL;
}

void *pearl_program_stmt_user(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->user : NULL;
}

int pearl_program_stmt_n_op(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s ? s->n_op : -1;
}

const char *pearl_program_stmt_op_name(pearl_program *prog, int i, int k)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s && k >= 0 && k < s->n_op ? s->ops[k].name : NULL;
}

int pearl_program_stmt_op_count(pearl_program *prog, int i, int k)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	return s && k >= 0 && k < s->n_op ? s->ops[k].count : -1;
}

int pearl_program_stmt_is_reduction(pearl_program *prog, int i)
{
	struct pearl_stmt *s = get_stmt(prog, i);
	isl_map *write;
	isl_bool injective;
	int r;

	if (!s)
		return -1;
	if (s->reduction_known)
		return s->reduction;
	for (r = 0; r < s->n_read; ++r) {
		isl_bool eq = isl_map_is_equal(s->reads[r], s->write);
		if (eq < 0)
			return -1;
		if (eq)
			break;
	}
	if (r == s->n_read) {
		s->reduction_known = 1;
		return s->reduction = 0;
	}
	write = isl_map_intersect_domain(isl_map_copy(s->write),
					 isl_set_copy(s->domain));
	injective = isl_map_is_injective(write);
	isl_map_free(write);
	if (injective < 0)
		return -1;
	s->reduction_known = 1;
	return s->reduction = !injective;
}

__isl_give isl_union_set *pearl_program_get_domain(pearl_program *prog)
{
	isl_union_set *dom;
	int i;

	dom = isl_union_set_empty(isl_space_params_alloc(
	    pearl_ctx_get_isl(prog->ctx), 0));
	for (i = 0; i < prog->n_stmt; ++i)
		dom = isl_union_set_add_set(dom,
					    isl_set_copy(prog->stmts[i].domain));
	return dom;
}

/* The union of the accesses restricted to their statements' domains. */
static __isl_give isl_union_map *collect(pearl_program *prog, int writes)
{
	isl_union_map *acc;
	int i, r;

	acc = isl_union_map_empty(isl_space_params_alloc(
	    pearl_ctx_get_isl(prog->ctx), 0));
	for (i = 0; i < prog->n_stmt; ++i) {
		struct pearl_stmt *s = &prog->stmts[i];
		isl_map *m;

		if (writes) {
			for (r = -1; r < s->n_more_write; ++r) {
				m = r < 0 ? s->write : s->more_writes[r];
				m = isl_map_intersect_domain(
				    isl_map_copy(m), isl_set_copy(s->domain));
				acc = isl_union_map_add_map(acc, m);
			}
			continue;
		}
		for (r = 0; r < s->n_read; ++r) {
			m = isl_map_intersect_domain(isl_map_copy(s->reads[r]),
						     isl_set_copy(s->domain));
			acc = isl_union_map_add_map(acc, m);
		}
	}
	return acc;
}

__isl_give isl_union_map *pearl_program_get_reads(pearl_program *prog)
{
	return collect(prog, 0);
}

__isl_give isl_union_map *pearl_program_get_writes(pearl_program *prog)
{
	return collect(prog, 1);
}

__isl_give isl_schedule *pearl_program_get_schedule(pearl_program *prog)
{
	return isl_schedule_copy(prog->schedule);
}

__isl_keep isl_schedule *pearl_program_peek_schedule(pearl_program *prog)
{
	return prog->schedule;
}
