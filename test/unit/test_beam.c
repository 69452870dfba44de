/* The choice of the search's next beam (lib/Search/search_internal.h):
 * the fastest children, with places kept for kinds of last action the
 * fastest do not end with; and the finalists of the confirmation and its
 * tie-break. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "Search/search_internal.h"
#include "pearl/action_space.h"
#include "pearl/features.h"
#include "pearl/graph.h"
#include "pearl/policy.h"

/* A measured child: schedule text, speedup (0: failed), kind of its
 * last action, and whether it was measured at all. */
struct child {
	const char *schedule;
	double speedup;
	enum pearl_action_kind kind;
	int measured;
};

/* children[] into a level's states, in the given (prior) order. */
static void make_level(const struct child *c, int n,
		       struct search_states *level)
{
	int i;

	for (i = 0; i < n; ++i) {
		struct search_state s;

		memset(&s, 0, sizeof(s));
		s.schedule = strdup(c[i].schedule);
		s.speedup = c[i].speedup;
		s.last_kind = (int)c[i].kind;
		s.measured = c[i].measured;
		s.seq = i;
		CHECK(search_states_push(level, &s) == 0);
	}
}

/* Whether `beam` holds `schedule`. */
static int holds(const struct search_states *beam, const char *schedule)
{
	int i;

	for (i = 0; i < beam->n; ++i)
		if (!strcmp(beam->s[i].schedule, schedule))
			return 1;
	return 0;
}

/* Matmul i-j-k after I(1,2), second level (made-up speedups): the tiling
 * is slower than four other children, so a beam of the 4 fastest drops
 * it; with 2 places for diversity it stays, beside the two fastest P and
 * the fastest J; the failed and unmeasured children never enter. */
static const struct child level2[] = {
	{"I(1,2) P(0)", 26.0, pearl_action_parallel, 1},
	{"I(1,2) J(0,4) P(0)", 0, pearl_action_parallel, 1}, /* failed */
	{"I(1,2) I(0,1) P(1)", 24.3, pearl_action_parallel, 1},
	{"I(1,2) I(0,1) J(0,4)", 23.6, pearl_action_unroll_jam, 1},
	{"I(1,2) J(0,4)", 20.1, pearl_action_unroll_jam, 1},
	{"I(1,2) V(16)", 15.0, pearl_action_vectorize, 1},
	{"I(1,2) T(0,1,32,32)", 18.3, pearl_action_tile, 1},
	{"I(1,2) U(4)", 13.2, pearl_action_unroll, 1},
	{"I(1,2) T(1,2,32,32)", 30.0, pearl_action_tile, 0}, /* unmeasured */
};
#define N_LEVEL2 ((int)(sizeof(level2) / sizeof(level2[0])))

static void test_fastest_only(void)
{
	struct search_states level = {0}, beam = {0};

	make_level(level2, N_LEVEL2, &level);
	CHECK(search_select_beam(&level, 4, 0, &beam) == 0);
	CHECK(level.n == 0 && !level.s);
	CHECK(beam.n == 4);
	CHECK_STR(beam.s[0].schedule, "I(1,2) P(0)");
	CHECK_STR(beam.s[1].schedule, "I(1,2) I(0,1) P(1)");
	CHECK_STR(beam.s[2].schedule, "I(1,2) I(0,1) J(0,4)");
	CHECK_STR(beam.s[3].schedule, "I(1,2) J(0,4)");
	CHECK(!holds(&beam, "I(1,2) T(0,1,32,32)"));
	search_states_clear(&beam);
}

static void test_diverse(void)
{
	struct search_states level = {0}, beam = {0};

	make_level(level2, N_LEVEL2, &level);
	CHECK(search_select_beam(&level, 4, 2, &beam) == 0);
	CHECK(beam.n == 4);
	/* the 2 fastest, then the fastest of each kind they lack: J, then
	 * T (18.3) before V (15.0) for want of places */
	CHECK_STR(beam.s[0].schedule, "I(1,2) P(0)");
	CHECK_STR(beam.s[1].schedule, "I(1,2) I(0,1) P(1)");
	CHECK_STR(beam.s[2].schedule, "I(1,2) I(0,1) J(0,4)");
	CHECK_STR(beam.s[3].schedule, "I(1,2) T(0,1,32,32)");
	CHECK(!holds(&beam, "I(1,2) J(0,4) P(0)"));
	CHECK(!holds(&beam, "I(1,2) T(1,2,32,32)"));
	search_states_clear(&beam);
}

/* More places than kinds: the places left go to the fastest left; fewer
 * OK children than places: all of them, nothing else. */
static void test_fill(void)
{
	struct search_states level = {0}, beam = {0};

	make_level(level2, N_LEVEL2, &level);
	CHECK(search_select_beam(&level, 8, 8, &beam) == 0);
	CHECK(beam.n == 7);
	CHECK(holds(&beam, "I(1,2) U(4)"));
	CHECK(holds(&beam, "I(1,2) V(16)"));
	CHECK(!holds(&beam, "I(1,2) J(0,4) P(0)"));
	search_states_clear(&beam);

	make_level(level2, N_LEVEL2, &level);
	CHECK(search_select_beam(&level, 6, 5, &beam) == 0);
	/* 1 fastest (P), then J, T, V, U by kind (4), then the fastest
	 * left: I(0,1) P(1) */
	CHECK(beam.n == 6);
	CHECK_STR(beam.s[0].schedule, "I(1,2) P(0)");
	CHECK_STR(beam.s[1].schedule, "I(1,2) I(0,1) J(0,4)");
	CHECK_STR(beam.s[2].schedule, "I(1,2) T(0,1,32,32)");
	CHECK_STR(beam.s[3].schedule, "I(1,2) V(16)");
	CHECK_STR(beam.s[4].schedule, "I(1,2) U(4)");
	CHECK_STR(beam.s[5].schedule, "I(1,2) I(0,1) P(1)");
	search_states_clear(&beam);
}

/* The finalists of the confirmation (confirm.c): the cap fastest
 * distinct schedules, fastest first, never the unscheduled program nor a
 * failed candidate. */
static void test_finalists(void)
{
	struct search_finalists f;

	CHECK(search_finalists_init(&f, 3) == 0);
	CHECK(search_finalists_note(&f, "", 9.0, "search") == 0);
	CHECK(search_finalists_note(&f, "P(0)", 2.0, "policy") == 0);
	CHECK(search_finalists_note(&f, "U(4)", 0, "search") == 0);
	CHECK(search_finalists_note(&f, "I(1,2)", 3.0, "search") == 0);
	CHECK(search_finalists_note(&f, "P(0)", 2.5, "search") == 0);
	CHECK(search_finalists_note(&f, "T(0,1,32,32)", 1.5, "seed") == 0);
	CHECK(search_finalists_note(&f, "J(0,4)", 1.2, "search") == 0);
	CHECK(f.n == 3);
	CHECK_STR(f.schedule[0], "I(1,2)");
	CHECK_STR(f.schedule[1], "P(0)");
	CHECK(f.speedup[1] == 2.0);
	CHECK_STR(f.origin[1], "policy");
	CHECK_STR(f.schedule[2], "T(0,1,32,32)");
	CHECK(search_finalists_note(&f, "V(8)", 2.2, "search") == 0);
	CHECK(f.n == 3);
	CHECK_STR(f.schedule[1], "V(8)");
	CHECK_STR(f.schedule[2], "P(0)");
	search_finalists_clear(&f);
	CHECK(search_finalists_init(&f, 0) == 0);
	CHECK(search_finalists_note(&f, "P(0)", 2.0, "search") == 0);
	CHECK(f.n == 0);
	search_finalists_clear(&f);
}

/* One finalist per family: schedules that differ only in U and V. */
static void test_finalist_families(void)
{
	struct search_finalists f;

	CHECK(search_finalists_init(&f, 4) == 0);
	CHECK(search_finalists_note(&f, "J(0,4) P(0) V(8)", 5.0, "search") ==
	      0);
	CHECK(search_finalists_note(&f, "J(0,4) P(0) V(8) U(4)", 5.2,
				    "search") == 0);
	/* the family has its two: slower members stay out */
	CHECK(search_finalists_note(&f, "J(0,4) P(0) U(2)", 4.9, "search") ==
	      0);
	CHECK(search_finalists_note(&f, "J(0,4) P(0)", 4.0, "seed") == 0);
	CHECK(f.n == 2);
	CHECK_STR(f.schedule[0], "J(0,4) P(0) V(8) U(4)");
	CHECK_STR(f.schedule[1], "J(0,4) P(0) V(8)");
	CHECK(search_finalists_note(&f, "T(0,1,32,32) J(2,4) P(1) V(16)", 4.6,
				    "search") == 0);
	CHECK(search_finalists_note(&f, "J(0,4) P(1) V(8)", 3.0, "search") ==
	      0);
	CHECK(search_finalists_note(&f, "J(0,4) V(8) P(0)", 2.0, "search") ==
	      0); /* of J(0,4) P(0)'s family, slower: nothing changes */
	CHECK(f.n == 4);
	/* a faster member replaces the slower of its family's two */
	CHECK(search_finalists_note(&f, "J(0,4) P(0) U(8)", 5.1, "search") ==
	      0);
	CHECK(f.n == 4);
	CHECK_STR(f.schedule[1], "J(0,4) P(0) U(8)");
	CHECK_STR(f.schedule[2], "T(0,1,32,32) J(2,4) P(1) V(16)");
	/* a second member of the last family, faster than all: the
	 * slowest finalist leaves */
	CHECK(search_finalists_note(&f, "J(0,4) P(1) V(16) U(4)", 5.5,
				    "search") == 0);
	CHECK(f.n == 4);
	CHECK_STR(f.schedule[0], "J(0,4) P(1) V(16) U(4)");
	CHECK_STR(f.schedule[1], "J(0,4) P(0) V(8) U(4)");
	CHECK_STR(f.schedule[2], "J(0,4) P(0) U(8)");
	CHECK_STR(f.schedule[3], "T(0,1,32,32) J(2,4) P(1) V(16)");
	CHECK(f.speedup[3] == 4.6);
	search_finalists_clear(&f);

	/* the starting points: every distinct schedule */
	CHECK(search_finalists_init(&f, 3) == 0);
	f.by_family = 0;
	CHECK(search_finalists_note(&f, "P(1) N P(1)", 2.0, "policy") == 0);
	CHECK(search_finalists_note(&f, "P(1) N P(1) U(4)", 2.1, "seed") == 0);
	CHECK(f.n == 2);
	search_finalists_clear(&f);
}

/* The confirmation's leader and its tie-break: the finalists within 5%
 * of the fastest, the fastest included, are measured again; none when
 * the leader is clear or the base leads. */
static void test_confirm_tie(void)
{
	/* base 20 ms; finalists 4.0, 4.6, 4.15, failed, 4.2 ms */
	double seconds[] = { 0.020, 0.0040, 0.0046, 0.00415, 0, 0.0042 };
	double clear[] = { 0.020, 0.0040, 0.0046, 0.0043 };
	double base_leads[] = { 0.004, 0.0041, 0.0039 };
	double none_ran[] = { 0.020, 0, 0 };
	int which[5];

	CHECK(search_confirm_leader(seconds, 5) == 1);
	CHECK(search_confirm_contenders(seconds, 5, which) == 3);
	CHECK(which[0] == 1 && which[1] == 3 && which[2] == 5);
	seconds[3] = 0.0039; /* a tie-break round: finalist 3 leads */
	CHECK(search_confirm_leader(seconds, 5) == 3);
	CHECK(search_confirm_contenders(seconds, 5, which) == 2);
	CHECK(which[0] == 1 && which[1] == 3);
	CHECK(search_confirm_contenders(clear, 3, which) == 0);
	CHECK(search_confirm_leader(base_leads, 2) == 2);
	base_leads[2] = 0.0042;
	CHECK(search_confirm_leader(base_leads, 2) == 0);
	CHECK(search_confirm_contenders(base_leads, 2, which) == 0);
	CHECK(search_confirm_leader(none_ran, 2) == 0);
	CHECK(search_confirm_contenders(none_ran, 2, which) == 0);
}

/* An entry of the confirmation counts by the median of its measurements
 * (sorted): k-j-i matmul's untiled schedule, 147x to 164x in five
 * processes, against its tiled one, 148x to 158x, as times. */
static void test_confirm_median(void)
{
	double untiled[] = { 1 / 164.2, 1 / 153.8, 1 / 149.8, 1 / 149.7,
			     1 / 147.5 };
	double tiled[] = { 1 / 157.9, 1 / 157.0, 1 / 156.9, 1 / 156.8,
			   1 / 148.4 };
	double two[] = { 1.0, 2.0 };
	double seconds[3];
	int which[2];

	CHECK(search_confirm_median(untiled, 0) == 0);
	CHECK(search_confirm_median(two, 1) == 1.0);
	CHECK(search_confirm_median(two, 2) == 1.5);
	CHECK(search_confirm_median(untiled, 5) == untiled[2]);
	seconds[0] = 0.665; /* the base */
	seconds[1] = search_confirm_median(untiled, 5);
	seconds[2] = search_confirm_median(tiled, 5);
	CHECK(search_confirm_leader(seconds, 2) == 2);
	/* by the fastest measurement, the untiled would lead */
	CHECK(untiled[0] < tiled[0]);
	/* 150x against 157x: within 5%, a tie-break round is due */
	CHECK(search_confirm_contenders(seconds, 2, which) == 2);
}

/* No place for diversity goes to a child below a quarter of the
 * fastest: the jam at 4x leaves, the place goes to the fastest left. */
static void test_diversity_floor(void)
{
	static const struct child c[] = {
		{"P(0)", 60.0, pearl_action_parallel, 1},
		{"P(1)", 55.0, pearl_action_parallel, 1},
		{"J(0,4) J(1,4) J(2,4)", 4.0, pearl_action_unroll_jam, 1},
		{"V(8)", 20.0, pearl_action_vectorize, 1},
	};
	struct search_states level = {0}, beam = {0};

	make_level(c, 4, &level);
	CHECK(search_select_beam(&level, 3, 2, &beam) == 0);
	CHECK(beam.n == 3);
	CHECK_STR(beam.s[0].schedule, "P(0)");
	CHECK_STR(beam.s[1].schedule, "V(8)");
	CHECK_STR(beam.s[2].schedule, "P(1)");
	search_states_clear(&beam);
}

/* A tiled child ranked by its completion: 18.3x alone, 27x completed,
 * so it is kept among the 2 fastest with no place for diversity. */
static void test_ranked_by_completion(void)
{
	struct search_states level = {0}, beam = {0};

	make_level(level2, N_LEVEL2, &level);
	level.s[6].completed = 27.0; /* I(1,2) T(0,1,32,32) */
	level.s[1].completed = 40.0; /* failed itself: never ranked */
	CHECK(search_select_beam(&level, 2, 0, &beam) == 0);
	CHECK(beam.n == 2);
	CHECK_STR(beam.s[0].schedule, "I(1,2) T(0,1,32,32)");
	CHECK_STR(beam.s[1].schedule, "I(1,2) P(0)");
	search_states_clear(&beam);
}

/* The state of matmul (512^3, i-j-k) after the actions `text`, the last
 * of kind `last`, measured at 2x. */
static void matmul_state(pearl_program *prog, pearl_deps *deps,
			 const char *text, struct search_state *s)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	struct pearl_action *a;
	int n = pearl_actions_parse(ctx, text, &a), i;

	memset(s, 0, sizeof(*s));
	s->sched = pearl_sched_alloc(prog, deps);
	CHECK(n > 0 && s->sched);
	pearl_branch_state_init(&s->branch_state);
	for (i = 0; i < n; ++i) {
		int id = pearl_action_space_encode(&a[i]);

		CHECK(pearl_sched_apply(s->sched, 0, &a[i]) == pearl_stat_ok);
		CHECK(id >= 0);
		pearl_branch_state_applied(&s->branch_state, id);
	}
	s->schedule = strdup(text);
	s->last_kind = (int)a[n - 1].kind;
	s->measured = 1;
	s->speedup = 2;
	free(a);
}

/* The completion of a completable state (complete.c): k-i-j tiled, whose
 * outer tile loop (k) carries the reduction, completes with the i tiles
 * in parallel and V(16); k-i-j by interchanges alone with the i loop in
 * parallel and V(16); a state already parallel, or failed, has none. */
static void test_completion(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_program *prog = example_matmul(ctx, 512, 512, 512);
	pearl_deps *deps = pearl_deps_compute(prog);
	struct search_counts counts = {0};
	struct search_state s;
	char err[256], *text;

	CHECK(deps != NULL);
	matmul_state(prog, deps, "I(1,2) I(0,1) T(0,1,32,32)", &s);
	CHECK(search_completable(&s));
	CHECK(search_completion(&s, &text, &counts, err, sizeof(err)) == 1);
	CHECK_STR(text, "I(1,2) I(0,1) T(0,1,32,32) P(1) V(16)");
	CHECK(counts.illegal == 1); /* P(0), the k tiles */
	free(text);
	s.speedup = 0; /* failed: nothing to complete */
	CHECK(!search_completable(&s));
	CHECK(search_completion(&s, &text, &counts, err, sizeof(err)) == 0);
	CHECK(text == NULL);
	search_state_clear(&s);

	matmul_state(prog, deps, "T(0,1,32,32) P(0)", &s);
	CHECK(!search_completable(&s));
	CHECK(search_completion(&s, &text, &counts, err, sizeof(err)) == 0);
	search_state_clear(&s);

	matmul_state(prog, deps, "I(1,2) I(0,1)", &s); /* last: I */
	CHECK(search_completable(&s));
	CHECK(search_completion(&s, &text, &counts, err, sizeof(err)) == 1);
	CHECK_STR(text, "I(1,2) I(0,1) P(1) V(16)");
	free(text);
	search_state_clear(&s);

	matmul_state(prog, deps, "I(1,2) U(4)", &s); /* last: U */
	CHECK(!search_completable(&s));
	search_state_clear(&s);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	pearl_ctx_free(ctx);
}

/* Adaptive sampling clusters a level's children by their graph embedding
 * (sampling.c). A child whose graph cannot be built (isl past the
 * context's quota, which a loaded machine makes likelier for the time
 * limit) gets the zero embedding: every child still gets a cluster, and
 * the search goes on instead of failing ("search: no graph of a
 * candidate" stopped a training run). Here the quota fails every graph. */
static void test_cluster_without_graph(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_program *prog = example_matmul(ctx, 64, 64, 64);
	pearl_deps *deps = pearl_deps_compute(prog);
	struct pearl_policy_config cfg = pearl_policy_default_config();
	const char *texts[3] = { "I(1,2)", "T(0,1,32,32)", "I(0,1) I(1,2)" };
	struct search_states children = { 0 };
	struct search_state s;
	struct pearl_graph *g;
	pearl_policy *policy;
	char err[256] = "";
	int i, k;

	policy = pearl_policy_init_random(&cfg, 3, err, sizeof(err));
	CHECK(deps && policy);
	if (!deps || !policy)
		goto out;
	for (i = 0; i < 3; ++i) {
		matmul_state(prog, deps, texts[i], &s);
		CHECK(search_states_push(&children, &s) == 0);
	}
	pearl_ctx_set_max_operations(ctx, 1);
	g = pearl_graph_build(children.s[0].sched, 0);
	CHECK(g == NULL); /* the case under test */
	pearl_graph_free(g);
	pearl_ctx_clear_error(ctx);
	pearl_ctx_reset_operations(ctx);
	k = search_cluster_children(policy, &children, 2, err, sizeof(err));
	CHECK(k >= 1);
	for (i = 0; i < children.n; ++i)
		CHECK(children.s[i].cluster >= 0 && children.s[i].cluster < k);
	CHECK_STR(pearl_ctx_last_error(ctx), ""); /* cleared */
out:
	search_states_clear(&children);
	pearl_policy_free(policy);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	pearl_ctx_free(ctx);
}

/* gemm with its initialization, as PolyBench's 2mm writes each product:
 * for i, j: C[i][j] = 0, then for k: C[i][j] += A[i][k] * B[k][j]. The
 * init keeps j and k from being interchanged until D(1) splits it off. */
static pearl_program *example_gemm_init(pearl_ctx *ctx)
{
	static const char *r1[] = { "{ S1[i, j, k] -> C[i, j] }",
				    "{ S1[i, j, k] -> A[i, k] }",
				    "{ S1[i, j, k] -> B[k, j] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "gemm_init");

	add_stmt_str(prog, "{ S0[i, j] : 0 <= i < 64 and 0 <= j < 64 }",
		     "{ S0[i, j] -> C[i, j] }", NULL);
	add_stmt_str(prog, "{ S1[i, j, k] : 0 <= i < 64 and 0 <= j < 64 and "
			   "0 <= k < 64 }", "{ S1[i, j, k] -> C[i, j] }", r1);
	set_schedule_str(prog,
	    "{ domain: \"{ S0[i, j] : 0 <= i < 64 and 0 <= j < 64; "
	    "S1[i, j, k] : 0 <= i < 64 and 0 <= j < 64 and 0 <= k < 64 }\", "
	    "child: { schedule: \"[{ S0[i, j] -> [(i)]; S1[i, j, k] -> [(i)] }]\", "
	    "child: { schedule: \"[{ S0[i, j] -> [(j)]; S1[i, j, k] -> [(j)] }]\", "
	    "child: { sequence: [ { filter: \"{ S0[i, j] }\" }, "
	    "{ filter: \"{ S1[i, j, k] }\", "
	    "child: { schedule: \"[{ S1[i, j, k] -> [(k)] }]\" } } ] } } } }");
	return prog;
}

/* The reorderings of a distributed state (expand.c): after D(1), the
 * product's nest is perfect, and the children on its branch (the next
 * one) are its interchanges and jams, each after an N: I(1,2) among them
 * (i-k-j, the reduction no longer innermost), and no action of another
 * kind. Before D(1), the init refuses I(1,2); the branch in focus itself
 * gets no reorderings. */
static void test_reorderings(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_program *prog = example_gemm_init(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	struct pearl_policy_config cfg = pearl_policy_default_config();
	struct pearl_search_options o;
	struct search_counts counts = {0};
	struct search_states after = {0};
	struct search_state s;
	pearl_policy *policy;
	char err[256] = "";
	int i, interchange = 0;

	pearl_search_options_init(&o);
	policy = pearl_policy_init_random(&cfg, 5, err, sizeof(err));
	CHECK(deps && policy);
	if (!deps || !policy)
		goto out;
	matmul_state(prog, deps, "D(1)", &s);
	CHECK(s.last_kind == pearl_action_distribute);
	CHECK(pearl_sched_n_branch(s.sched) == 2);
	CHECK(search_expand_reorderings(&s, 1, policy, &o, &after, &counts,
					err, sizeof(err)) == 0);
	CHECK(after.n >= 2); /* I(1,2), J(1,4): i still encloses the init */
	for (i = 0; i < after.n; ++i) {
		const char *t = after.s[i].schedule;

		CHECK(strncmp(t, "D(1) N ", 7) == 0);
		CHECK(t[7] == 'I' || t[7] == 'J');
		CHECK(after.s[i].branch == 1);
		interchange += strcmp(t, "D(1) N I(1,2)") == 0;
	}
	CHECK(interchange == 1);
	search_states_clear(&after);
	CHECK(search_expand_reorderings(&s, 0, policy, &o, &after, &counts,
					err, sizeof(err)) == 0);
	CHECK(after.n == 0);
	CHECK(search_expand_reorderings(&s, 2, policy, &o, &after, &counts,
					err, sizeof(err)) == 0);
	CHECK(after.n == 0);
	search_state_clear(&s);
	{
		struct pearl_action a = { .kind = pearl_action_interchange,
					  .n_level = 2, .level = { 1, 2 } };
		pearl_sched *plain = pearl_sched_alloc(prog, deps);

		CHECK(plain && pearl_sched_apply(plain, 0, &a) != pearl_stat_ok);
		pearl_sched_free(plain);
	}
out:
	pearl_policy_free(policy);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	pearl_ctx_free(ctx);
}

/* The top-level nests (nests.c): gemm with its init is one nest of two
 * branches; the two-nest example of test_transform.c-like shape (two
 * loops at the root) is two. The composition puts each nest's actions
 * after the N that reach its first branch from where the nest before
 * left the focus; a nest without actions, or with a copy, is left out. */
static void test_nests(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_program *prog = example_gemm_init(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *sched = deps ? pearl_sched_alloc(prog, deps) : NULL;
	int first[4] = {-1, -1, -1, -1};
	char *best[3], *t;
	int firsts[3] = {0, 2, 5};

	CHECK(sched != NULL);
	CHECK(search_nests(sched, first, 4) == 1);
	CHECK(first[0] == 0);
	pearl_sched_free(sched);
	pearl_deps_free(deps);
	pearl_program_free(prog);

	prog = pearl_program_alloc(ctx, "two_loops");
	add_stmt_str(prog, "{ S0[i] : 0 <= i < 8 }", "{ S0[i] -> A[i] }",
		     NULL);
	add_stmt_str(prog, "{ S1[i, j] : 0 <= i < 8 and 0 <= j < 8 }",
		     "{ S1[i, j] -> B[i, j] }", NULL);
	add_stmt_str(prog, "{ S2[i, j] : 0 <= i < 8 and 0 <= j < 8 }",
		     "{ S2[i, j] -> C[i, j] }", NULL);
	set_schedule_str(prog,
	    "{ domain: \"{ S0[i] : 0 <= i < 8; S1[i, j] : 0 <= i < 8 and "
	    "0 <= j < 8; S2[i, j] : 0 <= i < 8 and 0 <= j < 8 }\", "
	    "child: { sequence: [ { filter: \"{ S0[i] }\", "
	    "child: { schedule: \"[{ S0[i] -> [(i)] }]\" } }, "
	    "{ filter: \"{ S1[i, j]; S2[i, j] }\", "
	    "child: { schedule: \"[{ S1[i, j] -> [(i)]; S2[i, j] -> [(i)] }]\", "
	    "child: { sequence: [ { filter: \"{ S1[i, j] }\", "
	    "child: { schedule: \"[{ S1[i, j] -> [(j)] }]\" } }, "
	    "{ filter: \"{ S2[i, j] }\", "
	    "child: { schedule: \"[{ S2[i, j] -> [(j)] }]\" } } ] } } } ] } }");
	deps = pearl_deps_compute(prog);
	sched = deps ? pearl_sched_alloc(prog, deps) : NULL;
	CHECK(sched != NULL && pearl_sched_n_branch(sched) == 3);
	CHECK(search_nests(sched, first, 4) == 2);
	CHECK(first[0] == 0 && first[1] == 1);
	CHECK(search_nests(sched, first, 1) == 2); /* counted past cap */
	pearl_sched_free(sched);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	pearl_ctx_free(ctx);

	best[0] = "P(0) U(4) N T(0,1,32,32)"; /* ends on branch 1 */
	best[1] = "N N D(1) N I(1,2)";        /* nest 1: branches 2..4 */
	best[2] = "N N N N N P(0)";
	t = search_compose_nests(best, firsts, 3);
	CHECK_STR(t, "P(0) U(4) N T(0,1,32,32) N D(1) N I(1,2) N N P(0)");
	free(t);
	best[0] = "";
	best[2] = "N N N N N K(0) P(0)";
	t = search_compose_nests(best, firsts, 3);
	CHECK_STR(t, "N N D(1) N I(1,2)");
	free(t);
	best[1] = NULL;
	t = search_compose_nests(best, firsts, 3);
	CHECK_STR(t, "");
	free(t);
	best[0] = "N P(0)"; /* not from nest 1's search: no leading N */
	t = search_compose_nests(best, firsts + 1, 1);
	CHECK_STR(t, "");
	free(t);
}

int main(void)
{
	test_fastest_only();
	test_diverse();
	test_fill();
	test_finalists();
	test_finalist_families();
	test_confirm_tie();
	test_confirm_median();
	test_diversity_floor();
	test_ranked_by_completion();
	test_completion();
	test_cluster_without_graph();
	test_reorderings();
	test_nests();
	return check_done("test_beam");
}
