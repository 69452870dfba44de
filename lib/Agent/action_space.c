/* The numbering of the policy's 86 actions (pearl/action_space.h). */
#include <string.h>

#include "pearl/action_space.h"

static const int tile_pairs[9][2] = {
	{ 32, 32 },  { 64, 64 },  { 128, 128 }, { 32, 64 }, { 32, 128 },
	{ 64, 32 },  { 64, 128 }, { 128, 32 },  { 128, 64 },
};

/* The first id of each kind: the first id of the kind before it plus its
 * number of ids (pearl/action_space.h). */
enum {
	first_interchange = 0,
	first_reverse = first_interchange + 4,   /* I(L,L+1), L < 4 */
	first_skew = first_reverse + 5,          /* R(L), L < 5 */
	first_parallel = first_skew + 3,         /* S(L,L+1), L < 3 */
	first_tile = first_parallel + 2,         /* P(L), L < 2 */
	first_unroll = first_tile + 9 * 4,       /* 9 size pairs, L < 4 */
	first_distribute = first_unroll + 5 + 1, /* U(2..32), then N */
	first_fuse = first_distribute + 4,       /* D(L), L < 4 */
	first_unroll_jam = first_fuse + 4,       /* F(L), L < 4 */
	first_vectorize = first_unroll_jam + 4,  /* J(L,4), L < 4 */
	first_jam_large = first_vectorize + 2,   /* V(8), V(16) */
	first_copy = first_jam_large + 3 * 4,    /* J(L,f), 3 factors, L < 4 */
	end_of_space = first_copy + 4,           /* K(L), L < 4 */
};
_Static_assert(first_unroll + 5 == PEARL_ACTION_NEXT, "N follows U");
_Static_assert(first_jam_large == 70, "the action space v2 ends at 69");
_Static_assert(end_of_space == PEARL_ACTION_SPACE_SIZE,
	       "K(0..3) are the last ids");

/* The jam factor of J's v2 ids, the factors of its v3 ids, and the widths
 * of V's. */
#define JAM_FACTOR 4
static const int large_jam_factors[3] = { 6, 8, 16 };
static const int vector_widths[2] = { 8, 16 };

/* Decodes the ids of the action space v3 (70 and up). */
static void decode_v3(int id, struct pearl_action *a)
{
	a->n_level = 1;
	if (id >= first_copy) {
		a->kind = pearl_action_copy;
		a->level[0] = id - first_copy;
		return;
	}
	a->kind = pearl_action_unroll_jam;
	a->level[0] = (id - first_jam_large) % 4;
	a->factor[0] = large_jam_factors[(id - first_jam_large) / 4];
}

/* Decodes the ids of the action space v2 (56 and up). */
static void decode_v2(int id, struct pearl_action *a)
{
	if (id >= first_vectorize) {
		a->kind = pearl_action_vectorize;
		a->factor[0] = vector_widths[id - first_vectorize];
		return;
	}
	a->n_level = 1;
	if (id >= first_unroll_jam) {
		a->kind = pearl_action_unroll_jam;
		a->level[0] = id - first_unroll_jam;
		a->factor[0] = JAM_FACTOR;
	} else if (id >= first_fuse) {
		a->kind = pearl_action_fuse;
		a->level[0] = id - first_fuse;
	} else {
		a->kind = pearl_action_distribute;
		a->level[0] = id - first_distribute;
	}
}

int pearl_action_space_decode(int id, struct pearl_action *a)
{
	memset(a, 0, sizeof(*a));
	if (id < 0 || id >= PEARL_ACTION_SPACE_SIZE)
		return -1;
	if (id >= first_jam_large) {
		decode_v3(id, a);
	} else if (id >= first_distribute) {
		decode_v2(id, a);
	} else if (id == PEARL_ACTION_NEXT) {
		a->kind = pearl_action_next;
	} else if (id >= first_unroll) {
		a->kind = pearl_action_unroll;
		a->factor[0] = 2 << (id - first_unroll);
	} else if (id >= first_tile) {
		int p = (id - first_tile) / 4, l = (id - first_tile) % 4;

		a->kind = pearl_action_tile;
		a->n_level = 2;
		a->level[0] = l;
		a->level[1] = l + 1;
		a->size[0] = tile_pairs[p][0];
		a->size[1] = tile_pairs[p][1];
	} else if (id >= first_parallel) {
		a->kind = pearl_action_parallel;
		a->n_level = 1;
		a->level[0] = id - first_parallel;
	} else if (id >= first_skew) {
		a->kind = pearl_action_skew;
		a->n_level = 2;
		a->level[0] = id - first_skew;
		a->level[1] = a->level[0] + 1;
	} else if (id >= first_reverse) {
		a->kind = pearl_action_reverse;
		a->n_level = 1;
		a->level[0] = id - first_reverse;
	} else {
		a->kind = pearl_action_interchange;
		a->n_level = 2;
		a->level[0] = id - first_interchange;
		a->level[1] = a->level[0] + 1;
	}
	return 0;
}

int pearl_action_space_encode(const struct pearl_action *a)
{
	int l = a->level[0], p;

	switch (a->kind) {
	case pearl_action_next:
		return PEARL_ACTION_NEXT;
	case pearl_action_unroll:
		for (p = 0; p < 5; ++p)
			if (a->factor[0] == 2 << p)
				return first_unroll + p;
		return -1;
	case pearl_action_tile:
		if (a->n_level != 2 || l < 0 || l > 3 || a->level[1] != l + 1)
			return -1;
		for (p = 0; p < 9; ++p)
			if (a->size[0] == tile_pairs[p][0] &&
			    a->size[1] == tile_pairs[p][1])
				return first_tile + 4 * p + l;
		return -1;
	case pearl_action_parallel:
		return l >= 0 && l <= 1 ? first_parallel + l : -1;
	case pearl_action_skew:
		if (a->factor[0] || a->factor[1] || a->level[1] != l + 1)
			return -1;
		return l >= 0 && l <= 2 ? first_skew + l : -1;
	case pearl_action_reverse:
		return l >= 0 && l <= 4 ? first_reverse + l : -1;
	case pearl_action_interchange:
		if (a->level[1] != l + 1)
			return -1;
		return l >= 0 && l <= 3 ? first_interchange + l : -1;
	case pearl_action_distribute:
		if (a->split)
			return -1;
		return l >= 0 && l <= 3 ? first_distribute + l : -1;
	case pearl_action_fuse:
		if (a->factor[1])
			return -1;
		return l >= 0 && l <= 3 ? first_fuse + l : -1;
	case pearl_action_unroll_jam:
		if (l < 0 || l > 3)
			return -1;
		if (a->factor[0] == JAM_FACTOR)
			return first_unroll_jam + l;
		for (p = 0; p < 3; ++p)
			if (a->factor[0] == large_jam_factors[p])
				return first_jam_large + 4 * p + l;
		return -1;
	case pearl_action_vectorize:
		for (p = 0; p < 2; ++p)
			if (a->factor[0] == vector_widths[p])
				return first_vectorize + p;
		return -1;
	case pearl_action_copy:
		return l >= 0 && l <= 3 ? first_copy + l : -1;
	}
	return -1;
}

enum pearl_action_phase pearl_action_phase(const struct pearl_action *a)
{
	switch (a->kind) {
	case pearl_action_tile:
	case pearl_action_unroll_jam:
		return pearl_phase_tile;
	case pearl_action_parallel:
		return pearl_phase_parallel;
	case pearl_action_unroll:
	case pearl_action_vectorize:
	case pearl_action_copy:
		return pearl_phase_unroll;
	case pearl_action_next:
		return pearl_phase_next;
	case pearl_action_interchange:
	case pearl_action_reverse:
	case pearl_action_skew:
	case pearl_action_distribute:
	case pearl_action_fuse:
		break;
	}
	return pearl_phase_reorder;
}

enum pearl_action_phase pearl_action_space_phase(int id)
{
	struct pearl_action a;

	pearl_action_space_decode(id, &a);
	return pearl_action_phase(&a);
}

int pearl_action_space_max_level(int id)
{
	struct pearl_action a;

	if (pearl_action_space_decode(id, &a) < 0 ||
	    a.kind == pearl_action_unroll || a.kind == pearl_action_next ||
	    a.kind == pearl_action_vectorize)
		return -1;
	return a.level[a.n_level - 1];
}
