/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event_print.h - the events the kernel prints with output functions of
 * its own instead of their format's print fmt: syscall entries and exits
 * (trace_syscalls.c), and ftrace's internal events (trace_output.c:
 * function, func_repeats, context_switch, wakeup, kernel_stack,
 * user_stack, print, raw_data).  Which text depends on the emulated kernel:
 * 6.18 changed how syscall arguments print.
 */
#ifndef TF_BUFFER_EVENT_PRINT_H
#define TF_BUFFER_EVENT_PRINT_H

#include <stdbool.h>

#include "buffer/trace_output.h"

struct tep_event;

/*
 * Appends @tev's text for the entry @e, newline included, and returns
 * true when the kernel prints that event with a function of its own;
 * false (nothing written) when its print fmt is what the kernel uses.
 * Called with the registry's tep_lock held (it reads @tev's fields).
 */
bool tf_event_print_own(const struct tf_trace_iter *it, struct strbuf *out,
			struct tep_event *tev, const struct tf_rb_entry *e);

/*
 * The kernel release @release as one comparable number (6.18.2 ->
 * 0x061202; each part saturates at 255); 0 when it does not parse.
 */
unsigned tf_kernel_version(const char *release);
#define TF_KERNEL_VERSION(a, b, c) (((a) << 16) | ((b) << 8) | (c))

#endif
