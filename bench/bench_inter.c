// SPDX-License-Identifier: GPL-2.0
/*
 * bench_inter.c - the wakeup-latency pipeline of histogram-design.txt
 * end to end, fed in-process with pre-built records: ns per
 * sched_waking + sched_switch pair through tf_dispatch_locked_n, against
 * a single hist trigger over the same records and a bare-table floor,
 * measured in the same run.
 *
 *   echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
 *   sched_waking: hist:keys=pid:ts0=common_timestamp.usecs:size=65536
 *   sched_switch: hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:
 *                 onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm):size=65536
 *   synthetic/wakeup_latency: hist:keys=pid,lat:sort=pid,lat:size=131072
 *
 * 64K distinct pids; each pair is a waking of pid p at time t and a
 * switch to p at t + lat(p) (lat 1..64 us, fixed per pid, so the
 * synthetic histogram has one entry per pid).  The pairs of a batch are
 * in pid order shuffled once, as many tasks waking and running.
 *
 * Single hist: `hist:keys=next_pid:size=65536` on sched_switch alone,
 * over the same records (wakings dispatched too, no trigger on them).
 * Floor: the same work in bare single-threaded open-addressing tables
 * (set ts0[pid] on waking; on switch look it up, take the difference,
 * count it in a (pid, lat) table).
 *
 * Two ingest threads: each feeds its own half of the pids (as per-CPU
 * streams: a task's waking and switch arrive on one stream here),
 * scaling is pairs per second of two threads over one (CPU time).
 *
 * The records are on huge pages: a source hands over records from the
 * page it has just read (a ring buffer page, a trace.dat page, a pipe
 * buffer), which the TLB holds; 4 KiB pages over this input's hundreds
 * of MiB would add a TLB miss every ~15 pairs that no source has (-s
 * keeps them, to measure that).
 *
 * usage: bench_inter [-n pairs_per_thread] [-r repetitions] [-k pids]
 *                    [-f formats] [-P] [-s]
 *   -P: the pipeline alone, one thread (for callgrind's instruction counts)
 *   -k: distinct pids, a power of two up to 65536 (the default): fewer
 *       keep every map in the caches, to tell instructions from misses
 *   -s: the records on small (4 KiB) pages
 */
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "hist/hist.h"
#include "hist/tracing_map.h"
#include "synth/synth.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "bench_common.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TF_SRCDATADIR
#define TF_SRCDATADIR "data"
#endif

#define MAX_PIDS	65536u
#define PID_BASE	1000u
#define HUGE_PAGE	(2u << 20)

static unsigned int n_pids = MAX_PIDS;	/* -k: distinct pids */

static unsigned int n_pairs = 1u << 20;	/* per thread */
static unsigned int reps = 5;
static bool pipeline_only;	/* -P: only the pipeline, one thread */
static bool small_pages;	/* -s: the records on 4 KiB pages */
static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_event_file *waking_file, *switch_file, *synth_file;
static const struct tf_event *waking_ev, *switch_ev;

static uint64_t lat_of(uint32_t pid)
{
	return 1 + (pid * 2654435761u >> 26);	/* 1..64 us */
}

/* One stream: records of @n pairs over @pids (a thread's share). */
struct stream {
	uint8_t *data;			/* the records' bytes */
	struct tf_record *recs;		/* 2n, waking then switch */
	unsigned int n;
};

static void put(uint8_t *r, const struct tf_field *f, uint64_t v)
{
	memcpy(r + f->offset, &v, f->size);
}

/* Zeroed memory for @size bytes of input, on huge pages unless -s. */
static void *input_alloc(size_t size)
{
	size_t len = (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	void *p = aligned_alloc(HUGE_PAGE, len);

	if (!p) {
		perror("bench_inter");
		exit(1);
	}
	madvise(p, len, small_pages ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
	memset(p, 0, len);
	return p;
}

static void build_stream(struct stream *s, const uint32_t *pids,
			 unsigned int n_pids, unsigned int n, uint64_t t0)
{
	const struct tf_field *w_pid = tf_event_field(waking_ev, "pid");
	const struct tf_field *w_comm = tf_event_field(waking_ev, "comm");
	const struct tf_field *s_next = tf_event_field(switch_ev, "next_pid");
	const struct tf_field *s_comm = tf_event_field(switch_ev, "next_comm");
	const struct tf_field *s_prev = tf_event_field(switch_ev, "prev_pid");
	unsigned int wsize = 64, ssize = 72;
	uint64_t t = t0;

	s->n = n;
	s->data = input_alloc((size_t)n * (wsize + ssize));
	s->recs = input_alloc(2 * (size_t)n * sizeof(*s->recs));
	for (unsigned int i = 0; i < n; i++) {
		uint32_t pid = pids[i % n_pids];
		uint8_t *w = s->data + (size_t)i * (wsize + ssize), *x = w + wsize;
		uint16_t wt = (uint16_t)waking_ev->id, st = (uint16_t)switch_ev->id;
		int32_t cur = 0;
		char comm[16];

		snprintf(comm, sizeof(comm), "task%u", pid);
		memcpy(w, &wt, 2);
		memcpy(w + 4, &cur, 4);
		put(w, w_pid, pid);
		memcpy(w + w_comm->offset, comm, strlen(comm));
		memcpy(x, &st, 2);
		memcpy(x + 4, &cur, 4);
		put(x, s_prev, 0);
		put(x, s_next, pid);
		memcpy(x + s_comm->offset, comm, strlen(comm));
		/* the next pair starts a microsecond on */
		t += 1000;
		s->recs[2 * i] = (struct tf_record) {
			.event = waking_ev, .data = w, .size = wsize, .ts = t };
		s->recs[2 * i + 1] = (struct tf_record) {
			.event = switch_ev, .data = x, .size = ssize,
			.ts = t + lat_of(pid) * 1000 };
	}
}

static void free_stream(struct stream *s)
{
	free(s->data);
	free(s->recs);
}

/* ---- the floor ------------------------------------------------------------ */

struct bare_var { uint64_t key, ts; };
struct bare_sum { uint64_t key, hits; };

static uint64_t *find_slot(void *tab, size_t stride, uint64_t mask,
			   uint64_t key)
{
	uint64_t idx = tracing_map_hash_word(key) & mask;

	for (;; idx = (idx + 1) & mask) {
		uint64_t *k = (uint64_t *)((char *)tab + idx * stride);

		if (*k == key || !*k) {
			*k = key;
			return k;
		}
	}
}

static double run_bare(const struct stream *s)
{
	uint64_t vmask = 2 * MAX_PIDS - 1, smask = 4 * MAX_PIDS - 1;
	struct bare_var *vars = calloc(vmask + 1, sizeof(*vars));
	struct bare_sum *sums = calloc(smask + 1, sizeof(*sums));
	const struct tf_field *w_pid = tf_event_field(waking_ev, "pid");
	const struct tf_field *s_next = tf_event_field(switch_ev, "next_pid");
	double t0, t1;

	t0 = cpu_ns();
	for (unsigned int i = 0; i < 2 * s->n; i += 2) {
		const struct tf_record *w = &s->recs[i], *x = &s->recs[i + 1];
		uint64_t pid = tf_field_read_u64(w_pid, w->data);
		struct bare_var *v = (struct bare_var *)find_slot(vars,
					sizeof(*vars), vmask, pid);
		uint64_t npid, lat;

		v->ts = w->ts / 1000;
		npid = tf_field_read_u64(s_next, x->data);
		v = (struct bare_var *)find_slot(vars, sizeof(*vars), vmask, npid);
		if (!v->ts)
			continue;
		lat = x->ts / 1000 - v->ts;
		v->ts = 0;
		((struct bare_sum *)find_slot(sums, sizeof(*sums), smask,
					      npid << 16 | lat))->hits++;
	}
	t1 = cpu_ns();
	if (sums[0].hits == 12345678)
		puts("");
	free(vars);
	free(sums);
	return (t1 - t0) / s->n;
}

/* ---- through dispatch ----------------------------------------------------- */

struct ingest {
	const struct stream *s;
	pthread_barrier_t *start;
	double ns;
};

static void *ingest_thread(void *arg)
{
	struct ingest *in = arg;
	const struct stream *s = in->s;
	double t0;

	tf_rcu_read_lock();	/* registers the thread with liburcu */
	tf_rcu_read_unlock();
	pthread_barrier_wait(in->start);
	t0 = cpu_ns();
	for (unsigned int i = 0; i < 2 * s->n; i += TF_DISPATCH_BATCH) {
		unsigned int m = 2 * s->n - i < TF_DISPATCH_BATCH ?
				 2 * s->n - i : TF_DISPATCH_BATCH;

		tf_rcu_read_lock();
		tf_dispatch_locked_n(&tracing, s->recs + i, m);
		tf_rcu_read_unlock();
	}
	in->ns = cpu_ns() - t0;
	return NULL;
}

static void ctl(struct tf_event_file *f, const char *cmd, bool trunc)
{
	pthread_mutex_lock(&tracing.lock);
	if (trunc)
		tf_trigger_truncate(f);
	if (cmd && tf_trigger_write(f, cmd, strlen(cmd)) < 0) {
		fprintf(stderr, "bench_inter: %s: rejected\n", cmd);
		exit(1);
	}
	pthread_mutex_unlock(&tracing.lock);
}

static const char *const WAKING =
	"hist:keys=pid:ts0=common_timestamp.usecs:size=65536";
static const char *const SWITCH =
	"hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:"
	"onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,"
	"next_comm):size=65536";
static const char *const SYNTH = "hist:keys=pid,lat:sort=pid,lat:size=131072";
static const char *const SINGLE = "hist:keys=next_pid:size=65536";

static void pipeline(bool on)
{
	if (on) {
		ctl(waking_file, WAKING, true);
		ctl(switch_file, SWITCH, true);
		ctl(synth_file, SYNTH, true);
	} else {
		ctl(synth_file, NULL, true);
		ctl(switch_file, NULL, true);
		ctl(waking_file, NULL, true);
	}
}

static uint64_t hits_of(struct tf_event_file *f, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	uint64_t n;

	tf_hist_show(f, &sb);
	p = sb.buf ? strstr(sb.buf, what) : NULL;
	n = p ? strtoull(p + strlen(what), NULL, 10) : 0;
	sb_release(&sb);
	return n;
}

static double run(const struct stream *streams, unsigned int n_threads,
		  bool full, uint64_t *synth_hits, uint64_t *entries)
{
	struct ingest in[2];
	pthread_barrier_t start;
	pthread_t tid[2];
	double worst = 0;

	if (full)
		pipeline(true);
	else
		ctl(switch_file, SINGLE, true);
	pthread_barrier_init(&start, NULL, n_threads);
	for (unsigned int t = 0; t < n_threads; t++) {
		in[t] = (struct ingest){ .s = &streams[t], .start = &start };
		pthread_create(&tid[t], NULL, ingest_thread, &in[t]);
	}
	for (unsigned int t = 0; t < n_threads; t++) {
		pthread_join(tid[t], NULL);
		if (in[t].ns > worst)
			worst = in[t].ns;
	}
	pthread_barrier_destroy(&start);
	if (full) {
		*synth_hits = hits_of(synth_file, "Hits: ");
		*entries = hits_of(synth_file, "Entries: ");
		pipeline(false);
	} else {
		*synth_hits = hits_of(switch_file, "Hits: ");
		*entries = hits_of(switch_file, "Entries: ");
		ctl(switch_file, NULL, true);
	}
	return worst / streams[0].n;
}

int main(int argc, char **argv)
{
	const char *formats = TF_SRCDATADIR "/../tests/oracle/formats-6.12";
	const char *def = "wakeup_latency u64 lat; pid_t pid; char comm[16]";
	double bare[32], one[32], two[32], single[32], single2[32];
	uint64_t h1 = 0, e1 = 0, h2 = 0, e2 = 0, hs = 0, es = 0;
	uint32_t *all, *half[2];
	struct stream s1[1], s2[2];
	struct stat3 sb, so, st, ss, ss2;
	int opt, fd;

	while ((opt = getopt(argc, argv, "n:r:f:k:Ps")) != -1) {
		switch (opt) {
		case 'P': pipeline_only = true; break;
		case 's': small_pages = true; break;
		case 'k': n_pids = strtoul(optarg, NULL, 0); break;
		case 'n': n_pairs = strtoul(optarg, NULL, 0); break;
		case 'r': reps = strtoul(optarg, NULL, 0); break;
		case 'f': formats = optarg; break;
		default:
			fprintf(stderr, "usage: bench_inter [-n pairs] [-r reps] [-k pids] [-f formats-dir] [-P] [-s]\n");
			return 2;
		}
	}
	if (n_pids < 2 || n_pids > MAX_PIDS || (n_pids & (n_pids - 1))) {
		fprintf(stderr, "bench_inter: -k is a power of two, 2..%u\n",
			MAX_PIDS);
		return 2;
	}
	if (reps < 1 || reps > 32)
		reps = 5;
	fd = open(formats, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "bench") < 0) {
		fprintf(stderr, "bench_inter: cannot load %s (-f DIR)\n", formats);
		return 1;
	}
	close(fd);
	if (tf_tracing_init(&tracing, reg, 2) < 0 || tf_hist_init(&tracing) < 0)
		return 1;
	waking_ev = tf_registry_find(reg, "sched", "sched_waking");
	switch_ev = tf_registry_find(reg, "sched", "sched_switch");
	if (!waking_ev || !switch_ev)
		return 1;
	pthread_mutex_lock(&tracing.lock);
	if (tf_synth_events_write(&tracing, def, strlen(def)) < 0)
		return 1;
	pthread_mutex_unlock(&tracing.lock);
	waking_file = tf_tr_file(tracing.top, waking_ev->index);
	switch_file = tf_tr_file(tracing.top, switch_ev->index);
	synth_file = tf_tr_file(tracing.top,
				tf_synth_find(&tracing, "wakeup_latency")->event->index);

	/* the pids, shuffled; two halves for two threads */
	all = malloc(n_pids * sizeof(*all));
	for (unsigned int i = 0; i < n_pids; i++)
		all[i] = PID_BASE + i;
	srand(7);
	for (unsigned int i = n_pids - 1; i > 0; i--) {
		unsigned int j = (unsigned int)rand() % (i + 1);
		uint32_t x = all[i];

		all[i] = all[j];
		all[j] = x;
	}
	half[0] = all;
	half[1] = all + n_pids / 2;
	build_stream(&s1[0], all, n_pids, n_pairs, 1000000000ull);
	build_stream(&s2[0], half[0], n_pids / 2, n_pairs, 1000000000ull);
	build_stream(&s2[1], half[1], n_pids / 2, n_pairs, 1000000000ull);

	printf("bench_inter: %u pairs per thread, %u repetitions, %u pids; "
	       "CPU ns per waking+switch pair: median (min-max)\n\n",
	       n_pairs, reps, n_pids);
	if (pipeline_only) {	/* for instruction counts (callgrind) */
		for (unsigned int r = 0; r < reps; r++)
			one[r] = run(s1, 1, true, &h1, &e1);
		so = stats(one, reps);
		printf("pipeline, 1 thread: %.1f (%.1f-%.1f)\n", so.med, so.min,
		       so.max);
		goto out;
	}
	for (unsigned int r = 0; r < reps; r++) {
		bare[r] = run_bare(&s1[0]);
		single[r] = run(s1, 1, false, &hs, &es);
		one[r] = run(s1, 1, true, &h1, &e1);
		single2[r] = run(s2, 2, false, &hs, &es);
		two[r] = run(s2, 2, true, &h2, &e2);
	}
	sb = stats(bare, reps);
	ss = stats(single, reps);
	so = stats(one, reps);
	ss2 = stats(single2, reps);
	st = stats(two, reps);
	printf("| case | 1 thread | 2 threads (per thread) | scaling |\n"
	       "|---|---|---|---|\n");
	printf("| bare tables (floor) | %.1f (%.1f-%.1f) | | |\n",
	       sb.med, sb.min, sb.max);
	printf("| single hist on sched_switch | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.2fx |\n",
	       ss.med, ss.min, ss.max, ss2.med, ss2.min, ss2.max,
	       2 * ss.med / ss2.med);
	printf("| wakeup-latency pipeline | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.2fx |\n",
	       so.med, so.min, so.max, st.med, st.min, st.max,
	       2 * so.med / st.med);
	printf("\npipeline vs floor: %.2fx; synthetic hist: 1T %llu hits, %llu "
	       "entries; 2T %llu hits, %llu entries\n", so.med / sb.med,
	       (unsigned long long)h1, (unsigned long long)e1,
	       (unsigned long long)h2, (unsigned long long)e2);
	if (h1 != n_pairs || h2 != 2ull * n_pairs)
		printf("(!) synthetic events generated do not match the pairs\n");
out:
	free_stream(&s1[0]);
	free_stream(&s2[0]);
	free_stream(&s2[1]);
	free(all);
	urcu_memb_barrier();
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return 0;
}
