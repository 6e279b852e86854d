/* SPDX-License-Identifier: GPL-2.0 */
/*
 * daemon_socket.h - where a mounted tracefuse listens: the Unix socket
 * that tracefuse-inject and libtracefuse's producers connect to.
 *
 * The path is derived from the mount point's real path and the mounting
 * user, so that a client that knows only the mount point finds it: a
 * directory of the user's (/run/tracefuse for root, then
 * $XDG_RUNTIME_DIR/tracefuse, then /tmp/tracefuse-UID) holding
 * "<escaped mount path>.<hash>.sock".
 */
#ifndef TF_UTIL_DAEMON_SOCKET_H
#define TF_UTIL_DAEMON_SOCKET_H

#include <stddef.h>

/*
 * Candidate directory @which (0, 1, ...) for @uid: its length, -1 when
 * there is no such candidate.
 */
int tf_socket_dir(char *out, size_t size, unsigned uid, int which);
/* The socket's path in @dir for the mount point @realmnt; -1: too long. */
int tf_socket_name(char *out, size_t size, const char *dir,
		   const char *realmnt);
/*
 * Candidate @which of the socket paths for @realmnt mounted by @uid:
 * 0, -1 when there is no such candidate, -2 when it would be too long.
 */
int tf_socket_path(char *out, size_t size, const char *realmnt,
		   unsigned uid, int which);
/* A directory of ours, not a stranger's: 0700, owned by @uid (@make:
 * created if missing).  0 or -1 with errno. */
int tf_socket_own_dir(const char *dir, unsigned uid, int make);
/*
 * Connects to the tracefuse mounted at @mnt: every candidate path, for
 * the caller's user and for the mount point's owner.  The socket's
 * descriptor (close-on-exec), or -1 with errno set and, when @msg is
 * not NULL, a line saying what was tried in @msg.
 */
int tf_socket_connect(const char *mnt, char *msg, size_t msg_size);

#endif
