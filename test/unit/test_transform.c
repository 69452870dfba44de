/* Pearl's actions on schedule trees: legality, refusals and the AST. */
#include <stdlib.h>

#include "check.h"
#include "helpers.h"
#include "pearl/transform.h"

/* Applies `text` to a fresh schedule of prog; returns the number of
 * refused actions and the AST in *ast (caller frees). */
static int apply(pearl_program *prog, const char *text, char **ast,
		 char *reason, size_t size)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *s = pearl_sched_alloc(prog, deps);
	struct pearl_action *a;
	int i, n, b = 0, refused = 0;

	reason[0] = '\0';
	n = pearl_actions_parse(ctx, text, &a);
	for (i = 0; i < n; ++i) {
		if (a[i].kind == pearl_action_next) {
			b++;
			continue;
		}
		if (pearl_sched_apply(s, b, &a[i]) < 0) {
			refused++;
			snprintf(reason, size, "%s", pearl_ctx_last_error(ctx));
		}
	}
	if (ast)
		*ast = pearl_sched_ast_to_str(s);
	free(a);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	return n < 0 ? -1 : refused;
}

static void test_matmul(pearl_ctx *ctx)
{
	pearl_program *prog = example_matmul(ctx, 100, 100, 100);
	char reason[512], *ast;

	CHECK(apply(prog, "I(0,1)", &ast, reason, sizeof(reason)) == 0);
	CHECK(ast && strstr(ast, "S0(c1, c0, c2);"));
	free(ast);
	CHECK(apply(prog, "P(0) T(0,1,32,32) U(4)", &ast, reason, sizeof(reason)) == 0);
	CHECK(ast && strstr(ast, "// parallel\nfor (int c0 = 0; c0 <= 99; c0 += 32)"));
	/* the unrolled loop is marked for the code generator, not
	 * strip-mined: it keeps all its iterations */
	CHECK(ast && strstr(ast, "// unroll\n"
				 "        for (int c4 = 0; c4 <= 99; c4 += 1)\n"));
	/* point loops run over the original iterators (not shifted to 0) */
	CHECK(ast && strstr(ast, "for (int c2 = c0; c2 <= min(99, c0 + 31); "
				 "c2 += 1)\n"));
	CHECK(ast && strstr(ast, "S0(c2, c3, c4);"));
	free(ast);
	CHECK(apply(prog, "T(0,1,2,16,16,16)", NULL, reason, sizeof(reason)) == 0);
	CHECK(apply(prog, "P(2)", NULL, reason, sizeof(reason)) == 1);
	CHECK_STR(reason, "loop 2 of branch 0 carries a dependence (RAW WAR WAW) "
			  "and cannot run in parallel");
	CHECK(apply(prog, "R(2)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strncmp(reason, "violates RAW dependence", 23) == 0);
	CHECK(apply(prog, "R(0) R(1)", NULL, reason, sizeof(reason)) == 0);
	CHECK(apply(prog, "I(0,3)", NULL, reason, sizeof(reason)) == 1);
	CHECK_STR(reason, "level 3 does not exist in branch 0 (3 loops)");
	CHECK(apply(prog, "T(1,2,128,32)", NULL, reason, sizeof(reason)) == 1);
	CHECK_STR(reason, "tile size 128 is larger than loop 1 (100 iterations)");
	/* A parallel mark moves with its loop and must stay true. */
	CHECK(apply(prog, "P(0) I(0,2)", &ast, reason, sizeof(reason)) == 0);
	CHECK(ast && strstr(ast, "// parallel\n    for (int c2"));
	free(ast);
	CHECK(apply(prog, "P(1) S(1,2,1,1)", NULL, reason, sizeof(reason)) == 1);
	CHECK_STR(reason, "the parallel loop L1 would carry a dependence");
	CHECK(apply(prog, "U(4) U(2)", NULL, reason, sizeof(reason)) == 1);
	CHECK_STR(reason, "the innermost loop of branch 0 is already unrolled");
	CHECK(apply(prog, "N P(0)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strncmp(reason, "branch 1 does not exist", 23) == 0);
	pearl_program_free(prog);
}

static void test_stencil(pearl_ctx *ctx)
{
	pearl_program *prog = example_seidel9(ctx);
	char reason[512], *ast;

	CHECK(apply(prog, "I(1,2)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strncmp(reason, "violates", 8) == 0);
	CHECK(apply(prog, "P(1)", NULL, reason, sizeof(reason)) == 1);
	CHECK(apply(prog, "T(1,2,4,4)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strstr(reason, "not permutable") != NULL);
	/* Skewing makes the inner loop a parallel wavefront and the pair
	 * tilable. */
	CHECK(apply(prog, "S(1,2) P(2)", &ast, reason, sizeof(reason)) == 0);
	CHECK(ast && strstr(ast, "// parallel"));
	free(ast);
	CHECK(apply(prog, "S(1,2,2,1) T(1,2,4,4)", &ast, reason, sizeof(reason)) == 0);
	free(ast);
	/* (i + j, j) reverses the dependence (1, -1): both refused. */
	CHECK(apply(prog, "S(1,2,1,1) T(1,2,4,4)", NULL, reason, sizeof(reason)) == 2);
	CHECK(apply(prog, "S(1,2,2,2)", NULL, reason, sizeof(reason)) == 1);
	CHECK_STR(reason, "skew factors 2, 2 are not coprime");
	pearl_program_free(prog);
}

/* A time loop t around two nests: S0 (i, j: parallel, t carries its
 * dependences) and S1 (i carries C[i-1] -> C[i]). */
static pearl_program *example_two_nests(pearl_ctx *ctx)
{
	static const char *r0[] = { "{ S0[t, i, j] -> A[i, j] }", NULL };
	static const char *r1[] = { "{ S1[t, i] -> C[i - 1] }",
				    "{ S1[t, i] -> A[i, 0] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "two_nests");

	add_stmt_str(prog, "{ S0[t, i, j] : 0 <= t < 4 and 0 <= i < 8 and "
			   "0 <= j < 8 }", "{ S0[t, i, j] -> A[i, j] }", r0);
	add_stmt_str(prog, "{ S1[t, i] : 0 <= t < 4 and 1 <= i < 8 }",
		     "{ S1[t, i] -> C[i] }", r1);
	set_schedule_str(prog,
	    "{ domain: \"{ S0[t, i, j] : 0 <= t < 4 and 0 <= i < 8 and "
	    "0 <= j < 8; S1[t, i] : 0 <= t < 4 and 1 <= i < 8 }\", "
	    "child: { schedule: \"[{ S0[t, i, j] -> [(t)]; S1[t, i] -> [(t)] }]\", "
	    "child: { sequence: [ { filter: \"{ S0[t, i, j] }\", "
	    "child: { schedule: \"[{ S0[t, i, j] -> [(i)] }]\", "
	    "child: { schedule: \"[{ S0[t, i, j] -> [(j)] }]\" } } }, "
	    "{ filter: \"{ S1[t, i] }\", "
	    "child: { schedule: \"[{ S1[t, i] -> [(i)] }]\" } } ] } } }");
	return prog;
}

/* P(l) on branch b of s: 0 if applied, else 1 with the reason in buf. */
static int try_parallel(pearl_sched *s, int b, int l, char *buf, size_t size)
{
	struct pearl_action a = { .kind = pearl_action_parallel };

	a.level[0] = l;
	buf[0] = '\0';
	if (pearl_sched_apply(s, b, &a) == pearl_stat_ok)
		return 0;
	snprintf(buf, size, "%s",
		 pearl_ctx_last_error(pearl_program_get_ctx(
		     pearl_sched_get_program(s))));
	return 1;
}

/* The analysis of loops a transformation leaves alone carries over to the
 * new schedule (U, T): the answers after it are those of a fresh schedule
 * with the same actions. */
static void test_cached_analysis(pearl_ctx *ctx)
{
	pearl_program *prog = example_two_nests(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *s = deps ? pearl_sched_alloc(prog, deps) : NULL;
	struct pearl_action tile = { .kind = pearl_action_tile, .n_level = 2,
				     .level = { 1, 2 }, .size = { 4, 4 } };
	struct pearl_action unroll = { .kind = pearl_action_unroll,
				       .factor = { 2 } };
	char before[256], after[256], reason[256], *ast;

	CHECK(s != NULL);
	if (!s)
		goto out;
	/* the answers of the untransformed schedule, now in its cache */
	CHECK(try_parallel(s, 1, 1, before, sizeof(before)) == 1);
	CHECK(strstr(before, "carries a dependence (RAW") != NULL);
	CHECK(try_parallel(s, 0, 0, reason, sizeof(reason)) == 1);
	/* U on branch 1, T on branch 0: S1's loop i and the loop t keep
	 * their outer loops */
	CHECK(pearl_sched_apply(s, 1, &unroll) == pearl_stat_ok);
	CHECK(try_parallel(s, 1, 1, after, sizeof(after)) == 1);
	CHECK_STR(after, before);
	CHECK(pearl_sched_apply(s, 0, &tile) == pearl_stat_ok);
	CHECK(try_parallel(s, 1, 1, after, sizeof(after)) == 1);
	CHECK_STR(after, before);
	CHECK(try_parallel(s, 0, 0, after, sizeof(after)) == 1);
	CHECK_STR(after, reason);
	/* the tile loop of i is new and parallel */
	CHECK(try_parallel(s, 0, 1, reason, sizeof(reason)) == 0);
	ast = pearl_sched_ast_to_str(s);
	CHECK(ast && strstr(ast, "// parallel\n  for (int c1 = 0; c1 <= 7; "
				 "c1 += 4)"));
	free(ast);
	/* a fresh schedule with the same actions answers the same */
	CHECK(apply(prog, "T(1,2,4,4) P(1) N U(2) P(1)", NULL, reason,
		    sizeof(reason)) == 1);
	CHECK_STR(reason, before);
out:
	pearl_sched_free(s);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

/* A[i][j] = A[i - 8][j + 1]: the dependence (8, -1). */
static pearl_program *example_far_recurrence(pearl_ctx *ctx)
{
	static const char *r[] = { "{ S0[i, j] -> A[i - 8, j + 1] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "far_recurrence");

	add_stmt_str(prog, "{ S0[i, j] : 8 <= i < 40 and 0 <= j < 15 }",
		     "{ S0[i, j] -> A[i, j] }", r);
	set_schedule_str(prog,
	    "{ domain: \"{ S0[i, j] : 8 <= i < 40 and 0 <= j < 15 }\", "
	    "child: { schedule: \"[{ S0[i, j] -> [(i)] }]\", "
	    "child: { schedule: \"[{ S0[i, j] -> [(j)] }]\" } } }");
	return prog;
}

/* Applies `action` to branch b of a copy of `s` (verify mode): the exact
 * test that decides it and the full dependence check of the new schedule
 * never disagree. Counts it accepted or refused. */
static void try_verified(pearl_sched *s, int b, const struct pearl_action *action,
			 const char *what, int *accepted, int *refused)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(s));
	pearl_sched *c = pearl_sched_copy(s);
	struct pearl_action a = *action;
	const char *why;

	if (!c)
		return;
	if (pearl_sched_apply(c, b, &a) == pearl_stat_ok) {
		++*accepted;
	} else {
		why = pearl_ctx_last_error(ctx);
		CHECK(strncmp(why, "verify:", 7));
		if (!strncmp(why, "verify:", 7))
			fprintf(stderr, "  %s: %s %s\n",
				pearl_program_get_name(pearl_sched_get_program(s)),
				what, why);
		++*refused;
	}
	pearl_sched_free(c);
}

/* After each of `prefixes` (NULL-terminated; the ones prog refuses are
 * skipped), in verify mode, on every branch: J(l,f) of every loop with an
 * inner loop for factors 2 to 16 (jams), every I(l1,l2) and every D(l)
 * and D(l,k) (orders). Counts the actions accepted and refused. */
static void try_everywhere(pearl_program *prog, const char **prefixes,
			   int jams, int orders, int *accepted, int *refused)
{
	static const int factors[] = { 2, 3, 4, 8, 16 };
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	pearl_deps *deps = pearl_deps_compute(prog);
	int p, b, l, k, n, depth;

	for (p = 0; prefixes[p]; ++p) {
		pearl_sched *s = pearl_sched_alloc(prog, deps);
		struct pearl_action *a = NULL;
		int i, ok = s != NULL;

		n = pearl_actions_parse(ctx, prefixes[p], &a);
		ok &= n >= 0;
		if (s)
			pearl_sched_set_verify(s, 1);
		for (i = 0, b = 0; ok && i < n; ++i)
			if (a[i].kind == pearl_action_next)
				++b;
			else
				ok = pearl_sched_apply(s, b, &a[i]) ==
				     pearl_stat_ok;
		free(a);
		for (b = 0; ok && b < pearl_sched_n_branch(s); ++b) {
			depth = pearl_sched_branch_depth(s, b);
			for (l = 0; jams && l + 1 < depth; ++l)
				for (k = 0; k < 5; ++k) {
					struct pearl_action j = {
						.kind = pearl_action_unroll_jam,
						.level = { l },
						.factor = { factors[k] } };
					try_verified(s, b, &j, prefixes[p],
						     accepted, refused);
				}
			for (l = 0; orders && l < depth; ++l)
				for (k = l + 1; k < depth; ++k) {
					struct pearl_action x = {
						.kind = pearl_action_interchange,
						.level = { l, k } };
					try_verified(s, b, &x, prefixes[p],
						     accepted, refused);
				}
			for (l = 0; orders && l < depth; ++l)
				for (k = 0; k < 4; ++k) {
					struct pearl_action d = {
						.kind = pearl_action_distribute,
						.level = { l },
						.split = k };
					try_verified(s, b, &d, prefixes[p],
						     accepted, refused);
				}
		}
		pearl_sched_free(s);
	}
	pearl_deps_free(deps);
}

static void test_unroll_and_jam(pearl_ctx *ctx)
{
	static const char *square[] = { "", "I(0,1)", "T(0,1,4,4)",
					"T(1,2,4,4)", "I(1,2) T(0,1,4,4)",
					"J(0,2)", "T(0,1,4,4) J(0,2)",
					"S(1,2)", "S(1,2) T(1,2,4,4)", NULL };
	static const char *nests[] = { "", "T(1,2,4,4)", "T(1,2,2,4) J(1,2)",
				       "I(0,1)", "D(0)", NULL };
	static const char *flat[] = { "", "S(0,1)", "T(0,1,4,4)",
				      "S(0,1) T(0,1,8,4)", NULL };
	pearl_program *progs[4];
	const char **prefixes[4] = { square, square, nests, flat };
	int accepted = 0, refused = 0, i;
	char reason[512];

	progs[0] = example_matmul(ctx, 12, 10, 9);
	progs[1] = example_seidel9(ctx);
	progs[2] = example_two_nests(ctx);
	progs[3] = example_far_recurrence(ctx);
	for (i = 0; i < 4; ++i)
		try_everywhere(progs[i], prefixes[i], 1, 0, &accepted,
			       &refused);
	/* both answers were given often */
	CHECK(accepted >= 100 && refused >= 100);
	/* The dependence (8, -1) only reverses when a group of copies
	 * holds both of its ends: a factor above 8. */
	CHECK(apply(progs[3], "J(0,4)", NULL, reason, sizeof(reason)) == 0);
	CHECK(apply(progs[3], "J(0,8)", NULL, reason, sizeof(reason)) == 0);
	CHECK(apply(progs[3], "J(0,9)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strncmp(reason, "violates RAW dependence", 23) == 0);
	/* On a tile loop (its values step by the tile size), a jam by the
	 * tile size groups one tile: nothing moves. */
	CHECK(apply(progs[1], "S(1,2) T(1,2,4,4) J(1,4)", NULL, reason,
		    sizeof(reason)) == 0);
	/* by 8, two tiles: the pairs across their border turn around */
	CHECK(apply(progs[1], "S(1,2) T(1,2,4,4) J(1,8)", NULL, reason,
		    sizeof(reason)) == 1);
	CHECK(strncmp(reason, "violates RAW dependence", 23) == 0);
	for (i = 0; i < 4; ++i)
		pearl_program_free(progs[i]);
}

/* One loop i over three parts: S0 writes A[i]; S1 reads A[i - 1] and
 * writes B[i]; S2 reads B[i + 1], which S1 overwrites at i + 1. */
static pearl_program *example_three_parts(pearl_ctx *ctx)
{
	static const char *r1[] = { "{ S1[i] -> A[i - 1] }", NULL };
	static const char *r2[] = { "{ S2[i] -> B[i + 1] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "three_parts");

	add_stmt_str(prog, "{ S0[i] : 1 <= i < 20 }", "{ S0[i] -> A[i] }",
		     NULL);
	add_stmt_str(prog, "{ S1[i] : 1 <= i < 20 }", "{ S1[i] -> B[i] }", r1);
	add_stmt_str(prog, "{ S2[i] : 1 <= i < 19 }", "{ S2[i] -> C[i] }", r2);
	set_schedule_str(prog,
	    "{ domain: \"{ S0[i] : 1 <= i < 20; S1[i] : 1 <= i < 20; "
	    "S2[i] : 1 <= i < 19 }\", "
	    "child: { schedule: \"[{ S0[i] -> [(i)]; S1[i] -> [(i)]; "
	    "S2[i] -> [(i)] }]\", "
	    "child: { sequence: [ { filter: \"{ S0[i] }\" }, "
	    "{ filter: \"{ S1[i] }\" }, { filter: \"{ S2[i] }\" } ] } } }");
	return prog;
}

/* The reason `text` is refused on a fresh schedule of prog that does not
 * explain its refusals (as the agent's episodes run): 1 if refused. */
static int refused_unexplained(pearl_program *prog, const char *text,
			       char *reason, size_t size)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *s = pearl_sched_alloc(prog, deps);
	struct pearl_action *a = NULL;
	int refused = 0;

	reason[0] = '\0';
	pearl_sched_set_explain(s, 0);
	if (pearl_actions_parse(ctx, text, &a) == 1 &&
	    pearl_sched_apply(s, 0, &a[0]) < 0) {
		refused = 1;
		snprintf(reason, size, "%s", pearl_ctx_last_error(ctx));
	}
	free(a);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	return refused;
}

/* Interchange and distribution are decided by exact tests on the
 * dependences (no full check unless a refusal is explained): in verify
 * mode, the tests and the full check agree on every I and D after a
 * variety of schedules. */
static void test_exact_orders(pearl_ctx *ctx)
{
	static const char *square[] = { "", "T(0,1,4,4)", "T(1,2,4,4)",
					"S(1,2)", "S(1,2) T(1,2,4,4)",
					"I(0,1)", "R(1)", "J(0,2)", NULL };
	static const char *nests[] = { "", "I(1,2)", "D(0)", "T(1,2,4,4)",
				       "N R(1)", NULL };
	static const char *parts[] = { "", "D(0,1)", NULL };
	static const char *flat[] = { "", "S(0,1)", "T(0,1,4,4)", NULL };
	const char **prefixes[5] = { square, square, nests, parts, flat };
	pearl_program *progs[5];
	int accepted = 0, refused = 0, i;
	char reason[512];

	progs[0] = example_matmul(ctx, 12, 10, 9);
	progs[1] = example_seidel9(ctx);
	progs[2] = example_two_nests(ctx);
	progs[3] = example_three_parts(ctx);
	progs[4] = example_far_recurrence(ctx);
	for (i = 0; i < 5; ++i)
		try_everywhere(progs[i], prefixes[i], 0, 1, &accepted,
			       &refused);
	CHECK(accepted >= 30 && refused >= 30);

	/* S1 may leave S0's loop, not S2's */
	CHECK(apply(progs[3], "D(0,1)", NULL, reason, sizeof(reason)) == 0);
	CHECK(apply(progs[3], "D(0,2)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strncmp(reason, "violates WAR dependence", 23) == 0);
	CHECK(apply(progs[3], "D(0)", NULL, reason, sizeof(reason)) == 1);
	CHECK(refused_unexplained(progs[3], "D(0)", reason, sizeof(reason)));
	CHECK_STR(reason, "distributing loop 0 runs a dependence from a later "
			  "part to an earlier one");
	/* (0, 1, -1) turns around */
	CHECK(apply(progs[1], "I(1,2)", NULL, reason, sizeof(reason)) == 1);
	CHECK(strncmp(reason, "violates RAW dependence", 23) == 0);
	CHECK(refused_unexplained(progs[1], "I(1,2)", reason, sizeof(reason)));
	CHECK_STR(reason, "interchanging loops 1 and 2 reverses a dependence");
	/* (8, -1) and seidel's (1, -1, 0) too; none of matmul's */
	CHECK(refused_unexplained(progs[4], "I(0,1)", reason, sizeof(reason)));
	CHECK(refused_unexplained(progs[1], "I(0,1)", reason, sizeof(reason)));
	CHECK(!refused_unexplained(progs[0], "I(0,2)", reason, sizeof(reason)));
	CHECK(!refused_unexplained(progs[0], "I(1,2)", reason, sizeof(reason)));
	for (i = 0; i < 5; ++i)
		pearl_program_free(progs[i]);
}

static void test_notation(pearl_ctx *ctx)
{
	struct pearl_action *a;
	char buf[64];
	int n;

	n = pearl_actions_parse(ctx, " I(0,1)  T(1,2,32,64) S(0,1) S(0,1,1,-1) "
				     "T(0,1,2,8,8,8) P(0) U(8) N R(3)", &a);
	CHECK(n == 9);
	if (n == 9) {
		pearl_action_format(&a[1], buf, sizeof(buf));
		CHECK_STR(buf, "T(1,2,32,64)");
		pearl_action_format(&a[3], buf, sizeof(buf));
		CHECK_STR(buf, "S(0,1,1,-1)");
		pearl_action_format(&a[4], buf, sizeof(buf));
		CHECK_STR(buf, "T(0,1,2,8,8,8)");
		CHECK(a[7].kind == pearl_action_next);
	}
	free(a);
	CHECK(pearl_actions_parse(ctx, "", &a) == 0);
	free(a);
	CHECK(pearl_actions_parse(ctx, "T(0,2,32,32)", &a) == -1);
	CHECK(strstr(pearl_ctx_last_error(ctx), "bad action 'T(0,2,32,32)'") != NULL);
	CHECK(pearl_actions_parse(ctx, "X(1)", &a) == -1);
	CHECK(pearl_actions_parse(ctx, "I(0,1", &a) == -1);
	CHECK(pearl_actions_parse(ctx, "P(0)P(1)", &a) == -1);
	/* junk between actions, and the position it is at */
	CHECK(pearl_actions_parse(ctx, "R(0),R(1)", &a) == -1);
	CHECK(strstr(pearl_ctx_last_error(ctx), "unexpected ',' at position 5")
	      != NULL);
	CHECK(pearl_actions_parse(ctx, "R(0) ,R(1)", &a) == -1);
	CHECK(strstr(pearl_ctx_last_error(ctx), "bad action ',R(1)' at "
		     "position 6") != NULL);
	/* factors (0,0) are not the solver's form S(l,l+1) */
	CHECK(pearl_actions_parse(ctx, "S(0,1,0,0)", &a) == -1);
	CHECK(strstr(pearl_ctx_last_error(ctx), "skew factors (0,0)") != NULL);
	CHECK(pearl_actions_parse(ctx, "S(0,1)", &a) == 1);
	free(a);
	CHECK(pearl_actions_parse(ctx, " \t ", &a) == 0);
	free(a);
	/* distribution and fusion, with and without their optional argument */
	n = pearl_actions_parse(ctx, "D(0) D(1,2) F(0) F(1,-3) F(2,0)", &a);
	CHECK(n == 5);
	if (n == 5) {
		const char *want[] = { "D(0)", "D(1,2)", "F(0)", "F(1,-3)",
				       "F(2,0)" };
		int i;

		for (i = 0; i < 5; ++i) {
			pearl_action_format(&a[i], buf, sizeof(buf));
			CHECK_STR(buf, want[i]);
		}
		CHECK(a[0].kind == pearl_action_distribute && a[0].split == 0);
		CHECK(a[1].split == 2);
		CHECK(a[2].kind == pearl_action_fuse && a[2].factor[1] == 0);
		CHECK(a[4].factor[0] == 0 && a[4].factor[1] == 1);
	}
	free(a);
	n = pearl_actions_parse(ctx, "J(0,4) V(8)", &a);
	CHECK(n == 2);
	if (n == 2) {
		pearl_action_format(&a[0], buf, sizeof(buf));
		CHECK_STR(buf, "J(0,4)");
		pearl_action_format(&a[1], buf, sizeof(buf));
		CHECK_STR(buf, "V(8)");
		CHECK(a[0].kind == pearl_action_unroll_jam &&
		      a[0].factor[0] == 4);
		CHECK(a[1].kind == pearl_action_vectorize &&
		      a[1].factor[0] == 8);
	}
	free(a);
	CHECK(pearl_actions_parse(ctx, "J(0)", &a) == -1);
	CHECK(pearl_actions_parse(ctx, "V(4,4)", &a) == -1);
	CHECK(pearl_actions_parse(ctx, "D(0,0)", &a) == -1);
	CHECK(strstr(pearl_ctx_last_error(ctx), "split point") != NULL);
	CHECK(pearl_actions_parse(ctx, "D(0,1,2)", &a) == -1);
	CHECK(pearl_actions_parse(ctx, "F()", &a) == -1);
	CHECK(pearl_actions_parse(ctx, "D", &a) == -1);
}

int main(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();

	test_matmul(ctx);
	test_cached_analysis(ctx);
	test_stencil(ctx);
	test_unroll_and_jam(ctx);
	test_exact_orders(ctx);
	test_notation(ctx);
	pearl_ctx_free(ctx);
	return check_done("test_transform");
}
