/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_common.h - what every benchmark shares: clocks (thread CPU time,
 * as the machine is shared) and median (min-max) of repetitions.
 */
#ifndef TF_BENCH_COMMON_H
#define TF_BENCH_COMMON_H

#include <stdlib.h>
#include <time.h>

static inline double clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * The machine is shared: another process can take a core for seconds.
 * Per-event costs are therefore measured in the thread's own CPU time,
 * which excludes time spent descheduled (not cache pollution); wall time
 * is reported beside it for the two-thread runs.
 */
static inline double cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat3 { double med, min, max; };

/* Sorts @v and returns its median, minimum and maximum. */
static inline struct stat3 stats(double *v, unsigned int n)
{
	struct stat3 s;

	qsort(v, n, sizeof(*v), cmp_double);
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

#endif
