// SPDX-License-Identifier: GPL-2.0
/*
 * bench_hist.c - a hist trigger end to end: ns/event through tf_dispatch
 * (the soft-mode check, the trigger list, the trigger's `if` filter, the
 * hist trigger's key and value extraction, the tracing_map), against the
 * floor of a bare single-threaded open-addressing table over the same
 * keys, measured in the same run; and the time to render (tf_hist_show,
 * what `cat hist` returns) a histogram of 100k entries.
 *
 * The trigger is, on kmem:kmalloc of the Linux 6.12 formats
 * (tests/oracle/formats-6.12):
 *
 *	hist:keys=call_site:vals=bytes_req:size=N if bytes_req > 0
 *
 * Records are pre-built in the kernel's binary layout (56 bytes each,
 * call_site from the key distribution, bytes_req from the key) before
 * timing; each ingest thread feeds its own array through tf_dispatch, as
 * a source thread does.  Keys: 2048, 65536 and 1M distinct call_site
 * values, uniform or Zipf (s = 1.0) by rank; size= is 2048, 65536 and
 * 131072 (the kernel's maximum: the 1M-key cases drop what does not fit,
 * as the kernel does; the floor keeps every key).  Time is each thread's
 * CPU time (CLOCK_THREAD_CPUTIME_ID; the machine is shared), the slower
 * thread's for two; median (min-max) of the repetitions; each repetition
 * adds a fresh trigger (map creation not timed) and removes it after.
 *
 * usage: bench_hist [-e events_per_thread] [-r repetitions] [-q]
 *   -q: skip the 1M-key cases; -s: only the rendering (cat hist) cases;
 *   -b: one read-side section per TF_DISPATCH_BATCH records, dispatched
 *   as an array with tf_dispatch_locked_n() as the replay source does
 *   (-a: one tf_dispatch_locked() per record instead, no looking ahead);
 *   -f DIR: the formats (default the source tree's tests/oracle/formats-6.12).
 */
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "hist/hist.h"
#include "hist/tracing_map.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "bench_keys.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef TF_SRCDATADIR
#define TF_SRCDATADIR "data"
#endif

#define REC_SIZE 56

static unsigned int n_events = 2u << 20;	/* per thread */
static unsigned int reps = 5;
static bool hot_records;
static bool batched;	/* -b: TF_DISPATCH_BATCH records per read lock */
static bool lookahead = true;	/* -b: tf_dispatch_locked_n; -a: not */
static unsigned int only_keys;	/* -k: only the cases with this many keys */
static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_event_file *kmalloc_file;

/* clocks and key streams: bench_keys.h */

/* kmem:kmalloc records (6.12 layout) for @keys */
static uint8_t *build_records(const uint64_t *keys, unsigned int n)
{
	uint8_t *recs = aligned_alloc(64, (size_t)n * REC_SIZE);
	uint16_t type = (uint16_t)kmalloc_file->event->id;

	memset(recs, 0, (size_t)n * REC_SIZE);
	for (unsigned int i = 0; i < n; i++) {
		uint8_t *r = recs + (size_t)i * REC_SIZE;
		int32_t pid = 1000 + (int32_t)(i & 7), node = 0;
		uint64_t ptr = 0xffff888000000000ull + i * 64;
		uint64_t req = 1 + (keys[i] & 0xff), alloc = 256;
		uint64_t gfp = 0xcc0;

		memcpy(r + 0, &type, 2);
		memcpy(r + 4, &pid, 4);
		memcpy(r + 8, &keys[i], 8);
		memcpy(r + 16, &ptr, 8);
		memcpy(r + 24, &req, 8);
		memcpy(r + 32, &alloc, 8);
		memcpy(r + 40, &gfp, 8);
		memcpy(r + 48, &node, 4);
	}
	return recs;
}

/* ---- the floor: bare single-threaded open addressing (bench_map.c) ---- */

struct bare_bucket {
	uint64_t key;
	uint64_t hits;
	uint64_t sum;
};

static double run_bare(const uint64_t *ev, unsigned int map_bits)
{
	uint64_t mask = (1ull << (map_bits + 1)) - 1;
	unsigned int shift = 32 - (map_bits + 1);
	struct bare_bucket *b = calloc(mask + 1, sizeof(*b));
	double t0, t1;
	unsigned int i;

	t0 = cpu_ns();
	for (i = 0; i < n_events; i++) {
		uint64_t k = ev[i];
		uint64_t idx = tracing_map_hash_word(k) >> shift;

		for (;; idx = (idx + 1) & mask) {
			struct bare_bucket *x = &b[idx];

			if (x->key == k) {
				x->hits++;
				x->sum += 1 + (k & 0xff);
				break;
			}
			if (!x->key) {
				x->key = k;
				x->hits = 1;
				x->sum = 1 + (k & 0xff);
				break;
			}
		}
	}
	t1 = cpu_ns();
	if (b[0].hits == 12345678)
		puts("");
	free(b);
	return (t1 - t0) / n_events;
}

/* ---- through dispatch ---------------------------------------------------- */

struct ingest {
	const uint8_t *recs;
	const uint64_t *keys;
	pthread_barrier_t *start;
	double ns;
};

/*
 * Event i: one read-side section per record (tf_dispatch), or, with -b,
 * per TF_DISPATCH_BATCH records as the replay source takes it.
 */
static inline void dispatch(const struct tf_record *rec, unsigned int i)
{
	if (!batched) {
		tf_dispatch(&tracing, rec);
		return;
	}
	if (i % TF_DISPATCH_BATCH == 0) {
		if (i)
			tf_rcu_read_unlock();
		tf_rcu_read_lock();
	}
	tf_dispatch_locked(&tracing, rec);
}

static void *ingest_thread(void *arg)
{
	struct ingest *in = arg;
	struct tf_record rec = {
		.event = kmalloc_file->event, .size = REC_SIZE - 4,
		.cpu = 0, .comm = NULL,
	};
	double t0;

	tf_rcu_read_lock();	/* registers this thread with liburcu */
	tf_rcu_read_unlock();
	pthread_barrier_wait(in->start);
	t0 = cpu_ns();
	if (hot_records) {
		/* one record in a hot page: the key stream is read as the
		 * floor reads it, written into the record per event */
		uint8_t page[REC_SIZE] __attribute__((aligned(64)));

		memcpy(page, in->recs, REC_SIZE);
		rec.data = page;
		for (unsigned int i = 0; i < n_events; i++) {
			uint64_t k = in->keys[i], req = 1 + (k & 0xff);

			memcpy(page + 8, &k, 8);
			memcpy(page + 24, &req, 8);
			rec.ts = i;
			dispatch(&rec, i);
		}
	} else if (batched && lookahead) {
		/* as the replay source: an array of records per read-side
		 * section, dispatched looking ahead */
		struct tf_record batch[TF_DISPATCH_BATCH];

		for (unsigned int i = 0; i < n_events; i += TF_DISPATCH_BATCH) {
			unsigned int m = n_events - i < TF_DISPATCH_BATCH ?
					 n_events - i : TF_DISPATCH_BATCH;

			for (unsigned int j = 0; j < m; j++) {
				batch[j] = rec;
				batch[j].data = in->recs +
						(size_t)(i + j) * REC_SIZE;
				batch[j].ts = i + j;
			}
			tf_rcu_read_lock();
			tf_dispatch_locked_n(&tracing, batch, m);
			tf_rcu_read_unlock();
		}
		in->ns = cpu_ns() - t0;
		return NULL;
	} else {
		for (unsigned int i = 0; i < n_events; i++) {
			rec.data = in->recs + (size_t)i * REC_SIZE;
			rec.ts = i;
			/* as the replay source: the records ahead are fetched
			 * while this one is dispatched */
			if (batched)
				__builtin_prefetch(rec.data + 4 * REC_SIZE);
			dispatch(&rec, i);
		}
	}
	if (batched)
		tf_rcu_read_unlock();
	in->ns = cpu_ns() - t0;
	return NULL;
}

static void set_trigger(const char *cmd)
{
	pthread_mutex_lock(&tracing.lock);
	tf_trigger_truncate(kmalloc_file);
	if (cmd && tf_trigger_write(kmalloc_file, cmd, strlen(cmd)) < 0) {
		fprintf(stderr, "bench_hist: %s: rejected\n", cmd);
		exit(1);
	}
	pthread_mutex_unlock(&tracing.lock);
}

/* "Hits: N" and "Dropped: N" of the hist file */
static void totals(uint64_t *hits, uint64_t *drops, uint64_t *entries)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	tf_hist_show(kmalloc_file, &sb);
	p = sb.buf ? strstr(sb.buf, "Hits: ") : NULL;
	*hits = p ? strtoull(p + 6, NULL, 10) : 0;
	p = sb.buf ? strstr(sb.buf, "Entries: ") : NULL;
	*entries = p ? strtoull(p + 9, NULL, 10) : 0;
	p = sb.buf ? strstr(sb.buf, "Dropped: ") : NULL;
	*drops = p ? strtoull(p + 9, NULL, 10) : 0;
	sb_release(&sb);
}

static double run_hist(uint8_t *const *recs, uint64_t *const *keys,
		       unsigned int n_threads,
		       unsigned int size, uint64_t *hits, uint64_t *drops,
		       uint64_t *entries)
{
	char cmd[128];
	struct ingest in[2];
	pthread_barrier_t start;
	pthread_t tid[2];
	double worst = 0;

	snprintf(cmd, sizeof(cmd),
		 "hist:keys=call_site:vals=bytes_req:size=%u if bytes_req > 0",
		 size);
	set_trigger(cmd);
	pthread_barrier_init(&start, NULL, n_threads);
	for (unsigned int t = 0; t < n_threads; t++) {
		in[t] = (struct ingest){ .recs = recs[t], .keys = keys[t],
					.start = &start };
		pthread_create(&tid[t], NULL, ingest_thread, &in[t]);
	}
	for (unsigned int t = 0; t < n_threads; t++) {
		pthread_join(tid[t], NULL);
		if (in[t].ns > worst)
			worst = in[t].ns;
	}
	pthread_barrier_destroy(&start);
	totals(hits, drops, entries);
	set_trigger(NULL);
	return worst / n_events;
}

static void bench_case(unsigned int n_keys, bool zipf, unsigned int size)
{
	uint64_t *keys[2];
	uint8_t *recs[2];
	double bare[32], one[32], two[32];
	uint64_t h1 = 0, d1 = 0, e1 = 0, h2 = 0, d2 = 0, e2 = 0;
	struct stat3 sb, s1, s2;
	unsigned int r, bare_bits = tracing_map_size_to_bits(n_keys);

	if (only_keys && n_keys != only_keys)
		return;
	keys[0] = gen_events(n_events, n_keys, zipf, 1);
	keys[1] = gen_events(n_events, n_keys, zipf, 2);
	recs[0] = build_records(keys[0], n_events);
	recs[1] = build_records(keys[1], n_events);
	for (r = 0; r < reps; r++) {
		bare[r] = run_bare(keys[0], bare_bits);
		one[r] = run_hist(recs, keys, 1, size, &h1, &d1, &e1);
		two[r] = run_hist(recs, keys, 2, size, &h2, &d2, &e2);
	}
	sb = stats(bare, reps);
	s1 = stats(one, reps);
	s2 = stats(two, reps);
	printf("| %7u | %-7s | %6u | %5.1f (%.1f-%.1f) | %5.1f (%.1f-%.1f) "
	       "| %4.2fx | %5.1f (%.1f-%.1f) | %4.2fx | %llu+%llu | %llu |\n",
	       n_keys, zipf ? "zipf1.0" : "uniform", size,
	       sb.med, sb.min, sb.max, s1.med, s1.min, s1.max, s1.med / sb.med,
	       s2.med, s2.min, s2.max, 2 * s1.med / s2.med,
	       (unsigned long long)h2, (unsigned long long)d2,
	       (unsigned long long)e2);
	if (h1 + d1 != n_events || h2 + d2 != 2ull * n_events)
		printf("  (!) hits+drops do not add up: 1T %llu+%llu, 2T %llu+%llu\n",
		       (unsigned long long)h1, (unsigned long long)d1,
		       (unsigned long long)h2, (unsigned long long)d2);
	fflush(stdout);
	for (int t = 0; t < 2; t++) {
		free(keys[t]);
		free(recs[t]);
	}
}

/* `cat hist` of 100k entries: tf_hist_show, header to Totals */
static void bench_render(const char *sort, const char *label)
{
	unsigned int n_keys = 100000, n = 1u << 20;
	uint64_t *keys = gen_events(n, n_keys, true, 3);
	uint64_t *all = malloc(n_keys * sizeof(*all));
	uint8_t *recs, *recs_all;
	double ms[32], cpu[32];
	struct stat3 s, sc;
	struct strbuf sb = STRBUF_INIT;
	size_t bytes = 0;
	char cmd[160];
	struct tf_record rec = { .event = kmalloc_file->event,
				 .size = REC_SIZE - 4 };

	for (unsigned int i = 0; i < n_keys; i++)
		all[i] = key_of(i);
	recs = build_records(keys, n);
	recs_all = build_records(all, n_keys);
	snprintf(cmd, sizeof(cmd),
		 "hist:keys=call_site:vals=bytes_req%s:size=131072 if bytes_req > 0",
		 sort);
	set_trigger(cmd);
	for (unsigned int i = 0; i < n_keys; i++) {	/* every key once */
		rec.data = recs_all + (size_t)i * REC_SIZE;
		tf_dispatch(&tracing, &rec);
	}
	for (unsigned int i = 0; i < n; i++) {		/* Zipf: many ties */
		rec.data = recs + (size_t)i * REC_SIZE;
		tf_dispatch(&tracing, &rec);
	}
	for (unsigned int r = 0; r < reps; r++) {
		double t0 = now_ns(), c0 = cpu_ns();

		tf_hist_show(kmalloc_file, &sb);
		ms[r] = (now_ns() - t0) / 1e6;
		cpu[r] = (cpu_ns() - c0) / 1e6;
		bytes = sb.len;
		sb_release(&sb);
	}
	s = stats(ms, reps);
	sc = stats(cpu, reps);
	printf("| %-34s | 100000 | %zu | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) |\n",
	       label, bytes, sc.med, sc.min, sc.max, s.med, s.min, s.max);
	fflush(stdout);
	set_trigger(NULL);
	free(keys);
	free(all);
	free(recs);
	free(recs_all);
}

int main(int argc, char **argv)
{
	const char *formats = TF_SRCDATADIR "/../tests/oracle/formats-6.12";
	bool quick = false, render_only = false;
	struct tf_event *ev;
	int opt, fd;

	while ((opt = getopt(argc, argv, "e:r:qsf:pk:ba")) != -1) {
		switch (opt) {
		case 'e': n_events = strtoul(optarg, NULL, 0); break;
		case 'r': reps = strtoul(optarg, NULL, 0); break;
		case 'q': quick = true; break;
		case 's': render_only = true; break;
		case 'f': formats = optarg; break;
		case 'p': hot_records = true; break;
		case 'b': batched = true; break;
		case 'a': lookahead = false; break;
		case 'k': only_keys = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: bench_hist [-e events] [-r reps] [-q] [-s] [-p] [-b [-a]] [-k keys] [-f formats-dir]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > 32)
		reps = 5;
	fd = open(formats, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "bench") < 0) {
		fprintf(stderr, "bench_hist: cannot load %s (-f DIR)\n", formats);
		return 1;
	}
	close(fd);
	if (tf_tracing_init(&tracing, reg, 2) < 0 || tf_hist_init(&tracing) < 0)
		return 1;
	ev = tf_registry_find(reg, "kmem", "kmalloc");
	if (!ev)
		return 1;
	kmalloc_file = tf_tr_file(tracing.top, ev->index);

	printf("bench_hist: %u events per thread, %u repetitions; "
	       "CPU ns/event/thread: median (min-max)\n"
	       "trigger: hist:keys=call_site:vals=bytes_req:size=N if bytes_req > 0\n\n",
	       n_events, reps);
	if (render_only)
		goto render;
	printf("| keys    | dist    | size   | bare floor | dispatch+hist 1 thread "
	       "| vs floor | 2 threads (per thread) | scaling (CPU) "
	       "| hits+drops (2T) | entries |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
	bench_case(2048, false, 2048);
	bench_case(2048, true, 2048);
	bench_case(65536, false, 65536);
	bench_case(65536, true, 65536);
	if (!quick) {
		bench_case(1u << 20, false, 131072);
		bench_case(1u << 20, true, 131072);
	}
render:
	printf("\n`cat hist` (tf_hist_show) of 100k entries, 2^20 Zipf events "
	       "+ each key once, ms: median (min-max)\n\n");
	printf("| sort | entries | bytes | CPU ms | wall ms |\n|---|---|---|---|---|\n");
	bench_render("", "sort=hitcount (default)");
	bench_render(":sort=call_site", "sort=call_site");
	bench_render(":sort=hitcount.descending,call_site",
		     "sort=hitcount.descending,call_site");
	set_trigger(NULL);
	urcu_memb_barrier();
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return 0;
}
