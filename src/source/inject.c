// SPDX-License-Identifier: GPL-2.0
/*
 * inject.c - the `inject:FILE` source (`-` for stdin): a thread reads the
 * file or pipe, parses its lines (inject_parse.c) and dispatches them.
 *
 * The file is opened (stdin duplicated) at create, before tracefuse
 * daemonizes, so relative paths work and stdin is the caller's.  drain()
 * waits until what could be read when it was called has been dispatched:
 * the bytes read so far plus those waiting in the pipe (FIONREAD) or the
 * rest of a regular file, or until the thread waits for input again.
 * Errors go to stderr (the log) as "inject:FILE: line N: ...".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/inject.h"
#include "source/source.h"
#include "util/rcu.h"

struct inject_src {
	char *name;
	int fd;
	int stop_pipe[2];
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t nread;		/* bytes read */
	uint64_t consumed;	/* bytes read and dispatched */
	off_t start_off;	/* a regular file's offset at create */
	bool regular;
	unsigned long idle_gen;	/* times the thread waited for input */
	bool idle, done;
	struct tf_inject *parser;
};

static void log_error(void *arg, const char *msg)
{
	struct inject_src *is = arg;

	fprintf(stderr, "tracefuse: inject:%s: %s\n", is->name, msg);
}

static int inject_create(struct tf_source *src, const char *arg,
			 struct tf_registry *reg)
{
	struct inject_src *is;

	(void)reg;
	if (!arg || !*arg)
		return -EINVAL;
	is = calloc(1, sizeof(*is));
	if (!is)
		return -ENOMEM;
	is->name = strdup(arg);
	if (strcmp(arg, "-") == 0)
		is->fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
	else
		is->fd = open(arg, O_RDONLY | O_CLOEXEC);
	if (is->fd < 0 || !is->name) {
		int err = errno ? errno : ENOMEM;

		fprintf(stderr, "tracefuse: inject:%s: %s\n", arg,
			strerror(err));
		if (is->fd >= 0)
			close(is->fd);
		free(is->name);
		free(is);
		return -err;
	}
	is->stop_pipe[0] = is->stop_pipe[1] = -1;
	{
		struct stat st;

		is->regular = fstat(is->fd, &st) == 0 && S_ISREG(st.st_mode);
		is->start_off = is->regular ? lseek(is->fd, 0, SEEK_CUR) : 0;
		if (is->start_off < 0)
			is->start_off = 0;
	}
	pthread_mutex_init(&is->lock, NULL);
	pthread_cond_init(&is->cond, NULL);
	src->priv = is;
	return 0;
}

static void set_state(struct inject_src *is, uint64_t add, int idle, int done)
{
	pthread_mutex_lock(&is->lock);
	is->consumed += add;
	if (idle >= 0) {
		if (idle && !is->idle)
			is->idle_gen++;
		is->idle = idle;
	}
	if (done)
		is->done = true;
	pthread_cond_broadcast(&is->cond);
	pthread_mutex_unlock(&is->lock);
}

static void *inject_thread(void *arg)
{
	struct tf_source *src = arg;
	struct inject_src *is = src->priv;
	struct tf_inject_stream st;
	size_t cap = 1 << 16;
	char *buf = malloc(cap);

	tf_inject_stream_init(&st, is->parser, src->tracing, log_error, is);
	while (buf) {
		struct pollfd pfd[2] = {
			{ .fd = is->fd, .events = POLLIN },
			{ .fd = is->stop_pipe[0], .events = POLLIN },
		};
		ssize_t n;

		if (poll(pfd, 2, 0) == 0) {
			/* nothing to read now: wait for input or stop */
			set_state(is, 0, 1, 0);
			if (poll(pfd, 2, -1) < 0 && errno != EINTR)
				break;
		}
		if (pfd[1].revents)
			break;
		/* under the lock: drain() sees nread and FIONREAD agree */
		pthread_mutex_lock(&is->lock);
		n = read(is->fd, buf, cap);
		if (n > 0) {
			is->nread += (uint64_t)n;
			is->idle = false;
		}
		pthread_mutex_unlock(&is->lock);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		tf_inject_stream_feed(&st, buf, (size_t)n);
		set_state(is, (uint64_t)n, -1, 0);
	}
	tf_inject_stream_finish(&st);
	tf_inject_stream_release(&st);
	free(buf);
	if (st.records || st.errors)
		fprintf(stderr, "tracefuse: inject:%s: %lu records, %lu "
			"errors\n", is->name, st.records, st.errors);
	set_state(is, 0, 1, 1);
	return NULL;
}

static int inject_start(struct tf_source *src)
{
	struct inject_src *is = src->priv;

	is->parser = tf_inject_new(src->tracing->reg);
	if (!is->parser)
		return -ENOMEM;
	if (pipe2(is->stop_pipe, O_CLOEXEC) < 0)
		return -errno;
	if (pthread_create(&is->thread, NULL, inject_thread, src) != 0)
		return -EAGAIN;
	is->started = true;
	return 0;
}

/* Bytes readable when called: all of a regular file, or read + piped. */
static uint64_t target_bytes(struct inject_src *is)
{
	struct stat st;
	int n = 0;

	if (is->regular) {
		if (fstat(is->fd, &st) == 0 && st.st_size > is->start_off)
			return (uint64_t)(st.st_size - is->start_off);
		return 0;
	}
	if (ioctl(is->fd, FIONREAD, &n) < 0 || n < 0)
		n = 0;
	return is->nread + (uint64_t)n;
}

static void inject_drain(struct tf_source *src)
{
	struct inject_src *is = src->priv;
	uint64_t target;
	unsigned long gen;

	if (!is->started)
		return;
	pthread_mutex_lock(&is->lock);
	gen = is->idle_gen;
	target = target_bytes(is);
	/* done, or all in, or the thread ran out of input since the call */
	while (!is->done && is->consumed < target &&
	       !(is->idle && is->idle_gen != gen))
		pthread_cond_wait(&is->cond, &is->lock);
	pthread_mutex_unlock(&is->lock);
}

static void inject_stop(struct tf_source *src)
{
	struct inject_src *is = src->priv;

	if (!is->started)
		return;
	if (write(is->stop_pipe[1], "x", 1) < 0)
		perror("tracefuse: inject");
	pthread_join(is->thread, NULL);
	is->started = false;
}

static void inject_destroy(struct tf_source *src)
{
	struct inject_src *is = src->priv;

	if (!is)
		return;
	if (is->fd >= 0)
		close(is->fd);
	if (is->stop_pipe[0] >= 0) {
		close(is->stop_pipe[0]);
		close(is->stop_pipe[1]);
	}
	tf_inject_free(is->parser);
	pthread_mutex_destroy(&is->lock);
	pthread_cond_destroy(&is->cond);
	free(is->name);
	free(is);
	src->priv = NULL;
}

const struct tf_source_type tf_source_inject = {
	.name = "inject",
	.create = inject_create,
	.start = inject_start,
	.drain = inject_drain,
	.sync = inject_drain,	/* a pipe's lines are events of now */
	.stop = inject_stop,
	.destroy = inject_destroy,
};
