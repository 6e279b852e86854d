// SPDX-License-Identifier: GPL-2.0
/*
 * trace_clock.c - the trace clocks (see trace_clock.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "buffer/trace_clock.h"

const struct tf_trace_clock tf_trace_clocks[TF_NR_CLOCKS] = {
	[TF_CLOCK_LOCAL]	= { "local", true },
	[TF_CLOCK_GLOBAL]	= { "global", true },
	[TF_CLOCK_COUNTER]	= { "counter", false },
	[TF_CLOCK_UPTIME]	= { "uptime", false },
	[TF_CLOCK_PERF]		= { "perf", true },
	[TF_CLOCK_MONO]		= { "mono", true },
	[TF_CLOCK_MONO_RAW]	= { "mono_raw", true },
	[TF_CLOCK_BOOT]		= { "boot", true },
	[TF_CLOCK_TAI]		= { "tai", true },
	[TF_CLOCK_X86_TSC]	= { "x86-tsc", false },
};

int tf_trace_clock_lookup(const char *name, size_t len)
{
	for (int i = 0; i < TF_NR_CLOCKS; i++)
		if (strlen(tf_trace_clocks[i].name) == len &&
		    memcmp(tf_trace_clocks[i].name, name, len) == 0)
			return i;
	return -EINVAL;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t tf_trace_clock_now(int clock_id, atomic_uint_fast64_t *counter)
{
	switch (clock_id) {
	case TF_CLOCK_COUNTER:
		return atomic_fetch_add(counter, 1) + 1;
	case TF_CLOCK_UPTIME:
		/* jiffies_64_to_clock_t(): USER_HZ is 100 */
		return clock_ns(CLOCK_MONOTONIC) / 10000000ull;
	case TF_CLOCK_X86_TSC:
#if defined(__x86_64__) || defined(__i386__)
		return __builtin_ia32_rdtsc();
#else
		return clock_ns(CLOCK_MONOTONIC_RAW);
#endif
	default:
		return clock_ns(CLOCK_MONOTONIC);
	}
}
