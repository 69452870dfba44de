/* Growing arrays (pearl/grow.h): room grows geometrically and keeps the
 * elements; pearl_grow_free clears every element once, then frees. */
#include <stdlib.h>

#include "check.h"
#include "pearl/grow.h"

struct item {
	int value;
	int *cleared; /* counts the calls of clear_item on this element */
};

static void clear_item(void *elem)
{
	struct item *it = elem;

	++*it->cleared;
}

static void test_grow_keeps_elements(void)
{
	int *a = NULL;
	int cap = 0, i;

	CHECK(pearl_grow(&a, &cap, 1, sizeof(*a)) == 0);
	CHECK(a && cap == 8);
	for (i = 0; i < 8; ++i)
		a[i] = i;
	CHECK(pearl_grow(&a, &cap, 5, sizeof(*a)) == 0);
	CHECK(cap == 8);
	CHECK(pearl_grow(&a, &cap, 9, sizeof(*a)) == 0);
	CHECK(cap == 16);
	CHECK(pearl_grow(&a, &cap, 100, sizeof(*a)) == 0);
	CHECK(cap == 100);
	for (i = 0; i < 8; ++i)
		CHECK(a[i] == i);
	free(a);
}

static void test_grow_refuses_overflow(void)
{
	char *a = NULL;
	int cap = 0;

	CHECK(pearl_grow(&a, &cap, 2, (size_t)-1 / 2) == -1);
	CHECK(!a && cap == 0);
}

static void test_grow_free_clears_each(void)
{
	int cleared[5] = {0};
	struct item *items = NULL;
	int cap = 0, i;

	CHECK(pearl_grow(&items, &cap, 5, sizeof(*items)) == 0);
	for (i = 0; i < 5; ++i) {
		items[i].value = i;
		items[i].cleared = &cleared[i];
	}
	/* Only the first 3 are in use: the others must not be touched. */
	pearl_grow_free(items, 3, sizeof(*items), &clear_item);
	CHECK(cleared[0] == 1 && cleared[1] == 1 && cleared[2] == 1);
	CHECK(cleared[3] == 0 && cleared[4] == 0);

	pearl_grow_free(NULL, 4, sizeof(*items), &clear_item);
	items = malloc(2 * sizeof(*items));
	CHECK(items != NULL);
	pearl_grow_free(items, 2, sizeof(*items), NULL);
}

int main(void)
{
	test_grow_keeps_elements();
	test_grow_refuses_overflow();
	test_grow_free_clears_each();
	return check_done("test_grow");
}
