/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dispatch.h - the one path every event takes: from a source's record to
 * each trace array's triggers, filter, pid filter and trace buffer.
 */
#ifndef TF_DISPATCH_DISPATCH_H
#define TF_DISPATCH_DISPATCH_H

#include "trace/trace_array.h"

/*
 * The one path of every record, whatever its source: the entry point
 * tf_dispatch_opts() owns the whole sequence (event-fork's pid lists,
 * then per trace array: pid filter, slot reservation and snapshot swap,
 * triggers, event filter, buffer write, post-triggers), and the others
 * below only take the read lock or batch around it.
 *
 * An event's record (tf_record.written false) is offered to every trace
 * array, or to @o->tr only.  A written record (tf_record.written: the
 * ftrace system's, from trace_marker, an injected or a produced
 * ftrace:print) has no enable file: it goes to one trace array (@o->tr,
 * else the top level), where it is recorded whenever tracing is on,
 * after its triggers saw it, as the kernel's tracing_mark_write() does.
 */
struct tf_dispatch_opts {
	struct tf_trace_array *tr;	/* the one trace array, or NULL */
	/* trace_marker_raw: straight into the buffer, no triggers */
	bool no_triggers;
	/* changes the record between the triggers and the write
	 * (trace_marker adds the newline there); may be NULL */
	void (*edit)(struct tf_record *rec, void *arg);
	void *arg;
};

/*
 * The entry point, inside the caller's tf_rcu_read_lock() section: a
 * source that has a batch of records at hand (a page, a chunk of a file)
 * takes the read lock once for up to TF_DISPATCH_BATCH of them.  The
 * section must not block (no waiting, no I/O): writers wait for it to
 * end.  @o may be NULL.  Stamps a written record with its trace array's
 * clock; false when that found tracing off and nothing happened (an
 * event's record: true).
 */
bool tf_dispatch_opts(struct tf_tracing *t, const struct tf_record *rec,
		      const struct tf_dispatch_opts *o);
#define TF_DISPATCH_BATCH 64

/*
 * A batch's read-side section for a source that dispatches its records
 * one at a time (tf_dispatch_locked()): tf_rcu_read_lock() and, until
 * the end, histogram updates that may wait a few records while their
 * buckets are fetched (tf_trigger_defer(), trigger.h); the end applies
 * them and drops the lock.
 */
void tf_dispatch_batch_begin(void);
void tf_dispatch_batch_end(void);

/* tf_dispatch_opts() without options (the same body, compiled apart). */
void tf_dispatch_locked(struct tf_tracing *t, const struct tf_record *rec);

/* The same, taking and dropping the read lock itself. */
void tf_dispatch(struct tf_tracing *t, const struct tf_record *rec);

/*
 * tf_dispatch_locked() for each of @recs[0..n) in order, looking ahead:
 * while a histogram's map is larger than the caches (a trigger with
 * ops->prefetch, see trigger.h), the buckets of the record
 * TF_DISPATCH_AHEAD places ahead are fetched while this one is
 * dispatched, so that the cache misses of consecutive events overlap
 * instead of queueing, and histogram updates the lookahead cannot reach
 * may wait a few records (tf_trigger_defer(), trigger.h), all applied
 * before it returns.  The records' data must stay valid until it
 * returns.  Same results as one tf_dispatch_locked() per record.
 */
void tf_dispatch_locked_n(struct tf_tracing *t, const struct tf_record *recs,
			  unsigned int n);
#define TF_DISPATCH_AHEAD 6

#endif
