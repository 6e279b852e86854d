// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ring.c - libFuzzer target for the daemon's side of the producer
 * rings (src/source/ring.c, ring_channel.c): what a hostile or broken
 * producer can put in the shared memory it hands over.
 *
 * Input: one control byte, then the rest.  Bit 0 picks the mode:
 *   0 - raw: the rest is copied into the data area of a formatted ring
 *       (4 KiB, or 64 KiB with bit 1) as it is, and data_head is set
 *       from its first 8 bytes (any value: behind the tail, far ahead,
 *       unaligned), so the framing itself is hostile;
 *   1 - records: the rest is cut into records written through the
 *       writer (tf_ring_write), each a u16 length, a u16 event choice
 *       (an index into the tree's events, whose id is patched into
 *       common_type, or with bit 15 the raw value as the id) and that
 *       many payload bytes, so the framing is right and the records'
 *       contents (sizes, __data_loc words, strings) are hostile.
 * The ring is attached as a producer's would be, drained
 * (tf_ring_channels_sync), closed and detached; every event is enabled
 * and sched_switch has a hist, so good records go all the way.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "hist/hist.h"
#include "source/ring.h"
#include "source/ring_channel.h"
#include "source/source.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "fuzz_tree.h"

static struct tf_registry *reg;
static struct tf_tracing tracing;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char hist[] = "hist:keys=prev_pid,next_comm:vals=hitcount";
	struct tf_event *sw;

	(void)argc;
	(void)argv;
	fuzz_tree_init("fuzz_ring", &reg, &tracing, 2, true);
	if (tf_sources_start(tf_sources_new(), &tracing) < 0)
		exit(1);
	sw = tf_registry_find(reg, "sched", "sched_switch");
	if (!sw)
		exit(1);
	pthread_mutex_lock(&tracing.lock);
	tf_set_event_token(tracing.top, "*:*", 1);
	if (tf_trigger_write(tf_tr_file(tracing.top, sw->index), hist,
			     strlen(hist)) < 0)
		exit(1);
	pthread_mutex_unlock(&tracing.lock);
	return 0;
}

static void write_records(void *map, const uint8_t *p, size_t n)
{
	struct tf_ring_writer w;
	uint64_t ts = 1000;

	tf_ring_writer_init(&w, map);
	while (n >= 4) {
		uint16_t len = (uint16_t)(p[0] | p[1] << 8);
		uint16_t pick = (uint16_t)(p[2] | p[3] << 8);
		uint8_t rec[512];
		const struct tf_event *ev;
		uint16_t id = pick & 0x7fff;

		p += 4;
		n -= 4;
		len %= sizeof(rec) + 1;
		if (len > n)
			len = (uint16_t)n;
		memcpy(rec, p, len);
		if (!(pick & 0x8000)) {
			ev = tf_registry_event(reg, pick % reg->nr_events);
			if (ev)
				id = (uint16_t)ev->id;
		}
		if (len >= 2)
			memcpy(rec, &id, 2);
		(void)tf_ring_write(&w, ts += 977, pick % 3, rec, len);
		p += len;
		n -= len;
	}
	tf_ring_writer_close(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_ring_channel *ch;
	uint64_t data_size;
	size_t map_size;
	void *map;
	int fd;

	if (size < 1 || size > 70000)
		return 0;
	data_size = (data[0] & 2) ? 65536 : 4096;
	map_size = TF_RING_CTL_SIZE + data_size;
	fd = memfd_create("fuzz-ring", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)map_size) < 0)
		abort();
	map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		abort();
	tf_ring_format(map, data_size, 0);
	if (data[0] & 1) {
		write_records(map, data + 1, size - 1);
	} else {
		struct tf_ring_ctl *ctl = map;
		size_t n = size - 1 < data_size ? size - 1 : data_size;
		uint64_t head = 0;

		memcpy(&head, data + 1, size - 1 < 8 ? size - 1 : 8);
		memcpy((uint8_t *)map + TF_RING_CTL_SIZE, data + 1, n);
		__atomic_store_n(&ctl->data_head, head, __ATOMIC_RELEASE);
		__atomic_store_n(&ctl->writer_closed, 1, __ATOMIC_RELEASE);
	}
	if (tf_ring_channel_attach(&tracing, fd, 4242, 4242, "fuzz", &ch) == 0) {
		tf_ring_channels_sync(tracing.sources);
		tf_ring_channel_detach(ch, NULL);
	}
	munmap(map, map_size);
	close(fd);
	pthread_mutex_lock(&tracing.lock);
	tf_trace_array_reset(tracing.top);
	pthread_mutex_unlock(&tracing.lock);
	return 0;
}
