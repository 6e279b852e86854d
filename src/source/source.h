/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - event sources: where records come from.
 *
 * Each kind of source (live kernel, trace.dat replay, injection) is a
 * struct tf_source_type; `--source SPEC` (kernel, replay:FILE,
 * inject:FILE, none) creates one struct tf_source of the type whose name
 * prefixes SPEC.  A started source feeds records into tf_dispatch() from
 * threads of its own; readers of trace and hist call tf_sources_drain()
 * first, so that everything that happened before the read is counted
 * (read-your-events).  Every other file operation whose outcome events
 * can change (a control write, a read of tracing_on, enable, snapshot,
 * ...) calls tf_sources_sync() first: as in the kernel, where an event is
 * fully processed before the system call that caused it returns, it is
 * ordered after every event that happened before it began.
 */
#ifndef TF_SOURCE_SOURCE_H
#define TF_SOURCE_SOURCE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "trace/trace_array.h"

struct tf_source;

struct tf_source_type {
	const char *name;	/* "kernel", "replay", "inject" */
	/*
	 * Prepares a source for @arg (what follows "name:" in the spec, or
	 * NULL).  Runs before the registry is final, so a source may add
	 * the schemas it brings (a trace.dat's events) with @reg.
	 */
	int (*create)(struct tf_source *src, const char *arg,
		      struct tf_registry *reg);
	/* Starts feeding tf_dispatch(src->tracing, ...); runs after mount. */
	int (*start)(struct tf_source *src);
	/* Returns once every event that happened before the call is in. */
	void (*drain)(struct tf_source *src);
	/*
	 * The same for a source whose events happen in real time (the live
	 * kernel, a pipe, a replay at speed > 0), for any file operation;
	 * unlike drain it neither starts a replay nor waits for one going
	 * as fast as it can (its events have no time of their own to be
	 * ordered by).  NULL: the source never lags.  Must be cheap when
	 * nothing is pending: every control operation pays it.
	 */
	void (*sync)(struct tf_source *src);
	void (*stop)(struct tf_source *src);
	void (*destroy)(struct tf_source *src);
};

struct tf_source {
	const struct tf_source_type *type;
	struct tf_sources *owner;	/* the list it is in */
	struct tf_tracing *tracing;	/* set before start() */
	void *priv;
	struct tf_source *next;
};

/*
 * The sources of one tree (tf_tracing.sources once started): made
 * before the registry is final (sources add schemas), started against
 * the tree, stopped and freed after it unmounts.  Also the state the
 * source types share: the host's tracefs root the live source reaches
 * the host through, the events the host lost per CPU, and the
 * producers' ring channels (ring_channel.h).
 */
struct tf_ring_channel;
struct tf_sources {
	struct tf_source *list;
	char description[512];
	int host_fd;			/* -1: none */
	/* per host CPU (modulo its size), the live source's losses */
	_Atomic(unsigned long long) lost_by_cpu[4096];
	pthread_mutex_t ring_lock;
	struct tf_ring_channel *rings;
	int nr_rings;			/* read without the lock */
	uint64_t gone[3];		/* records, lost, malformed of rings
					 * detached (struct tf_ring_stats) */
};

/* The source types (each defined in its own file, listed in source.c). */
extern const struct tf_source_type tf_source_kernel;
extern const struct tf_source_type tf_source_replay;
extern const struct tf_source_type tf_source_inject;

/* An empty list (no host tracefs); NULL: no memory. */
struct tf_sources *tf_sources_new(void);
/*
 * The host's tracefs root (a directory fd opened before tracefuse
 * mounts, see tf_host_tracefs_open(), kept by the caller); the live
 * source reaches the host only through it.  Before tf_sources_add().
 */
void tf_sources_set_host_fd(struct tf_sources *s, int fd);
/* Creates a source from a `--source` spec; -EINVAL for an unknown one. */
int tf_sources_add(struct tf_sources *s, const char *spec,
		   struct tf_registry *reg);
bool tf_sources_empty(const struct tf_sources *s);
/* Starts every source against @t (and makes @s t->sources); the first
 * error is returned. */
int tf_sources_start(struct tf_sources *s, struct tf_tracing *t);
/* Read-your-events and ordering (see above); @s may be NULL (none). */
void tf_sources_drain(struct tf_sources *s);
/* Orders the caller's file operation after every event before it. */
void tf_sources_sync(struct tf_sources *s);
/* Stops and frees every source (NULL: nothing). */
void tf_sources_stop(struct tf_sources *s);
/* tf_sources_stop(), then frees @s; its ring channels must be gone. */
void tf_sources_free(struct tf_sources *s);
/* A line saying which sources run, for the log and --help. */
const char *tf_sources_describe(const struct tf_sources *s);
/*
 * Events the host's buffers lost (overrun or dropped) on the host CPUs
 * that map to @cpu of @nr_cpus presented CPUs; 0 without a live source.
 */
unsigned long long tf_sources_lost(const struct tf_sources *s, int cpu,
				   int nr_cpus);

#endif
