/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_output.h - the text of `trace`, `trace_pipe`, per_cpu files and
 * `snapshot`: the kernel's headers and context columns as the output
 * options choose them, each event's own text as the kernel prints it
 * (event_print.h) or, for most events, rendered by libtraceevent from
 * its print fmt.
 */
#ifndef TF_BUFFER_TRACE_OUTPUT_H
#define TF_BUFFER_TRACE_OUTPUT_H

#include <stdbool.h>

#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "buffer/saved_tgids.h"
#include "events/registry.h"
#include "util/strbuf.h"

/*
 * The trace_options that change what `trace` prints or what the event
 * path records (the kernel's TRACE_ITER_* bits); files_options.c keeps
 * their state in tf_trace_array.trace_flags, the others in its options.
 */
enum {
	TF_TRACE_CONTEXT_INFO	= 1u << 0,	/* comm-pid, cpu, flags, time */
	TF_TRACE_IRQ_INFO	= 1u << 1,	/* the latency flags column */
	TF_TRACE_RECORD_TGID	= 1u << 2,	/* the TGID column; save tgids */
	TF_TRACE_LATENCY_FMT	= 1u << 3,	/* the latency-format layout */
	TF_TRACE_VERBOSE	= 1u << 4,
	TF_TRACE_OVERWRITE	= 1u << 5,	/* full buffers drop old pages */
	TF_TRACE_EVENT_FORK	= 1u << 6,	/* pid lists follow forks */
};
/* As options/ starts, at the top level and in instances alike. */
#define TF_TRACE_DEFAULT_FLAGS	(TF_TRACE_CONTEXT_INFO | TF_TRACE_IRQ_INFO | \
				 TF_TRACE_OVERWRITE)

/*
 * What a reader prints with: the part of the kernel's trace_iterator
 * that the output options and the clock decide.
 */
struct tf_trace_iter {
	struct tf_registry *reg;
	/* the tree's comms and tgids (its struct tf_tracing's) */
	struct tf_saved_cmdlines *cmdlines;
	struct tf_saved_tgids *tgids;
	unsigned trace_flags;	/* TF_TRACE_* (below) */
	bool lat_fmt;		/* TRACE_FILE_LAT_FMT: latency-format, and
				 * not the snapshot file */
	bool time_in_ns;	/* TRACE_FILE_TIME_IN_NS: the clock's unit */
	bool consume;		/* trace_pipe: an entry is its own "next" */
	uint64_t time_start;	/* latency times count from here */
	int nr_cpus;		/* #P */
	unsigned long idx;	/* verbose: the entry's index */
	/* set by tf_trace_print_entry(), for a reader that must cut a line
	 * as the kernel's trace_seq would: where the event's own text
	 * starts (after the context columns and the event's name), and
	 * where trace_marker_raw's bytes start, 0 for other events */
	size_t text_at;
	size_t raw_pieces_at;
};

/* "# tracer: nop" and the header trace_default_header() prints, for a
 * buffer holding @entries of @total written; @empty: what is read is. */
void tf_trace_header(const struct tf_trace_iter *it, struct strbuf *out,
		     uint64_t entries, uint64_t total, bool empty);
/* One record's line (print_trace_fmt()); @next: the entry after it in
 * the output, NULL for the last (latency-format's relative time). */
void tf_trace_print_entry(struct tf_trace_iter *it, struct strbuf *out,
			  const struct tf_rb_entry *e,
			  const struct tf_rb_entry *next);

/* trace_print_time(): @ts as the clock prints it, after a blank. */
void tf_trace_print_time(const struct tf_trace_iter *it, struct strbuf *out,
			 uint64_t ts);

#endif
