/* Builds the original schedule tree of a loop walk (see pearl/builder.h). */
#include "pearl/builder.h"
#include "pearl/grow.h"

#include <isl/aff.h>
#include <isl/schedule.h>
#include <isl/union_set.h>
#include <stdlib.h>

/* The items of one open body: their schedules, in textual order. */
struct body {
	isl_schedule **items;
	int n, cap;
};

struct pearl_builder {
	pearl_ctx *ctx;
	pearl_program *prog; /* NULL once finished */
	struct body *bodies; /* bodies[0] is the top level */
	int depth;           /* number of open loops */
	int cap;
};

pearl_builder *pearl_builder_alloc(pearl_ctx *ctx, const char *name)
{
	pearl_builder *b = calloc(1, sizeof(*b));

	if (!b)
		goto oom;
	b->ctx = ctx;
	b->cap = 8;
	b->bodies = calloc(b->cap, sizeof(*b->bodies));
	b->prog = pearl_program_alloc(ctx, name);
	if (!b->bodies || !b->prog) {
		pearl_builder_free(b);
		goto oom;
	}
	return b;
oom:
	pearl_ctx_error(ctx, "out of memory");
	return NULL;
}

static void clear_body(struct body *body)
{
	int i;

	for (i = 0; i < body->n; ++i)
		isl_schedule_free(body->items[i]);
	free(body->items);
	body->items = NULL;
	body->n = body->cap = 0;
}

void pearl_builder_free(pearl_builder *b)
{
	int d;

	if (!b)
		return;
	for (d = 0; b->bodies && d <= b->depth; ++d)
		clear_body(&b->bodies[d]);
	free(b->bodies);
	pearl_program_free(b->prog);
	free(b);
}

static pearl_ctx *ctx_of(pearl_builder *b)
{
	return b->ctx;
}

static pearl_stat push_item(pearl_builder *b, __isl_take isl_schedule *s)
{
	struct body *body = &b->bodies[b->depth];

	if (!s)
		return pearl_ctx_isl_error(ctx_of(b), "schedule");
	if (pearl_grow(&body->items, &body->cap, body->n + 1,
		       sizeof(*body->items)) < 0) {
		isl_schedule_free(s);
		return pearl_ctx_error(ctx_of(b), "out of memory");
	}
	body->items[body->n++] = s;
	return pearl_stat_ok;
}

/* The sequence of the items of `body` (emptied); NULL if it has none. */
static __isl_give isl_schedule *take_sequence(struct body *body)
{
	isl_schedule *s;
	int i;

	if (body->n == 0) {
		clear_body(body);
		return NULL;
	}
	s = body->items[0];
	for (i = 1; i < body->n; ++i)
		s = isl_schedule_sequence(s, body->items[i]);
	body->n = 0;
	clear_body(body);
	return s;
}

pearl_stat pearl_builder_enter_loop(pearl_builder *b)
{
	if (pearl_grow(&b->bodies, &b->cap, b->depth + 2,
		       sizeof(*b->bodies)) < 0)
		return pearl_ctx_error(ctx_of(b), "out of memory");
	b->depth++;
	b->bodies[b->depth] = (struct body){ NULL, 0, 0 };
	return pearl_stat_ok;
}

/* The partial schedule { S[i_0..i_n] -> [i_depth] } for every statement S
 * of `dom` (taken). */
static __isl_give isl_multi_union_pw_aff *iterator_schedule(
    __isl_take isl_union_set *dom, int depth)
{
	isl_set_list *sets = isl_union_set_get_set_list(dom);
	isl_union_pw_aff *upa;
	isl_size n = isl_set_list_n_set(sets);
	int i;

	upa = isl_union_pw_aff_empty(isl_union_set_get_space(dom));
	isl_union_set_free(dom);
	for (i = 0; i < n; ++i) {
		isl_set *set = isl_set_list_get_set(sets, i);
		isl_space *space = isl_set_get_space(set);
		isl_aff *aff = isl_aff_var_on_domain(
		    isl_local_space_from_space(space), isl_dim_set, depth);
		isl_set_free(set);
		upa = isl_union_pw_aff_add_pw_aff(upa, isl_pw_aff_from_aff(aff));
	}
	isl_set_list_free(sets);
	if (n < 0)
		upa = isl_union_pw_aff_free(upa);
	return isl_multi_union_pw_aff_from_union_pw_aff(upa);
}

pearl_stat pearl_builder_leave_loop(pearl_builder *b)
{
	isl_schedule *body;
	isl_multi_union_pw_aff *mupa;

	if (b->depth == 0)
		return pearl_ctx_error(ctx_of(b), "leave_loop without a loop");
	body = take_sequence(&b->bodies[b->depth]);
	b->depth--;
	if (!body)
		return pearl_stat_ok; /* a loop without statements */
	mupa = iterator_schedule(isl_schedule_get_domain(body), b->depth);
	body = isl_schedule_insert_partial_schedule(body, mupa);
	return push_item(b, body);
}

int pearl_builder_depth(pearl_builder *b)
{
	return b->depth;
}

int pearl_builder_add_stmt(pearl_builder *b, __isl_take isl_set *domain,
			   __isl_take isl_map *write, const char *elem_type,
			   void *user)
{
	isl_size dim = isl_set_dim(domain, isl_dim_set);
	isl_union_set *uset;
	int idx;

	if (domain && dim != b->depth) {
		isl_set_free(domain);
		isl_map_free(write);
		pearl_ctx_error(ctx_of(b), "statement domain has %d dimensions "
			       "at loop depth %d", (int)dim, b->depth);
		return -1;
	}
	if (!b->prog) {
		isl_set_free(domain);
		isl_map_free(write);
		pearl_ctx_error(ctx_of(b), "builder already finished");
		return -1;
	}
	uset = isl_union_set_from_set(isl_set_copy(domain));
	idx = pearl_program_add_stmt(b->prog, domain, write, elem_type, user);
	if (idx < 0) {
		isl_union_set_free(uset);
		return -1;
	}
	if (push_item(b, isl_schedule_from_domain(uset)) < 0)
		return -1;
	return idx;
}

pearl_program *pearl_builder_program(pearl_builder *b)
{
	return b->prog;
}

pearl_program *pearl_builder_finish(pearl_builder *b)
{
	pearl_program *prog;
	isl_schedule *s;

	if (!b->prog)
		return NULL;
	if (b->depth != 0) {
		pearl_ctx_error(ctx_of(b), "finish with %d open loops", b->depth);
		return NULL;
	}
	s = take_sequence(&b->bodies[0]);
	if (!s)
		s = isl_schedule_empty(isl_space_params_alloc(
		    pearl_ctx_get_isl(ctx_of(b)), 0));
	if (pearl_program_set_schedule(b->prog, s) < 0)
		return NULL;
	prog = b->prog;
	b->prog = NULL;
	return prog;
}
