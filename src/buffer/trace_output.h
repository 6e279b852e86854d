/*
 * trace_output.h - the text of `trace`, `trace_pipe` and per_cpu files:
 * the kernel's header and line format, each event's own text rendered
 * by libtraceevent from its print fmt.
 */
#ifndef TF_BUFFER_TRACE_OUTPUT_H
#define TF_BUFFER_TRACE_OUTPUT_H

#include "buffer/ring_buffer.h"
#include "events/registry.h"
#include "util/strbuf.h"

/* The `# tracer: nop` header with the entry counts and #P. */
void tf_trace_header(struct strbuf *out, uint64_t entries, uint64_t written,
		     int nr_cpus);
/* One record's line, `comm-pid [cpu] flags ts: name: info`. */
void tf_trace_print_entry(struct tf_registry *reg, struct strbuf *out,
			  const struct tf_rb_entry *e);

#endif
