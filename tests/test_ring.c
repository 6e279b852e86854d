// SPDX-License-Identifier: GPL-2.0
/*
 * test_ring.c - the producer ring (src/source/ring.c) and the daemon's
 * channels that drain it (src/source/ring_channel.c):
 *
 *  - records of every size wrap around the end of the data area and come
 *    out whole and in order;
 *  - a full ring refuses records (-ENOSPC) and counts them, and the count
 *    arrives in a LOST record ahead of the next record that fits;
 *  - a broken frame makes the reader skip what is there, nothing else;
 *  - batch reads (many records per copy) give the same records, across
 *    the end of the data area, the copy's chunks and the caller's cap,
 *    and stop at a broken frame after the records before it;
 *  - a producer thread and a consumer thread at full speed: every record
 *    is delivered in order or counted lost, delivered + lost == produced,
 *    read one by one and in batches (run it under ThreadSanitizer:
 *    scripts/tsan.sh tests/test_ring.c);
 *  - a channel dispatches good records into the engine (a histogram
 *    counts them) and drops each malformed one (unknown id, too short,
 *    dynamic data outside the record, a string not ended, a record of
 *    no known type, a broken frame) with a count, touching nothing else.
 *
 * TF_RING_RECORDS sets the concurrent test's records (default 2,000,000).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "hist/hist.h"
#include "source/ring.h"
#include "source/ring_channel.h"
#include "source/source.h"
#include "trigger/trigger.h"
#include "util/rcu.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif

static uint8_t rbuf[TF_RING_MAX_RECORD];

static void *new_ring(size_t data, int *fd)
{
	size_t size = TF_RING_CTL_SIZE + data;
	void *map;

	if (fd) {
		*fd = memfd_create("test-ring", MFD_CLOEXEC);
		if (*fd < 0 || ftruncate(*fd, (off_t)size) < 0)
			return NULL;
		map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			   *fd, 0);
	} else {
		map = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	}
	if (map == MAP_FAILED)
		return NULL;
	tf_ring_format(map, data, 0);
	return map;
}

/* A payload of @len bytes that says which record it is. */
static void pattern(uint8_t *p, uint32_t len, uint32_t seq)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seq * 31 + i);
}

static bool pattern_ok(const uint8_t *p, uint32_t len, uint32_t seq)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != (uint8_t)(seq * 31 + i))
			return false;
	return true;
}

static void test_wrap(void)
{
	void *map = new_ring(4096, NULL);
	struct tf_ring_writer w;
	struct tf_ring_reader r;
	struct tf_ring_record rec;
	uint8_t payload[600];
	uint32_t next_read = 0, bad = 0;

	CHECK(map != NULL);
	tf_ring_writer_init(&w, map);
	CHECK_INT(tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096), 0);
	/* sizes 1..599 cycle; the reader lags by a few records, so that
	 * records start and end at every offset, many across the end */
	for (uint32_t seq = 0; seq < 20000; seq++) {
		uint32_t len = 1 + (seq * 7) % 599;

		pattern(payload, len, seq);
		while (tf_ring_write(&w, seq, seq % 3, payload, len) == -ENOSPC) {
			CHECK_INT(tf_ring_read(&r, rbuf, &rec), 1);
			if (rec.type != TF_RING_EVENT || rec.ts != next_read ||
			    rec.len != 1 + (next_read * 7) % 599 ||
			    rec.cpu != next_read % 3 ||
			    !pattern_ok(rec.payload, rec.len, next_read))
				bad++;
			next_read++;
			tf_ring_reader_release(&r);
			/* the refusal counted one lost: none is */
			w.lost = 0;
			w.ctl->lost = 0;
		}
	}
	while (tf_ring_read(&r, rbuf, &rec) == 1) {
		if (rec.ts != next_read ||
		    !pattern_ok(rec.payload, rec.len, next_read))
			bad++;
		next_read++;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(next_read, 20000);
	CHECK(r.tail > 4096 * 100);	/* wrapped many times */
	/* too big ever to fit */
	CHECK_INT(tf_ring_write(&w, 0, 0, rbuf, 4096), -EMSGSIZE);
	munmap(map, TF_RING_CTL_SIZE + 4096);
}

static void test_lost(void)
{
	void *map = new_ring(4096, NULL);
	struct tf_ring_writer w;
	struct tf_ring_reader r;
	struct tf_ring_record rec;
	uint8_t payload[40] = { 0 };
	int fitted = 0, refused = 0, n;

	tf_ring_writer_init(&w, map);
	tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096);
	for (int i = 0; i < 500; i++) {
		int ret = tf_ring_write(&w, (uint64_t)i, 0, payload, 40);

		if (ret == 0)
			fitted++;
		else if (ret == -ENOSPC)
			refused++;
	}
	CHECK_INT(fitted, 4096 / 64);	/* 24-byte header + 40 */
	CHECK_INT(refused, 500 - 4096 / 64);
	CHECK_INT(w.ctl->lost, refused);
	CHECK_INT(w.ctl->produced, fitted);
	for (n = 0; tf_ring_read(&r, rbuf, &rec) == 1; n++)
		CHECK_INT(rec.type, TF_RING_EVENT);
	CHECK_INT(n, fitted);
	tf_ring_reader_release(&r);
	/* the next record takes the LOST record in with it */
	CHECK_INT(tf_ring_write(&w, 1000, 0, payload, 40), 0);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), 1);
	CHECK_INT(rec.type, TF_RING_LOST);
	CHECK_INT(rec.lost, refused);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), 1);
	CHECK_INT(rec.type, TF_RING_EVENT);
	CHECK_INT(rec.ts, 1000);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), 0);
	munmap(map, TF_RING_CTL_SIZE + 4096);
}

static void test_broken(void)
{
	void *map = new_ring(4096, NULL);
	struct tf_ring_writer w;
	struct tf_ring_reader r;
	struct tf_ring_record rec;
	struct tf_ring_header h;
	uint8_t payload[16] = { 0 };
	uint8_t *data = (uint8_t *)map + TF_RING_CTL_SIZE;

	tf_ring_writer_init(&w, map);
	tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096);
	tf_ring_write(&w, 1, 0, payload, 16);
	tf_ring_write(&w, 2, 0, payload, 16);
	/* the second record's size is not a multiple of 8 */
	memcpy(&h, data + 40, sizeof(h));
	h.size = 13;
	memcpy(data + 40, &h, sizeof(h));
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), 1);
	CHECK_INT(rec.ts, 1);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), -EBADMSG);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), 0);
	tf_ring_reader_release(&r);
	/* after the skip the ring works on */
	CHECK_INT(tf_ring_write(&w, 3, 0, payload, 16), 0);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), 1);
	CHECK_INT(rec.ts, 3);
	/* a head beyond the data area */
	__atomic_store_n(&w.ctl->data_head, r.tail + 8192, __ATOMIC_RELEASE);
	CHECK_INT(tf_ring_read(&r, rbuf, &rec), -EBADMSG);
	/* the reader refuses a mapping that is not a ring */
	memset(map, 0, 64);
	CHECK_INT(tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096),
		  -EINVAL);
	tf_ring_format(map, 3000, 0);	/* not a power of two */
	CHECK_INT(tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096),
		  -EINVAL);
	munmap(map, TF_RING_CTL_SIZE + 4096);
}

static uint8_t bbuf[TF_RING_MAX_RECORD + 8192];

static void test_batch(void)
{
	const size_t size = 128 << 10;
	void *map = new_ring(size, NULL);
	struct tf_ring_writer w;
	struct tf_ring_reader r;
	struct tf_ring_record recs[100];
	static uint8_t payload[3000];
	uint32_t next_read = 0, bad = 0, batches = 0, seq = 0;

	CHECK(map != NULL);
	tf_ring_writer_init(&w, map);
	CHECK_INT(tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + size), 0);
	/* sizes 1..2999 cycle, batches of 1..100 records: records and
	 * headers start and end at every offset of the ring, of the 4 KiB
	 * chunks and of the caller's cap */
	while (next_read < 30000) {
		int n;

		while (seq < 30000) {
			uint32_t len = 1 + (seq * 7) % 2999;

			pattern(payload, len, seq);
			if (tf_ring_write(&w, seq, seq % 3, payload, len) ==
			    -ENOSPC) {
				w.lost = 0;	/* nothing is lost here */
				w.ctl->lost = 0;
				break;
			}
			seq++;
		}
		n = tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs,
				       1 + batches % 100);
		batches++;
		CHECK(n > 0);
		if (n <= 0)
			break;
		for (int i = 0; i < n; i++, next_read++)
			if (recs[i].type != TF_RING_EVENT ||
			    recs[i].ts != next_read ||
			    recs[i].len != 1 + (next_read * 7) % 2999 ||
			    recs[i].cpu != next_read % 3 ||
			    !pattern_ok(recs[i].payload, recs[i].len, next_read))
				bad++;
		tf_ring_reader_release(&r);
	}
	CHECK_INT(bad, 0);
	CHECK_INT(next_read, 30000);
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 100),
		  0);
	CHECK(r.tail > size * 100);	/* wrapped many times */
	munmap(map, TF_RING_CTL_SIZE + size);
}

static void test_batch_broken(void)
{
	void *map = new_ring(4096, NULL);
	struct tf_ring_writer w;
	struct tf_ring_reader r;
	struct tf_ring_record recs[8];
	struct tf_ring_header h;
	uint8_t payload[16] = { 0 };
	uint8_t *data = (uint8_t *)map + TF_RING_CTL_SIZE;

	tf_ring_writer_init(&w, map);
	tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096);
	for (int i = 1; i <= 4; i++)
		tf_ring_write(&w, (uint64_t)i, 0, payload, 16);
	/* the third record says it is longer than what was written */
	memcpy(&h, data + 80, sizeof(h));
	h.size = 4000;
	memcpy(data + 80, &h, sizeof(h));
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 8), 2);
	CHECK_INT(recs[0].ts, 1);
	CHECK_INT(recs[1].ts, 2);
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 8),
		  -EBADMSG);
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 8), 0);
	tf_ring_reader_release(&r);
	/* after the skip the ring works on */
	CHECK_INT(tf_ring_write(&w, 5, 0, payload, 16), 0);
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 8), 1);
	CHECK_INT(recs[0].ts, 5);
	/* a head beyond the data area */
	__atomic_store_n(&w.ctl->data_head, r.tail + 8192, __ATOMIC_RELEASE);
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 8),
		  -EBADMSG);
	/* half a header at the end of what was published */
	tf_ring_reader_init(&r, map, TF_RING_CTL_SIZE + 4096);
	__atomic_store_n(&w.ctl->data_head, r.tail + 4, __ATOMIC_RELEASE);
	CHECK_INT(tf_ring_read_batch(&r, bbuf, TF_RING_MAX_RECORD, recs, 8),
		  -EBADMSG);
	munmap(map, TF_RING_CTL_SIZE + 4096);
}

/* ---- a producer and a consumer at full speed ---- */

struct conc {
	void *map;
	unsigned long n;
	unsigned long produced, refused;
	unsigned long delivered, lost, bad;
	int done;
	bool batch;		/* the consumer reads in batches */
};

/* The consumer's next record, one by one or out of a batch. */
struct next {
	struct tf_ring_record recs[64];
	int n, at;
};

static int next_record(struct conc *c, struct tf_ring_reader *r,
		       struct next *nx, struct tf_ring_record *rec)
{
	if (!c->batch)
		return tf_ring_read(r, rbuf, rec);
	if (nx->at == nx->n) {
		nx->n = tf_ring_read_batch(r, bbuf, TF_RING_MAX_RECORD,
					   nx->recs, 1 + (unsigned)(c->delivered % 64));
		nx->at = 0;
		if (nx->n <= 0) {
			int ret = nx->n;

			nx->n = 0;
			return ret;
		}
	}
	*rec = nx->recs[nx->at++];
	return 1;
}

static void *producer(void *arg)
{
	struct conc *c = arg;
	struct tf_ring_writer w;
	uint8_t payload[64];

	tf_ring_writer_init(&w, c->map);
	for (unsigned long i = 0; i < c->n; i++) {
		uint32_t len = 8 + (uint32_t)(i % 57);

		memcpy(payload, &i, 8);
		pattern(payload + 8, len - 8, (uint32_t)i);
		/* mostly wait for room, as a producer with back-pressure
		 * would; bursts of 224 in 1024 go in regardless */
		while (i % 1024 < 800 && w.head - __atomic_load_n(&w.ctl->data_tail,
							  __ATOMIC_ACQUIRE) >
				 8192 - 256)
			sched_yield();
		c->produced++;
		if (tf_ring_write(&w, i, 0, payload, len) == -ENOSPC)
			c->refused++;
	}
	/* the last LOST count rides on one more record (each try that
	 * does not fit is one more lost) */
	while (w.lost) {
		c->produced++;
		if (tf_ring_write(&w, c->n, 0, payload, 8) == -ENOSPC)
			c->refused++;
	}
	tf_ring_writer_close(&w);
	return NULL;
}

static void *consumer(void *arg)
{
	struct conc *c = arg;
	struct tf_ring_reader r;
	struct tf_ring_record rec;
	struct next nx = { .n = 0 };
	uint64_t last = 0;
	unsigned idle = 0;
	bool any = false;

	tf_ring_reader_init(&r, c->map, TF_RING_CTL_SIZE + 8192);
	for (;;) {
		int ret = next_record(c, &r, &nx, &rec);

		if (ret == 0) {
			tf_ring_reader_release(&r);
			if (__atomic_load_n(&r.ctl->writer_closed,
					    __ATOMIC_ACQUIRE) &&
			    !tf_ring_pending(&r))
				break;
			if (++idle > 1000)
				tf_ring_reader_sleep(&r, TF_RING_NAPPING, 1);
			continue;
		}
		if (ret < 0 || (rec.type != TF_RING_EVENT &&
				rec.type != TF_RING_LOST)) {
			c->bad++;
			continue;
		}
		if (rec.type == TF_RING_LOST) {
			c->lost += rec.lost;
			continue;
		}
		idle = 0;
		if (rec.ts == c->n) {	/* a carrier of the last count */
			c->delivered++;
			continue;
		}
		/* in order, whole */
		if ((any && rec.ts <= last) ||
		    !pattern_ok(rec.payload + 8, rec.len - 8, (uint32_t)rec.ts))
			c->bad++;
		last = rec.ts;
		any = true;
		c->delivered++;
		if ((c->delivered & 255) == 0)
			tf_ring_reader_release(&r);
	}
	return NULL;
}

static void run_concurrent(unsigned long n, bool batch)
{
	struct conc c = { .n = n, .batch = batch };
	pthread_t p, q;

	c.map = new_ring(8192, NULL);
	pthread_create(&q, NULL, consumer, &c);
	pthread_create(&p, NULL, producer, &c);
	pthread_join(p, NULL);
	pthread_join(q, NULL);
	CHECK_INT(c.bad, 0);
	CHECK_INT(c.lost, c.refused);
	CHECK_INT(c.delivered + c.lost, c.produced);
	fprintf(stderr, "test_ring: %lu records%s: %lu delivered, %lu lost\n",
		c.n, batch ? " (read in batches)" : "", c.delivered, c.lost);
	munmap(c.map, TF_RING_CTL_SIZE + 8192);
}

static void test_concurrent(void)
{
	const char *env = getenv("TF_RING_RECORDS");
	unsigned long n = env ? strtoul(env, NULL, 10) : 2000000;

	run_concurrent(n, false);
	run_concurrent(n / 2, true);
}

/* ---- the daemon's channel ---- */

static struct tf_registry *reg;
static struct tf_tracing tracing;

static char *hist_of(const struct tf_event *ev)
{
	struct strbuf sb = STRBUF_INIT;

	tf_hist_show(tf_tr_file(tracing.top, ev->index), &sb);
	return sb.buf ? sb.buf : strdup("");
}

static void hist_on(const struct tf_event *ev, const char *cmd)
{
	pthread_mutex_lock(&tracing.lock);
	CHECK(tf_trigger_write(tf_tr_file(tracing.top, ev->index), cmd,
			       strlen(cmd)) >= 0);
	pthread_mutex_unlock(&tracing.lock);
}

/* A record of @ev with common_pid @pid, its first string field
 * (__data_loc) pointing at @str. */
static uint32_t make(uint8_t *rec, const struct tf_event *ev, int pid,
		     const char *str)
{
	const struct tf_field *f = tf_event_field(ev, "filename");
	uint16_t type = (uint16_t)ev->id;
	uint32_t fixed = 0, loc;

	for (unsigned i = 0; i < ev->nr_fields; i++) {
		uint32_t end = ev->fields[i].offset + ev->fields[i].size;

		if (end > fixed)
			fixed = end;
	}
	memset(rec, 0, fixed);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	if (f && str) {
		uint32_t n = (uint32_t)strlen(str) + 1;

		memcpy(rec + fixed, str, n);
		loc = n << 16 | fixed;
		memcpy(rec + f->offset, &loc, 4);
		return fixed + n;
	}
	return fixed;
}

static void test_channel(void)
{
	const struct tf_event *exec =
		tf_registry_find(reg, "sched", "sched_process_exec");
	const struct tf_event *sw = tf_registry_find(reg, "sched",
						     "sched_switch");
	struct tf_ring_channel *ch;
	struct tf_ring_writer w;
	struct tf_ring_stats st;
	uint8_t rec[512];
	uint32_t len, loc;
	char *h;
	int fd;
	void *map = new_ring(65536, &fd);

	CHECK(exec && sw && map);
	hist_on(exec, "hist:keys=common_pid,filename");
	hist_on(sw, "hist:keys=common_pid");
	CHECK_INT(tf_ring_channel_attach(&tracing, fd, 4242, 4242, "producer",
					 &ch), 0);
	close(fd);
	tf_ring_writer_init(&w, map);

	/* good: two execs, three switches */
	len = make(rec, exec, 7, "/bin/true");
	tf_ring_write(&w, 1000, 0, rec, len);
	tf_ring_write(&w, 1001, 0, rec, len);
	len = make(rec, sw, 8, NULL);
	for (int i = 0; i < 3; i++)
		tf_ring_write(&w, 1002 + i, 0, rec, len);
	/* an unknown id */
	len = make(rec, sw, 9, NULL);
	memcpy(rec, &(uint16_t){ 60999 }, 2);
	tf_ring_write(&w, 1100, 0, rec, len);
	/* shorter than the event's fields */
	len = make(rec, sw, 9, NULL);
	tf_ring_write(&w, 1101, 0, rec, len - 4);
	/* dynamic data beyond the record's end */
	len = make(rec, exec, 9, "/bin/false");
	loc = 200u << 16 | (len - 11);
	memcpy(rec + tf_event_field(exec, "filename")->offset, &loc, 4);
	tf_ring_write(&w, 1102, 0, rec, len);
	/* a string that does not end */
	len = make(rec, exec, 9, "/bin/false");
	rec[len - 1] = 'x';
	tf_ring_write(&w, 1103, 0, rec, len);
	/* between the bad ones, good ones go on */
	len = make(rec, exec, 7, "/bin/true");
	tf_ring_write(&w, 1104, 0, rec, len);
	/* too short to be an event */
	tf_ring_write(&w, 1105, 0, rec, 4);
	tf_ring_channels_sync(tracing.sources);
	tf_ring_channel_stats(ch, &st);
	CHECK_INT(st.records, 6);
	CHECK_INT(st.malformed, 5);
	h = hist_of(exec);
	CHECK(strstr(h, "filename: /bin/true") != NULL);
	CHECK(strstr(h, "hitcount:          3") != NULL);
	CHECK(strstr(h, "false") == NULL);
	CHECK(strstr(h, "Hits: 3") != NULL);
	free(h);
	h = hist_of(sw);
	CHECK(strstr(h, "Hits: 3") != NULL);
	CHECK(strstr(h, "common_pid:          9") == NULL);
	free(h);
	/* a broken frame (a size that is not a multiple of 8), published
	 * by hand: what is there is skipped */
	len = make(rec, sw, 8, NULL);
	tf_ring_write(&w, 1200, 0, rec, len);
	{
		struct tf_ring_header bad = { TF_RING_EVENT, 0, 13 };

		memcpy((uint8_t *)map + TF_RING_CTL_SIZE + (w.head & 65535),
		       &bad, sizeof(bad));
		w.head += 16;
		__atomic_store_n(&w.ctl->data_head, w.head, __ATOMIC_RELEASE);
	}
	tf_ring_channels_sync(tracing.sources);
	tf_ring_channel_stats(ch, &st);
	CHECK_INT(st.records, 7);
	CHECK_INT(st.malformed, 6);
	/* and the ring works on */
	tf_ring_write(&w, 1300, 0, rec, len);
	tf_ring_writer_close(&w);
	tf_ring_channel_detach(ch, &st);
	CHECK_INT(st.records, 8);
	CHECK_INT(st.malformed, 6);
	h = hist_of(sw);
	CHECK(strstr(h, "Hits: 5") != NULL);
	free(h);
	munmap(map, TF_RING_CTL_SIZE + 65536);
	/* not a ring at all */
	fd = memfd_create("not-a-ring", MFD_CLOEXEC);
	CHECK(ftruncate(fd, TF_RING_CTL_SIZE + 65536) == 0);
	CHECK_INT(tf_ring_channel_attach(&tracing, fd, 1, 1, "x", &ch),
		  -EINVAL);
	close(fd);
}

int main(void)
{
	struct tf_sources *srcs;
	int fd;

	test_wrap();
	test_lost();
	test_broken();
	test_batch();
	test_batch_broken();
	test_concurrent();
	fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "test") < 0)
		return 99;
	close(fd);
	CHECK_INT(tf_tracing_init(&tracing, reg, 1), 0);
	/* no source but the rings the test attaches */
	srcs = tf_sources_new();
	CHECK(srcs != NULL);
	CHECK_INT(tf_sources_start(srcs, &tracing), 0);
	CHECK_INT(tf_hist_init(&tracing), 0);
	tf_rcu_register_self();
	test_channel();
	tf_sources_free(srcs);
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return check_done("test_ring");
}
