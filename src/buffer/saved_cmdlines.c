// SPDX-License-Identifier: GPL-2.0
/*
 * saved_cmdlines.c - pid -> comm map (see saved_cmdlines.h).
 *
 * Like the kernel's: a fixed number of slots (saved_cmdlines_size, 128
 * by default), the oldest slot recycled.  A seqlock-free design is not
 * needed here: the event path only writes when a pid's comm changes,
 * which it checks first without the lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer/saved_cmdlines.h"

/* the kernel fills whole pages: 6552 entries, and never fewer */
#define DEFAULT_SIZE 6552
#define PID_SLOTS 4096		/* direct-mapped pid -> slot hint */

struct cmdline {
	int pid;
	char comm[TF_COMM_LEN];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cmdline *slots;
static unsigned nr_slots = DEFAULT_SIZE;
static unsigned next_slot;
static int hint[PID_SLOTS];	/* slot + 1 of a pid, by pid % PID_SLOTS */

/*
 * The event path records a comm with every record; almost always the
 * table has it already.  Each thread remembers what it recorded last per
 * pid, so that case takes no lock.  The generation changes whenever the
 * table forgets something (a recycled slot, a resize), which sends every
 * thread back to the table.
 */
#define SEEN_SLOTS 256
static atomic_uint generation = 1;

struct seen {
	int pid;
	unsigned gen;
	char comm[TF_COMM_LEN];
};
static __thread struct seen seen[SEEN_SLOTS];

static bool ensure(void)
{
	if (!slots)
		slots = calloc(nr_slots, sizeof(*slots));
	return slots != NULL;
}

static int find_locked(int pid)
{
	int h = hint[(unsigned)pid % PID_SLOTS] - 1;

	if (h >= 0 && (unsigned)h < nr_slots && slots[h].pid == pid &&
	    slots[h].comm[0])
		return h;
	for (unsigned i = 0; i < nr_slots; i++)
		if (slots[i].pid == pid && slots[i].comm[0])
			return (int)i;
	return -1;
}

void tf_saved_cmdlines_record(int pid, const char *comm)
{
	int i;

	struct seen *me;
	unsigned gen;

	if (pid < 0 || !comm)
		return;
	me = &seen[(unsigned)pid % SEEN_SLOTS];
	gen = atomic_load_explicit(&generation, memory_order_acquire);
	if (me->pid == pid && me->gen == gen &&
	    strncmp(me->comm, comm, TF_COMM_LEN - 1) == 0)
		return;
	pthread_mutex_lock(&lock);
	if (ensure()) {
		i = find_locked(pid);
		if (i < 0) {
			i = (int)next_slot;
			next_slot = (next_slot + 1) % nr_slots;
			if (slots[i].comm[0])	/* forgets another pid */
				atomic_fetch_add(&generation, 1);
			slots[i].pid = pid;
		}
		strncpy(slots[i].comm, comm, TF_COMM_LEN - 1);
		slots[i].comm[TF_COMM_LEN - 1] = '\0';
		hint[(unsigned)pid % PID_SLOTS] = i + 1;
		me->pid = pid;
		me->gen = atomic_load(&generation);
		memcpy(me->comm, slots[i].comm, TF_COMM_LEN);
	}
	pthread_mutex_unlock(&lock);
}

bool tf_proc_comm(int pid, char comm[TF_COMM_LEN])
{
	char path[64];
	FILE *f;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(comm, TF_COMM_LEN, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
	return comm[0] != '\0';
}

bool tf_saved_cmdlines_find(int pid, char comm[TF_COMM_LEN])
{
	bool found = false;
	int i;

	if (pid == 0) {
		strcpy(comm, "<idle>");
		return true;
	}
	pthread_mutex_lock(&lock);
	if (ensure() && (i = find_locked(pid)) >= 0) {
		memcpy(comm, slots[i].comm, TF_COMM_LEN);
		found = true;
	}
	pthread_mutex_unlock(&lock);
	return found;
}

void tf_saved_cmdlines_show(struct strbuf *out)
{
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; slots && i < nr_slots; i++)
		if (slots[i].comm[0])
			sb_printf(out, "%d %s\n", slots[i].pid, slots[i].comm);
	pthread_mutex_unlock(&lock);
}

unsigned tf_saved_cmdlines_size(void)
{
	return nr_slots;
}

int tf_saved_cmdlines_resize(unsigned n)
{
	struct cmdline *p;

	if (n == 0 || n > 32768)
		return -EINVAL;
	if (n < DEFAULT_SIZE)
		n = DEFAULT_SIZE;
	p = calloc(n, sizeof(*p));
	if (!p)
		return -ENOMEM;
	pthread_mutex_lock(&lock);
	free(slots);
	slots = p;
	nr_slots = n;
	next_slot = 0;
	memset(hint, 0, sizeof(hint));
	atomic_fetch_add(&generation, 1);
	pthread_mutex_unlock(&lock);
	return 0;
}
