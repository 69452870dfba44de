/* The near-best schedules of a program (tools/pearl-train/near_best.h):
 * kept fastest first, distinct, at most NEAR_BEST_MAX, a schedule noted
 * again keeping its faster measurement. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "near_best.h"

static void test_order_and_cap(void)
{
	struct near_best nb;
	char name[16];
	int i;

	near_best_init(&nb);
	CHECK(near_best_note(&nb, "", 3.0) == 0 && nb.n == 0);
	CHECK(near_best_note(&nb, "P(0)", 0) == 0 && nb.n == 0);
	CHECK(near_best_note(&nb, "P(0)", 2.0) == 0);
	CHECK(near_best_note(&nb, "T(0,1,32,32) P(0)", 3.0) == 0);
	CHECK(near_best_note(&nb, "P(0) U(4)", 2.5) == 0);
	CHECK(nb.n == 3);
	CHECK_STR(nb.schedule[0], "T(0,1,32,32) P(0)");
	CHECK_STR(nb.schedule[1], "P(0) U(4)");
	CHECK_STR(nb.schedule[2], "P(0)");
	/* noted again: the faster measurement counts, once */
	CHECK(near_best_note(&nb, "P(0)", 1.5) == 0);
	CHECK(nb.n == 3 && nb.speedup[2] == 2.0);
	CHECK(near_best_note(&nb, "P(0)", 2.8) == 0);
	CHECK(nb.n == 3 && nb.speedup[1] == 2.8);
	CHECK_STR(nb.schedule[1], "P(0)");
	/* full: the slowest leaves, a slower one is not kept */
	for (i = 0; i < NEAR_BEST_MAX; ++i) {
		snprintf(name, sizeof(name), "U(%d)", 2 + i);
		CHECK(near_best_note(&nb, name, 1.1 + 0.1 * i) == 0);
	}
	CHECK(nb.n == NEAR_BEST_MAX);
	CHECK_STR(nb.schedule[0], "T(0,1,32,32) P(0)");
	CHECK(nb.speedup[NEAR_BEST_MAX - 1] == 1.1 + 0.1 * 3);
	CHECK(near_best_note(&nb, "R(0)", 1.0) == 0);
	CHECK(nb.n == NEAR_BEST_MAX);
	for (i = 1; i < nb.n; ++i)
		CHECK(nb.speedup[i - 1] >= nb.speedup[i]);
	near_best_clear(&nb);
	CHECK(nb.n == 0);
}

int main(void)
{
	test_order_and_cap();
	return check_done("test_near_best");
}
