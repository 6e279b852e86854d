/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefuse.h - libtracefuse: produce events into a mounted tracefuse.
 *
 * A program connects to the tracefuse mounted at a directory and writes
 * events into it: records of any event the mount knows, in the kernel's
 * binary layout, and synthetic events it defines itself, through the
 * functions the kernel gives its own code for that (the in-kernel trace
 * event API of Documentation/trace/events.rst, section 7), with the same
 * names under the tfuse_ prefix and the same rules.  The events then go
 * through the mount's filters, triggers and histograms and show in
 * `trace`, exactly like events from any other source.
 *
 * Each producing thread gets a shared-memory ring of its own on its
 * first event (perf's ring protocol: no system call and no lock per
 * event); a full ring drops events and counts them, and the count
 * reaches the daemon as soon as there is room again.  Anything a thread
 * wrote before it reads a file of the mount (cat hist, cat trace) is in
 * what that read shows.
 *
 * Functions returning int return 0 or a negative errno, as the kernel's
 * do; functions returning a pointer return NULL and set errno.
 *
 *     pkg-config --cflags --libs libtracefuse
 */
#ifndef TRACEFUSE_TRACEFUSE_H
#define TRACEFUSE_TRACEFUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values of synthetic event fields: numbers, or strings as
 * pointers cast to u64 (the kernel's convention). */
typedef uint64_t tfuse_u64;

/* ---- connections (tfuse_connect(3)) -------------------------------------- */

/* A connection to one mounted tracefuse. */
struct tfuse;

/* Connects to the tracefuse mounted at @mountpoint. */
struct tfuse *tfuse_connect(const char *mountpoint);
/*
 * Waits until the daemon has taken in every event written so far through
 * @t, deletes the synthetic events @t created that nothing uses, and
 * frees @t.  No thread may use @t or its event files any more.
 */
void tfuse_disconnect(struct tfuse *t);
/*
 * The size in bytes of the rings of threads that have not written yet
 * (a power of two from 4096 to 64 MiB; default 1 MiB).
 */
int tfuse_set_ring_size(struct tfuse *t, size_t bytes);
/* Returns once the daemon has taken in every event written through @t. */
int tfuse_sync(struct tfuse *t);
/* The calling thread writes no more through @t: its ring is drained and
 * released (done by itself when the thread exits). */
int tfuse_thread_done(struct tfuse *t);

struct tfuse_stats {
	uint64_t written;	/* events the rings took */
	uint64_t lost;		/* events dropped: a ring was full */
	uint64_t delivered;	/* events the daemon dispatched */
	uint64_t malformed;	/* events the daemon refused */
};
/* Counts over all threads of @t; tfuse_sync() first for final ones. */
int tfuse_get_stats(struct tfuse *t, struct tfuse_stats *st);

/* ---- event files (tfuse_get_event_file(3)) -------------------------------- */

/* An event of the mount, to write records of (trace_event_file). */
struct tfuse_event_file;

/*
 * The event @system/@event (trace_get_event_file()); @instance is NULL
 * for the top level or an instance's name, which must exist.
 */
struct tfuse_event_file *tfuse_get_event_file(struct tfuse *t,
					      const char *instance,
					      const char *system,
					      const char *event);
void tfuse_put_event_file(struct tfuse_event_file *file);
/* Enables or disables an event (trace_array_set_clr_event()). */
int tfuse_set_clr_event(struct tfuse *t, const char *instance,
			const char *system, const char *event, bool enable);
/*
 * Writes one record of @file's event: @len bytes in the kernel's layout
 * for it, as its format file describes, common header included.  The
 * library sets common_type; common_pid is the calling thread's when the
 * record leaves it 0.  -ENOSPC: the ring was full (the event is counted
 * as lost); -EINVAL: shorter than the event's fields.
 */
int tfuse_event_file_write(struct tfuse_event_file *file, const void *record,
			   size_t len);
/* The same by name, for a record of @system/@event. */
int tfuse_event_write(struct tfuse *t, const char *system, const char *event,
		      const void *record, size_t len);

/* ---- synthetic events (tfuse_synth_event_create(3)) ----------------------- */

#define TFUSE_SYNTH_FIELDS_MAX		64	/* SYNTH_FIELDS_MAX */
#define TFUSE_MAX_DYNEVENT_CMD_LEN	2048	/* MAX_DYNEVENT_CMD_LEN */

/* A field: its type ("u64", "pid_t", "char[16]", "char[]", ...) and name. */
struct tfuse_field_desc {
	const char *type;
	const char *name;
};

/* synth_event_create(): the event exists when it returns 0. */
int tfuse_synth_event_create(struct tfuse *t, const char *name,
			     const struct tfuse_field_desc *fields,
			     unsigned int n_fields);
/* synth_event_delete(): -EBUSY while it is in use. */
int tfuse_synth_event_delete(struct tfuse *t, const char *name);

/* The dynevent_cmd builder (tfuse_dynevent_cmd(3)). */
struct tfuse_dynevent_cmd {
	struct tfuse *t;
	char *buf;		/* the command being built */
	int maxlen;
	size_t len;
	const char *event_name;
	unsigned int n_fields;
	int err;		/* the first failure, returned by ..._end */
};

/* synth_event_cmd_init(): @buf of @maxlen bytes holds the command. */
void tfuse_synth_event_cmd_init(struct tfuse_dynevent_cmd *cmd,
				struct tfuse *t, char *buf, int maxlen);
/* synth_event_gen_cmd_start(cmd, name, type, name, type, name, ...). */
#define tfuse_synth_event_gen_cmd_start(cmd, name, ...) \
	__tfuse_synth_event_gen_cmd_start(cmd, name, ## __VA_ARGS__, NULL)
int __tfuse_synth_event_gen_cmd_start(struct tfuse_dynevent_cmd *cmd,
				      const char *name, ...);
int tfuse_synth_event_gen_cmd_array_start(struct tfuse_dynevent_cmd *cmd,
					  const char *name,
					  const struct tfuse_field_desc *fields,
					  unsigned int n_fields);
int tfuse_synth_event_add_field(struct tfuse_dynevent_cmd *cmd,
				const char *type, const char *name);
int tfuse_synth_event_add_fields(struct tfuse_dynevent_cmd *cmd,
				 const struct tfuse_field_desc *fields,
				 unsigned int n_fields);
/* A "type name" string as it is; a ';' is added. */
int tfuse_synth_event_add_field_str(struct tfuse_dynevent_cmd *cmd,
				    const char *type_name);
/* Creates the event the command describes. */
int tfuse_synth_event_gen_cmd_end(struct tfuse_dynevent_cmd *cmd);

/* ---- tracing synthetic events (tfuse_synth_event_trace(3)) ---------------- */

/* synth_event_trace(): @n_vals u64 values, one per field, in order. */
int tfuse_synth_event_trace(struct tfuse_event_file *file,
			    unsigned int n_vals, ...);
/* synth_event_trace_array(). */
int tfuse_synth_event_trace_array(struct tfuse_event_file *file,
				  const tfuse_u64 *vals, unsigned int n_vals);

/* The state of a piecewise trace (synth_event_trace_state). */
struct tfuse_synth_trace_state {
	struct tfuse_event_file *file;
	unsigned int cur_field;
	bool add_next;
	bool add_name;
	bool open;
	unsigned char *entry;	/* the record being built */
};

/* synth_event_trace_start(): opens a record; -EOPNOTSUPP for an event
 * with dynamic fields, which piecewise tracing cannot size. */
int tfuse_synth_event_trace_start(struct tfuse_event_file *file,
				  struct tfuse_synth_trace_state *state);
/* synth_event_add_next_val(): the next field, in order. */
int tfuse_synth_event_add_next_val(tfuse_u64 val,
				   struct tfuse_synth_trace_state *state);
/* synth_event_add_val(): a field by name.  Not with add_next_val. */
int tfuse_synth_event_add_val(const char *field_name, tfuse_u64 val,
			      struct tfuse_synth_trace_state *state);
/* synth_event_trace_end(): writes the record, whatever failed before. */
int tfuse_synth_event_trace_end(struct tfuse_synth_trace_state *state);

#ifdef __cplusplus
}
#endif

#endif
