/*
 * hist_internal.h - the hist engine's own structures, shared by its files:
 * hist_parse.c (attributes, fields, sort keys), hist_trigger.c (the
 * command, matching, named histograms, the event path), hist_print.c
 * (the hist and hist_debug files, the trigger readback), hist_sym.c
 * (symbols and syscall names).
 *
 * Names follow trace_events_hist.c: hist_data holds fields[] (values
 * first, hitcount at 0, then keys), each a hist_field.
 */
#ifndef TF_HIST_HIST_INTERNAL_H
#define TF_HIST_HIST_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "events/schema.h"
#include "events/trace_array.h"
#include "hist/hist.h"
#include "hist/tracing_map.h"
#include "trigger/trigger.h"
#include "util/strbuf.h"

/* The kernel's HIST_FIELD_FL_* bits, same values. */
enum {
	HIST_FIELD_FL_HITCOUNT		= 1 << 0,
	HIST_FIELD_FL_KEY		= 1 << 1,
	HIST_FIELD_FL_STRING		= 1 << 2,
	HIST_FIELD_FL_HEX		= 1 << 3,
	HIST_FIELD_FL_SYM		= 1 << 4,
	HIST_FIELD_FL_SYM_OFFSET	= 1 << 5,
	HIST_FIELD_FL_EXECNAME		= 1 << 6,
	HIST_FIELD_FL_SYSCALL		= 1 << 7,
	HIST_FIELD_FL_STACKTRACE	= 1 << 8,
	HIST_FIELD_FL_LOG2		= 1 << 9,
	HIST_FIELD_FL_TIMESTAMP		= 1 << 10,
	HIST_FIELD_FL_TIMESTAMP_USECS	= 1 << 11,
	HIST_FIELD_FL_VAR		= 1 << 12,
	HIST_FIELD_FL_EXPR		= 1 << 13,
	HIST_FIELD_FL_VAR_REF		= 1 << 14,
	HIST_FIELD_FL_CPU		= 1 << 15,
	HIST_FIELD_FL_ALIAS		= 1 << 16,
	HIST_FIELD_FL_BUCKET		= 1 << 17,
	HIST_FIELD_FL_CONST		= 1 << 18,
	HIST_FIELD_FL_PERCENT		= 1 << 19,
	HIST_FIELD_FL_GRAPH		= 1 << 20,
	HIST_FIELD_FL_COMM		= 1 << 21,
};

#define HITCOUNT_IDX		0
#define HIST_FIELDS_MAX		(TRACING_MAP_FIELDS_MAX + TRACING_MAP_VARS_MAX)
#define HIST_STACKTRACE_DEPTH	16
#define HIST_STACKTRACE_SIZE	(HIST_STACKTRACE_DEPTH * 8)
#define MAX_FILTER_STR_VAL	256
#define HIST_KEY_SIZE_MAX	(MAX_FILTER_STR_VAL + HIST_STACKTRACE_SIZE)
#define HIST_PREFIX		"hist:"
#define HIST_COMM_LEN		16

/* How a field's value is computed on the event path (hist_fn_call). */
enum hist_fn {
	HIST_FN_NOP,
	HIST_FN_COUNTER,	/* hitcount: 1 */
	HIST_FN_NUM,		/* an integer event field */
	HIST_FN_STRING,		/* a string event field (keys: copied) */
	HIST_FN_TIMESTAMP,
	HIST_FN_CPU,
	HIST_FN_COMM,		/* common_comm: the task's comm */
	HIST_FN_STACK,		/* common_stacktrace: the record's stack */
	HIST_FN_LOG2,		/* operands[0] */
	HIST_FN_BUCKET,		/* operands[0] */
	HIST_FN_CONST,
	HIST_FN_UMINUS,
	HIST_FN_MINUS,
	HIST_FN_PLUS,
	HIST_FN_DIV,
	HIST_FN_MULT,
};

struct hist_field {
	unsigned long flags;
	enum hist_fn fn;
	const struct tf_field *field;	/* the event field, or NULL */
	char *name;			/* as hist_field_name() returns it */
	char *type;			/* for hist_debug */
	unsigned int size;		/* keys: padded to 8 */
	unsigned int offset;		/* keys: in the compound key */
	bool is_signed;
	unsigned long buckets;
	uint64_t constant;
	struct hist_field *operands[2];
};

struct hist_attrs {
	char *keys_str;
	char *vals_str;
	char *sort_key_str;
	char *name;		/* "name=foo", as the kernel keeps it */
	char *clock;
	bool pause, cont, clear;
	bool ts_in_usecs;
	bool no_hitcount;
	unsigned int map_bits;
	unsigned int n_assignments;
	char *assignment_str[TRACING_MAP_VARS_MAX];
	unsigned int n_actions;
};

struct hist_data {
	struct hist_field *fields[HIST_FIELDS_MAX];
	unsigned int n_vals, n_keys, n_fields;
	unsigned int key_size;
	struct tracing_map_sort_key sort_keys[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int n_sort_keys;
	struct hist_attrs *attrs;
	struct tracing_map *map;	/* RCU: a clear replaces it */
	struct tf_event_file *file;
	bool enable_timestamps;
	bool remove;
	bool need_comm;			/* an execname key: save comms */
	bool key_filled;		/* numeric keys write every key byte */
	bool simple;			/* one field key, hitcount/field vals */
	uint64_t id;			/* hist_debug's "hist_data:" */
	int refs;			/* triggers sharing it (named) */
};

/* Our part of a tf_trigger (its private_data). */
struct hist_trigger {
	struct hist_data *hist_data;	/* shared when named */
	char *name;			/* "name=foo" if named, else NULL */
	struct hist_trigger *named_data;/* the first of its name, or NULL */
	struct tf_trigger *trigger;
};

/* The error being built for error_log (the kernel's last_cmd). */
struct hist_err_ctx {
	struct tf_trace_array *tr;
	char *last_cmd;			/* "hist:" + param_and_filter */
	char loc[256];			/* "hist:<sys>:<event>" */
};

/* What parsing one field needs (hist_field.c). */
struct parse_state {
	struct hist_err_ctx *ec;
	struct hist_data *hd;
	const struct tf_event *ev;
};

/* hist_field.c */
int hist_kstrtoull(const char *s, unsigned long long *res);
struct hist_field *create_hist_field(const struct tf_field *field,
				     unsigned long flags, const char *name);
void destroy_hist_field(struct hist_field *f);
struct hist_field *parse_expr(struct parse_state *ps, char *str,
			      unsigned long flags, unsigned int *n_subexprs,
			      int *errp);

/* hist_parse.c */
int hist_parse_attrs(struct hist_err_ctx *ec, char *trigger_str,
		     struct hist_attrs **out);
void hist_attrs_free(struct hist_attrs *attrs);
int hist_create_data(struct hist_err_ctx *ec, struct hist_attrs *attrs,
		     struct tf_event_file *file, bool remove,
		     struct hist_data **out);
void hist_data_free(struct hist_data *hd);
const char *hist_field_name(const struct hist_field *f);
const char *hist_field_flags_str(const struct hist_field *f);
void hist_err(struct hist_err_ctx *ec, int err_type, unsigned int pos);
unsigned int hist_errpos(struct hist_err_ctx *ec, const char *str);

/* The kernel's HIST_ERR_* list, in its order (C1). */
enum {
	HIST_ERR_NONE,
	HIST_ERR_DUPLICATE_VAR,
	HIST_ERR_VAR_NOT_UNIQUE,
	HIST_ERR_TOO_MANY_VARS,
	HIST_ERR_MALFORMED_ASSIGNMENT,
	HIST_ERR_NAMED_MISMATCH,
	HIST_ERR_TRIGGER_EEXIST,
	HIST_ERR_TRIGGER_ENOENT_CLEAR,
	HIST_ERR_SET_CLOCK_FAIL,
	HIST_ERR_BAD_FIELD_MODIFIER,
	HIST_ERR_TOO_MANY_SUBEXPR,
	HIST_ERR_TIMESTAMP_MISMATCH,
	HIST_ERR_TOO_MANY_FIELD_VARS,
	HIST_ERR_EVENT_FILE_NOT_FOUND,
	HIST_ERR_HIST_NOT_FOUND,
	HIST_ERR_HIST_CREATE_FAIL,
	HIST_ERR_SYNTH_VAR_NOT_FOUND,
	HIST_ERR_SYNTH_EVENT_NOT_FOUND,
	HIST_ERR_SYNTH_TYPE_MISMATCH,
	HIST_ERR_SYNTH_COUNT_MISMATCH,
	HIST_ERR_FIELD_VAR_PARSE_FAIL,
	HIST_ERR_VAR_CREATE_FIND_FAIL,
	HIST_ERR_ONX_NOT_VAR,
	HIST_ERR_ONX_VAR_NOT_FOUND,
	HIST_ERR_ONX_VAR_CREATE_FAIL,
	HIST_ERR_FIELD_VAR_CREATE_FAIL,
	HIST_ERR_TOO_MANY_PARAMS,
	HIST_ERR_PARAM_NOT_FOUND,
	HIST_ERR_INVALID_PARAM,
	HIST_ERR_ACTION_NOT_FOUND,
	HIST_ERR_NO_SAVE_PARAMS,
	HIST_ERR_TOO_MANY_SAVE_ACTIONS,
	HIST_ERR_ACTION_MISMATCH,
	HIST_ERR_NO_CLOSING_PAREN,
	HIST_ERR_SUBSYS_NOT_FOUND,
	HIST_ERR_INVALID_SUBSYS_EVENT,
	HIST_ERR_INVALID_REF_KEY,
	HIST_ERR_VAR_NOT_FOUND,
	HIST_ERR_FIELD_NOT_FOUND,
	HIST_ERR_EMPTY_ASSIGNMENT,
	HIST_ERR_INVALID_SORT_MODIFIER,
	HIST_ERR_EMPTY_SORT_FIELD,
	HIST_ERR_TOO_MANY_SORT_FIELDS,
	HIST_ERR_INVALID_SORT_FIELD,
	HIST_ERR_INVALID_STR_OPERAND,
	HIST_ERR_EXPECT_NUMBER,
	HIST_ERR_UNARY_MINUS_SUBEXPR,
	HIST_ERR_DIVISION_BY_ZERO,
	HIST_ERR_NEED_NOHC_VAL,
	HIST_ERR_MAX
};
extern const char *const hist_err_text[HIST_ERR_MAX];

/* hist_trigger.c */
extern const struct tf_event_command hist_command;
#define HIST_MAP_SLOTS(nr_cpus) ((nr_cpus) + 16 > TRACING_MAP_SLOTS_MAX ? \
				 TRACING_MAP_SLOTS_MAX : (nr_cpus) + 16)

/* hist_print.c */
void hist_trigger_print(struct tf_trigger *data, struct strbuf *out);

#endif
