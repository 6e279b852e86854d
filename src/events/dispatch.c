/*
 * dispatch.c - the event path (see dispatch.h).  Lock-free on the
 * control side: flags are atomics and everything replaceable is read
 * under an RCU read-side section.
 */
#include "util/rcu.h"
#include <urcu/rculist.h>

#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "events/dispatch.h"
#include "filter/filter.h"

static int record_pid(const struct tf_record *rec)
{
	int32_t pid;

	if (rec->size < 8)
		return -1;
	__builtin_memcpy(&pid, rec->data + 4, 4);
	return pid;
}

void tf_dispatch_to(struct tf_trace_array *tr, const struct tf_record *rec,
		    bool force)
{
	struct tf_event_file *file = &tr->files[rec->event->index];
	unsigned flags = atomic_load_explicit(&file->flags,
					      memory_order_acquire);

	if (!force && !(flags & TF_FILE_ENABLED))
		return;
	if (!force && (flags & TF_FILE_SOFT_DISABLED))
		return;
	if (!tf_pid_allowed(tr, record_pid(rec)))
		return;
	if (!tf_filter_match(rcu_dereference(file->filter), rec))
		return;
	if (!atomic_load_explicit(&tr->tracing_on, memory_order_relaxed))
		return;
	if (rec->comm)
		tf_saved_cmdlines_record(record_pid(rec), rec->comm);
	tf_ring_buffer_write(tr->buffer, rec->cpu, rec->ts, rec->data,
			     rec->size);
}

void tf_dispatch(struct tf_tracing *t, const struct tf_record *rec)
{
	struct tf_trace_array *tr;

	tf_rcu_read_lock();
	cds_list_for_each_entry_rcu(tr, &t->instances, list)
		tf_dispatch_to(tr, rec, false);
	tf_rcu_read_unlock();
}
