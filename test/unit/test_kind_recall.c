/* Imitation's decisions by kind of action (tools/pearl-train/
 * kind_recall.h): --imitate-kind-weight's list, the weights it scales
 * (the imitated decisions of the kinds named, not the distilled ones),
 * and the table pearl-train prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kind_recall.h"
#include "pearl/action_space.h"
#include "pearl/graph.h"
#include "pearl/transform.h"

static void test_parse(void)
{
	float w[KIND_RECALL_KINDS];

	CHECK(kind_weights_parse("V=4", w) == 0);
	CHECK(w[pearl_action_vectorize] == 4 && w[pearl_action_next] == 1);
	CHECK(kind_weights_parse("V=4,D=2.5,N=0.5", w) == 0);
	CHECK(w[pearl_action_vectorize] == 4 &&
	      w[pearl_action_distribute] == 2.5f &&
	      w[pearl_action_next] == 0.5f && w[pearl_action_tile] == 1);
	CHECK(kind_weights_parse("K=100", w) == 0);
	CHECK(w[pearl_action_copy] == 100);
	/* not a list of letters and factors in (0, 100] */
	CHECK(kind_weights_parse("", w) < 0);
	CHECK(kind_weights_parse("V", w) < 0);
	CHECK(kind_weights_parse("V=", w) < 0);
	CHECK(kind_weights_parse("V=0", w) < 0);
	CHECK(kind_weights_parse("V=-1", w) < 0);
	CHECK(kind_weights_parse("V=101", w) < 0);
	CHECK(kind_weights_parse("X=2", w) < 0);
	CHECK(kind_weights_parse("v=2", w) < 0);
	CHECK(kind_weights_parse("V=2,", w) < 0);
	CHECK(kind_weights_parse("V=2;D=2", w) < 0);
	CHECK(kind_weights_parse("V=nan", w) < 0);
}

/* The id of the first action of `kind` in the action space. */
static int first_of(enum pearl_action_kind kind)
{
	struct pearl_action a;
	int id;

	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
		if (pearl_action_space_decode(id, &a) == 0 && a.kind == kind)
			return id;
	return -1;
}

static void test_apply(void)
{
	static float uniform[PEARL_ACTION_SPACE_SIZE];
	unsigned char mask[PEARL_ACTION_SPACE_SIZE] = { 0 };
	int v = first_of(pearl_action_vectorize);
	int n = first_of(pearl_action_next);
	struct pearl_ppo_batch b;
	float w[KIND_RECALL_KINDS];
	int i;

	CHECK(v >= 0 && n >= 0);
	for (i = 0; i < PEARL_ACTION_SPACE_SIZE; ++i)
		uniform[i] = 1.0f / PEARL_ACTION_SPACE_SIZE;
	pearl_ppo_batch_init(&b, PEARL_ACTION_SPACE_SIZE);
	CHECK(pearl_ppo_batch_add(&b, pearl_graph_alloc(1, 3, 0), mask, v, 0,
				  0) == 0);
	CHECK(pearl_ppo_batch_add(&b, pearl_graph_alloc(1, 3, 0), mask, n, 0,
				  0) == 0);
	/* a distilled decision whose action is a V: it learns a
	 * distribution, its weight stays */
	CHECK(pearl_ppo_batch_add(&b, pearl_graph_alloc(1, 3, 0), mask, v, 0,
				  0) == 0);
	CHECK(pearl_ppo_step_set_target(&b, 2, uniform) == 0);
	b.steps[1].weight = 0.5f;
	CHECK(kind_weights_parse("V=4,D=2", w) == 0);
	kind_weights_apply(&b, w);
	CHECK(b.steps[0].weight == 4);
	CHECK(b.steps[1].weight == 0.5f);
	CHECK(b.steps[2].weight == 1);
	pearl_ppo_batch_clear(&b);
}

static void test_print(void)
{
	struct kind_recall r;
	char buf[1024] = "";
	FILE *f = tmpfile();

	memset(&r, 0, sizeof(r));
	/* 4 V decisions: 1 picked, 2 picked N, 1 picked U */
	r.n[pearl_action_vectorize] = 4;
	r.weight[pearl_action_vectorize] = 4;
	r.exact[pearl_action_vectorize] = 1;
	r.picked[pearl_action_vectorize][pearl_action_vectorize] = 1;
	r.picked[pearl_action_vectorize][pearl_action_next] = 2;
	r.picked[pearl_action_vectorize][pearl_action_unroll] = 1;
	CHECK(f != NULL);
	if (!f)
		return;
	kind_recall_print(f, "> ", &r);
	rewind(f);
	CHECK(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	CHECK_STR(buf, "> V:      4 decisions, the action picked 0.250, its "
		       "kind 0.250; instead N 0.500, U 0.250\n");
}

int main(void)
{
	test_parse();
	test_apply();
	test_print();
	return check_done("test_kind_recall");
}
