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

#include <stdbool.h>

#include "events/trace_array.h"

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
	struct tf_tracing *tracing;	/* set before start() */
	void *priv;
	struct tf_source *next;
};

/* The source types (each defined in its own file, listed in source.c). */
extern const struct tf_source_type tf_source_kernel;
extern const struct tf_source_type tf_source_replay;
extern const struct tf_source_type tf_source_inject;

/* Creates a source from a `--source` spec; -EINVAL for an unknown one. */
int tf_sources_add(const char *spec, struct tf_registry *reg);
bool tf_sources_empty(void);
/* Starts every source against @t; the first error is returned. */
int tf_sources_start(struct tf_tracing *t);
void tf_sources_drain(void);
/* Orders the caller's file operation after every event before it. */
void tf_sources_sync(void);
void tf_sources_stop(void);
/* A line saying which sources run, for the log and --help. */
const char *tf_sources_describe(void);

#endif
