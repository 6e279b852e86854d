/* SPDX-License-Identifier: GPL-2.0 */
/*
 * files.h - file operations shared between the file tables: the trace
 * buffer files (files_buffer.c) and the options (files_options.c) appear
 * both at the top of a trace array and elsewhere.
 */
#ifndef TF_FS_FILES_H
#define TF_FS_FILES_H

#include "fs/tree.h"

/* files_buffer.c */
int tf_trace_open(struct tf_open *o);
int tf_trace_show(struct tf_open *o, struct strbuf *out);
long tf_trace_write(struct tf_open *o, const char *buf, size_t len);
int tf_trace_pipe_show(struct tf_open *o, struct strbuf *out);
/* trace_pipe is read by one open file at a time per CPU (EBUSY). */
int tf_trace_pipe_open(struct tf_open *o);
void tf_trace_pipe_release(struct tf_open *o);
/*
 * A trace_pipe read of @cnt bytes that found o->text empty: prints and
 * consumes events into o->text as the kernel's read does.  0 (o->text
 * may stay empty: nothing to read yet), TF_STREAM_EOF (end of file: empty
 * with tracing off after a read found events), or -errno.
 */
#define TF_STREAM_EOF 1
int tf_trace_pipe_fill(struct tf_open *o, size_t cnt);
/* poll(2) on trace_pipe: readable while the buffer holds records. */
unsigned tf_trace_pipe_poll(struct tf_open *o, bool peek);
/* Whether a parked read of @o (trace_pipe, snapshot_raw) has something
 * to answer: records, or the end of file.  Changes nothing. */
bool tf_trace_pipe_wakes(struct tf_open *o);
/* poll(2) on trace_pipe_raw (a read never waits: an empty buffer is the
 * end of file) and snapshot_raw (readable while the snapshot holds
 * records of the CPU). */
unsigned tf_raw_pipe_poll(struct tf_open *o, bool peek);
int tf_snapshot_show(struct tf_open *o, struct strbuf *out);
long tf_snapshot_write(struct tf_open *o, const char *buf, size_t len);
int tf_buffer_size_show(struct tf_open *o, struct strbuf *out);
long tf_buffer_size_write(struct tf_open *o, const char *buf, size_t len);
int tf_buffer_total_size_show(struct tf_open *o, struct strbuf *out);
long tf_trace_marker_file_write(struct tf_open *o, const char *buf,
				size_t len);
long tf_trace_marker_raw_file_write(struct tf_open *o, const char *buf,
			       size_t len);
/* The buffer is "expanded" to its full size on first use, as the kernel. */
void tf_buffer_expand(struct tf_trace_array *tr);
/* free_buffer: shrinks the buffer to its minimum (on close). */
void tf_buffer_free(struct tf_trace_array *tr);

/* files_options.c */
bool tf_option_enabled(const struct tf_trace_array *tr, const char *name);
int tf_trace_options_show(struct tf_open *o, struct strbuf *out);
long tf_trace_options_write(struct tf_open *o, const char *buf, size_t len);

#endif
