/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - trace.dat replay (libtracecmd): the `replay:FILE` source and
 * replays started later by the injection client.
 */
#ifndef TF_SOURCE_REPLAY_H
#define TF_SOURCE_REPLAY_H

#include "trace/trace_array.h"

struct tf_replay_opts {
	double speed;		/* 0: as fast as possible; 1: real time */
	unsigned loops;		/* 0 or 1: once */
};

/*
 * Replays every record of @path into @t's dispatch, in timestamp order
 * across CPUs, and returns once all have been dispatched (the injection
 * client's `--replay`).  Events the mounted tree lacks are added to it
 * first (tf_tracing_add_event; *added counts them), from the file's
 * format texts; records that still cannot be replayed (no trace-cmd to
 * read those texts, a format libtraceevent refuses) are counted in
 * *skipped.  Any of the counters may be NULL.  The caller must not hold
 * t->lock.
 */
int tf_replay_run(struct tf_tracing *t, const char *path,
		  const struct tf_replay_opts *opts, unsigned long *dispatched,
		  unsigned long *skipped, unsigned *added);

#endif
