/*
 * pearl-tune/ranks.h - a tuning campaign over MPI ranks.
 *
 * Started under `mpirun -np N`, every rank reads the same command line;
 * program i (in command-line order) is tuned by rank i mod N, with the
 * rank's own environment (its own timing child; the memo file may be
 * shared: SQLite's WAL mode and busy timeout let processes share it). Each
 * program's entries go to rank 0 as schedule-file text, which adds them to
 * the one output file in program order: the file is the one a single
 * process writes from the same measurements. Built without MPI, or run
 * without mpirun (no launcher's variables in the environment), there is
 * one rank, MPI is not started and nothing is sent.
 *
 * Ranks on one machine share its cores, and their measurements disturb
 * each other: a campaign for speed gives each rank a machine of its own.
 */
#ifndef PEARL_TUNE_RANKS_H
#define PEARL_TUNE_RANKS_H

struct tune_ranks {
	int rank;    /* this process's, from 0 */
	int size;    /* the number of ranks */
	int started; /* MPI was started (and must be ended) */
};

/* Starts MPI (if built with it) and fills *r. 0, or -1 with a message on
 * stderr. */
int tune_ranks_init(int *argc, char ***argv, struct tune_ranks *r);
/* Ends MPI (if it was started). */
void tune_ranks_finish(const struct tune_ranks *r);

/* Whether program `i` is this rank's to tune. */
int tune_ranks_owns(const struct tune_ranks *r, int i);

/* Sends each program's entries text to rank 0: texts[i] (malloc'd, or
 * NULL if the program got no entry) for the n programs; on entry a rank
 * holds the texts of the programs it owns, on return rank 0 holds all of
 * them (the others' are freed). *failed becomes 1 on every rank if it was
 * 1 on any. 0, or -1 with a message on stderr. */
int tune_ranks_gather(const struct tune_ranks *r, char **texts, int n,
		      int *failed);

#endif
