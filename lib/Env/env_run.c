/* Timed runs of a JIT-compiled program in a forked child process.
 *
 * The parent has compiled the module; fork() gives the child the compiled
 * code. The child allocates the argument frame, then for every run (warm-up
 * runs first: at least `warmup`, and more until @kernel has run for
 * `warmup_seconds` in all) calls @init on it (or, for a target of an
 * ordinary module, copies in the inputs pearl-exec makes, made once in the
 * child) and times @kernel (the target's function) alone, and
 * writes one record per run to a pipe, and a last record with the outputs'
 * hash. The
 * parent waits for each record with a deadline (the run limit plus an
 * allowance for @init) and SIGKILLs the child when it passes, so a hang of
 * generated code cannot hang the caller, nor a crash kill it.
 *
 * Contention: before the first run and after the last the child reads
 * the machine's CPU pressure (req->pressure_path, Linux's
 * /proc/pressure/cpu: the total time some task waited for a CPU), so that
 * the result says which share of its runs' time the machine was
 * oversubscribed; a parallel kernel's threads then wait for each other at
 * every barrier, and a 0.2 ms kernel can take 4-12 ms. Over the whole
 * runs, not each one: the kernel updates the total at its scheduler's
 * ticks, and a window of 1 ms reads 0 on a machine stalled half the
 * time. The reads are outside the timed intervals. A run past the limit
 * reports the pressure up to its end; a child killed at the deadline
 * cannot, and the parent reads it over the child's life instead (from the
 * fork to the kill): a machine too busy for the run to finish is as likely
 * the cause of a timeout as the schedule.
 *
 * OpenMP: the parent never runs a parallel region (it only compiles), so
 * libomp is initialized in the child, after fork, with OMP_NUM_THREADS set
 * there; each child starts its own thread pool and takes it down with it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "env_internal.h"
#include "pearl/clock.h"
#include "pearl/file.h"

/* One record from the child. */
enum rec_kind { rec_run = 1, rec_done, rec_timeout, rec_error };

struct rec {
	int kind;
	int index;       /* of the run (warm-up runs first) */
	int timed;       /* a timed run, not a warm-up run */
	double seconds;  /* @kernel's wall time */
	double cpu;      /* @kernel's CPU time, all threads */
	double init;     /* @init's wall time */
	double pressure; /* rec_done, rec_timeout: the stalled fraction, or
			  * NAN */
	uint64_t hash;   /* rec_done: the outputs' hash */
};

long long env_cpu_stall_us(const char *path)
{
	char buf[512], *at;
	long long total;
	ssize_t n;
	int fd;

	if (!path)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "some avg10=... avg60=... avg300=... total=N" is the first line */
	if (strncmp(buf, "some ", 5))
		return -1;
	at = strstr(buf, " total=");
	if (!at || (strchr(buf, '\n') && at > strchr(buf, '\n')))
		return -1;
	if (sscanf(at, " total=%lld", &total) != 1 || total < 0)
		return -1;
	return total;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	       (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static void write_rec(int fd, const struct rec *r)
{
	if (pearl_write_all(fd, r, sizeof(*r)) < 0)
		_exit(3);
}

/* Warm-up runs by time stop here whatever their time (a kernel of a few
 * microseconds would otherwise need thousands). */
#define WARMUP_MAX_RUNS 1000
/* The most timed runs that timed_seconds asks for. */
#define TIMED_MAX_RUNS 1000

/* The arguments of the runs: *frame, and without @init the pristine
 * inputs *inputs (pearl-exec's) copied into it before every run. Reports
 * a failure to the parent and exits. */
static void child_frames(const struct env_run_request *req, int fd,
			 struct exec_frame **frame, struct exec_frame **inputs)
{
	struct exec_err err;
	struct rec r;

	*frame = exec_frame_alloc(req->sig, req->size, &err);
	*inputs = NULL;
	if (*frame && !req->init) {
		*inputs = exec_frame_alloc(req->sig, req->size, &err);
		if (*inputs)
			exec_frame_init(*inputs, req->size);
	}
	if (*frame && (req->init || *inputs))
		return;
	memset(&r, 0, sizeof(r));
	r.kind = rec_error;
	write_rec(fd, &r);
	_exit(2);
}

/* The stalled fraction of the time since `start` (pearl_now), the
 * pressure total having been s0 (env_cpu_stall_us) then; NAN if either
 * reading failed; the test hook's value when set. */
static double stalled_since(const struct env_run_request *req, long long s0,
			    double start)
{
	long long s1 = s0 >= 0 ? env_cpu_stall_us(req->pressure_path) : -1;
	double t1 = pearl_now();

	if (req->test_pressure > 0)
		return req->test_pressure;
	if (s0 >= 0 && s1 >= s0 && t1 > start)
		return 1e-6 * (double)(s1 - s0) / (t1 - start);
	return NAN;
}

/* The child: never returns. */
static void child(const struct env_run_request *req, int fd)
{
	struct exec_frame *frame, *inputs;
	struct rec r;
	char threads[32];
	double t0, t1, c0, c1, start, warm = 0, spent = 0;
	long long s0;
	int i, timed = 0;

	snprintf(threads, sizeof(threads), "%d", req->threads);
	setenv("OMP_NUM_THREADS", threads, 1);
	child_frames(req, fd, &frame, &inputs);
	s0 = env_cpu_stall_us(req->pressure_path);
	start = pearl_now();
	for (i = 0; timed < req->runs ||
		    (spent < req->timed_seconds && timed < TIMED_MAX_RUNS);
	     ++i) {
		memset(&r, 0, sizeof(r));
		/* warm-up runs: a count, then a time, at most WARMUP_MAX_RUNS */
		r.timed = i >= req->warmup &&
			  (warm >= req->warmup_seconds || i >= WARMUP_MAX_RUNS);
		t0 = pearl_now();
		if (req->init)
			req->init(exec_frame_packed(frame));
		else
			exec_frame_copy(frame, inputs);
		t1 = pearl_now();
		r.init = t1 - t0;
		c0 = cpu_seconds();
		t0 = pearl_now();
		req->kernel(exec_frame_packed(frame));
		t1 = pearl_now();
		c1 = cpu_seconds();
		r.kind = rec_run;
		r.index = i;
		r.seconds = t1 - t0;
		r.cpu = c1 - c0;
		write_rec(fd, &r);
		if (r.timed) {
			timed++;
			spent += r.seconds;
		} else {
			warm += r.seconds;
		}
		if (req->limit > 0 && r.seconds > req->limit) {
			r.kind = rec_timeout;
			r.pressure = stalled_since(req, s0, start);
			write_rec(fd, &r);
			_exit(0);
		}
	}
	if (req->test_corrupt && req->n_outputs > 0)
		exec_frame_flip_bit(frame, req->outputs[0]);
	memset(&r, 0, sizeof(r));
	r.kind = rec_done;
	r.pressure = stalled_since(req, s0, start);
	r.hash = req->hash_all ? exec_frame_hash(frame, NULL, 0)
			       : exec_frame_hash(frame, req->outputs,
						 req->n_outputs);
	write_rec(fd, &r);
	/* No exit handlers, no flushing of the parent's stdio buffers, no
	 * leak check of the parent's heap: the child only computed. */
	_exit(0);
}

/* Reads one record, waiting at most `timeout` seconds. 1 read, 0 end of
 * file (the child is gone), -2 deadline passed, -1 error. */
static int read_rec(int fd, struct rec *r, double timeout)
{
	char *p = (char *)r;
	size_t got = 0;
	double deadline = pearl_now() + timeout;
	struct pollfd pfd;
	ssize_t n;
	int ms, ret;

	while (got < sizeof(*r)) {
		double left = deadline - pearl_now();

		if (left <= 0)
			return -2;
		ms = left > 1e6 ? 1000000000 : (int)(left * 1000.0) + 1;
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		ret = poll(&pfd, 1, ms);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -1;
		if (ret == 0)
			continue;
		n = read(fd, p + got, sizeof(*r) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return got ? -1 : 0;
		got += (size_t)n;
	}
	return 1;
}

/* Reaps the child; describes how it ended into msg if it did not exit 0.
 * Returns 1 if it exited 0. */
static int reap(pid_t pid, char *msg, size_t size)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			pearl_error_printf(msg, size, "waitpid: %s",
					   strerror(errno));
			return 0;
		}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 1;
	if (WIFSIGNALED(st))
		pearl_error_printf(msg, size,
				   "the run was killed by signal %d (%s)",
				   WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		pearl_error_printf(msg, size, "the run exited with status %d",
				   WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}

int env_run(const struct env_run_request *req, struct env_run_result *res)
{
	int fds[2], timed = 0, got_done = 0, ret;
	double deadline, forked;
	long long s0;
	struct rec r;
	pid_t parent, pid;

	memset(res, 0, sizeof(*res));
	res->best = -1;
	res->init = -1;
	res->pressure = NAN;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		res->status = env_run_error;
		pearl_error_printf(res->message, sizeof(res->message),
				   "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		res->status = env_run_error;
		pearl_error_printf(res->message, sizeof(res->message),
				   "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		/* a run whose parent is gone (killed) is nobody's: it ends */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		child(req, fds[1]);
	}
	close(fds[1]);
	s0 = env_cpu_stall_us(req->pressure_path);
	forked = pearl_now();
	/* Each record must come within the run limit plus @init's allowance
	 * (and a second of slack for process start-up and scheduling). */
	deadline = req->limit + req->init_allowance + 1.0;
	res->status = env_run_crash;
	for (;;) {
		ret = read_rec(fds[0], &r, deadline);
		if (ret == -2) {
			kill(pid, SIGKILL);
			reap(pid, NULL, 0);
			res->pressure = stalled_since(req, s0, forked);
			res->status = env_run_timeout;
			res->executions++;
			pearl_error_printf(res->message, sizeof(res->message),
					   "killed after %.3f s without "
					   "finishing a run (limit %.3f s)",
					   deadline, req->limit);
			close(fds[0]);
			return 0;
		}
		if (ret <= 0)
			break;
		if (r.kind == rec_run) {
			res->executions++;
			if (res->init < 0 || r.init < res->init)
				res->init = r.init;
			if (r.timed)
				timed++;
			if (r.timed &&
			    (res->best < 0 || r.seconds < res->best)) {
				res->best = r.seconds;
				res->cpu = r.cpu;
			}
		} else if (r.kind == rec_timeout) {
			res->status = env_run_timeout;
			res->best = r.seconds;
			res->pressure = r.pressure;
			pearl_error_printf(res->message, sizeof(res->message),
					   "a run took %.3f s (limit %.3f s)",
					   r.seconds, req->limit);
		} else if (r.kind == rec_done) {
			res->hash = r.hash;
			res->pressure = r.pressure;
			got_done = 1;
		} else if (r.kind == rec_error) {
			pearl_error_printf(res->message, sizeof(res->message),
					   "the child could not allocate the "
					   "arguments");
		}
	}
	close(fds[0]);
	if (!reap(pid, res->status == env_run_timeout ? NULL : res->message,
		  sizeof(res->message)) && res->status != env_run_timeout) {
		res->status = env_run_crash;
		return 0;
	}
	if (res->status == env_run_timeout)
		return 0;
	if (!got_done || timed < req->runs) {
		res->status = env_run_crash;
		if (!res->message[0])
			pearl_error_printf(res->message, sizeof(res->message),
					   "the run ended after %d of %d timed "
					   "runs", timed, req->runs);
		return 0;
	}
	res->status = env_run_ok;
	return 0;
}
