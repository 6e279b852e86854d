/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_marker.h - writes to trace_marker become ftrace:print records.
 */
#ifndef TF_SOURCE_TRACE_MARKER_H
#define TF_SOURCE_TRACE_MARKER_H

#include <stddef.h>

#include "trace/trace_array.h"

/* The address the print records' ip holds, resolved to the name below. */
#define TF_MARKER_IP 0xffffffff81000000ull
#define TF_MARKER_FUNC "tracing_mark_write"

/* Registers the marker's symbol with the registry's printer. */
void tf_trace_marker_init(struct tf_registry *reg);

/*
 * One write(2) to @tr's trace_marker by @pid: returns @len, or -EBADF
 * when tracing is off (the kernel's answer), -EINVAL without ftrace:print.
 */
long tf_trace_marker_write(struct tf_trace_array *tr, int pid,
			   const char *buf, size_t len);

/* One write to trace_marker_raw: an int id, then the data. */
long tf_trace_marker_raw_write(struct tf_trace_array *tr, int pid,
			       const char *buf, size_t len);

#endif
