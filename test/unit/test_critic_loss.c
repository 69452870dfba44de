/* The critic's loss with a ranking term (tools/pearl-critic/critic_loss.h):
 * its gradient against finite differences, the squared error alone without
 * the ranking term, pairs within the margin left out, and an ordered
 * critic's ranking term below a reversed one's. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "critic_loss.h"

#define N 6

static const float targets[N] = {0.0f, 1.5f, 1.55f, -0.7f, 3.0f, 0.2f};

/* dL/dv against central differences, for pair weight w and scale s. */
static void check_gradient(float w, float s)
{
	float v[N] = {0.3f, -0.4f, 1.2f, 0.1f, 2.2f, 0.25f};
	float dv[N] = {0};
	int i;

	critic_program_loss(v, targets, N, w, 0.1375f, s, dv, NULL);
	for (i = 0; i < N; ++i) {
		float keep = v[i], h = 1e-3f;
		double up, down, numeric;

		v[i] = keep + h;
		up = critic_program_loss(v, targets, N, w, 0.1375f, s, NULL,
					 NULL);
		v[i] = keep - h;
		down = critic_program_loss(v, targets, N, w, 0.1375f, s, NULL,
					   NULL);
		v[i] = keep;
		numeric = s * (up - down) / (2 * (double)h);
		if (fabs(numeric - dv[i]) > 1e-3 * (1 + fabs(numeric)))
			fprintf(stderr, "w %g, v[%d]: analytic %g, numeric %g\n",
				w, i, dv[i], numeric);
		CHECK(fabs(numeric - dv[i]) <= 1e-3 * (1 + fabs(numeric)));
	}
}

static void test_gradients(void)
{
	check_gradient(0, 1);
	check_gradient(1, 1);
	check_gradient(2.5f, 0.25f);
}

/* Without the ranking term: the mean squared error and its gradient. */
static void test_mse_alone(void)
{
	float v[N] = {0.0f, 1.0f, 2.0f, 0.0f, 3.0f, 0.0f};
	float dv[N] = {0};
	struct critic_loss_terms terms;
	double want = 0, loss;
	int i;

	for (i = 0; i < N; ++i)
		want += (v[i] - targets[i]) * (v[i] - targets[i]);
	loss = critic_program_loss(v, targets, N, 0, 0.1375f, 1, dv, &terms);
	CHECK(fabs(loss - want / N) < 1e-6);
	CHECK(fabs(terms.sq - want) < 1e-6);
	CHECK(terms.pairs == 0 && terms.pair == 0);
	for (i = 0; i < N; ++i)
		CHECK(fabs(dv[i] - 2 * (v[i] - targets[i]) / N) < 1e-6);
}

/* Pairs: 1.5 and 1.55 are within the margin; every other pair counts. */
static void test_pairs_and_order(void)
{
	float ordered[N], reversed[N];
	struct critic_loss_terms a, b;
	int i;

	for (i = 0; i < N; ++i) {
		ordered[i] = targets[i];
		reversed[i] = -targets[i];
	}
	critic_program_loss(ordered, targets, N, 1, 0.1375f, 1, NULL, &a);
	critic_program_loss(reversed, targets, N, 1, 0.1375f, 1, NULL, &b);
	CHECK(a.pairs == N * (N - 1) / 2 - 1);
	CHECK(b.pairs == a.pairs);
	CHECK(a.sq == 0);
	CHECK(a.pair < log(2.0) && b.pair > log(2.0));
	/* equal values: every pair at log 2 */
	for (i = 0; i < N; ++i)
		ordered[i] = 0.5f;
	critic_program_loss(ordered, targets, N, 1, 0.1375f, 1, NULL, &a);
	CHECK(fabs(a.pair - log(2.0)) < 1e-9);
	/* one sample: nothing to order */
	CHECK(critic_program_loss(ordered, targets, 1, 1, 0.1375f, 1, NULL,
				  &a) == (0.5 - 0.0) * (0.5 - 0.0));
	CHECK(a.pairs == 0);
}

int main(void)
{
	test_gradients();
	test_mse_alone();
	test_pairs_and_order();
	return check_done("critic_loss");
}
