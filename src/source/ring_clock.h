/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_clock.h - producers' time stamps in the daemon's time base.
 *
 * Reading the time stamp counter costs a producer a third of what
 * clock_gettime() does in a virtual machine, so where the TSC runs at a
 * constant rate and does not stop (the constant_tsc and nonstop_tsc CPU
 * flags) producers stamp records with it, as perf's user-space readers
 * do with the mmap page's time_mult and time_shift, and the daemon
 * converts the stamps to CLOCK_MONOTONIC nanoseconds, the time base of
 * every record (buffer/trace_clock.h).  The conversion is a line through
 * an anchor (a TSC value and the monotonic time read together) with a
 * slope measured between anchors; the anchor moves forward whenever it
 * is more than a tenth of a second old, so the monotonic clock's own
 * slewing never shows by more than its rate over that time.
 */
#ifndef TF_SOURCE_RING_CLOCK_H
#define TF_SOURCE_RING_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Whether producers may stamp with the TSC (checked once). */
bool tf_ring_clock_tsc_usable(void);

/* The conversion: ns = ns0 + (tsc - tsc0) * mult / 2^32. */
struct tf_ring_clock_line {
	uint64_t tsc, ns, mult;
};

/*
 * The current line, for stamps around @tsc (re-anchored first when @tsc
 * is past a tenth of a second from the anchor): taken once for a batch
 * of records.  Thread-safe, lock-free.
 */
void tf_ring_clock_line(struct tf_ring_clock_line *l, uint64_t tsc);

static inline uint64_t tf_ring_clock_apply(const struct tf_ring_clock_line *l,
					   uint64_t tsc)
{
	int64_t d = (int64_t)(tsc - l->tsc);

	return (uint64_t)((__int128)l->ns +
			  (((__int128)d * (__int128)l->mult) >> 32));
}

/* @tsc in CLOCK_MONOTONIC nanoseconds (one stamp: a line of its own). */
uint64_t tf_ring_clock_tsc_to_ns(uint64_t tsc);

#endif
