/* Pearl's notation for schedules: "I(0,1) T(0,1,32,32) P(0) U(4) N ...". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Fills `a` from the letter and arguments; 0 on success. */
static int make_action(char letter, const int *x, int n, struct pearl_action *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	switch (letter) {
	case 'I':
		a->kind = pearl_action_interchange;
		if (n != 2)
			return -1;
		a->level[0] = x[0];
		a->level[1] = x[1];
		a->n_level = 2;
		return 0;
	case 'R':
	case 'P':
		a->kind = letter == 'R' ? pearl_action_reverse
					: pearl_action_parallel;
		if (n != 1)
			return -1;
		a->level[0] = x[0];
		a->n_level = 1;
		return 0;
	case 'S':
		a->kind = pearl_action_skew;
		if (n != 2 && n != 4)
			return -1;
		a->level[0] = x[0];
		a->level[1] = x[1];
		a->n_level = 2;
		if (n == 4) {
			a->factor[0] = x[2];
			a->factor[1] = x[3];
		}
		return x[1] == x[0] + 1 ? 0 : -1;
	case 'T':
		a->kind = pearl_action_tile;
		if (n != 4 && n != 6)
			return -1;
		a->n_level = n / 2;
		for (i = 0; i < a->n_level; ++i) {
			a->level[i] = x[i];
			a->size[i] = x[a->n_level + i];
			if (i > 0 && x[i] != x[i - 1] + 1)
				return -1;
		}
		return 0;
	case 'U':
		a->kind = pearl_action_unroll;
		if (n != 1)
			return -1;
		a->factor[0] = x[0];
		return 0;
	case 'N':
		a->kind = pearl_action_next;
		return n == 0 ? 0 : -1;
	}
	return -1;
}

int pearl_actions_parse(pearl_ctx *ctx, const char *text,
			struct pearl_action **actions)
{
	struct pearl_action *list = NULL;
	const char *p = text;
	int n = 0, cap = 0;

	*actions = NULL;
	for (;;) {
		const char *start;
		int args[8], nargs;
		char letter;

		while (isspace((unsigned char)*p) || *p == ',')
			++p;
		if (!*p)
			break;
		start = p;
		letter = *p++;
		nargs = read_args(&p, args, 8);
		if (n == cap) {
			struct pearl_action *l;
			cap = cap ? 2 * cap : 8;
			l = realloc(list, cap * sizeof(*l));
			if (!l) {
				free(list);
				pearl_ctx_error(ctx, "out of memory");
				return -1;
			}
			list = l;
		}
		if (nargs < 0 || make_action(letter, args, nargs, &list[n]) < 0 ||
		    (*p && !isspace((unsigned char)*p) && *p != ',')) {
			int len = 0;
			while (start[len] && !isspace((unsigned char)start[len]))
				++len;
			pearl_ctx_error(ctx, "bad action '%.*s' in schedule \"%s\" "
					"(expected I(l1,l2) R(l) S(l,l+1[,a,b]) "
					"T(l,l+1,s1,s2) T(l,l+1,l+2,s1,s2,s3) "
					"U(f) P(l) N)", len, start, text);
			free(list);
			return -1;
		}
		n++;
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
