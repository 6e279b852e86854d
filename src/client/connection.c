// SPDX-License-Identifier: GPL-2.0
/*
 * connection.c - struct tfuse: a libtracefuse program's session on the
 * daemon's socket (the daemon's side: src/source/session.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client.h"
#include "util/daemon_socket.h"

#define MAX_REQUEST	16384

pthread_mutex_t tfc_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t next_id = 1;	/* under tfc_lock */

static int send_msg(int fd, const char *buf, size_t len, int pass_fd)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (pass_fd >= 0) {
		struct cmsghdr *c;

		memset(&cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf.space;
		msg.msg_controllen = sizeof(cbuf.space);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	while (len) {
		ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EPIPE;
		/* the descriptor went with the first bytes */
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* One reply line, without its newline. */
static int read_line(int fd, char *line, size_t size)
{
	size_t have = 0;

	while (have < size - 1) {
		ssize_t n = recv(fd, line + have, 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EPIPE;
		if (line[have] == '\n') {
			line[have] = '\0';
			return 0;
		}
		have++;
	}
	return -EPROTO;
}

static int parse_reply(const char *line, char *out, size_t out_size)
{
	const char *rest = NULL;

	if (strncmp(line, "OK", 2) == 0 && (!line[2] || line[2] == ' '))
		rest = line[2] ? line + 3 : line + 2;
	else if (strncmp(line, "STATS ", 6) == 0)
		rest = line + 6;
	if (rest) {
		if (out)
			snprintf(out, out_size, "%s", rest);
		return 0;
	}
	if (line[0] == 'E' && line[1] == ' ') {
		int err = atoi(line + 2);

		return err > 0 ? -err : -EIO;
	}
	return -EPROTO;
}

int tfc_request(struct tfuse *t, int fd, char *out, size_t out_size,
		const char *fmt, ...)
{
	char *req = malloc(MAX_REQUEST + 2), line[512];
	va_list ap;
	int n, ret;

	if (!req)
		return -ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(req, MAX_REQUEST, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= MAX_REQUEST || memchr(req, '\n', (size_t)n)) {
		free(req);
		return n >= MAX_REQUEST ? -E2BIG : -EINVAL;
	}
	req[n++] = '\n';
	pthread_mutex_lock(&t->lock);
	ret = send_msg(t->fd, req, (size_t)n, fd);
	if (ret == 0)
		ret = read_line(t->fd, line, sizeof(line));
	pthread_mutex_unlock(&t->lock);
	free(req);
	return ret < 0 ? ret : parse_reply(line, out, out_size);
}

struct tfuse *tfuse_connect(const char *mountpoint)
{
	struct tfuse *t;
	char line[64], real[PATH_MAX];
	int err;

	if (!mountpoint) {
		errno = EINVAL;
		return NULL;
	}
	if (!realpath(mountpoint, real))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->mnt = strdup(real);
	t->ring_size = TFC_DEFAULT_RING;
	pthread_mutex_init(&t->lock, NULL);
	pthread_mutex_init(&t->cache_lock, NULL);
	t->fd = tf_socket_connect(real, NULL, 0);
	if (!t->mnt || t->fd < 0) {
		err = t->mnt ? errno : ENOMEM;
		goto fail;
	}
	err = -send_msg(t->fd, "SESSION\n", 8, -1);
	if (!err)
		err = -read_line(t->fd, line, sizeof(line));
	if (!err && strcmp(line, "OK 1") != 0)
		err = EPROTO;
	if (err)
		goto fail;
	pthread_mutex_lock(&tfc_lock);
	t->id = next_id++;
	pthread_mutex_unlock(&tfc_lock);
	return t;
fail:
	if (t->fd >= 0)
		close(t->fd);
	pthread_mutex_destroy(&t->cache_lock);
	pthread_mutex_destroy(&t->lock);
	free(t->mnt);
	free(t);
	errno = err;
	return NULL;
}

int tfuse_sync(struct tfuse *t)
{
	if (!t)
		return -EINVAL;
	return tfc_request(t, -1, NULL, 0, "SYNC");
}

void tfuse_disconnect(struct tfuse *t)
{
	if (!t)
		return;
	/* everything written is in before the session (and what it
	 * made) goes */
	tfuse_sync(t);
	tfc_producers_release(t);
	close(t->fd);
	for (unsigned i = 0; i < t->nr_cache; i++)
		tfuse_put_event_file(t->cache[i]);
	pthread_mutex_destroy(&t->cache_lock);
	pthread_mutex_destroy(&t->lock);
	free(t->mnt);
	free(t);
}

int tfuse_set_ring_size(struct tfuse *t, size_t bytes)
{
	if (!t || bytes < 4096 || bytes > (64u << 20) ||
	    (bytes & (bytes - 1)))
		return -EINVAL;
	pthread_mutex_lock(&tfc_lock);
	t->ring_size = bytes;
	pthread_mutex_unlock(&tfc_lock);
	return 0;
}

int tfuse_get_stats(struct tfuse *t, struct tfuse_stats *st)
{
	unsigned long long rec, lost, bad;
	char out[128];
	int ret;

	if (!t || !st)
		return -EINVAL;
	ret = tfc_request(t, -1, out, sizeof(out), "STATS");
	if (ret < 0)
		return ret;
	if (sscanf(out, "%llu %llu %llu", &rec, &lost, &bad) != 3)
		return -EPROTO;
	tfc_producers_count(t, &st->written, &st->lost);
	st->delivered = rec;
	st->malformed = bad;
	(void)lost;
	return 0;
}
