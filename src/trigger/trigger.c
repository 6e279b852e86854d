// SPDX-License-Identifier: GPL-2.0
/*
 * trigger.c - the trigger file and the per-event trigger list (see
 * trigger.h): the command table, the kernel's trigger_process_regex()
 * parsing, registration with the one-per-type rule, soft/trigger mode,
 * the `if FILTER` part, and the event-path calls.
 *
 * Follows kernel/trace/trace_events_trigger.c.  Everything that changes
 * a list runs under tracing->lock; the event path walks the lists under
 * tf_rcu_read_lock() and never blocks or allocates.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/rcu.h"
#include "filter/filter.h"
#include "trigger/trigger.h"
#include "trigger/trigger_internal.h"
#include "util/kstrto.h"

#define TF_TRIGGER_MAX_WRITE 4096	/* the kernel's PAGE_SIZE limit */
/* ---- the command table ---- */

/*
 * Command @i of @t in registration order (built-ins first, a constant
 * table; then the tree's registered ones); NULL past the end.  The
 * registered ones only grow, each slot written before the count that
 * shows it, so readers need no lock.
 */
static const struct tf_event_command *command_at(const struct tf_tracing *t,
						 unsigned i)
{
	if (i < tf_nr_builtin_commands)
		return tf_builtin_commands[i];
	i -= tf_nr_builtin_commands;
	return i < atomic_load_explicit(&t->nr_extra_cmds,
					memory_order_acquire) ?
	       t->extra_cmds[i] : NULL;
}

const struct tf_event_command *tf_trigger_find_command(struct tf_tracing *t,
						       const char *name)
{
	const struct tf_event_command *p;

	for (unsigned i = 0; (p = command_at(t, i)) != NULL; i++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

int tf_trigger_register_command(struct tf_tracing *t,
				const struct tf_event_command *cmd)
{
	const struct tf_event_command *p;
	unsigned n;
	int ret = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned i = 0; (p = command_at(t, i)) != NULL; i++) {
		if (strcmp(p->name, cmd->name) == 0) {
			ret = p == cmd ? 0 : -EBUSY;
			goto out;
		}
	}
	n = atomic_load_explicit(&t->nr_extra_cmds, memory_order_relaxed);
	if (n == TF_MAX_EXTRA_COMMANDS) {
		ret = -ENOSPC;
		goto out;
	}
	t->extra_cmds[n] = cmd;
	atomic_store_explicit(&t->nr_extra_cmds, n + 1, memory_order_release);
out:
	pthread_mutex_unlock(&t->lock);
	return ret;
}

/* ---- the trigger file ---- */

void tf_trigger_show(struct tf_event_file *file, struct strbuf *out)
{
	const struct tf_event_command *p;
	struct tf_trigger *data;

	if (cds_list_empty(&file->triggers)) {
		sb_puts(out, "# Available triggers:\n#");
		for (unsigned i = 0; (p = command_at(file->tr->tracing, i));
		     i++)
			sb_printf(out, " %s", p->name);
		sb_putc(out, '\n');
		return;
	}
	cds_list_for_each_entry(data, &file->triggers, list)
		data->ops->print(data, out);
}

/*
 * `>` on the trigger file: each command's unreg_all.  Only hist has one
 * in the kernel, so on 6.12 `>` removes the hist triggers and keeps
 * every other trigger (checked with the oracle).
 */
void tf_trigger_truncate(struct tf_event_file *file)
{
	const struct tf_event_command *p;

	for (unsigned i = 0; (p = command_at(file->tr->tracing, i)); i++)
		if (p->unreg_all)
			p->unreg_all(file);
}

static char *skip_spaces(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The kernel's strim(): trailing then leading white space. */
static char *strim(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return skip_spaces(s);
}

/* The kernel's trigger_process_regex(). */
static int process_regex(struct tf_event_file *file, char *buff)
{
	const struct tf_event_command *cmd;
	char *command, *next;

	next = buff = skip_spaces(buff);
	command = strsep(&next, ": \t");
	if (next) {
		next = skip_spaces(next);
		if (!*next)
			next = NULL;
	}
	if (command[0] == '!')
		command++;
	cmd = tf_trigger_find_command(file->tr->tracing, command);
	if (!cmd)
		return -EINVAL;
	return cmd->parse(cmd, file, buff, command, next);
}

long tf_trigger_write(struct tf_event_file *file, const char *buf,
		      size_t len)
{
	char *copy;
	int ret;

	if (!len)
		return 0;
	if (len >= TF_TRIGGER_MAX_WRITE)
		return -EINVAL;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	copy[len] = '\0';	/* memdup_user_nul: an inner NUL ends it */
	ret = process_regex(file, strim(copy));
	free(copy);
	return ret < 0 ? ret : (long)len;
}

/* ---- parsing helpers (the kernel's event_trigger_* helpers) ---- */

/* The kernel's kstrtoul(s, 0, res). */
int tf_trigger_kstrtoul(const char *s, unsigned long *res)
{
	uint64_t v;
	int ret = tf_kstrtoull(s, 0, &v);

	if (ret == 0)
		*res = (unsigned long)v;
	return ret;
}

/*
 * event_trigger_separate_filter(): splits "[param] [if filter]".  An
 * optional param must start with a digit, else all of it is the filter.
 */
int tf_trigger_separate_filter(char *param_and_filter, char **param,
			       char **filter, bool param_required)
{
	*param = *filter = NULL;
	if (!param_and_filter)
		return param_required ? -EINVAL : 0;
	if (!param_required && !isdigit((unsigned char)param_and_filter[0])) {
		*filter = param_and_filter;
		return 0;
	}
	*param = strsep(&param_and_filter, " \t");
	if (param_and_filter) {
		*filter = skip_spaces(param_and_filter);
		if (!**filter)
			*filter = NULL;
	}
	return 0;
}

/* event_trigger_parse_num(): "N[:anything]" sets the count. */
int tf_trigger_parse_num(char *param, struct tf_trigger *data)
{
	unsigned long count;
	char *number;
	int ret;

	if (!param)
		return 0;
	number = strsep(&param, ":");
	if (!*number)
		return -EINVAL;
	ret = tf_trigger_kstrtoul(number, &count);
	if (ret)
		return ret;
	data->count = (long)count;	/* ULONG_MAX reads as unlimited */
	return 0;
}

struct tf_trigger *tf_trigger_alloc(const struct tf_event_command *cmd,
				    const struct tf_trigger_ops *ops,
				    struct tf_event_file *file,
				    void *private_data)
{
	struct tf_trigger *data = calloc(1, sizeof(*data));

	if (!data)
		return NULL;
	CDS_INIT_LIST_HEAD(&data->list);
	data->cmd = cmd;
	data->ops = ops;
	data->file = file;
	data->count = -1;
	data->private_data = private_data;
	return data;
}

void tf_trigger_free_unregistered(struct tf_trigger *data)
{
	if (!data)
		return;
	tf_filter_free(data->filter);
	free(data->filter_str);
	free(data);
}

static void log_filter_error(struct tf_event_file *file, const char *str,
			     const struct tf_filter_error *e)
{
	char *stored = tf_filter_stored(str);
	int err = tf_filter_error_log_err(e);
	const char *text = tf_filter_err_text(err);

	if (stored && text)
		tf_error_log_add(&file->tr->error_log, TF_FILTER_ERROR_LOC,
				 stored, (unsigned)tf_filter_error_log_pos(e),
				 text);
	free(stored);
}

/* set_trigger_filter(): "if FILTER"; the filter is the triggering event's. */
int tf_trigger_set_filter(struct tf_trigger *data, struct tf_event_file *file,
			  const char *filter_part)
{
	struct tf_filter_error e = { 0, 0, -EINVAL };
	struct tf_filter *f = NULL;
	char *copy, *rest, *word;
	int ret = -EINVAL;

	if (!filter_part)
		return 0;
	copy = strdup(filter_part);
	if (!copy)
		return -ENOMEM;
	rest = copy;
	word = strsep(&rest, " \t");
	if (!*word || strcmp(word, "if") != 0 || !rest)
		goto out;
	ret = tf_filter_compile(&file->tr->tracing->filter_env, file->event,
				rest, &f, &e);
	if (ret < 0) {
		log_filter_error(file, rest, &e);
		goto out;
	}
	data->filter_str = strdup(rest);
	if (!data->filter_str) {
		tf_filter_free(f);
		ret = -ENOMEM;
		goto out;
	}
	data->filter = f;
	ret = 0;
out:
	free(copy);
	return ret;
}

/* ---- the list ---- */

void tf_trigger_update_cond(struct tf_event_file *file)
{
	struct tf_trigger *data;
	bool cond = false, prefetch = false, generates = false;
	unsigned old;

	cds_list_for_each_entry(data, &file->triggers, list) {
		if (data->filter || (data->cmd->flags &
				     (TF_CMD_POST_TRIGGER | TF_CMD_NEEDS_REC)))
			cond = true;
		if (data->prefetch && data->ops->prefetch)
			prefetch = true;
		if (data->generates)
			generates = true;
	}
	if (generates)
		atomic_fetch_or(&file->flags, TF_FILE_TRIGGER_GENERATES);
	else
		atomic_fetch_and(&file->flags, ~TF_FILE_TRIGGER_GENERATES);
	if (cond)
		atomic_fetch_or(&file->flags, TF_FILE_TRIGGER_COND);
	else
		atomic_fetch_and(&file->flags, ~TF_FILE_TRIGGER_COND);
	if (prefetch) {
		old = atomic_fetch_or(&file->flags, TF_FILE_TRIGGER_PREFETCH);
		if (!(old & TF_FILE_TRIGGER_PREFETCH))
			atomic_fetch_add(&file->tr->tracing->nr_prefetch, 1);
	} else {
		old = atomic_fetch_and(&file->flags, ~TF_FILE_TRIGGER_PREFETCH);
		if (old & TF_FILE_TRIGGER_PREFETCH)
			atomic_fetch_sub(&file->tr->tracing->nr_prefetch, 1);
	}
}

/* trace_event_trigger_enable_disable(): the first trigger hooks the
 * event in soft mode, the last one unhooks it. */
static void trigger_mode(struct tf_event_file *file, bool on)
{
	if (on) {
		atomic_fetch_or(&file->flags, TF_FILE_TRIGGER_MODE);
		tf_event_enable_disable(file, 1, true);
	} else {
		atomic_fetch_and(&file->flags, ~TF_FILE_TRIGGER_MODE);
		tf_event_enable_disable(file, 0, true);
	}
}

static bool same_kind(const struct tf_trigger *a, const struct tf_trigger *b)
{
	unsigned type = a->cmd->trigger_type;

	if (type != b->cmd->trigger_type)
		return false;
	if (type == TF_ETT_EVENT_ENABLE || type == TF_ETT_HIST_ENABLE)
		return tf_trigger_enable_target(a) ==
		       tf_trigger_enable_target(b);
	return true;
}

/* The trigger @test stands for (same type, same target), or NULL. */
struct tf_trigger *tf_trigger_find_same(struct tf_event_file *file,
					const struct tf_trigger *test)
{
	struct tf_trigger *data;

	cds_list_for_each_entry(data, &file->triggers, list)
		if (same_kind(data, test))
			return data;
	return NULL;
}

int tf_trigger_register(struct tf_event_file *file, struct tf_trigger *data)
{
	unsigned type = data->cmd->trigger_type;
	bool first;
	int ret;

	/* a trace array that goes takes its triggers with it */
	file->tr->tracing->triggers_clear = tf_trigger_clear_all;
	if (type != TF_ETT_NONE && type != TF_ETT_EVENT_HIST &&
	    tf_trigger_find_same(file, data))
		return -EEXIST;
	if (data->ops->init) {
		ret = data->ops->init(data);
		if (ret < 0)
			return ret;
	}
	first = cds_list_empty(&file->triggers);
	data->file = file;
	if (data->cmd->flags & TF_CMD_ADD_TAIL)
		cds_list_add_tail_rcu(&data->list, &file->triggers);
	else
		cds_list_add_rcu(&data->list, &file->triggers);
	tf_trigger_update_cond(file);
	if (first)
		trigger_mode(file, true);
	tf_event_enabled_notify(file);	/* the sources' push-down */
	return 0;
}

void tf_trigger_unlink(struct tf_event_file *file, struct tf_trigger *data)
{
	cds_list_del_rcu(&data->list);
	if (cds_list_empty(&file->triggers))
		trigger_mode(file, false);
	tf_trigger_update_cond(file);
	tf_event_enabled_notify(file);	/* the sources' push-down */
}

void tf_trigger_release(struct tf_trigger *data)
{
	if (data->ops->free)
		data->ops->free(data);
	tf_trigger_free_unregistered(data);
}

void tf_trigger_unregister(struct tf_event_file *file,
			   struct tf_trigger *data)
{
	tf_trigger_unlink(file, data);
	tf_rcu_synchronize();	/* no event path sees @data any more */
	tf_trigger_release(data);
}

int tf_trigger_for_each(struct tf_event_file *file, const char *cmd_name,
			int (*fn)(struct tf_trigger *data, void *arg),
			void *arg)
{
	struct tf_trigger *data, *tmp;
	int ret;

	cds_list_for_each_entry_safe(data, tmp, &file->triggers, list) {
		if (cmd_name && strcmp(data->cmd->name, cmd_name) != 0)
			continue;
		ret = fn(data, arg);
		if (ret)
			return ret;
	}
	return 0;
}

static bool is_hist(const struct tf_trigger *data)
{
	return data->cmd->trigger_type == TF_ETT_EVENT_HIST ||
	       strcmp(data->cmd->name, "hist") == 0;
}

/* hist_enable_trigger(): runs on the event path, under RCU. */
void tf_trigger_set_hist_paused(struct tf_event_file *file, bool paused)
{
	struct tf_trigger *data;

	cds_list_for_each_entry_rcu(data, &file->triggers, list)
		if (is_hist(data))
			__atomic_store_n(&data->paused, paused,
					 __ATOMIC_RELAXED);
}

void tf_trigger_clear_all(struct tf_trace_array *tr)
{
	unsigned nr = tr->tracing->reg->nr_events;
	struct cds_list_head dead;
	struct tf_trigger *data, *tmp;

	CDS_INIT_LIST_HEAD(&dead);
	for (unsigned i = 0; i < nr; i++) {
		struct tf_event_file *file = tf_tr_file(tr, i);

		cds_list_for_each_entry_safe(data, tmp, &file->triggers,
					     list) {
			tf_trigger_unlink(file, data);
			cds_list_add_tail(&data->list, &dead);
		}
	}
	if (cds_list_empty(&dead))
		return;
	tf_rcu_synchronize();
	cds_list_for_each_entry_safe(data, tmp, &dead, list) {
		cds_list_del(&data->list);
		tf_trigger_release(data);
	}
}

/* The common read-back line (event_trigger_print). */
void tf_trigger_print_common(struct tf_trigger *data, const char *name,
			     struct strbuf *out)
{
	long count = __atomic_load_n(&data->count, __ATOMIC_RELAXED);

	sb_puts(out, name);
	if (count == -1)
		sb_puts(out, ":unlimited");
	else
		sb_printf(out, ":count=%ld", count);
	if (data->filter_str)
		sb_printf(out, " if %s\n", data->filter_str);
	else
		sb_putc(out, '\n');
}

/* ---- the event path ---- */

/*
 * Takes one from a count: false when the count is used up.  -1 is
 * unlimited; other values wrap like the kernel's unsigned long.
 */
bool tf_trigger_take_count(struct tf_trigger *data)
{
	long c = __atomic_load_n(&data->count, __ATOMIC_RELAXED);

	do {
		if (c == 0)
			return false;
		if (c == -1)
			return true;
	} while (!__atomic_compare_exchange_n(&data->count, &c,
					      (long)((unsigned long)c - 1),
					      false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

void tf_triggers_prefetch(struct tf_event_file *file,
			  const struct tf_record *rec)
{
	struct tf_trigger *data;

	cds_list_for_each_entry_rcu(data, &file->triggers, list)
		if (data->prefetch)
			data->ops->prefetch(data, rec);
}

unsigned tf_triggers_prefetchers(struct tf_event_file *file,
				 struct tf_trigger **first)
{
	struct tf_trigger *data;
	unsigned n = 0;

	cds_list_for_each_entry_rcu(data, &file->triggers, list)
		if (data->prefetch && !n++)
			*first = data;
	return n;
}

void tf_triggers_post_call(struct tf_event_file *file, unsigned tt,
			   const struct tf_record *rec)
{
	struct tf_trigger *data;

	cds_list_for_each_entry_rcu(data, &file->triggers, list) {
		if (__atomic_load_n(&data->paused, __ATOMIC_RELAXED))
			continue;
		if (data->cmd->trigger_type & tt)
			data->ops->func(data, rec);
	}
}
