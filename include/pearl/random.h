/*
 * The project's one pseudo-random generator: splitmix64 (state +=
 * 0x9e3779b97f4a7c15, then two xor-shift-multiply rounds). Every seeded
 * stream in Pearl (weight initialization, the agent's sampler, PPO's
 * shuffles, pearl-gen's programs, the training tools) draws from it, so a
 * seed gives the same numbers on every machine and build.
 */
#ifndef PEARL_RANDOM_H
#define PEARL_RANDOM_H

#include <stdint.h>

/* The next number of the stream whose state is *state (advanced). */
static inline uint64_t pearl_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, 1) from the next one of the stream (*state advanced):
 * its top 53 bits times 2^-53, exact in a double. */
static inline double pearl_random_unit(uint64_t *state)
{
	return (double)(pearl_splitmix64(state) >> 11) * 0x1.0p-53;
}

/* idx[0..n-1] = a permutation of 0..n-1 drawn from *state (advanced):
 * Fisher-Yates from the end. */
static inline void pearl_shuffle_indices(int *idx, int n, uint64_t *state)
{
	int i;

	for (i = 0; i < n; ++i)
		idx[i] = i;
	for (i = n - 1; i > 0; --i) {
		int j = (int)(pearl_splitmix64(state) % (uint64_t)(i + 1));
		int t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
}

/* The sum of weights[0..n-1]. */
static inline int pearl_weights_total(const int *weights, int n)
{
	int i, total = 0;

	for (i = 0; i < n; ++i)
		total += weights[i];
	return total;
}

/* The index i whose share of [0, total) holds x, for a weighted draw:
 * weights[0] values for 0, the next weights[1] for 1, and so on (n - 1
 * when x is beyond the total). */
static inline int pearl_weighted_index(const int *weights, int n, int x)
{
	int i;

	for (i = 0; i < n; ++i) {
		if (x < weights[i])
			return i;
		x -= weights[i];
	}
	return n - 1;
}

#endif
