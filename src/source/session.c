// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - a libtracefuse connection, the daemon's side (see
 * session.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "source/ring_channel.h"
#include "source/session.h"
#include "source/source.h"
#include "synth/synth.h"

#define MAX_LINE	16384
#define MAX_RINGS	256
#define MAX_FDS		4

struct owned {
	char *name;
	uint64_t seq;		/* which event of that name */
};

struct session {
	struct tf_tracing *t;
	int fd;
	char buf[MAX_LINE + 1];
	size_t have;
	int fds[MAX_FDS];	/* received, not yet taken by a RING */
	int nr_fds;
	struct tf_ring_channel *rings[MAX_RINGS];
	struct tf_ring_stats closed;	/* counts of closed rings */
	struct owned *owned;
	unsigned nr_owned;
};

static int reply(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int reply(struct session *s, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t off = 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	while (off < (size_t)n) {
		ssize_t w = send(s->fd, line + off, (size_t)n - off,
				 MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

static int fail(struct session *s, int err, const char *what)
{
	return reply(s, "E %d %s", err, what);
}

/* Reads more bytes, keeping the descriptors that come along. */
static int fill(struct session *s)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	} cbuf;
	struct iovec iov = { s->buf + s->have, MAX_LINE - s->have };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf.space, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	ssize_t n;

	do
		n = recvmsg(s->fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		int k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (int i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (s->nr_fds < MAX_FDS)
				s->fds[s->nr_fds++] = fd;
			else
				close(fd);
		}
	}
	s->have += (size_t)n;
	return 0;
}

/* The next request line (NUL-ended, in s->buf), its length, or -1. */
static long next_line(struct session *s, size_t *consumed)
{
	char *nl;

	while (!(nl = memchr(s->buf, '\n', s->have))) {
		if (s->have == MAX_LINE || fill(s) < 0)
			return -1;
	}
	*nl = '\0';
	*consumed = (size_t)(nl - s->buf) + 1;
	return nl - s->buf;
}

static int take_fd(struct session *s)
{
	int fd;

	if (!s->nr_fds)
		return -1;
	fd = s->fds[0];
	memmove(s->fds, s->fds + 1, --s->nr_fds * sizeof(int));
	return fd;
}

static void add_stats(struct tf_ring_stats *to, const struct tf_ring_stats *a)
{
	to->records += a->records;
	to->lost += a->lost;
	to->malformed += a->malformed;
}

static void do_ring(struct session *s, char *args)
{
	int tid, tgid, at = -1, fd = take_fd(s), slot, ret;
	struct tf_ring_channel *ch = NULL;

	if (fd < 0) {
		fail(s, EINVAL, "RING without a descriptor");
		return;
	}
	if (sscanf(args, "%d %d %n", &tid, &tgid, &at) != 2 || at < 0) {
		close(fd);
		fail(s, EINVAL, "bad RING request");
		return;
	}
	for (slot = 0; slot < MAX_RINGS && s->rings[slot]; slot++)
		;
	if (slot == MAX_RINGS) {
		close(fd);
		fail(s, EMFILE, "too many rings in one session");
		return;
	}
	ret = tf_ring_channel_attach(s->t, fd, tid, tgid, args + at, &ch);
	close(fd);		/* the mapping stays */
	if (ret < 0) {
		fail(s, -ret, "not a ring");
		return;
	}
	s->rings[slot] = ch;
	reply(s, "OK %d %d", slot, tf_ring_channel_tsc(ch) ? 1 : 0);
}

static void detach(struct session *s, int slot)
{
	struct tf_ring_stats st;

	tf_ring_channel_detach(s->rings[slot], &st);
	s->rings[slot] = NULL;
	add_stats(&s->closed, &st);
}

static void do_close(struct session *s, char *args)
{
	int slot = atoi(args);

	if (slot < 0 || slot >= MAX_RINGS || !s->rings[slot]) {
		fail(s, EINVAL, "no such ring");
		return;
	}
	detach(s, slot);
	reply(s, "OK");
}

/* The synthetic event's name: the definition's first word. */
static char *first_word(const char *def)
{
	size_t n;

	def += strspn(def, " \t");
	n = strcspn(def, " \t;");
	return strndup(def, n);
}

static void do_synth(struct session *s, char *def)
{
	struct tf_synth_event *se;
	struct owned *o;
	char *name = first_word(def);
	long ret;

	if (!name || !*name || *name == '!' || *name == '#') {
		free(name);
		fail(s, EINVAL, "not a definition");
		return;
	}
	tf_sources_sync(s->t->sources);
	pthread_mutex_lock(&s->t->lock);
	ret = tf_synth_events_write(s->t, def, strlen(def));
	se = ret >= 0 ? tf_synth_find(s->t, name) : NULL;
	o = se ? realloc(s->owned, (s->nr_owned + 1) * sizeof(*o)) : NULL;
	if (o) {
		s->owned = o;
		o[s->nr_owned].name = name;
		o[s->nr_owned].seq = se->event->seq;
		s->nr_owned++;
		name = NULL;
	}
	pthread_mutex_unlock(&s->t->lock);
	free(name);
	if (ret < 0)
		fail(s, (int)-ret, "synthetic_events refused it");
	else
		reply(s, "OK");
}

/* Deletes @name; with @seq, only the event of that name it was. */
static long delete_synth(struct session *s, const char *name, uint64_t seq,
			 bool any)
{
	struct tf_synth_event *se;
	char cmd[MAX_LINE + 2];
	long ret;

	snprintf(cmd, sizeof(cmd), "!%s", name);
	tf_sources_sync(s->t->sources);
	pthread_mutex_lock(&s->t->lock);
	se = tf_synth_find(s->t, name);
	if (!se)
		ret = -ENOENT;
	else if (!any && se->event->seq != seq)
		ret = -ENOENT;	/* a later event of the same name */
	else
		ret = tf_synth_events_write(s->t, cmd, strlen(cmd));
	pthread_mutex_unlock(&s->t->lock);
	return ret;
}

static void do_delete(struct session *s, char *name)
{
	long ret;

	name += strspn(name, " \t");
	if (!*name || strpbrk(name, " \t;")) {
		fail(s, EINVAL, "bad DELETE request");
		return;
	}
	ret = delete_synth(s, name, 0, true);
	if (ret < 0)
		fail(s, (int)-ret, "cannot delete");
	else
		reply(s, "OK");
}

static void stats(struct session *s, struct tf_ring_stats *st)
{
	*st = s->closed;
	for (int i = 0; i < MAX_RINGS; i++)
		if (s->rings[i]) {
			struct tf_ring_stats one;

			tf_ring_channel_stats(s->rings[i], &one);
			add_stats(st, &one);
		}
}

static void end(struct session *s)
{
	for (int i = 0; i < MAX_RINGS; i++)
		if (s->rings[i])
			detach(s, i);
	/* newest first: a later event may refer to an earlier one */
	while (s->nr_owned) {
		struct owned *o = &s->owned[--s->nr_owned];

		delete_synth(s, o->name, o->seq, false);
		free(o->name);
	}
	free(s->owned);
	while (s->nr_fds)
		close(take_fd(s));
}

void tf_session_serve(struct tf_tracing *t, int fd)
{
	struct session *s = calloc(1, sizeof(*s));
	size_t used;
	long len;

	if (!s)
		return;
	s->t = t;
	s->fd = fd;
	if (reply(s, "OK 1") < 0)
		goto out;
	while ((len = next_line(s, &used)) >= 0) {
		char *line = s->buf;

		if (strncmp(line, "RING ", 5) == 0) {
			do_ring(s, line + 5);
		} else if (strncmp(line, "CLOSE ", 6) == 0) {
			do_close(s, line + 6);
		} else if (strncmp(line, "SYNTH ", 6) == 0) {
			do_synth(s, line + 6);
		} else if (strncmp(line, "DELETE ", 7) == 0) {
			do_delete(s, line + 7);
		} else if (strcmp(line, "SYNC") == 0) {
			tf_sources_sync(s->t->sources);
			reply(s, "OK");
		} else if (strcmp(line, "STATS") == 0) {
			struct tf_ring_stats st;

			stats(s, &st);
			reply(s, "STATS %llu %llu %llu",
			      (unsigned long long)st.records,
			      (unsigned long long)st.lost,
			      (unsigned long long)st.malformed);
		} else {
			fail(s, EINVAL, "unknown request");
		}
		memmove(s->buf, s->buf + used, s->have - used);
		s->have -= used;
	}
out:
	end(s);
	free(s);
}
