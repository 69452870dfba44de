/* Room in a growing malloc'd array (pearl/grow.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/grow.h"

int pearl_grow(void *array, int *cap, int need, size_t elem_size)
{
	long long n = 2 * (long long)*cap;
	void *old, *grown;

	if (need <= *cap)
		return 0;
	if (n < need)
		n = need;
	if (n < 8)
		n = 8;
	if (n > INT_MAX)
		n = INT_MAX;
	if (elem_size && (size_t)n > SIZE_MAX / elem_size)
		return -1;
	/* The pointer is copied as bytes: it is a T *, not a void *. */
	memcpy(&old, array, sizeof(old));
	grown = realloc(old, (size_t)n * elem_size);
	if (!grown)
		return -1;
	memcpy(array, &grown, sizeof(grown));
	*cap = (int)n;
	return 0;
}

void pearl_grow_free(void *array, int n, size_t elem_size,
	void (*clear)(void *elem))
{
	int i;

	if (array && clear)
		for (i = 0; i < n; ++i)
			clear((char *)array + (size_t)i * elem_size);
	free(array);
}
