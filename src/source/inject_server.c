// SPDX-License-Identifier: GPL-2.0
/*
 * inject_server.c - the daemon's Unix socket for tracefuse-inject
 * (docs/inject.md, "The socket").
 *
 * One listening thread accepts clients of the mounting user (or root,
 * SO_PEERCRED); each connection gets a thread of its own, with its own
 * parser, so neither FUSE's threads nor other clients wait on it.  The
 * protocol, client to daemon, is one request line:
 *
 *     INJECT\n          then the event lines until the client shuts down
 *                       its side, the last one ended by a newline (a line
 *                       cut short is a client killed inside it: dropped);
 *                       the daemon answers "E <message>\n" per bad line
 *                       as it goes
 *     REPLAY SPEED LOOPS PATH\n   a trace.dat replayed with tf_replay_run()
 *
 * and the daemon's last line, once everything is dispatched, is
 * "DONE <records> <errors>\n" (for a replay: "DONE <dispatched>
 * <skipped> <events added>\n", and "E replay: ..." before it when the
 * replay failed; older clients read the first two numbers).
 *
 *     SESSION\n        a libtracefuse connection (session.c): the daemon
 *                       answers "OK 1\n" (the protocol's version), then
 *                       serves one request line at a time, each answered
 *                       by one line, until the client goes; see
 *                       serve_session().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "source/inject.h"
#include "source/replay.h"
#include "source/session.h"
#include "util/daemon_socket.h"

#define MAX_CONNS 64

struct tf_inject_server {
	int listen_fd;
	int stop_pipe[2];
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct tf_tracing *tracing;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int conns[MAX_CONNS];
	int nr_conns;
	bool stopping;
};

/* A connection's thread's argument. */
struct conn {
	struct tf_inject_server *srv;
	int fd;
};

/* Binds @srv's socket for @mountpoint. */
static int server_bind(struct tf_inject_server *srv, const char *mountpoint)
{
	char real[PATH_MAX], dir[PATH_MAX];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned uid = (unsigned)geteuid();
	int fd, which;

	if (!realpath(mountpoint, real))
		return -errno;
	for (which = 0; tf_socket_dir(dir, sizeof(dir), uid, which) >= 0;
	     which++) {
		if (tf_socket_own_dir(dir, uid, 1) < 0)
			continue;
		if (tf_socket_name(srv->path, sizeof(srv->path), dir, real) < 0)
			continue;
		break;
	}
	if (tf_socket_dir(dir, sizeof(dir), uid, which) < 0) {
		fprintf(stderr, "tracefuse: no directory for the injection "
			"socket (tracefuse-inject will not work)\n");
		srv->path[0] = '\0';
		return -ENOENT;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, srv->path, strlen(srv->path) + 1);
	unlink(srv->path);	/* a previous run's, which crashed */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    chmod(srv->path, 0600) < 0 || listen(fd, 16) < 0) {
		int err = errno;

		fprintf(stderr, "tracefuse: injection socket %s: %s\n",
			srv->path, strerror(err));
		close(fd);
		srv->path[0] = '\0';
		return -err;
	}
	srv->listen_fd = fd;
	return 0;
}

int tf_inject_server_init(const char *mountpoint,
			  struct tf_inject_server **out)
{
	struct tf_inject_server *srv = calloc(1, sizeof(*srv));

	*out = srv;
	if (!srv)
		return -ENOMEM;
	srv->listen_fd = -1;
	srv->stop_pipe[0] = srv->stop_pipe[1] = -1;
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->cond, NULL);
	return server_bind(srv, mountpoint);
}

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void send_error(void *arg, const char *msg)
{
	int fd = *(int *)arg;
	char line[600];
	int n = snprintf(line, sizeof(line), "E %s\n", msg);

	if (n > (int)sizeof(line) - 1) {
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	send_all(fd, line, (size_t)n);
}

static void serve_inject(struct tf_inject_server *srv, int fd, const char *rest, size_t rest_len)
{
	struct tf_inject *p = tf_inject_new(srv->tracing->reg);
	struct tf_inject_stream st;
	char *buf = malloc(1 << 16);
	char done[96];
	size_t cut;
	ssize_t n;

	if (!p || !buf) {
		send_error(&fd, "out of memory");
		send_all(fd, "DONE 0 1\n", 9);
		goto out;
	}
	tf_inject_stream_init(&st, p, srv->tracing, send_error, &fd);
	tf_inject_stream_feed(&st, rest, rest_len);
	while ((n = recv(fd, buf, 1 << 16, 0)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		tf_inject_stream_feed(&st, buf, (size_t)n);
	}
	/* tracefuse-inject ends its input with a newline: a line cut
	 * short is a client that died (or was killed) inside it */
	cut = tf_inject_stream_abandon(&st);
	if (cut) {
		fprintf(stderr, "tracefuse: an injection client ended inside "
			"a line (its %zu bytes dropped, %lu records "
			"dispatched): killed mid-record?\n", cut, st.records);
		st.errors++;
	}
	n = snprintf(done, sizeof(done), "DONE %lu %lu\n", st.records,
		     st.errors);
	send_all(fd, done, (size_t)n);
	tf_inject_stream_release(&st);
out:
	tf_inject_free(p);
	free(buf);
}

static void serve_replay(struct tf_inject_server *srv, int fd, char *args)
{
	struct tf_replay_opts opts = { 0 };
	unsigned long dispatched = 0, skipped = 0;
	char msg[PATH_MAX + 128], *end, *path;
	unsigned added = 0;
	int ret;

	opts.speed = strtod(args, &end);
	if (end == args || *end != ' ')
		goto bad;
	opts.loops = (unsigned)strtoul(end + 1, &end, 10);
	if (*end != ' ' || end[1] != '/')
		goto bad;
	path = end + 1;
	ret = tf_replay_run(srv->tracing, path, &opts, &dispatched, &skipped,
			    &added);
	if (ret < 0) {
		snprintf(msg, sizeof(msg), "replay: %s: %s", path,
			 strerror(-ret));
		send_error(&fd, msg);
	}
	snprintf(msg, sizeof(msg), "DONE %lu %lu %u\n", dispatched, skipped,
		 added);
	send_all(fd, msg, strlen(msg));
	return;
bad:
	send_error(&fd, "bad REPLAY request");
	send_all(fd, "DONE 0 0\n", 9);
}

static void *conn_thread(void *arg)
{
	struct conn *c = arg;
	struct tf_inject_server *srv = c->srv;
	int fd = c->fd;
	char head[PATH_MAX + 64];
	size_t have = 0;
	char *nl = NULL;

	while (have < sizeof(head) - 1) {
		ssize_t n = recv(fd, head + have, sizeof(head) - 1 - have, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		head[have] = '\0';
		if ((nl = memchr(head, '\n', have)))
			break;
	}
	if (nl) {
		*nl = '\0';
		if (strcmp(head, "INJECT") == 0)
			serve_inject(srv, fd, nl + 1, have - (size_t)(nl + 1 - head));
		else if (strncmp(head, "REPLAY ", 7) == 0)
			serve_replay(srv, fd, head + 7);
		else if (strcmp(head, "SESSION") == 0 &&
			 have == (size_t)(nl + 1 - head))
			tf_session_serve(srv->tracing, fd);
		else
			send_error(&fd, "unknown request");
	}
	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < srv->nr_conns; i++)
		if (srv->conns[i] == fd) {
			srv->conns[i] = srv->conns[--srv->nr_conns];
			break;
		}
	close(fd);
	pthread_cond_broadcast(&srv->cond);
	pthread_mutex_unlock(&srv->lock);
	free(c);
	return NULL;
}

static bool peer_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return false;
	return cred.uid == 0 || cred.uid == geteuid();
}

static void *listen_thread(void *arg)
{
	struct tf_inject_server *srv = arg;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = srv->listen_fd, .events = POLLIN },
			{ .fd = srv->stop_pipe[0], .events = POLLIN },
		};
		pthread_attr_t attr;
		pthread_t th;
		struct conn *c;
		int fd;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents)
			break;
		fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (!peer_allowed(fd)) {
			close(fd);
			continue;
		}
		pthread_mutex_lock(&srv->lock);
		if (srv->nr_conns == MAX_CONNS || srv->stopping) {
			pthread_mutex_unlock(&srv->lock);
			send_error(&fd, "too many clients");
			close(fd);
			continue;
		}
		srv->conns[srv->nr_conns++] = fd;
		c = malloc(sizeof(*c));
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (c)
			*c = (struct conn){ srv, fd };
		if (!c || pthread_create(&th, &attr, conn_thread, c) != 0) {
			srv->conns[--srv->nr_conns] = -1;
			close(fd);
			free(c);
		}
		pthread_attr_destroy(&attr);
		pthread_mutex_unlock(&srv->lock);
	}
	return NULL;
}

int tf_inject_server_start(struct tf_inject_server *srv, struct tf_tracing *t)
{
	if (!srv)
		return 0;
	if (srv->listen_fd < 0)
		return 0;
	srv->tracing = t;
	if (pipe2(srv->stop_pipe, O_CLOEXEC) < 0)
		return -errno;
	if (pthread_create(&srv->thread, NULL, listen_thread, srv) != 0)
		return -EAGAIN;
	srv->started = true;
	return 0;
}

void tf_inject_server_stop(struct tf_inject_server *srv)
{
	if (!srv)
		return;
	if (srv->started) {
		if (write(srv->stop_pipe[1], "x", 1) < 0)
			perror("tracefuse: injection socket");
		pthread_join(srv->thread, NULL);
		srv->started = false;
		/* connections end: their reads and writes fail from now */
		pthread_mutex_lock(&srv->lock);
		srv->stopping = true;
		for (int i = 0; i < srv->nr_conns; i++)
			shutdown(srv->conns[i], SHUT_RDWR);
		while (srv->nr_conns)
			pthread_cond_wait(&srv->cond, &srv->lock);
		pthread_mutex_unlock(&srv->lock);
	}
	if (srv->listen_fd >= 0) {
		close(srv->listen_fd);
		srv->listen_fd = -1;
		if (srv->path[0])
			unlink(srv->path);
	}
	for (int i = 0; i < 2; i++)
		if (srv->stop_pipe[i] >= 0) {
			close(srv->stop_pipe[i]);
			srv->stop_pipe[i] = -1;
		}
	pthread_mutex_destroy(&srv->lock);
	pthread_cond_destroy(&srv->cond);
	free(srv);
}
