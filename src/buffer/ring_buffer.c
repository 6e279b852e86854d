// SPDX-License-Identifier: GPL-2.0
/*
 * ring_buffer.c - the per-CPU trace buffer (see ring_buffer.h).
 *
 * Each CPU has nr_pages pages (the kernel's sub-buffers) used as a ring,
 * named by a page counter that only grows: page p lives in slot
 * p % nr_pages.  `head` is the page being written, `tail` the oldest page
 * still holding events; the events are in pages [tail, head].  A page
 * fills as the kernel's does: an event goes on the head page if its
 * kernel size (event header, data rounded to 4 bytes, a time extend when
 * the delta does not fit 27 bits) fits the page's data bytes (4080 for
 * the default 4 KiB sub-buffer, (4 KiB << order) - 16 for bigger ones),
 * else on a new page.  Taking a new page
 * when all are in use drops the oldest page whole, counting its unread
 * events as overrun (overwrite mode), or refuses the event (not
 * overwriting; counted as dropped).
 *
 * Writers of one CPU hold its writer lock; readers take no lock a writer
 * takes.  A reader copies a page, then checks that the page still holds
 * the same page counter (`gen`): a writer that recycled the page in the
 * meantime changed gen before writing into it, so a torn copy is seen and
 * thrown away (those events were overwritten: lost, as in the kernel).
 * Page contents are written and read with relaxed atomic 8-byte accesses,
 * and the committed length is published with release/acquire, as in the
 * perf ring buffer's head/tail protocol.  Consuming readers (trace_pipe)
 * serialise on a reader lock and keep their position in `read_pos`; they
 * take events one at a time (struct tf_rb_consumer) or all at once.
 *
 * Per-CPU state hangs off an RCU-published pointer: resizing or a new
 * sub-buffer order builds new pages, publishes them and frees the old
 * ones after a grace period; a snapshot swaps the pointers of two
 * buffers.  CPUs may differ in
 * size (per_cpu/cpuN/buffer_size_kb).  Pages are allocated and faulted
 * in when sized, and a size the host's available memory cannot hold is
 * refused (-ENOMEM), as the kernel's ring_buffer_resize() does.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "buffer/ring_buffer.h"
#include "util/rcu.h"

/* Our entry headers are bigger than the kernel's 4-8 bytes: a page has
 * twice the kernel's data bytes, room for every event whose kernel size
 * fits (any event of >= 8 data bytes). */
#define HDR_SIZE	16u
#define MIN_PAGES	2u
#define BUF_PAGE_HDR_SIZE 16u	/* the kernel's buffer_data_page header */

/* the kernel's ring buffer event sizes (ring_buffer.c) */
#define RB_EVNT_HDR_SIZE	4u
#define RB_ALIGNMENT		4u
#define RB_MAX_SMALL_DATA	(RB_ALIGNMENT * 28)
#define RB_LEN_TIME_EXTEND	8u
#define RB_EVNT_MIN_SIZE	8u	/* the smallest event, a padding's too */
#define TS_DELTA_BITS		27

/* read_pos: page counter << 20 | offset / 8 (offsets are 8-aligned; a
 * 512 KiB sub-buffer's page is 1 MiB of ours) */
#define RP_OFF_BITS	20
#define RP_PAGE(rp)	((rp) >> RP_OFF_BITS)
#define RP_OFF(rp)	((unsigned)((rp) & ((1u << RP_OFF_BITS) - 1)) * 8u)
#define RP_MAKE(p, o)	(((uint64_t)(p) << RP_OFF_BITS) | ((o) / 8u))

struct rb_hdr {
	uint64_t ts;
	uint32_t len;
	uint32_t ksize;		/* the event's size in the kernel's buffer */
};

struct rb_page {
	uint64_t gen;		/* 1 + the page counter it holds; 0: none */
	uint32_t commit;	/* bytes of data published */
	uint32_t entries;	/* events published */
	uint64_t kbytes;	/* their kernel sizes */
	/* the padding the writer left at the end when it moved on (the
	 * kernel's rb_reset_tail(), counted in the buffer's bytes), or 0 */
	uint32_t kpad;
	uint64_t data[];	/* cpu->phys bytes */
};

struct rb_cpu {
	pthread_mutex_t wlock;	/* writers */
	pthread_mutex_t rlock;	/* consuming readers */
	unsigned nr_pages;
	unsigned cap;		/* the kernel's data bytes per page */
	unsigned phys;		/* ours: 2 * cap */
	size_t stride;		/* bytes from one page to the next */
	unsigned char *pages;
	uint64_t head, tail;	/* page counters */
	uint64_t read_pos;	/* RP_MAKE(); consuming readers write it */
	/* writer-only */
	uint32_t kused;		/* kernel bytes used on the head page */
	uint64_t last_ts;
	/* counters: written by writers (w) or consumers (r), read by all */
	uint64_t written, overrun, dropped;		/* w */
	uint64_t kb_written, kb_lost;			/* w */
	uint64_t read, kb_read, lost_reported;		/* r */
};

struct tf_ring_buffer {
	int nr_cpus;
	bool overwrite;
	unsigned order;		/* sub-buffers of 4 KiB << order */
	/* the largest event's data: fixed when the buffer is made, as 6.12's
	 * max_data_size, which a new sub-buffer order does not change */
	unsigned max_data;
	/* per CPU, what buffer_size_kb shows: the size when last resized (the
	 * kernel's trace_array_cpu entries, kept by a new order) */
	size_t *size;
	struct rb_cpu **cpus;	/* RCU */
	/* swaps and resizes exchange per-CPU pointers: one at a time */
	pthread_mutex_t ctl_lock;
};

struct copy_state {
	struct tf_rb_snapshot *snap;
	size_t nb, cap_bytes, cap_nr;
};

/* per-CPU state: published with C11 release/acquire (which TSan sees) */
#define RB_CPU(rb, i)	__atomic_load_n(&(rb)->cpus[i], __ATOMIC_ACQUIRE)
#define RB_SET_CPU(rb, i, c) __atomic_store_n(&(rb)->cpus[i], c, __ATOMIC_RELEASE)

#define LOAD(p)		__atomic_load_n(p, __ATOMIC_RELAXED)
#define STORE(p, v)	__atomic_store_n(p, v, __ATOMIC_RELAXED)
#define ADD(p, v)	STORE(p, LOAD(p) + (v))	/* one writer */

/* rb_calculate_event_length() */
static unsigned kernel_event_size(unsigned len)
{
	unsigned n = len ? len : 1;

	if (n > RB_MAX_SMALL_DATA)
		n += 4;
	n += RB_EVNT_HDR_SIZE;
	n = (n + RB_ALIGNMENT - 1) & ~(RB_ALIGNMENT - 1);
	if (n == RB_LEN_TIME_EXTEND + RB_ALIGNMENT)
		n += RB_ALIGNMENT;
	return n;
}

static size_t phys_size(unsigned len)
{
	return HDR_SIZE + (((size_t)len + 7) & ~(size_t)7);
}

unsigned tf_ring_buffer_subbuf_data(unsigned order)
{
	return (4096u << order) - BUF_PAGE_HDR_SIZE;
}

static struct rb_page *page_of(struct rb_cpu *c, uint64_t p)
{
	return (struct rb_page *)(void *)(c->pages +
					  (p % c->nr_pages) * c->stride);
}

/* An entry's header, as written by put_words(). */
static struct rb_hdr load_hdr(const struct rb_page *pg, unsigned off)
{
	uint64_t w[2] = { LOAD(&pg->data[off / 8]), LOAD(&pg->data[off / 8 + 1]) };
	struct rb_hdr h;

	memcpy(&h, w, sizeof(h));
	return h;
}

static void page_start(struct rb_page *pg, uint64_t p)
{
	STORE(&pg->gen, p + 1);
	/* a reader that copies anything written after this sees the new gen */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	STORE(&pg->commit, 0);
	STORE(&pg->entries, 0);
	STORE(&pg->kbytes, 0);
	STORE(&pg->kpad, 0);
}

/* DIV_ROUND_UP(bytes, BUF_PAGE_SIZE), at least 2, in the kernel's
 * unsigned long arithmetic (a size near 2^64 wraps to the minimum) */
static size_t nr_pages_for(size_t bytes, unsigned cap)
{
	size_t n = (bytes + cap - 1) / cap;

	return n < MIN_PAGES ? MIN_PAGES : n;
}

static size_t page_stride(unsigned order)
{
	return sizeof(struct rb_page) + 2 * (size_t)tf_ring_buffer_subbuf_data(order);
}

/*
 * What the host can give, in bytes: /proc/meminfo's MemAvailable, the
 * kernel's si_mem_available(), which ring_buffer_resize() checks before
 * it allocates.  SIZE_MAX when unknown.
 */
static size_t mem_available(void)
{
	char line[128];
	size_t kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");
	bool found = false;

	if (!f)
		return SIZE_MAX;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "MemAvailable: %zu kB", &kb) == 1;
	fclose(f);
	return found ? kb << 10 : SIZE_MAX;
}

/* Whether @nr_cpus buffers of @nr_pages pages fit in what the host has. */
static bool pages_available(size_t nr_pages, int nr_cpus, unsigned order)
{
	size_t avail = mem_available() / page_stride(order);

	return nr_pages <= avail / (size_t)nr_cpus;
}

/*
 * A CPU's pages are allocated and faulted in when the buffer is sized,
 * as the kernel allocates its pages: the memory is the buffer's from
 * then on, not taken later from under the event path.
 */
static struct rb_cpu *cpu_create_pages(size_t n, unsigned order)
{
	struct rb_cpu *c = calloc(1, sizeof(*c));
	void *p;

	if (!c)
		return NULL;
	if (n > UINT_MAX)
		goto fail;
	c->nr_pages = (unsigned)n;
	c->cap = tf_ring_buffer_subbuf_data(order);
	c->phys = 2 * c->cap;
	c->stride = page_stride(order);
	if (n > SIZE_MAX / c->stride)
		goto fail;
	p = mmap(NULL, n * c->stride, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		goto fail;
	c->pages = p;
	pthread_mutex_init(&c->wlock, NULL);
	pthread_mutex_init(&c->rlock, NULL);
	page_start(page_of(c, 0), 0);
	return c;
fail:
	free(c);
	return NULL;
}

static void cpu_free(struct rb_cpu *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->wlock);
	pthread_mutex_destroy(&c->rlock);
	munmap(c->pages, (size_t)c->nr_pages * c->stride);
	free(c);
}

struct tf_ring_buffer *tf_ring_buffer_create(int nr_cpus, size_t bytes,
					     unsigned order)
{
	struct tf_ring_buffer *rb = calloc(1, sizeof(*rb));
	unsigned cap = tf_ring_buffer_subbuf_data(order);

	if (!rb)
		return NULL;
	rb->nr_cpus = nr_cpus;
	rb->overwrite = true;
	rb->order = order;
	rb->max_data = TF_RB_PAGE_DATA - 2 * 4;	/* allocated at order 0 */
	pthread_mutex_init(&rb->ctl_lock, NULL);
	rb->cpus = calloc((size_t)nr_cpus, sizeof(*rb->cpus));
	rb->size = calloc((size_t)nr_cpus, sizeof(*rb->size));
	if (!rb->cpus || !rb->size ||
	    !pages_available(nr_pages_for(bytes, cap), nr_cpus, order)) {
		free(rb->cpus);
		free(rb->size);
		free(rb);
		return NULL;
	}
	for (int i = 0; i < nr_cpus; i++) {
		rb->cpus[i] = cpu_create_pages(nr_pages_for(bytes, cap), order);
		if (!rb->cpus[i]) {
			tf_ring_buffer_free(rb);
			return NULL;
		}
		rb->size[i] = (size_t)rb->cpus[i]->nr_pages * cap;
	}
	return rb;
}

void tf_ring_buffer_free(struct tf_ring_buffer *rb)
{
	if (!rb)
		return;
	for (int i = 0; i < rb->nr_cpus; i++)
		cpu_free(rb->cpus[i]);
	free(rb->cpus);
	free(rb->size);
	pthread_mutex_destroy(&rb->ctl_lock);
	free(rb);
}

int tf_ring_buffer_nr_cpus(const struct tf_ring_buffer *rb)
{
	return rb->nr_cpus;
}

static int copy_cpu(struct copy_state *cs, struct rb_cpu *c, int cpu,
		    int consume, bool one_page);
static int write_cpu(struct tf_ring_buffer *rb, struct rb_cpu *c,
		     uint64_t ts, const void *data, unsigned len);

/* Writes @from's events into @to, oldest first. */
static void cpu_carry_over(struct tf_ring_buffer *rb, struct rb_cpu *from,
			   struct rb_cpu *to)
{
	struct tf_rb_snapshot snap = { 0 };
	struct copy_state cs = { .snap = &snap };

	if (copy_cpu(&cs, from, 0, 0, false) == 0)
		for (size_t i = 0; i < snap.nr; i++)
			write_cpu(rb, to, snap.entries[i].ts,
				  snap.bytes + (uintptr_t)snap.entries[i].data,
				  snap.entries[i].len);
	tf_rb_snapshot_release(&snap);
}

size_t tf_ring_buffer_size(struct tf_ring_buffer *rb, int cpu)
{
	return __atomic_load_n(&rb->size[cpu], __ATOMIC_RELAXED);
}

unsigned tf_ring_buffer_order(const struct tf_ring_buffer *rb)
{
	return __atomic_load_n(&rb->order, __ATOMIC_RELAXED);
}

/* Publishes @fresh's CPUs [from, to) and frees the old ones. */
static void cpus_replace(struct tf_ring_buffer *rb, struct rb_cpu **fresh,
			 int from, int to)
{
	int i;

	pthread_mutex_lock(&rb->ctl_lock);
	for (i = from; i < to; i++) {
		struct rb_cpu *old = rb->cpus[i];

		RB_SET_CPU(rb, i, fresh[i]);
		fresh[i] = old;
	}
	pthread_mutex_unlock(&rb->ctl_lock);
	/* writers and readers of the old pages are inside read sections */
	tf_rcu_synchronize();
	for (i = from; i < to; i++)
		cpu_free(fresh[i]);
}

int tf_ring_buffer_resize_cpu(struct tf_ring_buffer *rb, int cpu,
			      size_t bytes)
{
	int from = cpu < 0 ? 0 : cpu, to = cpu < 0 ? rb->nr_cpus : cpu + 1;
	unsigned order = rb->order, cap = tf_ring_buffer_subbuf_data(order);
	size_t n = nr_pages_for(bytes, cap);
	struct rb_cpu **fresh;
	int i;

	/* ring_buffer_resize(): refused before anything is allocated when
	 * the host does not have it; nothing changes on failure */
	if (!pages_available(n, to - from, order))
		return -ENOMEM;
	fresh = calloc((size_t)rb->nr_cpus, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	for (i = from; i < to; i++)
		if (!(fresh[i] = cpu_create_pages(n, order)))
			goto nomem;
	/* the kernel adds or removes pages: the events stay (the oldest
	 * go if they no longer fit); what is written meanwhile is lost */
	tf_rcu_read_lock();
	for (i = from; i < to; i++)
		cpu_carry_over(rb, RB_CPU(rb, i), fresh[i]);
	tf_rcu_read_unlock();
	cpus_replace(rb, fresh, from, to);
	for (i = from; i < to; i++)	/* update_buffer_entries() */
		__atomic_store_n(&rb->size[i], n * cap, __ATOMIC_RELAXED);
	free(fresh);
	return 0;
nomem:
	for (i = from; i < to; i++)
		cpu_free(fresh[i]);
	free(fresh);
	return -ENOMEM;
}

int tf_ring_buffer_resize(struct tf_ring_buffer *rb, size_t bytes)
{
	return tf_ring_buffer_resize_cpu(rb, -1, bytes);
}

/* The counters a new order keeps (the kernel's cpu_buffer fields). */
static void cpu_carry_counts(struct rb_cpu *from, struct rb_cpu *to)
{
	pthread_mutex_lock(&from->wlock);
	pthread_mutex_lock(&from->rlock);
	to->written = LOAD(&from->written);
	to->overrun = LOAD(&from->overrun);
	to->dropped = LOAD(&from->dropped);
	to->kb_written = LOAD(&from->kb_written);
	to->kb_lost = LOAD(&from->kb_lost);
	to->read = LOAD(&from->read);
	to->kb_read = LOAD(&from->kb_read);
	to->lost_reported = LOAD(&from->lost_reported);
	to->last_ts = from->last_ts;
	pthread_mutex_unlock(&from->rlock);
	pthread_mutex_unlock(&from->wlock);
}

/*
 * ring_buffer_subbuf_order_set(): every CPU gets new, empty pages of the
 * new size, as many as hold what its pages held (at least 2); events are
 * gone, counters stay, the sizes buffer_size_kb shows stay.
 */
int tf_ring_buffer_set_order(struct tf_ring_buffer *rb, unsigned order)
{
	unsigned old_cap = tf_ring_buffer_subbuf_data(rb->order);
	unsigned cap = tf_ring_buffer_subbuf_data(order);
	struct rb_cpu **fresh;
	int i, n = rb->nr_cpus;

	if (order == rb->order)
		return 0;
	fresh = calloc((size_t)n, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	tf_rcu_read_lock();
	for (i = 0; i < n; i++) {
		size_t pages = nr_pages_for((size_t)old_cap *
					    RB_CPU(rb, i)->nr_pages, cap);

		if (!pages_available(pages, 1, order) ||
		    !(fresh[i] = cpu_create_pages(pages, order)))
			break;
	}
	tf_rcu_read_unlock();
	if (i < n) {
		for (i = 0; i < n; i++)
			cpu_free(fresh[i]);
		free(fresh);
		return -ENOMEM;
	}
	tf_rcu_read_lock();
	for (i = 0; i < n; i++)
		cpu_carry_counts(RB_CPU(rb, i), fresh[i]);
	tf_rcu_read_unlock();
	__atomic_store_n(&rb->order, order, __ATOMIC_RELAXED);
	cpus_replace(rb, fresh, 0, n);
	free(fresh);
	return 0;
}

void tf_ring_buffer_set_overwrite(struct tf_ring_buffer *rb, bool on)
{
	__atomic_store_n(&rb->overwrite, on, __ATOMIC_RELAXED);
}

/* ---- writing ---- */

/* Drops page @p, the oldest, counting its unread events as overrun. */
static void drop_page(struct rb_cpu *c, uint64_t p)
{
	struct rb_page *pg = page_of(c, p);
	uint64_t rp = __atomic_load_n(&c->read_pos, __ATOMIC_ACQUIRE);
	uint64_t lost = LOAD(&pg->entries), lostb = LOAD(&pg->kbytes);

	lostb += LOAD(&pg->kpad);
	if (RP_PAGE(rp) > p) {
		lost = lostb = 0;		/* all consumed */
	} else if (RP_PAGE(rp) == p) {
		/* a consumer is inside it: what lies before its position
		 * was read (the page is complete: only we write it) */
		unsigned commit = LOAD(&pg->commit);

		for (unsigned o = 0; o < RP_OFF(rp) && o < commit;) {
			struct rb_hdr h = load_hdr(pg, o);

			lost -= lost ? 1 : 0;
			lostb -= h.ksize < lostb ? h.ksize : lostb;
			o += (unsigned)phys_size(h.len);
		}
	}
	ADD(&c->overrun, lost);
	ADD(&c->kb_lost, lostb);
	__atomic_store_n(&c->tail, p + 1, __ATOMIC_RELEASE);
}

/* Moves the writer to a new page; false: full and not overwriting. */
static bool next_page(struct tf_ring_buffer *rb, struct rb_cpu *c)
{
	uint64_t next = c->head + 1, tail = LOAD(&c->tail);
	struct rb_page *cur = page_of(c, c->head);
	unsigned pad = c->cap - c->kused;

	if (next - tail >= c->nr_pages) {
		if (__atomic_load_n(&rb->overwrite, __ATOMIC_RELAXED)) {
			drop_page(c, tail);
		} else {
			/* pages a consumer has finished are free again */
			uint64_t rp = __atomic_load_n(&c->read_pos,
						      __ATOMIC_ACQUIRE);

			if (RP_PAGE(rp) > tail)
				tail = RP_PAGE(rp);
			if (next - tail >= c->nr_pages)
				return false;
			__atomic_store_n(&c->tail, tail, __ATOMIC_RELEASE);
		}
	}
	/* the rest of the page is padding; under 8 bytes a null event that
	 * the kernel does not count */
	if (LOAD(&cur->commit) && pad >= RB_EVNT_MIN_SIZE) {
		STORE(&cur->kpad, pad);
		ADD(&c->kb_written, pad);
	}
	page_start(page_of(c, next), next);
	c->kused = 0;
	__atomic_store_n(&c->head, next, __ATOMIC_RELEASE);
	return true;
}

static void put_words(uint64_t *dst, const void *src, size_t len)
{
	const unsigned char *s = src;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		STORE(&dst[i / 8], w);
	}
	if (i < len) {
		uint64_t w = 0;

		memcpy(&w, s + i, len - i);
		STORE(&dst[i / 8], w);
	}
}

int tf_ring_buffer_write(struct tf_ring_buffer *rb, int cpu, uint64_t ts,
			 const void *data, unsigned len)
{
	if (len > rb->max_data)
		return -E2BIG;
	return write_cpu(rb, RB_CPU(rb, (unsigned)cpu % (unsigned)rb->nr_cpus),
			 ts, data, len);
}

static int write_cpu(struct tf_ring_buffer *rb, struct rb_cpu *c,
		     uint64_t ts, const void *data, unsigned len)
{
	struct rb_page *pg;
	unsigned ksize = kernel_event_size(len), ext = 0;
	size_t need = phys_size(len);
	struct rb_hdr h = { .ts = ts, .len = len };
	uint32_t commit;

	if (ksize > c->cap || need > c->phys)
		return -E2BIG;
	pthread_mutex_lock(&c->wlock);
	pg = page_of(c, c->head);
	commit = LOAD(&pg->commit);
	/* a delta beyond 27 bits costs a time extend (not on a page's first) */
	if (commit && ts > c->last_ts &&
	    ts - c->last_ts >= (1ull << TS_DELTA_BITS))
		ext = RB_LEN_TIME_EXTEND;
	if (c->kused + ksize + ext > c->cap || commit + need > c->phys) {
		if (!next_page(rb, c)) {
			ADD(&c->dropped, 1);
			pthread_mutex_unlock(&c->wlock);
			return -ENOSPC;
		}
		pg = page_of(c, c->head);
		commit = 0;
		ext = 0;
	}
	h.ksize = ksize + ext;
	put_words(&pg->data[commit / 8], &h, sizeof(h));
	put_words(&pg->data[(commit + HDR_SIZE) / 8], data, len);
	c->kused += h.ksize;
	c->last_ts = ts;
	ADD(&pg->entries, 1);
	ADD(&pg->kbytes, h.ksize);
	__atomic_store_n(&pg->commit, commit + (uint32_t)need, __ATOMIC_RELEASE);
	ADD(&c->written, 1);
	ADD(&c->kb_written, h.ksize);
	pthread_mutex_unlock(&c->wlock);
	return 0;
}

static void cpu_reset(struct rb_cpu *c)
{
	uint64_t next;

	pthread_mutex_lock(&c->wlock);
	pthread_mutex_lock(&c->rlock);
	next = c->head + 1;
	page_start(page_of(c, next), next);
	__atomic_store_n(&c->tail, next, __ATOMIC_RELEASE);
	__atomic_store_n(&c->head, next, __ATOMIC_RELEASE);
	__atomic_store_n(&c->read_pos, RP_MAKE(next, 0), __ATOMIC_RELEASE);
	c->kused = 0;
	STORE(&c->written, 0);
	STORE(&c->overrun, 0);
	STORE(&c->dropped, 0);
	STORE(&c->kb_written, 0);
	STORE(&c->kb_lost, 0);
	STORE(&c->read, 0);
	STORE(&c->kb_read, 0);
	STORE(&c->lost_reported, 0);
	pthread_mutex_unlock(&c->rlock);
	pthread_mutex_unlock(&c->wlock);
}

void tf_ring_buffer_reset(struct tf_ring_buffer *rb, int cpu)
{
	tf_rcu_read_lock();
	for (int i = 0; i < rb->nr_cpus; i++)
		if (cpu < 0 || i == cpu)
			cpu_reset(RB_CPU(rb, i));
	tf_rcu_read_unlock();
}

void tf_ring_buffer_swap(struct tf_ring_buffer *a, struct tf_ring_buffer *b)
{
	/* both buffers' locks, in address order */
	struct tf_ring_buffer *first = a < b ? a : b, *second = a < b ? b : a;

	if (a == b)
		return;
	pthread_mutex_lock(&first->ctl_lock);
	pthread_mutex_lock(&second->ctl_lock);
	for (int i = 0; i < a->nr_cpus && i < b->nr_cpus; i++) {
		struct rb_cpu *x = a->cpus[i];

		/* a write in progress lands in the buffer it started in */
		RB_SET_CPU(a, i, b->cpus[i]);
		RB_SET_CPU(b, i, x);
	}
	pthread_mutex_unlock(&second->ctl_lock);
	pthread_mutex_unlock(&first->ctl_lock);
}

/* ---- reading ---- */

/* Where unconsumed events start: the later of tail and read_pos. */
static uint64_t read_start(struct rb_cpu *c, uint64_t tail, unsigned *off)
{
	uint64_t rp = __atomic_load_n(&c->read_pos, __ATOMIC_ACQUIRE);

	if (RP_PAGE(rp) >= tail) {
		*off = RP_OFF(rp);
		return RP_PAGE(rp);
	}
	*off = 0;
	return tail;
}

void tf_ring_buffer_stats(struct tf_ring_buffer *rb, int cpu,
			  struct tf_rb_stats *st)
{
	memset(st, 0, sizeof(*st));
	tf_rcu_read_lock();
	for (int i = 0; i < rb->nr_cpus; i++) {
		struct rb_cpu *c;
		uint64_t w, o, r, p, head;
		unsigned off;

		if (cpu >= 0 && i != cpu)
			continue;
		c = RB_CPU(rb, i);
		w = LOAD(&c->written);
		o = LOAD(&c->overrun);
		r = LOAD(&c->read);
		st->entries += w > o + r ? w - o - r : 0;
		st->written += w;
		st->overrun += o;
		st->dropped += LOAD(&c->dropped);
		st->read += r;
		w = LOAD(&c->kb_written);
		o = LOAD(&c->kb_lost) + LOAD(&c->kb_read);
		st->bytes += w > o ? w - o : 0;
		/* the oldest unconsumed event's timestamp */
		head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
		for (p = read_start(c, __atomic_load_n(&c->tail,
						       __ATOMIC_ACQUIRE),
				    &off); p <= head; p++, off = 0) {
			struct rb_page *pg = page_of(c, p);
			uint64_t gen = __atomic_load_n(&pg->gen,
						       __ATOMIC_ACQUIRE);
			uint64_t ts;

			if (gen != p + 1 ||
			    __atomic_load_n(&pg->commit, __ATOMIC_ACQUIRE) <=
			    off)
				continue;
			ts = LOAD(&pg->data[off / 8]);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (LOAD(&pg->gen) != gen)
				continue;
			if (!st->oldest_ts || ts < st->oldest_ts)
				st->oldest_ts = ts;
			break;
		}
	}
	tf_rcu_read_unlock();
}

static int grow(struct copy_state *cs, size_t bytes, size_t nr)
{
	if (cs->nb + bytes > cs->cap_bytes) {
		size_t cap = cs->cap_bytes ? cs->cap_bytes : 1 << 16;
		uint8_t *p;

		while (cap < cs->nb + bytes)
			cap *= 2;
		if (!(p = realloc(cs->snap->bytes, cap)))
			return -ENOMEM;
		cs->snap->bytes = p;
		cs->cap_bytes = cap;
	}
	if (cs->snap->nr + nr > cs->cap_nr) {
		size_t cap = cs->cap_nr ? cs->cap_nr : 1024;
		struct tf_rb_entry *e;

		while (cap < cs->snap->nr + nr)
			cap *= 2;
		if (!(e = realloc(cs->snap->entries, cap * sizeof(*e))))
			return -ENOMEM;
		cs->snap->entries = e;
		cs->cap_nr = cap;
	}
	return 0;
}

/*
 * Copies the events of page @p from byte @off; returns how many, or -1
 * if the page was recycled meanwhile (nothing is kept), -ENOMEM.
 * *end is the offset after the last event, *kb their kernel bytes.
 */
static int copy_page(struct copy_state *cs, struct rb_cpu *c, int cpu,
		     uint64_t p, unsigned off, unsigned *end, uint64_t *kb)
{
	struct rb_page *pg = page_of(c, p);
	uint64_t gen = __atomic_load_n(&pg->gen, __ATOMIC_ACQUIRE);
	uint32_t commit;
	unsigned o;
	int n = 0;

	*kb = 0;
	if (gen != p + 1)
		return -1;
	commit = __atomic_load_n(&pg->commit, __ATOMIC_ACQUIRE);
	if (commit <= off) {
		*end = off;
		return 0;
	}
	/* at most one entry per HDR_SIZE bytes (an empty record) */
	if (grow(cs, commit - off, (commit - off) / HDR_SIZE + 1) < 0)
		return -ENOMEM;
	for (o = off; o < commit; o += 8)
		memcpy(cs->snap->bytes + cs->nb + (o - off),
		       &(uint64_t){ LOAD(&pg->data[o / 8]) }, 8);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (LOAD(&pg->gen) != gen)
		return -1;	/* overwritten while we copied */
	for (o = off; o < commit;) {
		struct rb_hdr h;
		size_t at = cs->nb + (o - off);

		memcpy(&h, cs->snap->bytes + at, sizeof(h));
		cs->snap->entries[cs->snap->nr++] = (struct tf_rb_entry) {
			.ts = h.ts, .cpu = cpu, .len = h.len,
			.data = (const uint8_t *)(uintptr_t)(at + HDR_SIZE),
		};
		*kb += h.ksize;
		o += (unsigned)phys_size(h.len);
		n++;
	}
	cs->nb += commit - off;
	*end = commit;
	return n;
}

/* @one_page: stop after the first page that has events (a reader page). */
static int copy_cpu(struct copy_state *cs, struct rb_cpu *c, int cpu,
		    int consume, bool one_page)
{
	uint64_t head, tail, p, first, kb_total = 0, lost;
	unsigned off, end = 0;
	uint64_t last_p;
	size_t first_entry = cs->snap->nr;
	int ret = 0;

	if (consume)
		pthread_mutex_lock(&c->rlock);
	head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
	tail = __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE);
	/* consumed events are gone for every reader, as in the kernel */
	first = read_start(c, tail, &off);
	last_p = first;
	lost = LOAD(&c->overrun);
	end = off;
	for (p = first; p <= head; p++, off = 0) {
		uint64_t kb;
		unsigned page_end;
		int n = copy_page(cs, c, cpu, p, off, &page_end, &kb);

		if (n == -ENOMEM) {
			ret = n;
			break;
		}
		if (n < 0)
			continue;
		kb_total += kb;
		last_p = p;
		end = page_end;
		if (one_page && n > 0)
			break;
	}
	if (consume) {
		size_t n = cs->snap->nr - first_entry;

		if (n) {
			cs->snap->entries[first_entry].lost =
				lost - LOAD(&c->lost_reported);
			STORE(&c->lost_reported, lost);
			__atomic_store_n(&c->read_pos, RP_MAKE(last_p, end),
					 __ATOMIC_RELEASE);
			ADD(&c->read, n);
			ADD(&c->kb_read, kb_total);
		}
		pthread_mutex_unlock(&c->rlock);
	}
	return ret;
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

/* After copy_cpu(): the entries' data offsets made pointers into the
 * copied bytes, or everything released on @ret < 0. */
static int snapshot_finish(struct tf_rb_snapshot *snap, int ret)
{
	if (ret < 0) {
		tf_rb_snapshot_release(snap);
		return ret;
	}
	for (size_t i = 0; i < snap->nr; i++)
		snap->entries[i].data = snap->bytes +
					(uintptr_t)snap->entries[i].data;
	return 0;
}

int tf_ring_buffer_copy(struct tf_ring_buffer *rb, int cpu, int consume,
			struct tf_rb_snapshot *snap)
{
	struct copy_state cs = { .snap = snap };
	int ret = 0;

	memset(snap, 0, sizeof(*snap));
	tf_rcu_read_lock();
	for (int i = 0; i < rb->nr_cpus && !ret; i++)
		if (cpu < 0 || i == cpu)
			ret = copy_cpu(&cs, RB_CPU(rb, i), i,
				       consume, false);
	tf_rcu_read_unlock();
	ret = snapshot_finish(snap, ret);
	if (ret < 0)
		return ret;
	if (snap->nr > 1)
		qsort(snap->entries, snap->nr, sizeof(*snap->entries),
		      entry_cmp);
	return 0;
}

/* The time of the last event of page @p before byte @off (@off > 0). */
static bool stamp_before(struct rb_cpu *c, uint64_t p, unsigned off,
			 uint64_t *ts)
{
	struct rb_page *pg = page_of(c, p);
	uint64_t gen = __atomic_load_n(&pg->gen, __ATOMIC_ACQUIRE);
	unsigned o = 0;

	while (o < off) {
		struct rb_hdr h = load_hdr(pg, o);

		*ts = h.ts;
		o += (unsigned)phys_size(h.len);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return LOAD(&pg->gen) == gen;
}

/* A consumer moved from page @from to page @to: the paddings at the
 * ends of the pages it left behind are read too (rb_advance_reader()). */
static void pass_paddings(struct rb_cpu *c, uint64_t from, uint64_t to)
{
	uint64_t tail = __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE);

	for (uint64_t p = from < tail ? tail : from; p < to; p++) {
		struct rb_page *pg = page_of(c, p);

		if (__atomic_load_n(&pg->gen, __ATOMIC_ACQUIRE) == p + 1)
			ADD(&c->kb_read, LOAD(&pg->kpad));
	}
}

int tf_ring_buffer_read_page(struct tf_ring_buffer *rb, int cpu,
			     unsigned room, struct tf_rb_snapshot *snap,
			     struct tf_rb_read_page *rp)
{
	struct copy_state cs = { .snap = snap };
	uint64_t head, tail, p, kb = 0, lost;
	struct rb_cpu *c;
	unsigned off = 0, end = 0, pad = 0;
	int n = 0, ret = 0;
	bool found = false;

	memset(snap, 0, sizeof(*snap));
	memset(rp, 0, sizeof(*rp));
	tf_rcu_read_lock();
	c = RB_CPU(rb, (unsigned)cpu % (unsigned)rb->nr_cpus);
	pthread_mutex_lock(&c->rlock);
	head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
	tail = __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE);
	lost = LOAD(&c->overrun);
	for (p = read_start(c, tail, &off); p <= head; p++, off = 0) {
		/* the writer has left the page: its padding is final */
		pad = p < head ? LOAD(&page_of(c, p)->kpad) : 0;
		n = copy_page(&cs, c, cpu, p, off, &end, &kb);
		if (n == -ENOMEM) {
			ret = n;
			break;
		}
		/* events, or the events read and the padding not */
		if (n > 0 || (n == 0 && off && pad)) {
			found = true;
			break;
		}
	}
	if (found) {
		unsigned o = 0, used = 0;
		int k = 0;

		rp->stamp = n ? snap->entries[0].ts : 0;
		if (off && !stamp_before(c, p, off, &rp->stamp)) {
			found = false;	/* recycled under us: nothing read */
		} else if (off == 0 && p < head && kb + pad <= room) {
			/* the whole page: its real end, no padding */
			k = n;
			used = (unsigned)kb + pad;
			pad = 0;
			end = 0;
			p++;
		} else {
			/* a copy: whole events while they fit, then the
			 * padding if it does */
			for (; k < n; k++) {
				struct rb_hdr h;

				memcpy(&h, snap->bytes +
				       (uintptr_t)snap->entries[k].data -
				       HDR_SIZE, sizeof(h));
				if (used + h.ksize > room)
					break;
				used += h.ksize;
				o += (unsigned)phys_size(h.len);
			}
			if (k == n && pad && used + pad <= room) {
				used += pad;
				end = 0;
				p++;
			} else {
				pad = 0;
				end = off + o;
			}
			found = k > 0 || pad;
			rp->too_small = !found;
		}
		snap->nr = found ? (size_t)k : 0;
		if (found) {
			rp->pad = pad;
			rp->lost = lost - LOAD(&c->lost_reported);
			STORE(&c->lost_reported, lost);
			__atomic_store_n(&c->read_pos, RP_MAKE(p, end),
					 __ATOMIC_RELEASE);
			ADD(&c->read, (uint64_t)k);
			ADD(&c->kb_read, used);
		}
	}
	if (!found)
		snap->nr = 0;
	pthread_mutex_unlock(&c->rlock);
	tf_rcu_read_unlock();
	return snapshot_finish(snap, ret);
}

void tf_rb_snapshot_release(struct tf_rb_snapshot *snap)
{
	free(snap->bytes);
	free(snap->entries);
	memset(snap, 0, sizeof(*snap));
}

/* ---- consuming one event at a time ---- */

struct consumer_cpu {
	struct rb_cpu *c;
	int cpu;
	bool have;		/* e holds this CPU's next event */
	struct tf_rb_entry e;
	uint64_t next_pos;	/* read_pos once e is consumed */
	uint32_t ksize;
	uint64_t overrun;	/* the overrun count e's lost was taken from */
	uint64_t *buf;		/* e's data */
};

struct tf_rb_consumer {
	int nr;
	size_t buf_words;
	struct consumer_cpu *picked;
	struct consumer_cpu cpus[];
};

bool tf_ring_buffer_empty(struct tf_ring_buffer *rb, int cpu)
{
	bool empty = true;

	tf_rcu_read_lock();
	for (int i = 0; i < rb->nr_cpus && empty; i++) {
		struct rb_cpu *c = RB_CPU(rb, i);
		uint64_t head, p;
		unsigned off;

		if (cpu >= 0 && i != cpu)
			continue;
		head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
		p = read_start(c, __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE),
			       &off);
		for (; p <= head && empty; p++, off = 0) {
			struct rb_page *pg = page_of(c, p);

			if (__atomic_load_n(&pg->gen, __ATOMIC_ACQUIRE) == p + 1 &&
			    __atomic_load_n(&pg->commit, __ATOMIC_ACQUIRE) > off)
				empty = false;
		}
	}
	tf_rcu_read_unlock();
	return empty;
}

struct tf_rb_consumer *tf_rb_consumer_begin(struct tf_ring_buffer *rb,
					    int cpu)
{
	int nr = cpu < 0 ? rb->nr_cpus : 1;
	size_t words = rb->max_data / 8 + 1;
	struct tf_rb_consumer *cs;

	cs = calloc(1, sizeof(*cs) + (size_t)nr * sizeof(cs->cpus[0]));
	if (!cs)
		return NULL;
	cs->nr = nr;
	cs->buf_words = words;
	for (int i = 0; i < nr; i++) {
		struct consumer_cpu *k = &cs->cpus[i];

		k->cpu = cpu < 0 ? i : cpu;
		k->buf = malloc(words * 8);
		if (!k->buf) {
			cs->nr = i;
			tf_rb_consumer_end(cs);
			return NULL;
		}
		k->c = RB_CPU(rb, k->cpu);
		pthread_mutex_lock(&k->c->rlock);
	}
	return cs;
}

void tf_rb_consumer_end(struct tf_rb_consumer *cs)
{
	if (!cs)
		return;
	for (int i = cs->nr - 1; i >= 0; i--) {
		pthread_mutex_unlock(&cs->cpus[i].c->rlock);
		free(cs->cpus[i].buf);
	}
	free(cs);
}

/* The first unconsumed event of page @p from @off on; false if none. */
static bool find_event(struct rb_cpu *c, uint64_t *p, unsigned *off,
		       uint64_t head)
{
	for (; *p <= head; (*p)++, *off = 0) {
		struct rb_page *pg = page_of(c, *p);

		if (__atomic_load_n(&pg->gen, __ATOMIC_ACQUIRE) != *p + 1)
			return false;	/* recycled: start again from tail */
		if (__atomic_load_n(&pg->commit, __ATOMIC_ACQUIRE) > *off)
			return true;
	}
	return false;
}

/* Copies @k's CPU's next event into @k; false when there is none. */
static bool peek_cpu(struct consumer_cpu *k, size_t buf_words)
{
	struct rb_cpu *c = k->c;

	/* a writer recycling the pages under us sends us back to the tail;
	 * a few tries, then the CPU counts as empty for this pass */
	for (int tries = 0; tries < 16; tries++) {
		uint64_t head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
		uint64_t tail = __atomic_load_n(&c->tail, __ATOMIC_ACQUIRE);
		unsigned off, commit;
		uint64_t p = read_start(c, tail, &off), gen;
		struct rb_page *pg;
		struct rb_hdr h;
		size_t words;

		if (!find_event(c, &p, &off, head)) {
			if (p > head)
				return false;
			continue;
		}
		pg = page_of(c, p);
		gen = p + 1;
		commit = __atomic_load_n(&pg->commit, __ATOMIC_ACQUIRE);
		h = load_hdr(pg, off);
		words = ((size_t)h.len + 7) / 8;
		if (words > buf_words || off + phys_size(h.len) > commit)
			words = 0;	/* torn: checked below */
		for (size_t w = 0; w < words; w++)
			k->buf[w] = LOAD(&pg->data[(off + HDR_SIZE) / 8 + w]);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (LOAD(&pg->gen) != gen)
			continue;	/* overwritten while we copied */
		if (!words && h.len)
			return false;
		k->overrun = LOAD(&c->overrun);
		k->e = (struct tf_rb_entry) {
			.ts = h.ts, .cpu = k->cpu, .len = h.len,
			.data = (const uint8_t *)k->buf,
			.lost = k->overrun - LOAD(&c->lost_reported),
		};
		k->ksize = h.ksize;
		k->next_pos = RP_MAKE(p, off + (unsigned)phys_size(h.len));
		k->have = true;
		return true;
	}
	return false;
}

const struct tf_rb_entry *tf_rb_consumer_peek(struct tf_rb_consumer *cs)
{
	struct consumer_cpu *best = NULL;

	for (int i = 0; i < cs->nr; i++) {
		struct consumer_cpu *k = &cs->cpus[i];

		if (!k->have && !peek_cpu(k, cs->buf_words))
			continue;
		/* trace_find_next_entry(): the earliest; a tie goes to the
		 * lower CPU */
		if (!best || k->e.ts < best->e.ts)
			best = k;
	}
	cs->picked = best;
	return best ? &best->e : NULL;
}

void tf_rb_consumer_consume(struct tf_rb_consumer *cs)
{
	struct consumer_cpu *k = cs->picked;
	struct rb_cpu *c;

	if (!k)
		return;
	c = k->c;
	STORE(&c->lost_reported, k->overrun);
	pass_paddings(c, RP_PAGE(__atomic_load_n(&c->read_pos,
						 __ATOMIC_ACQUIRE)),
		      RP_PAGE(k->next_pos));
	__atomic_store_n(&c->read_pos, k->next_pos, __ATOMIC_RELEASE);
	ADD(&c->read, 1);
	ADD(&c->kb_read, k->ksize);
	k->have = false;
	cs->picked = NULL;
}
