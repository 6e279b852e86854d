// SPDX-License-Identifier: GPL-2.0
/*
 * ring.c - the producer-to-daemon ring (see ring.h).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "source/ring.h"

#define LOST_SIZE	24u	/* header, id, count */

static uint32_t align8(uint32_t n)
{
	return (n + 7u) & ~7u;
}

void tf_ring_format(void *map, uint64_t data_size, uint32_t flags)
{
	struct tf_ring_ctl *ctl = map;

	memset(ctl, 0, sizeof(*ctl));
	ctl->magic = TF_RING_MAGIC;
	ctl->version = TF_RING_VERSION;
	ctl->flags = flags;
	ctl->data_offset = TF_RING_CTL_SIZE;
	ctl->data_size = data_size;
}

void tf_ring_writer_init(struct tf_ring_writer *w, void *map)
{
	w->ctl = map;
	w->data = (uint8_t *)map + w->ctl->data_offset;
	w->mask = w->ctl->data_size - 1;
	w->head = __atomic_load_n(&w->ctl->data_head, __ATOMIC_RELAXED);
	w->tail = __atomic_load_n(&w->ctl->data_tail, __ATOMIC_ACQUIRE);
	w->lost = 0;
	w->watermark = w->ctl->data_size / 4;
	w->ahead = w->ctl->data_size >= TF_RING_WRITE_AHEAD_MIN ?
		   TF_RING_WRITE_AHEAD : 0;
}

/* Copies @len bytes to byte counter @at, wrapping around the end. */
static void put(struct tf_ring_writer *w, uint64_t at, const void *src,
		uint32_t len)
{
	uint64_t off = at & w->mask, room = w->mask + 1 - off;

	if (len <= room) {
		memcpy(w->data + off, src, len);
	} else {
		memcpy(w->data + off, src, room);
		memcpy(w->data, (const uint8_t *)src + room, len - room);
	}
}

void tf_ring_wake_reader(struct tf_ring_ctl *ctl)
{
	__atomic_store_n(&ctl->reader_waiting, TF_RING_RUNNING,
			 __ATOMIC_RELAXED);
	syscall(SYS_futex, &ctl->reader_waiting, FUTEX_WAKE, INT_MAX, NULL,
		NULL, 0);
}

int tf_ring_write(struct tf_ring_writer *w, uint64_t ts, uint32_t cpu,
		  const void *payload, uint32_t len)
{
	return tf_ring_write2(w, ts, cpu, payload, len, NULL, 0);
}

/* The LOST record that tells the reader of @w->lost dropped records. */
static void put_lost(struct tf_ring_writer *w, uint64_t head)
{
	struct {
		struct tf_ring_header h;
		uint64_t id, lost;
	} lost = { { TF_RING_LOST, 0, LOST_SIZE }, 0, w->lost };

	put(w, head, &lost, LOST_SIZE);
	w->lost = 0;
}

void tf_ring_wake_if_waiting(struct tf_ring_writer *w, uint64_t head)
{
	switch (__atomic_load_n(&w->ctl->reader_waiting, __ATOMIC_RELAXED)) {
	case TF_RING_RUNNING:
		break;
	case TF_RING_NAPPING:
		if (head - w->tail < w->watermark)
			break;
		/* fall through */
	default:
		tf_ring_wake_reader(w->ctl);
	}
}

int tf_ring_write2_slow(struct tf_ring_writer *w, uint64_t ts, uint32_t cpu,
			const void *a, uint32_t alen, const void *b,
			uint32_t blen)
{
	static const uint8_t zero[8];
	struct tf_ring_ctl *ctl = w->ctl;
	uint32_t len = alen + blen, size, need;
	uint64_t head = w->head;
	struct {
		struct tf_ring_header h;
		uint64_t ts;
		uint32_t cpu, len;
	} hdr;

	if (alen > TF_RING_MAX_PAYLOAD || blen > TF_RING_MAX_PAYLOAD ||
	    len > TF_RING_MAX_PAYLOAD ||
	    TF_RING_EVENT_HDR + align8(len) > w->mask + 1)
		return -EMSGSIZE;
	size = TF_RING_EVENT_HDR + align8(len);
	need = size + (w->lost ? LOST_SIZE : 0);
	/* (A): what the reader has read is free once we see its tail; the
	 * tail we saw last is read again only when it seems full, so that
	 * the reader's cache line is not pulled over for every record */
	if (head + need - w->tail > w->mask + 1) {
		w->tail = __atomic_load_n(&ctl->data_tail, __ATOMIC_ACQUIRE);
		if (head + need - w->tail > w->mask + 1) {
			w->lost++;
			__atomic_store_n(&ctl->lost, ctl->lost + 1,
					 __ATOMIC_RELAXED);
			if (__atomic_load_n(&ctl->reader_waiting,
					    __ATOMIC_RELAXED))
				tf_ring_wake_reader(ctl); /* full: no waiting */
			return -ENOSPC;
		}
	}
	if (__builtin_expect(w->lost != 0, 0)) {
		put_lost(w, head);
		head += LOST_SIZE;
	}
	hdr.h = (struct tf_ring_header){ TF_RING_EVENT, 0, (uint16_t)size };
	hdr.ts = ts;
	hdr.cpu = cpu;
	hdr.len = len;
	/* piece by piece, each wrapping around the end if it must (the
	 * common case, in one piece, is tf_ring_write2's) */
	put(w, head, &hdr, TF_RING_EVENT_HDR);
	put(w, head + TF_RING_EVENT_HDR, a, alen);
	if (blen)
		put(w, head + TF_RING_EVENT_HDR + alen, b, blen);
	if (align8(len) != len)
		put(w, head + TF_RING_EVENT_HDR + len, zero, align8(len) - len);
	tf_ring_publish(w, head + size);
	return 0;
}

void tf_ring_writer_close(struct tf_ring_writer *w)
{
	__atomic_store_n(&w->ctl->writer_closed, 1, __ATOMIC_RELEASE);
	tf_ring_wake_reader(w->ctl);
}

int tf_ring_reader_init(struct tf_ring_reader *r, void *map,
			size_t map_size)
{
	struct tf_ring_ctl *ctl = map;
	uint64_t size;

	if (map_size < TF_RING_CTL_SIZE + TF_RING_MIN_DATA)
		return -EINVAL;
	size = __atomic_load_n(&ctl->data_size, __ATOMIC_RELAXED);
	if (__atomic_load_n(&ctl->magic, __ATOMIC_RELAXED) != TF_RING_MAGIC ||
	    __atomic_load_n(&ctl->version, __ATOMIC_RELAXED) !=
		    TF_RING_VERSION ||
	    __atomic_load_n(&ctl->data_offset, __ATOMIC_RELAXED) !=
		    TF_RING_CTL_SIZE ||
	    size < TF_RING_MIN_DATA || size > TF_RING_MAX_DATA ||
	    (size & (size - 1)) || TF_RING_CTL_SIZE + size > map_size)
		return -EINVAL;
	r->ctl = ctl;
	r->data = (const uint8_t *)map + TF_RING_CTL_SIZE;
	r->size = size;
	r->mask = size - 1;
	r->tail = __atomic_load_n(&ctl->data_tail, __ATOMIC_RELAXED);
	r->head = r->tail;
	return 0;
}

/* Copies @len bytes from byte counter @at, wrapping around the end. */
static void get(const struct tf_ring_reader *r, uint64_t at, void *dst,
		uint32_t len)
{
	uint64_t off = at & r->mask, room = r->size - off;

	if (len <= room) {
		memcpy(dst, r->data + off, len);
	} else {
		memcpy(dst, r->data + off, room);
		memcpy((uint8_t *)dst + room, r->data, len - room);
	}
}

/*
 * Describes in @rec the record whose copy starts at @buf, its header
 * @h already checked (bad_header).
 */
static inline void describe(const uint8_t *buf,
			    const struct tf_ring_header *h,
			    struct tf_ring_record *rec)
{
	rec->type = h->type;
	rec->lost = 0;
	if (h->type == TF_RING_EVENT && h->size >= TF_RING_EVENT_HDR) {
		uint32_t len;

		memcpy(&rec->ts, buf + 8, 8);
		memcpy(&rec->cpu, buf + 16, 4);
		memcpy(&len, buf + 20, 4);
		if (len > h->size - TF_RING_EVENT_HDR)
			len = UINT32_MAX;	/* the caller's to refuse */
		rec->len = len;
		rec->payload = buf + TF_RING_EVENT_HDR;
		return;
	}
	rec->ts = 0;
	rec->cpu = 0;
	rec->payload = NULL;
	rec->len = UINT32_MAX;		/* unknown or short: refused */
	if (h->type == TF_RING_LOST && h->size >= LOST_SIZE) {
		memcpy(&rec->lost, buf + 16, 8);
		rec->len = 0;
	}
}

/* A header that cannot be: no record boundary to resume from. */
static bool bad_header(const struct tf_ring_header *h, uint64_t avail)
{
	return h->size < sizeof(*h) || (h->size & 7) || h->size > avail;
}

/* Skips everything written so far (after a broken header). */
static int skip_broken(struct tf_ring_reader *r)
{
	r->head = __atomic_load_n(&r->ctl->data_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&r->tail, r->head, __ATOMIC_RELAXED);
	return -EBADMSG;
}

/* Bytes published and not read yet: 0, or what the head says. */
static uint64_t available(struct tf_ring_reader *r)
{
	uint64_t avail = r->head - r->tail;

	if (avail == 0) {
		/* (C): the head's bytes are visible once we see the head */
		r->head = __atomic_load_n(&r->ctl->data_head,
					  __ATOMIC_ACQUIRE);
		avail = r->head - r->tail;
	}
	return avail;
}

/*
 * Makes bytes [0, @need) past the tail be in @buf (at the same offsets),
 * copying up to TF_RING_COPY_CHUNK more while the ring has them, in one
 * or two memcpy: many records per copy.  False when @buf, @cap bytes,
 * cannot hold them.
 */
static bool copy_to(const struct tf_ring_reader *r, uint8_t *buf,
		    uint64_t cap, uint64_t avail, uint64_t *copied,
		    uint64_t need)
{
	uint64_t to = need + TF_RING_COPY_CHUNK;

	if (*copied >= need)
		return true;
	if (to > avail)
		to = avail;
	if (to > cap)
		to = cap;
	if (to < need)
		return false;
	get(r, r->tail + *copied, buf + *copied, (uint32_t)(to - *copied));
	*copied = to;
	return true;
}

int tf_ring_read_batch(struct tf_ring_reader *r, uint8_t *buf, uint32_t cap,
		       struct tf_ring_record *recs, unsigned max)
{
	uint64_t avail = available(r), copied = 0, used = 0;
	unsigned n = 0;

	if (avail == 0)
		return 0;
	if (avail > r->size)
		return skip_broken(r);
	while (n < max && used < avail) {
		struct tf_ring_header h;

		if (avail - used < sizeof(h))
			goto broken;
		if (!copy_to(r, buf, cap, avail, &copied, used + sizeof(h)))
			break;			/* @buf is full */
		memcpy(&h, buf + used, sizeof(h));
		if (bad_header(&h, avail - used))
			goto broken;
		if (!copy_to(r, buf, cap, avail, &copied, used + h.size))
			break;			/* next time, from the start */
		describe(buf + used, &h, &recs[n++]);
		used += h.size;
	}
done:
	/* peeked at without the reader's lock (tf_ring_pending) */
	__atomic_store_n(&r->tail, r->tail + used, __ATOMIC_RELAXED);
	return (int)n;
broken:
	/* the records before the broken header stand; the next call
	 * finds it first and skips the rest */
	if (n)
		goto done;
	return skip_broken(r);
}

int tf_ring_read(struct tf_ring_reader *r, uint8_t *buf,
		 struct tf_ring_record *rec)
{
	return tf_ring_read_batch(r, buf, TF_RING_MAX_RECORD, rec, 1);
}

void tf_ring_reader_sleep(struct tf_ring_reader *r, uint32_t how,
			  int timeout_ms)
{
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (long)(timeout_ms % 1000) * 1000000L,
	};

	__atomic_store_n(&r->ctl->reader_waiting, how, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->ctl->data_head, __ATOMIC_SEQ_CST) !=
	    __atomic_load_n(&r->tail, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&r->ctl->writer_closed, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&r->ctl->reader_waiting, TF_RING_RUNNING,
				 __ATOMIC_RELAXED);
		return;
	}
	syscall(SYS_futex, &r->ctl->reader_waiting, FUTEX_WAIT, how, &ts,
		NULL, 0);
	__atomic_store_n(&r->ctl->reader_waiting, TF_RING_RUNNING,
			 __ATOMIC_RELAXED);
}
