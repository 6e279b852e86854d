// SPDX-License-Identifier: GPL-2.0
/*
 * ring_clock.c - TSC stamps to monotonic nanoseconds (see ring_clock.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "source/ring_clock.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define REANCHOR_NS	100000000ull	/* a tenth of a second */
#define FIRST_SPAN_NS	2000000ull	/* the first slope: over 2 ms */

/*
 * The line from this machine's TSC to CLOCK_MONOTONIC: process-wide on
 * purpose, as the clocks it relates are (every tree in the process reads
 * the same counter); no tree's state lives here.
 */
static struct {
	pthread_once_t once;
	bool usable;
	/* a seqlock: odd while the line changes */
	unsigned seq;
	struct tf_ring_clock_line line;
	struct tf_ring_clock_line first;	/* the first anchor, for the slope */
	pthread_mutex_t lock;	/* one re-anchoring at a time */
} clk = { PTHREAD_ONCE_INIT, false, 0, { 0, 0, 0 }, { 0, 0, 0 },
	  PTHREAD_MUTEX_INITIALIZER };

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t rdtsc(void)
{
#if HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

/* A TSC value and the monotonic time at the same moment: the tightest
 * of a few tries, the TSC read between two clock reads. */
static void sample(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	*tsc = *ns = 0;		/* set by the first try: not provably so */
	for (int i = 0; i < 5; i++) {
		uint64_t a = mono_ns(), t = rdtsc(), b = mono_ns();

		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = a + (b - a) / 2;
		}
	}
}

static bool cpu_flags_ok(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool constant = false, nonstop = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0) {
			constant = strstr(line, " constant_tsc") != NULL;
			nonstop = strstr(line, " nonstop_tsc") != NULL;
			break;
		}
	fclose(f);
	return constant && nonstop;
}

static void init(void)
{
	uint64_t t1, n1;

	if (!HAVE_TSC || !cpu_flags_ok())
		return;
	sample(&clk.first.tsc, &clk.first.ns);
	do
		sample(&t1, &n1);
	while (n1 - clk.first.ns < FIRST_SPAN_NS);
	if (t1 <= clk.first.tsc)
		return;
	clk.line.tsc = t1;
	clk.line.ns = n1;
	clk.line.mult = (uint64_t)(((unsigned __int128)(n1 - clk.first.ns)
				    << 32) / (t1 - clk.first.tsc));
	clk.usable = true;
}

bool tf_ring_clock_tsc_usable(void)
{
	pthread_once(&clk.once, init);
	return clk.usable;
}

static struct tf_ring_clock_line read_line(void)
{
	struct tf_ring_clock_line l;
	unsigned s;

	do {
		s = __atomic_load_n(&clk.seq, __ATOMIC_ACQUIRE);
		l.tsc = __atomic_load_n(&clk.line.tsc, __ATOMIC_RELAXED);
		l.ns = __atomic_load_n(&clk.line.ns, __ATOMIC_RELAXED);
		l.mult = __atomic_load_n(&clk.line.mult, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((s & 1) || s != __atomic_load_n(&clk.seq, __ATOMIC_RELAXED));
	return l;
}

static uint64_t on_line(const struct tf_ring_clock_line *l, uint64_t tsc)
{
	return tf_ring_clock_apply(l, tsc);
}

/* A new anchor now; the slope from the first anchor (the longest span). */
static void reanchor(void)
{
	struct tf_ring_clock_line l;
	uint64_t t, n;

	if (pthread_mutex_trylock(&clk.lock) != 0)
		return;		/* another thread is at it */
	sample(&t, &n);
	l.tsc = t;
	l.ns = n;
	l.mult = (uint64_t)(((unsigned __int128)(n - clk.first.ns) << 32) /
			    (t - clk.first.tsc));
	__atomic_store_n(&clk.seq, clk.seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&clk.line.tsc, l.tsc, __ATOMIC_RELAXED);
	__atomic_store_n(&clk.line.ns, l.ns, __ATOMIC_RELAXED);
	__atomic_store_n(&clk.line.mult, l.mult, __ATOMIC_RELAXED);
	__atomic_store_n(&clk.seq, clk.seq + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&clk.lock);
}

void tf_ring_clock_line(struct tf_ring_clock_line *l, uint64_t tsc)
{
	*l = read_line();
	if (on_line(l, tsc) - l->ns > REANCHOR_NS &&
	    (int64_t)(tsc - l->tsc) > 0) {
		reanchor();
		*l = read_line();
	}
}

uint64_t tf_ring_clock_tsc_to_ns(uint64_t tsc)
{
	struct tf_ring_clock_line l;

	if (!tf_ring_clock_tsc_usable())
		return tsc;
	tf_ring_clock_line(&l, tsc);
	return on_line(&l, tsc);
}
