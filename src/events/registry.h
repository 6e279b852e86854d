/*
 * registry.h - the schema registry: every system and event tracefuse
 * presents, with its fields, id and format text.
 *
 * Loaded at start from a directory laid out like tracefs's events/
 * (the host's tracefs, or the formats bundled in data/), parsed with
 * libtraceevent, which also renders records as the kernel prints them;
 * a replay may add events later, while the tree is mounted.  Events keep
 * a dense index, so per-trace-array state is an array (chunked, so that
 * it grows without moving).
 */
#ifndef TF_EVENTS_REGISTRY_H
#define TF_EVENTS_REGISTRY_H

#include <pthread.h>
#include <stdatomic.h>

#include "events/schema.h"
#include "util/strbuf.h"

struct tep_handle;

/*
 * Events can be added while the tree is mounted (a replay started by
 * tracefuse-inject brings events the tree lacks), so everything indexed
 * by event or system lives in chunked arrays whose chunks never move:
 * a reader holding an index or a pointer is never left with freed
 * memory, and no grace period is needed.  A chunk holds TF_CHUNK
 * entries; TF_MAX_EVENTS bounds the directory: common_type is 16 bits,
 * so no tree can hold more events than that.
 */
#define TF_CHUNK_SHIFT	8
#define TF_CHUNK	(1u << TF_CHUNK_SHIFT)
#define TF_MAX_EVENTS	65536u
#define TF_NR_CHUNKS	(TF_MAX_EVENTS / TF_CHUNK)

struct tf_system {
	const char *name;
	unsigned index;
	/* its events in registry order, linked by tf_event.sys_next;
	 * first is set before the system is published */
	struct tf_event *first;
	struct tf_event *last;		/* the writers' (control lock) */
};

struct tf_registry {
	struct tep_handle *tep;
	/* libtraceevent is not thread-safe: held to print with tep and to
	 * parse a format into it while the tree is mounted */
	pthread_mutex_t tep_lock;
	char *header_page;
	char *header_event;
	/*
	 * Published with a release store after the entry (and every trace
	 * array's file for it) is complete: a reader that loads the count
	 * (plain reads of an _Atomic are seq_cst loads) may read every
	 * entry below it.
	 */
	_Atomic unsigned nr_events;
	struct tf_event **event_chunks[TF_NR_CHUNKS];
	_Atomic unsigned nr_systems;
	struct tf_system **system_chunks[TF_NR_CHUNKS];
	char *source_desc;		/* where the schemas came from */
	/* The schemas' kernel, for the latency-format header (daemon.c);
	 * NULL: the host's release, "desktop". */
	char *kernel_release;		/* uname -r */
	const char *preempt_model;	/* server, desktop, preempt, ... */
};

/* Event @i (< nr_events) in index order. */
static inline struct tf_event *tf_registry_event(const struct tf_registry *reg,
						 unsigned i)
{
	return reg->event_chunks[i >> TF_CHUNK_SHIFT][i & (TF_CHUNK - 1)];
}

/* System @i (< nr_systems), in order of first appearance. */
static inline struct tf_system *
tf_registry_system_at(const struct tf_registry *reg, unsigned i)
{
	return reg->system_chunks[i >> TF_CHUNK_SHIFT][i & (TF_CHUNK - 1)];
}

/* A system's events in registry order: first, then next until NULL. */
static inline struct tf_event *
tf_system_first_event(const struct tf_system *sys)
{
	return __atomic_load_n(&sys->first, __ATOMIC_ACQUIRE);
}

static inline struct tf_event *tf_system_next_event(const struct tf_event *ev)
{
	return __atomic_load_n(&ev->sys_next, __ATOMIC_ACQUIRE);
}

/*
 * Loads every events/<sys>/<event>/format below @events_dirfd (a directory
 * fd of a tracefs events/ directory or of a bundled copy).  The order of
 * events follows an `available_events` file beside it when present
 * (@order_text, may be NULL), otherwise system and event names sorted.
 */
int tf_registry_load(struct tf_registry **out, int events_dirfd,
		     const char *order_text, const char *desc);
void tf_registry_free(struct tf_registry *reg);

struct tf_event *tf_registry_find(const struct tf_registry *reg,
				  const char *system, const char *name);
struct tf_event *tf_registry_find_id(const struct tf_registry *reg, int id);
const struct tf_system *tf_registry_system(const struct tf_registry *reg,
					   const char *name);

/* The system an event belongs to. */
const struct tf_system *tf_event_system(const struct tf_registry *reg,
					const struct tf_event *ev);

struct tep_format_field;
/* How a field libtraceevent parsed is read (the kernel's filter types). */
enum tf_field_kind tf_field_kind_of(const struct tep_format_field *f);

/*
 * Parses one format text into a tf_event and publishes it (load, and
 * tests).  Before the tree exists only: once trace arrays have files
 * per event, events are added with tf_tracing_add_event().
 */
int tf_registry_add_format(struct tf_registry *reg, const char *system,
			   const char *text, size_t len);

/*
 * Adding in two steps, for tf_tracing_add_event(): prepare parses the
 * format (under tep_lock) and builds the event at index nr_events,
 * invisible to readers; the caller then sets up its per-trace-array
 * state, and commit publishes it (the count, its system's list, a new
 * system).  Writers serialise (the control lock once the tree exists).
 * -EEXIST when @system already has an event of that name, -ENOSPC when
 * TF_MAX_EVENTS are there.
 */
int tf_registry_prepare(struct tf_registry *reg, const char *system,
			const char *text, size_t len, struct tf_event **out);
void tf_registry_commit(struct tf_registry *reg, struct tf_event *ev);

#endif
