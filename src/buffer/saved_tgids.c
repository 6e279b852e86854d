// SPDX-License-Identifier: GPL-2.0
/*
 * saved_tgids.c - pid -> tgid map (see saved_tgids.h).
 *
 * As the kernel's tgid_map: one slot per possible pid (pid_max, read from
 * the host), allocated once and never freed, so the event path stores a
 * tgid without a lock.  calloc's pages cost nothing until a pid in them
 * is saved.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffer/saved_tgids.h"

#define PID_MAX_LIMIT (4 * 1024 * 1024)	/* the kernel's on 64-bit */

static _Atomic(atomic_int *) tgid_map;
static int tgid_map_max;		/* set before tgid_map is published */
static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;

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

int tf_saved_tgids_alloc(void)
{
	int ret = 0;

	pthread_mutex_lock(&alloc_lock);
	if (!atomic_load(&tgid_map)) {
		int max = pid_max();
		atomic_int *map = calloc((size_t)max + 1, sizeof(*map));

		if (map) {
			tgid_map_max = max;
			atomic_store_explicit(&tgid_map, map,
					      memory_order_release);
		} else {
			ret = -ENOMEM;
		}
	}
	pthread_mutex_unlock(&alloc_lock);
	return ret;
}

void tf_saved_tgids_record(int pid, int tgid)
{
	atomic_int *map = atomic_load_explicit(&tgid_map,
					       memory_order_acquire);

	if (!map || pid <= 0 || pid > tgid_map_max)
		return;
	if (atomic_load_explicit(&map[pid], memory_order_relaxed) != tgid)
		atomic_store_explicit(&map[pid], tgid, memory_order_relaxed);
}

int tf_saved_tgids_find(int pid)
{
	atomic_int *map = atomic_load_explicit(&tgid_map,
					       memory_order_acquire);

	if (!map || pid <= 0 || pid > tgid_map_max)
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

void tf_saved_tgids_show(struct strbuf *out)
{
	atomic_int *map = atomic_load_explicit(&tgid_map,
					       memory_order_acquire);

	for (int pid = 1; map && pid <= tgid_map_max; pid++) {
		int tgid = atomic_load_explicit(&map[pid],
						memory_order_relaxed);

		if (tgid)
			sb_printf(out, "%d %d\n", pid, tgid);
	}
}
