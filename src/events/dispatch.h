/* SPDX-License-Identifier: GPL-2.0 */
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
 * tf_dispatch_locked() for each of @recs[0..n) in order, looking ahead:
 * while a histogram's map is larger than the caches (a trigger with
 * ops->prefetch, see trigger.h), the buckets of the record
 * TF_DISPATCH_AHEAD places ahead are fetched while this one is
 * dispatched, so that the cache misses of consecutive events overlap
 * instead of queueing.  The records' data must stay valid until it
 * returns.  Same results as one tf_dispatch_locked() per record.
 */
void tf_dispatch_locked_n(struct tf_tracing *t, const struct tf_record *recs,
			  unsigned int n);
#define TF_DISPATCH_AHEAD 6

/*
 * Offers @rec to one trace array.  @force records it whatever the event's
 * enable state (trace_marker's ftrace:print has no enable file).
 */
void tf_dispatch_to(struct tf_trace_array *tr, const struct tf_record *rec,
		    bool force);

/*
 * The path of the ftrace system's records (print, raw_data, ...), which
 * have no enable file: whoever writes one (trace_marker, an injected or
 * produced ftrace:print) records it into @tr's buffer whenever tracing
 * is on, after its triggers have seen it, as the kernel's
 * tracing_mark_write() does.  @edit, when not NULL, changes the record
 * between the triggers and the write (trace_marker adds the newline
 * there).  Stamps @rec with @tr's clock; false when tracing is off and
 * nothing happened.  Caller holds the RCU read lock.
 */
bool tf_dispatch_written(struct tf_trace_array *tr, struct tf_record *rec,
			 void (*edit)(struct tf_record *rec, void *arg),
			 void *arg);

/*
 * A record's slot is reserved before its triggers run (the kernel's
 * order): between begin and end, what the triggers write to @tr on this
 * thread (the synthetic events they generate) waits and lands after the
 * record, which the caller writes before calling end.
 */
int tf_reserve_begin(struct tf_trace_array *tr);
void tf_reserve_end(struct tf_trace_array *tr);

/*
 * The kernel's tracing_record_taskinfo(): saves the comm (and, while
 * tgids are recorded, the tgid) that the trace output prints for the
 * record's pid.
 */
void tf_record_taskinfo(struct tf_tracing *t, const struct tf_record *rec);

/*
 * @rec as @tr's buffer stamps it (buffer/trace_clock.h): the same record,
 * or, under a clock that is not the sources' (counter, uptime, x86-tsc),
 * a copy in @copy with the clock's current value.
 */
const struct tf_record *tf_record_stamp(const struct tf_trace_array *tr,
					const struct tf_record *rec,
					struct tf_record *copy);

#endif
