/*
 * dispatch.h - the one path every event takes: from a source's record to
 * each trace array's triggers, filter, pid filter and trace buffer.
 */
#ifndef TF_EVENTS_DISPATCH_H
#define TF_EVENTS_DISPATCH_H

#include "events/trace_array.h"

/* An event occurrence from a source: offered to every trace array. */
void tf_dispatch(struct tf_tracing *t, const struct tf_record *rec);

/*
 * The same inside the caller's tf_rcu_read_lock() section: a source that
 * has a batch of records at hand (a page, a chunk of a file) takes the
 * read lock once for up to TF_DISPATCH_BATCH of them.  The section must
 * not block (no waiting, no I/O): writers wait for it to end.
 */
void tf_dispatch_locked(struct tf_tracing *t, const struct tf_record *rec);
#define TF_DISPATCH_BATCH 64

/*
 * Offers @rec to one trace array.  @force records it whatever the event's
 * enable state (trace_marker's ftrace:print has no enable file).
 */
void tf_dispatch_to(struct tf_trace_array *tr, const struct tf_record *rec,
		    bool force);

#endif
