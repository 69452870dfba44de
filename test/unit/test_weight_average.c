/* The mean of a policy's parameters over epochs
 * (tools/pearl-train/weight_average.h): the running mean is the mean of
 * the epochs added, applying it overwrites the parameters, and applying
 * it with none added leaves them alone. */
#include <math.h>

#include "check.h"
#include "weight_average.h"

static int near(float a, float b)
{
	return fabsf(a - b) <= 1e-6f * (1 + fabsf(b));
}

static void test_mean_of_epochs(void)
{
	float params[3] = {1, -2, 0.5f};
	float epochs[3][3] = {{1, -2, 0.5f}, {3, 2, 0.5f}, {-1, 6, 2}};
	struct weight_average a;
	int e, i;

	CHECK(weight_average_init(&a, params, 3) == 0);
	weight_average_apply(&a); /* nothing added: unchanged */
	CHECK(params[0] == 1 && params[1] == -2 && params[2] == 0.5f);
	for (e = 0; e < 3; ++e) {
		for (i = 0; i < 3; ++i)
			params[i] = epochs[e][i];
		weight_average_add(&a, 4 + e);
	}
	CHECK(a.count == 3 && a.first == 4 && a.last == 6);
	/* the parameters stay those of the last epoch until applied */
	CHECK(params[0] == -1 && params[1] == 6 && params[2] == 2);
	weight_average_apply(&a);
	CHECK(near(params[0], 1));
	CHECK(near(params[1], 2));
	CHECK(near(params[2], 1));
	weight_average_clear(&a);
	CHECK(a.mean == NULL && a.count == 0);
}

int main(void)
{
	test_mean_of_epochs();
	return check_done("test_weight_average");
}
