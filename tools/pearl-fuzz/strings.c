/* A list of copied strings (fuzz.h). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pearl/grow.h"
#include "pearl/str.h"

int fuzz_strings_add(struct fuzz_strings *l, const char *text)
{
	if (pearl_grow(&l->s, &l->cap, l->n + 1, sizeof(*l->s)) < 0)
		return -1;
	l->s[l->n] = strdup(text);
	if (!l->s[l->n])
		return -1;
	l->n++;
	return 0;
}

int fuzz_strings_contain(const struct fuzz_strings *l, const char *text)
{
	return pearl_str_index((const char *const *)l->s, l->n, text) >= 0;
}

void fuzz_strings_clear(struct fuzz_strings *l)
{
	pearl_str_array_free(l->s, l->n);
	memset(l, 0, sizeof(*l));
}
