/* Schedule files (reading, every error, lookup, '*', writing, appending,
 * the notation check) and the fingerprints of program models. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "helpers.h"
#include "pearl/fingerprint.h"
#include "pearl/schedule_file.h"
#include "pearl/transform.h"

#define HEADER PEARL_SCHEDULE_FILE_HEADER "\n"

static char err[1024];

static pearl_schedule_file *parse(const char *text)
{
	err[0] = '\0';
	return pearl_schedule_file_parse(text, "t.sched", err, sizeof(err));
}

/* 1 if `text` does not parse and the error is `want`. */
static int parse_fails(const char *text, const char *want)
{
	pearl_schedule_file *file = parse(text);

	if (file) {
		pearl_schedule_file_free(file);
		return 0;
	}
	if (strcmp(err, want))
		fprintf(stderr, "error: %s\n want: %s\n", err, want);
	return !strcmp(err, want);
}

static void test_read(void)
{
	pearl_schedule_file *file = parse(
		HEADER
		"# function region fingerprint schedule\n"
		"\n"
		"kernel 0 9f3a1c2b7d4e5f60 \"I(1,2) T(0,1,32,32) P(0)\"\n"
		"  \t# an indented comment\n"
		"kernel\t1  *   \"\"   # kept as it is\r\n"
		"other 0 9F3A1C2B7D4E5F6A \"R(0)\"#no blank before");
	const struct pearl_schedule_entry *e;

	CHECK(file != NULL);
	if (!file)
		return;
	CHECK(pearl_schedule_file_n_entry(file) == 3);
	e = pearl_schedule_file_find(file, "kernel", 0);
	CHECK(e && e->line == 4 && !e->any &&
	      e->fingerprint == 0x9f3a1c2b7d4e5f60ULL);
	CHECK(e && !strcmp(e->schedule, "I(1,2) T(0,1,32,32) P(0)"));
	e = pearl_schedule_file_find(file, "kernel", 1);
	CHECK(e && e->line == 6 && e->any && !strcmp(e->schedule, ""));
	e = pearl_schedule_file_find(file, "other", 0);
	CHECK(e && e->fingerprint == 0x9f3a1c2b7d4e5f6aULL);
	CHECK(pearl_schedule_file_find(file, "kernel", 2) == NULL);
	CHECK(pearl_schedule_file_find(file, "kern", 0) == NULL);
	CHECK(pearl_schedule_file_get_entry(file, 2) == e);
	CHECK(pearl_schedule_file_get_entry(file, 3) == NULL);
	pearl_schedule_file_free(file);

	/* A header alone (trailing blanks allowed) is an empty file. */
	file = parse(PEARL_SCHEDULE_FILE_HEADER "  ");
	CHECK(file && pearl_schedule_file_n_entry(file) == 0);
	pearl_schedule_file_free(file);
}

static void test_fits(void)
{
	pearl_schedule_file *file = parse(HEADER
		"f 0 00000000000000ff \"R(0)\"\n"
		"f 1 * \"R(0)\"\n");
	const struct pearl_schedule_entry *tuned, *any;

	CHECK(file != NULL);
	if (!file)
		return;
	tuned = pearl_schedule_file_find(file, "f", 0);
	any = pearl_schedule_file_find(file, "f", 1);
	CHECK(pearl_schedule_entry_fits(tuned, 0xff));
	CHECK(!pearl_schedule_entry_fits(tuned, 0xfe));
	CHECK(pearl_schedule_entry_fits(any, 0xff));
	CHECK(pearl_schedule_entry_fits(any, 0x1234567890abcdefULL));
	pearl_schedule_file_free(file);
}

static void test_header_errors(void)
{
	const char *bad = "t.sched:1: not a pearl schedule file: the first "
			  "line must be '# pearl schedule file 1'";

	CHECK(parse_fails("", bad));
	CHECK(parse_fails("\n" HEADER, bad));
	CHECK(parse_fails("kernel 0 * \"R(0)\"\n", bad));
	CHECK(parse_fails("# pearl schedule file\n", bad));
	CHECK(parse_fails("# pearl schedule file 2\n",
			  "t.sched:1: unsupported schedule file version '2' "
			  "(this Pearl reads version 1)"));
}

static void test_field_errors(void)
{
	CHECK(parse_fails(HEADER "\nkernel\n",
			  "t.sched:3: missing region: expected function "
			  "region fingerprint \"schedule\""));
	CHECK(parse_fails(HEADER "kernel 0\n",
			  "t.sched:2: missing fingerprint: expected function "
			  "region fingerprint \"schedule\""));
	CHECK(parse_fails(HEADER "kernel 0 *\n",
			  "t.sched:2: missing schedule: expected function "
			  "region fingerprint \"schedule\""));
	CHECK(parse_fails(HEADER "kernel x * \"\"\n",
			  "t.sched:2: bad region 'x': a region is a number "
			  "from 0"));
	CHECK(parse_fails(HEADER "kernel -1 * \"\"\n",
			  "t.sched:2: bad region '-1': a region is a number "
			  "from 0"));
	CHECK(parse_fails(HEADER "kernel 2147483648 * \"\"\n",
			  "t.sched:2: bad region '2147483648': too large"));
	CHECK(parse_fails(HEADER "kernel 0 9f3a1c2b7d4e5f6 \"\"\n",
			  "t.sched:2: bad fingerprint '9f3a1c2b7d4e5f6': 16 "
			  "hex digits, or '*' for any model"));
	CHECK(parse_fails(HEADER "kernel 0 9f3a1c2b7d4e5f6g \"\"\n",
			  "t.sched:2: bad fingerprint '9f3a1c2b7d4e5f6g': 16 "
			  "hex digits, or '*' for any model"));
	CHECK(parse_fails(HEADER "kernel 0 ** \"\"\n",
			  "t.sched:2: bad fingerprint '**': 16 hex digits, or "
			  "'*' for any model"));
	CHECK(parse_fails(HEADER "@kernel 0 * \"\"\n",
			  "t.sched:2: bad function name '@kernel': write the "
			  "symbol name without '@'"));
	CHECK(parse_fails(HEADER "ker\"nel 0 * \"\"\n",
			  "t.sched:2: bad function name 'ker\"nel': expected "
			  "function region fingerprint \"schedule\""));
	CHECK(parse_fails(HEADER "kernel 0 * R(0)\n",
			  "t.sched:2: bad schedule 'R(0)': write it in double "
			  "quotes (\"\" keeps the code)"));
	CHECK(parse_fails(HEADER "kernel 0 * \"R(0)\" R(1)\n",
			  "t.sched:2: unexpected 'R(1)' after the schedule "
			  "(comments start with '#')"));
	CHECK(parse_fails(HEADER "kernel 0 * \"R(0)\"x\n",
			  "t.sched:2: unexpected 'x' after the schedule "
			  "(comments start with '#')"));
}

static void test_quote_and_duplicate_errors(void)
{
	pearl_schedule_file *file;

	/* The quote ends on its line, even when a later line has one. */
	CHECK(parse_fails(HEADER "kernel 0 * \"R(0)\nkernel 1 * \"\"\n",
			  "t.sched:2: unterminated quote: the schedule has no "
			  "closing '\"' on its line"));
	CHECK(parse_fails(HEADER "kernel 0 * \"R(0)\"\n"
			  "kernel 1 * \"\"\n"
			  "# again\n"
			  "kernel 0 0123456789abcdef \"R(1)\"\n",
			  "t.sched:5: duplicate entry for @kernel region 0 "
			  "(first at line 2)"));
	/* The same region of another function is another entry. */
	file = parse(HEADER "f 0 * \"\"\ng 0 * \"\"\n");
	CHECK(file && pearl_schedule_file_n_entry(file) == 2);
	pearl_schedule_file_free(file);
}

static void test_add_and_text(void)
{
	pearl_schedule_file *file = pearl_schedule_file_alloc(), *back;
	struct pearl_schedule_entry e = { "kernel", 0, 0, 0x9f3a1c2b7d4e5f60ULL,
					  "I(1,2) T(0,1,32,32) P(0)", 0 };
	char *text, *again;

	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) == 0);
	e.region = 1, e.any = 1, e.schedule = "";
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) == 0);
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	CHECK_STR(err, "the schedule file already has an entry for @kernel "
		  "region 1 (line 0)");
	e.function = "@kernel";
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	CHECK(strstr(err, "starts with '@'") != NULL);
	e.function = "two words";
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	e.function = "";
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	e.function = "k", e.region = -1;
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	e.region = 0, e.schedule = "R(0)\"";
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	e.schedule = "R(0)\nR(1)";
	CHECK(pearl_schedule_file_add(file, &e, err, sizeof(err)) < 0);
	CHECK(pearl_schedule_file_n_entry(file) == 2);

	text = pearl_schedule_file_to_str(file);
	CHECK_STR(text, HEADER "# function region fingerprint schedule\n"
		  "kernel 0 9f3a1c2b7d4e5f60 \"I(1,2) T(0,1,32,32) P(0)\"\n"
		  "kernel 1 * \"\"\n");
	back = parse(text);
	again = back ? pearl_schedule_file_to_str(back) : NULL;
	CHECK_STR(again, text);
	free(again);
	free(text);
	pearl_schedule_file_free(back);

	CHECK(pearl_schedule_file_remove(file, "kernel", 0) == 1);
	CHECK(pearl_schedule_file_remove(file, "kernel", 0) == 0);
	CHECK(pearl_schedule_file_n_entry(file) == 1);
	CHECK(pearl_schedule_file_find(file, "kernel", 1) != NULL);
	pearl_schedule_file_free(file);
}

/* The contents of `path` (malloc'd), NULL if it cannot be read. */
static char *contents(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = calloc(1, 4096);

	if (f && buf)
		CHECK(fread(buf, 1, 4095, f) < 4095);
	if (f)
		fclose(f);
	return buf;
}

static void test_disk(const char *dir)
{
	char path[512], bad[512], *text, *written;
	struct pearl_schedule_entry e = { "f", 0, 1, 0, "R(0)", 0 };
	pearl_schedule_file *file;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tuned.sched", dir);
	snprintf(bad, sizeof(bad), "%s/bad.sched", dir);
	/* Appending creates the file with its header. */
	CHECK(pearl_schedule_file_append(path, &e, err, sizeof(err)) == 0);
	e.region = 1, e.any = 0, e.fingerprint = 42, e.schedule = "";
	CHECK(pearl_schedule_file_append(path, &e, err, sizeof(err)) == 0);
	CHECK(pearl_schedule_file_append(path, &e, err, sizeof(err)) < 0);
	CHECK(strstr(err, "already has an entry for @f region 1 (line 4)"));
	text = contents(path);
	CHECK_STR(text, HEADER "# function region fingerprint schedule\n"
		  "f 0 * \"R(0)\"\nf 1 000000000000002a \"\"\n");
	free(text);

	/* Written and read back. */
	file = pearl_schedule_file_read(path, err, sizeof(err));
	CHECK(file && pearl_schedule_file_n_entry(file) == 2);
	CHECK(file && pearl_schedule_file_write(file, bad, err,
						sizeof(err)) == 0);
	pearl_schedule_file_free(file);
	text = contents(bad);
	written = contents(path);
	CHECK(text && written && !strcmp(text, written));
	free(written);
	free(text);

	/* A file without its last newline gets one before the new line. */
	f = fopen(bad, "w");
	fputs(HEADER "g 0 * \"\"", f);
	fclose(f);
	e.function = "g";
	CHECK(pearl_schedule_file_append(bad, &e, err, sizeof(err)) == 0);
	text = contents(bad);
	CHECK_STR(text, HEADER "g 0 * \"\"\ng 1 000000000000002a \"\"\n");
	free(text);

	/* A malformed file is left alone. */
	f = fopen(bad, "w");
	fputs("kernel 0 * \"\"\n", f);
	fclose(f);
	CHECK(pearl_schedule_file_append(bad, &e, err, sizeof(err)) < 0);
	CHECK(strstr(err, "bad.sched:1: not a pearl schedule file"));
	text = contents(bad);
	CHECK_STR(text, "kernel 0 * \"\"\n");
	free(text);

	/* Files that cannot be read. */
	CHECK(pearl_schedule_file_read(dir, err, sizeof(err)) == NULL ||
	      strstr(err, "cannot read"));
	snprintf(bad, sizeof(bad), "%s/missing.sched", dir);
	CHECK(pearl_schedule_file_read(bad, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cannot read '") &&
	      strstr(err, "missing.sched': No such file or directory"));
	f = fopen(bad, "wb");
	fwrite(HEADER "f 0 * \"\"\n\0x", 1, sizeof(HEADER "f 0 * \"\"\n"), f);
	fclose(f);
	CHECK(pearl_schedule_file_read(bad, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "it has a NUL byte"));
	remove(bad);
	snprintf(bad, sizeof(bad), "%s/bad.sched", dir);
	remove(bad);
	remove(path);
}

static void test_check(const char *dir)
{
	char path[512];
	pearl_schedule_file *file;
	FILE *f;

	snprintf(path, sizeof(path), "%s/actions.sched", dir);
	f = fopen(path, "w");
	fputs(HEADER "f 0 * \"R(0) U(4)\"\nf 1 * \"\"\n"
	      "f 2 * \"R(0),R(1)\"\n", f);
	fclose(f);
	file = pearl_schedule_file_load(path, err, sizeof(err));
	CHECK(file == NULL);
	CHECK(strstr(err, "actions.sched:4: @f region 2: unexpected ','"));
	f = fopen(path, "w");
	fputs(HEADER "f 0 * \"R(0) U(4)\"\nf 1 * \"\"\nf 2 * \"R(0);R(1)\"\n",
	      f);
	fclose(f);
	CHECK(pearl_schedule_file_load(path, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "actions.sched:4: @f region 2: "));
	f = fopen(path, "w");
	fputs(HEADER "f 0 * \"R(0) U(4)\"\nf 1 * \"\"\n", f);
	fclose(f);
	file = pearl_schedule_file_load(path, err, sizeof(err));
	CHECK(file && pearl_schedule_file_n_entry(file) == 2);
	pearl_schedule_file_free(file);
	remove(path);
}

static const char *reads[] = { "{ S0[i, j] -> A[i, j] }", NULL };

/* A 2-d nest writing A[i][j] over `domain`, in the order i, j. */
static pearl_program *nest(pearl_ctx *ctx, const char *domain,
			   const char *write)
{
	pearl_program *prog = pearl_program_alloc(ctx, "f");
	char sched[512];

	CHECK(add_stmt_str(prog, domain, write, reads) == 0);
	snprintf(sched, sizeof(sched), "{ domain: \"%s\", child: { schedule: "
		 "\"[{ S0[i, j] -> [(i)] }, { S0[i, j] -> [(j)] }]\" } }",
		 domain);
	CHECK(set_schedule_str(prog, sched) == 0);
	return prog;
}

static void test_fingerprint(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	const char *dom = "{ S0[i, j] : 0 <= i, j < 16 }";
	pearl_program *a = nest(ctx, dom, "{ S0[i, j] -> A[i, j] }");
	pearl_program *b = nest(ctx, dom, "{ S0[i, j] -> A[i, j] }");
	pearl_program *c = nest(ctx, "{ S0[i, j] : 0 <= i, j < 32 }",
				"{ S0[i, j] -> A[i, j] }");
	pearl_program *d = nest(ctx, dom, "{ S0[i, j] -> A[j, i] }");
	pearl_program *none = pearl_program_alloc(ctx, "none");
	uint64_t fa = 0, fb = 1, fc = 0, fd = 0, fp = 7;
	char text[PEARL_FINGERPRINT_SIZE];

	CHECK(pearl_program_fingerprint(a, &fa) == 0);
	CHECK(pearl_program_fingerprint(b, &fb) == 0);
	CHECK(pearl_program_fingerprint(c, &fc) == 0);
	CHECK(pearl_program_fingerprint(d, &fd) == 0);
	CHECK(fa == fb);
	CHECK(fa != fc && fa != fd && fc != fd);
	/* A model without a schedule has no fingerprint. */
	CHECK(pearl_program_fingerprint(none, &fp) < 0 && fp == 7);

	pearl_fingerprint_format(0x9f3a1c2b7d4e5f60ULL, text);
	CHECK_STR(text, "9f3a1c2b7d4e5f60");
	pearl_fingerprint_format(42, text);
	CHECK_STR(text, "000000000000002a");
	CHECK(pearl_fingerprint_parse("000000000000002A", &fp) == 0 &&
	      fp == 42);
	CHECK(pearl_fingerprint_parse("000000000000002", &fp) < 0);
	CHECK(pearl_fingerprint_parse("000000000000002a0", &fp) < 0);
	CHECK(pearl_fingerprint_parse("00000000000000x2", &fp) < 0);
	CHECK(fp == 42);
	pearl_program_free(a);
	pearl_program_free(b);
	pearl_program_free(c);
	pearl_program_free(d);
	pearl_program_free(none);
	pearl_ctx_free(ctx);
}

int main(void)
{
	char dir[] = "/tmp/pearl-schedule-file-XXXXXX";

	test_read();
	test_fits();
	test_header_errors();
	test_field_errors();
	test_quote_and_duplicate_errors();
	test_add_and_text();
	if (mkdtemp(dir)) {
		test_disk(dir);
		test_check(dir);
		remove(dir);
	} else {
		CHECK(!"cannot make a temporary directory");
	}
	test_fingerprint();
	return check_done("test_schedule_file");
}
