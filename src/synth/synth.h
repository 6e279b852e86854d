/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - synthetic events: events defined at run time through
 * `synthetic_events` (and `s:` lines of `dynamic_events`), which hist
 * triggers' actions generate (onmatch().trace(), onmax().trace() ...),
 * the kernel's kernel/trace/trace_events_synth.c.
 *
 * A synthetic event is a registry event of system "synthetic" like any
 * other (format, id, enable, filter, trigger, hist), built from its
 * definition instead of parsed from a format file, printed in `trace` by
 * its own function as the kernel's print_synth_event, and removed again
 * when the user says so and nothing uses it.
 *
 * Its record is the kernel's synth_trace_event: the common header, then
 * one u64 slot per field (a static string takes STR_VAR_LEN_MAX bytes),
 * then the data of dynamic strings and stacks, which their slots locate
 * (__data_loc: length << 16 | offset).
 *
 * Control functions run under tracing->lock.  tf_synth_trace() is the
 * event path: under the RCU read lock, no allocation, no lock.
 */
#ifndef TF_SYNTH_SYNTH_H
#define TF_SYNTH_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace_array.h"
#include "util/strbuf.h"

#define TF_SYNTH_SYSTEM		"synthetic"
#define TF_SYNTH_FIELDS_MAX	64	/* SYNTH_FIELDS_MAX */
#define TF_STR_VAR_LEN_MAX	256	/* STR_VAR_LEN_MAX */

/* How the event path stores a field's value. */
enum tf_synth_kind {
	TF_SYNTH_NUM,		/* a number in its slot, cut to its size */
	TF_SYNTH_STR,		/* char[N]: STR_VAR_LEN_MAX bytes */
	TF_SYNTH_DYN_STR,	/* __data_loc char[] */
	TF_SYNTH_STACK,		/* __data_loc unsigned long[] */
};

/* One field, as the kernel's struct synth_field. */
struct tf_synth_field {
	char *type;		/* "u64", "char[16]", "__data_loc char[]",
				 * "__data_loc unsigned long[]", ... */
	char *name;
	unsigned size;		/* 1, 2, 4, 8; N of char[N]; 8 if dynamic */
	unsigned offset;	/* in u64 slots from the first field */
	unsigned field_pos;	/* its index */
	bool is_signed;
	bool is_string;
	bool is_dynamic;	/* char[] or a stack */
	bool is_stack;		/* long[] / unsigned long[] */
	unsigned char kind;	/* enum tf_synth_kind */
	uint64_t mask;		/* a number's bytes, zero-extended */
};

struct tf_synth_event {
	char *name;
	struct tf_synth_field *fields;	/* n_fields */
	unsigned n_fields;
	unsigned n_u64;			/* slots the fields take */
	bool has_dynamic;		/* a char[] or stack field: the
					 * record's size varies */
	unsigned fixed_size;		/* without: its record's size (0:
					 * too big for the ring buffer) */
	unsigned n_strs;		/* char[N] fields: their slots */
	unsigned short str_slots[TF_SYNTH_FIELDS_MAX];
	unsigned char str_fields[TF_SYNTH_FIELDS_MAX];	/* ... and indexes */
	unsigned n_nums;		/* number fields: their indexes, */
	unsigned char nums[TF_SYNTH_FIELDS_MAX];	/* built on their own
							 * without dynamic
							 * fields */
	/*
	 * Users that make it busy (the kernel's synth_event.ref): each hist
	 * action that traces it, each hist trigger on its own event file.
	 * Removal fails with EBUSY while it is not 0.  tracing->lock.
	 */
	int ref;
	struct tf_event *event;		/* its registry event */
};

/*
 * The kernel's find_synth_event(): the synthetic event named @name, or
 * NULL.  Under tracing->lock (or the RCU read lock: the result stays
 * valid until the section ends).
 */
struct tf_synth_event *tf_synth_find(struct tf_tracing *t, const char *name);

/* The synthetic event behind registry event @ev, or NULL if @ev is not
 * one (find_synth_event_call()). */
struct tf_synth_event *tf_synth_of_event(const struct tf_event *ev);

/*
 * The event path of the trace() action (trace_synth()): generates one
 * record of @se whose field i takes vals[idx[i]] (numbers are stored in
 * the field's size; a string field's value is a pointer to a NUL-ended
 * string; a stack field's value points to a u64 count followed by that
 * many frame addresses), and dispatches it through tf_dispatch_locked()
 * like every other record, so that its filters, triggers and hists run
 * and enabled trace arrays record it.  The common header (pid, flags,
 * preempt count), the timestamp, CPU and comm are those of @cause, the
 * record whose trigger fired, as the kernel's are the current task's.
 * Nested generation (an action on a synthetic event tracing another)
 * stops at a fixed depth, as the kernel's recursion protection does.
 * Caller holds the RCU read lock; allocates nothing.
 */
void tf_synth_trace(struct tf_tracing *t, const struct tf_synth_event *se,
		    const uint64_t *vals, const unsigned *idx,
		    const struct tf_record *cause);

/*
 * The control files (tracing->lock held, outside any RCU read-side
 * section: removals wait for a grace period).
 *
 * synthetic_events: one write(2) is split into lines (`#` starts a
 * comment) and each line is a command, as the kernel's
 * trace_parse_run_command() runs create_or_delete_synth_event(): a
 * definition adds an event, `!name [...]` removes one.  Returns @len or
 * the first failing command's -errno (the lines before it stay done);
 * errors are logged to the top-level error_log as the kernel's.
 */
long tf_synth_events_write(struct tf_tracing *t, const char *buf, size_t len);
void tf_synth_events_show(struct tf_tracing *t, struct strbuf *out);
/*
 * dynamic_events: `s:[synthetic/]name fields` adds, `-:[synthetic/]name`
 * and `!...` remove (and reset the buffers of trace arrays that had
 * the removed event enabled); other commands name event types
 * tracefuse does not have: -EINVAL, as the kernel when none takes them.
 */
long tf_dynamic_events_write(struct tf_tracing *t, const char *buf,
			     size_t len);
void tf_dynamic_events_show(struct tf_tracing *t, struct strbuf *out);
/*
 * Opening either file with O_TRUNC for writing: removes every synthetic
 * event in creation order (dyn_events_release_all()): -EBUSY, removing
 * none, when one is in use (ref); -EBUSY when one cannot go (enabled),
 * the ones before it gone.  Resets the buffers as the kernel does.
 */
int tf_synth_release_all(struct tf_tracing *t);

#endif
