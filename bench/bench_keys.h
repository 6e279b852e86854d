/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_keys.h - the key streams of the map benchmarks (uniform or
 * Zipf(1.0) over n distinct, scattered keys), pre-generated so the RNG
 * is not measured; clocks and statistics are in bench_common.h.
 */
#ifndef TF_BENCH_KEYS_H
#define TF_BENCH_KEYS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "bench_common.h"

static inline uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* the distinct key of rank r: scattered, never 0 */
static inline uint64_t key_of(uint64_t r)
{
	uint64_t s = r * 7919 + 1;

	return splitmix(&s) | 1;
}

/* n events over n_keys keys, uniform or Zipf(1.0) by rank */
static inline uint64_t *gen_events(unsigned int n, unsigned int n_keys, bool zipf,
			    uint64_t seed)
{
	uint64_t *ev = malloc((size_t)n * sizeof(*ev));
	double *cdf = NULL;
	unsigned int i;

	if (zipf) {
		double sum = 0;

		cdf = malloc((size_t)n_keys * sizeof(*cdf));
		for (i = 0; i < n_keys; i++)
			cdf[i] = (sum += 1.0 / (i + 1));
		for (i = 0; i < n_keys; i++)
			cdf[i] /= sum;
	}
	for (i = 0; i < n; i++) {
		uint64_t r = splitmix(&seed);

		if (zipf) {
			double u = (r >> 11) * 0x1.0p-53;
			unsigned int lo = 0, hi = n_keys - 1;

			while (lo < hi) {
				unsigned int mid = (lo + hi) / 2;

				if (cdf[mid] < u)
					lo = mid + 1;
				else
					hi = mid;
			}
			ev[i] = key_of(lo);
		} else {
			ev[i] = key_of(r % n_keys);
		}
	}
	free(cdf);
	return ev;
}

#endif
