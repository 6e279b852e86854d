/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h - the schema registry: every system and event tracefuse
 * presents, with its fields, id and format text.
 *
 * Loaded at start from a directory laid out like tracefs's events/
 * (the host's tracefs, or the formats bundled in data/), parsed with
 * libtraceevent, which also renders records as the kernel prints them;
 * a replay may add events later, while the tree is mounted, and
 * synthetic events come and go.  Events keep a dense index, so
 * per-trace-array state is an array (chunked, so that it grows without
 * moving); a removed event leaves its index vacant until a later
 * run-time event takes it.
 */
#ifndef TF_EVENTS_REGISTRY_H
#define TF_EVENTS_REGISTRY_H

#include <pthread.h>
#include <stdatomic.h>

#include "events/schema.h"
#include "util/strbuf.h"

struct tep_handle;
struct tf_ksyms;

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
	 * first is set before the system is published.  A system whose
	 * events were all removed (synthetic) has none: it is not shown
	 * until an event is added to it again. */
	struct tf_event *first;
	struct tf_event *last;		/* the writers' (control lock) */
	bool own_name;			/* name is ours to free */
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
	/* Events by id (common_type is 16 bits): what `trace` prints a
	 * record with.  Entries are set and cleared under the control
	 * lock, read under the RCU read lock. */
	struct tf_event **id_chunks[TF_NR_CHUNKS];
	/* Per index: the generation of the event there (tf_event.gen);
	 * kept when the index is vacant, so that it outlives the event */
	uint32_t *gen_chunks[TF_NR_CHUNKS];
	unsigned nr_vacant;		/* vacant indices below nr_events */
	/* every event in the order it was made (tf_event.order, .seq) */
	struct cds_list_head order;
	uint64_t next_seq;
	char *source_desc;		/* where the schemas came from */
	/* The schemas' kernel, for the latency-format header (daemon.c);
	 * NULL: the host's release, "desktop". */
	char *kernel_release;		/* uname -r */
	const char *preempt_model;	/* server, desktop, preempt, ... */
	/* the kernel symbols of the tree's events (ksyms.h) */
	struct tf_ksyms *ksyms;
	/* the caller trace_marker's records carry (trace_marker.c): 0 until
	 * the first write decides it */
	_Atomic uint64_t marker_ip;
};

/*
 * Event @i (< nr_events) in index order, or NULL when the index is
 * vacant (a removed synthetic event's).  The event stays valid while
 * the caller holds the control lock or the RCU read lock.
 */
static inline struct tf_event *tf_registry_event(const struct tf_registry *reg,
						 unsigned i)
{
	return __atomic_load_n(&reg->event_chunks[i >> TF_CHUNK_SHIFT]
						 [i & (TF_CHUNK - 1)],
			       __ATOMIC_ACQUIRE);
}

/* The generation of index @i (< nr_events): what an inode of the event
 * that held it carries.  Readable without any lock. */
static inline uint32_t tf_registry_slot_gen(const struct tf_registry *reg,
					    unsigned i)
{
	return __atomic_load_n(&reg->gen_chunks[i >> TF_CHUNK_SHIFT]
					       [i & (TF_CHUNK - 1)],
			       __ATOMIC_ACQUIRE);
}

/* The event with id @id, or NULL; same validity as tf_registry_event(). */
static inline struct tf_event *tf_registry_event_by_id(
	const struct tf_registry *reg, int id)
{
	struct tf_event **chunk;

	if (id < 0 || (unsigned)id >= TF_MAX_EVENTS)
		return NULL;
	chunk = __atomic_load_n(&reg->id_chunks[id >> TF_CHUNK_SHIFT],
				__ATOMIC_ACQUIRE);
	return chunk ? __atomic_load_n(&chunk[id & (TF_CHUNK - 1)],
				       __ATOMIC_ACQUIRE) : NULL;
}

/* System @i (< nr_systems), in order of first appearance. */
static inline struct tf_system *
tf_registry_system_at(const struct tf_registry *reg, unsigned i)
{
	return reg->system_chunks[i >> TF_CHUNK_SHIFT][i & (TF_CHUNK - 1)];
}

/* Whether @sys has events (a synthetic system may have none left). */
static inline bool tf_system_visible(const struct tf_system *sys)
{
	return __atomic_load_n(&sys->first, __ATOMIC_ACQUIRE) != NULL;
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

/*
 * Events made at run time (synthetic events): the caller builds the
 * event (name, fields, format text, print fmt, id from
 * tf_registry_alloc_id, dyn, print and release); it takes the lowest
 * vacant index, else the next one (tf_registry_next_index tells which,
 * for the trace arrays to make room first).  prepare_built fills in
 * index, generation, order and system, invisible to readers; commit
 * publishes it as above.  -EEXIST when the id or the system's event
 * name is taken (a replay may have brought a synthetic event of another
 * kernel), -ENOSPC when no index is left, -ENOMEM.
 */
unsigned tf_registry_next_index(const struct tf_registry *reg);
int tf_registry_prepare_built(struct tf_registry *reg, struct tf_event *ev,
			      const char *system);
/* The kernel's ida of event types: the lowest id from @min not used by
 * any event; -ENOSPC when none. */
int tf_registry_alloc_id(const struct tf_registry *reg, int min);

/*
 * Removal (control lock held): unpublishes @ev (its index, id, place in
 * its system and in the order), so that readers that start now do not
 * find it; true when its system has no event left.  Readers that
 * found it before keep it until the caller waits for a grace period
 * and calls tf_registry_release_event().
 */
bool tf_registry_unlink(struct tf_registry *reg, struct tf_event *ev);
void tf_registry_release_event(struct tf_event *ev);

#endif
