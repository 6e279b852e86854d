/*
 * ring_buffer.h - the per-CPU trace buffer: records in the kernel's
 * binary layout with their timestamps, in overwrite mode by default
 * like ftrace (the oldest records go when a CPU's buffer is full).
 */
#ifndef TF_BUFFER_RING_BUFFER_H
#define TF_BUFFER_RING_BUFFER_H

#include <stddef.h>
#include <stdint.h>

struct tf_ring_buffer;

struct tf_rb_entry {
	uint64_t ts;
	int cpu;
	unsigned len;
	const uint8_t *data;
};

struct tf_ring_buffer *tf_ring_buffer_create(int nr_cpus, size_t cpu_size);
void tf_ring_buffer_free(struct tf_ring_buffer *rb);
int tf_ring_buffer_nr_cpus(const struct tf_ring_buffer *rb);
/* Resizes every CPU's buffer; its contents are dropped. */
int tf_ring_buffer_resize(struct tf_ring_buffer *rb, size_t cpu_size);

/* Writes one record; returns 0, or -E2BIG when it can never fit. */
int tf_ring_buffer_write(struct tf_ring_buffer *rb, int cpu, uint64_t ts,
			 const void *data, unsigned len);
void tf_ring_buffer_reset(struct tf_ring_buffer *rb, int cpu); /* -1: all */
/* Exchanges the contents of two buffers of as many CPUs (snapshot). */
void tf_ring_buffer_swap(struct tf_ring_buffer *a, struct tf_ring_buffer *b);

struct tf_rb_stats {
	uint64_t entries;	/* records in the buffer now */
	uint64_t written;	/* records ever written */
	uint64_t overrun;	/* records overwritten */
	uint64_t bytes;		/* bytes in use */
	uint64_t oldest_ts;
};
void tf_ring_buffer_stats(struct tf_ring_buffer *rb, int cpu,
			  struct tf_rb_stats *st);

/*
 * A copy of the buffer's records (one CPU, or all when @cpu is -1),
 * merged in timestamp order; with @consume the records are removed.
 */
struct tf_rb_snapshot {
	size_t nr;
	struct tf_rb_entry *entries;
	uint8_t *bytes;
};
int tf_ring_buffer_copy(struct tf_ring_buffer *rb, int cpu, int consume,
			struct tf_rb_snapshot *snap);
void tf_rb_snapshot_release(struct tf_rb_snapshot *snap);

#endif
