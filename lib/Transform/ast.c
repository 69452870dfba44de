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
	intptr_t f = pearl_band_unroll_factor(node);

	if (f > 1) {
		if (*nodeps < 0)
			*nodeps = carries_nothing(sched, node);
		if (*nodeps)
			f = -f;
	}
	return f;
}

/* Clears *user (an int) at an affine piece that is not of the form
 * e - k * floor(e / k): a first floor division with a negative
 * coefficient. */
static isl_stat piece_is_point(__isl_take isl_set *set,
			       __isl_take isl_aff *aff, void *user)
{
	int *point = user;
	isl_val *c = NULL;

	if (isl_aff_dim(aff, isl_dim_div) > 0)
		c = isl_aff_get_coefficient_val(aff, isl_dim_div, 0);
	if (!c || isl_val_is_neg(c) != isl_bool_true)
		*point = 0;
	isl_val_free(c);
	isl_set_free(set);
	isl_aff_free(aff);
	return *point ? isl_stat_ok : isl_stat_error;
}

static isl_stat pw_is_point(__isl_take isl_pw_aff *pa, void *user)
{
	isl_stat r = isl_pw_aff_foreach_piece(pa, piece_is_point, user);

	isl_pw_aff_free(pa);
	return r;
}

/* Whether band `node` (kept) is a point loop of a tiling: its (first)
 * member is e - k * floor(e / k) for every statement, the form isl's band
 * tiling gives point loops (shifted, isl's default). */
static int is_point_band(__isl_keep isl_schedule_node *node)
{
	isl_multi_union_pw_aff *mupa;
	isl_union_pw_aff *upa;
	int point = 1;

	if (isl_schedule_node_band_n_member(node) < 1)
		return 0;
	mupa = isl_schedule_node_band_get_partial_schedule(node);
	upa = isl_multi_union_pw_aff_get_at(mupa, 0);
	isl_multi_union_pw_aff_free(mupa);
	if (!upa || isl_union_pw_aff_foreach_pw_aff(upa, pw_is_point,
						    &point) < 0)
		point = 0;
	isl_union_pw_aff_free(upa);
	return point;
}

/* Whether band `node` (kept) is a point loop of a tiling (is_point_band)
 * with no band below it. */
static int is_innermost_point_band(__isl_keep isl_schedule_node *node)
{
	return pearl_band_holds_loop(node) == 0 && is_point_band(node);
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

/* Clears *user (an int) at an affine piece with a floor division. */
static isl_stat piece_has_no_div(__isl_take isl_set *set,
				 __isl_take isl_aff *aff, void *user)
{
	int *plain = user;

	if (isl_aff_dim(aff, isl_dim_div) != 0)
		*plain = 0;
	isl_set_free(set);
	isl_aff_free(aff);
	return *plain ? isl_stat_ok : isl_stat_error;
}

static isl_stat pw_has_no_div(__isl_take isl_pw_aff *pa, void *user)
{
	isl_stat r = isl_pw_aff_foreach_piece(pa, piece_has_no_div, user);

	isl_pw_aff_free(pa);
	return r;
}

/* Whether `upa` (kept) is defined on every instance that reaches `node`
 * (kept). */
static int defined_on_domain(__isl_keep isl_union_pw_aff *upa,
			     __isl_keep isl_schedule_node *node)
{
	isl_union_set *reaching = isl_schedule_node_get_domain(node);
	isl_union_set *defined =
	    isl_union_pw_aff_domain(isl_union_pw_aff_copy(upa));
	isl_bool subset = isl_union_set_is_subset(reaching, defined);

	isl_union_set_free(reaching);
	isl_union_set_free(defined);
	return subset == isl_bool_true;
}

/* The point loop of band `node` (kept, one member of the form
 * e - k * floor(e / k)) made to run over e itself: e - k * floor(e / k)
 * plus the member k * floor(e / k) of the nearest enclosing band whose
 * sum with it has no floor division (its tile loop), or NULL if there is
 * none. Inside the tile loop that member is fixed, so the sum orders the
 * instances as the point loop does and the loop has the same iterations,
 * shifted: isl's shifted point loops (0 to k) leave every use of the
 * original iterator as a sum of the tile and point iterators, and LLVM
 * refuses to unroll a loop inside whose trip count it then finds too
 * costly to compute (PolyBench nussinov's reduction loop, tiled: 0.8x of
 * the untiled code, where the same loop is unrolled by 4). */
static __isl_give isl_union_pw_aff *unshifted_point(
    __isl_keep isl_schedule_node *node)
{
	isl_multi_union_pw_aff *mupa;
	isl_union_pw_aff *point, *sum = NULL;
	int depth = isl_schedule_node_get_tree_depth(node);
	int g, m, n, plain;

	mupa = isl_schedule_node_band_get_partial_schedule(node);
	point = isl_multi_union_pw_aff_get_at(mupa, 0);
	isl_multi_union_pw_aff_free(mupa);
	for (g = 1; g <= depth && !sum; ++g) {
		isl_schedule_node *anc = isl_schedule_node_ancestor(
		    isl_schedule_node_copy(node), g);

		if (isl_schedule_node_get_type(anc) != isl_schedule_node_band) {
			isl_schedule_node_free(anc);
			continue;
		}
		mupa = isl_schedule_node_band_get_partial_schedule(anc);
		n = isl_schedule_node_band_n_member(anc);
		isl_schedule_node_free(anc);
		for (m = 0; m < n && !sum; ++m) {
			sum = isl_union_pw_aff_add(
			    isl_multi_union_pw_aff_get_at(mupa, m),
			    isl_union_pw_aff_copy(point));
			plain = 1;
			if (!sum || isl_union_pw_aff_foreach_pw_aff(
					sum, pw_has_no_div, &plain) < 0 ||
			    !plain)
				sum = isl_union_pw_aff_free(sum);
		}
		isl_multi_union_pw_aff_free(mupa);
	}
	isl_union_pw_aff_free(point);
	if (sum && !defined_on_domain(sum, node))
		sum = isl_union_pw_aff_free(sum);
	return sum;
}

/* Band `node` (taken, one member) with its partial schedule replaced by
 * `upa` (taken), keeping its coincidence, loop type and AST build
 * options. */
static __isl_give isl_schedule_node *band_replace_schedule(
    __isl_take isl_schedule_node *node, __isl_take isl_union_pw_aff *upa)
{
	isl_bool coincident =
	    isl_schedule_node_band_member_get_coincident(node, 0);
	isl_bool permutable = isl_schedule_node_band_get_permutable(node);
	enum isl_ast_loop_type type =
	    isl_schedule_node_band_member_get_ast_loop_type(node, 0);
	isl_union_set *options =
	    isl_schedule_node_band_get_ast_build_options(node);

	node = isl_schedule_node_delete(node);
	node = isl_schedule_node_insert_partial_schedule(
	    node, isl_multi_union_pw_aff_from_union_pw_aff(upa));
	node = isl_schedule_node_band_member_set_coincident(
	    node, 0, coincident == isl_bool_true);
	node = isl_schedule_node_band_set_permutable(
	    node, permutable == isl_bool_true);
	node = isl_schedule_node_band_member_set_ast_loop_type(node, 0, type);
	return isl_schedule_node_band_set_ast_build_options(node, options);
}

/* Wraps every innermost point band in a PEARL_POINT_MARK mark, every
 * parallel band in a PEARL_PARALLEL_MARK mark, and every band to unroll
 * in a PEARL_UNROLL_MARK mark holding generated_unroll's factor, in this
 * order from the inside out, after removing the degenerate bands (whose
 * marks would have no loop of their own). The code generator unrolls the
 * loop; isl does not. */
static __isl_give isl_schedule_node *mark_bands(
    __isl_take isl_schedule_node *node, void *user)
{
	pearl_sched *sched = user;
	isl_ctx *ctx = isl_schedule_node_get_ctx(node);
	intptr_t f;
	isl_bool parallel;
	int point, nodeps = -1;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return node;
	/* A band that orders nothing goes, with its marks: isl generates no
	 * loop for it, and its mark would land on the loop below (the node
	 * is then at its child, in the band's place). */
	if (is_degenerate_band(node))
		return isl_schedule_node_delete(node);
	f = generated_unroll(sched, node, &nodeps);
	parallel = isl_schedule_node_band_member_get_coincident(node, 0);
	/* The hint against LLVM's unrolling only where its vectorizer can
	 * take the loop: a point loop that carries a dependence (a
	 * reduction) or has strided accesses gains from being unrolled
	 * (Pearl's mvt, tiled reductions: 10.7x with the hint, 19.6x
	 * without; PolyBench syrk's j loop, A[j][k]: 0.96x and 1.23x;
	 * gemm's j loop, contiguous and carrying nothing: 1.22x with it,
	 * 0.45x without). */
	point = is_innermost_point_band(node);
	if (point) {
		if (nodeps < 0)
			nodeps = carries_nothing(sched, node);
		point = nodeps && pearl_band_accesses_contiguous(sched, node);
	}
	if (isl_schedule_node_band_n_member(node) == 1 &&
	    is_point_band(node)) {
		isl_union_pw_aff *unshifted = unshifted_point(node);

		if (unshifted)
			node = band_replace_schedule(node, unshifted);
	}
	/* each insertion leaves `node` at the new mark */
	if (point)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_POINT_MARK, NULL));
	if (parallel == isl_bool_true)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_PARALLEL_MARK, NULL));
	if (f > 1 || f < -1)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_UNROLL_MARK, (void *)f));
	return node;
}

struct keeps_code {
	pearl_sched *sched;
	int same; /* no band seen so far is parallel or unrolled in MLIR */
};

/* Clears user->same (a struct keeps_code) and stops at a band that
 * generated code would run in parallel or unroll in MLIR. */
static isl_bool band_keeps_code(__isl_keep isl_schedule_node *node,
				void *user)
{
	struct keeps_code *data = user;
	int nodeps = -1;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return isl_bool_true;
	if (isl_schedule_node_band_member_get_coincident(node, 0) ==
		isl_bool_true ||
	    generated_unroll(data->sched, node, &nodeps) > 1) {
		data->same = 0;
		return isl_bool_error; /* stops the walk */
	}
	return isl_bool_true;
}

int pearl_sched_keeps_code(pearl_sched *sched)
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

__isl_give isl_ast_node *pearl_sched_build_ast(pearl_sched *sched)
{
	isl_schedule *s = isl_schedule_copy(sched->schedule);
	isl_union_set *dom = isl_schedule_get_domain(s);
	isl_ctx *ctx = isl_schedule_get_ctx(s);
	int allow_or = isl_options_get_ast_build_allow_or(ctx);
	isl_ast_build *build;
	isl_ast_node *tree;

	/* affine.if takes conjunctions only: no disjunctive conditions (the
	 * context's setting is restored, it may be borrowed). */
	isl_options_set_ast_build_allow_or(ctx, 0);
	s = isl_schedule_map_schedule_node_bottom_up(s, mark_bands, sched);
	build = isl_ast_build_from_context(isl_set_universe(
	    isl_union_set_get_space(dom)));
	isl_union_set_free(dom);
	tree = isl_ast_build_node_from_schedule(build, s);
	isl_ast_build_free(build);
	isl_options_set_ast_build_allow_or(ctx, allow_or);
	if (!tree)
		pearl_ctx_isl_error(pearl_sched_ctx(sched), "AST generation");
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
