// SPDX-License-Identifier: GPL-2.0
/*
 * pid_list.c - set_event_pid and set_event_notrace_pid: a sorted pid set,
 * replaced whole on each write and read by the event path under RCU.
 * Write semantics follow the kernel's trace_pid_write(): the new list is
 * the old one plus the pids written; any bad pid fails the whole write.
 *
 * The filter itself is the kernel's (trace_events.c): an event is
 * ignored when its task is not in set_event_pid or is in
 * set_event_notrace_pid; sched_switch only when both tasks are ignored
 * (the pre-probe of the switch), a wakeup only when the waking and the
 * woken task are.  With options/event-fork the lists follow the tasks:
 * a fork adds the child where the parent is listed, sched_process_free
 * takes the task out (event_filter_pid_sched_process_fork/exit), from
 * the event path, as the kernel's probes do.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/rcu.h"

#include "trace/trace_array.h"
#include "util/kstrto.h"

#define PID_TOKEN_MAX 127		/* the kernel parser's buffer */

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static struct tf_pid_list **list_slot(struct tf_trace_array *tr,
				      enum tf_pid_kind kind)
{
	return &tr->pids[kind];
}

/* One token as trace_pid_write() takes it: kstrtoul(s, 0), then a pid. */
static int parse_pid(const char *tok, int *pid)
{
	uint64_t v;

	if (tf_kstrtoull(tok, 0, &v) < 0)
		return -EINVAL;
	/* `pid = (pid_t)val`: 4294967296 is pid 0; a pid that is negative
	 * then fails trace_pid_list_set(), which the kernel returns as -1:
	 * EPERM */
	v &= 0xffffffff;
	if (v > 0x7fffffff)
		return -EPERM;
	*pid = (int)v;
	return 0;
}

int tf_pid_list_write(struct tf_trace_array *tr, enum tf_pid_kind kind,
		      const char *buf, size_t len, bool truncate)
{
	struct tf_pid_list **slot = list_slot(tr, kind);
	struct tf_pid_list *old = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *nl;
	unsigned cap = (old && !truncate ? old->nr : 0) + (unsigned)len / 2 + 1;
	unsigned nr = 0;
	char tok[PID_TOKEN_MAX + 1];
	size_t i = 0;

	nl = malloc(sizeof(*nl) + cap * sizeof(int));
	if (!nl)
		return -ENOMEM;
	if (old && !truncate) {
		memcpy(nl->pids, old->pids, old->nr * sizeof(int));
		nr = old->nr;
	}
	while (i < len) {
		size_t n = 0;
		int pid, ret;

		while (i < len && (buf[i] == ' ' || buf[i] == '\t' ||
				   buf[i] == '\n' || buf[i] == '\r' ||
				   buf[i] == '\v' || buf[i] == '\f'))
			i++;
		while (i < len && buf[i] != ' ' && buf[i] != '\t' &&
		       buf[i] != '\n' && buf[i] != '\r' && buf[i] != '\v' &&
		       buf[i] != '\f' && buf[i] != '\0') {
			if (n >= PID_TOKEN_MAX) {
				free(nl);
				return -EINVAL;
			}
			tok[n++] = buf[i++];
		}
		/* trace_get_user(): a NUL ends a word as a space does, and
		 * ends the input where no word has begun */
		if (!n && i < len && buf[i] == '\0')
			break;
		if (i < len && buf[i] == '\0')
			i++;
		if (!n)
			continue;
		tok[n] = '\0';
		ret = parse_pid(tok, &pid);
		if (ret < 0) {
			free(nl);
			return ret == -EPERM ? -EPERM : -EINVAL;
		}
		nl->pids[nr++] = pid;
	}
	qsort(nl->pids, nr, sizeof(int), int_cmp);
	unsigned u = 0;
	for (unsigned k = 0; k < nr; k++)
		if (u == 0 || nl->pids[u - 1] != nl->pids[k])
			nl->pids[u++] = nl->pids[k];
	nl->nr = u;
	if (!u) {
		free(nl);
		nl = NULL;
	}
	/* the event path may have replaced the list meanwhile (event-fork):
	 * build on the current one, under the lock it takes too */
	pthread_mutex_lock(&tr->pid_lock);
	if (*slot != old) {
		pthread_mutex_unlock(&tr->pid_lock);
		free(nl);
		return tf_pid_list_write(tr, kind, buf, len, truncate);
	}
	tf_rcu_assign_pointer(*slot, nl);
	pthread_mutex_unlock(&tr->pid_lock);
	tf_rcu_synchronize();
	free(old);
	return 0;
}

void tf_pid_list_show(struct tf_trace_array *tr, enum tf_pid_kind kind,
		      struct strbuf *out)
{
	struct tf_pid_list *l;

	tf_rcu_read_lock();
	l = rcu_dereference(*list_slot(tr, kind));
	for (unsigned i = 0; l && i < l->nr; i++)
		sb_printf(out, "%d\n", l->pids[i]);
	/* the function tracer's pid files say so when they are empty */
	if (!l && kind >= TF_PIDS_FTRACE)
		sb_puts(out, "no pid\n");
	tf_rcu_read_unlock();
}

static bool in_list(const struct tf_pid_list *l, int pid)
{
	unsigned lo = 0, hi = l->nr;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (l->pids[mid] == pid)
			return true;
		if (l->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* trace_ignore_this_task() */
static bool ignored(const struct tf_pid_list *l, const struct tf_pid_list *nl,
		    int pid)
{
	return (l && !in_list(l, pid)) || (nl && in_list(nl, pid));
}

/* Called from the event path inside an RCU read-side section. */
bool tf_pid_allowed(struct tf_trace_array *tr, int pid)
{
	return !ignored(rcu_dereference(tr->pids[TF_PIDS_EVENT]),
			rcu_dereference(tr->pids[TF_PIDS_EVENT_NOTRACE]), pid);
}

static int field_pid(const struct tf_field *f, const struct tf_record *rec)
{
	if (f->offset + f->size > rec->size)
		return -1;
	return (int)tf_field_read_u64(f, rec->data);
}

bool tf_pid_filtered_rec(struct tf_trace_array *tr,
			 const struct tf_record *rec)
{
	const struct tf_pid_list *l = rcu_dereference(tr->pids[TF_PIDS_EVENT]);
	const struct tf_pid_list *nl =
		rcu_dereference(tr->pids[TF_PIDS_EVENT_NOTRACE]);
	const struct tf_sched_events *s = &tr->tracing->sched;
	int32_t pid;

	if (!l && !nl)
		return true;
	if (rec->event == s->sched_switch) {
		/* event_filter_pid_sched_switch_probe_pre() */
		int prev = field_pid(s->prev_pid, rec);
		int next = field_pid(s->next_pid, rec);

		return !((nl && in_list(nl, prev) && in_list(nl, next)) ||
			 (l && !in_list(l, prev) && !in_list(l, next)));
	}
	if (rec->size < 8)
		return !ignored(l, nl, -1);
	memcpy(&pid, rec->data + 4, 4);
	if (!ignored(l, nl, pid))
		return true;
	/* event_filter_pid_sched_wakeup_probe_pre(): the woken task */
	for (int i = 0; i < 3; i++)
		if (rec->event == s->wakeup[i])
			return !ignored(l, nl, field_pid(s->woken_pid[i], rec));
	return false;
}

static void free_list_rcu(struct rcu_head *head)
{
	free(caa_container_of(head, struct tf_pid_list, rcu));
}

/*
 * Adds @pid to (@add) or takes it from the list of @kind; the old list
 * is freed after a grace period (the caller is a reader itself).
 */
static void list_change(struct tf_trace_array *tr, enum tf_pid_kind kind,
			int pid, bool add)
{
	struct tf_pid_list *old, *nl;
	unsigned n = 0;

	pthread_mutex_lock(&tr->pid_lock);
	old = tr->pids[kind];
	if (!old || in_list(old, pid) == add)
		goto out;
	nl = malloc(sizeof(*nl) + (old->nr + 1) * sizeof(int));
	if (!nl)
		goto out;	/* as the kernel's failed pid_list_set */
	for (unsigned i = 0; i < old->nr; i++) {
		if (add && pid < old->pids[i]) {
			nl->pids[n++] = pid;
			add = false;
		}
		if (old->pids[i] != pid)
			nl->pids[n++] = old->pids[i];
	}
	if (add)
		nl->pids[n++] = pid;
	/* emptied, it stays: set_event_pid then lets nothing pass, as
	 * the kernel's list once its last task is freed */
	nl->nr = n;
	tf_rcu_assign_pointer(tr->pids[kind], nl);
	urcu_memb_call_rcu(&old->rcu, free_list_rcu);
out:
	pthread_mutex_unlock(&tr->pid_lock);
}

void tf_pid_lists_follow(struct tf_trace_array *tr,
			 const struct tf_record *rec)
{
	const struct tf_sched_events *s = &tr->tracing->sched;

	for (int k = TF_PIDS_EVENT; k <= TF_PIDS_EVENT_NOTRACE; k++) {
		const struct tf_pid_list *l = rcu_dereference(tr->pids[k]);

		if (!l)
			continue;
		if (rec->event == s->fork) {
			/* only the children of listed parents join */
			if (in_list(l, field_pid(s->parent_pid, rec)))
				list_change(tr, k, field_pid(s->child_pid, rec),
					    true);
		} else if (rec->event == s->free) {
			list_change(tr, k, field_pid(s->free_pid, rec), false);
		}
	}
}
