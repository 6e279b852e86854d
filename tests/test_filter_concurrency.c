// SPDX-License-Identifier: GPL-2.0
/*
 * test_filter_concurrency.c - filters and triggers replaced while events
 * stream (issue 4, item 6).  Two ingest threads dispatch signal_generate
 * records as fast as they can while the main thread, as the FUSE control
 * path does (under tracing.lock), replaces the event's filter and adds and
 * removes triggers.  What a user would see:
 *
 * - nothing crashes, and under ThreadSanitizer nothing races
 *   (tests/tsan.supp: liburcu itself is not instrumented);
 * - the event path never waits for the control path: ingest goes on
 *   while the main thread holds tracing.lock (it does still take the
 *   trace buffer's per-CPU writer lock, which only writers of that CPU
 *   share, and saved_cmdlines' mutex when a pid's comm changes);
 * - a trigger removed by a write never fires once that write returned:
 *   after `!traceoff` returns and tracing_on is set back to 1, tracing_on
 *   stays 1 however many records follow;
 * - records of an event whose filter keeps being replaced by filters that
 *   accept every record (and by bad filters, which leave the event
 *   unfiltered on 6.12) are neither lost nor counted twice: the buffer
 *   has written exactly as many records as were dispatched.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "buffer/ring_buffer.h"
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "util/kstrto.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif

#define NR_INGEST 2

static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_event *sig_ev;

static atomic_int stop_ingest;
static atomic_long progress[NR_INGEST];	/* records dispatched, per thread */

/* A whole file (the formats and available_events of the fixture). */
static char *slurp(const char *path)
{
	return tf_read_file_at(AT_FDCWD, path, NULL);
}

static void set_int(uint8_t *data, const char *field, int32_t v)
{
	const struct tf_field *f = tf_event_field(sig_ev, field);

	if (f)
		memcpy(data + f->offset, &v, 4);
}

static void *ingest(void *arg)
{
	long id = (long)arg;
	uint8_t data[48] = { 0 };
	uint16_t type = (uint16_t)sig_ev->id;
	struct tf_record rec = {
		.event = sig_ev, .data = data, .size = sizeof(data),
		.cpu = (int)id, .comm = "ingest",
	};

	memcpy(data, &type, 2);
	set_int(data, "common_pid", 100 + (int)id);
	memcpy(data + tf_event_field(sig_ev, "comm")->offset, "ingest", 7);
	for (uint64_t n = 1; !atomic_load(&stop_ingest); n++) {
		set_int(data, "sig", (int)(n % 31) + 1);
		rec.ts = n;
		tf_dispatch(&tracing, &rec);
		atomic_fetch_add(&progress[id], 1);
	}
	return NULL;	/* tf_rcu_register_self unregisters at exit */
}

static long total_progress(void)
{
	long s = 0;

	for (int i = 0; i < NR_INGEST; i++)
		s += atomic_load(&progress[i]);
	return s;
}

/* Waits until every ingest thread dispatched @n more records. */
static void wait_progress(long n)
{
	long start[NR_INGEST];

	for (int i = 0; i < NR_INGEST; i++)
		start[i] = atomic_load(&progress[i]);
	for (int i = 0; i < NR_INGEST; i++)
		while (atomic_load(&progress[i]) - start[i] < n)
			sched_yield();
}

static int filter_write(struct tf_event_file *f, const char *s)
{
	int ret;

	pthread_mutex_lock(&tracing.lock);
	ret = tf_event_filter_write(f, s);
	pthread_mutex_unlock(&tracing.lock);
	return ret;
}

static long trigger_write(struct tf_event_file *f, const char *s)
{
	long ret;

	pthread_mutex_lock(&tracing.lock);
	ret = tf_trigger_write(f, s, strlen(s));
	pthread_mutex_unlock(&tracing.lock);
	return ret < 0 ? ret : 0;
}

static uint64_t written(struct tf_trace_array *tr)
{
	uint64_t sum = 0;

	for (int cpu = 0; cpu < NR_INGEST; cpu++) {
		struct tf_rb_stats st;

		tf_ring_buffer_stats(tr->buffer, cpu, &st);
		sum += st.written;
	}
	return sum;
}

int main(void)
{
	static const char *const accept_all[] = {
		"sig >= 0", "sig < 1000 || comm == \"x\"", "common_pid > 0",
		"sig >= 0 &&",			/* bad: leaves it unfiltered */
		"comm ~ \"ing*\"", "!(sig == 0)", "sig & 0x3f",
		"0",
	};
	struct tf_trace_array *inst = NULL;
	struct tf_event_file *top_sig, *inst_sig;
	pthread_t th[NR_INGEST];
	int fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	char *order = slurp(FORMATS_DIR "/available_events");
	long removed_fired = 0, blocked = 0, rounds = 0, traceoff_seen = 0;
	struct timespec t0, now;

	if (fd < 0 || tf_registry_load(&reg, fd, order, "test") < 0)
		return 99;
	free(order);
	close(fd);
	tf_trigger_init(reg);
	if (tf_tracing_init(&tracing, reg, NR_INGEST) < 0)
		return 99;
	sig_ev = tf_registry_find(reg, "signal", "signal_generate");
	CHECK(sig_ev != NULL);
	if (!sig_ev)
		return check_done("test_filter_concurrency");

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "trig", &inst), 0);
	pthread_mutex_unlock(&tracing.lock);
	top_sig = tf_tr_file(tracing.top, sig_ev->index);
	inst_sig = tf_tr_file(inst, sig_ev->index);
	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_event_enable_disable(top_sig, 1, false), 0);
	pthread_mutex_unlock(&tracing.lock);

	for (long i = 0; i < NR_INGEST; i++)
		pthread_create(&th[i], NULL, ingest, (void *)i);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		size_t k = (size_t)rounds % (sizeof(accept_all) /
					     sizeof(accept_all[0]));
		long before;
		int r;

		/* the counted event: its filter replaced, always accepting */
		r = filter_write(top_sig, accept_all[k]);
		CHECK(r == 0 || (r == -EINVAL && k == 3));
		/* churn the counted event's trigger list too (traceon on a
		 * running buffer changes nothing, with or without a filter) */
		CHECK_INT(trigger_write(top_sig, rounds & 1 ?
					"traceon if sig > 3" : "traceon"), 0);

		/* a trigger whose firing is visible: traceoff in "trig" */
		CHECK_INT(trigger_write(inst_sig, "traceoff if sig != 0"), 0);
		wait_progress(2);
		if (!atomic_load(&inst->tracing_on))
			traceoff_seen++;
		CHECK_INT(trigger_write(inst_sig, "!traceoff"), 0);
		atomic_store(&inst->tracing_on, 1);
		wait_progress(50);
		if (!atomic_load(&inst->tracing_on))
			removed_fired++;
		CHECK_INT(trigger_write(top_sig, "!traceon"), 0);

		/* the event path never waits for the control lock: records
		 * go on while it is held (up to 2 s, so that a loaded
		 * machine that leaves the ingest threads no CPU for a while
		 * is not taken for a wait) */
		if (rounds % 16 == 0) {
			struct timespec h0, h;

			pthread_mutex_lock(&tracing.lock);
			before = total_progress();
			clock_gettime(CLOCK_MONOTONIC, &h0);
			do {
				usleep(1000);
				clock_gettime(CLOCK_MONOTONIC, &h);
			} while (total_progress() - before < 100 &&
				 (h.tv_sec - h0.tv_sec) * 1000000000L +
				 (h.tv_nsec - h0.tv_nsec) < 2000000000L);
			if (total_progress() - before < 100)
				blocked++;
			pthread_mutex_unlock(&tracing.lock);
		}
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < 2 || rounds < 50);

	atomic_store(&stop_ingest, 1);
	for (int i = 0; i < NR_INGEST; i++)
		pthread_join(th[i], NULL);

	fprintf(stderr, "%ld rounds, %ld records, traceoff fired in %ld\n",
		rounds, total_progress(), traceoff_seen);
	CHECK_INT(removed_fired, 0);
	CHECK_INT(blocked, 0);
	CHECK(traceoff_seen > 0);
	/* every record dispatched was recorded exactly once */
	CHECK_INT(written(tracing.top), total_progress());

	pthread_mutex_lock(&tracing.lock);
	tf_trigger_clear_all(inst);
	tf_trigger_clear_all(tracing.top);
	CHECK_INT(tf_instance_remove(&tracing, "trig"), 0);
	pthread_mutex_unlock(&tracing.lock);
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return check_done("test_filter_concurrency");
}
