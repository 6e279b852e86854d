/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_array.h - a trace array (the top-level tracing directory or an
 * instance) and its per-event state, the kernel's trace_event_file.
 *
 * Every piece of per-event state (enable flags, soft-mode count, filter,
 * triggers, hists) belongs to one trace array.  Control writes serialise
 * on tf_tracing.lock; the event path reads flags and RCU-published
 * pointers without locks.
 */
#ifndef TF_TRACE_TRACE_ARRAY_H
#define TF_TRACE_TRACE_ARRAY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <urcu/list.h>

#include "buffer/saved_cmdlines.h"
#include "buffer/saved_tgids.h"
#include "buffer/trace_clock.h"
#include "buffer/trace_output.h"
#include "events/registry.h"
#include "filter/filter.h"
#include "util/error_log.h"
#include "util/rcu.h"

struct tf_ring_buffer;
struct tf_synth_state;
struct tf_hist_state;
struct tf_sources;
struct tf_filter;
struct tf_cond_snapshot;
struct tf_event_command;

/* Trigger commands a tree registers besides the built-in ones. */
#define TF_MAX_EXTRA_COMMANDS 8

/* Numbers kept for files of features tracefuse has idle. */
enum tf_knob {
	TF_KNOB_TRACING_THRESH,
	TF_KNOB_MAX_LATENCY,
	TF_KNOB_MAX_GRAPH_DEPTH,
	TF_KNOB_STACK_MAX_SIZE,
	TF_KNOB_MAX,
};

/* The kernel's EVENT_FILE_FL_* bits that matter to a reader of tracefs. */
enum {
	TF_FILE_ENABLED		= 1u << 0,	/* tracepoint is hooked */
	TF_FILE_SOFT_MODE	= 1u << 1,	/* enabled for triggers only */
	TF_FILE_SOFT_DISABLED	= 1u << 2,	/* hooked but not recorded */
	TF_FILE_TRIGGER_MODE	= 1u << 3,	/* has triggers */
	TF_FILE_FILTERED	= 1u << 4,
	TF_FILE_PID_FILTER	= 1u << 5,
	/* has been enabled (soft mode included) since it was made: its
	 * removal resets the trace array's buffers (the kernel's
	 * EVENT_FILE_FL_WAS_ENABLED and tr->clear_trace) */
	TF_FILE_WAS_ENABLED	= 1u << 6,
};

struct tf_event_file {
	/* NULL while the index is vacant (a removed synthetic event's);
	 * set before the event is published, cleared after a grace
	 * period once it is removed */
	struct tf_event *event;
	struct tf_trace_array *tr;
	atomic_uint flags;
	int sm_ref;			/* soft-mode users (triggers) */
	/* enable_event/disable_event triggers that target this file: while
	 * there are none, a soft-disabled record stays unrecorded through
	 * its own triggers (tracing->lock writes, the event path reads) */
	atomic_int toggles;
	char *filter_text;		/* what the filter file shows */
	struct tf_filter *filter;	/* compiled filter, RCU */
	struct cds_list_head triggers;	/* RCU list of triggers */
};

/*
 * A sorted set of pids, replaced whole under RCU (set_event_pid): by
 * control writes, and with event-fork by the event path (forks and
 * frees of listed tasks), both under the trace array's pid_lock.
 */
struct tf_pid_list {
	struct rcu_head rcu;
	unsigned nr;
	int pids[];
};

/*
 * The scheduler events the kernel's pid filtering treats apart, and
 * their fields (NULL where the tree lacks them): sched_switch is kept
 * when the previous or the next task passes, a wakeup when the waking
 * or the woken one does; with event-fork, a fork adds the child of a
 * listed parent and sched_process_free takes the task out.
 */
struct tf_sched_events {
	const struct tf_event *sched_switch, *fork, *free;
	const struct tf_event *wakeup[3];	/* _wakeup, _wakeup_new, _waking */
	const struct tf_field *prev_pid, *next_pid;
	const struct tf_field *woken_pid[3];
	const struct tf_field *parent_pid, *child_pid, *free_pid;
};

struct tf_trace_array {
	char *name;			/* NULL for the top level */
	unsigned id;			/* 0 for the top level; inode space */
	struct tf_tracing *tracing;
	/*
	 * One file per registry event, by index (tf_tr_file): chunks of
	 * TF_CHUNK that never move, so that events added at run time
	 * (tf_tracing_add_event) leave every file where triggers, open
	 * files and the event path have it.
	 */
	struct tf_event_file *file_chunks[TF_NR_CHUNKS];
	/* registry events when it was made, and the order number the
	 * next one took: those made later are listed first
	 * (tf_tr_list_first) */
	unsigned nr_events_made;
	uint64_t seq_made;
	/* an event enabled here was removed: the next
	 * tf_tracing_reset_cleared() empties the buffers (the kernel's
	 * clear_trace); control lock */
	bool clear_trace;
	struct tf_error_log error_log;
	/* RCU; NULL = no pid filtering; indexed by enum tf_pid_kind */
	struct tf_pid_list *pids[4];
	pthread_mutex_t pid_lock;	/* writers of pids[] */
	atomic_int tracing_on;
	atomic_int open_refs;		/* open files: rmdir gets EBUSY */
	unsigned buffer_size_kb;
	unsigned buffer_percent;	/* kept: readers here never wait */
	/* numbers of idle features that the kernel keeps as written */
	unsigned long knobs[TF_KNOB_MAX];
	uint64_t *cpumask;		/* tracing_cpumask, kept: nr_cpus bits */
	bool buffer_expanded;
	_Atomic int clock_id;		/* enum tf_clock_id (trace_clock.h) */
	/* tf_trace_clocks[clock_id].in_ns, read once per record: the
	 * sources' clock, whose times the records carry already */
	atomic_bool clock_in_ns;
	/* the clock's value at the last reset: latency times count from it */
	_Atomic uint64_t time_start;
	uint64_t options;		/* trace_options bits, files_options.c */
	atomic_uint trace_flags;	/* TF_TRACE_* */
	struct tf_ring_buffer *buffer;
	struct tf_ring_buffer *snapshot;
	/* per CPU: an open trace_pipe reads it (tracing->lock) */
	unsigned char *pipe_cpus;
	/*
	 * Histograms of this trace array that define or reference
	 * variables (the kernel's tr->hist_vars; owned by src/hist): while
	 * any exist the instance cannot be removed.
	 */
	struct cds_list_head hist_vars;
	/*
	 * The conditional snapshot an onmax()/onchange() snapshot() action
	 * takes (tracing_snapshot_cond_enable; owned by src/trigger), RCU.
	 */
	struct tf_cond_snapshot *cond_snapshot;
	/* snapshot triggers armed here: while any exist the snapshot
	 * buffer stays (owned by src/trigger; control lock) */
	unsigned snapshot_armed;
	char **system_filter_text;	/* per system: after the banner */
	unsigned nr_system_filter_text;	/* its length (systems grow) */
	struct cds_list_head list;	/* in tf_tracing.instances */
};

struct tf_tracing {
	pthread_mutex_t lock;		/* serialises every control write */
	struct tf_registry *reg;
	struct tf_trace_array *top;
	struct cds_list_head instances;	/* RCU list, top level first */
	unsigned next_instance_id;
	int nr_cpus;
	/*
	 * Enabled event files in all trace arrays: while any exist, the
	 * kernel records task comms (saved_cmdlines) for the trace output.
	 */
	atomic_int nr_enabled;
	atomic_bool cmdlines_recorded;	/* nr_enabled was ever > 0 */
	/*
	 * The kernel saves tgids at context switches while an event is
	 * enabled and some trace array has record-tgid: then the sources
	 * save the tgids they know (tf_record.tgid).
	 */
	atomic_bool tgids_recorded;
	/* saved_cmdlines and saved_tgids: the comms and tgids `trace`
	 * prints from, one table each for the whole tree */
	struct tf_saved_cmdlines cmdlines;
	struct tf_saved_tgids tgids;
	/* the counter trace clock's count, shared by the tree's trace
	 * arrays as the kernel's is by all of its */
	atomic_uint_fast64_t trace_counter;
	/* Event files whose triggers want records prefetched
	 * (TF_FILE_TRIGGER_PREFETCH, see tf_dispatch_locked_n()). */
	atomic_int nr_prefetch;
	/*
	 * The synthetic events of this context (src/synth), made on first
	 * use and freed by tf_tracing_destroy() through synth_destroy.
	 */
	struct tf_synth_state *synth;
	void (*synth_destroy)(struct tf_tracing *t);
	/* src/hist's state (named histograms, the symbol resolver), made
	 * by tf_hist_init() and freed through hist_destroy */
	struct tf_hist_state *hist;
	void (*hist_destroy)(struct tf_tracing *t);
	/*
	 * Told, under the lock, that event @name of @sys was removed (and
	 * whether @sys has no event left), after readers stopped seeing
	 * it: the filesystem drops what the kernel's caches keep of it.
	 * NULL when no one listens.
	 */
	void (*event_removed)(struct tf_tracing *t, const struct tf_system *sys,
			      const char *name, bool system_gone);
	/*
	 * The trigger commands registered besides src/trigger's built-in
	 * ones (src/hist's "hist", by tf_hist_init()), in order: slots
	 * written under the lock before the count that shows them.
	 */
	const struct tf_event_command *extra_cmds[TF_MAX_EXTRA_COMMANDS];
	atomic_uint nr_extra_cmds;
	/*
	 * The sources feeding this tree (src/source, set when they start;
	 * NULL for none): files sync with them before control operations
	 * and drain them before reads (read-your-events).
	 */
	struct tf_sources *sources;
	/*
	 * Called, with the lock held, whenever an event file's
	 * TF_FILE_ENABLED bit, its filter or its triggers change (after the
	 * change), with @event_enabled_data: the live kernel source enables
	 * on the host what the tree needs, and pushes filters down to it
	 * where it can.  NULL when no one listens (set under the lock).
	 */
	void (*event_enabled_hook)(struct tf_event_file *file, void *data);
	void *event_enabled_data;
	/*
	 * Removes every trigger of a trace array that goes (the kernel's
	 * clear_event_triggers()): set by src/trigger when the tree gets its
	 * first trigger, under the lock; NULL while it has had none.
	 */
	void (*triggers_clear)(struct tf_trace_array *tr);
	/* what filters compile with: .function's symbols (none until
	 * tf_tracing_use_ksyms()) and CPUS{}'s nr_cpu_ids (0: the host's) */
	struct tf_filter_env filter_env;
	/* trace arrays with options/event-fork set */
	atomic_int nr_event_fork;
	struct tf_sched_events sched;
};

/* The event file of index @index (< reg->nr_events) in @tr; its event
 * is NULL while the index is vacant. */
static inline struct tf_event_file *tf_tr_file(const struct tf_trace_array *tr,
					       unsigned index)
{
	return &tr->file_chunks[index >> TF_CHUNK_SHIFT]
			       [index & (TF_CHUNK - 1)];
}

/*
 * @tr's event list, the kernel's tr->events that available_events (top
 * level) and set_event print: an event made after the trace array
 * (a module's, a synthetic one) is added at the head of every trace
 * array's list, so those come first, newest first; then those it was
 * made with, oldest first (an instance built later takes the whole
 * list in order).  Control lock; first returns NULL for none, next
 * NULL after the last.
 */
struct tf_event *tf_tr_list_first(const struct tf_trace_array *tr);
struct tf_event *tf_tr_list_next(const struct tf_trace_array *tr,
				 const struct tf_event *ev);

/* @tr's trace clock @clock_id now (the counter clock counts the call). */
static inline uint64_t tf_tr_clock_now(const struct tf_trace_array *tr,
				       int clock_id)
{
	return tf_trace_clock_now(clock_id, &tr->tracing->trace_counter);
}

int tf_tracing_init(struct tf_tracing *t, struct tf_registry *reg,
		    int nr_cpus);
/* .function in @t's filters resolves with the registry's kernel symbols
 * (the table hist's .sym uses). */
void tf_tracing_use_ksyms(struct tf_tracing *t);
void tf_tracing_destroy(struct tf_tracing *t);

/*
 * Adds an event to the mounted tree (a replay started later bringing an
 * event the tree lacks): parses @text (a `format` file) into the
 * registry as @system's event and gives every trace array its file,
 * disabled, without filter or triggers, as the kernel does for a module
 * loaded at run time.  Ingest threads and FUSE readers may run
 * meanwhile: nothing they can reach moves or is freed.  Callers hold
 * t->lock.  -EEXIST if the name or the id is taken, -ENOSPC past
 * TF_MAX_EVENTS, -EINVAL for a format libtraceevent refuses.
 * @release (may be NULL) names the kernel the format is from when it
 * is not the tree's (tf_event.kernel_release).
 */
int tf_tracing_add_event(struct tf_tracing *t, const char *system,
			 const char *text, size_t len, const char *release,
			 struct tf_event **out);

/*
 * The same for an event made at run time (see tf_registry_prepare_built):
 * it takes a vacant index if there is one.  Callers hold t->lock.
 */
int tf_tracing_add_built_event(struct tf_tracing *t, struct tf_event *ev,
			       const char *system);
/*
 * Removes a run-time event, as the kernel's trace_remove_event_call():
 * -EBUSY while something holds it (tf_event.dyn_ref) or while it is
 * enabled (soft mode included) in any trace array; an enabled one also
 * cancels every pending buffer reset.  Otherwise every trace array
 * where it was ever enabled is marked for tf_tracing_reset_cleared(),
 * readers stop finding it (the registry's and, through @unpublish, its
 * owner's: may be NULL), and once they are done (a grace period: the
 * caller must not be in a read-side section) its files in every trace
 * array are emptied, t->event_removed is told, and the event is
 * released.  Callers hold t->lock.
 */
int tf_tracing_remove_event(struct tf_tracing *t, struct tf_event *ev,
			    void (*unpublish)(struct tf_event *ev));
/* tracing_reset_all_online_cpus(): resets the buffer and the snapshot
 * buffer of the trace arrays marked by a removal, and unmarks them. */
void tf_tracing_reset_cleared(struct tf_tracing *t);

/*
 * tracing_reset_online_cpus(): empties the buffer of every CPU and
 * restarts time_start (a counter clock counts the call, as the kernel's).
 */
void tf_trace_array_reset(struct tf_trace_array *tr);
/*
 * A snapshot buffer of @bytes per CPU for @tr, in @tr's overwrite mode
 * (the kernel allocates max_buffer with the trace array's flags).
 */
struct tf_ring_buffer *tf_trace_array_snapshot_alloc(struct tf_trace_array *tr,
						     size_t bytes);
/* options/overwrite: applies @tr's overwrite flag to its buffers. */
void tf_trace_array_apply_overwrite(struct tf_trace_array *tr);
/* tracing_set_clock(): sets the clock, resets the buffer and snapshot. */
void tf_trace_array_set_clock(struct tf_trace_array *tr, int clock_id);
/* Re-evaluates tgids_recorded after record-tgid or an enable changed. */
void tf_tracing_update_tgid_record(struct tf_tracing *t);

/* Instances: mkdir/rmdir under instances/.  Callers hold t->lock. */
int tf_instance_create(struct tf_tracing *t, const char *name,
		       struct tf_trace_array **out);
int tf_instance_remove(struct tf_tracing *t, const char *name);
struct tf_trace_array *tf_instance_find(struct tf_tracing *t,
					const char *name);
struct tf_trace_array *tf_instance_by_id(struct tf_tracing *t, unsigned id);

/*
 * The kernel's __ftrace_event_enable_disable(): @enable 0/1, @soft for
 * the soft-mode reference that triggers take.  Callers hold t->lock.
 */
int tf_event_enable_disable(struct tf_event_file *file, int enable,
			    bool soft);

/* Tells the tree's event_enabled_hook (if any) that @file changed. */
static inline void tf_event_enabled_notify(struct tf_event_file *file)
{
	struct tf_tracing *t = file->tr->tracing;

	if (t->event_enabled_hook)
		t->event_enabled_hook(file, t->event_enabled_data);
}

/*
 * Writing an event's `filter` file (the kernel's apply_event_filter):
 * "0" clears; a bad filter leaves the event unfiltered, stores the error
 * text the file then shows, and logs to error_log.  Callers hold t->lock.
 */
int tf_event_filter_write(struct tf_event_file *file, const char *str);
/* Subsystem filter (6.12's): every event of @sys gets the filter; those
 * it does not compile for are left unfiltered showing the error; 0. */
int tf_system_filter_write(struct tf_trace_array *tr,
			   const struct tf_system *sys, const char *str);
void tf_system_filter_show(struct tf_trace_array *tr,
			   const struct tf_system *sys, struct strbuf *out);

/* What an event's `enable` file reads: "0", "1", "0*" or "1*". */
const char *tf_event_enable_str(const struct tf_event_file *file);
/* A system's (sys != NULL) or all events' enable state: '0' '1' 'X' '?'. */
char tf_system_enable_char(struct tf_trace_array *tr,
			   const struct tf_system *sys);
int tf_system_enable_set(struct tf_trace_array *tr,
			 const struct tf_system *sys, int enable);

/* set_event: one token (without a leading '!'), kernel matching rules. */
int tf_set_event_token(struct tf_trace_array *tr, const char *token,
		       int enable);
/* Disables every event (set_event opened with O_TRUNC). */
void tf_clear_events(struct tf_trace_array *tr);
void tf_set_event_show(struct tf_trace_array *tr, struct strbuf *out);

/* The pid files: set_event_pid, set_event_notrace_pid, and the function
 * tracer's set_ftrace_pid and set_ftrace_notrace_pid (kept, not used). */
enum tf_pid_kind {
	TF_PIDS_EVENT,
	TF_PIDS_EVENT_NOTRACE,
	TF_PIDS_FTRACE,
	TF_PIDS_FTRACE_NOTRACE,
};
int tf_pid_list_write(struct tf_trace_array *tr, enum tf_pid_kind kind,
		      const char *buf, size_t len, bool truncate);
void tf_pid_list_show(struct tf_trace_array *tr, enum tf_pid_kind kind,
		      struct strbuf *out);
/* Whether @pid passes the trace array's pid filters (event path). */
bool tf_pid_allowed(struct tf_trace_array *tr, int pid);
/*
 * Whether @rec passes them, with the kernel's rules for the scheduler
 * events (struct tf_sched_events); event path, RCU read side.
 */
bool tf_pid_filtered_rec(struct tf_trace_array *tr,
			 const struct tf_record *rec);
static inline bool tf_pid_allowed_rec(struct tf_trace_array *tr,
				      const struct tf_record *rec)
{
	/* mostly no pid list at all: no call (one test for both) */
	if (!((uintptr_t)__atomic_load_n(&tr->pids[TF_PIDS_EVENT],
					  __ATOMIC_RELAXED) |
	      (uintptr_t)__atomic_load_n(&tr->pids[TF_PIDS_EVENT_NOTRACE],
					  __ATOMIC_RELAXED)))
		return true;
	return tf_pid_filtered_rec(tr, rec);
}
/*
 * event-fork (event path, RCU read side): a fork record adds its child
 * to @tr's pid lists that hold its parent; a sched_process_free record
 * takes its task out of them.
 */
void tf_pid_lists_follow(struct tf_trace_array *tr,
			 const struct tf_record *rec);
/*
 * Counts the trace arrays with options/event-fork (after the option
 * changed or an instance went) and lets the sources know: the fork
 * and free events are needed then (tf_tracing.event_enabled_hook).
 */
void tf_tracing_update_event_fork(struct tf_tracing *t);
/* Whether event @ev is needed for event-fork, enabled or not. */
bool tf_tracing_event_fork_needs(struct tf_tracing *t,
				 const struct tf_event *ev);

#endif
