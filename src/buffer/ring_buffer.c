/*
 * ring_buffer.c - the per-CPU trace buffer (see ring_buffer.h).
 *
 * Each CPU has a circular byte array of entries {ts, len, data}, 8-byte
 * aligned.  An entry that does not fit before the end wraps to the start;
 * the gap left is marked (or implied when too small for a header).  In
 * overwrite mode the oldest entries are dropped to make room.  One short
 * mutex per CPU: an ingest thread feeds one CPU's stream, and readers
 * copy out and leave.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buffer/ring_buffer.h"

#define HDR_SIZE 16u
#define WRAP_MARK 0xffffffffu

struct rb_hdr {
	uint64_t ts;
	uint32_t len;
	uint32_t pad;
};

struct rb_cpu {
	pthread_mutex_t lock;
	uint8_t *data;
	size_t size;
	size_t head, tail, used;
	uint64_t entries, written, overrun;
};

struct tf_ring_buffer {
	int nr_cpus;
	struct rb_cpu *cpus;
};

static size_t entry_size(unsigned len)
{
	return HDR_SIZE + (((size_t)len + 7) & ~(size_t)7);
}

struct tf_ring_buffer *tf_ring_buffer_create(int nr_cpus, size_t cpu_size)
{
	struct tf_ring_buffer *rb = calloc(1, sizeof(*rb));

	if (!rb)
		return NULL;
	rb->nr_cpus = nr_cpus;
	rb->cpus = calloc((size_t)nr_cpus, sizeof(*rb->cpus));
	if (!rb->cpus) {
		free(rb);
		return NULL;
	}
	for (int i = 0; i < nr_cpus; i++)
		pthread_mutex_init(&rb->cpus[i].lock, NULL);
	if (tf_ring_buffer_resize(rb, cpu_size) < 0) {
		tf_ring_buffer_free(rb);
		return NULL;
	}
	return rb;
}

void tf_ring_buffer_free(struct tf_ring_buffer *rb)
{
	if (!rb)
		return;
	for (int i = 0; i < rb->nr_cpus; i++) {
		free(rb->cpus[i].data);
		pthread_mutex_destroy(&rb->cpus[i].lock);
	}
	free(rb->cpus);
	free(rb);
}

int tf_ring_buffer_nr_cpus(const struct tf_ring_buffer *rb)
{
	return rb->nr_cpus;
}

int tf_ring_buffer_resize(struct tf_ring_buffer *rb, size_t cpu_size)
{
	cpu_size = (cpu_size + 7) & ~(size_t)7;
	if (cpu_size < 4096)
		cpu_size = 4096;
	for (int i = 0; i < rb->nr_cpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];
		uint8_t *p = malloc(cpu_size);

		if (!p)
			return -ENOMEM;
		pthread_mutex_lock(&c->lock);
		free(c->data);
		c->data = p;
		c->size = cpu_size;
		c->head = c->tail = c->used = 0;
		c->entries = c->written = c->overrun = 0;
		pthread_mutex_unlock(&c->lock);
	}
	return 0;
}

/* Removes the oldest entry (or a wrap gap); the lock is held. */
static void drop_oldest(struct rb_cpu *c, int count_overrun)
{
	struct rb_hdr h;

	if (c->size - c->tail < HDR_SIZE) {
		c->used -= c->size - c->tail;
		c->tail = 0;
		return;
	}
	memcpy(&h, c->data + c->tail, sizeof(h));
	if (h.len == WRAP_MARK) {
		c->used -= c->size - c->tail;
		c->tail = 0;
		return;
	}
	c->used -= entry_size(h.len);
	c->tail += entry_size(h.len);
	c->entries--;
	if (count_overrun)
		c->overrun++;
	if (c->used == 0)
		c->head = c->tail = 0;
}

int tf_ring_buffer_write(struct tf_ring_buffer *rb, int cpu, uint64_t ts,
			 const void *data, unsigned len)
{
	struct rb_cpu *c = &rb->cpus[(unsigned)cpu % (unsigned)rb->nr_cpus];
	size_t need = entry_size(len), waste;
	struct rb_hdr h = { .ts = ts, .len = len };

	pthread_mutex_lock(&c->lock);
	if (need > c->size / 2) {
		pthread_mutex_unlock(&c->lock);
		return -E2BIG;
	}
	waste = c->head + need > c->size ? c->size - c->head : 0;
	while (c->size - c->used < waste + need)
		drop_oldest(c, 1);
	/* dropping may have emptied the buffer and moved head to 0 */
	waste = c->head + need > c->size ? c->size - c->head : 0;
	if (waste) {
		if (waste >= HDR_SIZE) {
			struct rb_hdr w = { .len = WRAP_MARK };

			memcpy(c->data + c->head, &w, sizeof(w));
		}
		c->used += waste;
		c->head = 0;
	}
	memcpy(c->data + c->head, &h, sizeof(h));
	memcpy(c->data + c->head + HDR_SIZE, data, len);
	c->head += need;
	if (c->head == c->size)
		c->head = 0;
	c->used += need;
	c->entries++;
	c->written++;
	pthread_mutex_unlock(&c->lock);
	return 0;
}

void tf_ring_buffer_reset(struct tf_ring_buffer *rb, int cpu)
{
	for (int i = 0; i < rb->nr_cpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];

		if (cpu >= 0 && i != cpu)
			continue;
		pthread_mutex_lock(&c->lock);
		c->head = c->tail = c->used = 0;
		c->entries = c->written = c->overrun = 0;
		pthread_mutex_unlock(&c->lock);
	}
}

void tf_ring_buffer_swap(struct tf_ring_buffer *a, struct tf_ring_buffer *b)
{
	for (int i = 0; i < a->nr_cpus && i < b->nr_cpus; i++) {
		struct rb_cpu *x = &a->cpus[i], *y = &b->cpus[i], tmp;

		pthread_mutex_lock(&x->lock);
		pthread_mutex_lock(&y->lock);
		tmp = *x;
		x->data = y->data; x->size = y->size; x->head = y->head;
		x->tail = y->tail; x->used = y->used; x->entries = y->entries;
		x->written = y->written; x->overrun = y->overrun;
		y->data = tmp.data; y->size = tmp.size; y->head = tmp.head;
		y->tail = tmp.tail; y->used = tmp.used;
		y->entries = tmp.entries; y->written = tmp.written;
		y->overrun = tmp.overrun;
		pthread_mutex_unlock(&y->lock);
		pthread_mutex_unlock(&x->lock);
	}
}

void tf_ring_buffer_stats(struct tf_ring_buffer *rb, int cpu,
			  struct tf_rb_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < rb->nr_cpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];

		if (cpu >= 0 && i != cpu)
			continue;
		pthread_mutex_lock(&c->lock);
		st->entries += c->entries;
		st->written += c->written;
		st->overrun += c->overrun;
		st->bytes += c->used;
		if (c->entries) {
			size_t t = c->tail;
			struct rb_hdr h;

			if (c->size - t < HDR_SIZE)
				t = 0;
			memcpy(&h, c->data + t, sizeof(h));
			if (h.len == WRAP_MARK)
				memcpy(&h, c->data, sizeof(h));
			if (!st->oldest_ts || h.ts < st->oldest_ts)
				st->oldest_ts = h.ts;
		}
		pthread_mutex_unlock(&c->lock);
	}
}

static int entry_cmp(const void *a, const void *b)
{
	const struct tf_rb_entry *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->data < y->data ? -1 : x->data > y->data;
}

int tf_ring_buffer_copy(struct tf_ring_buffer *rb, int cpu, int consume,
			struct tf_rb_snapshot *snap)
{
	size_t cap_bytes = 0, cap_nr = 0, nb = 0, nr = 0;

	memset(snap, 0, sizeof(*snap));
	for (int i = 0; i < rb->nr_cpus; i++) {
		if (cpu >= 0 && i != cpu)
			continue;
		pthread_mutex_lock(&rb->cpus[i].lock);
		cap_bytes += rb->cpus[i].used;
		cap_nr += rb->cpus[i].entries;
		pthread_mutex_unlock(&rb->cpus[i].lock);
	}
	/* records may arrive meanwhile: take what fits, the rest next time */
	snap->bytes = malloc(cap_bytes + 1);
	snap->entries = calloc(cap_nr + 1, sizeof(*snap->entries));
	if (!snap->bytes || !snap->entries) {
		tf_rb_snapshot_release(snap);
		return -ENOMEM;
	}
	for (int i = 0; i < rb->nr_cpus; i++) {
		struct rb_cpu *c = &rb->cpus[i];
		size_t t, left;

		if (cpu >= 0 && i != cpu)
			continue;
		pthread_mutex_lock(&c->lock);
		t = c->tail;
		left = c->entries;
		while (left && nr < cap_nr) {
			struct rb_hdr h;

			if (c->size - t < HDR_SIZE) {
				t = 0;
				continue;
			}
			memcpy(&h, c->data + t, sizeof(h));
			if (h.len == WRAP_MARK) {
				t = 0;
				continue;
			}
			if (nb + h.len > cap_bytes)
				break;
			memcpy(snap->bytes + nb, c->data + t + HDR_SIZE, h.len);
			snap->entries[nr++] = (struct tf_rb_entry) {
				.ts = h.ts, .cpu = i, .len = h.len,
				.data = (const uint8_t *)(uintptr_t)nb,
			};
			nb += (h.len + 7) & ~7u;
			t += entry_size(h.len);
			left--;
			if (consume)
				drop_oldest(c, 0);
		}
		pthread_mutex_unlock(&c->lock);
	}
	for (size_t i = 0; i < nr; i++)
		snap->entries[i].data = snap->bytes +
					(uintptr_t)snap->entries[i].data;
	snap->nr = nr;
	qsort(snap->entries, nr, sizeof(*snap->entries), entry_cmp);
	return 0;
}

void tf_rb_snapshot_release(struct tf_rb_snapshot *snap)
{
	free(snap->bytes);
	free(snap->entries);
	memset(snap, 0, sizeof(*snap));
}
