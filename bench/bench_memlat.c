// SPDX-License-Identifier: GPL-2.0
/*
 * bench_memlat.c - the machine's latency of a load by the size of the
 * memory it is taken from: a dependent walk through a random cyclic
 * permutation of 64-byte lines (each load's address comes from the
 * previous load, so no two overlap), ns per load, for tables of 1 MiB to
 * 1 GiB.  It tells what a cache miss costs on the machine the other
 * benchmarks run on (docs/performance.md reads their figures with it).
 * Tables come from malloc, as they would on most programs' paths.
 *
 * usage: bench_memlat [-m max_mib] [-s steps]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_common.h"

#define LINE 64

/* xorshift64*: a cheap generator for the shuffle */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* ns per load walking @mib MiB, @steps loads; 0 when out of memory. */
static double walk(size_t mib, unsigned long steps)
{
	size_t n = mib * 1024 * 1024 / LINE, *order, at = 0;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned char *tab = aligned_alloc(LINE, n * LINE);
	double t0, t1;

	order = malloc(n * sizeof(*order));
	if (!tab || !order) {
		free(tab);
		free(order);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {	/* Fisher-Yates */
		size_t j = next_rand(&seed) % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	/* line order[i] holds the offset of line order[i + 1]: one cycle */
	for (size_t i = 0; i < n; i++)
		*(size_t *)(tab + order[i] * LINE) = order[(i + 1) % n] * LINE;
	for (size_t i = 0; i < n; i++)	/* touched once, then timed */
		at = *(size_t *)(tab + at);
	t0 = now_ns();
	for (unsigned long i = 0; i < steps; i++)
		at = *(volatile size_t *)(tab + at);
	t1 = now_ns();
	if (at == (size_t)-1)	/* keeps the walk's result alive */
		puts("");
	free(order);
	free(tab);
	return (t1 - t0) / (double)steps;
}

int main(int argc, char **argv)
{
	size_t max_mib = 1024;
	unsigned long steps = 5000000;
	int opt;

	while ((opt = getopt(argc, argv, "m:s:")) != -1) {
		switch (opt) {
		case 'm': max_mib = strtoul(optarg, NULL, 0); break;
		case 's': steps = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: bench_memlat [-m max_mib] [-s steps]\n");
			return 2;
		}
	}
	printf("bench_memlat: ns per dependent load, %lu loads per size\n\n",
	       steps);
	printf("| table | ns per load |\n|---|---|\n");
	for (size_t mib = 1; mib <= max_mib; mib *= 4) {
		double ns = walk(mib, steps);

		if (ns == 0) {
			fprintf(stderr, "bench_memlat: no memory for %zu MiB\n",
				mib);
			return 1;
		}
		printf("| %zu MiB | %.1f |\n", mib, ns);
	}
	return 0;
}
