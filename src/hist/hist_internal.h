/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_internal.h - the hist engine's own structures, shared by its files:
 * hist_parse.c (attributes, fields, sort keys), hist_field.c (fields,
 * variable references, expressions, values), hist_vars.c (where
 * variables are), hist_actions.c (onmatch/onmax/onchange and their
 * actions), hist_trigger.c (the command, matching, named histograms, the
 * event path), hist_print.c (the hist and hist_debug files, the trigger
 * readback), hist_sym.c (symbols and syscall names).
 *
 * Names follow trace_events_hist.c: hist_data holds fields[] (values
 * first, hitcount at 0, then keys), each a hist_field.
 */
#ifndef TF_HIST_HIST_INTERNAL_H
#define TF_HIST_HIST_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "events/schema.h"
#include "trace/trace_array.h"
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
#define HIST_ACTIONS_MAX	8
#define HIST_PARAMS_MAX		64	/* SYNTH_FIELDS_MAX */
#define HIST_STR_LEN		TRACING_MAP_STR_LEN	/* STR_VAR_LEN_MAX */

/* How a field's value is computed on the event path (hist_fn_call). */
enum hist_fn {
	HIST_FN_NOP,
	HIST_FN_VAR_REF,	/* a variable's value, resolved for this event */
	HIST_FN_COUNTER,	/* hitcount: 1 */
	HIST_FN_NUM,		/* an integer event field */
	HIST_FN_STRING,		/* a string event field (keys: copied) */
	HIST_FN_TIMESTAMP,
	HIST_FN_CPU,
	HIST_FN_COMM,		/* common_comm: the task's comm */
	HIST_FN_EXECNAME,	/* a variable of common_pid.execname */
	HIST_FN_STACK,		/* common_stacktrace: the record's stack */
	HIST_FN_LOG2,		/* operands[0] */
	HIST_FN_BUCKET,		/* operands[0] */
	HIST_FN_CONST,
	HIST_FN_UMINUS,
	HIST_FN_MINUS,
	HIST_FN_PLUS,
	HIST_FN_DIV,
	HIST_FN_MULT,
	HIST_FN_DIV_POWER2,	/* by a constant: the kernel's three ways */
	HIST_FN_DIV_NOT_POWER2,
	HIST_FN_DIV_MULT_SHIFT,
};

#define HIST_DIV_SHIFT	20	/* division by constants (hist_fn_call) */

enum field_op {
	FIELD_OP_NONE,
	FIELD_OP_PLUS,
	FIELD_OP_MINUS,
	FIELD_OP_UNARY_MINUS,
	FIELD_OP_DIV,
	FIELD_OP_MULT,
};

struct hist_data;
struct named_hist;

/*
 * A tree's hist state (tf_tracing.hist, made by tf_hist_init()): the
 * named histograms ("name=foo", shared by the triggers that give the
 * name) and the symbol resolver .sym and stack keys print with.
 */
struct tf_hist_state {
	pthread_mutex_t named_lock;
	struct named_hist *named;
	pthread_mutex_t resolver_lock;
	struct tf_hist_symbols resolver;
	uint64_t next_id;		/* hist_data ids (hist_debug) */
};

/* A variable (HIST_FIELD_FL_VAR) or what a reference points at. */
struct hist_var {
	char *name;
	struct hist_data *hist_data;	/* the histogram that holds it */
	unsigned int idx;		/* in the map's vars[] */
};

struct hist_field {
	unsigned long flags;
	enum hist_fn fn;
	const struct tf_field *field;	/* the event field, or NULL */
	/*
	 * Plain fields: the name they show (hist_field_name); expressions:
	 * their text; references: the referenced variable's name.
	 */
	char *name;
	char *type;			/* for hist_debug and type checks */
	unsigned int size;		/* keys: padded to 8 */
	unsigned int offset;		/* keys: in the compound key */
	bool is_signed;
	unsigned long buckets;
	uint64_t constant;
	uint64_t div_multiplier;	/* HIST_FN_DIV_MULT_SHIFT's divisor */
	struct hist_field *operands[2];
	struct hist_data *hist_data;	/* the histogram it belongs to */
	struct hist_var var;
	enum field_op operator;
	/* references written sys.event.$var (and their aliases) */
	char *system;
	char *event_name;
	char *full_name;		/* "sys.event.$var" / "sys.event.expr" */
	unsigned int var_ref_idx;	/* references: in var_ref_vals[] */
	bool read_once;			/* a reference in an expression */
	unsigned int var_str_idx;	/* string variables: their string */
	/* HIST_FN_NUM: the read (hist_rd()), worked out from @field when
	 * made: where the field ends, 64 less its bits, its sign bit (0
	 * if unsigned) */
	unsigned int rd_end, rd_shift;
	uint64_t rd_sign;
	/*
	 * A reference to a field variable of its own histogram whose value
	 * is a plain field of the record (an action's parameter): the
	 * field, read from the record when the action needs it rather than
	 * stored in the entry and read back; for a string, the entry's
	 * string to copy it into when the record's bytes hold no NUL.
	 */
	const struct hist_field *direct;
	unsigned int direct_str;
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
	char *action_str[HIST_ACTIONS_MAX];
	/* var_defs: the assignments split, while the fields are made */
	unsigned int n_vars;
	char *var_name[TRACING_MAP_VARS_MAX];
	char *var_expr[TRACING_MAP_VARS_MAX];
};

/* A field given to an action, made a variable (field_var). */
struct field_var {
	struct hist_field *var;
	struct hist_field *val;
	bool direct;			/* only read by its own histogram's
					 * references: never stored */
};

/* A histogram made on another event to hold a field an action needs. */
struct field_var_hist {
	struct tf_event_file *file;
	char *cmd;
};

enum handler_id {
	HANDLER_ONMATCH = 1,
	HANDLER_ONMAX,
	HANDLER_ONCHANGE,
};

enum action_id {
	ACTION_SAVE = 1,
	ACTION_TRACE,
	ACTION_SNAPSHOT,
};

struct track_data;
struct tf_synth_event;

/* One handler and its action (the kernel's action_data). */
struct action_data {
	enum handler_id handler;
	enum action_id action;
	char *action_name;
	unsigned int n_params;
	char *params[HIST_PARAMS_MAX];
	/* trace(): where each synthetic field's value is in var_ref_vals */
	unsigned int var_ref_idx[HIST_PARAMS_MAX];
	struct tf_synth_event *synth_event;
	bool use_trace_keyword;
	char *synth_event_name;
	/* onmatch() */
	char *match_event;
	char *match_event_system;
	/* onmax() / onchange() */
	char *var_str;			/* "$var" as written */
	struct hist_field *var_ref;	/* the tracked variable */
	struct hist_field *track_var;	/* __max / __change */
	struct track_data *track;	/* snapshot(): the global best */
};

struct hist_data {
	struct hist_field *fields[HIST_FIELDS_MAX];
	unsigned int n_vals, n_keys, n_fields;
	unsigned int n_vars;		/* variables among the vals */
	unsigned int n_var_str;		/* string variables among them */
	unsigned int key_size;
	struct tracing_map_sort_key sort_keys[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int n_sort_keys;
	struct hist_attrs *attrs;
	unsigned int map_bits;
	struct tracing_map *map;	/* RCU: a clear replaces it */
	unsigned int n_map_vars;	/* the map's vars (tracing_map_add_var) */
	struct tf_event_file *file;
	/* the tree's context: a named histogram outlives the trace array
	 * of @file when others share it, the tree stays */
	struct tf_tracing *tracing;
	bool enable_timestamps;
	bool remove;
	bool need_comm;			/* an execname key: save comms */
	bool key_filled;		/* numeric keys write every key byte */
	/* bytes of the key to zero per event: the key's, or the longest
	 * key of a histogram whose variables it references */
	unsigned int clear_key_size;
	bool simple;			/* one field key, hitcount/field vals */
	unsigned int simple_end;	/* simple: the record size its fields
					 * need */
	unsigned int keys_end;		/* numeric keys in order: the record
					 * size they need (0: other keys) */
	bool deferrable;		/* simple, updates may wait (hist_trigger.c) */
	bool vars_only;			/* numeric keys, variables and sums of
					 * the record alone: no reference, no
					 * action (hist_trigger.c) */
	uint64_t id;			/* hist_debug's "hist_data:" */
	int refs;			/* triggers sharing it (named) */

	struct hist_field *var_refs[TRACING_MAP_VARS_MAX];
	unsigned int n_var_refs;
	/* var_refs[] indices into other histograms and into this one, for
	 * the event path (hist_create_map) */
	unsigned char other_refs[TRACING_MAP_VARS_MAX];
	unsigned char self_refs[TRACING_MAP_VARS_MAX];
	unsigned int n_other_refs, n_self_refs;
	struct action_data *actions[HIST_ACTIONS_MAX];
	unsigned int n_actions;
	struct field_var *field_vars[HIST_PARAMS_MAX];
	unsigned int n_field_vars;
	unsigned int n_field_var_str;
	unsigned int n_direct_field_vars;	/* of them direct */
	struct field_var_hist *field_var_hists[HIST_PARAMS_MAX];
	unsigned int n_field_var_hists;
	struct field_var *save_vars[HIST_PARAMS_MAX];
	unsigned int n_save_vars;
	unsigned int n_save_var_str;
	bool in_hist_vars;		/* on its trace array's hist_vars */
	struct cds_list_head vars_list;	/* there (tr->hist_vars) */
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

/* What the event path computes a field from (hist_fn_call). */
struct hist_ctx {
	const struct tf_record *rec;
	bool ts_usecs;
	struct tracing_map_elt *elt;	/* the entry, once known */
	struct tracing_map *map;	/* the map it is in */
	const uint64_t *var_ref_vals;
};

/* The kernel's HIST_ERR_* list, in its order (C1): enum and text. */
#define HIST_ERRORS \
	C(NONE, "No error") \
	C(DUPLICATE_VAR, "Variable already defined") \
	C(VAR_NOT_UNIQUE, "Variable name not unique, need to use fully qualified name (subsys.event.var) for variable") \
	C(TOO_MANY_VARS, "Too many variables defined") \
	C(MALFORMED_ASSIGNMENT, "Malformed assignment") \
	C(NAMED_MISMATCH, "Named hist trigger doesn't match existing named trigger (includes variables)") \
	C(TRIGGER_EEXIST, "Hist trigger already exists") \
	C(TRIGGER_ENOENT_CLEAR, "Can't clear or continue a nonexistent hist trigger") \
	C(SET_CLOCK_FAIL, "Couldn't set trace_clock") \
	C(BAD_FIELD_MODIFIER, "Invalid field modifier") \
	C(TOO_MANY_SUBEXPR, "Too many subexpressions (3 max)") \
	C(TIMESTAMP_MISMATCH, "Timestamp units in expression don't match") \
	C(TOO_MANY_FIELD_VARS, "Too many field variables defined") \
	C(EVENT_FILE_NOT_FOUND, "Event file not found") \
	C(HIST_NOT_FOUND, "Matching event histogram not found") \
	C(HIST_CREATE_FAIL, "Couldn't create histogram for field") \
	C(SYNTH_VAR_NOT_FOUND, "Couldn't find synthetic variable") \
	C(SYNTH_EVENT_NOT_FOUND, "Couldn't find synthetic event") \
	C(SYNTH_TYPE_MISMATCH, "Param type doesn't match synthetic event field type") \
	C(SYNTH_COUNT_MISMATCH, "Param count doesn't match synthetic event field count") \
	C(FIELD_VAR_PARSE_FAIL, "Couldn't parse field variable") \
	C(VAR_CREATE_FIND_FAIL, "Couldn't create or find variable") \
	C(ONX_NOT_VAR, "For onmax(x) or onchange(x), x must be a variable") \
	C(ONX_VAR_NOT_FOUND, "Couldn't find onmax or onchange variable") \
	C(ONX_VAR_CREATE_FAIL, "Couldn't create onmax or onchange variable") \
	C(FIELD_VAR_CREATE_FAIL, "Couldn't create field variable") \
	C(TOO_MANY_PARAMS, "Too many action params") \
	C(PARAM_NOT_FOUND, "Couldn't find param") \
	C(INVALID_PARAM, "Invalid action param") \
	C(ACTION_NOT_FOUND, "No action found") \
	C(NO_SAVE_PARAMS, "No params found for save()") \
	C(TOO_MANY_SAVE_ACTIONS, "Can't have more than one save() action per hist") \
	C(ACTION_MISMATCH, "Handler doesn't support action") \
	C(NO_CLOSING_PAREN, "No closing paren found") \
	C(SUBSYS_NOT_FOUND, "Missing subsystem") \
	C(INVALID_SUBSYS_EVENT, "Invalid subsystem or event name") \
	C(INVALID_REF_KEY, "Using variable references in keys not supported") \
	C(VAR_NOT_FOUND, "Couldn't find variable") \
	C(FIELD_NOT_FOUND, "Couldn't find field") \
	C(EMPTY_ASSIGNMENT, "Empty assignment") \
	C(INVALID_SORT_MODIFIER, "Invalid sort modifier") \
	C(EMPTY_SORT_FIELD, "Empty sort field") \
	C(TOO_MANY_SORT_FIELDS, "Too many sort fields (Max = 2)") \
	C(INVALID_SORT_FIELD, "Sort field must be a key or a val") \
	C(INVALID_STR_OPERAND, "String type can not be an operand in expression") \
	C(EXPECT_NUMBER, "Expecting numeric literal") \
	C(UNARY_MINUS_SUBEXPR, "Unary minus not supported in sub-expressions") \
	C(DIVISION_BY_ZERO, "Division by zero") \
	C(NEED_NOHC_VAL, "Non-hitcount value is required for 'nohitcount'")

#define C(a, b) HIST_ERR_##a,
enum { HIST_ERRORS HIST_ERR_MAX };
#undef C
extern const char *const hist_err_text[HIST_ERR_MAX];

/* hist_field.c: fields, references, expressions, values */
int hist_kstrtoull(const char *s, unsigned long long *res);
struct hist_field *create_hist_field(struct hist_data *hd,
				     const struct tf_field *field,
				     unsigned long flags, const char *name,
				     const char *var_name);
void destroy_hist_field(struct hist_field *f);
void destroy_var_ref(struct hist_field *f);
const char *hist_field_name(const struct hist_field *f);
const char *hist_field_flags_str(const struct hist_field *f);
bool hist_is_stack_field(const struct tf_field *f);
bool is_var_ref(const char *s);
int find_var_ref_idx(struct hist_data *hd, const struct hist_field *var);
struct hist_field *create_var_ref(struct hist_data *hd,
				  const struct hist_field *var,
				  const char *system, const char *event_name);
int hist_contains_operator(char *str, char **sep);
void hist_expr_field_str(struct strbuf *sb, const struct hist_field *f);
struct hist_field *parse_atom(struct parse_state *ps, char *str,
			      unsigned long *flags, const char *var_name,
			      int *errp);
struct hist_field *parse_expr(struct parse_state *ps, char *str,
			      unsigned long flags, const char *var_name,
			      unsigned int *n_subexprs, int *errp);
uint64_t hist_fn_call(const struct hist_ctx *cx, const struct hist_field *f);

/* The kernel's ns2usecs(): rounded to the nearest microsecond. */
static inline uint64_t hist_ns2usecs(uint64_t ns)
{
	return (ns + 500) / 1000;
}

/* Sets @f's read of @field, an integer of 1, 2, 4 or 8 bytes. */
void hist_rd_init(struct hist_field *f, const struct tf_field *field);

/*
 * A numeric field's value in @data (rd_end bytes at least): the word
 * that ends where the field ends, shifted down to the field's bytes
 * (little-endian), sign-extended by its sign bit's mask: no branch on
 * size or signedness.  A field that ends in the first word (a common
 * field but common_pid) is read byte by byte.
 */
static inline __attribute__((always_inline)) uint64_t
hist_rd(const struct hist_field *f, const uint8_t *data)
{
	uint64_t w = 0;

	if (__builtin_expect(f->rd_end >= 8, 1))
		__builtin_memcpy(&w, data + f->rd_end - 8, 8);
	else
		for (unsigned int i = 0; i < f->rd_end; i++)
			w |= (uint64_t)data[i] << (8 * (8 - f->rd_end + i));
	w >>= f->rd_shift;
	return (w ^ f->rd_sign) - f->rd_sign;
}

/*
 * The event path's leaves, inline: a variable reference, the timestamp,
 * a numeric field, a constant, hitcount; false for anything else (and
 * for a field the record is too short for), which hist_fn_call() does.
 */
static inline __attribute__((always_inline)) bool
hist_leaf(const struct hist_ctx *cx, const struct hist_field *f, uint64_t *v)
{
	const struct tf_record *rec = cx->rec;

	/* tested in the order they are met: keys, hitcount, latencies */
	if (f->fn == HIST_FN_NUM) {
		if (!rec || f->rd_end > rec->size)
			return false;
		*v = hist_rd(f, rec->data);
		return true;
	}
	if (f->fn == HIST_FN_COUNTER) {
		*v = 1;
		return true;
	}
	if (f->fn == HIST_FN_VAR_REF) {
		if (!cx->var_ref_vals)
			return false;
		*v = cx->var_ref_vals[f->var_ref_idx];
		return true;
	}
	if (f->fn == HIST_FN_TIMESTAMP) {
		if (!rec)
			return false;
		*v = cx->ts_usecs ? hist_ns2usecs(rec->ts) : rec->ts;
		return true;
	}
	if (f->fn == HIST_FN_CONST) {
		*v = f->constant;
		return true;
	}
	return false;
}

/* hist_fn_call() with its commonest shapes inline: a leaf, and a
 * difference of two leaves (a latency: common_timestamp - $ts0). */
static inline __attribute__((always_inline)) uint64_t
hist_eval(const struct hist_ctx *cx, const struct hist_field *f)
{
	uint64_t a, b;

	if (hist_leaf(cx, f, &a))
		return a;
	if (f->fn == HIST_FN_MINUS && hist_leaf(cx, f->operands[0], &a) &&
	    hist_leaf(cx, f->operands[1], &b))
		return a - b;
	return hist_fn_call(cx, f);
}

/* hist_vars.c: where variables are */
struct hist_field *find_var_field(struct hist_data *hd, const char *var_name);
struct hist_field *find_var(struct hist_data *hd, struct tf_event_file *file,
			    const char *var_name);
struct tf_event_file *hist_event_file(struct tf_trace_array *tr,
				      const char *system, const char *event);
struct hist_field *find_event_var(struct hist_err_ctx *ec,
				  struct hist_data *hd, const char *system,
				  const char *event, const char *var_name);
struct hist_field *find_target_event_var(struct hist_data *hd,
					 const char *system, const char *event,
					 const char *var_name);
bool hist_field_has_vars(const struct hist_field *f);
bool has_hist_vars(const struct hist_data *hd);
void save_hist_vars(struct hist_data *hd);
void remove_hist_vars(struct hist_data *hd);
bool check_var_refs(struct hist_data *hd);
bool hist_file_check_refs(struct tf_event_file *file);

/* hist_actions.c: handlers and actions */
int parse_actions(struct hist_err_ctx *ec, struct hist_data *hd);
int create_actions(struct hist_err_ctx *ec, struct hist_data *hd);
void destroy_actions(struct hist_data *hd);
void destroy_field_vars(struct hist_data *hd);
void unregister_field_var_hists(struct hist_data *hd);
void destroy_field_var_hists(struct hist_data *hd);
bool actions_match(const struct hist_data *hd, const struct hist_data *test);
void print_actions_spec(struct strbuf *out, const struct hist_data *hd);
void print_actions(struct strbuf *out, const struct hist_data *hd,
		   struct tracing_map_elt *elt);
void track_data_snapshot_print(struct strbuf *out, const struct hist_data *hd);
bool hist_field_vars_debug(struct strbuf *out, const struct hist_data *hd);
void hist_actions_debug(struct strbuf *out, const struct hist_data *hd);
void mark_direct_field_vars(struct hist_data *hd);
void update_field_vars(const struct hist_ctx *cx, struct hist_data *hd,
		       struct tracing_map_elt *elt);
void hist_trigger_actions(const struct hist_ctx *cx, struct hist_data *hd,
			  struct tracing_map_elt *elt, const void *key,
			  const uint64_t *vals);

/* hist_parse.c: attributes, fields, sort keys, the map */
int hist_parse_attrs(struct hist_err_ctx *ec, char *trigger_str,
		     struct hist_attrs **out);
void hist_attrs_free(struct hist_attrs *attrs);
int hist_create_data(struct hist_err_ctx *ec, struct hist_attrs *attrs,
		     struct tf_event_file *file, bool remove,
		     struct hist_data **out);
int hist_create_map(struct hist_data *hd);

/* The bytes an entry keeps for @f's string (or stack) value, 0 if none:
 * inline, the event path asks on every copy. */
static inline unsigned int hist_str_size(const struct hist_field *f)
{
	unsigned int n;

	if (f->flags & HIST_FIELD_FL_STACKTRACE)
		return (HIST_STACKTRACE_DEPTH + 1) * 8;
	if (!(f->flags & HIST_FIELD_FL_STRING))
		return 0;
	if (f->flags & HIST_FIELD_FL_EXECNAME)
		return HIST_COMM_LEN;
	n = f->size < HIST_STR_LEN ? f->size : HIST_STR_LEN;
	return n ? n : 1;
}
void hist_data_free(struct hist_data *hd);
void hist_err(struct hist_err_ctx *ec, int err_type, unsigned int pos);
unsigned int hist_errpos(struct hist_err_ctx *ec, const char *str);

/* hist_trigger.c: the command and the event path */
extern const struct tf_event_command hist_command;
int hist_parse_cmd(struct hist_err_ctx *outer, struct tf_event_file *file,
		   const char *glob, const char *param_and_filter);
void hist_copy_str(char *dst, const struct hist_field *f,
		   const struct tf_record *rec, uint64_t v);
void hist_copy_stack(char *dst, const struct tf_record *rec);
#define HIST_MAP_SLOTS(nr_cpus) ((nr_cpus) + 16 > TRACING_MAP_SLOTS_MAX ? \
				 TRACING_MAP_SLOTS_MAX : (nr_cpus) + 16)

/* hist_print.c: read-back, the hist file, hist_debug */
void hist_trigger_print(struct tf_trigger *data, struct strbuf *out);
void hist_print_key(struct strbuf *out, const struct hist_data *hd,
		    const void *key, const char *comm);
void hist_debug_flags(struct strbuf *out, unsigned long flags);
const char *hist_debug_generic_name(const struct hist_field *f);
bool hist_debug_field(struct strbuf *out, const struct hist_field *f,
		      unsigned long need);

#endif
