/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - the daemon's side of a libtracefuse connection.
 *
 * A program linked with libtracefuse holds one connection on the
 * daemon's socket (inject_server.c) for its struct tfuse.  Over it the
 * program hands over one ring per producer thread (ring_channel.h),
 * creates and deletes synthetic events, and asks for counts.  The
 * synthetic events a session created are the session's: when the
 * program goes (it disconnects, exits or dies), those that nothing uses
 * are deleted, as the kernel deletes a module's events when it is
 * unloaded; one in use stays, like any other, until a user removes it.
 *
 * Requests, one line each, answered by one line ("E <errno> <text>" for
 * a failure):
 *
 *     RING <tid> <tgid> <comm>   with the ring's memfd (SCM_RIGHTS):
 *                                "OK <ring number> <1: stamp with TSC>"
 *     CLOSE <ring number>        the thread is done: drained and detached
 *     SYNTH <definition>         a line of synthetic_events: "OK"
 *     DELETE <name>              synth_event_delete(): "OK"
 *     SYNC                       every ring drained: "OK"
 *     STATS                      "STATS <records> <lost> <malformed>"
 */
#ifndef TF_SOURCE_SESSION_H
#define TF_SOURCE_SESSION_H

#include "trace/trace_array.h"

/* Serves the connection @fd until the client goes; then cleans up. */
void tf_session_serve(struct tf_tracing *t, int fd);

#endif
