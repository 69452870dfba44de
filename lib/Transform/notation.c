/* Pearl's notation for schedules: "I(0,1) T(0,1,32,32) P(0) U(4) N ...". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/grow.h"
#include "pearl/transform.h"

void pearl_action_format(const struct pearl_action *a, char *buf, size_t size)
{
	switch (a->kind) {
	case pearl_action_interchange:
		snprintf(buf, size, "I(%d,%d)", a->level[0], a->level[1]);
		break;
	case pearl_action_reverse:
		snprintf(buf, size, "R(%d)", a->level[0]);
		break;
	case pearl_action_skew:
		if (a->factor[0] == 0 && a->factor[1] == 0)
			snprintf(buf, size, "S(%d,%d)", a->level[0], a->level[1]);
		else
			snprintf(buf, size, "S(%d,%d,%d,%d)", a->level[0],
				 a->level[1], a->factor[0], a->factor[1]);
		break;
	case pearl_action_tile:
		if (a->n_level == 3)
			snprintf(buf, size, "T(%d,%d,%d,%d,%d,%d)", a->level[0],
				 a->level[1], a->level[2], a->size[0],
				 a->size[1], a->size[2]);
		else
			snprintf(buf, size, "T(%d,%d,%d,%d)", a->level[0],
				 a->level[1], a->size[0], a->size[1]);
		break;
	case pearl_action_unroll:
		snprintf(buf, size, "U(%d)", a->factor[0]);
		break;
	case pearl_action_parallel:
		snprintf(buf, size, "P(%d)", a->level[0]);
		break;
	case pearl_action_next:
		snprintf(buf, size, "N");
		break;
	case pearl_action_distribute:
		if (a->split)
			snprintf(buf, size, "D(%d,%d)", a->level[0], a->split);
		else
			snprintf(buf, size, "D(%d)", a->level[0]);
		break;
	case pearl_action_unroll_jam:
		snprintf(buf, size, "J(%d,%d)", a->level[0], a->factor[0]);
		break;
	case pearl_action_vectorize:
		snprintf(buf, size, "V(%d)", a->factor[0]);
		break;
	case pearl_action_copy:
		snprintf(buf, size, "K(%d)", a->level[0]);
		break;
	case pearl_action_fuse:
		if (a->factor[1])
			snprintf(buf, size, "F(%d,%d)", a->level[0],
				 a->factor[0]);
		else
			snprintf(buf, size, "F(%d)", a->level[0]);
		break;
	}
}

void pearl_actions_format(pearl_str *out, const struct pearl_action *actions,
			  int n)
{
	char name[64];
	int i;

	for (i = 0; i < n; ++i) {
		pearl_action_format(&actions[i], name, sizeof(name));
		pearl_str_printf(out, "%s%s", i ? " " : "", name);
	}
}

/* Reads "(n,n,...)" at *p into args; returns the count or -1. */
static int read_args(const char **p, int *args, int max)
{
	const char *s = *p;
	int n = 0;

	if (*s != '(')
		return 0;
	++s;
	for (;;) {
		char *end;
		long v;

		while (isspace((unsigned char)*s))
			++s;
		v = strtol(s, &end, 10);
		if (end == s || n == max || v < -1000000 || v > 1000000)
			return -1;
		args[n++] = (int)v;
		s = end;
		while (isspace((unsigned char)*s))
			++s;
		if (*s == ')')
			break;
		if (*s != ',')
			return -1;
		++s;
	}
	*p = s + 1;
	return n;
}

/* Fills `a` from the letter and arguments. Returns NULL on success, else
 * why the action is not one (a static string, "" for a malformed one). */
static const char *make_action(char letter, const int *x, int n,
			       struct pearl_action *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	switch (letter) {
	case 'I':
		a->kind = pearl_action_interchange;
		if (n != 2)
			return "";
		a->level[0] = x[0];
		a->level[1] = x[1];
		a->n_level = 2;
		return NULL;
	case 'R':
	case 'P':
	case 'K':
		a->kind = letter == 'R'	  ? pearl_action_reverse
			  : letter == 'P' ? pearl_action_parallel
					  : pearl_action_copy;
		if (n != 1)
			return "";
		a->level[0] = x[0];
		a->n_level = 1;
		return NULL;
	case 'S':
		a->kind = pearl_action_skew;
		if ((n != 2 && n != 4) || x[1] != x[0] + 1)
			return "";
		/* (0, 0) is how an action without factors is stored */
		if (n == 4 && x[2] == 0 && x[3] == 0)
			return "skew factors (0,0) map both loops to 0; give "
			       "two coprime factors, or none (S(l,l+1)) to let "
			       "the solver choose";
		a->level[0] = x[0];
		a->level[1] = x[1];
		a->n_level = 2;
		if (n == 4) {
			a->factor[0] = x[2];
			a->factor[1] = x[3];
		}
		return NULL;
	case 'T':
		a->kind = pearl_action_tile;
		if (n != 4 && n != 6)
			return "";
		a->n_level = n / 2;
		for (i = 0; i < a->n_level; ++i) {
			a->level[i] = x[i];
			a->size[i] = x[a->n_level + i];
			if (i > 0 && x[i] != x[i - 1] + 1)
				return "";
		}
		return NULL;
	case 'U':
		a->kind = pearl_action_unroll;
		if (n != 1)
			return "";
		a->factor[0] = x[0];
		return NULL;
	case 'N':
		a->kind = pearl_action_next;
		return n == 0 ? NULL : "";
	case 'D':
		a->kind = pearl_action_distribute;
		if (n != 1 && n != 2)
			return "";
		if (n == 2 && x[1] < 1)
			return "the split point of a distribution is the first "
			       "part of the second loop, 1 or more; give none "
			       "(D(l)) for one loop per part";
		a->level[0] = x[0];
		a->n_level = 1;
		a->split = n == 2 ? x[1] : 0;
		return NULL;
	case 'V':
		a->kind = pearl_action_vectorize;
		if (n != 1)
			return "";
		a->factor[0] = x[0];
		return NULL;
	case 'J':
		a->kind = pearl_action_unroll_jam;
		if (n != 2)
			return "";
		a->level[0] = x[0];
		a->n_level = 1;
		a->factor[0] = x[1];
		return NULL;
	case 'F':
		a->kind = pearl_action_fuse;
		if (n != 1 && n != 2)
			return "";
		a->level[0] = x[0];
		a->n_level = 1;
		a->factor[0] = n == 2 ? x[1] : 0;
		a->factor[1] = n == 2;
		return NULL;
	}
	return "";
}

/* Reports the action at `start` (position `pos` of `text`, from 1) as not
 * one, for `why` ("" for the general form of every action). */
static int bad_action(pearl_ctx *ctx, const char *text, const char *start,
		      const char *why)
{
	int len = 0;

	while (start[len] && !isspace((unsigned char)start[len]))
		++len;
	if (*why)
		pearl_ctx_error(ctx, "bad action '%.*s' at position %d of "
				"schedule \"%s\": %s", len, start,
				(int)(start - text) + 1, text, why);
	else
		pearl_ctx_error(ctx, "bad action '%.*s' at position %d of "
				"schedule \"%s\" (expected I(l1,l2) R(l) "
				"S(l,l+1[,a,b]) T(l,l+1,s1,s2) "
				"T(l,l+1,l+2,s1,s2,s3) U(f) P(l) D(l[,k]) "
				"F(l[,s]) J(l,f) V(w) K(l) N)", len,
				start, (int)(start - text) + 1, text);
	return -1;
}

/* Reports `p`, right after an action of `text`, as not separated from it
 * by a space (e.g. "R(0),R(1)"). */
static int junk(pearl_ctx *ctx, const char *text, const char *p)
{
	pearl_ctx_error(ctx, "unexpected '%c' at position %d of schedule "
			"\"%s\": actions are separated by spaces", *p,
			(int)(p - text) + 1, text);
	return -1;
}

/* Makes room for one more action in *list (n of *cap); 0 or -1. */
static int grow(pearl_ctx *ctx, struct pearl_action **list, int n, int *cap)
{
	if (pearl_grow(list, cap, n + 1, sizeof(**list)) < 0) {
		pearl_ctx_error(ctx, "out of memory");
		return -1;
	}
	return 0;
}

int pearl_actions_parse(pearl_ctx *ctx, const char *text,
			struct pearl_action **actions)
{
	struct pearl_action *list = NULL;
	const char *p = text;
	int n = 0, cap = 0, bad = 0;

	*actions = NULL;
	while (!bad) {
		const char *start, *why;
		int args[8], nargs;
		char letter;

		while (isspace((unsigned char)*p))
			++p;
		if (!*p)
			break;
		start = p;
		letter = *p++;
		nargs = read_args(&p, args, 8);
		if (grow(ctx, &list, n, &cap) < 0)
			bad = 1;
		else if (nargs < 0)
			bad = bad_action(ctx, text, start, "");
		else if ((why = make_action(letter, args, nargs, &list[n])))
			bad = bad_action(ctx, text, start, why);
		else if (*p && !isspace((unsigned char)*p))
			bad = junk(ctx, text, p);
		else
			n++;
	}
	if (bad) {
		free(list);
		return -1;
	}
	*actions = list;
	return n;
}

char *pearl_schedule_part(const char *schedule, int index)
{
	const char *p = schedule ? schedule : "", *end;
	char *part;

	for (; index > 0 && p; --index) {
		p = strchr(p, ';');
		if (p)
			++p;
	}
	if (!p)
		p = "";
	end = strchr(p, ';');
	if (!end)
		end = p + strlen(p);
	part = malloc(end - p + 1);
	if (part) {
		memcpy(part, p, end - p);
		part[end - p] = '\0';
	}
	return part;
}
