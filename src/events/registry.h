/*
 * registry.h - the schema registry: every system and event tracefuse
 * presents, with its fields, id and format text.
 *
 * Loaded once at start from a directory laid out like tracefs's events/
 * (the host's tracefs, or the formats bundled in data/), parsed with
 * libtraceevent, which also renders records as the kernel prints them.
 * Events keep a dense index, so per-trace-array state is an array.
 */
#ifndef TF_EVENTS_REGISTRY_H
#define TF_EVENTS_REGISTRY_H

#include "events/schema.h"
#include "util/strbuf.h"

struct tep_handle;

struct tf_system {
	const char *name;
	unsigned index;
	unsigned nr_events;
	unsigned *events;	/* event indices, in registry order */
};

struct tf_registry {
	struct tep_handle *tep;
	char *header_page;
	char *header_event;
	unsigned nr_events;
	struct tf_event **events;	/* in available_events order */
	unsigned nr_systems;
	struct tf_system *systems;	/* in order of first appearance */
	char *source_desc;		/* where the schemas came from */
	/* The schemas' kernel, for the latency-format header (daemon.c);
	 * NULL: the host's release, "desktop". */
	char *kernel_release;		/* uname -r */
	const char *preempt_model;	/* server, desktop, preempt, ... */
};

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

/* Parses one format text into a tf_event (used by load and by tests). */
int tf_registry_add_format(struct tf_registry *reg, const char *system,
			   const char *text, size_t len);

#endif
