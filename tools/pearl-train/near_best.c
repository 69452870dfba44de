/* The near-best schedules of a program (near_best.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "near_best.h"
#include "teacher.h"

void near_best_init(struct near_best *nb)
{
	memset(nb, 0, sizeof(*nb));
}

void near_best_clear(struct near_best *nb)
{
	int i;

	for (i = 0; i < nb->n; ++i)
		free(nb->schedule[i]);
	near_best_init(nb);
}

/* Removes entry `at`. */
static void drop(struct near_best *nb, int at)
{
	size_t rest = (size_t)(nb->n - at - 1);

	free(nb->schedule[at]);
	memmove(&nb->schedule[at], &nb->schedule[at + 1],
		rest * sizeof(nb->schedule[0]));
	memmove(&nb->speedup[at], &nb->speedup[at + 1],
		rest * sizeof(nb->speedup[0]));
	nb->n--;
}

int near_best_note(struct near_best *nb, const char *schedule,
		   double speedup)
{
	int i, at;
	char *copy;

	if (!*schedule || !(speedup > 0))
		return 0;
	for (i = 0; i < nb->n; ++i)
		if (!strcmp(nb->schedule[i], schedule)) {
			if (speedup <= nb->speedup[i])
				return 0;
			drop(nb, i);
			break;
		}
	if (nb->n == NEAR_BEST_MAX && speedup <= nb->speedup[nb->n - 1])
		return 0;
	copy = strdup(schedule);
	if (!copy)
		return -1;
	if (nb->n == NEAR_BEST_MAX)
		drop(nb, nb->n - 1);
	for (at = nb->n; at > 0 && nb->speedup[at - 1] < speedup; --at) {
		nb->schedule[at] = nb->schedule[at - 1];
		nb->speedup[at] = nb->speedup[at - 1];
	}
	nb->schedule[at] = copy;
	nb->speedup[at] = speedup;
	nb->n++;
	return 0;
}

/* Sets the weight of batch's steps from `first` on to w. */
static void weigh(struct pearl_ppo_batch *batch, int first, float w)
{
	int i;

	for (i = first; i < batch->n_steps; ++i)
		batch->steps[i].weight = w;
}

int near_best_record(const struct near_best *nb, pearl_env_program *p,
		     const char *best, double min_speedup, int max,
		     struct pearl_ppo_batch *batch, char *err,
		     size_t err_size)
{
	int first = batch->n_steps, i, r, k;

	r = teacher_record(p, best, batch, err, err_size);
	if (r <= 0)
		return r;
	k = 1;
	for (i = 0; i < nb->n && k < max && *best; ++i) {
		if (nb->speedup[i] < min_speedup)
			break; /* fastest first: the others are slower */
		if (!strcmp(nb->schedule[i], best))
			continue;
		r = teacher_record(p, nb->schedule[i], batch, err, err_size);
		if (r < 0)
			return -1;
		if (r == 0) { /* out of the agent's reach */
			err[0] = 0;
			continue;
		}
		k++;
	}
	weigh(batch, first, 1.0f / (float)k);
	return k;
}
