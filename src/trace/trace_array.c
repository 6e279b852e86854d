// SPDX-License-Identifier: GPL-2.0
/*
 * trace_array.c - trace arrays, instances and event enabling
 * (see trace_array.h).  The enable logic follows the kernel's
 * __ftrace_event_enable_disable() and ftrace_set_clr_event().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/rcu.h"
#include <urcu/rculist.h>

#include "buffer/ring_buffer.h"
#include "buffer/trace_clock.h"
#include "trace/trace_array.h"
#include "util/bitmap_parse.h"
#include "filter/filter.h"

#define TF_DEFAULT_BUFFER_KB 1408	/* the kernel's default per CPU */

static void file_init(struct tf_trace_array *tr, struct tf_event *ev)
{
	struct tf_event_file *f = tf_tr_file(tr, ev->index);

	f->tr = tr;
	CDS_INIT_LIST_HEAD(&f->triggers);
	__atomic_store_n(&f->event, ev, __ATOMIC_RELEASE);
}

/* The file of a vacant index: no event, nothing set, an empty list
 * that readers walking every index may still follow. */
static void file_vacate(struct tf_trace_array *tr, unsigned index)
{
	struct tf_event_file *f = tf_tr_file(tr, index);

	__atomic_store_n(&f->event, NULL, __ATOMIC_RELEASE);
	free(f->filter_text);
	tf_filter_free(f->filter);
	f->filter_text = NULL;
	f->filter = NULL;
	f->sm_ref = 0;
	atomic_store(&f->flags, 0);
	f->tr = tr;
	CDS_INIT_LIST_HEAD(&f->triggers);
}

/* Makes room for event @index's file in @tr (its chunk, zeroed). */
static int file_reserve(struct tf_trace_array *tr, unsigned index)
{
	unsigned c = index >> TF_CHUNK_SHIFT;
	struct tf_event_file *chunk;

	if (index >= TF_MAX_EVENTS)
		return -ENOSPC;
	if (tr->file_chunks[c])
		return 0;
	chunk = calloc(TF_CHUNK, sizeof(*chunk));
	if (!chunk)
		return -ENOMEM;
	/* readers reach it only through reg->nr_events, published after */
	__atomic_store_n(&tr->file_chunks[c], chunk, __ATOMIC_RELEASE);
	return 0;
}

static void files_free(struct tf_trace_array *tr)
{
	for (unsigned c = 0; c < TF_NR_CHUNKS; c++)
		free(tr->file_chunks[c]);
}

/* The clock and what the event path reads of it. */
static void tf_trace_array_set_clock_id(struct tf_trace_array *tr,
					int clock_id)
{
	tr->clock_id = clock_id;
	atomic_store_explicit(&tr->clock_in_ns,
			      tf_trace_clocks[clock_id].in_ns,
			      memory_order_relaxed);
}

static struct tf_trace_array *tr_alloc(struct tf_tracing *t, const char *name)
{
	struct tf_trace_array *tr = calloc(1, sizeof(*tr));
	struct tf_registry *reg = t->reg;
	unsigned nr = reg->nr_events;

	if (!tr)
		return NULL;
	tr->name = name ? strdup(name) : NULL;
	if (name && !tr->name)
		goto fail;
	tr->tracing = t;
	pthread_mutex_init(&tr->pid_lock, NULL);
	tr->nr_events_made = nr;
	tr->seq_made = reg->next_seq;
	for (unsigned i = 0; i < nr; i++) {
		struct tf_event *ev = tf_registry_event(reg, i);

		if (file_reserve(tr, i) < 0)
			goto fail;
		if (ev)
			file_init(tr, ev);
		else
			file_vacate(tr, i);
	}
	tf_error_log_init(&tr->error_log);
	CDS_INIT_LIST_HEAD(&tr->hist_vars);
	atomic_store(&tr->tracing_on, 1);
	tr->buffer_size_kb = TF_DEFAULT_BUFFER_KB;
	tr->buffer_percent = 50;
	tr->cpumask = tf_bitmap_alloc_full(t->nr_cpus);
	if (!tr->cpumask)
		goto fail;
	tf_trace_array_set_clock_id(tr, TF_CLOCK_LOCAL);
	atomic_store(&tr->time_start, tf_tr_clock_now(tr, tr->clock_id));
	atomic_store(&tr->trace_flags, TF_TRACE_DEFAULT_FLAGS);
	/* the top buffer starts at its minimum until first used, as the
	 * kernel's; an instance's is allocated at its full size */
	tr->buffer_expanded = name != NULL;
	tr->buffer = tf_ring_buffer_create(t->nr_cpus, tr->buffer_expanded ?
					   (size_t)tr->buffer_size_kb * 1024 :
					   2 * TF_RB_PAGE_DATA, 0);
	tr->pipe_cpus = calloc((size_t)t->nr_cpus, 1);
	if (!tr->buffer || !tr->pipe_cpus)
		goto fail;
	return tr;
fail:
	tf_ring_buffer_free(tr->buffer);
	free(tr->pipe_cpus);
	files_free(tr);
	free(tr->cpumask);
	free(tr->name);
	free(tr);
	return NULL;
}

static void tr_free(struct tf_trace_array *tr)
{
	unsigned nr;

	if (!tr)
		return;
	/* clear_event_triggers(): src/trigger's, which sets the hook with
	 * the tree's first trigger */
	if (tr->tracing->triggers_clear)
		tr->tracing->triggers_clear(tr);
	tf_clear_events(tr);
	nr = tr->tracing->reg->nr_events;
	for (unsigned i = 0; i < nr; i++) {
		free(tf_tr_file(tr, i)->filter_text);
		tf_filter_free(tf_tr_file(tr, i)->filter);
	}
	for (unsigned i = 0; i < tr->nr_system_filter_text; i++)
		free(tr->system_filter_text[i]);
	free(tr->system_filter_text);
	files_free(tr);
	for (unsigned i = 0; i < 4; i++)
		free(tr->pids[i]);
	pthread_mutex_destroy(&tr->pid_lock);
	tf_error_log_destroy(&tr->error_log);
	tf_ring_buffer_free(tr->buffer);
	tf_ring_buffer_free(tr->snapshot);
	free(tr->cpumask);
	free(tr->pipe_cpus);
	free(tr->name);
	free(tr);
}

/* The scheduler events the pid filters treat apart (trace_array.h). */
static void sched_events_find(struct tf_sched_events *s,
			      const struct tf_registry *reg)
{
	static const char *const wakeups[3] = {
		"sched_wakeup", "sched_wakeup_new", "sched_waking",
	};
	const struct tf_event *ev;

	memset(s, 0, sizeof(*s));
	ev = tf_registry_find(reg, "sched", "sched_switch");
	if (ev && (s->prev_pid = tf_event_field(ev, "prev_pid")) &&
	    (s->next_pid = tf_event_field(ev, "next_pid")))
		s->sched_switch = ev;
	for (int i = 0; i < 3; i++) {
		ev = tf_registry_find(reg, "sched", wakeups[i]);
		if (ev && (s->woken_pid[i] = tf_event_field(ev, "pid")))
			s->wakeup[i] = ev;
	}
	ev = tf_registry_find(reg, "sched", "sched_process_fork");
	if (ev && (s->parent_pid = tf_event_field(ev, "parent_pid")) &&
	    (s->child_pid = tf_event_field(ev, "child_pid")))
		s->fork = ev;
	ev = tf_registry_find(reg, "sched", "sched_process_free");
	if (ev && (s->free_pid = tf_event_field(ev, "pid")))
		s->free = ev;
}

int tf_tracing_init(struct tf_tracing *t, struct tf_registry *reg,
		    int nr_cpus)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->reg = reg;
	sched_events_find(&t->sched, reg);
	t->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	t->next_instance_id = 1;
	CDS_INIT_LIST_HEAD(&t->instances);
	tf_saved_cmdlines_init(&t->cmdlines);
	tf_saved_tgids_init(&t->tgids);
	t->top = tr_alloc(t, NULL);
	if (!t->top) {
		tf_saved_tgids_destroy(&t->tgids);
		tf_saved_cmdlines_destroy(&t->cmdlines);
		pthread_mutex_destroy(&t->lock);
		return -ENOMEM;
	}
	cds_list_add_rcu(&t->top->list, &t->instances);
	return 0;
}

void tf_tracing_destroy(struct tf_tracing *t)
{
	struct tf_trace_array *tr, *tmp;


	cds_list_for_each_entry_safe(tr, tmp, &t->instances, list) {
		cds_list_del(&tr->list);
		tr_free(tr);
	}
	/* after the trace arrays: their triggers may hold synthetic events
	 * and named histograms */
	if (t->hist_destroy)
		t->hist_destroy(t);
	if (t->synth_destroy)
		t->synth_destroy(t);
	tf_saved_tgids_destroy(&t->tgids);
	tf_saved_cmdlines_destroy(&t->cmdlines);
	pthread_mutex_destroy(&t->lock);
}

/*
 * Growth, in the order that keeps every reader safe without a grace
 * period: room first (new chunks, zeroed, reachable by no reader yet),
 * then the event at an index no reader looks at, then its file in every
 * trace array, and only then the count and the system's list
 * (tf_registry_commit, release stores).  A reader that sees the event
 * sees its files complete; nothing that existed moves.  Instances are
 * created and removed under the same lock, so the list is stable here.
 */
int tf_tracing_add_event(struct tf_tracing *t, const char *system,
			 const char *text, size_t len, const char *release,
			 struct tf_event **out)
{
	struct tf_registry *reg = t->reg;
	unsigned idx = reg->nr_events;
	struct tf_trace_array *tr;
	struct tf_event *ev;
	int ret;

	cds_list_for_each_entry(tr, &t->instances, list) {
		ret = file_reserve(tr, idx);
		if (ret < 0)
			return ret;
	}
	ret = tf_registry_prepare(reg, system, text, len, &ev);
	if (ret < 0)
		return ret;
	if (release)	/* printing does without it if this fails */
		ev->kernel_release = strdup(release);
	cds_list_for_each_entry(tr, &t->instances, list)
		file_init(tr, ev);
	tf_registry_commit(reg, ev);
	if (out)
		*out = ev;
	return 0;
}

int tf_tracing_add_built_event(struct tf_tracing *t, struct tf_event *ev,
			       const char *system)
{
	struct tf_registry *reg = t->reg;
	unsigned idx = tf_registry_next_index(reg);
	struct tf_trace_array *tr;
	int ret;

	cds_list_for_each_entry(tr, &t->instances, list) {
		ret = file_reserve(tr, idx);
		if (ret < 0)
			return ret;
	}
	ret = tf_registry_prepare_built(reg, ev, system);
	if (ret < 0)
		return ret;
	cds_list_for_each_entry(tr, &t->instances, list)
		file_init(tr, ev);
	tf_registry_commit(reg, ev);
	return 0;
}

/* The subsystem filter text of a system that is gone (the kernel frees
 * the system's filter with its directory). */
static void forget_system_filter(struct tf_trace_array *tr, unsigned sys)
{
	if (sys < tr->nr_system_filter_text) {
		free(tr->system_filter_text[sys]);
		tr->system_filter_text[sys] = NULL;
	}
}

int tf_tracing_remove_event(struct tf_tracing *t, struct tf_event *ev,
			    void (*unpublish)(struct tf_event *ev))
{
	const struct tf_system *sys;
	struct tf_trace_array *tr;
	bool gone;

	if (ev->dyn_ref)
		return -EBUSY;
	cds_list_for_each_entry(tr, &t->instances, list) {
		unsigned flags = atomic_load(&tf_tr_file(tr, ev->index)->flags);

		if (flags & TF_FILE_ENABLED) {
			/* "no need to clear the trace now": nor any other */
			cds_list_for_each_entry(tr, &t->instances, list)
				tr->clear_trace = false;
			return -EBUSY;
		}
	}
	cds_list_for_each_entry(tr, &t->instances, list)
		if (atomic_load(&tf_tr_file(tr, ev->index)->flags) &
		    TF_FILE_WAS_ENABLED)
			tr->clear_trace = true;
	gone = tf_registry_unlink(t->reg, ev);
	if (unpublish)
		unpublish(ev);
	sys = tf_registry_system_at(t->reg, ev->sys_index);
	/* a lookup, a readdir or a `trace` reader may hold it still */
	tf_rcu_synchronize();
	cds_list_for_each_entry(tr, &t->instances, list) {
		file_vacate(tr, ev->index);
		if (gone)
			forget_system_filter(tr, sys->index);
	}
	if (t->event_removed)
		t->event_removed(t, sys, ev->name, gone);
	tf_registry_release_event(ev);
	return 0;
}

void tf_tracing_reset_cleared(struct tf_tracing *t)
{
	struct tf_trace_array *tr;

	cds_list_for_each_entry(tr, &t->instances, list) {
		if (!tr->clear_trace)
			continue;
		tr->clear_trace = false;
		tf_trace_array_reset(tr);
		/* the max buffer too, allocated or not (it counts) */
		tf_tr_clock_now(tr, tr->clock_id);
		if (tr->snapshot)
			tf_ring_buffer_reset(tr->snapshot, -1);
	}
}

struct tf_event *tf_tr_list_first(const struct tf_trace_array *tr)
{
	struct cds_list_head *head = &tr->tracing->reg->order;
	struct tf_event *ev;

	if (cds_list_empty(head))
		return NULL;
	ev = cds_list_entry(head->prev, struct tf_event, order);
	if (ev->seq >= tr->seq_made)
		return ev;		/* the newest, made after @tr */
	return cds_list_entry(head->next, struct tf_event, order);
}

struct tf_event *tf_tr_list_next(const struct tf_trace_array *tr,
				 const struct tf_event *ev)
{
	struct cds_list_head *head = &tr->tracing->reg->order;
	struct tf_event *n;

	if (ev->seq >= tr->seq_made) {
		/* made after @tr: towards the older, then @tr's own */
		if (ev->order.prev != head) {
			n = cds_list_entry(ev->order.prev, struct tf_event,
					   order);
			if (n->seq >= tr->seq_made)
				return n;
		}
		n = cds_list_entry(head->next, struct tf_event, order);
		return n->seq < tr->seq_made ? n : NULL;
	}
	if (ev->order.next == head)
		return NULL;
	n = cds_list_entry(ev->order.next, struct tf_event, order);
	return n->seq < tr->seq_made ? n : NULL;
}

struct tf_trace_array *tf_instance_find(struct tf_tracing *t,
					const char *name)
{
	struct tf_trace_array *tr;

	cds_list_for_each_entry(tr, &t->instances, list)
		if (tr->name && strcmp(tr->name, name) == 0)
			return tr;
	return NULL;
}

struct tf_trace_array *tf_instance_by_id(struct tf_tracing *t, unsigned id)
{
	struct tf_trace_array *tr;

	cds_list_for_each_entry_rcu(tr, &t->instances, list)
		if (tr->id == id)
			return tr;
	return NULL;
}

int tf_instance_create(struct tf_tracing *t, const char *name,
		       struct tf_trace_array **out)
{
	struct tf_trace_array *tr;

	if (tf_instance_find(t, name))
		return -EEXIST;
	tr = tr_alloc(t, name);
	if (!tr)
		return -ENOMEM;
	tr->id = t->next_instance_id++;
	if (t->next_instance_id > 0xffff)	/* the inode space has 16 bits */
		t->next_instance_id = 1;
	/* newest first after the top level: the kernel's readdir order */
	cds_list_add_rcu(&tr->list, &t->top->list);
	if (out)
		*out = tr;
	return 0;
}

void tf_trace_array_reset(struct tf_trace_array *tr)
{
	atomic_store(&tr->time_start, tf_tr_clock_now(tr, tr->clock_id));
	tf_ring_buffer_reset(tr->buffer, -1);
}

void tf_trace_array_set_clock(struct tf_trace_array *tr, int clock_id)
{
	tf_trace_array_set_clock_id(tr, clock_id);
	/* the new clock's times do not compare with the old's */
	tf_trace_array_reset(tr);
	/* the max buffer (snapshot) is reset too, allocated or not */
	tf_tr_clock_now(tr, clock_id);
	if (tr->snapshot)
		tf_ring_buffer_reset(tr->snapshot, -1);
}

void tf_tracing_update_tgid_record(struct tf_tracing *t)
{
	struct tf_trace_array *tr;
	bool tgid = false;

	cds_list_for_each_entry(tr, &t->instances, list)
		if (atomic_load(&tr->trace_flags) & TF_TRACE_RECORD_TGID)
			tgid = true;
	atomic_store(&t->tgids_recorded,
		     tgid && atomic_load(&t->nr_enabled) > 0);
}

void tf_tracing_update_event_fork(struct tf_tracing *t)
{
	struct tf_trace_array *tr;
	int n = 0, old;

	cds_list_for_each_entry(tr, &t->instances, list)
		if (atomic_load(&tr->trace_flags) & TF_TRACE_EVENT_FORK)
			n++;
	old = atomic_exchange(&t->nr_event_fork, n);
	if (!old == !n || !t->event_enabled_hook)
		return;
	/* the sources deliver forks and frees while some array follows */
	if (t->sched.fork)
		tf_event_enabled_notify(tf_tr_file(t->top,
						   t->sched.fork->index));
	if (t->sched.free)
		tf_event_enabled_notify(tf_tr_file(t->top,
						   t->sched.free->index));
}

bool tf_tracing_event_fork_needs(struct tf_tracing *t,
				 const struct tf_event *ev)
{
	return ev && (ev == t->sched.fork || ev == t->sched.free) &&
	       atomic_load(&t->nr_event_fork) > 0;
}

int tf_instance_remove(struct tf_tracing *t, const char *name)
{
	struct tf_trace_array *tr = tf_instance_find(t, name);

	if (!tr)
		return -ENOENT;
	/* open files and histograms with variables hold the kernel's
	 * tr->ref (trace_array_get) */
	if (atomic_load(&tr->open_refs) > 0 || !cds_list_empty(&tr->hist_vars))
		return -EBUSY;
	cds_list_del_rcu(&tr->list);
	tf_rcu_synchronize();
	tr_free(tr);
	tf_tracing_update_tgid_record(t);
	tf_tracing_update_event_fork(t);
	return 0;
}

static void set_flag(struct tf_event_file *f, unsigned bit, bool on)
{
	unsigned old;

	if (on)
		old = atomic_fetch_or(&f->flags, bit == TF_FILE_ENABLED ?
				      bit | TF_FILE_WAS_ENABLED : bit);
	else
		old = atomic_fetch_and(&f->flags, ~bit);
	if (bit == TF_FILE_ENABLED && !!(old & bit) != on) {
		atomic_fetch_add(&f->tr->tracing->nr_enabled, on ? 1 : -1);
		if (on)
			atomic_store(&f->tr->tracing->cmdlines_recorded, true);
		tf_tracing_update_tgid_record(f->tr->tracing);
		tf_event_enabled_notify(f);
	}
}

int tf_event_enable_disable(struct tf_event_file *file, int enable, bool soft)
{
	unsigned flags = atomic_load(&file->flags);
	bool disable;

	if (enable == 0) {
		if (soft) {
			if (--file->sm_ref > 0)
				return 0;
			disable = flags & TF_FILE_SOFT_DISABLED;
			set_flag(file, TF_FILE_SOFT_MODE, false);
		} else {
			disable = !(flags & TF_FILE_SOFT_MODE);
		}
		if (disable)
			set_flag(file, TF_FILE_ENABLED, false);
		flags = atomic_load(&file->flags);
		set_flag(file, TF_FILE_SOFT_DISABLED,
			 flags & TF_FILE_SOFT_MODE);
		return 0;
	}
	if (!soft) {
		set_flag(file, TF_FILE_SOFT_DISABLED, false);
	} else {
		if (++file->sm_ref > 1)
			return 0;
		set_flag(file, TF_FILE_SOFT_MODE, true);
	}
	if (!(atomic_load(&file->flags) & TF_FILE_ENABLED)) {
		if (soft)
			set_flag(file, TF_FILE_SOFT_DISABLED, true);
		set_flag(file, TF_FILE_ENABLED, true);
	}
	return 0;
}

const char *tf_event_enable_str(const struct tf_event_file *file)
{
	unsigned flags = atomic_load(&file->flags);
	bool on = (flags & TF_FILE_ENABLED) &&
		  !(flags & TF_FILE_SOFT_DISABLED);
	bool star = flags & (TF_FILE_SOFT_DISABLED | TF_FILE_SOFT_MODE);

	if (on)
		return star ? "1*\n" : "1\n";
	return star ? "0*\n" : "0\n";
}

/*
 * Events the enable machinery does not touch: the ftrace system's
 * internal events (TRACE_EVENT_FL_IGNORE_ENABLE in the kernel).
 */
static bool ignore_enable(const struct tf_event *ev)
{
	return strcmp(ev->system, "ftrace") == 0;
}

char tf_system_enable_char(struct tf_trace_array *tr,
			   const struct tf_system *sys)
{
	static const char set_to_char[4] = { '?', '0', '1', 'X' };
	struct tf_registry *reg = tr->tracing->reg;
	unsigned set = 0;

	unsigned nr = reg->nr_events;

	for (unsigned i = 0; i < nr && set != 3; i++) {
		struct tf_event_file *f = tf_tr_file(tr, i);

		if (!f->event || ignore_enable(f->event))
			continue;
		if (sys && strcmp(f->event->system, sys->name) != 0)
			continue;
		set |= 1u << !!(atomic_load(&f->flags) & TF_FILE_ENABLED);
	}
	return set_to_char[set];
}

int tf_system_enable_set(struct tf_trace_array *tr,
			 const struct tf_system *sys, int enable)
{
	struct tf_registry *reg = tr->tracing->reg;
	unsigned nr = reg->nr_events;
	int ret = -EINVAL;

	for (unsigned i = 0; i < nr; i++) {
		struct tf_event_file *f = tf_tr_file(tr, i);

		if (!f->event || ignore_enable(f->event))
			continue;
		if (sys && strcmp(f->event->system, sys->name) != 0)
			continue;
		tf_event_enable_disable(f, enable, false);
		ret = 0;
	}
	return ret;
}

int tf_set_event_token(struct tf_trace_array *tr, const char *token,
		       int enable)
{
	struct tf_registry *reg = tr->tracing->reg;
	char buf[256];
	char *match = buf, *sub = NULL, *event = NULL, *colon;
	int ret = -EINVAL;

	if (strlen(token) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, token);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		sub = buf;
		event = colon + 1;
		match = NULL;
		if (!*sub || strcmp(sub, "*") == 0)
			sub = NULL;
		if (!*event || strcmp(event, "*") == 0)
			event = NULL;
	}
	unsigned nr = reg->nr_events;

	for (unsigned i = 0; i < nr; i++) {
		struct tf_event_file *f = tf_tr_file(tr, i);
		const struct tf_event *ev = f->event;

		if (!ev || ignore_enable(ev))
			continue;
		if (match && strcmp(match, ev->name) != 0 &&
		    strcmp(match, ev->system) != 0)
			continue;
		if (sub && strcmp(sub, ev->system) != 0)
			continue;
		if (event && strcmp(event, ev->name) != 0)
			continue;
		tf_event_enable_disable(f, enable, false);
		ret = 0;
	}
	return ret;
}

void tf_clear_events(struct tf_trace_array *tr)
{
	unsigned nr = tr->tracing->reg->nr_events;

	for (unsigned i = 0; i < nr; i++)
		if (tf_tr_file(tr, i)->event)
			tf_event_enable_disable(tf_tr_file(tr, i), 0, false);
}

void tf_set_event_show(struct tf_trace_array *tr, struct strbuf *out)
{
	/* the kernel's list order: events made after @tr first */
	for (struct tf_event *ev = tf_tr_list_first(tr); ev;
	     ev = tf_tr_list_next(tr, ev)) {
		const struct tf_event_file *f = tf_tr_file(tr, ev->index);

		if (atomic_load(&f->flags) & TF_FILE_ENABLED)
			sb_printf(out, "%s:%s\n", f->event->system,
				  f->event->name);
	}
}

struct tf_ring_buffer *tf_trace_array_snapshot_alloc(struct tf_trace_array *tr,
						     size_t bytes)
{
	/* the main buffer's sub-buffer order, as
	 * tracing_alloc_snapshot_instance() gives it */
	struct tf_ring_buffer *rb = tf_ring_buffer_create(tr->tracing->nr_cpus,
							  bytes,
							  tf_ring_buffer_order(tr->buffer));

	if (rb)
		tf_ring_buffer_set_overwrite(rb, atomic_load(&tr->trace_flags) &
					     TF_TRACE_OVERWRITE);
	return rb;
}

void tf_trace_array_apply_overwrite(struct tf_trace_array *tr)
{
	bool on = atomic_load(&tr->trace_flags) & TF_TRACE_OVERWRITE;

	tf_ring_buffer_set_overwrite(tr->buffer, on);
	if (tr->snapshot)
		tf_ring_buffer_set_overwrite(tr->snapshot, on);
}
