// SPDX-License-Identifier: GPL-2.0
/*
 * dispatch.c - the event path (see dispatch.h).  Lock-free on the
 * control side: flags are atomics and everything replaceable is read
 * under an RCU read-side section.
 */
#include <string.h>

#include "util/rcu.h"
#include <urcu/rculist.h>

#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "buffer/saved_tgids.h"
#include "buffer/trace_clock.h"
#include "dispatch/dispatch.h"
#include "trigger/trigger.h"
#include "filter/filter.h"

static int record_pid(const struct tf_record *rec)
{
	int32_t pid;

	if (rec->size < 8)
		return -1;
	__builtin_memcpy(&pid, rec->data + 4, 4);
	return pid;
}

/*
 * The kernel's tracing_record_taskinfo(): saves the comm (and, while
 * tgids are recorded, the tgid) that the trace output prints for the
 * record's pid.
 */
static void tf_record_taskinfo(struct tf_tracing *t,
			       const struct tf_record *rec)
{
	if (rec->comm)
		tf_saved_cmdlines_record(&t->cmdlines, record_pid(rec),
					 rec->comm);
	if (rec->tgid && atomic_load_explicit(&t->tgids_recorded,
					      memory_order_relaxed))
		tf_saved_tgids_record(&t->tgids, record_pid(rec), rec->tgid);
}

/*
 * @rec as @tr's buffer stamps it (buffer/trace_clock.h): the same record,
 * or, under a clock that is not the sources' (counter, uptime, x86-tsc),
 * a copy in @copy with the clock's current value.
 */
static const struct tf_record *tf_record_stamp(const struct tf_trace_array *tr,
					       const struct tf_record *rec,
					       struct tf_record *copy)
{
	if (atomic_load_explicit(&tr->clock_in_ns, memory_order_relaxed))
		return rec;
	*copy = *rec;
	copy->ts = tf_tr_clock_now(tr, tr->clock_id);
	return copy;
}

/*
 * The kernel reserves a record's slot before the record's conditional
 * triggers run, so what those triggers generate (synthetic events, and
 * what their own triggers generate) lands after it in that trace
 * array's buffer.  Here the record is written after its triggers (their
 * outcome decides whether it is kept): while a trace array has a record
 * "reserved" on this thread, writes to it wait in this queue and follow
 * the record when the outermost reservation ends.  Fixed size, no
 * allocation; past it, writes go straight to the buffer.
 */
#define NEST_OPEN_MAX	8
#define NEST_WRITES_MAX	16
#define NEST_BYTES	(16u << 10)

struct nest_write {
	struct tf_trace_array *tr;
	struct tf_ring_buffer *rb;
	int cpu;
	uint64_t ts;
	unsigned size, off;
};

/*
 * Per thread, not per tree: it lives only while one record is being
 * dispatched on this thread (empty between records), like the kernel's
 * per-CPU nesting state; the trace arrays it names are the tree's that
 * the record is dispatched into.
 */
static __thread struct {
	unsigned n_open, n_writes, used;
	struct tf_trace_array *open[NEST_OPEN_MAX];
	struct nest_write w[NEST_WRITES_MAX];
	uint8_t bytes[NEST_BYTES];
} nest;

static bool reserved_here(const struct tf_trace_array *tr)
{
	for (unsigned i = 0; i < nest.n_open; i++)
		if (nest.open[i] == tr)
			return true;
	return false;
}

/*
 * Opens a reservation on @tr.  When an outer reservation of @tr is open
 * already, this record's own write will wait too: its place in the queue
 * is taken now, before what its triggers write (-1 otherwise).
 */
static int tf_reserve_begin(struct tf_trace_array *tr)
{
	int place = -1;

	if (reserved_here(tr) && nest.n_writes < NEST_WRITES_MAX) {
		place = (int)nest.n_writes++;
		nest.w[place] = (struct nest_write) { .tr = tr };
	}
	if (nest.n_open < NEST_OPEN_MAX)
		nest.open[nest.n_open] = tr;
	nest.n_open++;
	return place;
}

static void tf_reserve_end(struct tf_trace_array *tr)
{
	unsigned kept = 0;

	if (nest.n_open && --nest.n_open >= NEST_OPEN_MAX)
		return;
	if (reserved_here(tr) || !nest.n_writes)
		return;
	/* the writes to @tr that waited, in their order; others stay */
	for (unsigned i = 0; i < nest.n_writes; i++) {
		struct nest_write *w = &nest.w[i];

		if (w->tr != tr)
			nest.w[kept++] = *w;
		else if (w->rb)		/* not a discarded record's place */
			tf_ring_buffer_write(w->rb, w->cpu, w->ts,
					     nest.bytes + w->off, w->size);
	}
	nest.n_writes = kept;
	if (!kept)
		nest.used = 0;
}

/* Queues a write to @tr while a reservation of it is open (at @place,
 * taken by tf_reserve_begin, or at the end); false: write it now. */
static bool nest_defer(struct tf_trace_array *tr, struct tf_ring_buffer *rb,
		       const struct tf_record *rec, int place)
{
	struct nest_write *w;

	if (!nest.n_open || !reserved_here(tr) ||
	    rec->size > NEST_BYTES - nest.used)
		return false;
	if (place >= 0) {
		w = &nest.w[place];
	} else {
		if (nest.n_writes == NEST_WRITES_MAX)
			return false;
		w = &nest.w[nest.n_writes++];
	}
	*w = (struct nest_write) { tr, rb, rec->cpu, rec->ts, rec->size,
				   nest.used };
	memcpy(nest.bytes + nest.used, rec->data, rec->size);
	nest.used += (rec->size + 7) & ~7u;
	return true;
}

/*
 * Writes @rec into @rb (NULL: tracing was off at "reserve" time); @rec
 * is stamped already (tf_record_stamp) or is now.
 */
static void record_at(struct tf_trace_array *tr, struct tf_ring_buffer *rb,
		      const struct tf_record *rec, bool stamped, int place)
{
	struct tf_record copy;

	if (!rb)
		return;
	if (!stamped)
		rec = tf_record_stamp(tr, rec, &copy);
	tf_record_taskinfo(tr->tracing, rec);
	if (nest_defer(tr, rb, rec, place))
		return;
	tf_ring_buffer_write(rb, rec->cpu, rec->ts, rec->data, rec->size);
}

static void record(struct tf_trace_array *tr, struct tf_ring_buffer *rb,
		   const struct tf_record *rec, bool stamped)
{
	record_at(tr, rb, rec, stamped, -1);
}

static struct tf_ring_buffer *reserve(struct tf_trace_array *tr)
{
	if (!atomic_load_explicit(&tr->tracing_on, memory_order_relaxed))
		return NULL;
	return tr->buffer;
}

/*
 * From the reserved slot on, for both kinds of records: @rec (stamped)
 * is seen by the triggers, bracketed by a reservation when @nests (what
 * they generate on this thread lands after it), then written into the
 * buffer the slot is in now (a snapshot trigger may have swapped it),
 * then the post-triggers fire.  An event's record (@w NULL) is kept
 * only if it is still recorded (the triggers may have changed the
 * event's flags) and passes the event filter; a written record (@w, the
 * ftrace system's) always is, after its writer's edit, and goes
 * straight into the slot, ahead of what its triggers generated.
 */
/* always inlined: each caller's copy drops the other kind's branch, so
 * the event path costs what a sequence of its own would */
static inline __attribute__((always_inline)) void
triggers_and_commit(struct tf_trace_array *tr,
				struct tf_event_file *file,
				const struct tf_record *rec,
				struct tf_ring_buffer *rb, bool nests,
				const struct tf_dispatch_opts *w,
				struct tf_record *wrec)
{
	unsigned swaps = tf_trigger_snapshot_swaps, tt, flags;
	int place = nests ? tf_reserve_begin(tr) : -1;

	tt = tf_triggers_call(file, rec);
	if (w) {
		if (w->edit)
			w->edit(wrec, w->arg);
		tf_record_taskinfo(tr->tracing, rec);
		tf_ring_buffer_write(tf_trigger_reserved_buffer(tr, swaps),
				     rec->cpu, rec->ts, rec->data, rec->size);
	} else {
		flags = atomic_load_explicit(&file->flags,
					     memory_order_acquire);
		if (rb && !(flags & TF_FILE_SOFT_DISABLED) &&
		    (rec->prefiltered ||
		     tf_filter_match(rcu_dereference(file->filter), rec)))
			record_at(tr, tf_trigger_reserved_buffer(tr, swaps),
				  rec, true, place);
	}
	if (nests)
		tf_reserve_end(tr);
	if (tt)
		tf_triggers_post_call(file, tt, rec);
}

/*
 * An event's record in one trace array, in the kernel's order
 * (trace_events.h trace_trigger_soft_disabled(),
 * trace_event_buffer_lock_reserve(), __event_trigger_test_discard()):
 * - without TRIGGER_COND the triggers fire unconditionally first (with
 *   no record), before the soft-disabled and pid checks and before the
 *   slot is reserved (so a traceon trigger's own event is recorded);
 * - with TRIGGER_COND (a trigger has a filter, is a post-trigger or
 *   needs the record) the pid filter comes first, the slot is reserved
 *   (tracing_on decides now; with tracing off the triggers still run:
 *   the kernel's temp_buffer), then the triggers see the record, then
 *   the flags are read again (a trigger may have enabled this very
 *   event) and the record is discarded if soft-disabled or filtered out;
 *   a snapshot trigger in between moves the reserved slot into the
 *   snapshot buffer (tf_trigger_reserved_buffer);
 * - post-triggers (traceoff, stacktrace) fire after the record is kept.
 * The event filter only decides recording, never the triggers.
 * Callers hold tf_rcu_read_lock().
 */
static inline __attribute__((always_inline)) void
dispatch_to(struct tf_trace_array *tr, const struct tf_record *rec)
{
	struct tf_event_file *file = tf_tr_file(tr, rec->event->index);
	unsigned flags = atomic_load_explicit(&file->flags,
					      memory_order_acquire);
	struct tf_ring_buffer *rb;
	struct tf_record copy;

	if (!(flags & TF_FILE_ENABLED))
		return;
	if (!(flags & TF_FILE_TRIGGER_COND)) {
		if (flags & TF_FILE_TRIGGER_MODE)
			tf_triggers_call(file, NULL);
		if (flags & TF_FILE_SOFT_DISABLED)
			return;
		if (!tf_pid_allowed_rec(tr, rec))
			return;
		if (!rec->prefiltered &&
		    !tf_filter_match(rcu_dereference(file->filter), rec))
			return;
		record(tr, reserve(tr), rec, false);
		return;
	}
	if (!tf_pid_allowed_rec(tr, rec))
		return;
	rb = reserve(tr);
	/* stamped as reserved: the triggers (common_timestamp) see it so */
	rec = tf_record_stamp(tr, rec, &copy);
	/* bracketed where triggers generate records, or a record of
	 * this trace array is reserved already (this one waits too);
	 * not a record that stays unrecorded whatever its triggers do
	 * (soft-disabled, and no enable_event trigger can change that):
	 * it takes no place in the buffer for others to follow */
	triggers_and_commit(tr, file, rec, rb,
			    rb && ((flags & TF_FILE_TRIGGER_GENERATES) ||
				   nest.n_open) &&
			    (!(flags & TF_FILE_SOFT_DISABLED) ||
			     atomic_load_explicit(&file->toggles,
						  memory_order_relaxed)),
			    NULL, NULL);
}

/*
 * A written record (the ftrace system's: trace_marker, an injected or
 * produced ftrace:print) in @tr, as the kernel's tracing_mark_write():
 * no enable file, no pid or event filter; with tracing on, stamped, its
 * triggers see it (not trace_marker_raw's), and it is written.
 */
static bool dispatch_written(struct tf_trace_array *tr, struct tf_record *rec,
			     const struct tf_dispatch_opts *o)
{
	struct tf_record copy;

	if (!atomic_load(&tr->tracing_on))
		return false;
	if (o->no_triggers) {
		record(tr, tr->buffer, rec, false);
		return true;
	}
	copy = *tf_record_stamp(tr, rec, &copy);
	*rec = copy;
	triggers_and_commit(tr, tf_tr_file(tr, rec->event->index), rec,
			    tr->buffer, true, o, rec);
	return true;
}

/*
 * event-fork: the kernel's probes on sched_process_free run before the
 * event's own (the task leaves the lists first), those on
 * sched_process_fork after it (the fork is filtered by the parent).
 */
static void follow(struct tf_tracing *t, const struct tf_record *rec,
		   const struct tf_event *which)
{
	struct tf_trace_array *tr;

	if (rec->event != which)
		return;
	cds_list_for_each_entry_rcu(tr, &t->instances, list)
		if (atomic_load_explicit(&tr->trace_flags,
					 memory_order_relaxed) &
		    TF_TRACE_EVENT_FORK)
			tf_pid_lists_follow(tr, rec);
}

/* Every trace array's share of @rec, while some trace array has
 * options/event-fork: the pid lists follow forks and exits around it. */
static __attribute__((noinline)) void
dispatch_following(struct tf_tracing *t, const struct tf_record *rec)
{
	struct tf_trace_array *tr;

	follow(t, rec, t->sched.free);
	cds_list_for_each_entry_rcu(tr, &t->instances, list)
		dispatch_to(tr, rec);
	follow(t, rec, t->sched.fork);
}

/*
 * The entry point's body; tf_dispatch_locked() is its copy without
 * options (the event path), tf_dispatch_opts() the one with.
 */
static inline __attribute__((always_inline)) bool
dispatch(struct tf_tracing *t, const struct tf_record *rec,
	 const struct tf_dispatch_opts *o)
{
	struct tf_trace_array *tr;

	if (__builtin_expect(rec->written, 0)) {
		static const struct tf_dispatch_opts none;
		struct tf_record w = *rec;

		if (!o)
			o = &none;
		return dispatch_written(o->tr ? o->tr : t->top, &w, o);
	}
	if (__builtin_expect(o && o->tr, 0)) {
		dispatch_to(o->tr, rec);
		return true;
	}
	if (__builtin_expect(atomic_load_explicit(&t->nr_event_fork,
						  memory_order_relaxed) > 0, 0)) {
		dispatch_following(t, rec);
		return true;
	}
	cds_list_for_each_entry_rcu(tr, &t->instances, list)
		dispatch_to(tr, rec);
	return true;
}

bool tf_dispatch_opts(struct tf_tracing *t, const struct tf_record *rec,
		      const struct tf_dispatch_opts *o)
{
	return dispatch(t, rec, o);
}

void tf_dispatch_locked(struct tf_tracing *t, const struct tf_record *rec)
{
	dispatch(t, rec, NULL);
}

/* @file is hooked and some trigger of it wants records prefetched. */
static inline bool prefetching(struct tf_event_file *file)
{
	const unsigned want = TF_FILE_ENABLED | TF_FILE_TRIGGER_PREFETCH;

	return (atomic_load_explicit(&file->flags, memory_order_relaxed) &
		want) == want;
}

/*
 * Who prefetches for the records of one event, found once per run of
 * records of that event in a batch: mostly a single trigger, called
 * directly.  Valid inside the batch's read-side section only.
 */
struct lookahead_event {
	const struct tf_event *event;
	struct tf_trigger *one;		/* the only prefetching trigger */
	bool walk;			/* several: walk the lists */
};

/* The last two events seen: two that alternate (a waking and its
 * switch) are each found once per batch, not once per record. */
struct lookahead {
	struct lookahead_event e[2];
	unsigned char older;		/* the one seen less recently */
};

static void lookahead_find(struct tf_tracing *t, struct lookahead_event *la,
			   const struct tf_event *event)
{
	struct tf_trace_array *tr;
	unsigned n = 0;

	la->event = event;
	la->one = NULL;
	cds_list_for_each_entry_rcu(tr, &t->instances, list) {
		struct tf_event_file *file = tf_tr_file(tr, event->index);
		struct tf_trigger *first = NULL;

		if (!prefetching(file))
			continue;
		n += tf_triggers_prefetchers(file, &first);
		if (!la->one)
			la->one = first;
	}
	la->walk = n > 1;
	if (n != 1)
		la->one = NULL;
}

/* Fetches what the triggers will touch for @rec (see dispatch.h). */
static inline void prefetch(struct tf_tracing *t, const struct tf_record *rec,
			    struct lookahead *cache)
{
	struct lookahead_event *la = &cache->e[0];
	struct tf_trace_array *tr;

	/* the two entries stay where they are: no copies per record */
	if (rec->event != la->event) {
		la = &cache->e[1];
		if (rec->event != la->event) {
			/* a third event: it takes the older one's place */
			la = &cache->e[cache->older];
			lookahead_find(t, la, rec->event);
		}
		cache->older = (unsigned char)(la == &cache->e[0]);
	} else {
		cache->older = 1;
	}
	if (la->one) {
		la->one->ops->prefetch(la->one, rec);
		return;
	}
	if (!la->walk)
		return;
	cds_list_for_each_entry_rcu(tr, &t->instances, list) {
		struct tf_event_file *file = tf_tr_file(tr, rec->event->index);

		if (prefetching(file))
			tf_triggers_prefetch(file, rec);
	}
}

void tf_dispatch_locked_n(struct tf_tracing *t, const struct tf_record *recs,
			  unsigned int n)
{
	struct lookahead la = { 0 };
	unsigned int i;

	tf_triggers_batch_begin();
	if (!atomic_load_explicit(&t->nr_prefetch, memory_order_relaxed)) {
		for (i = 0; i < n; i++)
			tf_dispatch_locked(t, &recs[i]);
		tf_triggers_batch_end();
		return;
	}
	for (i = 0; i < n && i < 2 * TF_DISPATCH_AHEAD; i++)
		__builtin_prefetch(recs[i].data);
	for (i = 0; i < n && i < TF_DISPATCH_AHEAD; i++)
		prefetch(t, &recs[i], &la);
	for (i = 0; i < n; i++) {
		/* the record's own line first, its buckets once it is here */
		if (i + 2 * TF_DISPATCH_AHEAD < n)
			__builtin_prefetch(recs[i + 2 * TF_DISPATCH_AHEAD].data);
		if (i + TF_DISPATCH_AHEAD < n)
			prefetch(t, &recs[i + TF_DISPATCH_AHEAD], &la);
		/* inlined: the frame is the batch's, not each record's */
		dispatch(t, &recs[i], NULL);
	}
	tf_triggers_batch_end();
}

void tf_dispatch_batch_begin(void)
{
	tf_rcu_read_lock();
	tf_triggers_batch_begin();
}

void tf_dispatch_batch_end(void)
{
	tf_triggers_batch_end();
	tf_rcu_read_unlock();
}

void tf_dispatch(struct tf_tracing *t, const struct tf_record *rec)
{
	tf_rcu_read_lock();
	tf_dispatch_locked(t, rec);
	tf_rcu_read_unlock();
}
