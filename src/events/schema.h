/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schema.h - the event schema: systems, events and their fields.
 *
 * An event's schema is what its `format` file says: the common header and
 * the event's own fields, each at an offset with a size and a signedness.
 * Everything downstream (filters, triggers, hist) reads a record's fields
 * through a struct tf_field, never by name at event time.
 *
 * Schemas are immutable once published (but for the link to the next
 * event of their system); the registry (registry.h) owns them.
 */
#ifndef TF_EVENTS_SCHEMA_H
#define TF_EVENTS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/list.h>

#include "util/strbuf.h"

/* How a field's bytes are to be read; mirrors the kernel's filter types. */
enum tf_field_kind {
	TF_FIELD_NUM,		/* integer of 1, 2, 4 or 8 bytes */
	TF_FIELD_STR_STATIC,	/* char name[N]: N bytes inline, NUL padded */
	TF_FIELD_STR_DYN,	/* __data_loc char[]: u32 (len << 16 | offset) */
	TF_FIELD_STR_REL,	/* __rel_loc char[]: offset relative to field end */
	TF_FIELD_STR_PTR,	/* char * / const char *: a pointer, not readable */
	TF_FIELD_CPUMASK,	/* __data_loc cpumask_t (or static cpumask) */
	TF_FIELD_ARRAY,		/* any other array: opaque bytes */
	TF_FIELD_DYN_ARRAY,	/* __data_loc of a non-char array */
};

struct tf_field {
	const char *name;
	const char *type;	/* as the format file spells it, e.g. "pid_t" */
	unsigned offset;
	unsigned size;
	bool is_signed;
	bool is_common;		/* one of common_type/flags/preempt_count/pid */
	enum tf_field_kind kind;
};

struct tf_event {
	const char *system;
	const char *name;
	int id;
	unsigned nr_fields;		/* common fields first, then the event's */
	const struct tf_field *fields;
	const char *format_text;	/* the `format` file, byte for byte */
	const char *print_fmt;		/* the text after `print fmt: ` */
	unsigned index;			/* dense index in the registry */
	unsigned sys_index;		/* its system's index */
	void *tep_event;		/* struct tep_event *, for printing */
	bool is_ftrace_print;		/* ftrace:print, trace_marker's */
	/*
	 * The release of the kernel the schema is from, when it is not the
	 * registry's (events a replay adds are the trace.dat's kernel's):
	 * output that differs between kernels follows it.  Set before the
	 * event is published, freed with it; NULL: the registry's.
	 */
	const char *kernel_release;
	/*
	 * The next event of the same system, in registry order: set after
	 * publication (when that next event is added at run time, or when
	 * it is removed) with a release store; read it with
	 * tf_system_next_event() (registry.h).
	 */
	struct tf_event *sys_next;
	/*
	 * Where it stands among the events made so far: its index may be
	 * a removed event's, so the order of available_events and
	 * set_event (the kernel's lists) comes from @seq, the count of
	 * events made before it.  @gen tells apart the events that held
	 * the same index (inode numbers carry it).  @order links every
	 * event in @seq order (registry.h, control lock).
	 */
	uint64_t seq;
	uint32_t gen;
	struct cds_list_head order;
	/*
	 * Events made at run time (synthetic events, the kernel's dynamic
	 * events) instead of parsed from a format: @dyn is their owner,
	 * @print renders a record's text after the context columns, as
	 * the kernel's own output function (not the print fmt; with the
	 * TF_TRACE_* flags of the reader), ending with a newline, and
	 * @release frees the event once no reader can see it.  @dyn_ref
	 * counts the users that keep it from being removed, the kernel's
	 * trace_event_try_get_ref() (enable_event targets); control lock.
	 */
	void *dyn;
	void (*print)(const struct tf_event *ev, const uint8_t *data,
		      unsigned size, unsigned trace_flags,
		      struct strbuf *out);
	void (*release)(struct tf_event *ev);
	int dyn_ref;
};

/* A field of @ev by name (common fields included), or NULL. */
const struct tf_field *tf_event_field(const struct tf_event *ev,
				      const char *name);

/*
 * A record: one event occurrence in the kernel's binary layout for its
 * event (common header first).  `comm` is the task's comm at event time,
 * as the kernel's `current->comm`; `tgid` the task's thread group, when
 * the source knows it (0: unknown); `stack` is the kernel stack carried
 * by the source, if any.
 */
struct tf_record {
	const struct tf_event *event;
	const uint8_t *data;
	unsigned size;
	uint64_t ts;		/* nanoseconds, the trace clock */
	int cpu;
	const char *comm;	/* may be NULL: then looked up by pid */
	int tgid;		/* 0: not known */
	const uint64_t *stack;
	unsigned nr_stack;
	/*
	 * The source applied the event's filter already, the very filter
	 * of every trace array recording the event (the live source's
	 * push-down to the host): trace arrays do not filter it again.
	 */
	bool prefiltered;
	/*
	 * Written by its producer as trace_marker writes (an injected or
	 * produced ftrace:print): no enable file, recorded in the top level
	 * whenever tracing is on (dispatch/dispatch.h).
	 */
	bool written;
	/* Generated by a trigger's action (a synthetic event) while another
	 * record was dispatched: no source's batch holds it. */
	bool generated;
};

/* Reads an integer field of a record, sign-extending signed fields. */
static inline uint64_t tf_field_read_u64(const struct tf_field *f,
					 const uint8_t *data)
{
	const uint8_t *p = data + f->offset;

	switch (f->size) {
	case 1: return f->is_signed ? (uint64_t)(int64_t)*(const int8_t *)p
				    : *p;
	case 2: { uint16_t v; __builtin_memcpy(&v, p, 2);
		  return f->is_signed ? (uint64_t)(int64_t)(int16_t)v : v; }
	case 4: { uint32_t v; __builtin_memcpy(&v, p, 4);
		  return f->is_signed ? (uint64_t)(int64_t)(int32_t)v : v; }
	case 8: { uint64_t v; __builtin_memcpy(&v, p, 8); return v; }
	default: return 0;
	}
}

/*
 * The string a string field holds in @data of @size bytes: sets *len (not
 * counting a trailing NUL) and returns a pointer into @data, or NULL when
 * the field is not a readable string or points outside the record.
 */
const char *tf_field_read_str(const struct tf_field *f, const uint8_t *data,
			      unsigned size, unsigned *len);

#endif
