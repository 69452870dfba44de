/* The isl AST of a transformed schedule, with parallel loops and loops to
 * unroll marked. */
#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/options.h>
#include <isl/id.h>
#include <isl/printer.h>
#include <isl/schedule_node.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdint.h>
#include <stdlib.h>

#include "pearl/deps.h"
#include "sched_internal.h"

/* Whether band `node` (kept) carries no dependence: LLVM's loop vectorizer
 * can take it when it has no loop inside. Errors count as carrying one. */
static int carries_nothing(pearl_sched *sched,
			   __isl_keep isl_schedule_node *node)
{
	int parallel;

	return pearl_deps_loop_parallel(sched->deps, node, 0, &parallel,
					NULL) == pearl_stat_ok &&
	       parallel;
}

/* The unroll factor the code generator applies to band `node` (kept): f > 1
 * to unroll in MLIR, -f for a loop to unroll that carries no dependence:
 * LLVM's loop vectorizer takes such a loop and unrolls it itself (its
 * interleave count), while unrolling it in MLIR first makes LLVM vectorize
 * across the unrolled copies with strided accesses instead (PolyBench
 * gemm, j loop: 0.4x of the plain loop). This is a heuristic: it does not
 * check that the accesses are contiguous. 0 or 1: not to unroll.
 * *nodeps (-1: not known yet) caches carries_nothing(sched, node). */
static intptr_t generated_unroll(pearl_sched *sched,
				 __isl_keep isl_schedule_node *node,
				 int *nodeps)
{
	intptr_t f = pearl_band_jam_factor(node);

	if (f > 1)
		return f; /* unroll-and-jam: always unrolled here */
	f = pearl_band_unroll_factor(node);
	if (f > 1) {
		if (*nodeps < 0)
			*nodeps = carries_nothing(sched, node);
		if (*nodeps)
			f = -f;
	}
	return f;
}

/* Whether band `node` (kept) is a point loop of a tiling
 * (pearl_band_is_point) with no band below it. */
static int is_innermost_point_band(__isl_keep isl_schedule_node *node)
{
	return pearl_band_holds_loop(node) == 0 && pearl_band_is_point(node);
}

/* Whether every member of band `node` (kept) takes a single value over
 * the instances that reach it: a band that orders nothing, as the tile
 * loops of a loop tiled by its whole extent (T on point loops of the same
 * size). isl generates no loop for it, but the band still costs AST
 * generation time, and a mark on it (parallel, unroll) would apply to the
 * next loop inside. Errors count as not degenerate. */
static int is_degenerate_band(__isl_keep isl_schedule_node *node)
{
	isl_union_map *map;
	isl_union_set *range;
	isl_set *values;
	int degenerate;

	map = isl_schedule_node_band_get_partial_schedule_union_map(node);
	map = isl_union_map_intersect_domain(
	    map, isl_schedule_node_get_domain(node));
	range = isl_union_map_range(map);
	values = isl_union_set_n_set(range) == 1
		     ? isl_set_from_union_set(isl_union_set_copy(range))
		     : NULL;
	isl_union_set_free(range);
	degenerate = values && isl_set_is_singleton(values) == isl_bool_true;
	isl_set_free(values);
	return degenerate;
}

/* Whether band `node` (kept) is fixed by the loops around it: at every
 * value of its prefix schedule, every member takes a single value over
 * the instances that reach it. Examples: the point loop of a tile loop
 * tiled again by a size its stride already covers (T(1,2,1,4) T(1,2,1,3):
 * every tile of the second tiling holds one value of the first's tile
 * loop), and tile loops skewed so that their sums are all distinct. isl
 * generates no loop for such a band either, and a mark on it lands on the
 * next loop inside, which may carry a dependence (a parallel mark there
 * is a data race). Unlike a degenerate band, it is kept: removing it
 * leaves isl to express the loops inside through the outer ones, and AST
 * generation became many times slower on some schedules (past its time
 * limit on pearl-gen --seed 69 --size-scale small, "R(2) S(1,2,3,2)
 * T(0,1,2,3,13,13) T(1,2,3,2,2,1) S(7,8,1,2)"). Errors count as not
 * fixed.
 *
 * prefix_fixes_band: whether, over the instances of `domain` (taken),
 * the prefix schedule `prefix` (kept) fixes the band's values `band`
 * (kept): the map from prefix values to band values is single-valued. */
static isl_bool prefix_fixes_band(__isl_take isl_union_set *domain,
				  __isl_keep isl_union_map *prefix,
				  __isl_keep isl_union_map *band)
{
	isl_union_map *to_prefix, *to_band, *prefix_to_band;
	isl_bool single;

	to_prefix = isl_union_map_intersect_domain(isl_union_map_copy(prefix),
						   isl_union_set_copy(domain));
	to_band = isl_union_map_intersect_domain(isl_union_map_copy(band),
						 domain);
	prefix_to_band = isl_union_map_apply_range(
	    isl_union_map_reverse(to_prefix), to_band);
	single = isl_union_map_is_single_valued(prefix_to_band);
	isl_union_map_free(prefix_to_band);
	return single;
}

/* Stops the walk over the statements of a band (an error) at one whose
 * instances alone do not fix the band: then the band is not fixed. */
struct fixed_walk {
	isl_union_map *prefix, *band; /* kept */
	isl_bool fixed;
};

static isl_stat statement_fixes_band(__isl_take isl_set *set, void *user)
{
	struct fixed_walk *w = user;

	w->fixed = prefix_fixes_band(isl_union_set_from_set(set), w->prefix,
				     w->band);
	return w->fixed == isl_bool_true ? isl_stat_ok : isl_stat_error;
}

/* The test runs per statement first: a band that one statement's
 * instances do not fix is not fixed (the common case, decided without
 * composing every statement's prefix with every other's band values),
 * and with one statement that test is the whole answer. */
static int is_fixed_by_outer_loops(__isl_keep isl_schedule_node *node)
{
	isl_union_set *domain = isl_schedule_node_get_domain(node);
	struct fixed_walk w = { NULL, NULL, isl_bool_true };
	isl_size n = isl_union_set_n_set(domain);

	w.prefix = isl_schedule_node_get_prefix_schedule_union_map(node);
	w.band = isl_schedule_node_band_get_partial_schedule_union_map(node);
	if (n < 0 || !w.prefix || !w.band)
		w.fixed = isl_bool_error;
	else
		isl_union_set_foreach_set(domain, statement_fixes_band, &w);
	if (w.fixed == isl_bool_true && n > 1)
		w.fixed = prefix_fixes_band(isl_union_set_copy(domain),
					    w.prefix, w.band);
	isl_union_map_free(w.prefix);
	isl_union_map_free(w.band);
	isl_union_set_free(domain);
	return w.fixed == isl_bool_true;
}

/* Wraps every band with a vector width (V) in a PEARL_VECTOR_MARK mark,
 * every innermost point band in a PEARL_POINT_MARK mark, every
 * parallel band in a PEARL_PARALLEL_MARK mark, every band to unroll
 * in a PEARL_UNROLL_MARK mark holding generated_unroll's factor, and every
 * band that copies its read-only arrays (K) in a PEARL_COPY_MARK mark, in
 * this order from the inside out, after removing the degenerate bands (whose
 * marks would have no loop of their own); bands fixed by the loops around
 * them get no mark. The code generator unrolls the
 * loop; isl does not. */
static __isl_give isl_schedule_node *mark_bands(
    __isl_take isl_schedule_node *node, void *user)
{
	pearl_sched *sched = user;
	isl_ctx *ctx = isl_schedule_node_get_ctx(node);
	intptr_t f, width;
	isl_bool parallel;
	int point, copies, nodeps = -1;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return node;
	/* A band that orders nothing goes, with its marks: isl generates no
	 * loop for it, and its mark would land on the loop below (the node
	 * is then at its child, in the band's place). */
	if (is_degenerate_band(node))
		return isl_schedule_node_delete(node);
	/* A band fixed by the loops around it keeps its place, without
	 * marks. */
	if (is_fixed_by_outer_loops(node))
		return node;
	f = generated_unroll(sched, node, &nodeps);
	parallel = isl_schedule_node_band_member_get_coincident(node, 0);
	/* The hint against LLVM's unrolling only where its vectorizer can
	 * take the loop: a point loop that carries a dependence (a
	 * reduction) or has strided accesses gains from being unrolled
	 * (Pearl's mvt, tiled reductions: 10.7x with the hint, 19.6x
	 * without; PolyBench syrk's j loop, A[j][k]: 0.96x and 1.23x;
	 * gemm's j loop, contiguous and carrying nothing: 1.22x with it,
	 * 0.45x without). */
	point = is_innermost_point_band(node) && !pearl_band_jam_factor(node);
	if (point) {
		if (nodeps < 0)
			nodeps = carries_nothing(sched, node);
		point = nodeps && pearl_band_accesses_contiguous(sched, node);
	}
	width = pearl_band_vector_width(node);
	copies = pearl_band_copies(node);
	node = pearl_band_unshift_point(node);
	/* each insertion leaves `node` at the new mark */
	if (width)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_VECTOR_MARK, (void *)width));
	if (point)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_POINT_MARK, NULL));
	if (parallel == isl_bool_true)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_PARALLEL_MARK, NULL));
	if (f > 1 || f < -1)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_UNROLL_MARK, (void *)f));
	if (copies)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_COPY_MARK, NULL));
	return node;
}

struct keeps_code {
	pearl_sched *sched;
	int same; /* no band seen so far is parallel, unrolled in MLIR,
		   * vectorized by a hint or copies its arrays */
};

/* Clears user->same (a struct keeps_code) and stops at a band that
 * generated code would run in parallel, unroll in MLIR, give a vector
 * width or precede with copies of its arrays. */
static isl_bool band_keeps_code(__isl_keep isl_schedule_node *node,
				void *user)
{
	struct keeps_code *data = user;
	int nodeps = -1;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return isl_bool_true;
	if (isl_schedule_node_band_member_get_coincident(node, 0) ==
		isl_bool_true ||
	    generated_unroll(data->sched, node, &nodeps) > 1 ||
	    pearl_band_vector_width(node) || pearl_band_copies(node)) {
		data->same = 0;
		return isl_bool_error; /* stops the walk */
	}
	return isl_bool_true;
}

/* pearl_sched_keeps_code without its time limit. */
static int compare_with_original(pearl_sched *sched)
{
	struct keeps_code data = {sched, 1};
	isl_schedule *orig = pearl_program_get_schedule(sched->prog);
	isl_union_map *before = isl_schedule_get_map(orig);
	isl_bool equal;

	isl_schedule_free(orig);
	equal = isl_union_map_is_equal(pearl_sched_map(sched), before);
	isl_union_map_free(before);
	if (equal == isl_bool_false)
		return 0;
	if (equal == isl_bool_true &&
	    (isl_schedule_foreach_schedule_node_top_down(
		 sched->schedule, band_keeps_code, &data) == isl_stat_ok ||
	     !data.same))
		return data.same;
	pearl_ctx_isl_error(pearl_sched_ctx(sched), "schedule comparison");
	return -1;
}

/* The comparison runs under the context's time limit: the map of a
 * schedule of skewed, twice tiled bands can take isl minutes (pearl-gen
 * --seed 110375 --size-scale small, a fuzzer-found hang of the pass). */
int pearl_sched_keeps_code(pearl_sched *sched)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	double limit = pearl_ctx_get_time_limit(ctx);
	int keeps, fired;

	pearl_ctx_watch_start(ctx, limit);
	keeps = compare_with_original(sched);
	fired = pearl_ctx_watch_stop(ctx);
	if (keeps < 0 && fired)
		pearl_ctx_time_error(ctx, "comparing the schedule with the "
				     "original", limit);
	return keeps;
}

/* The isl AST of sched's schedule with its bands marked (__isl_give;
 * NULL on an isl error, left in the isl context). *marked is set to the
 * schedule the AST is built from (__isl_give). */
static __isl_give isl_ast_node *build_marked_ast(pearl_sched *sched,
						 isl_schedule **marked)
{
	isl_schedule *s = isl_schedule_copy(sched->schedule);
	isl_union_set *dom = isl_schedule_get_domain(s);
	isl_ctx *ctx = isl_schedule_get_ctx(s);
	int allow_or = isl_options_get_ast_build_allow_or(ctx);
	isl_ast_build *build;
	isl_ast_node *tree;

	/* Disjunctive conditions are allowed (isl's default; the code
	 * generator makes nested affine.ifs of them). isl's AST generator
	 * without them (allow_or 0, which Pearl used to set because an
	 * affine.if holds conjunctions only) loses instances on skewed
	 * schedules: a whole statement (pearl-gen --seed 1208 --size-scale
	 * small, "T(0,1,3,3) S(1,2,1,-1) I(3,0) T(1,2,4,2)") or some of its
	 * instances (seed 101030, "N S(0,1) S(1,2,1,2) S(1,2,2,-1)": wrong
	 * outputs), and leaks an if node. The context's setting is restored:
	 * it may be borrowed. */
	isl_options_set_ast_build_allow_or(ctx, 1);
	s = isl_schedule_map_schedule_node_bottom_up(s, mark_bands, sched);
	build = isl_ast_build_from_context(isl_set_universe(
	    isl_union_set_get_space(dom)));
	isl_union_set_free(dom);
	*marked = isl_schedule_copy(s);
	tree = isl_ast_build_node_from_schedule(build, s);
	isl_ast_build_free(build);
	isl_options_set_ast_build_allow_or(ctx, allow_or);
	return tree;
}

/* AST generation runs under the context's time limit as well as its
 * operations quota: the quota counts isl's steps, and on some schedules
 * (tiles skewed, then their point loops skewed and tiled again) each step
 * works on integers that keep growing, so the quota alone would allow
 * minutes. */
__isl_give isl_ast_node *pearl_sched_build_ast(pearl_sched *sched)
{
	pearl_ctx *ctx = pearl_sched_ctx(sched);
	double limit = pearl_ctx_get_time_limit(ctx);
	isl_schedule *marked = NULL;
	isl_ast_node *tree;
	int fired, once;

	pearl_ctx_watch_start(ctx, limit);
	tree = build_marked_ast(sched, &marked);
	if (!pearl_ctx_get_check_ast(ctx))
		once = tree ? 1 : -1;
	else
		once = tree ? pearl_ast_runs_schedule(tree, marked, NULL) : -1;
	isl_schedule_free(marked);
	fired = pearl_ctx_watch_stop(ctx);
	if (!tree && fired)
		pearl_ctx_time_error(ctx, "AST generation (isl's code "
				     "generator on this schedule's loop "
				     "bounds)", limit);
	else if (!tree)
		pearl_ctx_isl_error(ctx, "AST generation");
	else if (once < 0 && fired)
		pearl_ctx_time_error(ctx, "the check of the AST's statement "
				     "instances", limit);
	else if (once < 0)
		pearl_ctx_isl_error(ctx, "the check of the AST's statement "
				    "instances");
	else if (!once)
		pearl_ctx_error(ctx, "AST generation: isl's code generator "
			       "runs some instances of this schedule more "
			       "than once or not at all");
	if (once != 1)
		tree = isl_ast_node_free(tree);
	return tree;
}

char *pearl_sched_ast_to_str(pearl_sched *sched)
{
	isl_ast_node *tree = pearl_sched_build_ast(sched);
	isl_printer *p;
	char *text;

	if (!tree)
		return NULL;
	p = isl_printer_to_str(isl_ast_node_get_ctx(tree));
	p = isl_printer_set_output_format(p, ISL_FORMAT_C);
	p = isl_printer_print_ast_node(p, tree);
	text = isl_printer_get_str(p);
	isl_printer_free(p);
	isl_ast_node_free(tree);
	return text;
}
