// SPDX-License-Identifier: GPL-2.0
/*
 * tracefuse-inject - feeds text events (docs/inject.md) to a mounted
 * tracefuse through its Unix socket, or asks it to replay a trace.dat.
 * Returns once the daemon has dispatched everything: a read of `trace`
 * or `hist` right after sees the events.
 *
 *   tracefuse-inject [-q] MOUNTPOINT < events.txt
 *   tracefuse-inject --replay FILE [--speed X] [--loop N] MOUNTPOINT
 *
 * Exit status: 0 when every line was injected (every record replayed),
 * 1 when a line was refused (its message on stderr) or on any failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "source/inject.h"
#include "util/daemon_socket.h"

static const char usage_text[] =
"Usage: tracefuse-inject [-q] MOUNTPOINT < EVENTS\n"
"       tracefuse-inject --replay FILE [--speed X] [--loop N] MOUNTPOINT\n"
"\n"
"Injects the event lines read from standard input (format: see\n"
"docs/inject.md) into the tracefuse mounted at MOUNTPOINT, or has it\n"
"replay the trace.dat FILE, and returns once all are dispatched.\n"
"\n"
"  -r, --replay FILE  replay FILE (trace-cmd's trace.dat)\n"
"      --speed X      0: as fast as possible (default); 1: real time\n"
"      --loop N       replay N times\n"
"  -q, --quiet        no summary line\n"
"  -h, --help         this text\n";

static const char *prog = "tracefuse-inject";

static int connect_daemon(const char *mnt)
{
	char msg[PATH_MAX * 2 + 64];
	int fd = tf_socket_connect(mnt, msg, sizeof(msg));

	if (fd < 0)
		fprintf(stderr, "%s: %s\n", prog, msg);
	return fd;
}

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

struct replies {
	char buf[4096];
	size_t len;
	int done;
	unsigned long a, b, c;	/* DONE's numbers (c: a replay's added) */
	unsigned long errors;
};

/* Handles the daemon's complete reply lines in r->buf. */
static void replies_take(struct replies *r)
{
	char *start = r->buf, *nl;

	while ((nl = memchr(start, '\n', r->len - (size_t)(start - r->buf)))) {
		*nl = '\0';
		if (strncmp(start, "E ", 2) == 0) {
			fprintf(stderr, "%s: %s\n", prog, start + 2);
			r->errors++;
		} else if (sscanf(start, "DONE %lu %lu %lu", &r->a, &r->b,
				  &r->c) >= 2) {
			r->done = 1;	/* a daemon before 3 numbers: c = 0 */
		}
		start = nl + 1;
	}
	r->len -= (size_t)(start - r->buf);
	memmove(r->buf, start, r->len);
	if (r->len == sizeof(r->buf)) {	/* a line too long: drop it */
		r->len = 0;
	}
}

static int read_replies(int fd, struct replies *r)
{
	ssize_t n = recv(fd, r->buf + r->len, sizeof(r->buf) - r->len,
			 MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 1 : -1;
	if (n == 0)
		return 0;
	r->len += (size_t)n;
	replies_take(r);
	return 1;
}

/* Streams stdin to the daemon while reading its replies (no deadlock
 * when both sides have much to say). */
static int inject(int fd, struct replies *r)
{
	static char buf[1 << 16];
	size_t have = 0, off = 0;
	int eof = 0, shut = 0, ended = 1;	/* nothing sent is ended */

	if (send_all(fd, "INJECT\n", 7) < 0)
		return -1;
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = 0, .events = POLLIN },
		};
		int n;

		if (off < have)
			pfd[0].events |= POLLOUT;
		if (eof || off < have)
			pfd[1].fd = -1;
		if (eof && off == have && !shut && !ended) {
			/* the daemon drops a line left open (a client
			 * killed inside it): end the last one */
			buf[0] = '\n';
			have = 1;
			off = 0;
			ended = 1;
			continue;
		}
		if (eof && off == have && !shut) {
			shutdown(fd, SHUT_WR);
			shut = 1;
		}
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read_replies(fd, r);
			if (n < 0)
				return -1;
			if (n == 0)
				return 0;
		}
		if (pfd[1].revents) {
			ssize_t k = read(0, buf, sizeof(buf));

			if (k < 0 && errno != EINTR) {
				fprintf(stderr, "%s: standard input: %s\n",
					prog, strerror(errno));
				return -1;
			}
			if (k == 0)
				eof = 1;
			if (k > 0) {
				have = (size_t)k;
				off = 0;
				ended = buf[k - 1] == '\n';
			}
		}
		if ((pfd[0].revents & POLLOUT) && off < have) {
			ssize_t k = send(fd, buf + off, have - off,
					 MSG_NOSIGNAL | MSG_DONTWAIT);

			if (k < 0 && errno != EAGAIN && errno != EINTR)
				return -1;
			if (k > 0)
				off += (size_t)k;
		}
	}
}

static int replay(int fd, const char *file, double speed, unsigned loops,
		  struct replies *r)
{
	char real[PATH_MAX], req[PATH_MAX + 64];
	int n;

	if (!realpath(file, real)) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		return -1;
	}
	n = snprintf(req, sizeof(req), "REPLAY %g %u %s\n", speed, loops, real);
	if (send_all(fd, req, (size_t)n) < 0)
		return -1;
	shutdown(fd, SHUT_WR);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return -1;
		n = read_replies(fd, r);
		if (n <= 0)
			return n;
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "replay", required_argument, NULL, 'r' },
		{ "speed", required_argument, NULL, 's' },
		{ "loop", required_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct replies r = { .len = 0 };
	const char *file = NULL;
	double speed = 0;
	unsigned loops = 1;
	int c, quiet = 0, fd, ret;

	while ((c = getopt_long(argc, argv, "r:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': file = optarg; break;
		case 's': speed = atof(optarg); break;
		case 'l': loops = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'q': quiet = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage_text, stderr);
		return 2;
	}
	fd = connect_daemon(argv[optind]);
	if (fd < 0)
		return 1;
	ret = file ? replay(fd, file, speed, loops, &r) : inject(fd, &r);
	close(fd);
	if (ret < 0 || !r.done) {
		fprintf(stderr, "%s: lost the connection to tracefuse\n", prog);
		return 1;
	}
	if (!quiet) {
		if (file && r.c)
			fprintf(stderr, "%s: %lu records replayed, %lu "
				"skipped, %lu events added to the tree\n",
				prog, r.a, r.b, r.c);
		else if (file)
			fprintf(stderr, "%s: %lu records replayed, %lu "
				"skipped\n", prog, r.a, r.b);
		else if (r.b)
			fprintf(stderr, "%s: %lu records injected, %lu lines "
				"refused\n", prog, r.a, r.b);
	}
	return r.errors || (!file && r.b) ? 1 : 0;
}
