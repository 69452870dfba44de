/* Wall-clock time (pearl/clock.h). */
#include <time.h>

#include "pearl/clock.h"

double pearl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
