/*
 * pid_list.c - set_event_pid and set_event_notrace_pid: a sorted pid set,
 * replaced whole on each write and read by the event path under RCU.
 * Write semantics follow the kernel's trace_pid_write(): the new list is
 * the old one plus the pids written; any bad pid fails the whole write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/rcu.h"

#include "events/trace_array.h"
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
	/* a pid that does not fit a pid_t fails trace_pid_list_set(),
	 * which the kernel returns as -1: EPERM */
	if (v > 0x7fffffff)
		return -EPERM;
	*pid = (int)v;
	return 0;
}

int tf_pid_list_write(struct tf_trace_array *tr, enum tf_pid_kind kind,
		      const char *buf, size_t len, bool truncate)
{
	struct tf_pid_list **slot = list_slot(tr, kind);
	struct tf_pid_list *old = *slot, *nl;
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
		if (i < len && buf[i] == '\0')
			i = len;
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
	tf_rcu_assign_pointer(*slot, nl);
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

/* Called from the event path inside an RCU read-side section. */
bool tf_pid_allowed(struct tf_trace_array *tr, int pid)
{
	struct tf_pid_list *l = rcu_dereference(tr->pids[TF_PIDS_EVENT]);
	struct tf_pid_list *nl =
		rcu_dereference(tr->pids[TF_PIDS_EVENT_NOTRACE]);

	if (l && !in_list(l, pid))
		return false;
	if (nl && in_list(nl, pid))
		return false;
	return true;
}
