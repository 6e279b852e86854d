/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_buffer.h - the per-CPU trace buffer: records in the kernel's
 * binary layout with their timestamps, in pages as the kernel's ring
 * buffer keeps them, in overwrite mode by default like ftrace (when a
 * CPU's buffer is full the oldest *page* goes, with every event on it).
 *
 * Threads: writers of one CPU's buffer serialise among themselves;
 * readers never take a writer's lock, so a reader never makes an ingest
 * thread wait.  Writers and readers must be inside tf_rcu_read_lock():
 * resizing replaces a CPU's pages and frees the old ones after a grace
 * period.
 */
#ifndef TF_BUFFER_RING_BUFFER_H
#define TF_BUFFER_RING_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's data bytes per ring-buffer page (PAGE_SIZE - header), of
 * the default sub-buffer (order 0). */
#define TF_RB_PAGE_DATA 4080u
/* Sub-buffers are 4 KiB << order, order 0..7 (buffer_subbuf_size_kb). */
#define TF_RB_MAX_ORDER 7u

struct tf_ring_buffer;

struct tf_rb_entry {
	uint64_t ts;
	int cpu;
	unsigned len;
	const uint8_t *data;
	/* consuming reads: events of this CPU lost before this one */
	uint64_t lost;
};

/* A buffer of @bytes per CPU in sub-buffers of 4 KiB << @order:
 * DIV_ROUND_UP(bytes, their data bytes) pages, >= 2, allocated now; NULL
 * when the host's available memory cannot hold it.  Its largest event
 * has 4072 data bytes whatever the order (6.12's max_data_size is set
 * when a buffer is allocated, at order 0, and kept). */
struct tf_ring_buffer *tf_ring_buffer_create(int nr_cpus, size_t bytes,
					     unsigned order);
void tf_ring_buffer_free(struct tf_ring_buffer *rb);
int tf_ring_buffer_nr_cpus(const struct tf_ring_buffer *rb);
/*
 * Resizes every CPU's buffer; the events stay, the oldest pages going if
 * they no longer fit (events written during the resize may be lost).
 * Control path: not inside a read-side section (it waits for a grace
 * period).
 */
int tf_ring_buffer_resize(struct tf_ring_buffer *rb, size_t bytes);
/* The same for one CPU (@cpu < 0: all).  -ENOMEM, and no change, when
 * the pages would not fit in the host's available memory. */
int tf_ring_buffer_resize_cpu(struct tf_ring_buffer *rb, int cpu,
			      size_t bytes);
/* A CPU's size as buffer_size_kb counts it: its pages x their data bytes
 * when it was last sized (a new order leaves it as it was). */
size_t tf_ring_buffer_size(struct tf_ring_buffer *rb, int cpu);
/* The data bytes of a page of sub-buffer order @order: 4080, 8176, ... */
unsigned tf_ring_buffer_subbuf_data(unsigned order);
unsigned tf_ring_buffer_order(const struct tf_ring_buffer *rb);
/*
 * A new sub-buffer order (ring_buffer_subbuf_order_set()): each CPU gets
 * as many new pages as hold the bytes its pages held, at least 2; the
 * events are gone, the counters and the sizes buffer_size_kb shows stay.
 * -ENOMEM, and no change, when the host cannot hold the pages.  Control
 * path, not inside a read-side section.
 */
int tf_ring_buffer_set_order(struct tf_ring_buffer *rb, unsigned order);
/* options/overwrite: off, a full buffer drops new events instead. */
void tf_ring_buffer_set_overwrite(struct tf_ring_buffer *rb, bool on);

/*
 * Writes one record; returns 0, -E2BIG when it can never fit (more than
 * 4072 bytes), or -ENOSPC when the buffer is full and not overwriting (counted in
 * the CPU's dropped events).
 */
int tf_ring_buffer_write(struct tf_ring_buffer *rb, int cpu, uint64_t ts,
			 const void *data, unsigned len);
void tf_ring_buffer_reset(struct tf_ring_buffer *rb, int cpu); /* -1: all */
/* Exchanges the contents of two buffers of as many CPUs (snapshot). */
void tf_ring_buffer_swap(struct tf_ring_buffer *a, struct tf_ring_buffer *b);

struct tf_rb_stats {
	uint64_t entries;	/* events in the buffer now, not consumed */
	uint64_t written;	/* events written since the last reset */
	uint64_t overrun;	/* events lost to overwriting */
	uint64_t bytes;		/* bytes of those events (kernel sizes) */
	uint64_t oldest_ts;
	uint64_t dropped;	/* events refused: full, not overwriting */
	uint64_t read;		/* events consumed (trace_pipe) */
};
void tf_ring_buffer_stats(struct tf_ring_buffer *rb, int cpu,
			  struct tf_rb_stats *st);

/*
 * A copy of the buffer's records (one CPU, or all when @cpu is -1),
 * merged in timestamp order; with @consume the records are removed and
 * each CPU's first entry says how many events were lost since the last
 * consuming read.
 */
struct tf_rb_snapshot {
	size_t nr;
	struct tf_rb_entry *entries;
	uint8_t *bytes;
};
int tf_ring_buffer_copy(struct tf_ring_buffer *rb, int cpu, int consume,
			struct tf_rb_snapshot *snap);
void tf_rb_snapshot_release(struct tf_rb_snapshot *snap);

/*
 * What a trace_pipe_raw read of @room data bytes (the read's size less
 * the page header) takes, as the kernel's ring_buffer_read_page(): from
 * @cpu's reader page (the oldest with unread events), the whole page
 * when none of it was read yet, it fits in @room with the padding the
 * writer left at its end, and the writer has moved on from it;
 * otherwise as many of its events as fit in @room, counted in kernel
 * sizes (a time extend with its event), and the padding after the last
 * when that fits too.  The entries in snap are consumed, in the order
 * written.  Nothing is taken (snap->nr 0, rp->pad 0) when nothing is
 * unread, or when the first event does not fit (rp->too_small).  On
 * success @snap holds memory even when nothing was taken: the caller
 * releases it (tf_rb_snapshot_release) in every case.
 */
struct tf_rb_read_page {
	uint64_t stamp;		/* the time the page's deltas start from: the
				 * page's own for a page read from its start,
				 * else the last event's consumed before */
	uint64_t lost;		/* events lost since the last consuming read */
	unsigned pad;		/* padding bytes taken after the events */
	bool too_small;
};
int tf_ring_buffer_read_page(struct tf_ring_buffer *rb, int cpu,
			     unsigned room, struct tf_rb_snapshot *snap,
			     struct tf_rb_read_page *rp);
/* Whether the buffer (one CPU, or all for @cpu < 0) holds no event a
 * consumer has not taken. */
bool tf_ring_buffer_empty(struct tf_ring_buffer *rb, int cpu);

/*
 * A consuming reader that takes events one at a time, oldest first
 * across its CPUs (one, or all for @cpu < 0), as trace_pipe's reads do:
 * peek at the next, print it, consume it only if it fitted.  Between
 * begin and end it holds the CPUs' reader locks (other consumers of
 * them wait; writers never do); the caller stays inside
 * tf_rcu_read_lock() throughout.  begin returns NULL when out of memory.
 */
struct tf_rb_consumer;
struct tf_rb_consumer *tf_rb_consumer_begin(struct tf_ring_buffer *rb,
					    int cpu);
/* The next event, a copy valid until the next consume or end; NULL when
 * there is none.  Its `lost`: its CPU's events overwritten since the last
 * event consumed there. */
const struct tf_rb_entry *tf_rb_consumer_peek(struct tf_rb_consumer *cs);
/* Takes the event the last peek returned out of the buffer. */
void tf_rb_consumer_consume(struct tf_rb_consumer *cs);
void tf_rb_consumer_end(struct tf_rb_consumer *cs);

#endif
