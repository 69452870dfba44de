/* The label conflicts of imitation's decisions
 * (tools/pearl-train/label_conflicts.h): decisions in the same state (graph
 * and mask, bit for bit) with different actions, the accuracy no policy
 * can pass, and the distilled decisions left out. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "label_conflicts.h"
#include "pearl/graph.h"

enum { N_ACTIONS = 4 };

/* A graph of two nodes, one edge, whose first feature is `f`. */
static struct pearl_graph *graph_with(float f)
{
	struct pearl_graph *g = pearl_graph_alloc(2, 3, 1);

	if (!g)
		return NULL;
	g->x[0] = f;
	g->x[4] = 1;
	g->src[0] = 0;
	g->dst[0] = 1;
	g->n_edges = 1;
	return g;
}

/* Adds a decision of `action` in the state (f, mask bit 3 set if
 * `masked`). */
static int add(struct pearl_ppo_batch *b, float f, int masked, int action)
{
	unsigned char mask[N_ACTIONS] = { 0, 0, 0, 0 };

	mask[3] = (unsigned char)masked;
	return pearl_ppo_batch_add(b, graph_with(f), mask, action, 0, 0);
}

static void test_counts(void)
{
	static const float uniform[N_ACTIONS] = { 0.25f, 0.25f, 0.25f, 0.25f };
	struct pearl_ppo_batch b;
	struct label_conflicts c;
	char err[128];

	pearl_ppo_batch_init(&b, N_ACTIONS);
	/* state A: actions 1, 1, 2 (one decision always missed) */
	CHECK(add(&b, 1.0f, 0, 1) == 0);
	CHECK(add(&b, 1.0f, 0, 2) == 0);
	CHECK(add(&b, 1.0f, 0, 1) == 0);
	/* state B: A's graph with another mask, twice the same action */
	CHECK(add(&b, 1.0f, 1, 0) == 0);
	CHECK(add(&b, 1.0f, 1, 0) == 0);
	/* state C: once */
	CHECK(add(&b, 2.0f, 0, 3) == 0);
	/* a distilled decision in state A with another action: not counted */
	CHECK(add(&b, 1.0f, 0, 0) == 0);
	CHECK(pearl_ppo_step_set_target(&b, b.n_steps - 1, uniform) == 0);

	CHECK(label_conflicts_count(&b, &c, err, sizeof(err)) == 0);
	CHECK(c.decisions == 6);
	CHECK(c.states == 3);
	CHECK(c.shared == 2);
	CHECK(c.conflicting == 1);
	CHECK(c.missed == 1);
	CHECK(c.ceiling > 5.0 / 6 - 1e-9 && c.ceiling < 5.0 / 6 + 1e-9);

	/* a tie: 0, 0, 3, 3 in state C's graph: two missed of seven more */
	CHECK(add(&b, 2.0f, 0, 0) == 0);
	CHECK(add(&b, 2.0f, 0, 0) == 0);
	CHECK(add(&b, 2.0f, 0, 3) == 0);
	CHECK(label_conflicts_count(&b, &c, err, sizeof(err)) == 0);
	CHECK(c.decisions == 9 && c.states == 3 && c.conflicting == 2);
	CHECK(c.missed == 3);
	pearl_ppo_batch_clear(&b);

	/* no decisions: nothing missed */
	CHECK(label_conflicts_count(&b, &c, err, sizeof(err)) == 0);
	CHECK(c.decisions == 0 && c.states == 0 && c.ceiling == 1);
}

int main(void)
{
	test_counts();
	return check_done("label_conflicts");
}
