// SPDX-License-Identifier: GPL-2.0
/*
 * saved_tgids.c - pid -> tgid map (see saved_tgids.h).
 *
 * As the kernel's tgid_map: one slot per possible pid (pid_max, read from
 * the host), allocated once and freed only with the tree, so the event
 * path stores a tgid without a lock.  calloc's pages cost nothing until a pid in them
 * is saved.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffer/saved_tgids.h"

#define PID_MAX_LIMIT (4 * 1024 * 1024)	/* the kernel's on 64-bit */


static int pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	int n = 0;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	if (n <= 0 || n > PID_MAX_LIMIT)
		n = PID_MAX_LIMIT;
	return n;
}

void tf_saved_tgids_init(struct tf_saved_tgids *st)
{
	atomic_init(&st->map, NULL);
	st->max = 0;
	pthread_mutex_init(&st->alloc_lock, NULL);
}

void tf_saved_tgids_destroy(struct tf_saved_tgids *st)
{
	free(atomic_load(&st->map));
	atomic_store(&st->map, NULL);
	pthread_mutex_destroy(&st->alloc_lock);
}

int tf_saved_tgids_alloc(struct tf_saved_tgids *st)
{
	int ret = 0;

	pthread_mutex_lock(&st->alloc_lock);
	if (!atomic_load(&st->map)) {
		int max = pid_max();
		atomic_int *map = calloc((size_t)max + 1, sizeof(*map));

		if (map) {
			st->max = max;
			atomic_store_explicit(&st->map, map,
					      memory_order_release);
		} else {
			ret = -ENOMEM;
		}
	}
	pthread_mutex_unlock(&st->alloc_lock);
	return ret;
}

void tf_saved_tgids_record(struct tf_saved_tgids *st, int pid, int tgid)
{
	atomic_int *map = atomic_load_explicit(&st->map,
					       memory_order_acquire);

	if (!map || pid <= 0 || pid > st->max)
		return;
	if (atomic_load_explicit(&map[pid], memory_order_relaxed) != tgid)
		atomic_store_explicit(&map[pid], tgid, memory_order_relaxed);
}

int tf_saved_tgids_find(struct tf_saved_tgids *st, int pid)
{
	atomic_int *map = atomic_load_explicit(&st->map,
					       memory_order_acquire);

	if (!map || pid <= 0 || pid > st->max)
		return 0;
	return atomic_load_explicit(&map[pid], memory_order_relaxed);
}

int tf_proc_tgid(int pid)
{
	char path[64], line[256];
	int tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

void tf_saved_tgids_show(struct tf_saved_tgids *st, struct strbuf *out)
{
	atomic_int *map = atomic_load_explicit(&st->map,
					       memory_order_acquire);

	for (int pid = 1; map && pid <= st->max; pid++) {
		int tgid = atomic_load_explicit(&map[pid],
						memory_order_relaxed);

		if (tgid)
			sb_printf(out, "%d %d\n", pid, tgid);
	}
}
