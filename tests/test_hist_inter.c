// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist_inter.c - the inter-event engine without FUSE:
 *
 *  - exact latencies: sched_waking/sched_switch records with known
 *    timestamps through the wakeup-latency pipeline of
 *    histogram-design.txt give the synthetic event's histogram the exact
 *    microseconds (the kernel's (ns + 500) / 1000), a field of the
 *    matching event (prio) through the histogram an action adds there,
 *    onmax() and save() values, a variable consumed once read;
 *  - lifetimes: a referenced histogram and a synthetic event in use
 *    cannot go (EBUSY), everything goes in the right order, and 10,000
 *    create/remove cycles of the whole pipeline leave no memory behind;
 *  - churn: two threads dispatch waking/switch pairs while the control
 *    thread creates and removes the pipeline and its synthetic event and
 *    a reader renders hist, hist_debug and trigger (run it under
 *    ThreadSanitizer with scripts/tsan.sh tests/test_hist_inter.c).
 *
 * TF_CONC_LOOPS sets the churn loops (default 200).
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <urcu/urcu-memb.h>

#include "check.h"
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "fs/files.h"
#include "fs/tree.h"
#include "hist/hist.h"
#include "synth/synth.h"
#include "trigger/trigger.h"
#include "util/kstrto.h"
#include "util/rcu.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif

static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_event *waking, *sw;

static struct tf_event_file *file_of(const struct tf_event *ev)
{
	return tf_tr_file(tracing.top, ev->index);
}

static struct tf_event_file *synth_file(const char *name)
{
	struct tf_synth_event *se = tf_synth_find(&tracing, name);

	return se ? file_of(se->event) : NULL;
}

/* One write to a trigger file (or synthetic_events with @f NULL). */
static long wr(struct tf_event_file *f, const char *cmd)
{
	long r;

	pthread_mutex_lock(&tracing.lock);
	if (f)
		r = tf_trigger_write(f, cmd, strlen(cmd));
	else
		r = tf_synth_events_write(&tracing, cmd, strlen(cmd));
	pthread_mutex_unlock(&tracing.lock);
	return r < 0 ? r : 0;
}

/* Removes the trigger @cmd from @f, as `echo '!cmd' >> trigger`. */
static long unwr(struct tf_event_file *f, const char *cmd)
{
	char buf[640];

	snprintf(buf, sizeof(buf), "!%s", cmd);
	return wr(f, buf);
}

static char *hist(struct tf_event_file *f)
{
	struct strbuf sb = STRBUF_INIT;

	tf_hist_show(f, &sb);
	return sb.buf ? sb.buf : strdup("");
}

static void put(uint8_t *r, const struct tf_event *ev, const char *name,
		uint64_t v)
{
	const struct tf_field *f = tf_event_field(ev, name);

	memcpy(r + f->offset, &v, f->size);
}

static void put_str(uint8_t *r, const struct tf_event *ev, const char *name,
		    const char *s)
{
	const struct tf_field *f = tf_event_field(ev, name);

	memset(r + f->offset, 0, f->size);
	memcpy(r + f->offset, s, strlen(s));
}

#define REC_SIZE 128

/* In @data: a waking of @pid with @prio at @ts ns, or a switch from 0
 * to @pid. */
static struct tf_record make(uint8_t data[REC_SIZE],
			     const struct tf_event *ev, uint32_t pid,
			     uint32_t prio, uint64_t ts, const char *comm)
{
	uint16_t type = (uint16_t)ev->id;
	struct tf_record rec = { .event = ev, .data = data, .size = 100,
				 .ts = ts, .cpu = 0, .comm = "test" };

	memset(data, 0, REC_SIZE);
	memcpy(data, &type, 2);
	if (ev == waking) {
		put(data, ev, "pid", pid);
		put(data, ev, "prio", prio);
		put_str(data, ev, "comm", comm);
	} else {
		put(data, ev, "prev_pid", 0);
		put(data, ev, "prev_prio", 120);
		put_str(data, ev, "prev_comm", "swapper");
		put(data, ev, "next_pid", pid);
		put(data, ev, "next_prio", prio);
		put_str(data, ev, "next_comm", comm);
	}
	return rec;
}

static void fire(const struct tf_event *ev, uint32_t pid, uint32_t prio,
		 uint64_t ts, const char *comm)
{
	uint8_t data[REC_SIZE];
	struct tf_record rec = make(data, ev, pid, prio, ts, comm);

	tf_dispatch(&tracing, &rec);
}

static bool has(const char *text, const char *what)
{
	bool ok = text && strstr(text, what);

	if (!ok)
		fprintf(stderr, "missing \"%s\" in:\n%s\n", what, text ? text : "");
	return ok;
}

static const char *const SYNTH =
	"wakeup_latency u64 lat; pid_t pid; int prio";
static const char *const WAKING = "hist:keys=pid:ts0=common_timestamp.usecs";
static const char *const SWITCH =
	"hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:"
	"onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio)";
static const char *const ON_SYNTH = "hist:keys=pid,lat,prio:sort=pid,lat";
/* what pipeline_up() puts on the synthetic event */
static const char *on_synth = ON_SYNTH;

static void pipeline_up(void)
{
	CHECK_INT(wr(NULL, SYNTH), 0);
	CHECK_INT(wr(file_of(waking), WAKING), 0);
	CHECK_INT(wr(file_of(sw), SWITCH), 0);
	CHECK_INT(wr(synth_file("wakeup_latency"), on_synth), 0);
}

/* In the right order: the synthetic event's hist, the onmatch trigger
 * (with the hist it added on sched_waking), the variable's, the event. */
static void pipeline_down(void)
{
	CHECK_INT(unwr(synth_file("wakeup_latency"), on_synth), 0);
	CHECK_INT(unwr(file_of(sw), SWITCH), 0);
	CHECK_INT(unwr(file_of(waking), WAKING), 0);
	CHECK_INT(wr(NULL, "!wakeup_latency"), 0);
}

static void test_exact(void)
{
	char *h, *t;
	struct strbuf sb = STRBUF_INIT;

	pipeline_up();
	/* the extra histogram that keeps prio on sched_waking */
	tf_trigger_show(file_of(waking), &sb);
	CHECK(has(sb.buf, "hist:keys=pid:vals=hitcount:synthetic_prio=prio:"
			  "sort=hitcount:size=2048 [active]"));
	sb_release(&sb);
	/* 1: 12.4 us -> 12; 2: 7.5 us -> 8 (rounded); 3: switch without
	 * waking: nothing; 1 again: 1000.499 us -> 1000 */
	fire(waking, 1, 120, 1000000000ull, "one");
	fire(waking, 2, 98, 1000001000ull, "two");
	fire(sw, 1, 120, 1000012400ull, "one");
	fire(sw, 2, 98, 1000008500ull, "two");
	fire(sw, 3, 100, 1000020000ull, "three");
	fire(sw, 1, 120, 1000030000ull, "one");	/* ts0 consumed: nothing */
	fire(waking, 1, 110, 2000000000ull, "one");
	fire(sw, 1, 110, 2001000499ull, "one");
	h = hist(synth_file("wakeup_latency"));
	CHECK(has(h, "{ pid:          1, lat:         12, prio:        120 } hitcount:          1\n"));
	CHECK(has(h, "{ pid:          1, lat:       1000, prio:        110 } hitcount:          1\n"));
	CHECK(has(h, "{ pid:          2, lat:          8, prio:         98 } hitcount:          1\n"));
	CHECK(has(h, "Hits: 3\n    Entries: 3\n"));
	free(h);
	/* the switch hist counts only the events whose reference resolved */
	h = hist(file_of(sw));
	CHECK(has(h, "Hits: 3\n"));
	free(h);

	/* removal order: the variable's and the event in use are busy */
	CHECK_INT(wr(file_of(waking), "!hist:keys=pid:ts0=common_timestamp.usecs"),
		  -EBUSY);
	CHECK_INT(wr(NULL, "!wakeup_latency"), -EBUSY);
	pthread_mutex_lock(&tracing.lock);
	tf_trigger_truncate(file_of(waking));	/* refs: removes nothing */
	pthread_mutex_unlock(&tracing.lock);
	sb = (struct strbuf)STRBUF_INIT;
	tf_trigger_show(file_of(waking), &sb);
	CHECK(has(sb.buf, "ts0=common_timestamp.usecs"));
	sb_release(&sb);
	pipeline_down();
	sb = (struct strbuf)STRBUF_INIT;
	tf_trigger_show(file_of(waking), &sb);
	CHECK(has(sb.buf, "# Available triggers:"));
	sb_release(&sb);
	CHECK(tf_synth_find(&tracing, "wakeup_latency") == NULL);

	/* onmax() saving fields of the switch */
	CHECK_INT(wr(file_of(waking), WAKING), 0);
	CHECK_INT(wr(file_of(sw), "hist:keys=next_pid:wakeup_lat="
		     "common_timestamp.usecs-$ts0:onmax($wakeup_lat)."
		     "save(next_comm,prev_pid,next_prio)"), 0);
	fire(waking, 5, 90, 3000000000ull, "five");
	fire(sw, 5, 90, 3000040000ull, "five");		/* 40 us */
	fire(waking, 5, 90, 3001000000ull, "five");
	fire(sw, 5, 91, 3001010000ull, "fivex");	/* 10 us: no */
	t = hist(file_of(sw));
	CHECK(has(t, "{ next_pid:          5 } hitcount:          2\n"
		     "\tmax:         40  next_comm: five                            "
		     "  prev_pid:          0  next_prio:         90\n"));
	free(t);
	CHECK_INT(wr(file_of(sw), "!hist:keys=next_pid:wakeup_lat="
		     "common_timestamp.usecs-$ts0:onmax($wakeup_lat)."
		     "save(next_comm,prev_pid,next_prio)"), 0);
	CHECK_INT(wr(file_of(waking), "!hist:keys=pid:ts0=common_timestamp.usecs"), 0);
}

/* ---- batches: deferred histogram updates ------------------------------- */

#define BATCH_PAIRS	40000

/*
 * The pipeline over records dispatched one at a time, then in batches
 * of every length up to TF_DISPATCH_BATCH (tf_dispatch_locked_n): the
 * synthetic event's histograms are large enough for their updates to be
 * put off while their buckets are fetched, one of them fills up (drops),
 * and waking records pause and resume one of them (disable_hist /
 * enable_hist) in the middle of batches.  Every hist must come out the
 * same: a pause decided when the trigger fired, updates in order.
 * (enable_hist/disable_hist act on every hist of their event.)
 */
static void batched_run(const struct tf_record *recs, unsigned n,
			bool batched, char **out)
{
	static const char *const on_synth[] = {
		"hist:keys=pid,lat,prio:sort=pid,lat:size=16384",
		"hist:keys=lat:vals=hitcount,prio:sort=lat:size=16384",
	};
	static const char *const toggles[] = {
		"disable_hist:synthetic:wakeup_latency if pid == 7",
		"enable_hist:synthetic:wakeup_latency if next_pid == 9",
	};
	char waking_cmd[256], switch_cmd[512];
	struct tf_event_file *syn;

	/* room for every pid in the waking and switch hists */
	snprintf(waking_cmd, sizeof(waking_cmd), "%s:size=32768", WAKING);
	snprintf(switch_cmd, sizeof(switch_cmd), "%s:size=32768", SWITCH);
	CHECK_INT(wr(NULL, SYNTH), 0);
	CHECK_INT(wr(file_of(waking), waking_cmd), 0);
	CHECK_INT(wr(file_of(sw), switch_cmd), 0);
	syn = synth_file("wakeup_latency");
	for (unsigned i = 0; i < 2; i++) {
		CHECK_INT(wr(syn, on_synth[i]), 0);
		CHECK_INT(wr(file_of(i ? sw : waking), toggles[i]), 0);
	}
	for (unsigned i = 0, k = 1; i < n; i += k, k = k % TF_DISPATCH_BATCH + 1) {
		if (k > n - i)
			k = n - i;
		if (!batched) {
			tf_dispatch(&tracing, &recs[i]);
			k = 1;
			continue;
		}
		tf_rcu_read_lock();
		tf_dispatch_locked_n(&tracing, &recs[i], k);
		tf_rcu_read_unlock();
	}
	out[0] = hist(syn);
	out[1] = hist(file_of(sw));
	for (unsigned i = 0; i < 2; i++) {
		CHECK_INT(unwr(syn, on_synth[i]), 0);
		CHECK_INT(unwr(file_of(i ? sw : waking), toggles[i]), 0);
	}
	CHECK_INT(unwr(file_of(sw), switch_cmd), 0);
	CHECK_INT(unwr(file_of(waking), waking_cmd), 0);
	CHECK_INT(wr(NULL, "!wakeup_latency"), 0);
}

static void test_batched(void)
{
	unsigned n = 2 * BATCH_PAIRS, seed = 1;
	struct tf_record *recs = calloc(n, sizeof(*recs));
	uint8_t *data = calloc(n, REC_SIZE);
	char *one[2], *many[2];
	uint64_t ts = 1000000000ull;

	for (unsigned i = 0; i < BATCH_PAIRS; i++) {
		uint32_t pid, lat;

		seed = seed * 1103515245u + 12345u;
		/* 2,000 pids (the hist the action adds for prio keeps 2,048),
		 * 100 latencies: more (pid, lat) keys than 16,384 */
		pid = 10 + (seed >> 8) % 2000;
		lat = 1 + (seed >> 20) % 100;
		/* pid 7 pauses the first synthetic hist, 9 resumes it */
		if (i % 1000 == 300)
			pid = 7;
		else if (i % 1000 == 700)
			pid = 9;
		recs[2 * i] = make(data + 2 * i * REC_SIZE, waking, pid,
				   100 + pid % 20, ts, "w");
		/* one switch in 16 has no waking before it: no match */
		recs[2 * i + 1] = make(data + (2 * i + 1) * REC_SIZE, sw,
				       i % 16 ? pid : pid + 30000,
				       100 + pid % 20, ts + 1000 * lat, "s");
		ts += 100000;
	}
	batched_run(recs, n, false, one);
	batched_run(recs, n, true, many);
	for (unsigned i = 0; i < 2; i++)
		CHECK(one[i] && many[i] && strcmp(one[i], many[i]) == 0);
	/* the runs did count, drop and pause: the synthetic hists (paused
	 * part of the time) have fewer hits than the matches on the
	 * switch, and the first is full */
	{
		const char *h1 = strstr(many[0], "Hits: ");
		const char *d1 = strstr(many[0], "Dropped: ");
		const char *hs = strstr(many[1], "Hits: ");
		unsigned long a = h1 ? strtoul(h1 + 6, NULL, 10) : 0;
		unsigned long d = d1 ? strtoul(d1 + 9, NULL, 10) : 0;
		unsigned long m = hs ? strtoul(hs + 6, NULL, 10) : 0;

		printf("batched: %lu matches, synthetic hist %lu hits + %lu "
		       "dropped\n", m, a, d);
		CHECK(a > 1000 && d > 0 && a + d < m);
		CHECK(has(many[0], "Entries: 16384\n"));
	}
	for (unsigned i = 0; i < 2; i++) {
		free(one[i]);
		free(many[i]);
	}
	free(recs);
	free(data);
}

static size_t heap_used(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static void test_cycles(void)
{
	size_t before, after;

	for (int i = 0; i < 500; i++) {		/* warm-up: caches, slots */
		pipeline_up();
		fire(waking, 7, 120, 1000, "seven");
		fire(sw, 7, 120, 5000, "seven");
		pipeline_down();
	}
	urcu_memb_barrier();
	before = heap_used();
	for (int i = 0; i < 10000; i++) {
		pipeline_up();
		fire(waking, 7, 120, 1000, "seven");
		fire(sw, 7, 120, 5000, "seven");
		pipeline_down();
	}
	urcu_memb_barrier();
	after = heap_used();
	printf("10000 pipeline cycles: heap %zu -> %zu bytes\n", before, after);
	CHECK(after <= before + 4096);
}

/* ---- churn ---------------------------------------------------------------- */

static int stop;

/* Pairs one at a time, then in a batch (whose synthetic hist updates
 * are put off: the churn's synthetic hist is large). */
static void *ingest(void *arg)
{
	uint32_t base = (uint32_t)(uintptr_t)arg;
	static __thread uint8_t data[128][REC_SIZE];
	struct tf_record recs[128];
	uint64_t ts = 1000000;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		for (uint32_t p = base; p < base + 64; p++) {
			fire(waking, p, 120, ts, "churn");
			fire(sw, p, 120, ts + 3000, "churn");
			ts += 5000;
		}
		for (uint32_t i = 0; i < 64; i++) {
			recs[2 * i] = make(data[2 * i], waking, base + i, 120,
					   ts, "churn");
			recs[2 * i + 1] = make(data[2 * i + 1], sw, base + i,
					       120, ts + 3000, "churn");
			ts += 5000;
		}
		tf_rcu_read_lock();
		tf_dispatch_locked_n(&tracing, recs, 64);
		tf_dispatch_locked_n(&tracing, recs + 64, 64);
		tf_rcu_read_unlock();
	}
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct strbuf sb = STRBUF_INIT;
		struct tf_event_file *f;

		tf_hist_show(file_of(sw), &sb);
		tf_hist_debug_show(file_of(sw), &sb);
		tf_hist_show(file_of(waking), &sb);
		pthread_mutex_lock(&tracing.lock);
		tf_trigger_show(file_of(sw), &sb);
		f = synth_file("wakeup_latency");
		if (f)
			tf_hist_show(f, &sb);
		pthread_mutex_unlock(&tracing.lock);
		sb_release(&sb);
	}
	return NULL;
}

static void test_churn(void)
{
	const char *env = getenv("TF_CONC_LOOPS");
	unsigned int loops = env ? (unsigned int)atoi(env) : 200;
	pthread_t tid[3];

	on_synth = "hist:keys=pid,lat,prio:sort=pid,lat:size=16384";
	pthread_create(&tid[0], NULL, ingest, (void *)(uintptr_t)1000);
	pthread_create(&tid[1], NULL, ingest, (void *)(uintptr_t)2000);
	pthread_create(&tid[2], NULL, reader, NULL);
	for (unsigned int i = 0; i < loops; i++) {
		pipeline_up();
		usleep(1000);
		CHECK_INT(wr(NULL, "!wakeup_latency"), -EBUSY);
		pipeline_down();
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
}

/* A line of test_field_params()'s histogram. */
static const char *line(char *buf, const char *pid, const char *comm,
			const char *lat)
{
	sprintf(buf, "{ pid: %10s, comm: %-51s} hitcount:          1  lat: %10s\n",
		pid, comm, lat);
	return buf;
}

/*
 * An action's parameters that are fields of its own event (next_pid,
 * next_comm) are read from the record: a string as the kernel's field
 * variable holds it, cut at its size less one when the record's bytes
 * hold no NUL.
 */
static void test_field_params(void)
{
	static const char *const def =
		"lat_comm u64 lat; pid_t pid; char comm[16]";
	static const char *const on_switch =
		"hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:"
		"onmatch(sched.sched_waking).lat_comm($wakeup_lat,next_pid,"
		"next_comm)";
	static const char *const on_lat = "hist:keys=pid,comm:vals=lat";
	char sb[160], *h;

	CHECK_INT(wr(NULL, def), 0);
	CHECK_INT(wr(file_of(waking), WAKING), 0);
	CHECK_INT(wr(file_of(sw), on_switch), 0);
	CHECK_INT(wr(synth_file("lat_comm"), on_lat), 0);
	pthread_mutex_lock(&tracing.lock);
	tf_event_enable_disable(synth_file("lat_comm"), 1, false);
	pthread_mutex_unlock(&tracing.lock);
	fire(waking, 5, 120, 1000000000ull, "five");
	fire(sw, 5, 120, 1000003000ull, "five");
	/* sixteen bytes, no NUL: fifteen of them */
	fire(waking, 6, 120, 1000010000ull, "x");
	fire(sw, 6, 120, 1000017000ull, "abcdefghijklmnop");
	fire(waking, 5, 120, 1000020000ull, "five");
	fire(sw, 5, 120, 1000021000ull, "cinq");
	h = hist(synth_file("lat_comm"));
	/* a char[16] key of a synthetic event prints as its 256 bytes' */
	CHECK(has(h, line(sb, "5", "five", "3")));
	CHECK(has(h, line(sb, "5", "cinq", "1")));
	CHECK(has(h, line(sb, "6", "abcdefghijklmno", "7")));
	free(h);
	/* and the record holds the string whole, no byte past it */
	{
		struct tf_open o = {
			.node = { .t = &tracing, .tr = tracing.top,
				  .kind = TF_N_FILE_ROOT },
		};
		struct strbuf tr = STRBUF_INIT;

		CHECK_INT(tf_trace_show(&o, &tr), 0);
		sb_putc(&tr, '\0');
		CHECK(has(tr.buf, "lat_comm: lat=7 pid=6 comm=abcdefghijklmno\n"));
		CHECK(has(tr.buf, "lat_comm: lat=1 pid=5 comm=cinq\n"));
		sb_release(&tr);
	}
	h = hist(synth_file("lat_comm"));
	CHECK(has(h, "Hits: 3\n    Entries: 3\n"));
	free(h);
	pthread_mutex_lock(&tracing.lock);
	tf_event_enable_disable(synth_file("lat_comm"), 0, false);
	pthread_mutex_unlock(&tracing.lock);
	CHECK_INT(unwr(synth_file("lat_comm"), on_lat), 0);
	CHECK_INT(unwr(file_of(sw), on_switch), 0);
	CHECK_INT(unwr(file_of(waking), WAKING), 0);
	CHECK_INT(wr(NULL, "!lat_comm"), 0);
}

int main(void)
{
	int fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	char *order = tf_read_file_at(AT_FDCWD, FORMATS_DIR "/available_events",
				      NULL);

	CHECK(fd >= 0);
	CHECK_INT(tf_registry_load(&reg, fd, order, "test"), 0);
	free(order);
	close(fd);
	CHECK_INT(tf_tracing_init(&tracing, reg, 2), 0);
	CHECK_INT(tf_hist_init(&tracing), 0);
	tf_rcu_register_self();
	waking = tf_registry_find(reg, "sched", "sched_waking");
	sw = tf_registry_find(reg, "sched", "sched_switch");
	CHECK(waking && sw);

	test_exact();
	test_batched();
	test_field_params();
	test_cycles();
	test_churn();

	urcu_memb_barrier();
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return check_done("test_hist_inter");
}
