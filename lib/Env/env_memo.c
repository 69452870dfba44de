/* The memo database of the environment, in SQLite.
 *
 * Schema (version 2, in PRAGMA user_version):
 *   programs(hash PRIMARY KEY, name)         one row per program seen
 *   results(program, schedule, machine,      one row per query answered
 *           status, seconds, cpu_seconds, init_seconds, output_hash,
 *           message, created, codegen)
 *     PRIMARY KEY (program, schedule, machine, codegen)
 * `schedule` is the normalized schedule ("" for the unscheduled program);
 * `machine` is the machine fingerprint, or "*" for answers that do not
 * depend on the machine (an illegal schedule); `codegen` is the
 * PEARL_CODEGEN_VERSION the answer was made with: only rows of this
 * build's version are read, so a change of the code generator does not
 * reuse stale run times (rows of other versions stay in the file), and
 * those of the versions from PEARL_CODEGEN_CARRIED on (versions whose
 * code the changes since left the same), the newest first, but where
 * PEARL_CODEGEN_CARRIED_STALE. A lookup says which version answered
 * (env_memo_row.codegen), for the checks SQL cannot make
 * (PEARL_CODEGEN_STRIDE, lib/Env/env_time.c).
 * Version 1 databases (no `codegen` column; also a version-1 dump loaded
 * into a fresh file) are migrated when opened: their rows get codegen 1,
 * the version before the column existed. The database is in WAL mode
 * with a busy timeout, so that several processes (a trainer and an
 * evaluator) can share one file; every write is its own transaction. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env_internal.h"
#include "pearl/codegen_version.h"

#define MEMO_VERSION 2
/* PEARL_ENV_ILLEGAL, as SQL text. */
#define ILLEGAL "1"
_Static_assert(PEARL_ENV_ILLEGAL == 1, "ILLEGAL");

struct env_memo {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *get, *put, *put_program;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS programs("
    " hash TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS results("
    " program TEXT NOT NULL, schedule TEXT NOT NULL, machine TEXT NOT NULL,"
    " status INTEGER NOT NULL, seconds REAL, cpu_seconds REAL,"
    " init_seconds REAL, output_hash TEXT, message TEXT, created REAL,"
    " codegen INTEGER NOT NULL,"
    " PRIMARY KEY(program, schedule, machine, codegen)) WITHOUT ROWID;";

/* Schema 1 to 2: the results get the code generator version 1. */
static const char migrate_v1[] =
    "ALTER TABLE results RENAME TO results_v1;"
    "CREATE TABLE results("
    " program TEXT NOT NULL, schedule TEXT NOT NULL, machine TEXT NOT NULL,"
    " status INTEGER NOT NULL, seconds REAL, cpu_seconds REAL,"
    " init_seconds REAL, output_hash TEXT, message TEXT, created REAL,"
    " codegen INTEGER NOT NULL,"
    " PRIMARY KEY(program, schedule, machine, codegen)) WITHOUT ROWID;"
    "INSERT INTO results SELECT program, schedule, machine, status, seconds,"
    " cpu_seconds, init_seconds, output_hash, message, created, 1"
    " FROM results_v1;"
    "DROP TABLE results_v1;";

static int fail(struct env_memo *m, const char *what, char *err,
		size_t err_size)
{
	pearl_error_printf(err, err_size, "memo database '%s': %s: %s", m->path,
			   what,
			   m->db ? sqlite3_errmsg(m->db) : "out of memory");
	return -1;
}

/* Runs SQL without results. */
static int exec_sql(struct env_memo *m, const char *sql, char *err,
		    size_t err_size)
{
	char *msg = NULL;

	if (sqlite3_exec(m->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	pearl_error_printf(err, err_size, "memo database '%s': %s", m->path,
			   msg ? msg : sqlite3_errmsg(m->db));
	sqlite3_free(msg);
	return -1;
}

/* The schema version, or -1 (with a message: e.g. not a database). */
static int user_version(struct env_memo *m, char *err, size_t err_size)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(m->db, "PRAGMA user_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return fail(m, "cannot read", err, err_size);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	else
		fail(m, "cannot read", err, err_size);
	sqlite3_finalize(st);
	return v;
}

/* 1 if the results table exists without a codegen column (version 1),
 * 0 if not, -1 on error. */
static int results_v1(struct env_memo *m, char *err, size_t err_size)
{
	sqlite3_stmt *st;
	int rc, n = 0, codegen = 0;

	if (sqlite3_prepare_v2(m->db, "PRAGMA table_info(results)", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(m, "cannot read", err, err_size);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(st, 1);

		++n;
		codegen |= name && !strcmp((const char *)name, "codegen");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(m, "cannot read", err, err_size);
	return n > 0 && !codegen;
}

/* Creates the tables if missing, or checks their version (and migrates
 * version 1). */
static int init_schema(struct env_memo *m, char *err, size_t err_size)
{
	char sql[64];
	int v = user_version(m, err, err_size), old;

	if (v < 0)
		return -1;
	if (v == MEMO_VERSION)
		return 0;
	if (v != 0 && v != 1) {
		pearl_error_printf(err, err_size,
				   "memo database '%s': schema version %d, "
				   "this Pearl reads versions 1 and %d",
				   m->path, v, MEMO_VERSION);
		return -1;
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d;", MEMO_VERSION);
	if (exec_sql(m, "BEGIN IMMEDIATE;", err, err_size) < 0)
		return -1;
	old = results_v1(m, err, err_size);
	if (old < 0 || (old && exec_sql(m, migrate_v1, err, err_size) < 0) ||
	    exec_sql(m, schema, err, err_size) < 0 ||
	    exec_sql(m, sql, err, err_size) < 0) {
		sqlite3_exec(m->db, "ROLLBACK;", NULL, NULL, NULL);
		return -1;
	}
	return exec_sql(m, "COMMIT;", err, err_size);
}

static int prepare(struct env_memo *m, const char *sql, sqlite3_stmt **st,
		   char *err, size_t err_size)
{
	if (sqlite3_prepare_v2(m->db, sql, -1, st, NULL) != SQLITE_OK)
		return fail(m, "cannot prepare a statement", err, err_size);
	return 0;
}

struct env_memo *env_memo_open(const char *path, char *err, size_t err_size)
{
	struct env_memo *m = calloc(1, sizeof(*m));
	int rc;

	if (!m || !(m->path = strdup(path))) {
		free(m);
		pearl_error_printf(err, err_size, "out of memory");
		return NULL;
	}
	rc = sqlite3_open_v2(path, &m->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		fail(m, "cannot open", err, err_size);
		env_memo_close(m);
		return NULL;
	}
	sqlite3_busy_timeout(m->db, 30000);
	/* The first statement reads the header: a file that is not a
	 * database fails here ("file is not a database"). */
	if (init_schema(m, err, err_size) < 0 ||
	    exec_sql(m, "PRAGMA journal_mode=WAL;", err, err_size) < 0 ||
	    exec_sql(m, "PRAGMA synchronous=NORMAL;", err, err_size) < 0 ||
	    prepare(m, "SELECT status, seconds, cpu_seconds, init_seconds, "
		       "output_hash, message, codegen FROM results WHERE "
		       "program=?1 AND schedule=?2 AND machine=?3 AND "
		       "(codegen=?4 OR (codegen>=?5 AND codegen<?4 AND NOT ("
		       PEARL_CODEGEN_CARRIED_STALE
		       "))) ORDER BY codegen DESC LIMIT 1",
		    &m->get, err,
		    err_size) < 0 ||
	    prepare(m, "INSERT OR REPLACE INTO results VALUES"
		       "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", &m->put,
		    err, err_size) < 0 ||
	    prepare(m, "INSERT OR IGNORE INTO programs VALUES(?1, ?2)",
		    &m->put_program, err, err_size) < 0) {
		env_memo_close(m);
		return NULL;
	}
	return m;
}

void env_memo_close(struct env_memo *m)
{
	if (!m)
		return;
	sqlite3_finalize(m->get);
	sqlite3_finalize(m->put);
	sqlite3_finalize(m->put_program);
	sqlite3_close(m->db);
	free(m->path);
	free(m);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

int env_memo_get(struct env_memo *m, const char *program,
		 const char *schedule, const char *machine,
		 struct env_memo_row *row, char *err, size_t err_size)
{
	sqlite3_stmt *st = m->get;
	const unsigned char *text;
	int rc, found = 0;

	sqlite3_reset(st);
	bind_text(st, 1, program);
	bind_text(st, 2, schedule);
	bind_text(st, 3, machine);
	sqlite3_bind_int(st, 4, PEARL_CODEGEN_VERSION);
	sqlite3_bind_int(st, 5, PEARL_CODEGEN_CARRIED);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		memset(row, 0, sizeof(*row));
		row->status = sqlite3_column_int(st, 0);
		row->seconds = sqlite3_column_double(st, 1);
		row->cpu_seconds = sqlite3_column_double(st, 2);
		row->init_seconds = sqlite3_column_double(st, 3);
		text = sqlite3_column_text(st, 4);
		if (text)
			row->output_hash = strtoull((const char *)text, NULL,
						    16);
		text = sqlite3_column_text(st, 5);
		if (text)
			snprintf(row->message, sizeof(row->message), "%s",
				 (const char *)text);
		row->codegen = sqlite3_column_int(st, 6);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = fail(m, "lookup failed", err, err_size);
	}
	sqlite3_reset(st);
	return found;
}

int env_memo_put(struct env_memo *m, const char *program, const char *name,
		 const char *schedule, const char *machine,
		 const struct env_memo_row *row, char *err, size_t err_size)
{
	char hash[17];
	int rc;

	sqlite3_reset(m->put_program);
	bind_text(m->put_program, 1, program);
	bind_text(m->put_program, 2, name);
	rc = sqlite3_step(m->put_program);
	sqlite3_reset(m->put_program);
	if (rc != SQLITE_DONE)
		return fail(m, "cannot write", err, err_size);

	snprintf(hash, sizeof(hash), "%016" PRIx64, row->output_hash);
	sqlite3_reset(m->put);
	bind_text(m->put, 1, program);
	bind_text(m->put, 2, schedule);
	bind_text(m->put, 3, machine);
	sqlite3_bind_int(m->put, 4, row->status);
	sqlite3_bind_double(m->put, 5, row->seconds);
	sqlite3_bind_double(m->put, 6, row->cpu_seconds);
	sqlite3_bind_double(m->put, 7, row->init_seconds);
	if (row->status == PEARL_ENV_OK)
		bind_text(m->put, 8, hash);
	else
		sqlite3_bind_null(m->put, 8);
	bind_text(m->put, 9, row->message);
	sqlite3_bind_double(m->put, 10, (double)time(NULL));
	sqlite3_bind_int(m->put, 11, PEARL_CODEGEN_VERSION);
	rc = sqlite3_step(m->put);
	sqlite3_reset(m->put);
	if (rc != SQLITE_DONE)
		return fail(m, "cannot write", err, err_size);
	return 0;
}

/* The single integer a query returns, into *v. */
static int count(struct env_memo *m, const char *sql, long *v, char *err,
		 size_t err_size)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare(m, sql, &st, err, err_size) < 0)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return fail(m, "cannot read", err, err_size);
	return 0;
}

int pearl_env_memo_summary(const char *memo_path,
			   struct pearl_env_memo_summary *s, char *err,
			   size_t err_size)
{
	struct env_memo *m;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	m = env_memo_open(memo_path, err, err_size);
	if (!m)
		return -1;
	if (count(m, "SELECT count(*) FROM results", &s->rows, err,
		  err_size) < 0 ||
	    count(m, "SELECT count(*) FROM programs", &s->programs, err,
		  err_size) < 0 ||
	    count(m, "SELECT count(*) FROM (SELECT DISTINCT program, schedule "
		     "FROM results)", &s->schedules, err, err_size) < 0 ||
	    count(m, "SELECT count(DISTINCT machine) FROM results WHERE "
		     "machine != '" ENV_ANY_MACHINE "'", &s->machines, err,
		  err_size) < 0 ||
	    count(m, "SELECT count(*) FROM results WHERE status = " ILLEGAL,
		  &s->illegal, err, err_size) < 0)
		ret = -1;
	env_memo_close(m);
	return ret;
}

/* Whether the file at path exists and can be read (opening a memo
 * would create it). */
static int readable(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (f)
		fclose(f);
	return f != NULL;
}

int pearl_env_memo_merge(const char *memo_path, const char *from_path,
			 long *added, char *err, size_t err_size)
{
	static const char columns[] =
	    "program, schedule, machine, status, seconds, cpu_seconds, "
	    "init_seconds, output_hash, message, created, codegen";
	struct env_memo *m;
	sqlite3_stmt *st = NULL;
	char sql[512];
	long before = 0, after = 0;
	int ret = -1;

	if (added)
		*added = 0;
	if (!readable(from_path)) {
		pearl_error_printf(err, err_size,
				   "memo database '%s': cannot read",
				   from_path);
		return -1;
	}
	/* opened once on its own: checked, and migrated if of version 1 */
	m = env_memo_open(from_path, err, err_size);
	if (!m)
		return -1;
	env_memo_close(m);
	m = env_memo_open(memo_path, err, err_size);
	if (!m)
		return -1;
	if (prepare(m, "ATTACH DATABASE ?1 AS other", &st, err, err_size) < 0)
		goto out;
	bind_text(st, 1, from_path);
	if (sqlite3_step(st) != SQLITE_DONE) {
		fail(m, "cannot attach the other database", err, err_size);
		goto out;
	}
	snprintf(sql, sizeof(sql),
		 "BEGIN;"
		 "INSERT OR IGNORE INTO main.programs SELECT hash, name FROM "
		 "other.programs;"
		 "INSERT OR IGNORE INTO main.results (%s) SELECT %s FROM "
		 "other.results;"
		 "COMMIT;", columns, columns);
	if (count(m, "SELECT count(*) FROM main.results", &before, err,
		  err_size) < 0 ||
	    exec_sql(m, sql, err, err_size) < 0 ||
	    count(m, "SELECT count(*) FROM main.results", &after, err,
		  err_size) < 0) {
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	if (added)
		*added = after - before;
	ret = 0;
out:
	sqlite3_finalize(st);
	if (m->db)
		sqlite3_exec(m->db, "DETACH DATABASE other", NULL, NULL, NULL);
	env_memo_close(m);
	return ret;
}

void pearl_env_memo_results_free(struct pearl_env_memo_result *results,
				 int n)
{
	int i;

	for (i = 0; i < n; ++i)
		free(results[i].schedule);
	free(results);
}

/* Appends the current row of `st` (schedule, status, seconds) to *r;
 * 0, or -1 if memory is exhausted. */
static int add_result(sqlite3_stmt *st, struct pearl_env_memo_result **r,
		      int *n, int *cap)
{
	const unsigned char *text = sqlite3_column_text(st, 0);
	struct pearl_env_memo_result *row;

	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 64;
		struct pearl_env_memo_result *t = realloc(*r, c * sizeof(*t));

		if (!t)
			return -1;
		*r = t;
		*cap = c;
	}
	row = &(*r)[*n];
	row->schedule = strdup(text ? (const char *)text : "");
	if (!row->schedule)
		return -1;
	row->status = sqlite3_column_int(st, 1);
	row->seconds = sqlite3_column_double(st, 2);
	++*n;
	return 0;
}

int pearl_env_memo_results(const char *memo_path, const char *hash,
			   const char *machine, int codegen,
			   struct pearl_env_memo_result **results, int *n,
			   char *err, size_t err_size)
{
	struct pearl_env_memo_result *r = NULL;
	sqlite3_stmt *st = NULL;
	struct env_memo *m;
	int cap = 0, rc, ret = -1;

	*results = NULL;
	*n = 0;
	if (!readable(memo_path)) {
		pearl_error_printf(err, err_size,
				   "memo database '%s': cannot read",
				   memo_path);
		return -1;
	}
	m = env_memo_open(memo_path, err, err_size);
	if (!m)
		return -1;
	/* with the current version, the carried ones' answers too (the
	 * newest; OK and timeouts are not stale, but for the few schedules
	 * whose code version 15's promotion by the stride changed: the
	 * critic learns those from the older code's time) */
	if (prepare(m, "SELECT schedule, status, seconds, max(codegen) FROM "
		       "results WHERE program=?1 AND machine=?2 AND codegen "
		       "BETWEEN ?4 AND ?3 AND status IN (0, 2) GROUP BY "
		       "schedule ORDER BY schedule", &st, err, err_size) < 0)
		goto out;
	_Static_assert(PEARL_ENV_OK == 0 && PEARL_ENV_TIMEOUT == 2, "status");
	bind_text(st, 1, hash);
	bind_text(st, 2, machine);
	sqlite3_bind_int(st, 3, codegen);
	sqlite3_bind_int(st, 4, codegen == PEARL_CODEGEN_VERSION
				    ? PEARL_CODEGEN_CARRIED
				    : codegen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (add_result(st, &r, n, &cap) < 0) {
			pearl_error_printf(err, err_size, "out of memory");
			goto out;
		}
	if (rc != SQLITE_DONE) {
		fail(m, "cannot read", err, err_size);
		goto out;
	}
	*results = r;
	r = NULL;
	ret = 0;
out:
	if (ret < 0) {
		pearl_env_memo_results_free(r, *n);
		*n = 0;
	}
	sqlite3_finalize(st);
	env_memo_close(m);
	return ret;
}
