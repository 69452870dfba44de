/* A list of copied strings (fuzz.h). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int fuzz_strings_add(struct fuzz_strings *l, const char *text)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		char **grown = realloc(l->s, (size_t)cap * sizeof(*grown));

		if (!grown)
			return -1;
		l->s = grown;
		l->cap = cap;
	}
	l->s[l->n] = strdup(text);
	if (!l->s[l->n])
		return -1;
	l->n++;
	return 0;
}

int fuzz_strings_contain(const struct fuzz_strings *l, const char *text)
{
	int i;

	for (i = 0; i < l->n; ++i)
		if (!strcmp(l->s[i], text))
			return 1;
	return 0;
}

void fuzz_strings_clear(struct fuzz_strings *l)
{
	int i;

	for (i = 0; i < l->n; ++i)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof(*l));
}
