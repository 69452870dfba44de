/*
 * pearl-fuzz/campaign.h - what the campaign (campaign.c: programs, pairs,
 * counts, the summary) and its failures (failures.c: kinds,
 * minimization, reproducers) share. Internal to pearl-fuzz.
 */
#ifndef PEARL_FUZZ_CAMPAIGN_H
#define PEARL_FUZZ_CAMPAIGN_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "pearl/clock.h"

#include "fuzz.h"

/* A failure kept as a reproducer. */
struct failure {
	int id;
	enum fuzz_class cls;
	uint64_t seed;
	char *schedule;     /* as tried ("" if it was not a schedule) */
	char *message;
	char *key;          /* the kind: class and message without numbers */
	char *minimized;    /* NULL: not minimized */
	char *min_message;
	int min_tests;
	int min_stopped;
	int distinct;       /* the first of its kind and minimized schedule */
	int found_while;    /* found while minimizing failure number ... */
	int confirmed;      /* runs of the final schedule failing alike */
	int confirm_runs;   /* of so many runs */
};

struct campaign {
	const struct fuzz_options *o;
	struct fuzz_counts *counts;
	struct fuzz_worker w;
	double t0, last_progress;
	char trace[1024];   /* the last thing the worker said it tries */
	struct failure *failures;
	int n_failures;
	FILE *log;
	int minimizing;     /* the failure being minimized (0: none) */
	char *err;
	size_t err_size;
};

/* Set by SIGINT and SIGTERM: the campaign stops after the pair it runs. */
extern volatile sig_atomic_t campaign_interrupted;


/* Runs (seed, schedule) in the worker, loading the program first if the
 * worker does not hold it; a worker silent for `timeout` seconds hangs.
 * 0 with *out; 1 if the campaign was interrupted (SIGINT or SIGTERM)
 * while the pair ran: the worker is killed, *out means nothing; or -1
 * (c->err) if no worker can be started. */
int campaign_run_pair(struct campaign *c, uint64_t seed, const char *schedule,
		      double timeout, struct fuzz_outcome *out);

/* dir/name of the campaign's output directory into buf. */
void campaign_path(const struct campaign *c, const char *name, char *buf,
		   size_t size);

/* Keeps a failing pair (outcome *out): minimized (see fuzz.h,
 * minimize_limit), written out as a reproducer, told on stderr. 0, or -1
 * (c->err) if fatal. */
int failures_keep(struct campaign *c, uint64_t seed, const char *schedule,
		  const struct fuzz_outcome *out);
/* Every failure, one line each, then the distinct ones. */
void failures_print(const struct campaign *c, FILE *out);
/* Frees c's failures. */
void failures_free(struct campaign *c);

#endif
