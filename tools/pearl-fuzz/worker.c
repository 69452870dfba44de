/* The worker process of pearl-fuzz and its protocol (fuzz.h).
 *
 * Legality checks, the agent and code generation run inside the process
 * that asks for them (only the generated code runs in a child of the
 * environment): a crash there would end the fuzzer. The campaign therefore
 * forks a worker that loads programs and runs pairs on request, reads its
 * answers with a deadline, and starts a new worker when one dies or stops
 * answering. The worker runs in its own process group, so that killing it
 * also ends the runs it forked; it dies with the campaign
 * (PR_SET_PDEATHSIG). Its stdout and stderr go to an unlinked temporary
 * file whose tail tells what happened before a crash. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "pearl/clock.h"
#include "pearl/file.h"

/* Bytes of the worker's output kept in a crash's message. */
#define LOG_TAIL 1500
/* The log is emptied when it grows beyond this. */
#define LOG_MAX (8L << 20)
/* Seconds a worker has to exit once its input ended. */
#define EXIT_GRACE 10.0

/* Formats a line (a newline is added) and writes it; 0, or -1. */
static int vsend(int fd, const char *fmt, va_list ap)
{
	char *text = NULL;
	int len, ret;

	len = vasprintf(&text, fmt, ap);
	if (len < 0)
		return -1;
	text[strcspn(text, "\n")] = '\0'; /* one line, whatever it holds */
	len = (int)strlen(text);
	ret = pearl_write_all(fd, text, (size_t)len);
	if (ret == 0)
		ret = pearl_write_all(fd, "\n", 1);
	free(text);
	return ret;
}

static int send_line(int fd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int send_line(int fd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsend(fd, fmt, ap);
	va_end(ap);
	return ret;
}

/* Replaces line breaks and tabs in s by spaces (modified). */
static char *one_line(char *s)
{
	char *p;

	for (p = s; *p; ++p)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	return s;
}

/* --- the worker's side ------------------------------------------------- */

struct serving {
	const struct fuzz_driver *driver;
	const struct fuzz_config *cfg;
	void *state;
	int out_fd;
	int failed; /* the campaign is gone */
};

static void trace_to_campaign(const char *partial, void *user)
{
	struct serving *s = user;

	if (send_line(s->out_fd, "G %s", partial) < 0)
		s->failed = 1;
}

static int emit_to_campaign(const char *schedule, void *user)
{
	struct serving *s = user;

	if (send_line(s->out_fd, "S %s", schedule) < 0)
		return s->failed = 1, -1;
	return 0;
}

/* P <seed> <count> */
static int serve_program(struct serving *s, const char *args)
{
	unsigned long long seed;
	char err[512] = "";
	int count, st;

	if (sscanf(args, "%llu %d", &seed, &count) != 2)
		return send_line(s->out_fd, "E error bad request: P %s", args);
	st = s->driver->load(s->state, (uint64_t)seed, err, sizeof(err));
	if (st != 0)
		return send_line(s->out_fd, "E %s %s",
				 st > 0 ? "unusable" : "error", one_line(err));
	if (count > 0 &&
	    s->driver->schedules(s->state, count, trace_to_campaign,
				 emit_to_campaign, s, err, sizeof(err)) < 0) {
		if (s->failed)
			return -1;
		return send_line(s->out_fd, "E error %s", one_line(err));
	}
	return send_line(s->out_fd, "E ok");
}

/* The test hooks: the worker dies or stops answering on a schedule that
 * contains the configured text. */
static void injected_misbehaviour(const struct fuzz_config *cfg,
				  const char *schedule)
{
	if (cfg->inject_crash && strstr(schedule, cfg->inject_crash)) {
		fprintf(stderr, "pearl-fuzz: worker: injected crash\n");
		abort();
	}
	if (cfg->inject_hang && strstr(schedule, cfg->inject_hang))
		for (;;)
			pause();
}

/* R <schedule> */
static int serve_run(struct serving *s, const char *schedule)
{
	struct fuzz_outcome out;
	char err[512] = "";

	injected_misbehaviour(s->cfg, schedule);
	if (s->driver->run(s->state, schedule, &out, err, sizeof(err)) < 0) {
		out.cls = fuzz_error;
		out.legal = out.same_code = 0;
		snprintf(out.message, sizeof(out.message), "%s", err);
	}
	return send_line(s->out_fd, "O %s %d %d %s", fuzz_class_name(out.cls),
			 out.legal, out.same_code, one_line(out.message));
}

int fuzz_worker_main(const struct fuzz_driver *driver,
		     const struct fuzz_config *cfg, int in_fd, int out_fd)
{
	struct serving s = { driver, cfg, NULL, out_fd, 0 };
	char err[512] = "", *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *in = fdopen(in_fd, "r");
	int ret = 0;

	if (!in)
		return 2;
	s.state = driver->create(cfg, err, sizeof(err));
	if (!s.state) {
		fprintf(stderr, "pearl-fuzz: worker: %s\n", err);
		fclose(in);
		return 2;
	}
	while (ret == 0 && (len = getline(&line, &cap, in)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!strncmp(line, "P ", 2))
			ret = serve_program(&s, line + 2);
		else if (!strncmp(line, "R ", 2))
			ret = serve_run(&s, line + 2);
		else
			ret = send_line(out_fd, "E error bad request: %s",
					line);
	}
	free(line);
	fclose(in);
	driver->destroy(s.state);
	return ret == 0 ? 0 : 3;
}

/* --- the campaign's side ----------------------------------------------- */

int fuzz_worker_init(struct fuzz_worker *w, const struct fuzz_driver *driver,
		     const struct fuzz_config *cfg, char *err, size_t err_size)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	memset(w, 0, sizeof(*w));
	w->driver = driver;
	w->cfg = cfg;
	w->to_fd = w->from_fd = -1;
	snprintf(path, sizeof(path), "%s/pearl-fuzz-worker-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	w->log_fd = mkstemp(path);
	if (w->log_fd < 0) {
		snprintf(err, err_size, "cannot create a file in %s: %s",
			 dir && *dir ? dir : "/tmp", strerror(errno));
		return -1;
	}
	unlink(path);
	fcntl(w->log_fd, F_SETFL, O_APPEND);
	fcntl(w->log_fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

/* The child: becomes the worker; never returns. */
static void become_worker(struct fuzz_worker *w, pid_t parent, int in_fd,
			  int out_fd)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(2);
	dup2(w->log_fd, STDOUT_FILENO);
	dup2(w->log_fd, STDERR_FILENO);
	/* exit, not _exit: the worker's own leaks are reported (sanitizers) */
	exit(fuzz_worker_main(w->driver, w->cfg, in_fd, out_fd));
}

int fuzz_worker_start(struct fuzz_worker *w, char *err, size_t err_size)
{
	int req[2], ans[2];
	pid_t parent = getpid();

	if (pipe2(req, O_CLOEXEC) < 0 || pipe2(ans, O_CLOEXEC) < 0) {
		snprintf(err, err_size, "pipe: %s", strerror(errno));
		return -1;
	}
	if (ftruncate(w->log_fd, 0) == 0)
		w->log_mark = 0;
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		snprintf(err, err_size, "fork: %s", strerror(errno));
		w->pid = 0;
		close(req[0]), close(req[1]), close(ans[0]), close(ans[1]);
		return -1;
	}
	if (w->pid == 0) {
		close(req[1]);
		close(ans[0]);
		become_worker(w, parent, req[0], ans[1]);
	}
	setpgid(w->pid, w->pid); /* also here: no race with a kill */
	close(req[0]);
	close(ans[1]);
	w->to_fd = req[1];
	w->from_fd = ans[0];
	w->len = w->line_end = 0;
	w->loaded = 0;
	w->starts++;
	return 0;
}

int fuzz_worker_send(struct fuzz_worker *w, const char *fmt, ...)
{
	struct stat st;
	va_list ap;
	int ret;

	if (!w->pid)
		return -1;
	if (fstat(w->log_fd, &st) == 0) {
		w->log_mark = st.st_size;
		if (st.st_size > LOG_MAX && ftruncate(w->log_fd, 0) == 0)
			w->log_mark = 0;
	}
	va_start(ap, fmt);
	ret = vsend(w->to_fd, fmt, ap);
	va_end(ap);
	return ret;
}

/* Drops the line returned last from the buffer. */
static void consume_line(struct fuzz_worker *w)
{
	if (!w->line_end)
		return;
	memmove(w->buf, w->buf + w->line_end, w->len - w->line_end);
	w->len -= w->line_end;
	w->line_end = 0;
}

/* Room for 4096 more bytes in the buffer; 0, or -1. */
static int grow(struct fuzz_worker *w)
{
	char *grown;

	if (w->cap - w->len > 4096)
		return 0;
	grown = realloc(w->buf, w->cap + 65536);
	if (!grown)
		return -1;
	w->buf = grown;
	w->cap += 65536;
	return 0;
}

int fuzz_worker_read(struct fuzz_worker *w, double timeout, char **line)
{
	double deadline = pearl_now() + timeout;
	struct pollfd pfd;
	char *nl;
	ssize_t n;
	int ms, r;

	consume_line(w);
	for (;;) {
		nl = w->len ? memchr(w->buf, '\n', w->len) : NULL;
		if (nl) {
			*nl = '\0';
			w->line_end = (size_t)(nl - w->buf) + 1;
			*line = w->buf;
			return 1;
		}
		if (pearl_now() >= deadline)
			return -2;
		ms = (int)((deadline - pearl_now()) * 1000.0) + 1;
		pfd.fd = w->from_fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		r = poll(&pfd, 1, ms);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0)
			continue;
		if (grow(w) < 0)
			return -1;
		n = read(w->from_fd, w->buf + w->len, w->cap - w->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		w->len += (size_t)n;
	}
}

/* Waits up to `seconds` for the worker to end, without reaping it (its
 * process group stays reserved); 1 if it ended. */
static int wait_end(pid_t pid, double seconds)
{
	double until = pearl_now() + seconds;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	siginfo_t info;

	for (;;) {
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info,
			   WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    info.si_pid == pid)
			return 1;
		if (pearl_now() >= until)
			return 0;
		nanosleep(&pause, NULL);
	}
}

/* How a reaped process ended, into msg. */
static void describe_end(int status, int killed, char *msg, size_t size)
{
	if (killed)
		snprintf(msg, size, "the worker stopped answering and was "
			 "killed");
	else if (WIFSIGNALED(status))
		snprintf(msg, size, "the worker was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(msg, size, "the worker exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Appends the tail of what the worker printed since the last request. */
static void append_log_tail(struct fuzz_worker *w, char *msg, size_t size)
{
	struct stat st;
	char tail[LOG_TAIL + 1];
	off_t from;
	ssize_t n;
	size_t len = strlen(msg);

	if (fstat(w->log_fd, &st) < 0 || st.st_size <= w->log_mark)
		return;
	from = st.st_size - LOG_TAIL > w->log_mark ? st.st_size - LOG_TAIL
						  : w->log_mark;
	n = pread(w->log_fd, tail, (size_t)(st.st_size - from), from);
	if (n <= 0)
		return;
	tail[n] = '\0';
	snprintf(msg + len, size - len, "; it printed: %s", one_line(tail));
}

/* Ends the worker: waits up to EXIT_GRACE for it to end by itself unless
 * `kill_it`, then kills its process group (what it forked and left
 * behind, or itself if it did not end: *killed) and reaps it. Returns its
 * wait status. */
static int end_worker(struct fuzz_worker *w, int kill_it, int *killed)
{
	int status = 0;

	*killed = kill_it || !wait_end(w->pid, EXIT_GRACE);
	kill(-w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (w->to_fd >= 0)
		close(w->to_fd);
	close(w->from_fd);
	w->to_fd = w->from_fd = -1;
	w->pid = 0;
	w->loaded = 0;
	return status;
}

void fuzz_worker_bury(struct fuzz_worker *w, int killed, char *msg,
		      size_t size)
{
	int status, was_killed;

	if (!w->pid) {
		snprintf(msg, size, "no worker");
		return;
	}
	status = end_worker(w, killed, &was_killed);
	describe_end(status, was_killed, msg, size);
	append_log_tail(w, msg, size);
}

void fuzz_worker_clear(struct fuzz_worker *w, char *msg, size_t size)
{
	int status, killed;

	if (msg && size)
		msg[0] = '\0';
	if (w->pid) {
		close(w->to_fd); /* the worker's input ends: it exits */
		w->to_fd = -1;
		status = end_worker(w, 0, &killed);
		if ((killed || !WIFEXITED(status) || WEXITSTATUS(status)) &&
		    msg && size) {
			describe_end(status, killed, msg, size);
			append_log_tail(w, msg, size);
		}
	}
	if (w->log_fd >= 0)
		close(w->log_fd);
	w->log_fd = -1;
	free(w->buf);
	w->buf = NULL;
}
