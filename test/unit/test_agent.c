/* Pearl's AST graph, the action space, the masks and the episode driver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "Policy/weights.h"
#include "check.h"
#include "helpers.h"
#include "pearl/agent.h"
#include "pearl/features.h"

static const float *node(const struct pearl_graph *g, int i)
{
	return g->x + (size_t)i * g->n_features;
}

static int near(float a, float b)
{
	return fabsf(a - b) < 1e-6f;
}

/* A schedule of prog with `text` applied; NULL if an action is refused. */
static pearl_sched *scheduled(pearl_program *prog, pearl_deps *deps,
			      const char *text)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	pearl_sched *s = pearl_sched_alloc(prog, deps);
	struct pearl_action *a;
	int n = pearl_actions_parse(ctx, text, &a);

	if (n < 0 || pearl_sched_apply_sequence(s, a, n, NULL, NULL) !=
			 n - (int)(strchr(text, 'N') != NULL))
		s = pearl_sched_free(s);
	free(a);
	return s;
}

static void test_matmul_graph(pearl_ctx *ctx)
{
	pearl_program *prog = example_matmul(ctx, 64, 48, 32);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *s = pearl_sched_alloc(prog, deps);
	struct pearl_graph *g = pearl_graph_build(s, 0);
	const float *f;
	char *text;

	CHECK(g && g->n_nodes == 5 && g->n_edges == 4 &&
	      g->n_features == PEARL_GRAPH_N_FEATURES);
	if (!g)
		goto done;
	CHECK(g->src[0] == 0 && g->dst[0] == 1 && g->src[3] == 3 &&
	      g->dst[3] == 4);
	CHECK(node(g, 0)[PEARL_F_KIND] == 1);
	f = node(g, 1);
	CHECK(f[PEARL_F_KIND + 1] == 1 && f[PEARL_F_LEVEL] == 1 &&
	      f[PEARL_F_FOCUS] == 1);
	CHECK(near(f[PEARL_F_EXTENT], log2f(65) / 16));
	CHECK(near(f[PEARL_F_UB], log2f(64) / 16) && f[PEARL_F_LB] == 0);
	CHECK(f[PEARL_F_ROW] == 1.0f / 8 && f[PEARL_F_ROW + 1] == 0);
	CHECK(f[PEARL_F_PARALLEL] == 0 && f[PEARL_F_TILE] == 0);
	f = node(g, 3);
	CHECK(f[PEARL_F_LEVEL + 2] == 1 && f[PEARL_F_ROW + 2] == 1.0f / 8);
	f = node(g, 4);
	CHECK(f[PEARL_F_KIND + 2] == 1 && f[PEARL_F_TYPE + 1] == 1 &&
	      f[PEARL_F_REDUCTION] == 1 && f[PEARL_F_SFOCUS] == 1);
	/* write C[i, j]: buffer 0, rows (1 0 0 ...) and (0 1 0 ...) */
	CHECK(f[PEARL_F_WRITE] == 1 && f[PEARL_F_WRITE + 1] == 1.0f / 8 &&
	      f[PEARL_F_WRITE + 1 + PEARL_GRAPH_ACCESS_COLS + 1] == 1.0f / 8);
	CHECK(f[PEARL_F_WRITE + PEARL_GRAPH_ACCESS_SIZE - 8] == 1);
	/* the third read is B[k, j]: buffer 2 */
	CHECK(f[PEARL_F_READS + 2 * PEARL_GRAPH_ACCESS_SIZE] == 1);
	CHECK(f[PEARL_F_READS + 3 * PEARL_GRAPH_ACCESS_SIZE - 8 + 2] == 1);
	CHECK(f[PEARL_F_READS + 3 * PEARL_GRAPH_ACCESS_SIZE] == 0);
	text = pearl_graph_describe(g);
	CHECK(text && strstr(text, "n1 loop <- n0 level 0 extent 64 [0, 63] "
				   "focus row i0 mem "));
	/* the k loop: C[i, j] twice invariant, A[i, k] unit, B[k, j] a
	 * row apart (48 doubles); one execution touches a row of A, a
	 * column of B and one element of C */
	f = node(g, 3);
	CHECK(f[PEARL_F_MEM] == 0.5f && f[PEARL_F_MEM + 1] == 0.25f &&
	      f[PEARL_F_MEM + 2] == 0.25f);
	CHECK(text && strstr(text, "row i2 mem inv 0.50 unit 0.25 strided 0.25 "
				   "stride 384 B foot 520 B iter 24 B\n"));
	CHECK(text && strstr(text, "n4 stmt <- n3 f64 reduction focus ops "
				   "reads 3 depth 3\n"
				   "     write b0 [i0; i1]\n"
				   "     read  b0 [i0; i1]\n"
				   "     read  b1 [i0; i2]\n"
				   "     read  b2 [i2; i1]\n"));
	free(text);
done:
	pearl_graph_free(g);
	pearl_sched_free(s);
	/* Transformation tags are read off the schedule. */
	s = scheduled(prog, deps, "I(0,1) T(0,1,16,32) P(0) U(4)");
	g = s ? pearl_graph_build(s, -1) : NULL;
	text = g ? pearl_graph_describe(g) : NULL;
	/* a tile loop steps by its tile; a tile's data is its rows and
	 * columns of the three matrices */
	CHECK(text && strstr(text, "level 0 extent 3 [0, 32] parallel tile 16 "
				   "row i1 mem inv 0.25 unit 0.00 strided 0.75 "
				   "stride 128 B foot 53248 B iter 28672 B\n"));
	CHECK(text && strstr(text, "level 1 extent 2 [0, 32] tile 32 row i0 "
				   "mem "));
	CHECK(text && strstr(text, "level 2 extent 16 [0, 15] point row i1 "
				   "mem inv 0.25 unit 0.75 strided 0.00 stride 8 B "
				   "foot 16384 B iter 8704 B\n"));
	/* U(4) keeps the loop (no strip loop) and tags it with the factor */
	CHECK(text && strstr(text, "level 4 extent 32 [0, 31] unroll 4 row "
				   "i2 mem "));
	CHECK(text && !strstr(text, "level 5"));
	CHECK(text && !strstr(text, "focus"));
	free(text);
	pearl_graph_free(g);
	pearl_sched_free(s);
	s = scheduled(prog, deps, "R(0) S(1,2,1,1)");
	g = s ? pearl_graph_build(s, 0) : NULL;
	text = g ? pearl_graph_describe(g) : NULL;
	CHECK(text && strstr(text, "focus reversed row -i0 mem "));
	/* a skewed loop's strides are unknown */
	CHECK(text && strstr(text, "skewed row i1 + i2 mem inv 0.00 unit 0.00 "
				   "strided 1.00 "));
	free(text);
	pearl_graph_free(g);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

/* The id of the one action `text` (-2 if it does not parse). */
static int encoded(const char *text)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	struct pearl_action *a = NULL;
	int id = -2;

	if (pearl_actions_parse(ctx, text, &a) == 1)
		id = pearl_action_space_encode(&a[0]);
	free(a);
	pearl_ctx_free(ctx);
	return id;
}

/* The text of action `id` (a static buffer, "?" if it has none). */
static const char *decoded(int id)
{
	static char buf[64];
	struct pearl_action a;

	if (pearl_action_space_decode(id, &a) < 0)
		return "?";
	pearl_action_format(&a, buf, sizeof(buf));
	return buf;
}

static void test_action_space(void)
{
	struct pearl_action a;
	int id, ok = 1;

	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
		ok &= pearl_action_space_decode(id, &a) == 0 &&
		      pearl_action_space_encode(&a) == id;
	CHECK(ok);
	CHECK(pearl_action_space_decode(86, &a) == -1);
	CHECK(pearl_action_space_decode(-1, &a) == -1);
	CHECK_STR(decoded(14 + 4 * 3 + 2), "T(2,3,32,64)");
	CHECK_STR(decoded(54), "U(32)");
	CHECK_STR(decoded(11), "S(2,3)");
	CHECK(pearl_action_space_phase(13) == pearl_phase_parallel);
	CHECK(pearl_action_space_max_level(49) == 4);
	/* the action space v2: D(0..3) F(0..3) J(0..3,4) V(8) V(16) */
	CHECK_STR(decoded(57), "D(1)");
	CHECK_STR(decoded(63), "F(3)");
	CHECK_STR(decoded(66), "J(2,4)");
	CHECK_STR(decoded(69), "V(16)");
	CHECK(pearl_action_space_phase(56) == pearl_phase_reorder);
	CHECK(pearl_action_space_phase(61) == pearl_phase_reorder);
	CHECK(pearl_action_space_phase(64) == pearl_phase_tile);
	CHECK(pearl_action_space_phase(68) == pearl_phase_unroll);
	CHECK(pearl_action_space_max_level(67) == 3);
	CHECK(pearl_action_space_max_level(68) == -1);
	/* the action space v3: J(0..3,f) for f = 6, 8, 16, then K(0..3) */
	CHECK_STR(decoded(70), "J(0,6)");
	CHECK_STR(decoded(81), "J(3,16)");
	CHECK_STR(decoded(83), "K(1)");
	CHECK(pearl_action_space_phase(75) == pearl_phase_tile);
	CHECK(pearl_action_space_phase(84) == pearl_phase_unroll);
	CHECK(pearl_action_space_max_level(79) == 1);
	CHECK(pearl_action_space_max_level(85) == 3);
	CHECK(encoded("J(1,16)") == 79);
	CHECK(encoded("J(2,8)") == 76);
	CHECK(encoded("K(0)") == 82);
	/* forms outside the space */
	CHECK(encoded("D(0,1)") == -1);
	CHECK(encoded("F(0,1)") == -1);
	CHECK(encoded("J(0,2)") == -1);
	CHECK(encoded("J(4,8)") == -1);
	CHECK(encoded("K(4)") == -1);
	CHECK(encoded("V(4)") == -1);
	CHECK(encoded("J(1,4)") == 65);
}

static void test_masks(pearl_ctx *ctx)
{
	pearl_program *prog = example_matmul(ctx, 64, 48, 32);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *s = pearl_sched_alloc(prog, deps);
	struct pearl_graph *g = pearl_graph_build(s, 0);
	struct pearl_branch_state st;
	unsigned char m[PEARL_ACTION_SPACE_SIZE];

	pearl_branch_state_init(&st);
	/* 64 x 48 x 32 iterations: P(0) runs 98304 of them per execution,
	 * P(1) 1536, too few for the default limit */
	CHECK(st.min_parallel_work == PEARL_AGENT_MIN_PARALLEL_WORK);
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[12] && m[13]);
	st.min_parallel_work = 1536;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[12] && !m[13]);
	st.min_parallel_work = 1537;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[12] && m[13]);
	st.min_parallel_work = 0;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	/* three loops: I(0,1) I(1,2) R(0..2) S(0,1) S(1,2) P T(0,1) T(1,2) */
	CHECK(!m[0] && !m[1] && m[2] && m[3]);
	CHECK(!m[4] && !m[6] && m[7] && m[8]);
	CHECK(!m[9] && !m[10] && m[11] && !m[12] && !m[13]);
	CHECK(!m[14] && !m[15] && m[16] && m[17] && !m[50] && !m[55]);
	/* the action space v2: D(0..2) F(0..2) J(0..2,4) V(8) V(16); no
	 * loop 3 */
	CHECK(!m[56] && !m[57] && !m[58] && m[59]);
	CHECK(!m[60] && !m[61] && !m[62] && m[63]);
	CHECK(!m[64] && !m[65] && !m[66] && m[67]);
	CHECK(!m[68] && !m[69]);
	/* for the policy (jam_rules), no second J on a loop jammed already:
	 * J(0,4) applied masks J(0,8), not J(1,4); the search stacks them */
	pearl_branch_state_applied(&st, encoded("J(0,4)"));
	CHECK(st.jammed == 1u);
	st.tried[encoded("J(0,4)")] = 0;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[encoded("J(0,8)")] && !m[encoded("J(1,4)")]);
	st.jam_rules = 1;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[encoded("J(0,8)")] && m[encoded("J(0,4)")] &&
	      !m[encoded("J(1,4)")]);
	st.jam_rules = 0;
	st.jammed = 0;
	st.tiled = 0;
	st.phase = -1;
	/* one vector width per branch */
	st.tried[68] = 1;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[68] && m[69]);
	st.tried[68] = 0;
	/* K(0..2): tried only where the code generator makes copies (the
	 * MLIR pass's, the default), masked for the clang plugin's */
	CHECK(st.copies == 1);
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[encoded("K(0)")] && !m[encoded("K(2)")]);
	pearl_sched_set_copies_made(s, 0);
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[encoded("K(0)")] && m[encoded("K(2)")] && !m[0] && !m[12]);
	pearl_sched_set_copies_made(s, 1);
	/* and masked, for the policy, unless the agent's options allow
	 * copies: only K, N and the rest as before */
	st.copies = 0;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[encoded("K(0)")] && m[encoded("K(1)")] &&
	      m[encoded("K(2)")]);
	CHECK(!m[0] && !m[12] && !m[56] && !m[68] && !m[PEARL_ACTION_NEXT]);
	st.copies = 1;
	/* after a tiling: no reordering, no second tiling */
	st.phase = pearl_phase_tile;
	st.tiled = 1;
	st.tried[12] = 1;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[0] && m[4] && m[9] && m[14] && m[12] && !m[13] && !m[50]);
	/* D and F are reorderings; J goes with tiling, V with unrolling */
	CHECK(m[56] && m[60] && !m[64] && !m[68]);
	pearl_graph_free(g);
	pearl_sched_free(s);
	/* T(1,2,32,32): loops i (64), the tile loops of j (2 tiles, the
	 * second partial) and k (1), then 32 x 32 points; one execution of
	 * the tile loop of j runs 2 x 1 x 32 x 32 = 2048 innermost
	 * iterations */
	s = scheduled(prog, deps, "T(1,2,32,32)");
	g = s ? pearl_graph_build(s, 0) : NULL;
	pearl_branch_state_init(&st);
	st.phase = pearl_phase_tile;
	st.tiled = 1;
	CHECK(g && pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[12] && m[13]);
	st.min_parallel_work = 2048;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[12] && !m[13]);
	st.min_parallel_work = 2049;
	CHECK(pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(!m[12] && m[13]);
	pearl_graph_free(g);
	pearl_sched_free(s);
	/* a parallel loop on the branch: no other parallel loop, no skew */
	s = scheduled(prog, deps, "P(1)");
	g = s ? pearl_graph_build(s, 0) : NULL;
	pearl_branch_state_init(&st);
	CHECK(g && pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[12] && m[13] && m[9] && m[10] && !m[0] && !m[14]);
	pearl_graph_free(g);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	/* a loop of one iteration has nothing to run in parallel, whatever
	 * the limit (the code generator drops its band and its mark) */
	prog = example_matmul(ctx, 1, 48, 32);
	deps = prog ? pearl_deps_compute(prog) : NULL;
	s = deps ? pearl_sched_alloc(prog, deps) : NULL;
	g = s ? pearl_graph_build(s, 0) : NULL;
	pearl_branch_state_init(&st);
	st.min_parallel_work = 0;
	CHECK(g && pearl_agent_mask(s, 0, &st, g, m) == 0);
	CHECK(m[12] && !m[13]);
	/* nor anything to jam by 4 */
	CHECK(m[64] && !m[65]);
	pearl_graph_free(g);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

/* A policy whose logits ignore the graph: pi.w3 = 0 and pi.b3 = `prefs`
 * (higher first), so the tests know what it prefers. */
static pearl_policy *crafted(const float *prefs)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	char err[256];
	pearl_policy *p = pearl_policy_init_random(&cfg, 3, err, sizeof(err));
	float *w3, *b3;

	if (!p)
		return NULL;
	w3 = p->data + (p->w.pi_w3 - p->data);
	b3 = p->data + (p->w.pi_b3 - p->data);
	memset(w3, 0, sizeof(float) * cfg.hidden * cfg.n_actions);
	memcpy(b3, prefs, sizeof(float) * cfg.n_actions);
	return p;
}

/* The episode of `policy` on prog as a schedule string into buf. */
static int episode(pearl_program *prog, const pearl_policy *policy,
		   int sample, uint64_t seed, char *buf, size_t size,
		   struct pearl_agent_trace *trace)
{
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *s = pearl_sched_alloc(prog, deps);
	struct pearl_agent_options opts;
	struct pearl_action *a = NULL;
	int i, n = -1;
	size_t len = 0;

	pearl_agent_options_init(&opts);
	opts.min_parallel_work = 0; /* the examples are small */
	opts.sample = sample;
	opts.seed = seed;
	buf[0] = '\0';
	if (pearl_agent_run(s, policy, &opts, trace) == pearl_stat_ok)
		n = pearl_agent_trace_actions(trace, &a);
	for (i = 0; i < n; ++i) {
		if (i && len + 1 < size)
			buf[len++] = ' ', buf[len] = '\0';
		pearl_action_format(&a[i], buf + len, size - len);
		len += strlen(buf + len);
	}
	free(a);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	return n;
}

/* The mask of branch 0 of an ni x nj x nk matmul scheduled `schedule`,
 * in the state `st` (kept) at the tiling phase, into m[]. Returns 0, or
 * -1 if the schedule does not apply or the mask fails. */
static int tiled_mask(pearl_ctx *ctx, int ni, int nj, int nk,
		      const char *schedule, const struct pearl_branch_state *st,
		      unsigned char *m)
{
	pearl_program *prog = example_matmul(ctx, ni, nj, nk);
	pearl_deps *deps = prog ? pearl_deps_compute(prog) : NULL;
	pearl_sched *s = deps ? scheduled(prog, deps, schedule) : NULL;
	struct pearl_graph *g = s ? pearl_graph_build(s, 0) : NULL;
	struct pearl_branch_state tile_phase = *st;
	int r;

	tile_phase.phase = pearl_phase_tile;
	tile_phase.tiled = 1;
	r = g ? pearl_agent_mask(s, 0, &tile_phase, g, m) : -1;
	pearl_graph_free(g);
	pearl_sched_free(s);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	return r;
}

/* The policy's jam rules and its work mask on tiled and jammed nests. */
static void test_tiled_masks(pearl_ctx *ctx)
{
	struct pearl_branch_state st;
	unsigned char m[PEARL_ACTION_SPACE_SIZE];

	/* for the policy (jam_rules), no J on a tile loop: with j and k of
	 * 256, T(1,2,32,32) makes tile loops of 8 values that step by 32,
	 * so that a group of J's copies holds one value and the jam would
	 * change nothing; J on loop i and on the point loop of j stay */
	pearl_branch_state_init(&st);
	CHECK(tiled_mask(ctx, 64, 256, 256, "T(1,2,32,32)", &st, m) == 0);
	CHECK(!m[encoded("J(0,4)")] && !m[encoded("J(1,4)")] &&
	      !m[encoded("J(2,4)")] && !m[encoded("J(3,4)")] &&
	      !m[encoded("J(1,6)")]);
	st.jam_rules = 1;
	CHECK(tiled_mask(ctx, 64, 256, 256, "T(1,2,32,32)", &st, m) == 0);
	CHECK(!m[encoded("J(0,4)")] && m[encoded("J(1,4)")] &&
	      m[encoded("J(2,4)")] && !m[encoded("J(3,4)")] &&
	      m[encoded("J(1,6)")]);
	/* after T(0,1,32,32) J(2,4) on 82 x 82 x 2, the outer loop of J's
	 * copies spans 21 groups of 4 but runs 8 per tile of 32: one
	 * execution of tile loop 0 runs 3 x 3 x 8 x 32 x 2 x 4 = 18432
	 * innermost iterations (the loop's whole range would count 48384) */
	pearl_branch_state_init(&st);
	st.min_parallel_work = 18432;
	CHECK(tiled_mask(ctx, 82, 82, 2, "T(0,1,32,32) J(2,4)", &st, m) == 0);
	CHECK(!m[12]);
	st.min_parallel_work = 18433;
	CHECK(tiled_mask(ctx, 82, 82, 2, "T(0,1,32,32) J(2,4)", &st, m) == 0);
	CHECK(m[12]);
}

static void test_agent(pearl_ctx *ctx)
{
	float prefs[PEARL_ACTION_SPACE_SIZE] = { 0 };
	pearl_program *mm = example_matmul(ctx, 64, 48, 32);
	pearl_program *seidel = example_seidel9(ctx);
	struct pearl_agent_trace trace;
	pearl_policy *p;
	char buf[256], again[256];
	int i, n;

	/* Prefers T(0,1,32,32), then P(0), then U(4), then N. */
	prefs[14] = 9, prefs[12] = 8, prefs[51] = 7, prefs[55] = 6;
	p = crafted(prefs);
	CHECK(p != NULL);
	n = episode(mm, p, 0, 0, buf, sizeof(buf), &trace);
	CHECK(n == 3);
	CHECK_STR(buf, "T(0,1,32,32) P(0) U(4)");
	CHECK(trace.n_steps == 4 && trace.n_branches == 1 &&
	      trace.n_illegal == 0 && trace.steps[3].action == 55);
	pearl_agent_trace_clear(&trace);
	pearl_policy_free(p);

	/* Prefers illegal actions on seidel (I(1,2), R(0), P(0), P(1)):
	 * the agent never applies one and ends with N. */
	memset(prefs, 0, sizeof(prefs));
	prefs[1] = 9, prefs[4] = 8, prefs[12] = 7, prefs[13] = 6;
	prefs[55] = 5;
	p = crafted(prefs);
	n = episode(seidel, p, 0, 0, buf, sizeof(buf), &trace);
	CHECK(n == 0 && trace.n_steps == 1 && trace.n_illegal == 4);
	CHECK(trace.n_steps == 1 && trace.steps[0].action == 55 &&
	      trace.steps[0].prob > 0.5f);
	pearl_agent_trace_clear(&trace);
	pearl_policy_free(p);

	/* A random network, sampled: legal, reproducible per seed, capped. */
	p = crafted(prefs);
	for (i = 0; i < 5; ++i) {
		n = episode(seidel, p, 1, 100 + i, buf, sizeof(buf), &trace);
		CHECK(n >= 0 && trace.n_steps <= 9);
		pearl_agent_trace_clear(&trace);
		CHECK(episode(seidel, p, 1, 100 + i, again, sizeof(again),
			      &trace) == n);
		CHECK_STR(again, buf);
		pearl_agent_trace_clear(&trace);
	}
	pearl_policy_free(p);
	pearl_program_free(mm);
	pearl_program_free(seidel);
}

int main(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();

	test_matmul_graph(ctx);
	test_action_space();
	test_masks(ctx);
	test_tiled_masks(ctx);
	test_agent(ctx);
	pearl_ctx_free(ctx);
	return check_done("test_agent");
}
