// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.c - the live kernel source (see kernel.h): a private instance
 * `tracefuse-<pid>` on the host's tracefs, where exactly the events the
 * emulated tree needs are enabled; its per-CPU raw buffers are decoded
 * with libtraceevent's kbuffer and dispatched as records in the kernel's
 * own layout.
 *
 * The host is reached only through a directory fd of its tracefs root
 * (openat), never through a path: tracefuse may be mounted over
 * /sys/kernel/tracing itself (`tracefuse run`).
 *
 * "Needed" is a query on the tree: an event is enabled on the host while
 * any trace array's file for it has TF_FILE_ENABLED (soft mode from
 * triggers included).  trace_array.c calls tf_tracing.event_enabled_hook when
 * that bit changes, under the control lock, so the host is up to date
 * before the write that enabled the event returns.
 *
 * One streaming thread sweeps the per-CPU trace_pipe_raw files
 * (non-blocking reads return partially filled pages too) every few
 * milliseconds; a reader of trace or hist drains (the same sweep, under
 * the same mutex) so that everything that happened before its read is in.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>

#include "buffer/saved_tgids.h"
#include "dispatch/dispatch.h"
#include "trace/trace_array.h"
#include "util/rcu.h"
#include <urcu/rculist.h>
#include "source/source.h"
#include "filter/filter.h"
#include "trigger/trigger.h"
#include "util/strbuf.h"

#define INSTANCE_PREFIX "tracefuse-"
#define SWEEP_IDLE_MS 10	/* between sweeps when the buffers are quiet */
#define SWEEP_BUSY_MS 2		/* when the last sweep found data */
#define SWEEP_AGAIN_PAGES 64	/* a sweep this big: sweep again at once */
#define STREAM_NICE (-10)	/* where allowed (root) */
#define OWN_REFRESH_NS 100000000ull
#define OWN_KEEP_NS 5000000000ull	/* exited threads stay listed */
#define NOT_OWN_SLOTS 1024
#define STATS_NS 1000000000ull
#define COMM_SLOTS 65536	/* direct-mapped pid -> comm cache */
#define MAX_OWN 1024
#define HOST_BUFFER_KB "4096"	/* per CPU, on machines of <= 16 CPUs */

struct comm_ent {
	int pid;		/* 0: empty */
	char comm[16];		/* "" : unknown */
	int tgid;		/* 0: not looked up; -1: gone */
};

/* A pid field and the comm field that names its task, in one event. */
struct comm_pair {
	const struct tf_field *pid, *comm;
};

struct ev_info {
	struct tf_event *event;
	struct comm_pair pairs[2];
	unsigned nr_pairs;
	const struct tf_field *exec_filename;	/* sched_process_exec */
	const struct tf_field *exec_pid;
	const struct tf_field *other_pid;	/* next_pid / woken pid */
};

struct kcpu {
	int cpu;		/* host CPU number */
	int fd;			/* per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK */
	unsigned long long lost;	/* overrun + dropped, from stats */
	/*
	 * While stacks are wanted, the host writes a kernel_stack record
	 * right after each event: the event waits here for it.
	 */
	uint8_t *pending;
	unsigned pending_size;
	unsigned long long pending_ts;
	uint16_t pending_id;
	/*
	 * Pages read and not yet dispatched, oldest first (a ring); kbuf
	 * decodes the first, whose next event is ev (NULL: none loaded).
	 */
	uint8_t **queue;
	unsigned q_head, q_len, q_cap;
	struct kbuffer *kbuf;
	void *ev;
	unsigned long long ev_ts;
};

#define CMDLINES_BUF 65536	/* the host's saved_cmdlines, read whole */

struct ksource {
	struct tf_source *src;
	struct tf_registry *reg;
	int host_fd;			/* the host's tracefs (tf_sources) */
	char *cmdlines_buf;		/* CMDLINES_BUF bytes */
	int inst_fd;			/* the instance's directory */
	char inst_name[64];
	bool started;
	struct kcpu *cpus;
	int nr_cpus;
	size_t page_size;
	uint8_t **free_pages;		/* read buffers kept for reuse */
	unsigned nr_free;
	struct ev_info *ids;		/* indexed by event id */
	int nr_ids;
	uint8_t *host_on;		/* per registry index */
	/*
	 * Filters pushed down to the host instance, per registry index:
	 * the text written to its filter file (NULL: none), and whether it
	 * is the very filter of every trace array recording the event
	 * (records then arrive tf_record.prefiltered).
	 */
	char **pushed;
	atomic_bool *prefiltered;
	/*
	 * Whether the host buffers can hold anything: events enabled on
	 * the host, and a count of disables, of which the last one a sweep
	 * found the buffers empty after (clean_gen).  While nothing is on
	 * and the buffers were empty since the last disable, a drain has
	 * nothing to read and returns at once.
	 */
	atomic_uint nr_on;
	atomic_uint disable_gen, clean_gen;
	/* the host's events: those of the registry when the source
	 * started; events added later (a replay's) are not the host's */
	unsigned nr_host;
	pthread_mutex_t lock;		/* one sweep at a time */
	pthread_mutex_t ctl_lock;	/* host_on and the enable writes */
	pthread_t thread;
	atomic_bool stop;
	int wake_fd;
	struct comm_ent *comms;
	int own[MAX_OWN];		/* sorted tids of this process */
	int not_own[NOT_OWN_SLOTS];	/* pids named like us, not ours */
	char self_comm[16];
	uint64_t own_seen[MAX_OWN];	/* when each was last listed */
	int nr_own;
	nlink_t own_nlink;
	uint64_t own_at, stats_at;
	unsigned long long dispatched, unknown;
	int kstack_id;			/* ftrace:kernel_stack, or -1 */
	bool stacks;			/* options/stacktrace on the host */
};


static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Writes @val to @path below @dirfd, as `echo -n val > path`. */
static int write_at(int dirfd, const char *path, const char *val)
{
	int fd = openat(dirfd, path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static ssize_t read_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* ---- crash cleanup ---- */

/* Removes instances of earlier runs whose process is gone. */
static void remove_stale_instances(int host_fd)
{
	int dfd = openat(host_fd, "instances",
			 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, INSTANCE_PREFIX,
			    strlen(INSTANCE_PREFIX)) != 0)
			continue;
		pid = strtol(de->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* alive (or not ours to judge) */
		if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) == 0)
			fprintf(stderr, "tracefuse: removed the host instance "
				"%s left by a previous run\n", de->d_name);
	}
	closedir(d);
}

/* ---- which events the tree needs ---- */

static bool event_needed(struct tf_tracing *t, unsigned index)
{
	struct tf_trace_array *tr;
	bool need = false;

	/* callers normally hold t->lock; RCU keeps a stray caller safe */
	tf_rcu_read_lock();
	cds_list_for_each_entry_rcu(tr, &t->instances, list)
		if (atomic_load(&tf_tr_file(tr, index)->flags) &
		    TF_FILE_ENABLED) {
			need = true;
			break;
		}
	tf_rcu_read_unlock();
	/* options/event-fork follows forks whether they are enabled or not */
	return need || tf_tracing_event_fork_needs(t, tf_registry_event(t->reg,
									 index));
}

/*
 * The filter the host can apply for the tree, or NULL.  The host's
 * filter hides records from every consumer of the event, so it is
 * pushed down only where no one loses a record it would see: every
 * trace array that records the event has a filter, none has a trigger
 * on it (triggers see records the filter drops), and event-fork does
 * not need it.  When those filters are one text, the host applies it
 * exactly (*exact): the records need no second look, and predicates on
 * user strings (`char *`, .ustring), which only the kernel can read,
 * match as the kernel's.  Different texts are pushed as their union
 * for the traffic, each trace array then filtering again, which is
 * right only if none reads user strings.  Callers hold t->lock.
 */
static char *pushdown_text(struct tf_tracing *t, unsigned index, bool *exact)
{
	struct tf_registry *reg = t->reg;
	struct tf_trace_array *tr;
	struct strbuf sb;
	const char *first = NULL;
	bool pointers = false;
	unsigned n = 0;

	*exact = false;
	if (tf_tracing_event_fork_needs(t, tf_registry_event(reg, index)))
		return NULL;
	cds_list_for_each_entry(tr, &t->instances, list) {
		struct tf_event_file *file = tf_tr_file(tr, index);

		if (!(atomic_load(&file->flags) & TF_FILE_ENABLED))
			continue;
		if (!cds_list_empty(&file->triggers) || !file->filter)
			return NULL;
		if (tf_filter_reads_pointers(file->filter))
			pointers = true;
		if (!first)
			first = tf_filter_string(file->filter);
		else if (strcmp(first, tf_filter_string(file->filter)) != 0)
			n++;
	}
	if (!first)
		return NULL;
	if (!n) {
		*exact = true;
		return strdup(first);
	}
	if (pointers)
		return NULL;
	sb_init(&sb);
	cds_list_for_each_entry(tr, &t->instances, list) {
		struct tf_event_file *file = tf_tr_file(tr, index);

		if (!(atomic_load(&file->flags) & TF_FILE_ENABLED))
			continue;
		sb_printf(&sb, "%s(%s)", sb.len ? " || " : "",
			  tf_filter_string(file->filter));
	}
	if (sb_error(&sb)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

/* Writes the host's filter of @ev as @text (NULL: none); ctl_lock held. */
static void push_filter(struct ksource *ks, unsigned index, char *text,
			bool exact)
{
	struct tf_event *ev = tf_registry_event(ks->reg, index);
	char path[512];
	char *old = ks->pushed[index];
	int ret;

	if (!text == !old && (!text || strcmp(text, old) == 0)) {
		free(text);
		atomic_store(&ks->prefiltered[index], text && exact);
		return;
	}
	snprintf(path, sizeof(path), "events/%s/%s/filter", ev->system,
		 ev->name);
	if (!text)
		atomic_store(&ks->prefiltered[index], false);
	ret = write_at(ks->inst_fd, path, text ? text : "0");
	if (ret < 0 && text) {
		/* the host refuses it (another kernel's fields): tracefuse
		 * filters alone, as before */
		free(text);
		text = NULL;
		exact = false;
		write_at(ks->inst_fd, path, "0");
	}
	free(old);
	ks->pushed[index] = text;
	atomic_store(&ks->prefiltered[index], text && exact);
}

/* Brings the host's enable state of one event in line with the tree. */
static void sync_event(struct ksource *ks, struct tf_tracing *t,
		       unsigned index)
{
	struct tf_event *ev;
	bool need;
	char path[512];
	int ret;

	if (index >= ks->nr_host)
		return;		/* added at run time: not on the host */
	ev = tf_registry_event(ks->reg, index);
	if (strcmp(ev->system, "ftrace") == 0)
		return;		/* not enableable; trace_marker is ours */
	pthread_mutex_lock(&ks->ctl_lock);
	need = event_needed(t, index);
	if (need) {
		/* set before enabling: the host filters its first event */
		bool exact = false;
		char *text = pushdown_text(t, index, &exact);

		push_filter(ks, index, text, exact);
	}
	if (need == ks->host_on[index]) {
		pthread_mutex_unlock(&ks->ctl_lock);
		return;
	}
	snprintf(path, sizeof(path), "events/%s/%s/enable", ev->system,
		 ev->name);
	ret = write_at(ks->inst_fd, path, need ? "1" : "0");
	if (ret < 0 && ret != -ENOENT)
		fprintf(stderr, "tracefuse: kernel source: %s %s:%s on the "
			"host: %s\n", need ? "enabling" : "disabling",
			ev->system, ev->name, strerror(-ret));
	if (ret == 0) {
		ks->host_on[index] = need;
		if (need) {
			atomic_fetch_add(&ks->nr_on, 1);
		} else {
			/* its last records may still be in the buffers */
			atomic_fetch_sub(&ks->nr_on, 1);
			atomic_fetch_add(&ks->disable_gen, 1);
		}
	}
	pthread_mutex_unlock(&ks->ctl_lock);
}

/*
 * The kernel's stacktrace trigger records the stack of the event that
 * fires it; the host gives stacks only as kernel_stack records after
 * each event, with the instance's stacktrace option.  So that option is
 * on while any event file of the tree has a stacktrace trigger.
 */
static bool stacks_needed(struct tf_tracing *t)
{
	struct tf_trace_array *tr;
	bool need = false;

	tf_rcu_read_lock();
	cds_list_for_each_entry_rcu(tr, &t->instances, list) {
		unsigned nr = t->reg->nr_events;

		for (unsigned i = 0; i < nr && !need; i++) {
			struct tf_trigger *data;

			cds_list_for_each_entry_rcu(data,
						    &tf_tr_file(tr, i)->triggers,
						    list)
				if (strcmp(data->cmd->name, "stacktrace") == 0)
					need = true;
		}
		if (need)
			break;
	}
	tf_rcu_read_unlock();
	return need;
}

static void sync_stacks(struct ksource *ks, struct tf_tracing *t)
{
	bool need;

	if (ks->kstack_id < 0)
		return;
	need = stacks_needed(t);
	pthread_mutex_lock(&ks->ctl_lock);
	if (need != ks->stacks &&
	    write_at(ks->inst_fd, "options/stacktrace", need ? "1" : "0") == 0)
		ks->stacks = need;
	pthread_mutex_unlock(&ks->ctl_lock);
}

static void enabled_hook(struct tf_event_file *file, void *data)
{
	struct ksource *ks = data;

	if (ks && ks->started) {
		sync_event(ks, file->tr->tracing, file->event->index);
		sync_stacks(ks, file->tr->tracing);
	}
}

/* ---- tracefuse's own threads ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* insertion sort of the (small, nearly sorted) tid list with its dates */
static void sort_own(struct ksource *ks)
{
	for (int i = 1; i < ks->nr_own; i++) {
		int tid = ks->own[i], j = i;
		uint64_t seen = ks->own_seen[i];

		for (; j > 0 && ks->own[j - 1] > tid; j--) {
			ks->own[j] = ks->own[j - 1];
			ks->own_seen[j] = ks->own_seen[j - 1];
		}
		ks->own[j] = tid;
		ks->own_seen[j] = seen;
	}
}

/*
 * Re-reads our threads.  Threads that have exited stay on the list for
 * OWN_KEEP_NS: their last records (a FUSE worker switching out before it
 * ends) are still in the host buffer when the list is next read.
 */
static void refresh_own(struct ksource *ks)
{
	DIR *d = opendir("/proc/self/task");
	uint64_t now = now_ns();
	struct dirent *de;
	struct stat st;
	int n = 0;

	if (!d)
		return;
	if (fstat(dirfd(d), &st) == 0)
		ks->own_nlink = st.st_nlink;
	/* keep the recently seen, then add (or re-date) the present */
	for (int i = 0; i < ks->nr_own; i++)
		if (now - ks->own_seen[i] < OWN_KEEP_NS) {
			ks->own_seen[n] = ks->own_seen[i];
			ks->own[n++] = ks->own[i];
		}
	ks->nr_own = n;
	while ((de = readdir(d))) {
		int tid = atoi(de->d_name), i;

		if (tid <= 0)
			continue;
		for (i = 0; i < n && ks->own[i] != tid; i++)
			;
		if (i < n) {
			ks->own_seen[i] = now;
		} else if (ks->nr_own < MAX_OWN) {
			ks->own_seen[ks->nr_own] = now;
			ks->own[ks->nr_own++] = tid;
		}
	}
	closedir(d);
	sort_own(ks);
}

/* /proc/self/task's link count is 2 + the number of threads: a cheap
 * look at whether threads came or went since the list was made. */
static void refresh_own_if_changed(struct ksource *ks)
{
	struct stat st;

	if (stat("/proc/self/task", &st) == 0 && st.st_nlink != ks->own_nlink)
		refresh_own(ks);
}

static bool is_own(const struct ksource *ks, int pid)
{
	return pid > 0 && bsearch(&pid, ks->own, (size_t)ks->nr_own,
				  sizeof(int), cmp_int) != NULL;
}

/*
 * Whether @pid (whose comm is @comm) is one of our threads.  A thread
 * newer than the list (libfuse makes and ends workers all the time) is
 * found by its comm, which it inherits from ours, then checked in
 * /proc/self/task once (the answer is cached).
 */
static bool is_self(struct ksource *ks, int pid, const char *comm)
{
	unsigned slot = (unsigned)pid % NOT_OWN_SLOTS;
	char path[64];

	if (is_own(ks, pid))
		return true;
	if (pid <= 0 || !comm || strcmp(comm, ks->self_comm) != 0 ||
	    ks->not_own[slot] == pid)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d", pid);
	if (access(path, F_OK) < 0) {
		ks->not_own[slot] = pid;
		return false;
	}
	if (ks->nr_own < MAX_OWN) {
		ks->own_seen[ks->nr_own] = now_ns();
		ks->own[ks->nr_own++] = pid;
		sort_own(ks);
	}
	return true;
}

/*
 * The kernel keeps our own threads out of the instance too (the
 * instance's set_event_notrace_pid with options/event-fork, so that
 * threads created later inherit it); wakeups of and switches to them
 * are dropped here.
 */
static void exclude_own_in_kernel(struct ksource *ks)
{
	char buf[MAX_OWN * 12 + 1];
	size_t len = 0;

	write_at(ks->inst_fd, "options/event-fork", "1");
	for (int i = 0; i < ks->nr_own; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%d ",
					ks->own[i]);
	buf[len] = '\0';
	if (len)
		write_at(ks->inst_fd, "set_event_notrace_pid", buf);
}

/* ---- comms ---- */

static void comm_set(struct ksource *ks, int pid, const char *comm,
		     size_t len)
{
	struct comm_ent *e;

	if (pid <= 0)
		return;
	e = &ks->comms[(unsigned)pid % COMM_SLOTS];
	if (e->pid != pid)
		e->tgid = 0;
	e->pid = pid;
	if (len > 15)
		len = 15;
	memcpy(e->comm, comm, len);
	e->comm[len] = '\0';
}

/* The comm of a task that has exited: the host's saved_cmdlines. */
static bool host_saved_comm(struct ksource *ks, int pid, char comm[16])
{
	char *buf = ks->cmdlines_buf;
	char key[24];
	char *p;
	int n;

	if (read_at(ks->host_fd, "saved_cmdlines", buf + 1,
		    CMDLINES_BUF - 1) <= 0)
		return false;
	buf[0] = '\n';
	n = snprintf(key, sizeof(key), "\n%d ", pid);
	p = strstr(buf, key);
	if (!p)
		return false;
	p += n;
	n = (int)strcspn(p, "\n");
	if (n > 15)
		n = 15;
	memcpy(comm, p, (size_t)n);
	comm[n] = '\0';
	return true;
}

static const char *comm_of(struct ksource *ks, int pid)
{
	struct comm_ent *e;
	char path[64], comm[32];
	ssize_t n;

	if (pid <= 0)
		return NULL;
	e = &ks->comms[(unsigned)pid % COMM_SLOTS];
	if (e->pid == pid)
		return e->comm[0] ? e->comm : NULL;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	n = read_at(AT_FDCWD, path, comm, sizeof(comm));
	if (n > 0) {
		comm_set(ks, pid, comm, strcspn(comm, "\n"));
	} else if (host_saved_comm(ks, pid, comm)) {
		comm_set(ks, pid, comm, strlen(comm));
	} else {
		e->pid = pid;
		e->comm[0] = '\0';
		e->tgid = 0;
	}
	return e->comm[0] ? e->comm : NULL;
}

/*
 * The tgid of @pid, looked up once per task (after comm_of(), which
 * makes the cache slot @pid's) and only while tgids are recorded: the
 * kernel saves them at context switches then (record-tgid).
 */
static int tgid_of(struct ksource *ks, int pid)
{
	struct comm_ent *e;

	if (pid <= 0 || !atomic_load_explicit(&ks->src->tracing->tgids_recorded,
					      memory_order_relaxed))
		return 0;
	e = &ks->comms[(unsigned)pid % COMM_SLOTS];
	if (e->pid != pid)
		return 0;
	if (!e->tgid) {
		e->tgid = tf_proc_tgid(pid);
		if (!e->tgid)
			e->tgid = -1;
	}
	return e->tgid > 0 ? e->tgid : 0;
}

/* Comm updates the event itself carries (switch, wakeup, fork, exec). */
static void snoop_comms(struct ksource *ks, const struct ev_info *info,
			const uint8_t *data, unsigned size)
{
	for (unsigned i = 0; i < info->nr_pairs; i++) {
		const struct comm_pair *p = &info->pairs[i];
		const char *c = (const char *)data + p->comm->offset;

		if (p->comm->offset + p->comm->size > size)
			continue;
		comm_set(ks, (int)tf_field_read_u64(p->pid, data), c,
			 strnlen(c, p->comm->size));
	}
	if (info->exec_filename) {
		unsigned len;
		const char *f = tf_field_read_str(info->exec_filename, data,
						  size, &len);
		const char *base;

		if (!f)
			return;
		/* begin_new_exec(): __set_task_comm(kbasename(filename)) */
		base = memrchr(f, '/', len);
		base = base ? base + 1 : f;
		comm_set(ks, (int)tf_field_read_u64(info->exec_pid, data),
			 base, len - (size_t)(base - f));
	}
}

static void add_pair(struct ev_info *info, const struct tf_event *ev,
		     const char *pid, const char *comm)
{
	const struct tf_field *p = tf_event_field(ev, pid);
	const struct tf_field *c = tf_event_field(ev, comm);

	if (p && c && p->kind == TF_FIELD_NUM &&
	    c->kind == TF_FIELD_STR_STATIC && info->nr_pairs < 2)
		info->pairs[info->nr_pairs++] = (struct comm_pair){ p, c };
}

static int build_ids(struct ksource *ks)
{
	struct tf_registry *reg = ks->reg;
	int max = 0;

	for (unsigned i = 0; i < ks->nr_host; i++)
		if (tf_registry_event(reg, i)->id > max)
			max = tf_registry_event(reg, i)->id;
	ks->nr_ids = max + 1;
	ks->ids = calloc((size_t)ks->nr_ids, sizeof(*ks->ids));
	if (!ks->ids)
		return -ENOMEM;
	for (unsigned i = 0; i < ks->nr_host; i++) {
		struct tf_event *ev = tf_registry_event(reg, i);
		struct ev_info *info;

		if (ev->id < 0)
			continue;
		info = &ks->ids[ev->id];
		info->event = ev;
		add_pair(info, ev, "prev_pid", "prev_comm");
		add_pair(info, ev, "next_pid", "next_comm");
		add_pair(info, ev, "child_pid", "child_comm");
		add_pair(info, ev, "pid", "newcomm");	/* task_rename */
		if (strcmp(ev->system, "sched") == 0) {
			if (strcmp(ev->name, "sched_process_exec") == 0) {
				info->exec_filename =
					tf_event_field(ev, "filename");
				info->exec_pid = tf_event_field(ev, "pid");
				if (!info->exec_pid)
					info->exec_filename = NULL;
			}
			add_pair(info, ev, "pid", "comm");	/* wakeups */
			info->other_pid = tf_event_field(ev, "next_pid");
			if (!info->other_pid &&
			    strncmp(ev->name, "sched_wak", 9) == 0)
				info->other_pid = tf_event_field(ev, "pid");
		}
	}
	return 0;
}

/* ---- streaming ---- */

static void dispatch_one(struct ksource *ks, int cpu, const uint8_t *data,
			 unsigned size, unsigned long long ts,
			 const uint64_t *stack, unsigned nr_stack)
{
	const struct ev_info *info;
	struct tf_record rec;
	const char *comm;
	uint16_t id;
	int32_t pid;

	memcpy(&id, data, 2);
	memcpy(&pid, data + 4, 4);
	info = &ks->ids[id];
	snoop_comms(ks, info, data, size);
	comm = comm_of(ks, pid);
	if (is_self(ks, pid, comm))
		return;
	if (info->other_pid) {
		int other = (int)tf_field_read_u64(info->other_pid, data);

		if (is_self(ks, other, comm_of(ks, other)))
			return;
	}
	rec = (struct tf_record){
		.event = info->event,
		.data = data,
		.size = size,
		.ts = ts,
		.cpu = cpu,
		.comm = comm,
		.tgid = tgid_of(ks, pid),
		.stack = stack,
		.nr_stack = nr_stack,
		.prefiltered = info->event->index < ks->nr_host &&
			       atomic_load_explicit(
				       &ks->prefiltered[info->event->index],
				       memory_order_relaxed),
	};
	tf_dispatch_locked(ks->src->tracing, &rec);	/* sweep() locks */
	ks->dispatched++;
}

/* Sends the event waiting for its stack on @c, without one. */
static void flush_pending(struct ksource *ks, struct kcpu *c)
{
	if (!c->pending_size)
		return;
	dispatch_one(ks, c->cpu, c->pending, c->pending_size, c->pending_ts,
		     NULL, 0);
	c->pending_size = 0;
}

static void handle_event(struct ksource *ks, struct kcpu *c,
			 const uint8_t *data, unsigned size,
			 unsigned long long ts)
{
	uint16_t id;

	if (size < 8)
		return;
	memcpy(&id, data, 2);
	if (id >= ks->nr_ids || !ks->ids[id].event) {
		ks->unknown++;
		return;
	}
	if (ks->kstack_id >= 0 && id == ks->kstack_id) {
		/* the stack of the event before it: int size, then frames */
		int32_t n;
		unsigned max = size >= 16 ? (size - 16) / 8 : 0;

		if (!c->pending_size || size < 16)
			return;
		memcpy(&n, data + 8, 4);
		if (n < 0 || (unsigned)n > max)
			n = (int32_t)max;
		dispatch_one(ks, c->cpu, c->pending, c->pending_size,
			     c->pending_ts, (const uint64_t *)(data + 16),
			     (unsigned)n);
		c->pending_size = 0;
		return;
	}
	flush_pending(ks, c);
	if (ks->stacks && c->pending && size <= ks->page_size) {
		memcpy(c->pending, data, size);
		c->pending_size = size;
		c->pending_ts = ts;
		return;
	}
	dispatch_one(ks, c->cpu, data, size, ts, NULL, 0);
}

/*
 * Order across CPUs.  The kernel processes an event when it happens, so
 * a trigger fired on one CPU acts before any later event on another.
 * A sweep reads one CPU after the other, and may read CPU 1 after an
 * event that is later than one CPU 0 received once its buffer was read:
 * dispatched CPU by CPU, the later event would fire its triggers first.
 * So a sweep notes when it began, reads every CPU's pages into that
 * CPU's queue, then dispatches, in timestamp order across CPUs, the
 * events older than its beginning; the younger wait for the next sweep,
 * which will have read everything older than them.  (The instance's
 * clock is mono: CLOCK_MONOTONIC's.)
 */
#define FREE_PAGES_MAX 256
#define MERGE_BATCH 256		/* events per read-side section */

static uint8_t *page_get(struct ksource *ks)
{
	if (ks->nr_free)
		return ks->free_pages[--ks->nr_free];
	return malloc(ks->page_size);
}

static void page_put(struct ksource *ks, uint8_t *page)
{
	if (ks->free_pages && ks->nr_free < FREE_PAGES_MAX)
		ks->free_pages[ks->nr_free++] = page;
	else
		free(page);
}

/* Reads one CPU's buffer until it is empty into its queue: the pages. */
static int read_cpu(struct ksource *ks, struct kcpu *c)
{
	int pages = 0;

	for (;;) {
		uint8_t *page;
		ssize_t n;

		if (c->q_len == c->q_cap) {
			unsigned cap = c->q_cap ? 2 * c->q_cap : 16;
			uint8_t **q = malloc(cap * sizeof(*q));

			if (!q)
				break;	/* the rest waits for the next sweep */
			for (unsigned i = 0; i < c->q_len; i++)
				q[i] = c->queue[(c->q_head + i) % c->q_cap];
			free(c->queue);
			c->queue = q;
			c->q_cap = cap;
			c->q_head = 0;
		}
		page = page_get(ks);
		if (!page)
			break;
		n = read(c->fd, page, ks->page_size);
		if (n <= 0) {
			page_put(ks, page);
			break;
		}
		c->queue[(c->q_head + c->q_len++) % c->q_cap] = page;
		pages++;
	}
	return pages;
}

static void pop_page(struct ksource *ks, struct kcpu *c)
{
	page_put(ks, c->queue[c->q_head]);
	c->q_head = (c->q_head + 1) % c->q_cap;
	c->q_len--;
	c->ev = NULL;
}

/* Makes c->ev the CPU's next queued event, if there is one. */
static void cpu_load(struct ksource *ks, struct kcpu *c)
{
	while (!c->ev && c->q_len) {
		if (kbuffer_load_subbuffer(c->kbuf, c->queue[c->q_head]) == 0)
			c->ev = kbuffer_read_event(c->kbuf, &c->ev_ts);
		if (!c->ev)
			pop_page(ks, c);
	}
}

static void cpu_advance(struct ksource *ks, struct kcpu *c)
{
	c->ev = kbuffer_next_event(c->kbuf, &c->ev_ts);
	if (!c->ev) {
		pop_page(ks, c);
		cpu_load(ks, c);
	}
}

/* Every CPU's buffer until empty; ks->lock held.  Returns the pages. */
static int sweep(struct ksource *ks)
{
	unsigned gen = atomic_load(&ks->disable_gen);
	unsigned long long t0 = now_ns();
	unsigned batch = 0;
	bool queued = false;
	int pages = 0;

	for (int i = 0; i < ks->nr_cpus; i++)
		pages += read_cpu(ks, &ks->cpus[i]);
	tf_dispatch_batch_begin();
	for (;;) {
		struct kcpu *min = NULL;

		for (int i = 0; i < ks->nr_cpus; i++) {
			struct kcpu *c = &ks->cpus[i];

			cpu_load(ks, c);
			if (c->ev && (!min || c->ev_ts < min->ev_ts))
				min = c;
		}
		if (!min || min->ev_ts >= t0)
			break;
		handle_event(ks, min, min->ev,
			     (unsigned)kbuffer_event_size(min->kbuf),
			     min->ev_ts);
		cpu_advance(ks, min);
		if (++batch % MERGE_BATCH == 0) {
			tf_dispatch_batch_end();
			tf_dispatch_batch_begin();
		}
	}
	for (int i = 0; i < ks->nr_cpus; i++) {
		struct kcpu *c = &ks->cpus[i];

		/* an event's stack comes right after it on its CPU: the
		 * event waits while that CPU has younger events queued */
		if (c->ev)
			queued = true;
		else
			flush_pending(ks, c);
	}
	tf_dispatch_batch_end();
	/* empty, nothing on, no disable since we began: nothing can come */
	if (!pages && !queued && !atomic_load(&ks->nr_on) &&
	    atomic_load(&ks->disable_gen) == gen)
		atomic_store(&ks->clean_gen, gen);
	return pages;
}

/* Nothing is enabled on the host and its buffers were found empty since. */
static bool quiet(struct ksource *ks)
{
	return !atomic_load(&ks->nr_on) &&
	       atomic_load(&ks->clean_gen) == atomic_load(&ks->disable_gen);
}

static unsigned long long stat_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Host-side losses, from the instance's per-CPU stats. */
static void check_lost(struct ksource *ks)
{
	struct tf_sources *owner = ks->src->owner;

	for (int i = 0; i < ks->nr_cpus; i++) {
		struct kcpu *c = &ks->cpus[i];
		char path[64], buf[1024];
		unsigned long long lost;

		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", c->cpu);
		if (read_at(ks->inst_fd, path, buf, sizeof(buf)) <= 0)
			continue;
		lost = stat_value(buf, "\noverrun: ") +
		       stat_value(buf, "\ndropped events: ");
		if (lost > c->lost) {
			fprintf(stderr, "tracefuse: kernel source: cpu%d: "
				"%llu events lost in the host buffer (%llu "
				"in all)\n", c->cpu, lost - c->lost, lost);
			if (c->cpu < 4096)
				atomic_fetch_add(&owner->lost_by_cpu[c->cpu],
						 lost - c->lost);
			c->lost = lost;
		}
	}
}

static void *stream_thread(void *arg)
{
	struct ksource *ks = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "tf-kernel");
	/* a loaded machine must not starve the reader into host losses:
	 * it sleeps most of the time, so a higher weight costs little */
	setpriority(PRIO_PROCESS, (id_t)gettid(), STREAM_NICE);
	pthread_mutex_lock(&ks->lock);
	refresh_own(ks);	/* this thread */
	pthread_mutex_unlock(&ks->lock);
	while (!atomic_load(&ks->stop)) {
		struct pollfd pfd = { .fd = ks->wake_fd, .events = POLLIN };
		uint64_t now = now_ns();
		int pages;

		pthread_mutex_lock(&ks->lock);
		if (now - ks->own_at > OWN_REFRESH_NS) {
			refresh_own(ks);
			ks->own_at = now;
		} else {
			refresh_own_if_changed(ks);
		}
		pages = sweep(ks);
		pthread_mutex_unlock(&ks->lock);
		if (now - ks->stats_at > STATS_NS) {
			check_lost(ks);
			/* a trigger added without an enable change */
			sync_stacks(ks, ks->src->tracing);
			ks->stats_at = now;
		}
		if (pages < SWEEP_AGAIN_PAGES)
			poll(&pfd, 1, pages ? SWEEP_BUSY_MS : SWEEP_IDLE_MS);
	}
	return NULL;
}

/* ---- the source type ---- */

static void ks_free(struct ksource *ks)
{
	if (!ks)
		return;
	for (int i = 0; ks->cpus && i < ks->nr_cpus; i++) {
		if (ks->cpus[i].fd >= 0)
			close(ks->cpus[i].fd);
		free(ks->cpus[i].pending);
		while (ks->cpus[i].q_len)
			pop_page(ks, &ks->cpus[i]);
		free(ks->cpus[i].queue);
		if (ks->cpus[i].kbuf)
			kbuffer_free(ks->cpus[i].kbuf);
	}
	if (ks->inst_fd >= 0) {
		close(ks->inst_fd);
		if (unlinkat(ks->host_fd, ks->inst_name, AT_REMOVEDIR) < 0)
			fprintf(stderr, "tracefuse: kernel source: cannot "
				"remove the host instance %s: %s\n",
				ks->inst_name, strerror(errno));
	}
	if (ks->wake_fd >= 0)
		close(ks->wake_fd);
	while (ks->nr_free)
		free(ks->free_pages[--ks->nr_free]);
	free(ks->free_pages);
	free(ks->cpus);
	free(ks->ids);
	for (unsigned i = 0; ks->pushed && i < ks->nr_host; i++)
		free(ks->pushed[i]);
	free(ks->pushed);
	free(ks->prefiltered);
	free(ks->host_on);
	free(ks->comms);
	free(ks->cmdlines_buf);
	pthread_mutex_destroy(&ks->lock);
	pthread_mutex_destroy(&ks->ctl_lock);
	free(ks);
}

static int kernel_create(struct tf_source *src, const char *arg,
			 struct tf_registry *reg)
{
	int host_fd = src->owner->host_fd;
	struct ksource *ks;
	char probe[64];

	if (arg && *arg)
		return -EINVAL;
	if (host_fd < 0)
		return -ENODEV;
	/* the records' ids are the host's: the schemas must be too */
	if (!reg->source_desc || strcmp(reg->source_desc, "host tracefs"))
		return -EINVAL;
	remove_stale_instances(host_fd);
	/* can we make instances at all? (the real one is made after any
	 * daemonizing fork, named after the final pid) */
	snprintf(probe, sizeof(probe), "instances/" INSTANCE_PREFIX "%d",
		 (int)getpid());
	if (mkdirat(host_fd, probe, 0755) < 0 && errno != EEXIST)
		return -errno;
	unlinkat(host_fd, probe, AT_REMOVEDIR);

	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ks->cmdlines_buf = malloc(CMDLINES_BUF);
	if (!ks->cmdlines_buf) {
		free(ks);
		return -ENOMEM;
	}
	ks->src = src;
	ks->reg = reg;
	ks->host_fd = host_fd;
	ks->inst_fd = -1;
	ks->wake_fd = -1;
	pthread_mutex_init(&ks->lock, NULL);
	pthread_mutex_init(&ks->ctl_lock, NULL);
	src->priv = ks;
	return 0;
}

static int open_cpus(struct ksource *ks)
{
	int dfd = openat(ks->inst_fd, "per_cpu",
			 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;
	int cap = 0;

	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		char path[320];
		int cpu, fd;

		if (sscanf(de->d_name, "cpu%d", &cpu) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/trace_pipe_raw", de->d_name);
		fd = openat(dirfd(d), path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ks->nr_cpus == cap) {
			struct kcpu *n;

			cap = cap ? cap * 2 : 8;
			n = realloc(ks->cpus, (size_t)cap * sizeof(*n));
			if (!n) {
				close(fd);
				break;
			}
			ks->cpus = n;
		}
		ks->cpus[ks->nr_cpus++] = (struct kcpu){
			.cpu = cpu, .fd = fd, .pending = malloc(ks->page_size),
			.kbuf = kbuffer_alloc(sizeof(long) == 8 ?
					      KBUFFER_LSIZE_8 :
					      KBUFFER_LSIZE_4,
					      KBUFFER_ENDIAN_LITTLE),
		};
		if (!ks->cpus[ks->nr_cpus - 1].kbuf) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return ks->nr_cpus ? 0 : -ENOENT;
}

static int kernel_start(struct tf_source *src)
{
	struct ksource *ks = src->priv;
	struct tf_registry *reg = ks->reg;
	char buf[64];
	int ret;

	snprintf(ks->inst_name, sizeof(ks->inst_name),
		 "instances/" INSTANCE_PREFIX "%d", (int)getpid());
	if (mkdirat(ks->host_fd, ks->inst_name, 0755) < 0 && errno != EEXIST)
		return -errno;
	ks->inst_fd = openat(ks->host_fd, ks->inst_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ks->inst_fd < 0)
		return -errno;
	/* tracefuse's own timestamps are CLOCK_MONOTONIC: so are these */
	write_at(ks->inst_fd, "trace_clock", "mono");
	/* room for bursts between sweeps (the default is 1408 KiB) */
	if (sysconf(_SC_NPROCESSORS_CONF) <= 16)
		write_at(ks->inst_fd, "buffer_size_kb", HOST_BUFFER_KB);
	ks->page_size = 4096;
	if (read_at(ks->inst_fd, "buffer_subbuf_size_kb", buf,
		    sizeof(buf)) > 0 && atoi(buf) > 0)
		ks->page_size = (size_t)atoi(buf) * 1024;
	ks->free_pages = calloc(FREE_PAGES_MAX, sizeof(*ks->free_pages));
	ks->comms = calloc(COMM_SLOTS, sizeof(*ks->comms));
	ks->nr_host = reg->nr_events;
	ks->host_on = calloc(ks->nr_host ? ks->nr_host : 1, 1);
	ks->pushed = calloc(ks->nr_host ? ks->nr_host : 1,
			    sizeof(*ks->pushed));
	ks->prefiltered = calloc(ks->nr_host ? ks->nr_host : 1,
				 sizeof(*ks->prefiltered));
	ks->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!ks->free_pages || !ks->comms || !ks->host_on || !ks->pushed ||
	    !ks->prefiltered ||
	    ks->wake_fd < 0)
		return -ENOMEM;
	ret = build_ids(ks);
	if (ret < 0)
		return ret;
	{
		struct tf_event *kstack = tf_registry_find(reg, "ftrace",
							   "kernel_stack");

		ks->kstack_id = kstack ? kstack->id : -1;
	}
	ret = open_cpus(ks);
	if (ret < 0)
		return ret;
	refresh_own(ks);
	ks->own_at = ks->stats_at = now_ns();
	if (read_at(AT_FDCWD, "/proc/self/comm", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(ks->self_comm, sizeof(ks->self_comm), "%.15s", buf);
	}
	exclude_own_in_kernel(ks);

	pthread_mutex_lock(&src->tracing->lock);
	ks->started = true;
	src->tracing->event_enabled_data = ks;
	src->tracing->event_enabled_hook = enabled_hook;
	for (unsigned i = 0; i < ks->nr_host; i++)
		sync_event(ks, src->tracing, i);
	pthread_mutex_unlock(&src->tracing->lock);

	ret = pthread_create(&ks->thread, NULL, stream_thread, ks);
	if (ret) {
		ks->started = false;
		return -ret;
	}
	return 0;
}

static void kernel_drain(struct tf_source *src)
{
	struct ksource *ks = src->priv;

	if (!ks || !ks->started || quiet(ks))
		return;
	pthread_mutex_lock(&ks->lock);
	/* a FUSE worker thread newer than our list: its wakeups are in.
	 * (Other new threads are found by their comm, is_self(): a stat of
	 * /proc/self/task here would double the cost of a drain.) */
	if (!is_own(ks, (int)gettid())) {
		refresh_own(ks);
		ks->own_at = now_ns();
	}
	sweep(ks);
	pthread_mutex_unlock(&ks->lock);
}

static void kernel_stop(struct tf_source *src)
{
	struct ksource *ks = src->priv;
	uint64_t one = 1;

	if (!ks || !ks->started)
		return;
	pthread_mutex_lock(&src->tracing->lock);
	src->tracing->event_enabled_hook = NULL;
	src->tracing->event_enabled_data = NULL;
	pthread_mutex_unlock(&src->tracing->lock);
	atomic_store(&ks->stop, true);
	/* if this fails, the thread wakes within SWEEP_IDLE_MS anyway */
	(void)!write(ks->wake_fd, &one, sizeof(one));
	pthread_join(ks->thread, NULL);
	check_lost(ks);
	ks->started = false;
}

static void kernel_destroy(struct tf_source *src)
{
	ks_free(src->priv);
	src->priv = NULL;
}

const struct tf_source_type tf_source_kernel = {
	.name = "kernel",
	.create = kernel_create,
	.start = kernel_start,
	.drain = kernel_drain,
	.sync = kernel_drain,	/* the host's events are the present's */
	.stop = kernel_stop,
	.destroy = kernel_destroy,
};
