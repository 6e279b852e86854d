/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_internal.h - what the synthetic event files share: the per
 * tracing context state, the event as the registry sees it, and the
 * steps of creating and removing one (synth_event.c), used by the
 * command parser (synth_parse.c).
 */
#ifndef TF_SYNTH_INTERNAL_H
#define TF_SYNTH_INTERNAL_H

#include <urcu/list.h>

#include "synth/synth.h"

/* The kernel's SYNTH_ERR_* table: the enum and the error_log text. */
#define TF_SYNTH_ERRORS							\
	C(BAD_NAME,		"Illegal name")				\
	C(INVALID_CMD,		"Command must be of the form: <name> "	\
				"field[;field] ...")			\
	C(INVALID_DYN_CMD,	"Command must be of the form: s or "	\
				"-:[synthetic/]<name> field[;field] ...") \
	C(EVENT_EXISTS,		"Event already exists")			\
	C(TOO_MANY_FIELDS,	"Too many fields")			\
	C(INCOMPLETE_TYPE,	"Incomplete type")			\
	C(INVALID_TYPE,		"Invalid type")				\
	C(INVALID_FIELD,	"Invalid field")			\
	C(INVALID_ARRAY_SPEC,	"Invalid array specification")

#define C(a, b) TF_SYNTH_ERR_##a,
enum tf_synth_err { TF_SYNTH_ERRORS };
#undef C

/* One name of the kernel's __def_gfpflag_names, for gfp_t fields. */
struct tf_synth_gfp {
	uint64_t mask;
	char *name;
};

struct tf_synth_state {
	/* struct synth_entry in creation order (the kernel's
	 * dyn_event_list): an RCU list, so that tf_synth_find() may run
	 * under the read lock */
	struct cds_list_head events;
	char *last_cmd;			/* for error_log entries and carets */
	struct tf_synth_gfp *gfp;	/* the schemas' gfp flag names */
	unsigned nr_gfp;
};

/* A synthetic event with the registry event that presents it. */
struct synth_entry {
	struct tf_synth_event se;
	struct tf_event ev;
	struct cds_list_head list;	/* in tf_synth_state.events */
	struct tf_field *tfields;	/* ev.fields */
	char *format;			/* ev.format_text */
	const struct tf_synth_gfp *gfp;	/* the state's table, or NULL */
	unsigned nr_gfp;
	struct tf_ksyms *ksyms;		/* the tree's, for stacks' %pS */
};

/* The state of @t, made on first use (control lock). */
struct tf_synth_state *tf_synth_state(struct tf_tracing *t);

/*
 * A field from its type and name as the parser made them (the type
 * with "unsigned " and the array part, already checked): size,
 * signedness and kind as the kernel's parse_synth_field() sets them.
 * Takes @type and @name (malloc'ed).
 */
void tf_synth_field_init(struct tf_synth_field *f, char *type, char *name,
			 int size);
/* The kernel's synth_field_size(): bytes, 0 for a dynamic array or an
 * unknown type, -EINVAL for a bad char[N]. */
int tf_synth_field_size(const char *type);
bool tf_synth_type_is_string(const char *type);
bool tf_synth_type_is_stack(const char *type);

/*
 * Makes @name with @n fields (taken over) an event of @t: its id, format
 * and registry event, listed after the others.  On failure nothing is
 * left and the fields are freed.
 */
int tf_synth_event_create(struct tf_tracing *t, const char *name,
			  struct tf_synth_field *fields, unsigned n);
/* The kernel's synth_event_release(): -EBUSY while referenced, held
 * by a trigger, or enabled anywhere; else it is gone. */
int tf_synth_event_destroy(struct tf_tracing *t, struct tf_synth_event *se);
void tf_synth_fields_free(struct tf_synth_field *fields, unsigned n);

/* The kernel's synth_err(): an error_log entry for the last command. */
void tf_synth_err(struct tf_tracing *t, enum tf_synth_err err, unsigned pos);

#endif
