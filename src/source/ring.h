/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring.h - the shared-memory ring that carries records from one producer
 * thread (a program using libtracefuse) to the daemon, following the
 * perf ring buffer's protocol (reference/ring-buffer-and-perfetto.md,
 * part 1):
 *
 * - a control page, then a data area of a power-of-two size;
 * - two byte counters that only grow: data_head, advanced by the writer
 *   only, and data_tail, advanced by the reader only; a byte's place is
 *   counter & (size - 1), the data lies in [tail, head);
 * - the writer loads tail with acquire (barrier A), writes the record,
 *   then stores head with release (B); the reader loads head with
 *   acquire (C), reads the records, then stores tail with release (D);
 * - non-overwrite: a record that does not fit is dropped and counted,
 *   and the count goes into the ring as a LOST record as soon as there
 *   is room, ahead of the next record;
 * - a record may wrap around the end of the data area; the reader copies
 *   every record out before looking at it, whole.
 *
 * Records start with perf's header (u32 type, u16 misc, u16 size, the
 * size counting the header, a multiple of 8).  An EVENT record is the
 * header, a u64 timestamp, a u32 CPU, a u32 length and that many bytes of
 * one event in the kernel's layout (common header first), padded to 8;
 * a LOST record is perf's PERF_RECORD_LOST: the header, a u64 id and the
 * u64 count of records dropped.
 *
 * When the reader has found the ring empty for a while it naps on
 * reader_waiting (a futex in the shared page) with a short timeout; a
 * writer wakes a napping reader only once a quarter of the ring is
 * waiting (perf's wakeup watermark), so that a producer at full rate
 * does not pay a system call per record.  A reader idle for long sleeps
 * instead, and the first record after that wakes it at once.  The writer
 * does not order that check against its head store (no full barrier on
 * its path), so every sleep is bounded: a wake-up can be late, never
 * lost for good.
 *
 * This file is shared by the daemon (reader) and libtracefuse (writer)
 * and depends on nothing else of tracefuse.
 */
#ifndef TF_SOURCE_RING_H
#define TF_SOURCE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TF_RING_MAGIC		0x676e69726674ull	/* "tfring" */
#define TF_RING_VERSION		1
#define TF_RING_CTL_SIZE	4096u	/* the control page */
#define TF_RING_MIN_DATA	4096u
#define TF_RING_MAX_DATA	(64u << 20)

/* Record types: perf's numbers where perf has the record. */
#define TF_RING_LOST		2	/* PERF_RECORD_LOST */
#define TF_RING_EVENT		9	/* PERF_RECORD_SAMPLE */

/* ctl->reader_waiting */
#define TF_RING_RUNNING		0
#define TF_RING_NAPPING		1	/* woken past the watermark */
#define TF_RING_ASLEEP		2	/* woken by any record */

/* ctl->flags: the producer stamps records with the TSC, not in ns. */
#define TF_RING_TS_TSC		1u

struct tf_ring_header {		/* struct perf_event_header */
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};

#define TF_RING_EVENT_HDR	24u	/* header, ts, cpu, len */
#define TF_RING_MAX_RECORD	(65536u - 8u)	/* u16 size, 8-aligned */
#define TF_RING_COPY_CHUNK	4096u	/* bytes a batch read copies at once */
#define TF_RING_MAX_PAYLOAD	(TF_RING_MAX_RECORD - TF_RING_EVENT_HDR)

struct tf_ring_ctl {
	uint64_t magic;
	uint32_t version;
	uint32_t flags;			/* TF_RING_TS_* */
	uint64_t data_offset;		/* TF_RING_CTL_SIZE */
	uint64_t data_size;		/* a power of two */
	/* TF_RING_RUNNING, _NAPPING or _ASLEEP: the reader sleeps on it
	 * (a futex); the writer wakes it */
	uint32_t reader_waiting;
	/* the writer is done: the reader drains what is left and detaches */
	uint32_t writer_closed;
	uint64_t pad0[4];
	/* written by the writer only */
	_Alignas(64) uint64_t data_head;
	uint64_t produced;		/* records the writer accepted */
	uint64_t lost;			/* records it dropped */
	/* written by the reader only */
	_Alignas(64) uint64_t data_tail;
};

/* ---- writer (one thread) ------------------------------------------------ */

struct tf_ring_writer {
	struct tf_ring_ctl *ctl;
	uint8_t *data;
	uint64_t mask;
	uint64_t watermark;	/* bytes that wake a napping reader */
	uint64_t head;		/* our copy of ctl->data_head */
	uint64_t tail;		/* ctl->data_tail as we saw it last */
	uint64_t lost;		/* dropped, not yet told in a LOST record */
	uint64_t ahead;		/* bytes past the head fetched per record */
};

/*
 * How far ahead of its head a writer fetches lines, for writing: far
 * enough for a line to come from memory meanwhile.  Only in rings larger
 * than a CPU's own caches hold (whose lines come from memory): in a
 * smaller ring the lines sit in the reader's caches, and fetching them
 * early made each write slower, not faster (docs/performance.md,
 * "Producer ring").
 */
#define TF_RING_WRITE_AHEAD	4096u
#define TF_RING_WRITE_AHEAD_MIN	(4u << 20)	/* ring bytes */

/* Sets up a fresh mapping of TF_RING_CTL_SIZE + @data_size bytes. */
void tf_ring_format(void *map, uint64_t data_size, uint32_t flags);
/* Attaches a writer to a formatted mapping. */
void tf_ring_writer_init(struct tf_ring_writer *w, void *map);
/*
 * Appends one EVENT record: @len bytes of @payload, stamped @ts, @cpu.
 * 0, or -ENOSPC when it does not fit (dropped, counted as lost), or
 * -EMSGSIZE when it can never fit.
 */
int tf_ring_write(struct tf_ring_writer *w, uint64_t ts, uint32_t cpu,
		  const void *payload, uint32_t len);
/* tf_ring_write2 when its fast path does not apply (below). */
int tf_ring_write2_slow(struct tf_ring_writer *w, uint64_t ts, uint32_t cpu,
			const void *a, uint32_t alen, const void *b,
			uint32_t blen);
/* After publishing up to @head: wakes the reader if it waits for that. */
void tf_ring_wake_if_waiting(struct tf_ring_writer *w, uint64_t head);

/* The bytes up to @head are written: counts the record, publishes them,
 * and wakes a reader that waits for them. */
static inline void tf_ring_publish(struct tf_ring_writer *w, uint64_t head)
{
	w->head = head;
	__atomic_store_n(&w->ctl->produced, w->ctl->produced + 1,
			 __ATOMIC_RELAXED);
	/* (B): the record is there before the head says so */
	__atomic_store_n(&w->ctl->data_head, head, __ATOMIC_RELEASE);
	if (__builtin_expect(__atomic_load_n(&w->ctl->reader_waiting,
					     __ATOMIC_RELAXED) !=
			     TF_RING_RUNNING, 0))
		tf_ring_wake_if_waiting(w, head);
}

/*
 * The same with a payload in two pieces (@a then @b).  Inline for the
 * common case - nothing to report lost, room by the tail seen last, no
 * wrap, the reader running - so that a producer's record costs stores
 * and no call; everything else goes through tf_ring_write2_slow.
 */
static inline int tf_ring_write2(struct tf_ring_writer *w, uint64_t ts,
				 uint32_t cpu, const void *a, uint32_t alen,
				 const void *b, uint32_t blen)
{
	uint64_t len = (uint64_t)alen + blen;
	uint64_t size = TF_RING_EVENT_HDR + ((len + 7) & ~7ull);
	uint64_t head = w->head, off = head & w->mask;

	if (__builtin_expect(len <= TF_RING_MAX_PAYLOAD && !w->lost &&
			     head + size - w->tail <= w->mask + 1 &&
			     off + size <= w->mask + 1, 1)) {
		uint8_t *p = w->data + off;
		struct tf_ring_header h = { TF_RING_EVENT, 0, (uint16_t)size };
		uint32_t len32 = (uint32_t)len;

		/* the lines a few records on, for writing: they come from
		 * memory or from the reader's CPU while this one is filled */
		if (w->ahead)
			__builtin_prefetch(w->data + ((off + w->ahead) &
						      w->mask), 1);
		memcpy(p, &h, sizeof(h));
		memcpy(p + 8, &ts, 8);
		memcpy(p + 16, &cpu, 4);
		memcpy(p + 20, &len32, 4);
		/* a part may be NULL when it is empty */
		if (alen)
			memcpy(p + TF_RING_EVENT_HDR, a, alen);
		if (blen)
			memcpy(p + TF_RING_EVENT_HDR + alen, b, blen);
		if (len & 7)
			memset(p + TF_RING_EVENT_HDR + len, 0, 8 - (len & 7));
		tf_ring_publish(w, head + size);
		return 0;
	}
	return tf_ring_write2_slow(w, ts, cpu, a, alen, b, blen);
}
/* The writer is done (the reader detaches once it has drained). */
void tf_ring_writer_close(struct tf_ring_writer *w);

/* ---- reader (one thread at a time) --------------------------------------- */

struct tf_ring_reader {
	struct tf_ring_ctl *ctl;
	const uint8_t *data;
	uint64_t mask;
	uint64_t size;
	uint64_t tail;		/* our copy of ctl->data_tail */
	uint64_t head;		/* ctl->data_head as we saw it last */
};

/* What one record read out of the ring is. */
struct tf_ring_record {
	uint32_t type;
	uint64_t ts;
	uint32_t cpu;
	uint32_t len;
	const uint8_t *payload;	/* in the caller's buffer */
	uint64_t lost;		/* TF_RING_LOST: records dropped */
};

/*
 * Checks a mapping of @map_size bytes handed over by a producer: the
 * magic, version and sizes.  0 or -EINVAL.
 */
int tf_ring_reader_init(struct tf_ring_reader *r, void *map,
			size_t map_size);
/* Bytes written and not yet read (acquire: what they hold is visible).
 * Any thread may ask, without the lock the reading thread holds. */
static inline uint64_t tf_ring_pending(const struct tf_ring_reader *r)
{
	return __atomic_load_n(&r->ctl->data_head, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
}
/*
 * Copies the next record out into @buf (at least TF_RING_MAX_RECORD
 * bytes) and describes it in @rec, without publishing the tail: a batch
 * of one.  1: a record; 0: none is there; -EBADMSG: the ring's framing
 * is broken (a size that cannot be), after which the reader skips
 * everything written so far.
 */
int tf_ring_read(struct tf_ring_reader *r, uint8_t *buf,
		 struct tf_ring_record *rec);
/*
 * Up to @max records at once: copies what the writer published (one or
 * two memcpy per stretch of TF_RING_COPY_CHUNK bytes, at most @cap
 * bytes, which must hold TF_RING_MAX_RECORD) into @buf and describes
 * each whole record in @recs, in order; the tail moves past them.  The
 * number of records (0: none is there), or -EBADMSG when the framing is
 * broken at the first record; broken later, the records before it are
 * returned and the next call reports it.
 */
int tf_ring_read_batch(struct tf_ring_reader *r, uint8_t *buf, uint32_t cap,
		       struct tf_ring_record *recs, unsigned max);
/* Publishes the tail: the space read so far goes back to the writer. */
static inline void tf_ring_reader_release(struct tf_ring_reader *r)
{
	__atomic_store_n(&r->ctl->data_tail, r->tail, __ATOMIC_RELEASE);
}

/* Futex helpers on ctl->reader_waiting. */
void tf_ring_wake_reader(struct tf_ring_ctl *ctl);
/*
 * The reader found the ring empty: sleeps until a writer wakes it, or
 * @timeout_ms passes; @how is TF_RING_NAPPING or TF_RING_ASLEEP.
 */
void tf_ring_reader_sleep(struct tf_ring_reader *r, uint32_t how,
			  int timeout_ms);

#endif
