/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_clock.h - the clocks of `trace_clock` (the kernel's trace_clocks[]
 * table) and the timestamps a trace buffer gives its records.
 *
 * Records carry their source's timestamp in nanoseconds (tracefuse's own
 * sources take CLOCK_MONOTONIC, the live source has the host instance use
 * "mono", a replay keeps the trace.dat's).  A buffer whose clock counts in
 * nanoseconds keeps that timestamp: the ns clocks differ in the kernel by
 * their base and their rate, which a replayed or live record cannot be
 * re-based to.  The other clocks (counter, uptime, x86-tsc) are not the
 * source's: as the kernel reads its clock when it reserves the record, the
 * buffer stamps the record with the clock's value at that moment.
 */
#ifndef TF_BUFFER_TRACE_CLOCK_H
#define TF_BUFFER_TRACE_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

/* In the kernel's order, which is what `trace_clock` lists. */
enum tf_clock_id {
	TF_CLOCK_LOCAL,
	TF_CLOCK_GLOBAL,
	TF_CLOCK_COUNTER,
	TF_CLOCK_UPTIME,
	TF_CLOCK_PERF,
	TF_CLOCK_MONO,
	TF_CLOCK_MONO_RAW,
	TF_CLOCK_BOOT,
	TF_CLOCK_TAI,
	TF_CLOCK_X86_TSC,
	TF_NR_CLOCKS,
};

struct tf_trace_clock {
	const char *name;
	bool in_ns;		/* printed as sec.usec, latencies in us */
};
extern const struct tf_trace_clock tf_trace_clocks[TF_NR_CLOCKS];

/* The clock named by @name (@len bytes), or -EINVAL. */
int tf_trace_clock_lookup(const char *name, size_t len);

/*
 * The clock's value now.  counter: the kernel's trace_clock_counter(),
 * one count per tree (@counter, its struct tf_tracing's) that every
 * call advances; uptime: jiffies since boot
 * in USER_HZ (100 Hz) ticks; x86-tsc: the time stamp counter (on other
 * machines the raw monotonic clock in ns); the ns clocks: CLOCK_MONOTONIC,
 * the timebase records are stamped in (so that a buffer's time_start and
 * its records compare).
 */
uint64_t tf_trace_clock_now(int clock_id, atomic_uint_fast64_t *counter);

#endif
