/* PPO (pearl/ppo.h): the loss's gradient against finite differences, GAE
 * against a hand computation, and learning: a bandit whose best action is
 * masked in half the states is learned, the mask is respected, and value
 * regression reduces its error. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "Policy/weights.h"
#include "check.h"
#include "pearl/imitation.h"
#include "pearl/ppo.h"
#include "pearl/random.h"

static uint64_t rng_state;

static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * pearl_random_unit(&rng_state);
}

/* The loss of pearl_ppo_step_loss, as a number, for finite differences. */
static double loss_of(const struct pearl_ppo_step *s, int n,
		      const float *logits, float value, float adv,
		      const struct pearl_ppo_config *cfg)
{
	float d[PEARL_PPO_MAX_ACTIONS], dv;
	double pol, val, ent, kl;
	int clipped;

	if (pearl_ppo_step_loss(s, n, logits, value, adv, cfg, d, &dv, &pol,
				&val, &ent, &kl, &clipped) < 0)
		return NAN;
	return pol + cfg->value_coef * val - cfg->entropy_coef * ent;
}

/* dL/dlogits and dL/dvalue against central differences, for ratios inside
 * and outside the clip range and both signs of the advantage. */
static void test_loss_gradient(void)
{
	struct pearl_ppo_config cfg = pearl_ppo_default_config();
	int n = 12, trial;

	rng_state = 5;
	for (trial = 0; trial < 12; ++trial) {
		struct pearl_ppo_step s;
		float logits[PEARL_PPO_MAX_ACTIONS], d[PEARL_PPO_MAX_ACTIONS];
		float value = (float)uniform(-1, 1), dv;
		float adv = trial % 2 ? 0.7f : -1.3f;
		double pol, val, ent, kl, worst = 0;
		int clipped, i;

		memset(&s, 0, sizeof(s));
		for (i = 0; i < n; ++i) {
			logits[i] = (float)uniform(-2, 2);
			s.mask[i] = i % 5 == 3;
		}
		s.action = 2;
		s.ret = (float)uniform(-1, 1);
		/* logp_old: near the current one (trial < 6), or far from
		 * it, so that the ratio is clipped on one side. */
		s.logp_old = (float)(log(0.1) + (trial < 6 ? 0.05 : trial < 9
									 ? 1.0
									 : -1.0));
		CHECK(pearl_ppo_step_loss(&s, n, logits, value, adv, &cfg, d,
					  &dv, &pol, &val, &ent, &kl,
					  &clipped) == 0);
		for (i = 0; i < n; ++i) {
			float save = logits[i];
			double h = 1e-3, up, down, fd;

			logits[i] = save + (float)h;
			up = loss_of(&s, n, logits, value, adv, &cfg);
			logits[i] = save - (float)h;
			down = loss_of(&s, n, logits, value, adv, &cfg);
			logits[i] = save;
			fd = (up - down) / (2 * h);
			if (s.mask[i])
				CHECK(d[i] == 0);
			if (fabs(fd - d[i]) > worst)
				worst = fabs(fd - d[i]);
		}
		{
			double h = 1e-3;
			double fd = (loss_of(&s, n, logits, value + (float)h, adv,
					     &cfg) -
				     loss_of(&s, n, logits, value - (float)h, adv,
					     &cfg)) /
				    (2 * h);
			CHECK(fabs(fd - dv) < 1e-2);
		}
		if (worst > 2e-3)
			fprintf(stderr, "trial %d: gradient error %g\n", trial,
				worst);
		CHECK(worst <= 2e-3);
	}
	/* A masked action cannot be the one taken. */
	{
		struct pearl_ppo_step s;
		float logits[4] = {0, 0, 0, 0}, d[4], dv;
		double pol, val, ent, kl;
		int clipped;

		memset(&s, 0, sizeof(s));
		s.mask[1] = 1;
		s.action = 1;
		CHECK(pearl_ppo_step_loss(&s, 4, logits, 0, 1, &cfg, d, &dv,
					  &pol, &val, &ent, &kl,
					  &clipped) == -1);
	}
}

/* GAE on two episodes, against the recursion written out. */
static void test_gae(void)
{
	struct pearl_ppo_batch b;
	float r[5] = {1, 0, 2, -1, 0.5f}, v[5] = {0.5f, 0.2f, 1, 0, 0.3f};
	int end[5] = {0, 0, 1, 0, 1}, i;
	double g = 0.9, l = 0.8;

	pearl_ppo_batch_init(&b, 4);
	for (i = 0; i < 5; ++i) {
		unsigned char mask[4] = {0};
		struct pearl_graph *graph = pearl_graph_alloc(1, 2, 0);

		CHECK(pearl_ppo_batch_add(&b, graph, mask, 0, 0, v[i]) == 0);
		b.steps[i].reward = r[i];
		b.steps[i].episode_end = end[i];
	}
	pearl_ppo_batch_finish(&b, (float)g, (float)l);
	{
		/* Episode 1: steps 0-2; episode 2: steps 3-4. */
		double d2 = r[2] - v[2];
		double d1 = r[1] + g * v[2] - v[1];
		double d0 = r[0] + g * v[1] - v[0];
		double a2 = d2, a1 = d1 + g * l * a2, a0 = d0 + g * l * a1;
		double d4 = r[4] - v[4], d3 = r[3] + g * v[4] - v[3];
		double a4 = d4, a3 = d3 + g * l * a4;

		CHECK(fabs(b.steps[0].advantage - a0) < 1e-5);
		CHECK(fabs(b.steps[1].advantage - a1) < 1e-5);
		CHECK(fabs(b.steps[2].advantage - a2) < 1e-5);
		CHECK(fabs(b.steps[3].advantage - a3) < 1e-5);
		CHECK(fabs(b.steps[4].advantage - a4) < 1e-5);
		CHECK(fabs(b.steps[0].ret - (a0 + v[0])) < 1e-5);
	}
	pearl_ppo_batch_clear(&b);
	CHECK(b.n_steps == 0);
}

/* Two states (graphs); reward 1 for action 5, 0.3 for action 9, 0 else.
 * In state B action 5 is masked, so B's best is 9. */
static struct pearl_graph *bandit_graph(int f, int which)
{
	struct pearl_graph *g = pearl_graph_alloc(3, f, 2);
	int i;

	for (i = 0; i < 3 * f; ++i)
		g->x[i] = (float)((i * 7 + which * 13) % 11) / 11.0f - 0.4f;
	g->src[0] = 0, g->dst[0] = 1;
	g->src[1] = 0, g->dst[1] = 2;
	g->n_edges = 2;
	return g;
}

static double prob_of(pearl_policy *p, const struct pearl_graph *g,
		      const unsigned char *mask, int n, int action)
{
	float logits[PEARL_PPO_MAX_ACTIONS], logp[PEARL_PPO_MAX_ACTIONS], v;

	if (pearl_policy_eval(p, g, logits, &v, NULL, 0) < 0 ||
	    pearl_masked_log_softmax(logp, logits, mask, n) < 0)
		return NAN;
	return exp(logp[action]);
}

static int sample(const float *logp, const unsigned char *mask, int n)
{
	double u = uniform(0, 1), acc = 0;
	int i, last = 0;

	for (i = 0; i < n; ++i) {
		if (mask[i])
			continue;
		acc += exp(logp[i]);
		last = i;
		if (u < acc)
			return i;
	}
	return last;
}

static void test_bandit(void)
{
	struct pearl_policy_config cfg = {16, 16, 2, 2, 12, 0};
	struct pearl_ppo_config ppo = pearl_ppo_default_config();
	struct pearl_adam_config acfg = pearl_adam_default_config();
	pearl_policy *p = pearl_policy_init_random(&cfg, 3, NULL, 0);
	size_t n_params;
	pearl_adam *adam;
	struct pearl_graph *g[2] = {bandit_graph(16, 0), bandit_graph(16, 1)};
	unsigned char mask[2][PEARL_PPO_MAX_ACTIONS] = {{0}};
	double p5_before, p9_before, reward_first = -1, reward_last = -1;
	uint64_t shuffle_rng = 1;
	int iter;

	mask[0][11] = 1;
	mask[1][5] = 1;
	mask[1][11] = 1;
	acfg.lr = 3e-3f;
	pearl_policy_get_params(p, &n_params);
	adam = pearl_adam_alloc(n_params, &acfg, NULL, 0);
	CHECK(p && adam && g[0] && g[1]);
	if (!p || !adam || !g[0] || !g[1])
		return;
	p5_before = prob_of(p, g[0], mask[0], 12, 5);
	p9_before = prob_of(p, g[1], mask[1], 12, 9);
	ppo.minibatch = 16;
	ppo.entropy_coef = 0.01f;
	rng_state = 17;
	for (iter = 0; iter < 30; ++iter) {
		struct pearl_ppo_batch b;
		struct pearl_ppo_stats st;
		char err[256];
		double total = 0;
		int i;

		pearl_ppo_batch_init(&b, 12);
		for (i = 0; i < 64; ++i) {
			int s = i % 2, a;
			float logits[PEARL_PPO_MAX_ACTIONS], v;
			float logp[PEARL_PPO_MAX_ACTIONS];

			pearl_policy_eval(p, g[s], logits, &v, NULL, 0);
			pearl_masked_log_softmax(logp, logits, mask[s], 12);
			a = sample(logp, mask[s], 12);
			CHECK(!mask[s][a]);
			pearl_ppo_batch_add(&b, pearl_graph_copy(g[s]), mask[s],
					    a, logp[a], v);
			b.steps[i].reward = a == 5 ? 1.0f : a == 9 ? 0.3f : 0;
			b.steps[i].episode_end = 1;
			total += b.steps[i].reward;
		}
		pearl_ppo_batch_finish(&b, ppo.gamma, ppo.lambda);
		if (pearl_ppo_update(p, adam, &b, &ppo, &shuffle_rng, &st, err,
				     sizeof(err)) < 0) {
			fprintf(stderr, "update: %s\n", err);
			CHECK(0);
			pearl_ppo_batch_clear(&b);
			break;
		}
		CHECK(st.adam_steps == ppo.epochs * 4);
		if (iter == 0)
			reward_first = total / 64;
		reward_last = total / 64;
		pearl_ppo_batch_clear(&b);
	}
	printf("bandit: p(5|A) %.3f -> %.3f, p(9|B) %.3f -> %.3f, "
	       "mean reward %.3f -> %.3f\n",
	       p5_before, prob_of(p, g[0], mask[0], 12, 5), p9_before,
	       prob_of(p, g[1], mask[1], 12, 9), reward_first, reward_last);
	CHECK(prob_of(p, g[0], mask[0], 12, 5) > 0.8);
	CHECK(prob_of(p, g[1], mask[1], 12, 9) > 0.8);
	CHECK(reward_last > reward_first + 0.3);
	/* Value regression: the two states' targets are learned. */
	{
		struct pearl_graph *graphs[2] = {g[0], g[1]};
		float targets[2] = {1.5f, -0.5f};
		double mse = 0, first = -1;
		int e;

		for (e = 0; e < 200; ++e) {
			CHECK(pearl_value_regression_epoch(p, adam, graphs,
							   targets, 2, 2,
							   &shuffle_rng, &mse,
							   NULL, 0) == 0);
			if (e == 0)
				first = mse;
		}
		printf("value regression: mse %.4f -> %.4f\n", first, mse);
		CHECK(mse < 0.01 && mse < first);
	}
	pearl_graph_free(g[0]);
	pearl_graph_free(g[1]);
	pearl_adam_free(adam);
	pearl_policy_free(p);
}

/* Imitation: state A's decisions say action 3, state B's action 7 (action
 * 3 masked there); the policy learns both, the value head's weights are
 * untouched (the shared layers, and so the value, do change), and a
 * decision whose action is masked is refused. */
static void test_imitation(void)
{
	struct pearl_policy_config cfg = {16, 16, 2, 2, 12, 0};
	struct pearl_adam_config acfg = pearl_adam_default_config();
	pearl_policy *p = pearl_policy_init_random(&cfg, 5, NULL, 0);
	struct pearl_graph *g[2] = {bandit_graph(16, 0), bandit_graph(16, 1)};
	unsigned char mask[2][PEARL_PPO_MAX_ACTIONS] = {{0}};
	struct pearl_ppo_batch b;
	float *head;
	size_t head_size = 16 * 16 * 2 + 16 * 2 + 16 + 1; /* v_w1..v_b3 */
	double loss0 = -1, loss = -1, acc = -1, vloss = -1, vacc = -1;
	uint64_t rng = 9;
	size_t n_params;
	pearl_adam *adam;
	char err[256];
	int e, i;

	mask[1][3] = 1;
	acfg.lr = 3e-3f;
	pearl_policy_get_params(p, &n_params);
	adam = pearl_adam_alloc(n_params, &acfg, NULL, 0);
	CHECK(p && adam && g[0] && g[1]);
	if (!p || !adam || !g[0] || !g[1])
		return;
	pearl_ppo_batch_init(&b, 12);
	for (i = 0; i < 8; ++i)
		CHECK(pearl_ppo_batch_add(&b, pearl_graph_copy(g[i % 2]),
					  mask[i % 2], i % 2 ? 7 : 3, 0,
					  0) == 0);
	head = malloc(head_size * sizeof(*head));
	CHECK(head != NULL);
	if (!head)
		return;
	memcpy(head, p->w.v_w1, head_size * sizeof(*head));
	CHECK(pearl_imitation_evaluate(p, &b, &loss0, NULL, err,
				       sizeof(err)) == 0);
	for (e = 0; e < 60; ++e)
		CHECK(pearl_imitation_epoch(p, adam, &b, 4, &rng, &loss, &acc,
					    err, sizeof(err)) == 0);
	CHECK(pearl_imitation_evaluate(p, &b, &vloss, &vacc, err,
				       sizeof(err)) == 0);
	printf("imitation: loss %.3f -> %.3f, accuracy %.2f, p(3|A) %.3f, "
	       "p(7|B) %.3f\n", loss0, vloss, vacc,
	       prob_of(p, g[0], mask[0], 12, 3),
	       prob_of(p, g[1], mask[1], 12, 7));
	CHECK(vloss < loss0 && vloss < 0.1 && vacc == 1.0);
	CHECK(prob_of(p, g[0], mask[0], 12, 3) > 0.9);
	CHECK(prob_of(p, g[1], mask[1], 12, 7) > 0.9);
	CHECK(p->w.v_b3 + 1 - p->w.v_w1 == (ptrdiff_t)head_size);
	CHECK(memcmp(head, p->w.v_w1, head_size * sizeof(*head)) == 0);
	free(head);
	b.steps[1].action = 3; /* masked in state B */
	CHECK(pearl_imitation_evaluate(p, &b, &vloss, NULL, err,
				       sizeof(err)) < 0);
	CHECK(pearl_imitation_epoch(p, adam, &b, 4, &rng, NULL, NULL, err,
				    sizeof(err)) < 0);
	pearl_ppo_batch_clear(&b);
	pearl_graph_free(g[0]);
	pearl_graph_free(g[1]);
	pearl_adam_free(adam);
	pearl_policy_free(p);
}

/* A small policy (12 actions) and an Adam for it at lr 3e-3, for the
 * imitation tests; *adam NULL (and the policy freed) on failure. */
static pearl_policy *imitation_fixture(uint64_t seed, pearl_adam **adam)
{
	struct pearl_policy_config cfg = {16, 16, 2, 2, 12, 0};
	struct pearl_adam_config acfg = pearl_adam_default_config();
	pearl_policy *p = pearl_policy_init_random(&cfg, seed, NULL, 0);
	size_t n_params = 0;

	acfg.lr = 3e-3f;
	if (p)
		pearl_policy_get_params(p, &n_params);
	*adam = p ? pearl_adam_alloc(n_params, &acfg, NULL, 0) : NULL;
	if (!*adam) {
		pearl_policy_free(p);
		return NULL;
	}
	return p;
}

/* Weighted imitation: on one state, action 3 with weight 0.75 and action
 * 5 with weight 0.25 (two near-best schedules, one three times as
 * often); the policy learns that distribution, the minimum of the
 * weighted cross-entropy, and the weighted loss and accuracy are means
 * over the weights. */
static void test_imitation_weights(void)
{
	pearl_adam *adam;
	pearl_policy *p = imitation_fixture(7, &adam);
	struct pearl_graph *g = bandit_graph(16, 0);
	unsigned char mask[PEARL_PPO_MAX_ACTIONS] = {0};
	struct pearl_ppo_batch b;
	double loss = -1, acc = -1, p3, p5, entropy;
	uint64_t rng = 3;
	char err[256];
	int e, i;

	CHECK(p && adam && g);
	if (!p || !adam || !g)
		return;
	pearl_ppo_batch_init(&b, 12);
	for (i = 0; i < 8; ++i) {
		CHECK(pearl_ppo_batch_add(&b, pearl_graph_copy(g), mask,
					  i % 2 ? 5 : 3, 0, 0) == 0);
		CHECK(b.steps[i].weight == 1);
		b.steps[i].weight = i % 2 ? 0.25f : 0.75f;
	}
	for (e = 0; e < 150; ++e)
		CHECK(pearl_imitation_epoch(p, adam, &b, 4, &rng, NULL, NULL,
					    err, sizeof(err)) == 0);
	CHECK(pearl_imitation_evaluate(p, &b, &loss, &acc, err,
				       sizeof(err)) == 0);
	p3 = prob_of(p, g, mask, 12, 3);
	p5 = prob_of(p, g, mask, 12, 5);
	/* the minimum: the target distribution's entropy */
	entropy = -(0.75 * log(0.75) + 0.25 * log(0.25));
	printf("weighted imitation: p(3) %.3f, p(5) %.3f, loss %.4f "
	       "(entropy %.4f), accuracy %.2f\n", p3, p5, loss, entropy, acc);
	CHECK(fabs(p3 - 0.75) < 0.05 && fabs(p5 - 0.25) < 0.05);
	CHECK(loss >= entropy - 1e-3 && loss < entropy + 0.02);
	CHECK(fabs(acc - 0.75) < 1e-6); /* the argmax is 3: weight 0.75 */
	pearl_ppo_batch_clear(&b);
	pearl_graph_free(g);
	pearl_adam_free(adam);
	pearl_policy_free(p);
}

/* A target distribution (distillation): on one state, 0.6 on action 3,
 * 0.3 on 5, 0.1 on 8. Its loss and accuracy equal those of the same
 * decision split into one-hot decisions of those weights; the policy
 * learns the distribution; a target with mass on a masked action, or not
 * summing to 1, is refused. */
static void test_imitation_target(void)
{
	pearl_adam *adam;
	pearl_policy *p = imitation_fixture(11, &adam);
	struct pearl_graph *g = bandit_graph(16, 0);
	unsigned char mask[PEARL_PPO_MAX_ACTIONS] = {0};
	float t[12] = {0};
	const int split[3] = {3, 5, 8};
	struct pearl_ppo_batch soft, hard;
	double l_soft = -1, a_soft = -1, l_hard = -2, a_hard = -2, entropy;
	uint64_t rng = 5;
	char err[256];
	int e, i;

	t[3] = 0.6f, t[5] = 0.3f, t[8] = 0.1f;
	mask[1] = 1;
	CHECK(p && adam && g);
	if (!p || !adam || !g)
		return;
	pearl_ppo_batch_init(&soft, 12);
	pearl_ppo_batch_init(&hard, 12);
	for (i = 0; i < 4; ++i) {
		CHECK(pearl_ppo_batch_add(&soft, pearl_graph_copy(g), mask, 3,
					  0, 0) == 0);
		CHECK(pearl_ppo_step_set_target(&soft, i, t) == 0);
	}
	for (i = 0; i < 3; ++i) {
		CHECK(pearl_ppo_batch_add(&hard, pearl_graph_copy(g), mask,
					  split[i], 0, 0) == 0);
		hard.steps[i].weight = t[split[i]];
	}
	CHECK(pearl_imitation_evaluate(p, &soft, &l_soft, &a_soft, err,
				       sizeof(err)) == 0);
	CHECK(pearl_imitation_evaluate(p, &hard, &l_hard, &a_hard, err,
				       sizeof(err)) == 0);
	CHECK(fabs(l_soft - l_hard) < 1e-5 && fabs(a_soft - a_hard) < 1e-6);
	for (e = 0; e < 150; ++e)
		CHECK(pearl_imitation_epoch(p, adam, &soft, 2, &rng, NULL,
					    NULL, err, sizeof(err)) == 0);
	CHECK(pearl_imitation_evaluate(p, &soft, &l_soft, &a_soft, err,
				       sizeof(err)) == 0);
	entropy = -(0.6 * log(0.6) + 0.3 * log(0.3) + 0.1 * log(0.1));
	printf("imitated distribution: p(3) %.3f, p(5) %.3f, p(8) %.3f, "
	       "loss %.4f (entropy %.4f), accuracy %.2f\n",
	       prob_of(p, g, mask, 12, 3), prob_of(p, g, mask, 12, 5),
	       prob_of(p, g, mask, 12, 8), l_soft, entropy, a_soft);
	CHECK(fabs(prob_of(p, g, mask, 12, 3) - 0.6) < 0.05);
	CHECK(fabs(prob_of(p, g, mask, 12, 5) - 0.3) < 0.05);
	CHECK(fabs(prob_of(p, g, mask, 12, 8) - 0.1) < 0.05);
	CHECK(l_soft >= entropy - 1e-3 && l_soft < entropy + 0.02);
	CHECK(fabs(a_soft - 0.6) < 1e-6);
	t[1] = 0.1f, t[3] = 0.5f; /* mass on a masked action */
	CHECK(pearl_ppo_step_set_target(&soft, 0, t) == 0);
	CHECK(pearl_imitation_evaluate(p, &soft, &l_soft, NULL, err,
				       sizeof(err)) < 0);
	CHECK(pearl_imitation_epoch(p, adam, &soft, 2, &rng, NULL, NULL, err,
				    sizeof(err)) < 0);
	t[1] = 0, t[3] = 0.4f; /* sums to 0.8 */
	CHECK(pearl_ppo_step_set_target(&soft, 0, t) == 0);
	CHECK(pearl_imitation_evaluate(p, &soft, &l_soft, NULL, err,
				       sizeof(err)) < 0);
	pearl_ppo_batch_clear(&soft);
	pearl_ppo_batch_clear(&hard);
	pearl_graph_free(g);
	pearl_adam_free(adam);
	pearl_policy_free(p);
}

/* The held-out parts (pearl_imitation_evaluate_parts): in a batch of two
 * imitated actions (weights 1 and 0.5) and two targets (weights 2), each
 * part counts its own decisions, the actions' part scores as a batch of
 * them alone, the whole is pearl_imitation_evaluate's, and the weighted
 * mean of the parts' losses is the whole batch's. A part without
 * decisions is nan. */
static void test_imitation_parts(void)
{
	pearl_adam *adam;
	pearl_policy *p = imitation_fixture(13, &adam);
	struct pearl_graph *g = bandit_graph(16, 0);
	unsigned char mask[PEARL_PPO_MAX_ACTIONS] = {0};
	float t[12] = {0};
	struct pearl_ppo_batch b, only;
	struct pearl_imitation_score sb[pearl_imitation_n_parts];
	struct pearl_imitation_score so[pearl_imitation_n_parts];
	double all = -1, acc = -1, acts, tgts;
	char err[256];
	int i;

	t[2] = 0.5f, t[7] = 0.5f;
	CHECK(p && adam && g);
	if (!p || !adam || !g)
		return;
	pearl_ppo_batch_init(&b, 12);
	pearl_ppo_batch_init(&only, 12);
	for (i = 0; i < 4; ++i) {
		CHECK(pearl_ppo_batch_add(&b, pearl_graph_copy(g), mask,
					  i % 2 ? 3 : 5, 0, 0) == 0);
		if (i % 2 == 0) {
			CHECK(pearl_ppo_step_set_target(&b, i, t) == 0);
			b.steps[i].weight = 2;
		} else {
			CHECK(pearl_ppo_batch_add(&only, pearl_graph_copy(g),
						  mask, 3, 0, 0) == 0);
			b.steps[i].weight = i == 1 ? 1 : 0.5f;
			only.steps[only.n_steps - 1].weight = b.steps[i].weight;
		}
	}
	CHECK(pearl_imitation_evaluate(p, &b, &all, &acc, err,
				       sizeof(err)) == 0);
	CHECK(pearl_imitation_evaluate_parts(p, &b, sb, err,
					     sizeof(err)) == 0);
	CHECK(pearl_imitation_evaluate_parts(p, &only, so, err,
					     sizeof(err)) == 0);
	acts = sb[pearl_imitation_actions].loss;
	tgts = sb[pearl_imitation_targets].loss;
	CHECK(sb[pearl_imitation_actions].n == 2 &&
	      sb[pearl_imitation_targets].n == 2 &&
	      sb[pearl_imitation_all].n == 4);
	CHECK(fabs(acts - so[pearl_imitation_all].loss) < 1e-9);
	CHECK(sb[pearl_imitation_all].loss == all &&
	      sb[pearl_imitation_all].accuracy == acc);
	CHECK(fabs(all - (1.5 * acts + 4 * tgts) / 5.5) < 1e-6);
	CHECK(so[pearl_imitation_targets].n == 0 &&
	      isnan(so[pearl_imitation_targets].loss));
	pearl_ppo_batch_clear(&b);
	pearl_ppo_batch_clear(&only);
	pearl_graph_free(g);
	pearl_adam_free(adam);
	pearl_policy_free(p);
}

int main(void)
{
	test_loss_gradient();
	test_gae();
	test_bandit();
	test_imitation();
	test_imitation_weights();
	test_imitation_target();
	test_imitation_parts();
	return check_done("test_ppo");
}
