// SPDX-License-Identifier: GPL-2.0
/*
 * test_ring_buffer.c - the trace buffer's pages, against what Linux 6.12
 * shows for the same writes (tests/oracle/ring-buffer.sh and .out: the
 * kernel's unexpanded 2-page buffer, trace_marker writes of known sizes),
 * and its readers racing its writers (run under ThreadSanitizer by
 * scripts/tsan.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buffer/ring_buffer.h"
#include "util/rcu.h"
#include "check.h"

/* an ftrace:print record of a trace_marker write of n bytes (6.12) */
static unsigned marker_len(unsigned n)
{
	return 16 + n + 2;	/* entry, ip, text, '\n', '\0' */
}

static int write_n(struct tf_ring_buffer *rb, int cpu, uint64_t ts,
		   unsigned len, unsigned char fill)
{
	unsigned char buf[4096 + 64];
	int ret;

	memset(buf, fill, sizeof(buf));
	tf_rcu_read_lock();
	ret = tf_ring_buffer_write(rb, cpu, ts, buf, len);
	tf_rcu_read_unlock();
	return ret;
}

static void stats(struct tf_ring_buffer *rb, struct tf_rb_stats *st)
{
	tf_ring_buffer_stats(rb, -1, st);
}

/* oracle "small-buffer-40x200": 17 per page, the oldest page dropped */
static void test_overwrite_pages(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 7 * 1024, 0);
	struct tf_rb_snapshot snap;
	struct tf_rb_stats st;

	for (unsigned i = 0; i < 40; i++)
		CHECK_INT(write_n(rb, 0, 1000 + i, marker_len(200), 'x'), 0);
	stats(rb, &st);
	CHECK_INT(st.entries, 23);
	CHECK_INT(st.overrun, 17);
	CHECK_INT(st.written, 40);
	CHECK_INT(tf_ring_buffer_copy(rb, -1, 0, &snap), 0);
	CHECK_INT(snap.nr, 23);
	CHECK_INT(snap.entries[0].ts, 1017);	/* events 18..40 */
	CHECK_INT(snap.entries[22].ts, 1039);
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_free(rb);
}

/* oracle "three-4054", "4054-4054-84", "small-big-big-small" */
static void test_big_events(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 2 * 4080, 0);
	struct tf_rb_snapshot snap;
	struct tf_rb_stats st;

	for (unsigned i = 0; i < 3; i++)
		write_n(rb, 0, 10 + i, marker_len(4054), 'a' + i);
	stats(rb, &st);
	CHECK_INT(st.entries, 2);
	CHECK_INT(st.overrun, 1);
	tf_ring_buffer_reset(rb, -1);
	write_n(rb, 0, 1, marker_len(10), 'a');
	write_n(rb, 0, 2, marker_len(4054), 'b');
	write_n(rb, 0, 3, marker_len(4054), 'c');
	write_n(rb, 0, 4, marker_len(10), 'd');
	CHECK_INT(tf_ring_buffer_copy(rb, -1, 0, &snap), 0);
	CHECK_INT(snap.nr, 2);
	CHECK_INT(snap.entries[0].data[20], 'c');
	CHECK_INT(snap.entries[1].data[20], 'd');
	tf_rb_snapshot_release(&snap);
	/* one event can never take more than a page */
	CHECK_INT(write_n(rb, 0, 5, marker_len(4055), 'e'), -E2BIG);
	tf_ring_buffer_free(rb);
}

/* oracle "nooverwrite-40x200": the buffer keeps its first 34 */
static void test_nooverwrite(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 7 * 1024, 0);
	struct tf_rb_stats st;
	int refused = 0;

	tf_ring_buffer_set_overwrite(rb, false);
	for (unsigned i = 0; i < 40; i++)
		refused += write_n(rb, 0, i, marker_len(200), 'z') == -ENOSPC;
	stats(rb, &st);
	CHECK_INT(refused, 6);
	CHECK_INT(st.entries, 34);
	CHECK_INT(st.dropped, 6);
	CHECK_INT(st.overrun, 0);
	tf_ring_buffer_free(rb);
}

/* oracle "trace_pipe of four 3000": the consumer is told of 2 lost */
static void test_consume(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 2 * 4080, 0);
	struct tf_rb_snapshot snap;
	struct tf_rb_stats st;

	for (unsigned i = 0; i < 4; i++)
		write_n(rb, 0, i, marker_len(3000), 'a' + i);
	CHECK_INT(tf_ring_buffer_copy(rb, 0, 1, &snap), 0);
	CHECK_INT(snap.nr, 2);
	CHECK_INT(snap.entries[0].lost, 2);
	CHECK_INT(snap.entries[0].data[20], 'c');
	CHECK_INT(snap.entries[1].lost, 0);
	tf_rb_snapshot_release(&snap);
	stats(rb, &st);
	CHECK_INT(st.entries, 0);
	CHECK_INT(st.read, 2);
	/* nothing twice; then only what came after */
	CHECK_INT(tf_ring_buffer_copy(rb, 0, 1, &snap), 0);
	CHECK_INT(snap.nr, 0);
	tf_rb_snapshot_release(&snap);
	CHECK_INT(tf_ring_buffer_copy(rb, 0, 0, &snap), 0);	/* `trace` */
	CHECK_INT(snap.nr, 0);
	tf_rb_snapshot_release(&snap);
	write_n(rb, 0, 9, marker_len(5), 'e');
	CHECK_INT(tf_ring_buffer_copy(rb, 0, 1, &snap), 0);
	CHECK_INT(snap.nr, 1);
	CHECK_INT(snap.entries[0].lost, 0);
	CHECK_INT(snap.entries[0].data[20], 'e');
	tf_rb_snapshot_release(&snap);
	/* a page half consumed, then overwritten: only the rest is lost */
	tf_ring_buffer_reset(rb, -1);
	for (unsigned i = 0; i < 2; i++)
		write_n(rb, 0, i, marker_len(1000), 'a');
	CHECK_INT(tf_ring_buffer_copy(rb, 0, 1, &snap), 0);
	CHECK_INT(snap.nr, 2);
	tf_rb_snapshot_release(&snap);
	for (unsigned i = 0; i < 10; i++)	/* 3 per page */
		write_n(rb, 0, 10 + i, marker_len(1000), 'b');
	stats(rb, &st);
	CHECK_INT(st.overrun, 4);	/* page 1: 1 unread; page 2: 3 */
	CHECK_INT(st.entries, 6);
	tf_ring_buffer_free(rb);
}

/* records without data: 510 a page (8 kernel bytes, 16 of ours each) */
static void test_tiny_records(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 2 * 4080, 0);
	struct tf_rb_snapshot snap;
	struct tf_rb_stats st;

	for (unsigned i = 0; i < 600; i++)
		write_n(rb, 0, i, 0, 0);
	stats(rb, &st);
	CHECK_INT(tf_ring_buffer_copy(rb, 0, 0, &snap), 0);
	CHECK_INT(snap.nr, st.entries);
	CHECK(snap.nr > 300);
	CHECK_INT(snap.nr ? snap.entries[snap.nr - 1].ts : 0, 599);
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_free(rb);
}

/* deltas beyond 27 bits cost a time extend: fewer events per page */
static void test_time_extend(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 2 * 4080, 0);
	struct tf_rb_stats st;

	/* 100-byte events are 104 bytes: 39 fit a page, 36 with extends */
	for (unsigned i = 0; i < 80; i++)
		write_n(rb, 0, (uint64_t)i << 28, 100, 'x');
	stats(rb, &st);
	CHECK_INT(st.overrun, 36);	/* pages of 36, 36, then 8 */
	tf_ring_buffer_reset(rb, -1);
	for (unsigned i = 0; i < 80; i++)
		write_n(rb, 0, i, 100, 'x');
	stats(rb, &st);
	CHECK_INT(st.overrun, 39);
	tf_ring_buffer_free(rb);
}

/* oracle subbuf.sh: a new order empties the pages and keeps the counts
 * and the size shown; 8K pages hold 35 200-byte markers; 4072 bytes of
 * data at most, whatever the order */
static void test_subbuf_order(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 7 * 1024, 0);
	struct tf_rb_snapshot snap;
	struct tf_rb_stats st;

	CHECK_INT(tf_ring_buffer_subbuf_data(0), 4080);
	CHECK_INT(tf_ring_buffer_subbuf_data(7), 524272);
	for (unsigned i = 0; i < 3; i++)
		write_n(rb, 0, i, marker_len(100), 'a' + i);
	CHECK_INT(tf_ring_buffer_set_order(rb, 1), 0);
	CHECK_INT(tf_ring_buffer_order(rb), 1);
	CHECK_INT(tf_ring_buffer_size(rb, 0), 2 * 4080);
	stats(rb, &st);
	CHECK_INT(st.entries, 3);
	CHECK_INT(st.written, 3);
	CHECK(tf_ring_buffer_empty(rb, -1));
	CHECK_INT(tf_ring_buffer_copy(rb, -1, 0, &snap), 0);
	CHECK_INT(snap.nr, 0);
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_reset(rb, -1);
	for (unsigned i = 0; i < 100; i++)
		CHECK_INT(write_n(rb, 0, 10 + i, marker_len(200), 'x'), 0);
	stats(rb, &st);
	CHECK_INT(st.entries, 65);
	CHECK_INT(st.overrun, 35);
	CHECK_INT(write_n(rb, 0, 200, 4072, 'y'), 0);
	CHECK_INT(write_n(rb, 0, 201, 4073, 'y'), -E2BIG);
	/* resizing sizes with the new pages: 100 kB are 13 of 8176 bytes */
	CHECK_INT(tf_ring_buffer_resize(rb, 100 * 1024), 0);
	CHECK_INT(tf_ring_buffer_size(rb, 0), 13 * 8176);
	tf_ring_buffer_free(rb);
}

/* trace_pipe's consumer: oldest first across CPUs, one at a time; a
 * peek takes nothing, a consume takes what was peeked */
static void test_consumer(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(2, 64 * 1024, 0);
	const struct tf_rb_entry *e;
	struct tf_rb_consumer *cs;
	struct tf_rb_stats st;
	char order[8] = "";
	size_t n = 0;

	write_n(rb, 0, 3, 16, 'd');
	write_n(rb, 1, 5, 16, 'a');
	write_n(rb, 0, 7, 16, 'b');
	write_n(rb, 1, 9, 16, 'c');
	CHECK(!tf_ring_buffer_empty(rb, 0));
	tf_rcu_read_lock();
	cs = tf_rb_consumer_begin(rb, -1);
	CHECK(cs != NULL);
	e = tf_rb_consumer_peek(cs);
	CHECK(e && e->data[0] == 'd');
	e = tf_rb_consumer_peek(cs);		/* still there */
	CHECK(e && e->data[0] == 'd');
	tf_rb_consumer_consume(cs);
	e = tf_rb_consumer_peek(cs);
	CHECK(e && e->data[0] == 'a' && e->cpu == 1);
	tf_rb_consumer_end(cs);
	cs = tf_rb_consumer_begin(rb, -1);
	while ((e = tf_rb_consumer_peek(cs)) && n < sizeof(order) - 1) {
		order[n++] = (char)e->data[0];
		tf_rb_consumer_consume(cs);
	}
	tf_rb_consumer_end(cs);
	tf_rcu_read_unlock();
	CHECK_STR(order, "abc");
	CHECK(tf_ring_buffer_empty(rb, -1));
	stats(rb, &st);
	CHECK_INT(st.read, 4);
	CHECK_INT(st.entries, 0);
	/* one CPU's consumer sees that CPU only; overwrites are reported */
	tf_ring_buffer_resize(rb, 2 * 4080);
	for (unsigned i = 0; i < 4; i++)
		write_n(rb, 0, 20 + i, marker_len(3000), 'e' + i);
	write_n(rb, 1, 30, 16, 'z');
	tf_rcu_read_lock();
	cs = tf_rb_consumer_begin(rb, 0);
	e = tf_rb_consumer_peek(cs);
	CHECK(e && e->data[20] == 'g' && e->lost == 2);
	tf_rb_consumer_consume(cs);
	e = tf_rb_consumer_peek(cs);
	CHECK(e && e->data[20] == 'h' && e->lost == 0);
	tf_rb_consumer_end(cs);
	tf_rcu_read_unlock();
	CHECK(!tf_ring_buffer_empty(rb, 1));
	tf_ring_buffer_free(rb);
}

static void test_merge_and_swap(void)
{
	struct tf_ring_buffer *a = tf_ring_buffer_create(2, 64 * 1024, 0);
	struct tf_ring_buffer *b = tf_ring_buffer_create(2, 64 * 1024, 0);
	struct tf_rb_snapshot snap;

	write_n(a, 1, 5, 16, 'a');
	write_n(a, 0, 7, 16, 'b');
	write_n(a, 1, 9, 16, 'c');
	write_n(a, 0, 3, 16, 'd');
	CHECK_INT(tf_ring_buffer_copy(a, -1, 0, &snap), 0);
	CHECK_INT(snap.nr, 4);
	CHECK_INT(snap.entries[0].ts, 3);
	CHECK_INT(snap.entries[1].cpu, 1);
	CHECK_INT(snap.entries[3].data[0], 'c');
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_swap(a, b);
	CHECK_INT(tf_ring_buffer_copy(a, -1, 0, &snap), 0);
	CHECK_INT(snap.nr, 0);
	tf_rb_snapshot_release(&snap);
	CHECK_INT(tf_ring_buffer_copy(b, 1, 0, &snap), 0);
	CHECK_INT(snap.nr, 2);
	tf_rb_snapshot_release(&snap);
	/* resizing keeps the events, as the kernel's adds or removes pages */
	CHECK_INT(tf_ring_buffer_resize(b, 8 * 1024), 0);
	CHECK_INT(tf_ring_buffer_copy(b, -1, 0, &snap), 0);
	CHECK_INT(snap.nr, 4);
	CHECK_INT(snap.entries[0].ts, 3);
	CHECK_INT(snap.entries[3].data[0], 'c');
	tf_rb_snapshot_release(&snap);
	/* shrinking drops the oldest pages */
	for (unsigned i = 0; i < 9; i++)	/* 3 per page */
		write_n(b, 0, 100 + i, marker_len(1000), 'x');
	CHECK_INT(tf_ring_buffer_resize(b, 4080), 0);	/* 2 pages: min */
	CHECK_INT(tf_ring_buffer_copy(b, 0, 0, &snap), 0);
	CHECK_INT(snap.nr, 6);
	CHECK_INT(snap.nr ? snap.entries[0].ts : 0, 103);
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_free(a);
	tf_ring_buffer_free(b);
}

/* ---- writers against readers ---- */

#define RACE_EVENTS 200000
static struct tf_ring_buffer *race_rb;
static int race_done;
static int race_bad;

/* a record: its sequence number, repeated: a torn copy shows */
static void *race_writer(void *arg)
{
	uint64_t base = (uint64_t)(uintptr_t)arg, rec[8];

	tf_rcu_register_self();
	for (uint64_t i = 0; i < RACE_EVENTS; i++) {
		unsigned n = 2 + (unsigned)(i % 7);

		for (unsigned k = 0; k < n; k++)
			rec[k] = base + i;
		tf_rcu_read_lock();
		tf_ring_buffer_write(race_rb, (int)(i & 1), base + i, rec, n * 8);
		tf_rcu_read_unlock();
	}
	return NULL;
}

static void check_snap(const struct tf_rb_snapshot *snap)
{
	for (size_t i = 0; i < snap->nr; i++) {
		const struct tf_rb_entry *e = &snap->entries[i];
		uint64_t first, w;

		memcpy(&first, e->data, 8);
		for (unsigned k = 1; k < e->len / 8; k++) {
			memcpy(&w, e->data + 8 * k, 8);
			if (w != first || e->ts != first)
				__atomic_add_fetch(&race_bad, 1, __ATOMIC_RELAXED);
		}
	}
}

static void *race_reader(void *arg)
{
	int consume = arg != NULL;

	tf_rcu_register_self();
	while (!__atomic_load_n(&race_done, __ATOMIC_ACQUIRE)) {
		struct tf_rb_snapshot snap;
		struct tf_rb_stats st;

		if (tf_ring_buffer_copy(race_rb, -1, consume, &snap) == 0) {
			check_snap(&snap);
			tf_rb_snapshot_release(&snap);
		}
		tf_ring_buffer_stats(race_rb, -1, &st);
	}
	return NULL;
}

static void test_race(void)
{
	pthread_t w[2], r[2];

	race_rb = tf_ring_buffer_create(2, 16 * 1024, 0);
	pthread_create(&r[0], NULL, race_reader, NULL);
	pthread_create(&r[1], NULL, race_reader, (void *)1);
	pthread_create(&w[0], NULL, race_writer, (void *)(uintptr_t)1000000);
	pthread_create(&w[1], NULL, race_writer, (void *)(uintptr_t)9000000);
	for (int i = 0; i < 20; i++) {
		tf_ring_buffer_reset(race_rb, i & 1);
		tf_ring_buffer_set_overwrite(race_rb, i % 3 != 0);
		if (i % 5 == 0)
			tf_ring_buffer_resize(race_rb, (size_t)(8 + i) * 1024);
	}
	pthread_join(w[0], NULL);
	pthread_join(w[1], NULL);
	__atomic_store_n(&race_done, 1, __ATOMIC_RELEASE);
	pthread_join(r[0], NULL);
	pthread_join(r[1], NULL);
	CHECK_INT(race_bad, 0);
	tf_ring_buffer_free(race_rb);
}

/*
 * trace_pipe_raw's reads (tf_ring_buffer_read_page), as the oracle's
 * raw-subbuf.sh saw them on 6.12: 64-byte events, 63 to a 4 KiB page and
 * 48 bytes of padding after them, counted in the bytes.
 */
static void test_read_page(void)
{
	struct tf_ring_buffer *rb = tf_ring_buffer_create(1, 1 << 20, 0);
	struct tf_rb_snapshot snap;
	struct tf_rb_read_page rp;
	struct tf_rb_stats st;

	for (unsigned i = 0; i < 100; i++)
		CHECK_INT(write_n(rb, 0, 1000 + i, 60, 'r'), 0);
	stats(rb, &st);
	CHECK_INT(st.bytes, 100 * 64 + 48);
	/* too short for the first event: nothing taken */
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 63, &snap, &rp), 0);
	CHECK(rp.too_small && snap.nr == 0 && rp.pad == 0);
	tf_rb_snapshot_release(&snap);
	/* the events of the first page, not its padding (4032 + 48 > 4074) */
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 4074, &snap, &rp), 0);
	CHECK_INT(snap.nr, 63);
	CHECK_INT(rp.pad, 0);
	CHECK_INT(rp.stamp, 1000);
	CHECK_INT(snap.entries[62].ts, 1062);
	tf_rb_snapshot_release(&snap);
	stats(rb, &st);
	CHECK_INT(st.bytes, 37 * 64 + 48);
	CHECK_INT(st.read, 63);
	/* then the padding alone, stamped with the last event's time */
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 4074, &snap, &rp), 0);
	CHECK_INT(snap.nr, 0);
	CHECK_INT(rp.pad, 48);
	CHECK_INT(rp.stamp, 1062);
	tf_rb_snapshot_release(&snap);
	stats(rb, &st);
	CHECK_INT(st.bytes, 37 * 64);
	/* the writer's page: copied, whatever the room */
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 1 << 16, &snap, &rp), 0);
	CHECK_INT(snap.nr, 37);
	CHECK_INT(rp.pad, 0);
	CHECK_INT(rp.stamp, 1063);
	tf_rb_snapshot_release(&snap);
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 1 << 16, &snap, &rp), 0);
	CHECK(snap.nr == 0 && rp.pad == 0 && !rp.too_small);
	tf_rb_snapshot_release(&snap);
	stats(rb, &st);
	CHECK_INT(st.bytes, 0);
	CHECK_INT(st.read, 100);

	/* a page read whole: its real end, no padding; a part of one */
	tf_ring_buffer_reset(rb, -1);
	for (unsigned i = 0; i < 100; i++)
		CHECK_INT(write_n(rb, 0, 2000 + i, 60, 'r'), 0);
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 4080, &snap, &rp), 0);
	CHECK_INT(snap.nr, 63);
	CHECK_INT(rp.pad, 0);
	tf_rb_snapshot_release(&snap);
	stats(rb, &st);
	CHECK_INT(st.bytes, 37 * 64);
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 200, &snap, &rp), 0);
	CHECK_INT(snap.nr, 3);
	CHECK_INT(rp.stamp, 2063);	/* the page's own: nothing read */
	tf_rb_snapshot_release(&snap);
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 200, &snap, &rp), 0);
	CHECK_INT(snap.nr, 3);
	CHECK_INT(rp.stamp, 2065);	/* the last event read before */
	CHECK_INT(snap.entries[0].ts, 2066);
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_free(rb);

	/* events lost to overwriting before a read: reported once */
	rb = tf_ring_buffer_create(1, 7 * 1024, 0);
	for (unsigned i = 0; i < 300; i++)
		CHECK_INT(write_n(rb, 0, 3000 + i, 60, 'o'), 0);
	stats(rb, &st);
	CHECK(st.overrun > 0);
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 4080, &snap, &rp), 0);
	CHECK_INT(rp.lost, st.overrun);
	CHECK(snap.nr > 0);
	tf_rb_snapshot_release(&snap);
	CHECK_INT(tf_ring_buffer_read_page(rb, 0, 4080, &snap, &rp), 0);
	CHECK_INT(rp.lost, 0);
	tf_rb_snapshot_release(&snap);
	tf_ring_buffer_free(rb);
}

int main(void)
{
	tf_rcu_register_self();
	test_overwrite_pages();
	test_big_events();
	test_nooverwrite();
	test_consume();
	test_tiny_records();
	test_time_extend();
	test_merge_and_swap();
	test_subbuf_order();
	test_consumer();
	test_read_page();
	test_race();
	return check_done("test_ring_buffer");
}
