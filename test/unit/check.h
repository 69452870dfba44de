/* A minimal unit-test harness: CHECK records failures, check_done reports. */
#ifndef PEARL_TEST_CHECK_H
#define PEARL_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond)                                                            \
	do {                                                                   \
		++check_count;                                                 \
		if (!(cond)) {                                                 \
			++check_failures;                                      \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		++check_count;                                                 \
		if (!g_ || strcmp(g_, w_) != 0) {                              \
			++check_failures;                                      \
			fprintf(stderr, "%s:%d: got  \"%s\"\n%*swant \"%s\"\n", \
				__FILE__, __LINE__, g_ ? g_ : "(null)",        \
				(int)strlen(__FILE__) + 6, "", w_);            \
		}                                                              \
	} while (0)

static int check_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
