/*
 * pearl/clock.h - wall-clock time for progress, budgets and deadlines.
 */
#ifndef PEARL_CLOCK_H
#define PEARL_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on the monotonic clock (an arbitrary origin: take differences). */
double pearl_now(void);

#ifdef __cplusplus
}
#endif

#endif
