// SPDX-License-Identifier: GPL-2.0
/*
 * daemon_socket.c - the path of a mounted tracefuse's socket, and
 * connecting to it (see daemon_socket.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/daemon_socket.h"

static uint64_t fnv64(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

int tf_socket_own_dir(const char *dir, unsigned uid, int make)
{
	struct stat st;

	if (make && mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -1;
	if (lstat(dir, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != uid ||
	    (st.st_mode & 077)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

int tf_socket_dir(char *out, size_t size, unsigned uid, int which)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int i = 0;

	if (uid == 0 && i++ == which)
		return snprintf(out, size, "/run/tracefuse");
	if (xdg && *xdg == '/' && i++ == which)
		return snprintf(out, size, "%s/tracefuse", xdg);
	if (i++ == which)
		return snprintf(out, size, "/tmp/tracefuse-%u", uid);
	return -1;
}

/* The mount point's path escaped (its last 40 bytes), and its hash. */
int tf_socket_name(char *out, size_t size, const char *dir,
		   const char *realmnt)
{
	char esc[41];
	size_t n = strlen(realmnt), from = n > 40 ? n - 40 : 0, k = 0;
	int len;

	for (size_t i = from; i < n; i++) {
		char c = realmnt[i];

		esc[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '.' || c == '_' ?
			   c : '-';
	}
	esc[k] = '\0';
	len = snprintf(out, size, "%s/%s.%016llx.sock", dir, esc,
		       (unsigned long long)fnv64(realmnt));
	return len < 0 || (size_t)len >= size ? -1 : 0;
}

int tf_socket_path(char *out, size_t size, const char *realmnt,
		   unsigned uid, int which)
{
	char dir[PATH_MAX];
	int n = tf_socket_dir(dir, sizeof(dir), uid, which);

	if (n < 0)
		return -1;
	if ((size_t)n >= sizeof(dir))
		return -2;
	return tf_socket_name(out, size, dir, realmnt) < 0 ? -2 : 0;
}

static int try_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int tf_socket_connect(const char *mnt, char *msg, size_t msg_size)
{
	char real[PATH_MAX], path[PATH_MAX], first[PATH_MAX] = "";
	unsigned uids[2] = { (unsigned)geteuid(), (unsigned)geteuid() };
	struct stat st;
	int err = ENOENT;

	if (!realpath(mnt, real)) {
		err = errno;
		if (msg)
			snprintf(msg, msg_size, "%s: %s", mnt, strerror(err));
		errno = err;
		return -1;
	}
	if (stat(real, &st) == 0)
		uids[1] = (unsigned)st.st_uid;
	for (int u = 0; u < 2; u++) {
		if (u == 1 && uids[1] == uids[0])
			break;
		for (int which = 0;; which++) {
			int r = tf_socket_path(path, sizeof(path), real,
					       uids[u], which), fd;

			if (r == -1)
				break;
			if (r < 0)
				continue;
			if (!first[0])
				snprintf(first, sizeof(first), "%s", path);
			fd = try_connect(path);
			if (fd >= 0)
				return fd;
			if (errno != ENOENT)
				err = errno;
		}
	}
	if (msg)
		snprintf(msg, msg_size, "no tracefuse serves %s (%s: %s)",
			 real, first, strerror(err));
	errno = err;
	return -1;
}
