/* The fingerprint of a program model (see pearl/fingerprint.h). */
#include "pearl/fingerprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* FNV-1a of `text` continued from h, then of a newline that ends the field
 * (so that fields cannot run into each other). A NULL text (isl could not
 * print) sets *failed and leaves h. Takes `text`. */
static uint64_t hash_take(uint64_t h, char *text, int *failed)
{
	const unsigned char *p;

	if (!text) {
		*failed = 1;
		return h;
	}
	for (p = (const unsigned char *)text; *p; ++p) {
		h ^= *p;
		h *= FNV_PRIME;
	}
	free(text);
	h ^= '\n';
	return h * FNV_PRIME;
}

/* Hashes statement i: its domain, its writes and its reads. */
static uint64_t hash_stmt(uint64_t h, pearl_program *prog, int i, int *failed)
{
	int r, n = pearl_program_stmt_n_read(prog, i);
	int w, n_write = pearl_program_stmt_n_write(prog, i);

	h = hash_take(h, isl_set_to_str(pearl_program_stmt_domain(prog, i)),
		      failed);
	for (w = 0; w < n_write; ++w)
		h = hash_take(h, isl_map_to_str(
		    pearl_program_stmt_write_at(prog, i, w)), failed);
	for (r = 0; r < n; ++r)
		h = hash_take(h, isl_map_to_str(
		    pearl_program_stmt_read(prog, i, r)), failed);
	/* The end of the statement: its reads cannot pass for the next one's
	 * domain. */
	h ^= '\f';
	return h * FNV_PRIME;
}

pearl_stat pearl_program_fingerprint(pearl_program *prog, uint64_t *fp)
{
	isl_schedule *sched = pearl_program_peek_schedule(prog);
	uint64_t h = FNV_OFFSET;
	int i, failed = 0;

	if (!sched)
		return pearl_ctx_error(pearl_program_get_ctx(prog),
				       "fingerprint: no schedule");
	for (i = 0; i < pearl_program_n_stmt(prog); ++i)
		h = hash_stmt(h, prog, i, &failed);
	h = hash_take(h, isl_schedule_to_str(sched), &failed);
	if (failed)
		return pearl_ctx_isl_error(pearl_program_get_ctx(prog),
					   "fingerprint");
	*fp = h;
	return pearl_stat_ok;
}

void pearl_fingerprint_format(uint64_t fp, char *buf)
{
	snprintf(buf, PEARL_FINGERPRINT_SIZE, "%016" PRIx64, fp);
}

int pearl_fingerprint_parse(const char *text, uint64_t *fp)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 16; ++i) {
		char c = text[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (text[16])
		return -1;
	*fp = v;
	return 0;
}
