// SPDX-License-Identifier: GPL-2.0
/*
 * trigger_cmds.c - the plain trigger commands: traceon, traceoff,
 * snapshot, stacktrace, enable_event, disable_event, enable_hist and
 * disable_hist (hist itself lives in src/hist/ and registers through
 * tf_trigger_register_command).
 *
 * Each follows its kernel counterpart in trace_events_trigger.c and
 * trace_events_hist.c: what it parses, when it counts a firing, what
 * it prints.  The event-path functions take no locks (the snapshot
 * swap takes the ring buffer's per-CPU locks, as `echo 1 > snapshot`).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "util/rcu.h"
#include "buffer/ring_buffer.h"
#include "events/ksyms.h"
#include "trigger/trigger.h"
#include "trigger/trigger_internal.h"

/* ---- traceon / traceoff ---- */

static void traceon_func(struct tf_trigger *data, const struct tf_record *rec)
{
	struct tf_trace_array *tr = data->file->tr;

	(void)rec;
	if (atomic_load(&tr->tracing_on))
		return;		/* already on: not counted */
	if (!tf_trigger_take_count(data))
		return;
	atomic_store(&tr->tracing_on, 1);
}

static void traceoff_func(struct tf_trigger *data,
			  const struct tf_record *rec)
{
	struct tf_trace_array *tr = data->file->tr;

	(void)rec;
	if (!atomic_load(&tr->tracing_on))
		return;		/* already off: not counted */
	if (!tf_trigger_take_count(data))
		return;
	atomic_store(&tr->tracing_on, 0);
}

static void traceon_print(struct tf_trigger *data, struct strbuf *out)
{
	tf_trigger_print_common(data, "traceon", out);
}

static void traceoff_print(struct tf_trigger *data, struct strbuf *out)
{
	tf_trigger_print_common(data, "traceoff", out);
}

static const struct tf_trigger_ops traceon_ops = {
	.func = traceon_func, .print = traceon_print,
};
static const struct tf_trigger_ops traceoff_ops = {
	.func = traceoff_func, .print = traceoff_print,
};

/* ---- snapshot ---- */

/*
 * Arming: while a snapshot trigger exists, its trace array keeps its
 * snapshot buffer (the kernel's tr->snapshot count, tf_trace_array.
 * snapshot_armed); every caller holds tracing->lock.
 */

/* The size `echo 1 > snapshot` gives the snapshot buffer; the swap
 * exchanges the two buffers' storage, sizes included. */
static size_t snapshot_bytes(const struct tf_trace_array *tr)
{
	if (!tr->buffer_expanded)
		return 2 * 4080;	/* fs/files_buffer.c: MIN_PAGES pages */
	return (size_t)tr->buffer_size_kb << 10;
}

int tf_trigger_snapshot_arm(struct tf_trace_array *tr)
{
	if (!tr->snapshot) {
		struct tf_ring_buffer *rb;

		rb = tf_trace_array_snapshot_alloc(tr, snapshot_bytes(tr));
		if (!rb)
			return -ENOMEM;
		tf_rcu_assign_pointer(tr->snapshot, rb);
	}
	tr->snapshot_armed++;
	return 0;
}

void tf_trigger_snapshot_disarm(struct tf_trace_array *tr)
{
	if (tr->snapshot_armed)
		tr->snapshot_armed--;
}

bool tf_trigger_snapshot_armed(struct tf_trace_array *tr)
{
	return tr->snapshot_armed != 0;
}

/*
 * Without a snapshot buffer (`echo 0 > snapshot` freed it: 6.12 allows
 * that while a trigger is armed) the kernel writes two print entries
 * from tracing_snapshot_instance_cond() and turns tracing off.
 */
static void write_print(struct tf_trace_array *tr,
			const struct tf_record *rec, const char *text)
{
	const struct tf_event *ev = tf_registry_find(tr->tracing->reg,
						     "ftrace", "print");
	uint64_t buf[16];
	uint8_t *p = (uint8_t *)buf;
	uint64_t ip = TF_SNAPSHOT_IP;
	size_t len = strlen(text) + 1;
	uint16_t type;

	if (!ev || 16 + len > sizeof(buf))
		return;
	memset(buf, 0, sizeof(buf));
	if (rec && rec->size >= 8)
		memcpy(p, rec->data, 8);
	type = (uint16_t)ev->id;
	memcpy(p, &type, 2);
	memcpy(p + 8, &ip, 8);
	memcpy(p + 16, text, len);
	tf_ring_buffer_write(tr->buffer, rec ? rec->cpu : 0, rec ? rec->ts : 0,
			     buf, (unsigned)(16 + len));
}

/*
 * The event path reads tr->snapshot under RCU, so `echo 0 > snapshot`
 * must unpublish it, synchronize, then free it.
 */
struct tf_cond_snapshot {
	void *cond_data;
	tf_cond_update_fn update;
	pthread_mutex_t lock;		/* the kernel's tr->max_lock */
};

/*
 * tracing_snapshot_instance_cond(): with a conditional snapshot set, its
 * update decides, under its lock, whether the buffers swap.
 */
static void snapshot_take(struct tf_trace_array *tr,
			  const struct tf_record *rec, void *ctx)
{
	struct tf_ring_buffer *snap = rcu_dereference(tr->snapshot);
	struct tf_cond_snapshot *cs;

	if (!snap) {
		if (!atomic_load(&tr->tracing_on))
			return;
		write_print(tr, rec, "*** SNAPSHOT NOT ALLOCATED ***\n");
		write_print(tr, rec, "*** stopping trace here!   ***\n");
		atomic_store(&tr->tracing_on, 0);
		return;
	}
	cs = rcu_dereference(tr->cond_snapshot);
	if (cs) {
		pthread_mutex_lock(&cs->lock);
		if (!cs->update(cs->cond_data, ctx)) {
			pthread_mutex_unlock(&cs->lock);
			return;
		}
		tf_ring_buffer_swap(tr->buffer, snap);
		pthread_mutex_unlock(&cs->lock);
	} else {
		tf_ring_buffer_swap(tr->buffer, snap);
	}
	tf_trigger_snapshot_swaps++;
}

void tf_trigger_snapshot_take(struct tf_trace_array *tr,
			      const struct tf_record *rec)
{
	snapshot_take(tr, rec, NULL);
}

void tf_trigger_snapshot_cond(struct tf_trace_array *tr, void *ctx,
			      const struct tf_record *rec)
{
	snapshot_take(tr, rec, ctx);
}

int tf_trigger_snapshot_cond_enable(struct tf_trace_array *tr, void *cond_data,
				    tf_cond_update_fn update)
{
	struct tf_cond_snapshot *cs;
	int ret;

	if (tr->cond_snapshot)
		return -EBUSY;
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return -ENOMEM;
	ret = tf_trigger_snapshot_arm(tr);
	if (ret) {
		free(cs);
		return ret;
	}
	cs->cond_data = cond_data;
	cs->update = update;
	pthread_mutex_init(&cs->lock, NULL);
	tf_rcu_assign_pointer(tr->cond_snapshot, cs);
	return 0;
}

void *tf_trigger_snapshot_cond_disable(struct tf_trace_array *tr)
{
	struct tf_cond_snapshot *cs = tr->cond_snapshot;
	void *data;

	if (!cs)
		return NULL;
	tf_rcu_assign_pointer(tr->cond_snapshot, NULL);
	tf_rcu_synchronize();	/* no event path holds it any more */
	data = cs->cond_data;
	pthread_mutex_destroy(&cs->lock);
	free(cs);
	tf_trigger_snapshot_disarm(tr);
	return data;
}

void *tf_trigger_snapshot_cond_data(struct tf_trace_array *tr)
{
	struct tf_cond_snapshot *cs = __atomic_load_n(&tr->cond_snapshot,
						      __ATOMIC_ACQUIRE);

	return cs ? cs->cond_data : NULL;
}

__thread unsigned tf_trigger_snapshot_swaps;

void tf_trigger_init(struct tf_registry *reg)
{
	tf_ksyms_add_own(reg->ksyms, TF_SNAPSHOT_FUNC, TF_SNAPSHOT_IP);
}

static void snapshot_func(struct tf_trigger *data, const struct tf_record *rec)
{
	if (!tf_trigger_take_count(data))
		return;
	tf_trigger_snapshot_take(data->file->tr, rec);
}

static void snapshot_print(struct tf_trigger *data, struct strbuf *out)
{
	tf_trigger_print_common(data, "snapshot", out);
}

static void snapshot_free(struct tf_trigger *data)
{
	tf_trigger_snapshot_disarm(data->file->tr);
}

static const struct tf_trigger_ops snapshot_ops = {
	.func = snapshot_func, .print = snapshot_print, .free = snapshot_free,
};

/* ---- stacktrace ---- */

#define KSTACK_MAX 128		/* frames kept in one kernel_stack entry */

/*
 * Writes an ftrace:kernel_stack entry (struct stack_entry: int size at
 * offset 8, unsigned long caller[] at 16) after the triggering record,
 * with the record's common header (pid, flags, preempt count) and the
 * stack its source carried; a record without a stack gives an entry
 * with no frames.
 */
static void stacktrace_func(struct tf_trigger *data,
			    const struct tf_record *rec)
{
	struct tf_trace_array *tr = data->file->tr;
	const struct tf_event *ks;
	uint64_t buf[2 + KSTACK_MAX];
	uint8_t *p = (uint8_t *)buf;
	unsigned nr = 0;
	uint16_t type;
	int32_t size;

	if (!tf_trigger_take_count(data))
		return;
	if (!atomic_load_explicit(&tr->tracing_on, memory_order_relaxed))
		return;
	ks = tf_registry_find(tr->tracing->reg, "ftrace", "kernel_stack");
	if (!ks)
		return;
	memset(buf, 0, 16);
	if (rec && rec->size >= 8)
		memcpy(p, rec->data, 8);
	type = (uint16_t)ks->id;
	memcpy(p, &type, 2);
	if (rec && rec->stack) {
		nr = rec->nr_stack < KSTACK_MAX ? rec->nr_stack : KSTACK_MAX;
		memcpy(buf + 2, rec->stack, nr * sizeof(uint64_t));
	}
	size = (int32_t)nr;
	memcpy(p + 8, &size, 4);
	tf_ring_buffer_write(tr->buffer, rec ? rec->cpu : 0, rec ? rec->ts : 0,
			     buf, 16 + nr * 8);
}

static void stacktrace_print(struct tf_trigger *data, struct strbuf *out)
{
	tf_trigger_print_common(data, "stacktrace", out);
}

static const struct tf_trigger_ops stacktrace_ops = {
	.func = stacktrace_func, .print = stacktrace_print,
};

/* ---- traceon, traceoff, snapshot, stacktrace: event_trigger_parse ---- */

static const struct tf_trigger_ops *plain_ops(const struct tf_event_command *c)
{
	switch (c->trigger_type) {
	case TF_ETT_TRACE_ONOFF:
		return strcmp(c->name, "traceon") == 0 ? &traceon_ops
						       : &traceoff_ops;
	case TF_ETT_SNAPSHOT:
		return &snapshot_ops;
	default:
		return &stacktrace_ops;
	}
}

static int plain_parse(const struct tf_event_command *cmd,
		       struct tf_event_file *file, char *glob, char *cmd_str,
		       char *param_and_filter)
{
	bool remove = glob[0] == '!';
	struct tf_trigger *data, *old;
	bool armed = false;
	char *param, *filter;
	int ret;

	(void)cmd_str;
	ret = tf_trigger_separate_filter(param_and_filter, &param, &filter,
					 false);
	if (ret)
		return ret;
	data = tf_trigger_alloc(cmd, plain_ops(cmd), file, NULL);
	if (!data)
		return -ENOMEM;
	if (remove) {
		/* the filter and count play no part in finding it */
		old = tf_trigger_find_same(file, data);
		if (old)
			tf_trigger_unregister(file, old);
		tf_trigger_free_unregistered(data);
		return 0;
	}
	ret = tf_trigger_parse_num(param, data);
	if (ret)
		goto fail;
	ret = tf_trigger_set_filter(data, file, filter);
	if (ret)
		goto fail;
	if (cmd->trigger_type == TF_ETT_SNAPSHOT) {
		ret = tf_trigger_snapshot_arm(file->tr);
		if (ret)
			goto fail;
		armed = true;
	}
	ret = tf_trigger_register(file, data);
	if (ret)
		goto fail;
	return 0;
fail:
	if (armed)
		tf_trigger_snapshot_disarm(file->tr);
	tf_trigger_free_unregistered(data);
	return ret;
}

/* ---- enable_event, disable_event, enable_hist, disable_hist ---- */

struct enable_data {
	struct tf_event_file *file;	/* the target */
	bool enable;
	bool hist;
};

struct tf_event_file *tf_trigger_enable_target(const struct tf_trigger *d)
{
	unsigned type = d->cmd->trigger_type;

	if (type != TF_ETT_EVENT_ENABLE && type != TF_ETT_HIST_ENABLE)
		return NULL;
	return ((const struct enable_data *)d->private_data)->file;
}

static void event_enable_func(struct tf_trigger *data,
			      const struct tf_record *rec)
{
	struct enable_data *ed = data->private_data;
	unsigned flags = atomic_load(&ed->file->flags);

	(void)rec;
	/* already in the wanted state: skipped, not counted */
	if (ed->enable == !(flags & TF_FILE_SOFT_DISABLED))
		return;
	if (!tf_trigger_take_count(data))
		return;
	if (ed->enable)
		atomic_fetch_and(&ed->file->flags, ~TF_FILE_SOFT_DISABLED);
	else
		atomic_fetch_or(&ed->file->flags, TF_FILE_SOFT_DISABLED);
}

static void hist_enable_func(struct tf_trigger *data,
			     const struct tf_record *rec)
{
	struct enable_data *ed = data->private_data;

	(void)rec;
	if (!tf_trigger_take_count(data))
		return;
	tf_trigger_set_hist_paused(ed->file, !ed->enable);
}

static void enable_print(struct tf_trigger *data, struct strbuf *out)
{
	struct enable_data *ed = data->private_data;
	const struct tf_event *ev = ed->file->event;
	char head[256];

	snprintf(head, sizeof(head), "%s:%s:%s", data->cmd->name, ev->system,
		 ev->name);
	tf_trigger_print_common(data, head, out);
}

/* The target's count of enable_event/disable_event triggers (its
 * toggles; enable_hist/disable_hist do not toggle recording). */
static void count_toggle(const struct enable_data *ed, int d)
{
	if (!ed->hist)
		atomic_fetch_add(&ed->file->toggles, d);
}

static void enable_free(struct tf_trigger *data)
{
	struct enable_data *ed = data->private_data;

	tf_event_enable_disable(ed->file, 0, true);	/* SOFT_MODE off */
	count_toggle(ed, -1);
	ed->file->event->dyn_ref--;
	free(ed);
}

static const struct tf_trigger_ops event_enable_ops = {
	.func = event_enable_func, .print = enable_print, .free = enable_free,
};
static const struct tf_trigger_ops hist_enable_ops = {
	.func = hist_enable_func, .print = enable_print, .free = enable_free,
};

/* find_event_file(): ftrace's own events cannot be targets. */
static struct tf_event_file *find_event_file(struct tf_trace_array *tr,
					     const char *system,
					     const char *event)
{
	struct tf_event *ev = tf_registry_find(tr->tracing->reg, system,
					       event);

	if (!ev || strcmp(ev->system, "ftrace") == 0)
		return NULL;
	return tf_tr_file(tr, ev->index);
}

static int enable_parse(const struct tf_event_command *cmd,
			struct tf_event_file *file, char *glob, char *cmd_str,
			char *param_and_filter)
{
	bool remove = glob[0] == '!';
	struct tf_event_file *target;
	struct tf_trigger *data, *old;
	struct enable_data *ed;
	char *param, *filter, *system, *event;
	int ret;

	if (!param_and_filter)
		return -EINVAL;
	ret = tf_trigger_separate_filter(param_and_filter, &param, &filter,
					 true);
	if (ret)
		return ret;
	system = strsep(&param, ":");
	if (!param)
		return -EINVAL;
	event = strsep(&param, ":");
	target = find_event_file(file->tr, system, event);
	if (!target)
		return -EINVAL;
	ed = calloc(1, sizeof(*ed));
	if (!ed)
		return -ENOMEM;
	ed->file = target;
	ed->hist = cmd->trigger_type == TF_ETT_HIST_ENABLE;
	ed->enable = strncmp(cmd_str, "enable_", 7) == 0;
	data = tf_trigger_alloc(cmd, ed->hist ? &hist_enable_ops
					      : &event_enable_ops, file, ed);
	if (!data) {
		free(ed);
		return -ENOMEM;
	}
	if (remove) {
		old = tf_trigger_find_same(file, data);
		if (old)
			tf_trigger_unregister(file, old);
		goto fail;	/* frees the probe; ret is 0 */
	}
	ret = tf_trigger_parse_num(param, data);
	if (ret)
		goto fail;
	ret = tf_trigger_set_filter(data, file, filter);
	if (ret)
		goto fail;
	/* trace_event_try_get_ref(): a synthetic target cannot go */
	target->event->dyn_ref++;
	tf_event_enable_disable(target, 1, true);	/* SOFT_MODE on */
	count_toggle(ed, 1);	/* counted before the trigger can fire */
	ret = tf_trigger_register(file, data);
	if (ret) {
		count_toggle(ed, -1);
		tf_event_enable_disable(target, 0, true);
		target->event->dyn_ref--;
		goto fail;
	}
	return 0;
fail:
	free(ed);
	tf_trigger_free_unregistered(data);
	return ret;
}

/* ---- the table, in the kernel's registration order ---- */

static const struct tf_event_command cmd_traceon = {
	.name = "traceon", .trigger_type = TF_ETT_TRACE_ONOFF,
	.parse = plain_parse,
};
static const struct tf_event_command cmd_traceoff = {
	.name = "traceoff", .trigger_type = TF_ETT_TRACE_ONOFF,
	.flags = TF_CMD_POST_TRIGGER, .parse = plain_parse,
};
static const struct tf_event_command cmd_snapshot = {
	.name = "snapshot", .trigger_type = TF_ETT_SNAPSHOT,
	.parse = plain_parse,
};
static const struct tf_event_command cmd_stacktrace = {
	.name = "stacktrace", .trigger_type = TF_ETT_STACKTRACE,
	.flags = TF_CMD_POST_TRIGGER, .parse = plain_parse,
};
static const struct tf_event_command cmd_enable_event = {
	.name = "enable_event", .trigger_type = TF_ETT_EVENT_ENABLE,
	.parse = enable_parse,
};
static const struct tf_event_command cmd_disable_event = {
	.name = "disable_event", .trigger_type = TF_ETT_EVENT_ENABLE,
	.parse = enable_parse,
};
static const struct tf_event_command cmd_enable_hist = {
	.name = "enable_hist", .trigger_type = TF_ETT_HIST_ENABLE,
	.parse = enable_parse,
};
static const struct tf_event_command cmd_disable_hist = {
	.name = "disable_hist", .trigger_type = TF_ETT_HIST_ENABLE,
	.parse = enable_parse,
};

const struct tf_event_command *const tf_builtin_commands[] = {
	&cmd_traceon, &cmd_traceoff, &cmd_snapshot, &cmd_stacktrace,
	&cmd_enable_event, &cmd_disable_event, &cmd_enable_hist,
	&cmd_disable_hist,
};
const unsigned tf_nr_builtin_commands =
	sizeof(tf_builtin_commands) / sizeof(tf_builtin_commands[0]);
