/* The schedule being transformed: branches, validity, parallel marks. */
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/schedule_node.h>
#include <isl/union_map.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/loop_tree.h"
#include "sched_internal.h"

pearl_sched *pearl_sched_alloc(pearl_program *prog, pearl_deps *deps)
{
	pearl_sched *sched;

	sched = calloc(1, sizeof(*sched));
	if (!sched) {
		pearl_ctx_error(pearl_program_get_ctx(prog), "out of memory");
		return NULL;
	}
	sched->prog = prog;
	sched->deps = deps;
	sched->explain = 1;
	sched->schedule = pearl_split_bands(pearl_program_get_schedule(prog));
	if (!sched->schedule) {
		pearl_ctx_isl_error(pearl_program_get_ctx(prog), "schedule");
		return pearl_sched_free(sched);
	}
	return sched;
}

/* Frees the n entries of `cache` (may be NULL). */
static void loop_deps_free(struct pearl_loop_deps_entry *cache, int n)
{
	int i;

	for (i = 0; cache && i < n; ++i)
		isl_set_free(cache[i].ld.distances);
	free(cache);
}

/* Replaces the loop tree (and drops its dependence analysis) by `tree`
 * (taken) and its analysis `cache` (taken, may be NULL). */
static void set_tree(pearl_sched *sched, pearl_loop_tree *tree,
		     struct pearl_loop_deps_entry *cache)
{
	if (sched->tree)
		loop_deps_free(sched->loop_deps, sched->tree->n_nodes);
	pearl_loop_tree_free(sched->tree);
	sched->tree = tree;
	sched->loop_deps = cache;
}

pearl_sched *pearl_sched_free(pearl_sched *sched)
{
	if (!sched)
		return NULL;
	set_tree(sched, NULL, NULL);
	isl_union_map_free(sched->smap);
	isl_schedule_free(sched->schedule);
	free(sched);
	return NULL;
}

pearl_sched *pearl_sched_copy(pearl_sched *sched)
{
	pearl_sched *copy = calloc(1, sizeof(*copy));

	if (!copy)
		return NULL;
	*copy = *sched;
	copy->schedule = isl_schedule_copy(sched->schedule);
	copy->tree = NULL;
	copy->loop_deps = NULL;
	copy->smap = NULL;
	return copy;
}

void pearl_sched_swap(pearl_sched *a, pearl_sched *b)
{
	pearl_sched t = *a;

	*a = *b;
	*b = t;
}

__isl_keep isl_schedule *pearl_sched_peek(pearl_sched *sched)
{
	return sched->schedule;
}

void pearl_sched_set_explain(pearl_sched *sched, int explain)
{
	sched->explain = explain;
}

int pearl_sched_get_explain(pearl_sched *sched)
{
	return sched->explain;
}

void pearl_sched_set_verify(pearl_sched *sched, int verify)
{
	sched->verify = verify;
}

int pearl_sched_get_verify(pearl_sched *sched)
{
	return sched->verify;
}

void pearl_sched_set_copies_made(pearl_sched *sched, int made)
{
	sched->no_copies = !made;
}

int pearl_sched_get_copies_made(pearl_sched *sched)
{
	return !sched->no_copies;
}

pearl_loop_tree *pearl_sched_peek_loop_tree(pearl_sched *sched)
{
	if (!sched->tree)
		sched->tree = pearl_loop_tree_from_schedule(sched->prog,
							    sched->schedule);
	return sched->tree;
}

pearl_program *pearl_sched_get_program(pearl_sched *sched)
{
	return sched->prog;
}

pearl_deps *pearl_sched_get_deps(pearl_sched *sched)
{
	return sched->deps;
}

pearl_ctx *pearl_sched_ctx(pearl_sched *sched)
{
	return pearl_program_get_ctx(sched->prog);
}

__isl_keep isl_union_map *pearl_sched_map(pearl_sched *sched)
{
	if (!sched->smap)
		sched->smap = isl_schedule_get_map(sched->schedule);
	return sched->smap;
}

/* Splits `node` and the bands it becomes into single-member bands. */
static __isl_give isl_schedule_node *split_node(
    __isl_take isl_schedule_node *node, void *user)
{
	(void)user;
	if (isl_schedule_node_get_type(node) != isl_schedule_node_band ||
	    isl_schedule_node_band_n_member(node) <= 1)
		return node;
	node = isl_schedule_node_band_split(node, 1);
	node = isl_schedule_node_child(node, 0);
	node = split_node(node, NULL);
	return isl_schedule_node_parent(node);
}

__isl_give isl_schedule *pearl_split_bands(__isl_take isl_schedule *schedule)
{
	return isl_schedule_map_schedule_node_bottom_up(schedule, split_node,
							NULL);
}

/* The indices (into tree->nodes) of the loops of branch `b`, outermost
 * first, in loops[0..n); returns n, or -1 if there is no branch b or it
 * has more than `cap` loops. */
static int branch_loops(pearl_loop_tree *tree, int b, int *loops, int cap)
{
	int i, n = 0, k = -1;

	for (i = 0; i < tree->n_nodes; ++i)
		if (tree->nodes[i].kind == pearl_node_stmt && ++k == b)
			break;
	if (i == tree->n_nodes || tree->nodes[i].depth > cap)
		return -1;
	for (i = tree->nodes[i].parent; i > 0; i = tree->nodes[i].parent)
		if (tree->nodes[i].kind == pearl_node_loop && n < cap)
			loops[n++] = i;
	for (i = 0; i < n / 2; ++i) {
		int t = loops[i];
		loops[i] = loops[n - 1 - i];
		loops[n - 1 - i] = t;
	}
	return n;
}

int pearl_sched_n_branch(pearl_sched *sched)
{
	pearl_loop_tree *tree = pearl_sched_peek_loop_tree(sched);
	int i, n = 0;

	if (!tree)
		return -1;
	for (i = 0; i < tree->n_nodes; ++i)
		n += tree->nodes[i].kind == pearl_node_stmt;
	return n;
}

int pearl_sched_branch_loops(pearl_sched *sched, int b, int *loops, int cap)
{
	pearl_loop_tree *tree = pearl_sched_peek_loop_tree(sched);

	return tree ? branch_loops(tree, b, loops, cap) : -1;
}

int pearl_sched_branch_depth(pearl_sched *sched, int b)
{
	int loops[PEARL_MAX_DEPTH];

	return pearl_sched_branch_loops(sched, b, loops, PEARL_MAX_DEPTH);
}

__isl_give isl_schedule_node *pearl_sched_branch_loop(pearl_sched *sched,
						      int b, int level,
						      isl_set **range)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int loops[PEARL_MAX_DEPTH], n;
	pearl_loop_tree *tree;
	isl_schedule_node *node = NULL;

	tree = pearl_sched_peek_loop_tree(sched);
	if (!tree)
		return NULL;
	n = branch_loops(tree, b, loops, PEARL_MAX_DEPTH);
	if (n < 0)
		pearl_ctx_error(ctx, "branch %d does not exist (%d branches)",
				b, pearl_sched_n_branch(sched));
	else if (level < 0 || level >= n)
		pearl_ctx_error(ctx, "level %d does not exist in branch %d "
				"(%d loops)", level, b, n);
	else {
		struct pearl_tree_node *loop = &tree->nodes[loops[level]];
		node = isl_schedule_node_copy(loop->band);
		if (range) {
			*range = isl_set_copy(
			    pearl_loop_tree_range(tree, loops[level]));
			if (!*range) {
				pearl_ctx_isl_error(ctx, "loop range");
				node = isl_schedule_node_free(node);
			}
		}
	}
	return node;
}

/* The analysis of loop node `i` of `tree` into cache[i] (filled once;
 * `cache` has tree->n_nodes entries); *out gets its results with a copy of
 * the distances. */
static pearl_stat cached_loop_deps(pearl_sched *sched, pearl_loop_tree *tree,
				   struct pearl_loop_deps_entry *cache, int i,
				   struct pearl_loop_deps *out)
{
	struct pearl_loop_deps_entry *e = &cache[i];

	if (!e->done) {
		if (pearl_deps_analyze_loop(sched->deps, tree->nodes[i].band,
					    tree->nodes[i].member, &e->ld) < 0)
			return pearl_stat_error;
		e->done = e->parallel_known = e->carried_known = 1;
	}
	*out = e->ld;
	out->distances = isl_set_copy(e->ld.distances);
	if (e->ld.distances && !out->distances)
		return pearl_ctx_isl_error(pearl_sched_ctx(sched),
					   "loop dependences");
	return pearl_stat_ok;
}

/* Whether loop node `i` of `tree` is parallel (and what it carries, if
 * `carried` is not NULL), from cache[i] or into it. */
static pearl_stat cached_loop_parallel(pearl_sched *sched,
				       pearl_loop_tree *tree,
				       struct pearl_loop_deps_entry *cache,
				       int i, int *parallel, unsigned *carried)
{
	struct pearl_loop_deps_entry *e = &cache[i];

	if (!e->parallel_known || (carried && !e->carried_known)) {
		if (pearl_deps_loop_parallel(sched->deps, tree->nodes[i].band,
					     tree->nodes[i].member,
					     &e->ld.parallel,
					     carried ? &e->ld.carried : NULL) < 0)
			return pearl_stat_error;
		e->parallel_known = 1;
		/* a parallel loop carries nothing */
		e->carried_known = carried || e->ld.parallel;
		if (e->ld.parallel)
			e->ld.carried = 0;
	}
	*parallel = e->ld.parallel;
	if (carried)
		*carried = e->ld.carried;
	return pearl_stat_ok;
}

/* The index in the loop tree of loop `level` of branch b, with the
 * schedule's analysis cache allocated; -1 with an error in the context if
 * there is no such loop. */
static int branch_loop_index(pearl_sched *sched, int b, int level)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	int loops[PEARL_MAX_DEPTH], n;
	pearl_loop_tree *tree;

	tree = pearl_sched_peek_loop_tree(sched);
	if (!tree)
		return -1;
	n = branch_loops(tree, b, loops, PEARL_MAX_DEPTH);
	if (n < 0) {
		pearl_ctx_error(ctx, "branch %d does not exist (%d branches)",
				b, pearl_sched_n_branch(sched));
		return -1;
	}
	if (level < 0 || level >= n) {
		pearl_ctx_error(ctx, "level %d does not exist in branch %d "
				"(%d loops)", level, b, n);
		return -1;
	}
	if (!sched->loop_deps) {
		sched->loop_deps = calloc(tree->n_nodes,
					  sizeof(*sched->loop_deps));
		if (!sched->loop_deps) {
			pearl_ctx_error(ctx, "out of memory");
			return -1;
		}
	}
	return loops[level];
}

pearl_stat pearl_sched_branch_loop_deps(pearl_sched *sched, int b, int level,
					struct pearl_loop_deps *out)
{
	int i;

	out->distances = NULL;
	i = branch_loop_index(sched, b, level);
	if (i < 0)
		return pearl_stat_error;
	return cached_loop_deps(sched, sched->tree, sched->loop_deps, i, out);
}

pearl_stat pearl_sched_branch_loop_parallel(pearl_sched *sched, int b,
					    int level, int *parallel,
					    unsigned *carried)
{
	int i = branch_loop_index(sched, b, level);

	if (i < 0)
		return pearl_stat_error;
	return cached_loop_parallel(sched, sched->tree, sched->loop_deps, i,
				    parallel, carried);
}

pearl_stat pearl_sched_branch_loops_permutable(pearl_sched *sched, int b,
					       int level, int n,
					       int *permutable)
{
	struct pearl_loop_deps_entry *e;
	int i = branch_loop_index(sched, b, level);

	if (i < 0)
		return pearl_stat_error;
	if (n < 1 || n > PEARL_MAX_TILE_DIMS)
		return pearl_ctx_error(pearl_sched_ctx(sched), "%d loops to "
				       "permute", n);
	e = &sched->loop_deps[i];
	if (!e->permutable[n]) {
		if (pearl_deps_loops_permutable(sched->deps,
						sched->tree->nodes[i].band,
						sched->tree->nodes[i].member,
						n, permutable) < 0)
			return pearl_stat_error;
		e->permutable[n] = *permutable ? 1 : 2;
	}
	*permutable = e->permutable[n] == 1;
	return pearl_stat_ok;
}

pearl_stat pearl_sched_branch_loops_reorderable(pearl_sched *sched, int b,
					       int level, int n,
					       const int *order, int *legal)
{
	int i = branch_loop_index(sched, b, level);

	*legal = 0;
	if (i < 0)
		return pearl_stat_error;
	return pearl_deps_loops_reorderable(sched->deps,
					    sched->tree->nodes[i].band,
					    sched->tree->nodes[i].member, n,
					    order, legal);
}

pearl_stat pearl_sched_branch_loop_splits_backward(
    pearl_sched *sched, int b, int level, __isl_keep isl_union_set *before,
    __isl_keep isl_union_set *after, int *backward)
{
	int i = branch_loop_index(sched, b, level);

	*backward = 1;
	if (i < 0)
		return pearl_stat_error;
	return pearl_deps_backward_between(sched->deps,
					   sched->tree->nodes[i].band,
					   sched->tree->nodes[i].member, before,
					   after, backward);
}

pearl_stat pearl_sched_branch_loop_jammable(pearl_sched *sched, int b,
					    int level, int factor,
					    int *jammable)
{
	int depth = pearl_sched_branch_depth(sched, b);
	int i = branch_loop_index(sched, b, depth - 1);

	*jammable = 0;
	if (i < 0)
		return pearl_stat_error;
	return pearl_deps_loop_jammable(sched->deps,
					sched->tree->nodes[i].band,
					sched->tree->nodes[i].member,
					depth - level, factor, jammable);
}

/* "S0[1, 2] -> S1[0, 3]": one instance pair of `map` (kept). */
static void describe_pair(__isl_keep isl_map *map, char *buf, size_t size)
{
	isl_basic_map *pair = isl_map_sample(isl_map_copy(map));
	char *text = isl_basic_map_to_str(pair);

	snprintf(buf, size, "%s", text ? text : "?");
	free(text);
	isl_basic_map_free(pair);
}

/* The schedule of the instances in `set` (taken), one statement. */
static __isl_give isl_map *stmt_schedule(__isl_keep isl_union_map *smap,
					 __isl_take isl_set *set)
{
	isl_union_map *m = isl_union_map_intersect_domain(
	    isl_union_map_copy(smap), isl_union_set_from_set(set));
	return isl_map_from_union_map(m);
}

/* The schedule of the statement whose instances `m` (kept) maps from
 * (type isl_dim_in) or to (isl_dim_out) (__isl_give). */
static __isl_give isl_map *stmt_schedule_of(__isl_keep isl_union_map *smap,
					    __isl_keep isl_map *m,
					    enum isl_dim_type type)
{
	isl_space *space = isl_map_get_space(m);

	space = type == isl_dim_in ? isl_space_domain(space)
				   : isl_space_range(space);
	return isl_map_from_union_map(isl_union_map_intersect_domain_space(
	    isl_union_map_copy(smap), space));
}

/* Whether the set of schedule-time differences `d` (taken) has an element
 * that is not lexicographically positive (a dependence target that would
 * run before or with its source). */
static isl_bool has_nonpositive(__isl_take isl_set *d)
{
	isl_size n = isl_set_dim(d, isl_dim_set);
	isl_bool found = isl_bool_false;
	int k;

	if (n < 0)
		found = isl_bool_error;
	for (k = 0; k <= n && found == isl_bool_false; ++k) {
		/* equal on 0..k-1, then negative at k (or all equal) */
		isl_set *v = isl_set_copy(d);
		isl_bool empty;
		int j;

		for (j = 0; j < k; ++j)
			v = isl_set_fix_si(v, isl_dim_set, j, 0);
		if (k < n)
			v = isl_set_upper_bound_si(v, isl_dim_set, k, -1);
		empty = isl_set_is_empty(v);
		isl_set_free(v);
		found = empty < 0 ? isl_bool_error : !empty;
	}
	isl_set_free(d);
	return found;
}

/* Whether `schedule` map `smap` (kept) runs the target of every pair of
 * dependence `m` (kept) after its source: the dependence is mapped to
 * schedule times and its differences must be lexicographically positive.
 * Schedules of different dimensions fall back to comparing the pairs. */
static isl_bool respects(__isl_keep isl_union_map *smap, __isl_keep isl_map *m)
{
	isl_map *sa = stmt_schedule_of(smap, m, isl_dim_in);
	isl_map *sb = stmt_schedule_of(smap, m, isl_dim_out);
	isl_map *t;
	isl_size na, nb;

	na = isl_map_dim(sa, isl_dim_out);
	nb = isl_map_dim(sb, isl_dim_out);
	if (na < 0 || nb < 0 || na != nb) {
		isl_map *before;
		isl_bool empty;

		isl_map_free(sa);
		isl_map_free(sb);
		if (na < 0 || nb < 0)
			return isl_bool_error;
		before = isl_map_lex_ge_map(
		    stmt_schedule(smap, isl_map_domain(isl_map_copy(m))),
		    stmt_schedule(smap, isl_map_range(isl_map_copy(m))));
		before = isl_map_intersect(isl_map_copy(m), before);
		empty = isl_map_is_empty(before);
		isl_map_free(before);
		return empty;
	}
	/* { t_source -> t_target } for the dependent pairs */
	t = isl_map_apply_range(isl_map_apply_range(isl_map_reverse(sa),
						    isl_map_copy(m)),
				sb);
	switch (has_nonpositive(isl_map_deltas(t))) {
	case isl_bool_true:
		return isl_bool_false;
	case isl_bool_false:
		return isl_bool_true;
	default:
		return isl_bool_error;
	}
}

/* Describes a violated dependence `m` (kept): one pair of instances whose
 * target does not run after its source. */
static void describe_violation(__isl_keep isl_union_map *smap,
			       __isl_keep isl_map *m, char *buf, size_t size)
{
	isl_map *before = isl_map_lex_ge_map(
	    stmt_schedule(smap, isl_map_domain(isl_map_copy(m))),
	    stmt_schedule(smap, isl_map_range(isl_map_copy(m))));
	isl_map *bad = isl_map_intersect(isl_map_copy(m), before);

	describe_pair(bad, buf, size);
	isl_map_free(bad);
}

/* Whether `smap` and `old` (kept) schedule the statements that `m` (kept)
 * maps from and to the same way (plainly equal maps: false if unsure). */
static isl_bool same_schedules(__isl_keep isl_union_map *old,
			       __isl_keep isl_union_map *smap,
			       __isl_keep isl_map *m)
{
	enum isl_dim_type type[2] = { isl_dim_in, isl_dim_out };
	isl_bool same = isl_bool_true;
	int i;

	for (i = 0; i < 2 && same == isl_bool_true; ++i) {
		isl_map *a = stmt_schedule_of(old, m, type[i]);
		isl_map *b = stmt_schedule_of(smap, m, type[i]);

		same = isl_map_plain_is_equal(a, b);
		isl_map_free(a);
		isl_map_free(b);
	}
	return same;
}

pearl_stat pearl_sched_check_deps(pearl_sched *sched,
				  __isl_keep isl_schedule *schedule)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	isl_union_map *smap = isl_schedule_get_map(schedule);
	isl_union_map *current = pearl_sched_map(sched);
	pearl_stat st = pearl_stat_ok;
	int k, i;

	/* The current schedule respects every dependence (the program's
	 * schedule does, and each commit keeps it so): a dependence between
	 * statements it schedules the same way as `schedule` is respected. */

	for (k = 0; k < PEARL_DEP_KINDS && st == pearl_stat_ok; ++k) {
		isl_union_map *dep = pearl_deps_get(sched->deps, k);
		isl_map_list *list = isl_union_map_get_map_list(dep);
		isl_size n = isl_map_list_size(list);

		isl_union_map_free(dep);
		if (n < 0 || !smap)
			st = pearl_ctx_isl_error(ctx, "legality check");
		for (i = 0; i < n && st == pearl_stat_ok; ++i) {
			isl_map *m = isl_map_list_get_at(list, i);
			isl_bool ok = isl_bool_false;

			if (current)
				ok = same_schedules(current, smap, m);
			if (ok == isl_bool_false)
				ok = respects(smap, m);

			if (ok < 0) {
				st = pearl_ctx_isl_error(ctx, "legality check");
			} else if (!ok && !sched->explain) {
				st = pearl_ctx_error(ctx, "violates %s dependence",
						     pearl_dep_kind_name(k));
			} else if (!ok) {
				char pair[256];

				describe_violation(smap, m, pair, sizeof(pair));
				st = pearl_ctx_error(ctx, "violates %s dependence %s",
						     pearl_dep_kind_name(k), pair);
			}
			isl_map_free(m);
		}
		isl_map_list_free(list);
	}
	isl_union_map_free(smap);
	return st;
}

/* pearl_sched_check_parallel, keeping the analysis of the loops it checks
 * in `cache` (tree->n_nodes entries). */
static pearl_stat check_parallel(pearl_sched *sched, pearl_loop_tree *tree,
				 struct pearl_loop_deps_entry *cache)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	pearl_stat st = pearl_stat_ok;
	int i;

	for (i = 0; i < tree->n_nodes && st == pearl_stat_ok; ++i) {
		struct pearl_tree_node *n = &tree->nodes[i];
		int parallel;

		if (n->kind != pearl_node_loop ||
		    isl_schedule_node_band_member_get_coincident(n->band,
								 n->member) != isl_bool_true)
			continue;
		st = cached_loop_parallel(sched, tree, cache, i, &parallel,
					  NULL);
		if (st == pearl_stat_ok && !parallel)
			st = pearl_ctx_error(ctx, "the parallel loop L%d would "
					     "carry a dependence", n->loop_id);
	}
	return st;
}

pearl_stat pearl_sched_check_parallel(pearl_sched *sched,
				      pearl_loop_tree *tree)
{
	struct pearl_loop_deps_entry *cache;
	pearl_stat st;

	cache = calloc(tree->n_nodes, sizeof(*cache));
	if (!cache)
		return pearl_ctx_error(pearl_sched_ctx(sched), "out of memory");
	st = check_parallel(sched, tree, cache);
	loop_deps_free(cache, tree->n_nodes);
	return st;
}

/* Which analysis of the current schedule's loops carries over to a new
 * schedule (pearl_sched_commit and its variants). */
struct keep {
	enum { keep_none, keep_parallel, keep_outside } what;
	/* keep_outside: node `first` of the current tree and the nodes
	 * inside it changed, and the new tree has n nodes more (a tiling of
	 * n loops: n tile loops; an unroll-and-jam: the jam's loop) */
	int first, n;
};

/* The index after the last node of node i's subtree (pre-order). */
static int subtree_end(pearl_loop_tree *tree, int i)
{
	struct pearl_tree_node *node = &tree->nodes[i];

	return node->n_children == 0
		   ? i + 1
		   : subtree_end(tree, node->children[node->n_children - 1]);
}

/* For keep_outside: the node of the new tree that old node i becomes
 * (`end` is subtree_end of keep->first), or -1 for the tiled loops and
 * the nodes inside them (their outer loops changed). Everything else
 * keeps its outer loops: the ancestors of the tiled loops and the
 * subtrees beside them. */
static int kept_index(const struct keep *keep, int end, int i)
{
	if (i < keep->first)
		return i;
	if (i < end)
		return -1;
	return i + keep->n;
}

/* A fresh analysis cache for `tree` (__isl_give, NULL if out of memory),
 * with what `keep` says carries over from the current schedule's: for
 * keep_parallel (same tree shape) the parallel and carried results of
 * every loop; for keep_outside all the results of the loops outside the
 * tiled ones. Nothing carries over if the trees do not match as expected. */
static struct pearl_loop_deps_entry *new_cache(pearl_sched *sched,
					       pearl_loop_tree *tree,
					       const struct keep *keep)
{
	struct pearl_loop_deps_entry *cache, *old = sched->loop_deps;
	pearl_loop_tree *t = sched->tree;
	int n = tree->n_nodes, i, j, end = 0;

	cache = calloc(n, sizeof(*cache));
	if (!cache || keep->what == keep_none || !old || !t)
		return cache;
	if (keep->what == keep_parallel) {
		if (t->n_nodes != n)
			return cache;
		for (i = 0; i < n; ++i) {
			cache[i].parallel_known = old[i].parallel_known;
			cache[i].carried_known = old[i].carried_known;
			cache[i].ld.parallel = old[i].ld.parallel;
			cache[i].ld.carried = old[i].ld.carried;
		}
		return cache;
	}
	if (t->n_nodes + keep->n != n || keep->first < 0 ||
	    keep->first >= t->n_nodes)
		return cache;
	end = subtree_end(t, keep->first);
	for (i = 0; i < t->n_nodes; ++i) {
		j = kept_index(keep, end, i);
		if (j >= 0 && (t->nodes[i].kind != tree->nodes[j].kind ||
			       t->nodes[i].depth != tree->nodes[j].depth))
			return cache; /* not the expected shape */
	}
	for (i = 0; i < t->n_nodes; ++i) {
		j = kept_index(keep, end, i);
		if (j < 0)
			continue;
		cache[j] = old[i];
		cache[j].ld.distances = isl_set_copy(old[i].ld.distances);
		if (old[i].ld.distances && !cache[j].ld.distances)
			cache[j].done = 0;
	}
	return cache;
}

/* For verify mode: pearl_stat_ok if the full dependence check accepts
 * `schedule` (kept), which a shortcut test accepted; otherwise an error
 * saying they disagree. */
static pearl_stat verify_accepted(pearl_sched *sched,
				  __isl_keep isl_schedule *schedule)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	char why[256];

	if (pearl_sched_check_deps(sched, schedule) == pearl_stat_ok)
		return pearl_stat_ok;
	snprintf(why, sizeof(why), "%s", pearl_ctx_last_error(ctx));
	return pearl_ctx_error(ctx, "verify: a legality test accepted a "
			       "schedule that the dependence check refuses "
			       "(%s)", why);
}

pearl_stat pearl_sched_refuse(pearl_sched *sched,
			      __isl_take isl_schedule *schedule,
			      const char *test, const char *action,
			      const char *reason)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	pearl_stat st;

	if (!sched->explain && !sched->verify) {
		isl_schedule_free(schedule);
		return pearl_ctx_error(ctx, "%s", reason);
	}
	st = pearl_sched_check_deps(sched, schedule);
	isl_schedule_free(schedule);
	if (st < 0)
		return st;
	return pearl_ctx_error(ctx, "verify: the %s test refused %s, which "
			       "the dependence check accepts", test, action);
}

/* Replaces the schedule by `schedule` (taken) if its dependences are
 * respected (checked only if `check_order`) and its parallel marks hold.
 * The analysis of the loops checked is kept for the new schedule, and
 * what `keep` says of the current schedule's (the caller knows it still
 * holds). */
static pearl_stat commit(pearl_sched *sched, __isl_take isl_schedule *schedule,
			 int check_order, const struct keep *keep)
{
	struct pearl_loop_deps_entry *cache = NULL;
	pearl_loop_tree *tree = NULL;

	if (!schedule)
		return pearl_ctx_isl_error(pearl_sched_ctx(sched), "transform");
	if (!check_order && sched->verify &&
	    verify_accepted(sched, schedule) < 0) {
		isl_schedule_free(schedule);
		return pearl_stat_error;
	}
	if ((check_order && pearl_sched_check_deps(sched, schedule) < 0) ||
	    !(tree = pearl_loop_tree_from_schedule(sched->prog, schedule)) ||
	    !(cache = new_cache(sched, tree, keep)) ||
	    check_parallel(sched, tree, cache) < 0) {
		if (tree && !cache)
			pearl_ctx_error(pearl_sched_ctx(sched), "out of memory");
		if (tree)
			loop_deps_free(cache, tree->n_nodes);
		pearl_loop_tree_free(tree);
		isl_schedule_free(schedule);
		return pearl_stat_error;
	}
	isl_schedule_free(sched->schedule);
	sched->schedule = schedule;
	sched->smap = isl_union_map_free(sched->smap);
	/* the candidate's tree is the new schedule's */
	set_tree(sched, tree, cache);
	return pearl_stat_ok;
}

pearl_stat pearl_sched_commit_marked(pearl_sched *sched,
				     __isl_take isl_schedule *schedule)
{
	struct pearl_loop_deps_entry *cache;
	pearl_loop_tree *tree;
	int n;

	if (!schedule)
		return pearl_ctx_isl_error(pearl_sched_ctx(sched), "transform");
	tree = pearl_loop_tree_from_schedule(sched->prog, schedule);
	if (!tree) {
		isl_schedule_free(schedule);
		return pearl_stat_error;
	}
	/* Same loops in the same places: the analysis still holds. */
	cache = sched->loop_deps;
	n = sched->tree ? sched->tree->n_nodes : -1;
	sched->loop_deps = NULL;
	if (n != tree->n_nodes) {
		loop_deps_free(cache, n);
		cache = NULL;
	}
	isl_schedule_free(sched->schedule);
	sched->schedule = schedule;
	sched->smap = isl_union_map_free(sched->smap);
	set_tree(sched, tree, cache);
	return pearl_stat_ok;
}

pearl_stat pearl_sched_commit(pearl_sched *sched,
			      __isl_take isl_schedule *schedule)
{
	struct keep keep = { keep_none, 0, 0 };

	return commit(sched, schedule, 1, &keep);
}

pearl_stat pearl_sched_commit_tiled(pearl_sched *sched,
				    __isl_take isl_schedule *schedule, int b,
				    int l, int n)
{
	struct keep keep = { keep_outside, 0, n };

	keep.first = branch_loop_index(sched, b, l);
	if (keep.first < 0) {
		isl_schedule_free(schedule);
		return pearl_stat_error;
	}
	return commit(sched, schedule, 0, &keep);
}

pearl_stat pearl_sched_commit_jammed(pearl_sched *sched,
				     __isl_take isl_schedule *schedule, int b,
				     int l)
{
	struct keep keep = { keep_outside, 0, 1 };

	keep.first = branch_loop_index(sched, b, l);
	if (keep.first < 0) {
		isl_schedule_free(schedule);
		return pearl_stat_error;
	}
	return commit(sched, schedule, 0, &keep);
}

pearl_stat pearl_sched_commit_ordered(pearl_sched *sched,
				     __isl_take isl_schedule *schedule)
{
	struct keep keep = { keep_none, 0, 0 };

	return commit(sched, schedule, 0, &keep);
}

pearl_stat pearl_sched_commit_reversed(pearl_sched *sched,
				       __isl_take isl_schedule *schedule)
{
	struct keep keep = { keep_parallel, 0, 0 };

	return commit(sched, schedule, 0, &keep);
}
