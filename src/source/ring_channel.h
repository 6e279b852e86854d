/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_channel.h - the daemon's side of the producer rings (ring.h): one
 * channel per producer thread, handed over by libtracefuse as a memfd on
 * the daemon's socket (inject_server.c).
 *
 * Each channel has a thread of its own that drains the ring: it copies
 * the records out, checks each against its event's format (a known id,
 * the length the fields need, dynamic data inside the record, strings
 * ended) and dispatches the good ones like every other source's records;
 * a bad record is counted and dropped with a line in the daemon's log,
 * and nothing else is touched.  The producer's timestamps become the
 * daemon's time base (ring_clock.h); the comm and tgid of every record
 * are the producer thread's, told when the ring is attached.
 *
 * Readers of trace, hist and every control file order themselves after
 * the records written before they began: tf_ring_channels_sync() drains
 * every channel up to the head it sees (the sources' sync and drain).
 */
#ifndef TF_SOURCE_RING_CHANNEL_H
#define TF_SOURCE_RING_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace_array.h"

struct tf_sources;

struct tf_ring_channel;

struct tf_ring_stats {
	uint64_t records;	/* dispatched */
	uint64_t lost;		/* dropped by the producer (LOST records) */
	uint64_t malformed;	/* refused by the daemon */
};

/*
 * Maps the ring in @fd (a memfd of the producer's, formatted by it) for
 * thread @tid of process @tgid, named @comm, and starts draining it into
 * @t.  The daemon decides the time stamps (ctl->flags) before the
 * producer writes.  0 or -errno (-EINVAL: not a ring).
 */
int tf_ring_channel_attach(struct tf_tracing *t, int fd, int tid, int tgid,
			   const char *comm, struct tf_ring_channel **out);
/* Whether the producer is to stamp with the TSC (TF_RING_TS_TSC). */
bool tf_ring_channel_tsc(const struct tf_ring_channel *ch);
/* Drains what is left, stops the thread, unmaps, frees; its final
 * counts in @final when not NULL. */
void tf_ring_channel_detach(struct tf_ring_channel *ch,
			    struct tf_ring_stats *final);
void tf_ring_channel_stats(const struct tf_ring_channel *ch,
			   struct tf_ring_stats *st);
/* Returns once every record written to any channel of @srcs before it
 * is in. */
void tf_ring_channels_sync(struct tf_sources *srcs);
/* Every channel's counts added up (the log's summary at exit). */
void tf_ring_channels_total(struct tf_sources *srcs, struct tf_ring_stats *st);

#endif
