/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trigger.h - event triggers: the commands written to an event's
 * `trigger` file and the per-event, RCU-protected list they live on.
 *
 * Shaped like the kernel's trace_events_trigger.c: a table of commands
 * (struct tf_event_command, the kernel's event_command) parses what is
 * written; each registered trigger (struct tf_trigger, the kernel's
 * event_trigger_data) sits on its event file's list with its ops
 * (struct tf_trigger_ops, event_trigger_ops).  The event path walks the
 * list under rcu_read_lock, without locks or allocation; the control
 * path (under tracing->lock) adds and removes entries with the RCU list
 * primitives and frees removed ones after a grace period.
 */
#ifndef TF_TRIGGER_TRIGGER_H
#define TF_TRIGGER_TRIGGER_H

#include <stdbool.h>

#include <urcu/list.h>
#include <urcu/rculist.h>

#include "util/rcu.h"

#include "filter/filter.h"
#include "trace/trace_array.h"
#include "util/strbuf.h"

struct tf_filter;
struct tf_trigger;

struct tf_trigger_ops {
	/* Fires on a record that passed the trigger's filter and count. */
	void (*func)(struct tf_trigger *data, const struct tf_record *rec);
	/* The trigger file's line for this trigger, with its newline. */
	void (*print)(struct tf_trigger *data, struct strbuf *out);
	/*
	 * Called when registered (init) and after unregistering (free).
	 * free runs under tracing->lock once no event-path reader can see
	 * @data any more (after a grace period): it undoes what init and
	 * the command's parse did and frees private_data.  The core frees
	 * data, its filter and filter_str afterwards.
	 */
	int (*init)(struct tf_trigger *data);
	void (*free)(struct tf_trigger *data);
	/*
	 * Optional, for triggers whose func misses the cache (a large hist
	 * map): fetches the memory func will touch for @rec, touching
	 * nothing else.  tf_dispatch_locked_n() calls it some records
	 * ahead of func so that the misses of consecutive events overlap.
	 * Only called while the trigger's `prefetch` is set.
	 */
	void (*prefetch)(struct tf_trigger *data, const struct tf_record *rec);
};

struct tf_trigger {
	struct cds_list_head list;	/* on tf_event_file.triggers (RCU) */
	const struct tf_event_command *cmd;
	const struct tf_trigger_ops *ops;
	struct tf_event_file *file;
	struct tf_filter *filter;	/* NULL: fires on every record */
	char *filter_str;
	long count;			/* -1: unlimited; atomic updates */
	bool paused;			/* enable_hist/disable_hist; atomic */
	bool prefetch;			/* call ops->prefetch (set by init) */
	bool generates;			/* func may dispatch records (set by
					 * init): synthetic events */
	void *private_data;
	struct rcu_head rcu;
};

/* A trigger command: the kernel's event_command. */
struct tf_event_command {
	const char *name;
	unsigned flags;		/* TF_CMD_* */
	/*
	 * The kernel's trigger_type (TF_ETT_*): one trigger of a type per
	 * event (per target for enable/disable ones), and `!` removes the
	 * trigger of the same type (`!traceoff` removes `traceon`).
	 */
	unsigned trigger_type;
	/*
	 * Parses one write, as the kernel's event_command.parse: @glob is
	 * the command name with its `!` (if any), @cmd_str the name
	 * without it, @param_and_filter what follows the name and its
	 * separator (one of ": \t"), white space skipped, or NULL.  How
	 * param and ` if ` filter split is the command's business (hist
	 * splits differently from the others; the plain commands use
	 * tf_trigger_separate_filter).  The strings are writable scratch.
	 * Returns 0 or a negative errno, logging to error_log where the
	 * kernel does.
	 */
	int (*parse)(const struct tf_event_command *cmd,
		     struct tf_event_file *file, char *glob,
		     char *cmd_str, char *param_and_filter);
	/* `>` on the trigger file: drop every trigger of this command. */
	void (*unreg_all)(struct tf_event_file *file);
};

enum {
	TF_CMD_POST_TRIGGER = 1u << 0,	/* fires after the record is kept */
	TF_CMD_NEEDS_REC = 1u << 1,
	TF_CMD_ADD_TAIL = 1u << 2,	/* tf_trigger_register appends (hist) */
};

/* The kernel's enum event_trigger_type. */
enum {
	TF_ETT_NONE = 0,
	TF_ETT_TRACE_ONOFF = 1u << 0,
	TF_ETT_SNAPSHOT = 1u << 1,
	TF_ETT_STACKTRACE = 1u << 2,
	TF_ETT_EVENT_ENABLE = 1u << 3,
	TF_ETT_EVENT_HIST = 1u << 4,	/* "hist": set this in its command */
	TF_ETT_HIST_ENABLE = 1u << 5,
};

/*
 * EVENT_FILE_FL_TRIGGER_COND: some trigger of the event has a filter or
 * is a post-trigger or needs the record, so the triggers run with the
 * record (after it is built) instead of unconditionally.  Maintained
 * here on tf_event_file.flags, above trace_array.h's TF_FILE_* bits.
 */
#define TF_FILE_TRIGGER_COND	(1u << 16)
/* Some trigger of the event wants its records prefetched (ops->prefetch);
 * tf_tracing.nr_prefetch counts the files with this bit. */
#define TF_FILE_TRIGGER_PREFETCH	(1u << 17)
/* Some trigger of the event generates records (a hist action tracing a
 * synthetic event): the event path brackets its triggers with
 * tf_reserve_begin/end, so that what they generate lands after it. */
#define TF_FILE_TRIGGER_GENERATES	(1u << 18)

/*
 * Registers a command in @t's table (hist registers itself this way, at
 * start; takes t->lock), -ENOSPC past TF_MAX_EXTRA_COMMANDS.  The built-in
 * commands are always present; the `# Available triggers:` list shows
 * them and then the registered ones in registration order.  -EBUSY if
 * the name is taken.
 */
int tf_trigger_register_command(struct tf_tracing *t,
				const struct tf_event_command *cmd);
const struct tf_event_command *tf_trigger_find_command(struct tf_tracing *t,
						       const char *name);

/*
 * The trigger file: one write is one command.  Returns @len or a
 * negative errno.  Caller holds tracing->lock (and is not inside an
 * RCU read-side section: removals wait for a grace period).
 */
long tf_trigger_write(struct tf_event_file *file, const char *buf,
		      size_t len);
/* `>` (O_TRUNC) on the trigger file. */
void tf_trigger_truncate(struct tf_event_file *file);
void tf_trigger_show(struct tf_event_file *file, struct strbuf *out);

/*
 * The event path: runs @file's triggers on @rec (each checks its filter,
 * count and pause state).  Post-triggers (traceoff, stacktrace) are only
 * noted: the return value is the mask of their TF_ETT_* types, for
 * tf_triggers_post_call() once the record is written.  @rec == NULL is
 * the kernel's unconditional call (no TRIGGER_COND): every unpaused
 * trigger fires, filters and post-ness ignored.  Callers hold
 * tf_rcu_read_lock().  See src/dispatch/dispatch.c for the order.
 */
static inline __attribute__((always_inline)) unsigned
tf_triggers_call(struct tf_event_file *file, const struct tf_record *rec)
{
	struct tf_trigger *data;
	unsigned tt = 0;

	cds_list_for_each_entry_rcu(data, &file->triggers, list) {
		if (__atomic_load_n(&data->paused, __ATOMIC_RELAXED))
			continue;
		if (!rec) {
			data->ops->func(data, NULL);
			continue;
		}
		if (data->filter && !tf_filter_match(data->filter, rec))
			continue;
		if (data->cmd->flags & TF_CMD_POST_TRIGGER) {
			tt |= data->cmd->trigger_type;
			continue;
		}
		data->ops->func(data, rec);
	}
	return tt;
}

void tf_triggers_post_call(struct tf_event_file *file, unsigned tt,
			   const struct tf_record *rec);
/* Calls the prefetch op of @file's triggers that want it, for @rec
 * (filters, counts and pause not checked: a prefetch changes nothing). */
void tf_triggers_prefetch(struct tf_event_file *file,
			  const struct tf_record *rec);
/* How many of @file's triggers want prefetching; *@first is the first. */
unsigned tf_triggers_prefetchers(struct tf_event_file *file,
				 struct tf_trigger **first);

/*
 * Work put off within a batch of records.  Between
 * tf_triggers_batch_begin() and tf_triggers_batch_end() (the event
 * path's batches: tf_dispatch_locked_n), a trigger whose effect nothing
 * on the event path reads back (a plain histogram's update) may ask
 * tf_trigger_defer() for a place, fill in @apply and up to
 * TF_DEFERRED_WORDS words of its own, and fetch what @apply will touch:
 * the work is applied, in order and on the same thread, TF_DEFERRED_MAX
 * deferrals later or at the batch's end, so that its cache misses
 * overlap the following records' work.  Everything @data names must
 * stay valid until then (the batch's read-side section keeps triggers
 * and maps).  tf_trigger_defer() returns NULL outside a batch: do the
 * work at once.  A batch begun inside another is part of it.
 */
#define TF_DEFERRED_MAX		8
#define TF_DEFERRED_WORDS	8

struct tf_deferred {
	void (*apply)(struct tf_deferred *d);
	uint64_t data[TF_DEFERRED_WORDS];
};

void tf_triggers_batch_begin(void);
void tf_triggers_batch_end(void);
struct tf_deferred *tf_trigger_defer(void);

/* Registration helpers for commands (used by hist too). */

/* The kernel's event_trigger_separate_filter(): "[param] [if filter]";
 * an optional param must start with a digit. */
int tf_trigger_separate_filter(char *param_and_filter, char **param,
			       char **filter, bool param_required);
/* event_trigger_parse_num(): "N[:...]" (kstrtoul base 0) -> count. */
int tf_trigger_parse_num(char *param, struct tf_trigger *data);
/* The kernel's kstrtoul(s, 0, res): -EINVAL, -ERANGE or 0. */
int tf_trigger_kstrtoul(const char *s, unsigned long *res);
/* Uses one firing of a count; false when it is used up. */
bool tf_trigger_take_count(struct tf_trigger *data);

/* Allocates a trigger of @cmd with @ops (count -1, no filter). */
struct tf_trigger *tf_trigger_alloc(const struct tf_event_command *cmd,
				    const struct tf_trigger_ops *ops,
				    struct tf_event_file *file,
				    void *private_data);
/* Frees a trigger that was never registered (filter and strings too). */
void tf_trigger_free_unregistered(struct tf_trigger *data);
/*
 * Compiles `if FILTER` for @data on @file's event, as the kernel's
 * set_trigger_filter(): @filter_part is the text starting at "if" (or
 * NULL: no filter).  A bad filter logs to @file's error_log like an
 * event filter ("event filter parse error") and returns its errno.
 */
int tf_trigger_set_filter(struct tf_trigger *data, struct tf_event_file *file,
			  const char *filter_part);
/*
 * The kernel's register_trigger(): -EEXIST if a trigger of the same
 * type is there (unless cmd->trigger_type is TF_ETT_NONE or
 * TF_ETT_EVENT_HIST, whose commands check duplicates themselves); runs
 * ops->init; adds @data at the head (at the tail with TF_CMD_ADD_TAIL);
 * the first trigger puts the event in soft/trigger mode.
 */
int tf_trigger_register(struct tf_event_file *file, struct tf_trigger *data);
/*
 * Takes @data off the list (the last trigger restores the event's
 * mode), waits for the event path, calls ops->free and frees @data.
 */
void tf_trigger_unregister(struct tf_event_file *file,
			   struct tf_trigger *data);
/* Same, without the grace period: the caller synchronizes, then calls
 * tf_trigger_release(). For batch removals. */
void tf_trigger_unlink(struct tf_event_file *file, struct tf_trigger *data);
void tf_trigger_release(struct tf_trigger *data);

/* Recomputes TF_FILE_TRIGGER_COND and TF_FILE_TRIGGER_PREFETCH for @file
 * (after a filter change, an addition or a removal). */
void tf_trigger_update_cond(struct tf_event_file *file);

/* The common read-back line: "<name>:unlimited|:count=N[ if F]\n". */
void tf_trigger_print_common(struct tf_trigger *data, const char *name,
			     struct strbuf *out);

/*
 * Calls @fn on each trigger of @file whose command is named @cmd_name
 * (NULL: every trigger), under the control lock.  Stops when @fn
 * returns non-zero and returns that.
 */
int tf_trigger_for_each(struct tf_event_file *file, const char *cmd_name,
			int (*fn)(struct tf_trigger *data, void *arg),
			void *arg);
/* Pauses/unpauses every hist trigger of @file (enable_hist/disable_hist). */
void tf_trigger_set_hist_paused(struct tf_event_file *file, bool paused);

/* Removes every trigger of every event of @tr (instance removal; the
 * kernel's clear_event_triggers()).  Caller holds tracing->lock. */
void tf_trigger_clear_all(struct tf_trace_array *tr);

/*
 * Snapshots (the snapshot trigger; hist's snapshot() action may use
 * them too).  arm allocates tr->snapshot if needed (the kernel's
 * tracing_arm_snapshot); `echo 0 > snapshot` may still free it (6.12
 * does).  take swaps the main buffer with the snapshot buffer, like
 * `echo 1 > snapshot`; @rec (may be NULL) is the triggering record.
 */
int tf_trigger_snapshot_arm(struct tf_trace_array *tr);
void tf_trigger_snapshot_disarm(struct tf_trace_array *tr);
bool tf_trigger_snapshot_armed(struct tf_trace_array *tr);
void tf_trigger_snapshot_take(struct tf_trace_array *tr,
			      const struct tf_record *rec);

/*
 * The kernel reserves a record's slot in the trace buffer before the
 * conditional triggers run and commits it after; a snapshot trigger that
 * swaps the buffers in between moves the slot into the snapshot buffer
 * (the oracle shows the triggering record in `snapshot`).  The event path
 * notes tf_trigger_snapshot_swaps (per thread) before the triggers and
 * writes the record where tf_trigger_reserved_buffer() says.  Only its
 * parity across one record's triggers matters, so one counter per
 * thread serves every tree.
 */
extern __thread unsigned tf_trigger_snapshot_swaps;

static inline struct tf_ring_buffer *
tf_trigger_reserved_buffer(struct tf_trace_array *tr, unsigned swaps_before)
{
	struct tf_ring_buffer *snap = rcu_dereference(tr->snapshot);

	if (((tf_trigger_snapshot_swaps - swaps_before) & 1) && snap)
		return snap;
	return tr->buffer;
}

/*
 * The conditional snapshot (tracing_snapshot_cond_enable()): one per
 * trace array, armed like a snapshot trigger; @update decides under the
 * trace array's snapshot lock whether a snapshot happens, given
 * @cond_data and what the taker passes (NULL from `echo 1 > snapshot`
 * and the snapshot trigger).  While it exists, writes to `snapshot`
 * fail with EBUSY.  enable: -EBUSY if one exists.
 */
typedef bool (*tf_cond_update_fn)(void *cond_data, void *ctx);
int tf_trigger_snapshot_cond_enable(struct tf_trace_array *tr, void *cond_data,
				    tf_cond_update_fn update);
/* Removes it (waits for the event path); returns its cond_data. */
void *tf_trigger_snapshot_cond_disable(struct tf_trace_array *tr);
void *tf_trigger_snapshot_cond_data(struct tf_trace_array *tr);
/* The event path: a snapshot if @update agrees (update_max_tr()). */
void tf_trigger_snapshot_cond(struct tf_trace_array *tr, void *ctx,
			      const struct tf_record *rec);

/* The print entries a snapshot without buffer writes name this function. */
#define TF_SNAPSHOT_IP 0xffffffff81000100ull
#define TF_SNAPSHOT_FUNC "tracing_snapshot_instance_cond"
/* Once at start, after the registry is loaded: registers that symbol. */
void tf_trigger_init(struct tf_registry *reg);

#endif
