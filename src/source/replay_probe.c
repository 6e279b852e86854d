// SPDX-License-Identifier: GPL-2.0
/*
 * replay_probe.c - reading a trace.dat once in a child process before
 * the daemon reads it (see replay_probe.h).
 *
 * libtracecmd trusts the files it reads: a truncated or corrupted
 * trace.dat can make it dereference NULL (tracecmd_open_fd() closing a
 * handle it half made, found by tests/fuzz/fuzz_replay.c) instead of
 * returning an error.  In the daemon that would take the mount down
 * with it, so the file is first read to its end by a child; only if the
 * child survives does the daemon read it itself.  libtracecmd is
 * deterministic, so the same bytes take the same path twice.  The cost
 * is a fork and a second decoding of the file per replay.  A child that
 * is still reading after 10 s plus 1 s per 4 MiB of file is taken to
 * loop and the file refused.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "source/replay_probe.h"

static int count_one(struct tracecmd_input *handle, struct tep_record *rec,
		     int cpu, void *arg)
{
	(void)handle;
	(void)rec;
	(void)cpu;
	(void)arg;
	return 0;
}

/* In the child: 0 if libtracecmd opens and iterates the whole file. */
static int read_all(const char *path)
{
	struct tracecmd_input *handle, **handles;
	int n, nr = 0, ret;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle)
		return 1;
	n = tracecmd_buffer_instances(handle);
	handles = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*handles));
	if (!handles)
		return 2;
	handles[nr++] = handle;
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *h =
			tracecmd_buffer_instance_handle(handle, i);

		if (h)
			handles[nr++] = h;
	}
	ret = tracecmd_iterate_events_multi(handles, nr, count_one, NULL);
	for (int i = nr - 1; i >= 0; i--)
		tracecmd_close(handles[i]);
	free(handles);
	return ret < 0 ? 1 : 0;
}

/*
 * The child dies of its own crash: the default action for the signals
 * a bad pointer raises, set with the raw system call, because a
 * sanitizer's interceptor keeps its own handler (which would report
 * the child's crash as the parent's, and under a fuzzer write it as a
 * crash of the program).  And of its alarm: a handler of SIGALRM the
 * parent has (a fuzzer's timeout, for one) would let a child that
 * never finishes run on while the parent waits for it.
 */
static void default_crash_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL,
				    SIGALRM };
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		unsigned long mask;
	} act = { .handler = SIG_DFL };

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		syscall(SYS_rt_sigaction, sigs[i], &act, NULL,
			sizeof(act.mask));
}

int tf_replay_probe(const char *path)
{
	struct stat st;
	int status, devnull, fd;
	pid_t pid;

	fd = open(path, O_RDONLY | O_CLOEXEC);	/* ENOENT, EACCES: say so */
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		st.st_size = 0;
	close(fd);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* a sanitizer's report of the crash is not the daemon's */
		devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		default_crash_signals();
		alarm(10 + (unsigned)(st.st_size >> 22));
		_exit(read_all(path));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return -ENOMEM;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EBADMSG;
}
