// SPDX-License-Identifier: GPL-2.0
/*
 * bench_map.c - ns/event of the hist map (src/hist/tracing_map.c) against
 * the floor of a bare single-threaded open-addressing table, for 2048,
 * 65536 and 1M distinct u64 keys, uniform and Zipf (s = 1.0), with one and
 * two ingest threads; and the time to snapshot and sort 100k entries.
 *
 * Each event is what a hist trigger with keys=<u64>:vals=hitcount,<u64>
 * does: insert-or-find the key, add 1 to the hitcount, add a value.  Keys
 * are generated before timing; each repetition starts from an empty map.
 * Output is a Markdown table (see docs/performance.md, "Hist map").
 *
 * usage: bench_map [-e events_per_thread] [-r repetitions] [-q] [-w]
 *   -q: skip the 1M-key cases; -w: "warm", every key (up to the map's
 *   size) inserted before timing, to measure the steady state alone.
 */
#include "hist/tracing_map.h"
#include "bench_keys.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned int n_events = 4u << 20;	/* per thread */
static unsigned int reps = 5;
static bool warm_mode;		/* -w: keys inserted before timing */
static unsigned int warm;	/* how many, for this case */

/* clocks and key streams: bench_keys.h */

/* ---- the floor: bare single-threaded open addressing ------------------ */

struct bare_bucket {
	uint64_t key;
	uint64_t hits;
	uint64_t sum;
};

struct bare {
	struct bare_bucket *b;
	uint64_t mask;
	unsigned int shift;
};

static double run_bare(const uint64_t *ev, unsigned int map_bits)
{
	struct bare t;
	double t0, t1;
	unsigned int i;

	t.mask = (1ull << (map_bits + 1)) - 1;
	t.shift = 32 - (map_bits + 1);
	t.b = calloc(t.mask + 1, sizeof(*t.b));
	t0 = cpu_ns();
	for (i = 0; i < n_events; i++) {
		uint64_t k = ev[i];
		uint64_t idx = tracing_map_hash_word(k) >> t.shift;

		for (;; idx = (idx + 1) & t.mask) {
			struct bare_bucket *b = &t.b[idx];

			if (b->key == k) {
				b->hits++;
				b->sum += k & 0xff;
				break;
			}
			if (!b->key) {
				b->key = k;
				b->hits = 1;
				b->sum = k & 0xff;
				break;
			}
		}
	}
	t1 = cpu_ns();
	/* keep the work observable */
	if (t.b[0].hits == 12345678)
		puts("");
	free(t.b);
	return (t1 - t0) / n_events;
}

/* ---- the map ------------------------------------------------------------ */

struct ingest {
	struct tracing_map *map;
	const uint64_t *ev;
	unsigned int slot;
	pthread_barrier_t *start;
	double ns;		/* thread CPU time */
	double wall0, wall1;
};

static void *ingest_thread(void *arg)
{
	struct ingest *in = arg;
	struct tracing_map *map = in->map;
	unsigned int slot = in->slot, i;
	double t0;

	pthread_barrier_wait(in->start);
	in->wall0 = now_ns();
	t0 = cpu_ns();
	for (i = 0; i < n_events; i++) {
		uint64_t k = in->ev[i];
		struct tracing_map_elt *elt;

		elt = tracing_map_insert(map, slot, &k, NULL);
		if (elt) {
			tracing_map_update_sum(map, slot, elt, 0, 1);
			tracing_map_update_sum(map, slot, elt, 1, k & 0xff);
		}
	}
	in->ns = cpu_ns() - t0;
	in->wall1 = now_ns();
	return NULL;
}

/*
 * Returns CPU ns per event per thread (the slowest thread's), the wall
 * ns per event of the whole run in *wall, and the map's totals.
 */
static double run_map(uint64_t *const *ev, unsigned int n_threads,
		      unsigned int map_bits, struct tracing_map_totals *tot,
		      double *wall)
{
	double w0 = 1e30, w1 = 0;
	struct ingest in[2];
	pthread_barrier_t start;
	pthread_t tid[2];
	struct tracing_map *map;
	double worst = 0;
	unsigned int t;

	if (tracing_map_create_unbounded(map_bits, 8, 2, 0, 2, &map)) {
		fprintf(stderr, "bench_map: cannot create map\n");
		exit(1);
	}
	if (warm) {		/* steady state: every key already in */
		uint64_t i;

		for (i = 0; i < warm && i < map->max_elts; i++) {
			uint64_t k = key_of(i);

			tracing_map_insert(map, 0, &k, NULL);
		}
	}
	pthread_barrier_init(&start, NULL, n_threads);
	for (t = 0; t < n_threads; t++) {
		in[t] = (struct ingest){ .map = map, .ev = ev[t], .slot = t,
					.start = &start };
		pthread_create(&tid[t], NULL, ingest_thread, &in[t]);
	}
	for (t = 0; t < n_threads; t++) {
		pthread_join(tid[t], NULL);
		if (in[t].ns > worst)
			worst = in[t].ns;
		w0 = in[t].wall0 < w0 ? in[t].wall0 : w0;
		w1 = in[t].wall1 > w1 ? in[t].wall1 : w1;
	}
	*wall = (w1 - w0) / n_events;
	pthread_barrier_destroy(&start);
	tracing_map_read_totals(map, tot);
	tracing_map_destroy(map);
	return worst / n_events;
}

static void bench_case(unsigned int n_keys, bool zipf, unsigned int map_bits,
		       const char *size_label)
{
	uint64_t *ev[2];
	double bare[32], one[32], two[32], wall1[32], wall2[32];
	struct tracing_map_totals t1 = { 0 }, t2 = { 0 };
	struct stat3 sb, s1, s2, sw1, sw2;
	unsigned int r, bare_bits = tracing_map_size_to_bits(n_keys);

	warm = warm_mode ? n_keys : 0;
	ev[0] = gen_events(n_events, n_keys, zipf, 1);
	ev[1] = gen_events(n_events, n_keys, zipf, 2);
	for (r = 0; r < reps; r++) {
		bare[r] = run_bare(ev[0], bare_bits);
		one[r] = run_map(ev, 1, map_bits, &t1, &wall1[r]);
		two[r] = run_map(ev, 2, map_bits, &t2, &wall2[r]);
	}
	sb = stats(bare, reps);
	s1 = stats(one, reps);
	s2 = stats(two, reps);
	sw1 = stats(wall1, reps);
	sw2 = stats(wall2, reps);
	printf("| %7u | %-7s | %-12s | %5.1f (%.1f-%.1f) | %5.1f (%.1f-%.1f) "
	       "| %4.2fx | %5.1f (%.1f-%.1f) | %4.2fx | %4.2fx | %llu+%llu "
	       "| %u |\n",
	       n_keys, zipf ? "zipf1.0" : "uniform", size_label,
	       sb.med, sb.min, sb.max, s1.med, s1.min, s1.max, s1.med / sb.med,
	       s2.med, s2.min, s2.max, 2 * s1.med / s2.med,
	       2 * sw1.min / sw2.min,
	       (unsigned long long)t2.hits, (unsigned long long)t2.drops,
	       t2.entries);
	fflush(stdout);
	free(ev[0]);
	free(ev[1]);
}

/* cat hist's share: snapshot + sort of 100k entries */
static void bench_sort(void)
{
	struct tracing_map_sort_key by_hits = { 0, true };
	struct tracing_map_sort_key two_keys[2] = { { 0, true }, { 2, false } };
	struct tracing_map *map;
	double one[32], two[32];
	struct stat3 s1, s2;
	unsigned int i, r, n_keys = 100000;
	uint64_t *ev = gen_events(1u << 20, n_keys, true, 3);
	int n = 0;

	tracing_map_create(17, 8, 2, 0, 1, &map);
	tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0));
	for (i = 0; i < n_keys; i++) {		/* every key at least once */
		uint64_t k = key_of(i);

		tracing_map_update_sum(map, 0,
				       tracing_map_insert(map, 0, &k, NULL), 0, 1);
	}
	for (i = 0; i < 1u << 20; i++)		/* Zipf hitcounts: many ties */
		tracing_map_update_sum(map, 0,
				       tracing_map_insert(map, 0, &ev[i], NULL),
				       0, 1);
	for (r = 0; r < reps; r++) {
		struct tracing_map_sort_entry **e;
		double t0 = now_ns();

		n = tracing_map_sort_entries(map, &by_hits, 1, &e);
		one[r] = (now_ns() - t0) / 1e6;
		tracing_map_destroy_sort_entries(e, n);
		t0 = now_ns();
		n = tracing_map_sort_entries(map, two_keys, 2, &e);
		two[r] = (now_ns() - t0) / 1e6;
		tracing_map_destroy_sort_entries(e, n);
	}
	s1 = stats(one, reps);
	s2 = stats(two, reps);
	printf("\nsorted snapshot of %d entries (size=131072, 2^20 Zipf events):\n"
	       "  sort=hitcount.descending:            %.1f ms (%.1f-%.1f)\n"
	       "  sort=hitcount.descending,key:        %.1f ms (%.1f-%.1f)\n",
	       n, s1.med, s1.min, s1.max, s2.med, s2.min, s2.max);
	tracing_map_destroy(map);
	free(ev);
}

int main(int argc, char **argv)
{
	bool quick = false;
	int opt;

	while ((opt = getopt(argc, argv, "e:r:qw")) != -1) {
		switch (opt) {
		case 'w': warm_mode = true; break;
		case 'e': n_events = strtoul(optarg, NULL, 0); break;
		case 'r': reps = strtoul(optarg, NULL, 0); break;
		case 'q': quick = true; break;
		default:
			fprintf(stderr, "usage: bench_map [-e events] [-r reps] [-q] [-w]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > 32)
		reps = 5;

	printf("bench_map: %u events per thread, %u repetitions, %s map; "
	       "CPU ns/event/thread: median (min-max)\n\n", n_events, reps,
	       warm_mode ? "warm (keys pre-inserted)" : "empty");
	printf("| keys    | dist    | map size     | bare floor | map 1 thread "
	       "| vs floor | map 2 threads (per thread) | scaling (CPU) "
	       "| scaling (best wall) | hits+drops (2T) | entries |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
	bench_case(2048, false, 11, "2048");
	bench_case(2048, true, 11, "2048");
	bench_case(65536, false, 16, "65536");
	bench_case(65536, true, 16, "65536");
	if (!quick) {
		bench_case(1u << 20, false, 17, "131072 (max)");
		bench_case(1u << 20, true, 17, "131072 (max)");
		bench_case(1u << 20, false, 20, "1M (beyond)");
		bench_case(1u << 20, true, 20, "1M (beyond)");
	}
	bench_sort();
	return 0;
}
