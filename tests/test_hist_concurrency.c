// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist_concurrency.c - hist triggers while events stream: two ingest
 * threads feed kmem:kmalloc records through tf_dispatch and
 * tf_dispatch_locked_n (40000 call sites), a reader renders
 * `hist`, `hist_debug` and `trigger` and polls the hit count, and the
 * control thread adds, clears, pauses and removes other hist triggers of
 * the same event in a loop.  What must hold:
 *
 *  - nothing crashes, and under ThreadSanitizer nothing races (build it
 *    with scripts/tsan-hist.sh; tests/tsan.supp lists liburcu's false
 *    positives);
 *  - the trigger that stays (keys=common_pid) counts every event exactly
 *    once: Hits = 2 x events per thread, one entry per ingest thread with
 *    exactly its events, nothing dropped.
 *
 *    (the ingest threads run until the control loop is done and say how
 *    many they sent).
 *
 * TF_CONC_LOOPS sets the control loops (default 40: about a second;
 * under TSan about ten).
 */
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "hist/hist.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "check.h"

#include <urcu/urcu-memb.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_event_file *kf;
static unsigned int n_loops = 40;	/* control loops while events flow */
static int stop_reader, stop_ingest;
static unsigned long sent[2];		/* events each ingest thread sent */

/*
 * Thread 100 dispatches one record at a time (tf_dispatch, as
 * trace_marker); thread 200 in arrays of 16 (tf_dispatch_locked_n, as
 * the replay source), looking ahead while a large simple hist exists.
 */
#define BATCH 16

static void *ingest(void *arg)
{
	int32_t pid = (int32_t)(intptr_t)arg;
	uint16_t type = (uint16_t)kf->event->id;
	static __thread uint8_t data[BATCH][56];
	struct tf_record recs[BATCH];
	unsigned long i;
	unsigned int n = pid == 200 ? BATCH : 1;

	for (unsigned int j = 0; j < BATCH; j++) {
		memcpy(data[j], &type, 2);
		memcpy(data[j] + 4, &pid, 4);
		recs[j] = (struct tf_record){ .event = kf->event,
			.data = data[j], .size = 52, .cpu = pid % 2,
			.comm = "ingest" };
	}
	for (i = 0; !__atomic_load_n(&stop_ingest, __ATOMIC_ACQUIRE); ) {
		for (unsigned int j = 0; j < n; j++, i++) {
			uint64_t call_site = 0xffffffff81000000ull +
					     (i % 40000) * 16;
			uint64_t req = 1 + i % 512;

			memcpy(data[j] + 8, &call_site, 8);
			memcpy(data[j] + 24, &req, 8);
			recs[j].ts = i;
		}
		if (n == 1) {
			tf_dispatch(&tracing, &recs[0]);
			continue;
		}
		tf_rcu_read_lock();
		tf_dispatch_locked_n(&tracing, recs, n);
		tf_rcu_read_unlock();
	}
	sent[pid == 200] = i;
	return NULL;
}

static void *reader(void *arg)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long renders = 0;

	(void)arg;
	while (!__atomic_load_n(&stop_reader, __ATOMIC_ACQUIRE)) {
		tf_hist_show(kf, &sb);
		sb_release(&sb);
		tf_hist_debug_show(kf, &sb);
		sb_release(&sb);
		(void)tf_hist_hit_count(kf);
		/* the trigger file is read under the control lock */
		pthread_mutex_lock(&tracing.lock);
		tf_trigger_show(kf, &sb);
		pthread_mutex_unlock(&tracing.lock);
		sb_release(&sb);
		renders++;
	}
	return (void *)renders;
}

static long wr(const char *s)
{
	long ret;

	pthread_mutex_lock(&tracing.lock);
	ret = tf_trigger_write(kf, s, strlen(s));
	pthread_mutex_unlock(&tracing.lock);
	return ret;
}

int main(void)
{
	static const char *const churn[][2] = {	/* attributes, filter */
		{ "hist:keys=call_site:vals=bytes_req:sort=bytes_req.descending", "" },
		{ "hist:keys=call_site.sym,common_pid:vals=hitcount.percent",
		  " if bytes_req > 100" },
		{ "hist:name=shared:keys=common_pid:vals=bytes_req", "" },
		{ "hist:keys=bytes_req.log2:vals=hitcount.graph:size=128", "" },
		{ "hist:keys=common_comm,common_cpu", "" },
		/* a map large enough to be prefetched for */
		{ "hist:keys=call_site:vals=bytes_req:size=32768", "" },
	};
	const char *srcdir = getenv("srcdir") ? getenv("srcdir") : ".";
	pthread_t th[2], rd;
	struct strbuf sb = STRBUF_INIT;
	char path[4096], want[128];
	unsigned long loops = 0;
	void *renders;
	int fd;

	if (getenv("TF_CONC_LOOPS"))
		n_loops = strtoul(getenv("TF_CONC_LOOPS"), NULL, 0);
	snprintf(path, sizeof(path), "%s/tests/oracle/formats-6.12", srcdir);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "test") < 0) {
		fprintf(stderr, "cannot load %s\n", path);
		return 99;
	}
	close(fd);
	if (tf_tracing_init(&tracing, reg, 2) < 0 || tf_hist_init(&tracing) < 0)
		return 99;
	kf = tf_tr_file(tracing.top,
			tf_registry_find(reg, "kmem", "kmalloc")->index);

	CHECK(wr("hist:keys=common_pid:vals=bytes_req:sort=common_pid") > 0);
	pthread_create(&rd, NULL, reader, NULL);
	pthread_create(&th[0], NULL, ingest, (void *)(intptr_t)100);
	pthread_create(&th[1], NULL, ingest, (void *)(intptr_t)200);
	/* control: add, clear, pause, continue, remove while events flow */
	for (;;) {
		unsigned int i = loops++ % (sizeof(churn) / sizeof(churn[0]));
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "%s%s", churn[i][0], churn[i][1]);
		CHECK(wr(cmd) > 0);
		snprintf(cmd, sizeof(cmd), "%s:clear%s", churn[i][0], churn[i][1]);
		CHECK(wr(cmd) > 0);
		snprintf(cmd, sizeof(cmd), "%s:pause%s", churn[i][0], churn[i][1]);
		CHECK(wr(cmd) > 0);
		snprintf(cmd, sizeof(cmd), "%s:cont%s", churn[i][0], churn[i][1]);
		CHECK(wr(cmd) > 0);
		snprintf(cmd, sizeof(cmd), "!%s%s", churn[i][0], churn[i][1]);
		CHECK(wr(cmd) > 0);
		if (loops >= n_loops)
			break;
	}
	__atomic_store_n(&stop_ingest, 1, __ATOMIC_RELEASE);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	__atomic_store_n(&stop_reader, 1, __ATOMIC_RELEASE);
	pthread_join(rd, &renders);

	tf_hist_show(kf, &sb);
	snprintf(want, sizeof(want), "{ common_pid:        100 } hitcount: %10lu",
		 sent[0]);
	CHECK(sb.buf && strstr(sb.buf, want));
	snprintf(want, sizeof(want), "{ common_pid:        200 } hitcount: %10lu",
		 sent[1]);
	CHECK(sb.buf && strstr(sb.buf, want));
	snprintf(want, sizeof(want), "Totals:\n    Hits: %lu\n    Entries: 2\n    Dropped: 0\n",
		 sent[0] + sent[1]);
	CHECK(sb.buf && strstr(sb.buf, want));
	if (check_failed && sb.buf)
		fputs(sb.buf, stderr);
	CHECK_INT(tf_hist_hit_count(kf), sent[0] + sent[1]);
	CHECK(sent[0] > 0 && sent[1] > 0);
	sb_release(&sb);
	printf("test_hist_concurrency: %lu + %lu events, %lu control loops, "
	       "%lu renders\n", sent[0], sent[1], loops,
	       (unsigned long)(uintptr_t)renders);

	pthread_mutex_lock(&tracing.lock);
	tf_trigger_truncate(kf);
	pthread_mutex_unlock(&tracing.lock);
	urcu_memb_barrier();
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return check_done("test_hist_concurrency");
}
