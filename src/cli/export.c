// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - `tracefuse export --perfetto OUT MOUNT`: the trace buffer
 * (or the snapshot) of a tracefs tree written as a Perfetto trace.
 *
 * The events are read as trace-cmd reads them: per CPU from
 * per_cpu/cpuN/trace_pipe_raw (snapshot_raw), page by page, decoded by
 * libtraceevent's kbuffer with the tree's own formats (libtracefs'
 * tracefs_local_events()), so fields and nanosecond timestamps are
 * exact.  Reading consumes them, as trace-cmd extract does.
 *
 * Each page becomes one FtraceEventBundle of its CPU: sched_switch, the
 * wakeups and print as Perfetto's typed messages (the UI draws
 * scheduling from them), every other event as a GenericFtraceEvent with
 * all its fields.  saved_cmdlines and saved_tgids become a ProcessTree.
 *
 * Events following Perfetto's kernel track-event convention (fields
 * track_event_type + slice_name, or counter_value; optional track_name
 * and scope_*) also become TrackEvents, on one track per {event} x
 * {track name} x {scope}, as Perfetto's own importer groups them:
 *   thread scope (default): a child of the thread's track (the pid that
 *     hit the event, in its tgid's process where saved_tgids knows it);
 *   scope_tgid: a child of that process's track;
 *   scope_cpu: a child of a track named "CPU N";
 *   any other scope_X: a child of a track named "scope_X V".
 * 'B' begins a slice named slice_name, 'E' ends the track's innermost,
 * 'I' is an instant; counter_value sets a counter track.  The generic
 * ftrace encoding carries no field descriptors, so Perfetto does not
 * derive the same slices a second time from the bundles.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <tracefs/tracefs.h>

#include "cli/arena.h"
#include "cli/cli.h"
#include "cli/perfetto_trace.pb-c.h"

#define SEQ_FTRACE	1u	/* trusted_packet_sequence_id of bundles */
#define SEQ_TRACKS	2u	/* ... of track descriptors and events */
#define SEQ_INCREMENTAL_STATE_CLEARED 1u
#define MAX_IDS		65536	/* common_type is 16 bits */

typedef Perfetto__Protos__TracePacket Packet;
typedef Perfetto__Protos__FtraceEvent FEvent;

/* How an event follows the track-event convention. */
enum conv_kind { CONV_NONE, CONV_SLICE, CONV_COUNTER };
enum scope_kind { SCOPE_TID, SCOPE_TGID, SCOPE_CPU, SCOPE_CUSTOM };

struct conv {
	enum conv_kind kind;
	enum scope_kind scope;
	struct tep_format_field *type, *name, *value, *track, *scope_f;
};

struct track {
	char *key;
	uint64_t uuid;
	struct track *next;
};

struct exporter {
	struct tep_handle *tep;
	FILE *out;
	const char *path;
	struct arena pkt;		/* one packet's objects */
	struct conv **conv;		/* by event id, made on first use */
	struct track *tracks[1024];
	uint64_t next_uuid;
	int *tgid;			/* by pid, from saved_tgids; 0 unknown */
	int max_pid;
	bool seq_started;
	/* what the summary reports */
	unsigned long long events, lost, lost_pages, slices, counters, bad;
	unsigned nr_tracks, cpus;
};

/* ---- output ---- */

static int write_packet(struct exporter *x, Packet *p)
{
	size_t len = protobuf_c_message_get_packed_size(&p->base);
	uint8_t hdr[11], *buf = malloc(len ? len : 1);
	size_t n = 0, v = len;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	protobuf_c_message_pack(&p->base, buf);
	hdr[n++] = 0x0a;	/* Trace.packet: field 1, length-delimited */
	do {
		hdr[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	if (fwrite(hdr, 1, n, x->out) != n ||
	    fwrite(buf, 1, len, x->out) != len)
		ret = -EIO;
	free(buf);
	return ret;
}

/* ---- reading fields ---- */

static unsigned long long field_num(struct exporter *x,
				    struct tep_format_field *f,
				    const void *data)
{
	unsigned long long v = tep_read_number(x->tep,
					       (const char *)data + f->offset,
					       f->size);

	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (v & (1ull << (f->size * 8 - 1))))
		v |= ~0ull << (f->size * 8);	/* sign-extended */
	return v;
}

/* Where a dynamic (__data_loc, __rel_loc) field's bytes are. */
static const char *dyn_field(struct exporter *x, struct tep_format_field *f,
			     const void *data, int size, unsigned *len)
{
	unsigned long long loc = tep_read_number(x->tep,
				 (const char *)data + f->offset, 4);
	unsigned off = loc & 0xffff;

	*len = (unsigned)(loc >> 16);
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off > (unsigned)size || *len > (unsigned)size - off)
		*len = off > (unsigned)size ? 0 : (unsigned)size - off;
	return (const char *)data + (off > (unsigned)size ? 0 : off);
}

static char *field_str(struct exporter *x, struct tep_format_field *f,
		       const void *data, int size)
{
	const char *p = (const char *)data + f->offset;
	unsigned len = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		p = dyn_field(x, f, data, size, &len);
	else if (f->size == 0)	/* char buf[] to the end (ftrace print) */
		len = size > f->offset ? (unsigned)(size - f->offset) : 0;
	else if (f->offset + f->size > size)
		len = 0;
	return arena_strndup(&x->pkt, p, strnlen(p, len));
}

static bool is_string(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
}

static bool is_integer(const struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
			     TEP_FIELD_IS_STRING)) &&
	       f->size >= 1 && f->size <= 8;
}

/* An array of numbers as "v,v,...". */
static char *field_array(struct exporter *x, struct tep_format_field *f,
			 const void *data, int size)
{
	const char *p = (const char *)data + f->offset;
	unsigned len = f->size, el = f->elementsize ? f->elementsize : 1;
	size_t cap, n = 0;
	char *s;

	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		p = dyn_field(x, f, data, size, &len);
	else if (f->offset + f->size > size)
		len = 0;
	if (el > 8)
		el = 1;
	cap = (size_t)(len / el) * 21 + 1;
	s = arena_alloc(&x->pkt, cap);
	for (unsigned i = 0; i + el <= len; i += el)
		n += (size_t)snprintf(s + n, cap - n, "%s%llu", i ? "," : "",
				      tep_read_number(x->tep, p + i, (int)el));
	return s;
}

static struct tep_format_field *field(struct tep_event *ev, const char *n)
{
	return tep_find_any_field(ev, n);
}

static int64_t num_of(struct exporter *x, struct tep_event *ev,
		      const char *name, const void *data)
{
	struct tep_format_field *f = field(ev, name);

	return f && is_integer(f) ? (int64_t)field_num(x, f, data) : 0;
}

static char *str_of(struct exporter *x, struct tep_event *ev,
		    const char *name, const void *data, int size)
{
	struct tep_format_field *f = field(ev, name);

	return f ? field_str(x, f, data, size) : NULL;
}

/* ---- ftrace events ---- */

/*
 * sched_wakeup, sched_waking and sched_wakeup_new have the same fields
 * and numbers, so protobuf-c generates the same struct for each: one is
 * filled and given the descriptor of the message it stands for.
 */
static void *wakeup_msg(struct exporter *x, struct tep_event *ev,
			const void *d, int size)
{
	Perfetto__Protos__SchedWakeupFtraceEvent *w =
		arena_alloc(&x->pkt, sizeof(*w));

	perfetto__protos__sched_wakeup_ftrace_event__init(w);
	w->comm = str_of(x, ev, "comm", d, size);
	w->has_pid = w->has_prio = w->has_target_cpu = 1;
	w->pid = (int32_t)num_of(x, ev, "pid", d);
	w->prio = (int32_t)num_of(x, ev, "prio", d);
	w->target_cpu = (int32_t)num_of(x, ev, "target_cpu", d);
	if (field(ev, "success")) {
		w->has_success = 1;
		w->success = (int32_t)num_of(x, ev, "success", d);
	}
	return w;
}

static Perfetto__Protos__GenericFtraceEvent *
generic_msg(struct exporter *x, struct tep_event *ev, const void *d, int size)
{
	Perfetto__Protos__GenericFtraceEvent *g = arena_alloc(&x->pkt,
							      sizeof(*g));
	struct tep_format_field *f;
	size_t n = 0;

	perfetto__protos__generic_ftrace_event__init(g);
	g->event_name = ev->name;
	for (f = ev->format.fields; f; f = f->next)
		n++;
	g->field = arena_alloc(&x->pkt, (n ? n : 1) * sizeof(*g->field));
	for (f = ev->format.fields; f; f = f->next) {
		Perfetto__Protos__GenericFtraceEvent__Field *v =
			arena_alloc(&x->pkt, sizeof(*v));

		perfetto__protos__generic_ftrace_event__field__init(v);
		v->name = f->name;
		if (is_string(f)) {
			v->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
			v->str_value = field_str(x, f, d, size);
		} else if ((f->flags & (TEP_FIELD_IS_ARRAY |
					TEP_FIELD_IS_DYNAMIC)) ||
			   !is_integer(f)) {
			v->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
			v->str_value = field_array(x, f, d, size);
		} else if (f->flags & TEP_FIELD_IS_SIGNED) {
			v->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE;
			v->int_value = (int64_t)field_num(x, f, d);
		} else {
			v->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE;
			v->uint_value = field_num(x, f, d);
		}
		g->field[g->n_field++] = v;
	}
	return g;
}

static FEvent *ftrace_event(struct exporter *x, struct tep_event *ev,
			    unsigned long long ts, const void *d, int size)
{
	FEvent *e = arena_alloc(&x->pkt, sizeof(*e));
	const char *name = ev->name;
	bool sched = strcmp(ev->system, "sched") == 0;

	perfetto__protos__ftrace_event__init(e);
	e->has_timestamp = e->has_pid = 1;
	e->timestamp = ts;
	e->pid = (uint32_t)num_of(x, ev, "common_pid", d);
	if (sched && strcmp(name, "sched_switch") == 0) {
		Perfetto__Protos__SchedSwitchFtraceEvent *s =
			arena_alloc(&x->pkt, sizeof(*s));

		perfetto__protos__sched_switch_ftrace_event__init(s);
		s->prev_comm = str_of(x, ev, "prev_comm", d, size);
		s->next_comm = str_of(x, ev, "next_comm", d, size);
		s->has_prev_pid = s->has_prev_prio = s->has_prev_state = 1;
		s->has_next_pid = s->has_next_prio = 1;
		s->prev_pid = (int32_t)num_of(x, ev, "prev_pid", d);
		s->prev_prio = (int32_t)num_of(x, ev, "prev_prio", d);
		s->prev_state = num_of(x, ev, "prev_state", d);
		s->next_pid = (int32_t)num_of(x, ev, "next_pid", d);
		s->next_prio = (int32_t)num_of(x, ev, "next_prio", d);
		e->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
		e->sched_switch = s;
	} else if (sched && strcmp(name, "sched_wakeup") == 0) {
		e->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP;
		e->sched_wakeup = wakeup_msg(x, ev, d, size);
		e->sched_wakeup->base.descriptor =
			&perfetto__protos__sched_wakeup_ftrace_event__descriptor;
	} else if (sched && strcmp(name, "sched_waking") == 0) {
		e->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING;
		e->sched_waking = wakeup_msg(x, ev, d, size);
		e->sched_waking->base.descriptor =
			&perfetto__protos__sched_waking_ftrace_event__descriptor;
	} else if (sched && strcmp(name, "sched_wakeup_new") == 0) {
		e->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW;
		e->sched_wakeup_new = wakeup_msg(x, ev, d, size);
		e->sched_wakeup_new->base.descriptor =
			&perfetto__protos__sched_wakeup_new_ftrace_event__descriptor;
	} else if (strcmp(ev->system, "ftrace") == 0 &&
		   strcmp(name, "print") == 0) {
		Perfetto__Protos__PrintFtraceEvent *p =
			arena_alloc(&x->pkt, sizeof(*p));

		perfetto__protos__print_ftrace_event__init(p);
		p->has_ip = 1;
		p->ip = (uint64_t)num_of(x, ev, "ip", d);
		p->buf = str_of(x, ev, "buf", d, size);
		e->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
		e->print = p;
	} else {
		e->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC;
		e->generic = generic_msg(x, ev, d, size);
	}
	return e;
}

/* ---- the track-event convention ---- */

static struct conv *conv_of(struct exporter *x, struct tep_event *ev)
{
	struct conv *c = x->conv[ev->id & (MAX_IDS - 1)];
	struct tep_format_field *f;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fputs("tracefuse: out of memory\n", stderr);
		exit(1);
	}
	for (f = ev->format.fields; f; f = f->next) {
		if (strcmp(f->name, "track_event_type") == 0 && is_integer(f))
			c->type = f;
		else if (strcmp(f->name, "slice_name") == 0 && is_string(f))
			c->name = f;
		else if (strcmp(f->name, "track_name") == 0 && is_string(f))
			c->track = f;
		else if (strcmp(f->name, "counter_value") == 0 &&
			 is_integer(f))
			c->value = f;
		else if (strncmp(f->name, "scope_", 6) == 0 && is_integer(f)) {
			c->scope_f = f;
			c->scope = strcmp(f->name, "scope_tgid") == 0 ?
				   SCOPE_TGID : strcmp(f->name, "scope_cpu") == 0 ?
				   SCOPE_CPU : SCOPE_CUSTOM;
		}
	}
	if (c->type && c->name)
		c->kind = CONV_SLICE;
	else if (c->value)
		c->kind = CONV_COUNTER;
	x->conv[ev->id & (MAX_IDS - 1)] = c;
	return c;
}

static unsigned long hash_str(const char *s)
{
	unsigned long h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Writes a TrackDescriptor packet; the caller filled in the rest. */
static int emit_track(struct exporter *x, Perfetto__Protos__TrackDescriptor *t)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	p.has_trusted_packet_sequence_id = 1;
	p.trusted_packet_sequence_id = SEQ_TRACKS;
	if (!x->seq_started) {
		p.has_sequence_flags = 1;
		p.sequence_flags = SEQ_INCREMENTAL_STATE_CLEARED;
		x->seq_started = true;
	}
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	p.track_descriptor = t;
	x->nr_tracks++;
	return write_packet(x, &p);
}

/*
 * The uuid of the track named by @key; 0 when it is new, after which the
 * caller describes it (emit_track) with the uuid *@fresh.
 */
static uint64_t track_lookup(struct exporter *x, const char *key,
			     uint64_t *fresh)
{
	unsigned long h = hash_str(key) % 1024;
	struct track *t;

	for (t = x->tracks[h]; t; t = t->next)
		if (strcmp(t->key, key) == 0)
			return t->uuid;
	t = malloc(sizeof(*t));
	if (!t || !(t->key = strdup(key))) {
		fputs("tracefuse: out of memory\n", stderr);
		exit(1);
	}
	t->uuid = *fresh = ++x->next_uuid;
	t->next = x->tracks[h];
	x->tracks[h] = t;
	return 0;
}

static int tgid_of(struct exporter *x, int pid)
{
	return pid > 0 && pid <= x->max_pid && x->tgid[pid] ? x->tgid[pid] :
	       pid;
}

/* The parent track of a scope: a thread's, a process's, a CPU's, ... */
static uint64_t scope_track(struct exporter *x, struct conv *c,
			    long long v, int *err)
{
	Perfetto__Protos__TrackDescriptor t =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor th =
		PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pr =
		PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	char key[128], name[96];
	uint64_t uuid, fresh = 0;

	snprintf(key, sizeof(key), "scope\x1f%d\x1f%s\x1f%lld", c->scope,
		 c->scope == SCOPE_CUSTOM ? c->scope_f->name : "", v);
	if ((uuid = track_lookup(x, key, &fresh)))
		return uuid;
	t.has_uuid = 1;
	t.uuid = fresh;
	switch (c->scope) {
	case SCOPE_TID:
		th.has_pid = th.has_tid = 1;
		th.tid = (int32_t)v;
		th.pid = tgid_of(x, (int)v);
		t.thread = &th;
		break;
	case SCOPE_TGID:
		pr.has_pid = 1;
		pr.pid = (int32_t)v;
		t.process = &pr;
		break;
	case SCOPE_CPU:
		snprintf(name, sizeof(name), "CPU %lld", v);
		t.name = name;
		break;
	case SCOPE_CUSTOM:
		snprintf(name, sizeof(name), "%s %lld", c->scope_f->name, v);
		t.name = name;
		break;
	}
	*err = emit_track(x, &t);
	return fresh;
}

static int track_event(struct exporter *x, struct tep_event *ev,
		       struct conv *c, unsigned long long ts, const void *d,
		       int size)
{
	Perfetto__Protos__TrackDescriptor t =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor cd =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	long long scope;
	const char *tname = c->track ? field_str(x, c->track, d, size) :
			    ev->name;
	char *key;
	uint64_t parent, uuid, fresh = 0;
	int err = 0;

	if (c->kind == CONV_SLICE) {
		int type = (int)field_num(x, c->type, d) & 0xff;

		if (type == 'B' || type == 'I') {
			te.type = type == 'B' ?
				PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN :
				PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
			te.name = field_str(x, c->name, d, size);
		} else if (type == 'E') {
			te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
		} else {
			x->bad++;	/* Perfetto counts a format error */
			return 0;
		}
		x->slices++;
	} else {
		te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
		te.has_counter_value = 1;
		te.counter_value = (int64_t)field_num(x, c->value, d);
		x->counters++;
	}
	te.has_type = 1;
	scope = c->scope_f ? (long long)field_num(x, c->scope_f, d) :
		num_of(x, ev, "common_pid", d);
	parent = scope_track(x, c, scope, &err);
	if (err)
		return err;
	key = arena_printf(&x->pkt, "track\x1f%d\x1f%s\x1f%llu", ev->id, tname,
			   (unsigned long long)parent);
	if (!(uuid = track_lookup(x, key, &fresh))) {
		t.has_uuid = t.has_parent_uuid = 1;
		t.uuid = uuid = fresh;
		t.parent_uuid = parent;
		t.name = (char *)tname;
		if (c->kind == CONV_COUNTER)
			t.counter = &cd;
		if ((err = emit_track(x, &t)) < 0)
			return err;
	}
	te.has_track_uuid = 1;
	te.track_uuid = uuid;
	p.has_timestamp = p.has_trusted_packet_sequence_id = 1;
	p.timestamp = ts;
	p.trusted_packet_sequence_id = SEQ_TRACKS;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	p.track_event = &te;
	return write_packet(x, &p);
}

/* ---- pages ---- */

static int export_page(struct exporter *x, struct kbuffer *kb, void *page,
		       int cpu)
{
	Perfetto__Protos__FtraceEventBundle b =
		PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	unsigned long long ts;
	size_t cap = 64;
	void *d;
	int ret = 0;

	if (kbuffer_load_subbuffer(kb, page) < 0)
		return -EINVAL;
	/* -1: events were lost, but the page had no room for the count */
	if (kbuffer_missed_events(kb) > 0)
		x->lost += (unsigned)kbuffer_missed_events(kb);
	else if (kbuffer_missed_events(kb) < 0)
		x->lost_pages++;
	b.has_cpu = 1;
	b.cpu = (uint32_t)cpu;
	b.event = arena_alloc(&x->pkt, cap * sizeof(*b.event));
	for (d = kbuffer_read_event(kb, &ts); d && ret == 0;
	     d = kbuffer_next_event(kb, &ts)) {
		struct tep_record rec = {
			.ts = ts, .cpu = cpu, .data = d,
			.size = kbuffer_event_size(kb),
		};
		struct tep_event *ev = tep_find_event_by_record(x->tep, &rec);
		struct conv *c;

		if (!ev)
			continue;	/* unknown id: no format to read it */
		if (b.n_event == cap) {
			FEvent **more = arena_alloc(&x->pkt,
						    2 * cap * sizeof(*more));

			memcpy(more, b.event, cap * sizeof(*more));
			b.event = more;
			cap *= 2;
		}
		b.event[b.n_event++] = ftrace_event(x, ev, ts, d, rec.size);
		x->events++;
		c = conv_of(x, ev);
		if (c->kind != CONV_NONE)
			ret = track_event(x, ev, c, ts, d, rec.size);
	}
	if (ret == 0 && b.n_event) {
		p.has_trusted_packet_sequence_id = 1;
		p.trusted_packet_sequence_id = SEQ_FTRACE;
		p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
		p.ftrace_events = &b;
		ret = write_packet(x, &p);
	}
	arena_reset(&x->pkt);
	return ret;
}

static int export_cpu(struct exporter *x, const char *dir, int cpu,
		      const char *file, size_t page_size)
{
	struct kbuffer *kb = kbuffer_alloc(tep_get_long_size(x->tep) == 4 ?
					   KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
					   tep_is_file_bigendian(x->tep) ?
					   KBUFFER_ENDIAN_BIG :
					   KBUFFER_ENDIAN_LITTLE);
	char path[4400];
	uint8_t *page = calloc(1, page_size);
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/%s", dir, cpu, file);
	if (!kb || !page) {
		ret = -ENOMEM;
		goto out;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		size_t got = 0;

		/* one page a read (the kernel's); piecewise if short */
		while (got < page_size) {
			ssize_t n = read(fd, page + got, page_size - got);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				if (n < 0 && errno != EAGAIN)
					ret = -errno;
				break;
			}
			got += (size_t)n;
		}
		if (ret < 0 || got < page_size)
			break;
		if ((ret = export_page(x, kb, page, cpu)) < 0)
			break;
	}
	close(fd);
out:
	if (kb)
		kbuffer_free(kb);
	free(page);
	return ret;
}

/* ---- processes and threads ---- */

static void read_tgids(struct exporter *x, const char *mount)
{
	char path[4200];
	FILE *f;
	int pid, tgid;

	snprintf(path, sizeof(path), "%s/saved_tgids", mount);
	if (!(f = fopen(path, "re")))
		return;
	while (fscanf(f, "%d %d", &pid, &tgid) == 2) {
		if (pid <= 0 || pid > 4194304)
			continue;
		if (pid > x->max_pid) {
			int *t = realloc(x->tgid, ((size_t)pid + 1) *
					 sizeof(*t));

			if (!t)
				break;
			memset(t + x->max_pid + 1, 0,
			       (size_t)(pid - x->max_pid) * sizeof(*t));
			if (!x->tgid)
				t[0] = 0;
			x->tgid = t;
			x->max_pid = pid;
		}
		x->tgid[pid] = tgid;
	}
	fclose(f);
}

static int export_processes(struct exporter *x, const char *mount)
{
	Perfetto__Protos__ProcessTree tree =
		PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	char path[4200], line[256];
	size_t cap = 0;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/saved_cmdlines", mount);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		Perfetto__Protos__ProcessTree__Thread *t;
		char comm[64] = "";
		int pid;

		if (sscanf(line, "%d %63[^\n]", &pid, comm) < 1 || pid <= 0)
			continue;
		if (tree.n_threads == cap) {
			void *more;

			cap = cap ? 2 * cap : 128;
			more = arena_alloc(&x->pkt, cap * sizeof(*tree.threads));
			if (tree.n_threads)
				memcpy(more, tree.threads, tree.n_threads *
				       sizeof(*tree.threads));
			tree.threads = more;
			more = arena_alloc(&x->pkt,
					   cap * sizeof(*tree.processes));
			if (tree.n_processes)
				memcpy(more, tree.processes, tree.n_processes *
				       sizeof(*tree.processes));
			tree.processes = more;
		}
		t = arena_alloc(&x->pkt, sizeof(*t));
		perfetto__protos__process_tree__thread__init(t);
		t->has_tid = 1;
		t->tid = pid;
		t->name = arena_strndup(&x->pkt, comm, strlen(comm));
		if (pid <= x->max_pid && x->tgid[pid]) {
			t->has_tgid = 1;
			t->tgid = x->tgid[pid];
		}
		tree.threads[tree.n_threads++] = t;
		/* a thread group's leader names its process */
		if (t->has_tgid && t->tgid == pid) {
			Perfetto__Protos__ProcessTree__Process *pr =
				arena_alloc(&x->pkt, sizeof(*pr));

			perfetto__protos__process_tree__process__init(pr);
			pr->has_pid = 1;
			pr->pid = pid;
			pr->n_cmdline = 1;
			pr->cmdline = arena_alloc(&x->pkt, sizeof(char *));
			pr->cmdline[0] = t->name;
			tree.processes[tree.n_processes++] = pr;
		}
	}
	if (f)
		fclose(f);
	p.has_trusted_packet_sequence_id = 1;
	p.trusted_packet_sequence_id = SEQ_FTRACE;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
	p.process_tree = &tree;
	ret = tree.n_threads ? write_packet(x, &p) : 0;
	arena_reset(&x->pkt);
	return ret;
}

/* ---- the command ---- */

static const char export_usage[] =
"Usage: tracefuse export --perfetto OUT [--snapshot] [--instance NAME] MOUNT\n"
"\n"
"Writes the trace buffer of the tracefs tree at MOUNT (tracefuse's or\n"
"the kernel's) as a Perfetto trace to OUT (- for standard output), to\n"
"open in ui.perfetto.dev or trace_processor.  The events are consumed,\n"
"as trace-cmd extract consumes them.\n"
"\n"
"  --perfetto OUT     the Perfetto protobuf trace to write\n"
"  --snapshot         export the snapshot buffer instead\n"
"  --instance NAME    export instances/NAME instead of the top level\n";

static void free_tables(struct exporter *x)
{
	for (unsigned i = 0; i < 1024; i++)
		while (x->tracks[i]) {
			struct track *t = x->tracks[i];

			x->tracks[i] = t->next;
			free(t->key);
			free(t);
		}
	if (x->conv)
		for (unsigned i = 0; i < MAX_IDS; i++)
			free(x->conv[i]);
	free(x->conv);
	free(x->tgid);
}

int tf_cli_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "snapshot", no_argument, NULL, 's' },
		{ "instance", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct exporter x = { 0 };
	const char *out = NULL, *instance = NULL, *mount;
	char dir[4200];
	bool snapshot = false;
	int c, ret = 0, page_size;
	long ncpu = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': out = optarg; break;
		case 's': snapshot = true; break;
		case 'i': instance = optarg; break;
		case 'h': fputs(export_usage, stdout); return 0;
		default: fputs(export_usage, stderr); return 2;
		}
	}
	if (!out || optind != argc - 1) {
		fputs(export_usage, stderr);
		return 2;
	}
	mount = argv[optind];
	if (instance)
		snprintf(dir, sizeof(dir), "%s/instances/%s", mount, instance);
	else
		snprintf(dir, sizeof(dir), "%s", mount);
	x.tep = tracefs_local_events(mount);
	if (!x.tep) {
		fprintf(stderr, "tracefuse export: %s: cannot read the event "
			"formats (not a tracefs tree?)\n", mount);
		return 1;
	}
	page_size = tep_get_sub_buffer_size(x.tep);
	if (page_size <= 0)
		page_size = getpagesize();
	x.conv = calloc(MAX_IDS, sizeof(*x.conv));
	x.out = strcmp(out, "-") == 0 ? stdout : fopen(out, "wbe");
	if (!x.conv || !x.out) {
		fprintf(stderr, "tracefuse export: %s: %s\n", out,
			strerror(errno));
		ret = 1;
		goto out;
	}
	read_tgids(&x, mount);
	if (export_processes(&x, mount) < 0)
		ret = -EIO;
	/* per_cpu/cpu0, cpu1, ... until one is missing */
	for (int cpu = 0; ret == 0; cpu++) {
		ret = export_cpu(&x, dir, cpu,
				 snapshot ? "snapshot_raw" : "trace_pipe_raw",
				 (size_t)page_size);
		if (ret == -ENOENT && cpu > 0) {
			ret = 0;
			break;
		}
		ncpu++;
	}
	x.cpus = (unsigned)ncpu;
	if (ret < 0) {
		fprintf(stderr, "tracefuse export: %s: %s\n",
			ret == -EIO ? out : dir, strerror(-ret));
		ret = 1;
	} else if (fflush(x.out) != 0 || ferror(x.out)) {
		fprintf(stderr, "tracefuse export: %s: %s\n", out,
			strerror(errno));
		ret = 1;
	} else {
		char uncounted[96] = "";

		if (x.lost_pages)
			snprintf(uncounted, sizeof(uncounted), ", and an "
				 "uncounted number before %llu pages",
				 x.lost_pages);
		fprintf(stderr, "tracefuse export: %llu events from %u CPUs "
			"(%llu lost before reading%s), %llu slice and %llu "
			"counter events on %u tracks%s to %s\n", x.events,
			x.cpus, x.lost, uncounted, x.slices, x.counters,
			x.nr_tracks,
			x.bad ? " (some track_event_type values were not B, "
			"E or I)" : "", out);
	}
out:
	if (x.out && x.out != stdout)
		fclose(x.out);
	free_tables(&x);
	tep_free(x.tep);
	return ret;
}
