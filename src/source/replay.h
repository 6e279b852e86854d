/*
 * replay.h - trace.dat replay (libtracecmd): the `replay:FILE` source and
 * replays started later by the injection client.
 */
#ifndef TF_SOURCE_REPLAY_H
#define TF_SOURCE_REPLAY_H

#include "events/trace_array.h"

struct tf_replay_opts {
	double speed;		/* 0: as fast as possible; 1: real time */
	unsigned loops;		/* 0 or 1: once */
};

/*
 * Replays every record of @path into @t's dispatch, in timestamp order
 * across CPUs, and returns once all have been dispatched (the injection
 * client's `--replay`).  Events the registry lacks are skipped and
 * counted in *skipped (may be NULL).
 */
int tf_replay_run(struct tf_tracing *t, const char *path,
		  const struct tf_replay_opts *opts, unsigned long *dispatched,
		  unsigned long *skipped);

#endif
