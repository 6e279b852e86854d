// SPDX-License-Identifier: GPL-2.0
/*
 * trace_marker.c - trace_marker writes as ftrace:print records
 * (see trace_marker.h).  As in the kernel, the text gets a trailing
 * newline when it has none, and a write longer than one record holds is
 * cut short (the writer sends the rest in another write).
 */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <traceevent/event-parse.h>

#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "buffer/saved_tgids.h"
#include "buffer/trace_clock.h"
#include "dispatch/dispatch.h"
#include "events/ksyms.h"
#include "source/trace_marker.h"
#include "trigger/trigger.h"
#include "util/rcu.h"

/* What one print record carries at most on a 4 KiB sub-buffer (6.12). */
#define MARKER_CHUNK 4054

void tf_trace_marker_init(struct tf_registry *reg)
{
	tf_ksyms_add_own(reg->ksyms, TF_MARKER_FUNC, TF_MARKER_IP);
}

/*
 * The caller print records carry, as the kernel's do: the address of
 * tracing_mark_write in the kernel whose symbols the tree has (the
 * host's /proc/kallsyms, or a replayed file's), so that tools reading
 * those symbols (trace-cmd record and report, libtracefs) name it as
 * the kernel's records are named.  Where no such symbol can be read
 * (kptr_restrict, no privileges), an address of tracefuse's own.
 * Decided at the first write: the symbols are read then, not at start.
 */
static uint64_t marker_ip(struct tf_registry *reg)
{
	uint64_t ip = atomic_load(&reg->marker_ip), start, size;
	const char *name, *module;

	if (ip)
		return ip;
	ip = tf_ksyms_lookup_name(reg->ksyms, TF_MARKER_FUNC);
	if (ip && tf_ksyms_lookup(reg->ksyms, ip, &name, &start, &size,
				  &module) && start == ip && size &&
	    tf_ksyms_add_own_range(reg->ksyms, TF_MARKER_FUNC, ip, size) == 0)
		atomic_store(&reg->marker_ip, ip);
	else
		atomic_store(&reg->marker_ip, TF_MARKER_IP);
	return atomic_load(&reg->marker_ip);
}

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The kernel saves a task's comm (and, with record-tgid, its tgid) at
 * context switches while some event is enabled; so the writer's comm is
 * known once any event has been, its tgid while tgids are recorded.
 */
static void writer_info(struct tf_tracing *t, int pid,
			char comm[TF_COMM_LEN], int *tgid)
{
	comm[0] = '\0';
	*tgid = 0;
	if (atomic_load(&t->cmdlines_recorded))
		tf_proc_comm(pid, comm);
	if (atomic_load(&t->tgids_recorded))
		*tgid = tf_proc_tgid(pid);
}

/*
 * tracing_mark_write(): "do not add \n before testing triggers, but add
 * \0"; the newline goes in after them.  The record's buffer has room.
 */
static void add_newline(struct tf_record *rec, void *arg)
{
	uint8_t *data = (uint8_t *)rec->data;
	unsigned size = rec->size - 1;	/* without its \0 */

	(void)arg;
	if (data[size - 1] != '\n')
		data[size++] = '\n';
	data[size++] = '\0';
	rec->size = size;
}

long tf_trace_marker_write(struct tf_trace_array *tr, int pid,
			   const char *buf, size_t len)
{
	struct tf_event *ev = tf_registry_find(tr->tracing->reg, "ftrace",
					       "print");
	const struct tf_field *ip_f, *buf_f;
	uint8_t data[16 + MARKER_CHUNK + 2 + 8];
	char comm[TF_COMM_LEN];
	/* a longer write is cut short: the writer's loop sends the rest */
	size_t n = len > MARKER_CHUNK ? MARKER_CHUNK : len;
	uint16_t type;
	uint64_t ip = marker_ip(tr->tracing->reg);
	int32_t p = pid;
	unsigned size;
	int tgid;
	struct tf_record rec;

	if (!ev || !(ip_f = tf_event_field(ev, "ip")) ||
	    !(buf_f = tf_event_field(ev, "buf")) || buf_f->offset > 16)
		return -EINVAL;
	if (!atomic_load(&tr->tracing_on))
		return -EBADF;
	if (len == 0)
		return 0;	/* an empty write records nothing */
	writer_info(tr->tracing, pid, comm, &tgid);

	type = (uint16_t)ev->id;
	memset(data, 0, 16);
	memcpy(data, &type, 2);
	memcpy(data + 4, &p, 4);
	memcpy(data + ip_f->offset, &ip, 8);
	memcpy(data + buf_f->offset, buf, n);
	size = buf_f->offset + (unsigned)n;
	/* tracing_mark_write(): "do not add \n before testing triggers,
	 * but add \0" */
	data[size] = '\0';
	rec = (struct tf_record) {
		.event = ev, .data = data, .size = size + 1,
		/* stamped with the buffer's clock as the slot is reserved */
		.ts = clock_ns(),
		.cpu = sched_getcpu(),
		.comm = comm[0] ? comm : NULL, .tgid = tgid,
		.written = true,
	};
	if (rec.cpu < 0)
		rec.cpu = 0;
	rec.cpu %= tf_ring_buffer_nr_cpus(tr->buffer);
	tf_rcu_read_lock();
	tf_dispatch_opts(tr->tracing, &rec, &(struct tf_dispatch_opts){
		.tr = tr, .edit = add_newline,
	});
	tf_rcu_read_unlock();
	return (long)n;
}

long tf_trace_marker_raw_write(struct tf_trace_array *tr, int pid,
			       const char *buf, size_t len)
{
	struct tf_event *ev = tf_registry_find(tr->tracing->reg, "ftrace",
					       "raw_data");
	const struct tf_field *id_f, *buf_f;
	uint8_t data[16 + MARKER_CHUNK];
	uint16_t type;
	int32_t p = pid;
	size_t n;
	struct tf_record rec;

	/* an int id and the bytes of one raw_data record */
	if (len < sizeof(uint32_t) || len - sizeof(uint32_t) > MARKER_CHUNK)
		return -EINVAL;
	if (!ev || !(id_f = tf_event_field(ev, "id")) ||
	    !(buf_f = tf_event_field(ev, "buf")) || buf_f->offset > 16)
		return -EINVAL;
	if (!atomic_load(&tr->tracing_on))
		return -EBADF;
	n = len - sizeof(uint32_t);
	type = (uint16_t)ev->id;
	memset(data, 0, 16);
	memcpy(data, &type, 2);
	memcpy(data + 4, &p, 4);
	memcpy(data + id_f->offset, buf, 4);
	memcpy(data + buf_f->offset, buf + 4, n);
	rec = (struct tf_record) {
		.event = ev, .data = data, .size = buf_f->offset + (unsigned)n,
		.ts = clock_ns(), .cpu = sched_getcpu(),
		.written = true,
	};
	if (rec.cpu < 0)
		rec.cpu = 0;
	rec.cpu %= tf_ring_buffer_nr_cpus(tr->buffer);
	tf_rcu_read_lock();
	tf_dispatch_opts(tr->tracing, &rec, &(struct tf_dispatch_opts){
		.tr = tr, .no_triggers = true,
	});
	tf_rcu_read_unlock();
	return (long)len;
}
