/* A tuning campaign over MPI ranks (ranks.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PEARL_HAVE_MPI
#include <mpi.h>
#endif

#include "ranks.h"

int tune_ranks_owns(const struct tune_ranks *r, int i)
{
	return i % r->size == r->rank;
}

#ifndef PEARL_HAVE_MPI

int tune_ranks_init(int *argc, char ***argv, struct tune_ranks *r)
{
	(void)argc;
	(void)argv;
	r->rank = 0;
	r->size = 1;
	r->started = 0;
	return 0;
}

void tune_ranks_finish(const struct tune_ranks *r)
{
	(void)r;
}

int tune_ranks_gather(const struct tune_ranks *r, char **texts, int n,
		      int *failed)
{
	(void)r;
	(void)texts;
	(void)n;
	(void)failed;
	return 0;
}

#else

/* Whether a launcher (mpirun, mpiexec, srun) started this process: the
 * variables Open MPI and PMI(x) set for their ranks. */
static int launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") ||
	       getenv("PMI_RANK");
}

int tune_ranks_init(int *argc, char ***argv, struct tune_ranks *r)
{
	r->rank = 0;
	r->size = 1;
	r->started = 0;
	if (!launched())
		return 0;
	r->started = 1;
	if (MPI_Init(argc, argv) != MPI_SUCCESS ||
	    MPI_Comm_rank(MPI_COMM_WORLD, &r->rank) != MPI_SUCCESS ||
	    MPI_Comm_size(MPI_COMM_WORLD, &r->size) != MPI_SUCCESS) {
		fprintf(stderr, "pearl-tune: MPI could not start\n");
		return -1;
	}
	return 0;
}

void tune_ranks_finish(const struct tune_ranks *r)
{
	if (r->started)
		MPI_Finalize();
}

/* This rank's texts as one buffer of records: int32 program, int32
 * length, the bytes (no NUL). NULL if memory is exhausted. */
static char *pack(const struct tune_ranks *r, char **texts, int n,
		  int *size)
{
	size_t len = 0, off = 0;
	char *buf;
	int i;

	for (i = 0; i < n; ++i)
		if (tune_ranks_owns(r, i) && texts[i])
			len += 8 + strlen(texts[i]);
	if (len > INT32_MAX)
		return NULL;
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	for (i = 0; i < n; ++i) {
		int32_t head[2];

		if (!tune_ranks_owns(r, i) || !texts[i])
			continue;
		head[0] = i;
		head[1] = (int32_t)strlen(texts[i]);
		memcpy(buf + off, head, 8);
		memcpy(buf + off + 8, texts[i], (size_t)head[1]);
		off += 8 + (size_t)head[1];
	}
	*size = (int)len;
	return buf;
}

/* Rank 0: the records of all ranks (`all`, `len` bytes) into texts. */
static int unpack(const char *all, size_t len, char **texts, int n)
{
	size_t off = 0;

	while (off + 8 <= len) {
		int32_t head[2];

		memcpy(head, all + off, 8);
		if (head[0] < 0 || head[0] >= n || head[1] < 0 ||
		    off + 8 + (size_t)head[1] > len)
			return -1;
		free(texts[head[0]]);
		texts[head[0]] = malloc((size_t)head[1] + 1);
		if (!texts[head[0]])
			return -1;
		memcpy(texts[head[0]], all + off + 8, (size_t)head[1]);
		texts[head[0]][head[1]] = '\0';
		off += 8 + (size_t)head[1];
	}
	return off == len ? 0 : -1;
}

int tune_ranks_gather(const struct tune_ranks *r, char **texts, int n,
		      int *failed)
{
	int mine = 0, any_failed = 0, i, total = 0, ok = 1;
	int *sizes = NULL, *offsets = NULL;
	char *buf, *all = NULL;

	if (!r->started)
		return 0;
	buf = pack(r, texts, n, &mine);
	if (!buf)
		mine = -1; /* tell rank 0, then fail everywhere */
	if (r->rank == 0) {
		sizes = calloc((size_t)r->size, sizeof(int));
		offsets = calloc((size_t)r->size, sizeof(int));
	}
	MPI_Gather(&mine, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (r->rank == 0) {
		ok = sizes && offsets;
		for (i = 0; ok && i < r->size; ++i) {
			ok = sizes[i] >= 0 && total <= INT32_MAX - sizes[i];
			if (ok) {
				offsets[i] = total;
				total += sizes[i];
			}
		}
		all = ok ? malloc((size_t)total + 1) : NULL;
		ok = ok && all;
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (ok)
		MPI_Gatherv(buf, mine, MPI_CHAR, all, sizes, offsets, MPI_CHAR,
			    0, MPI_COMM_WORLD);
	MPI_Allreduce(failed, &any_failed, 1, MPI_INT, MPI_LOR,
		      MPI_COMM_WORLD);
	*failed = any_failed;
	if (r->rank == 0 && ok && unpack(all, (size_t)total, texts, n) < 0)
		ok = 0;
	if (r->rank != 0)
		for (i = 0; i < n; ++i) {
			free(texts[i]);
			texts[i] = NULL;
		}
	free(buf);
	free(all);
	free(sizes);
	free(offsets);
	if (!ok && r->rank == 0)
		fprintf(stderr, "pearl-tune: the ranks' entries could not be "
				"gathered (out of memory)\n");
	return ok ? 0 : -1;
}

#endif
