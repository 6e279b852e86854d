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
#define PID_SLOTS TF_CMDLINE_PID_SLOTS

struct tf_cmdline {
	int pid;
	char comm[TF_COMM_LEN];
};

/*
 * The event path records a comm with every record; almost always the
 * table has it already.  Each thread remembers what it recorded last per
 * pid, so that case takes no lock.  The generation changes whenever the
 * table forgets something (a recycled slot, a resize), which sends every
 * thread back to the table.
 *
 * The cache is the thread's, not a tree's: a thread may record into the
 * tables of several trees (two contexts in one process), so an entry
 * names its table by id.  table_ids is the one process-wide counter
 * here: it only hands out those ids (a table freed and another made at
 * its address must not match a stale entry), it holds no tree's state.
 */
#define SEEN_SLOTS 256
static atomic_uint table_ids;

struct seen {
	int pid;
	unsigned table;
	unsigned gen;
	char comm[TF_COMM_LEN];
};
static __thread struct seen seen[SEEN_SLOTS];

void tf_saved_cmdlines_init(struct tf_saved_cmdlines *sc)
{
	memset(sc, 0, sizeof(*sc));
	pthread_mutex_init(&sc->lock, NULL);
	sc->nr_slots = DEFAULT_SIZE;
	atomic_init(&sc->generation, 1);
	sc->id = atomic_fetch_add(&table_ids, 1) + 1;
}

void tf_saved_cmdlines_destroy(struct tf_saved_cmdlines *sc)
{
	free(sc->slots);
	sc->slots = NULL;
	pthread_mutex_destroy(&sc->lock);
}

static bool ensure(struct tf_saved_cmdlines *sc)
{
	if (!sc->slots)
		sc->slots = calloc(sc->nr_slots, sizeof(*sc->slots));
	return sc->slots != NULL;
}

static int find_locked(struct tf_saved_cmdlines *sc, int pid)
{
	int h = sc->hint[(unsigned)pid % PID_SLOTS] - 1;

	if (h >= 0 && (unsigned)h < sc->nr_slots && sc->slots[h].pid == pid &&
	    sc->slots[h].comm[0])
		return h;
	for (unsigned i = 0; i < sc->nr_slots; i++)
		if (sc->slots[i].pid == pid && sc->slots[i].comm[0])
			return (int)i;
	return -1;
}

void tf_saved_cmdlines_record(struct tf_saved_cmdlines *sc, int pid,
			      const char *comm)
{
	int i;

	struct seen *me;
	unsigned gen;

	if (pid < 0 || !comm)
		return;
	me = &seen[(unsigned)pid % SEEN_SLOTS];
	gen = atomic_load_explicit(&sc->generation, memory_order_acquire);
	if (me->pid == pid && me->gen == gen && me->table == sc->id &&
	    strncmp(me->comm, comm, TF_COMM_LEN - 1) == 0)
		return;
	pthread_mutex_lock(&sc->lock);
	if (ensure(sc)) {
		i = find_locked(sc, pid);
		if (i < 0) {
			i = (int)sc->next_slot;
			sc->next_slot = (sc->next_slot + 1) % sc->nr_slots;
			if (sc->slots[i].comm[0])	/* forgets another pid */
				atomic_fetch_add(&sc->generation, 1);
			sc->slots[i].pid = pid;
		}
		strncpy(sc->slots[i].comm, comm, TF_COMM_LEN - 1);
		sc->slots[i].comm[TF_COMM_LEN - 1] = '\0';
		sc->hint[(unsigned)pid % PID_SLOTS] = i + 1;
		me->pid = pid;
		me->table = sc->id;
		me->gen = atomic_load(&sc->generation);
		memcpy(me->comm, sc->slots[i].comm, TF_COMM_LEN);
	}
	pthread_mutex_unlock(&sc->lock);
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

bool tf_saved_cmdlines_find(struct tf_saved_cmdlines *sc, int pid,
			    char comm[TF_COMM_LEN])
{
	bool found = false;
	int i;

	if (pid == 0) {
		strcpy(comm, "<idle>");
		return true;
	}
	pthread_mutex_lock(&sc->lock);
	if (ensure(sc) && (i = find_locked(sc, pid)) >= 0) {
		memcpy(comm, sc->slots[i].comm, TF_COMM_LEN);
		found = true;
	}
	pthread_mutex_unlock(&sc->lock);
	return found;
}

void tf_saved_cmdlines_show(struct tf_saved_cmdlines *sc, struct strbuf *out)
{
	pthread_mutex_lock(&sc->lock);
	for (unsigned i = 0; sc->slots && i < sc->nr_slots; i++)
		if (sc->slots[i].comm[0])
			sb_printf(out, "%d %s\n", sc->slots[i].pid,
				  sc->slots[i].comm);
	pthread_mutex_unlock(&sc->lock);
}

unsigned tf_saved_cmdlines_size(struct tf_saved_cmdlines *sc)
{
	return sc->nr_slots;
}

int tf_saved_cmdlines_resize(struct tf_saved_cmdlines *sc, unsigned n)
{
	struct tf_cmdline *p;

	if (n == 0 || n > 32768)
		return -EINVAL;
	if (n < DEFAULT_SIZE)
		n = DEFAULT_SIZE;
	p = calloc(n, sizeof(*p));
	if (!p)
		return -ENOMEM;
	pthread_mutex_lock(&sc->lock);
	free(sc->slots);
	sc->slots = p;
	sc->nr_slots = n;
	sc->next_slot = 0;
	memset(sc->hint, 0, sizeof(sc->hint));
	atomic_fetch_add(&sc->generation, 1);
	pthread_mutex_unlock(&sc->lock);
	return 0;
}
