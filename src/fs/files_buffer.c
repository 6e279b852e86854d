// SPDX-License-Identifier: GPL-2.0
/*
 * files_buffer.c - the trace buffer's files: trace, trace_pipe,
 * snapshot, buffer_size_kb, buffer_total_size_kb, trace_marker(_raw)
 * and per_cpu/cpuN/.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buffer/raw_page.h"
#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "buffer/trace_clock.h"
#include "util/rcu.h"
#include "buffer/trace_output.h"
#include "fs/files.h"
#include "source/source.h"
#include "source/trace_marker.h"

/* The cpu a per_cpu file is about, or -1 for the top-level files. */
static int node_cpu(const struct tf_open *o)
{
	return o->node.kind == TF_N_FILE_CPU ? (int)(o->node.idx >> 8) : -1;
}

/* What the buffer is sized to: its boot-time minimum (2 pages, whatever
 * their size) until expanded, then buffer_size_kb (trace_buf_size). */
static size_t buffer_bytes(const struct tf_trace_array *tr)
{
	if (!tr->buffer_expanded)
		return 1;
	return (size_t)tr->buffer_size_kb << 10;
}

void tf_buffer_expand(struct tf_trace_array *tr)
{
	if (tr->buffer_expanded)
		return;
	tr->buffer_expanded = true;
	tf_ring_buffer_resize(tr->buffer, buffer_bytes(tr));
	if (tr->snapshot)
		tf_ring_buffer_resize(tr->snapshot, buffer_bytes(tr));
}

void tf_buffer_free(struct tf_trace_array *tr)
{
	tr->buffer_size_kb = 0;
	tr->buffer_expanded = true;
	tf_ring_buffer_resize(tr->buffer, buffer_bytes(tr));
}

/* A CPU's buffer in kB, as buffer_size_kb shows it (entries >> 10). */
static unsigned long cpu_kb(struct tf_trace_array *tr, int cpu)
{
	return (unsigned long)(tf_ring_buffer_size(tr->buffer, cpu) >> 10);
}

/* tracing_entries_read(): `X` when the CPUs' sizes differ. */
int tf_buffer_size_show(struct tf_open *o, struct strbuf *out)
{
	struct tf_trace_array *tr = o->node.tr;
	int cpu = node_cpu(o), n = o->node.t->nr_cpus;
	unsigned long kb;

	if (cpu >= 0) {
		sb_printf(out, "%lu\n", cpu_kb(tr, cpu));
		return 0;
	}
	kb = cpu_kb(tr, 0);
	for (cpu = 1; cpu < n; cpu++)
		if (cpu_kb(tr, cpu) != kb) {
			sb_puts(out, "X\n");
			return 0;
		}
	if (tr->buffer_expanded)
		sb_printf(out, "%lu\n", kb);
	else
		sb_printf(out, "%lu (expanded: %u)\n", kb, tr->buffer_size_kb);
	return 0;
}

/* tracing_total_entries_read(): the CPUs' sizes, each >> 10, summed. */
int tf_buffer_total_size_show(struct tf_open *o, struct strbuf *out)
{
	struct tf_trace_array *tr = o->node.tr;
	unsigned long n = (unsigned long)o->node.t->nr_cpus, kb = 0;

	for (unsigned long cpu = 0; cpu < n; cpu++)
		kb += cpu_kb(tr, (int)cpu);
	if (tr->buffer_expanded)
		sb_printf(out, "%lu\n", kb);
	else
		sb_printf(out, "%lu (expanded: %lu)\n", kb,
			  n * tr->buffer_size_kb);
	return 0;
}

/*
 * Gives @rb's CPUs (one, or all for @cpu < 0) the main buffer's sizes,
 * as resize_buffer_duplicate_size() does for the snapshot buffer and
 * to undo a half-done resize.
 */
static int resize_like(struct tf_ring_buffer *rb, struct tf_trace_array *tr,
		       int cpu)
{
	int n = tf_ring_buffer_nr_cpus(rb);

	for (int c = cpu < 0 ? 0 : cpu; c < (cpu < 0 ? n : cpu + 1); c++) {
		size_t want = tf_ring_buffer_size(tr->buffer, c);
		int ret;

		if (tf_ring_buffer_size(rb, c) == want)
			continue;
		ret = tf_ring_buffer_resize_cpu(rb, c, want);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * tracing_entries_write(): the top file sizes every CPU, a per_cpu file
 * its CPU only; the snapshot buffer follows.  A size the host cannot
 * hold is ENOMEM and changes nothing.
 */
long tf_buffer_size_write(struct tf_open *o, const char *buf, size_t len)
{
	struct tf_trace_array *tr = o->node.tr;
	int n = o->node.t->nr_cpus, cpu = node_cpu(o);
	size_t *before;
	unsigned long kb;
	long ret;

	ret = tf_parse_ulong(buf, len, &kb);
	if (ret < 0)
		return ret;
	if (kb == 0)
		return -EINVAL;
	before = calloc((size_t)n, sizeof(*before));
	if (!before)
		return -ENOMEM;
	for (int c = 0; c < n; c++)
		before[c] = tf_ring_buffer_size(tr->buffer, c);
	/* val <<= 10 in an unsigned long: the kernel's wrap included */
	ret = tf_ring_buffer_resize_cpu(tr->buffer, cpu, (size_t)kb << 10);
	if (ret == 0 && tr->snapshot) {
		ret = resize_like(tr->snapshot, tr, cpu);
		for (int c = 0; ret && c < n; c++)	/* as it was */
			if (tf_ring_buffer_size(tr->buffer, c) != before[c])
				tf_ring_buffer_resize_cpu(tr->buffer, c,
							  before[c]);
	}
	free(before);
	if (ret)
		return ret;
	tr->buffer_expanded = true;
	if (cpu < 0)
		tr->buffer_size_kb = (unsigned)cpu_kb(tr, 0);
	return (long)len;
}

/* ---- trace, per_cpu/cpuN/trace ---- */

int tf_trace_open(struct tf_open *o)
{
	int cpu = node_cpu(o);

	if ((o->flags & O_ACCMODE) != O_RDONLY && (o->flags & O_TRUNC)) {
		if (cpu < 0)
			tf_trace_array_reset(o->node.tr);
		else	/* tracing_reset_cpu() keeps time_start */
			tf_ring_buffer_reset(o->node.tr->buffer, cpu);
	}
	return 0;
}

enum render {
	R_TRACE,		/* trace, per_cpu/cpuN/trace */
	R_SNAPSHOT,		/* snapshot: never latency-format */
};

static struct tf_trace_iter iter_for(struct tf_open *o, bool consume)
{
	struct tf_trace_array *tr = o->node.tr;

	return (struct tf_trace_iter) {
		.reg = o->node.t->reg,
		.cmdlines = &o->node.t->cmdlines,
		.tgids = &o->node.t->tgids,
		.trace_flags = atomic_load(&tr->trace_flags),
		.time_in_ns = tf_trace_clocks[tr->clock_id].in_ns,
		.consume = consume,
		.time_start = atomic_load(&tr->time_start),
		.nr_cpus = o->node.t->nr_cpus,
		/* a trace_pipe read resets the iterator, then steps to its
		 * first entry: verbose counts from 1 there, 0 in trace */
		.idx = consume ? 1 : 0,
	};
}

/* The kernel prints a line into a trace_seq: 8 KiB less its fields. */
#define TRACE_SEQ_BUFFER_SIZE 8156

/*
 * A line that does not fit the trace_seq from @base: the kernel keeps the
 * pieces printed before the one that overflowed.  trace_marker_raw's
 * line is printed a byte (" %02x") at a time; other events' text is one
 * piece, after the context columns and the event's name.  trace_pipe
 * (@marker) then adds "[LINE TOO BIG]\n" if that still fits; `trace`
 * goes on with the next line on the same one.
 */
static void cut_line(struct strbuf *out, const struct tf_trace_iter *it,
		     size_t base, bool marker)
{
	const size_t room = base + TRACE_SEQ_BUFFER_SIZE - 1; /* the NUL */
	size_t keep = it->text_at;

	if (it->raw_pieces_at && it->raw_pieces_at <= room)
		keep = it->raw_pieces_at + (room - it->raw_pieces_at) / 3 * 3;
	if (keep > out->len)
		keep = out->len;
	out->len = keep;
	if (marker && base + TRACE_SEQ_BUFFER_SIZE - keep >=
		      sizeof("[LINE TOO BIG]\n") - 1)
		sb_puts(out, "[LINE TOO BIG]\n");
}

static int render_buffer(struct tf_open *o, struct tf_ring_buffer *rb,
			 struct strbuf *out, enum render how)
{
	struct tf_trace_iter it = iter_for(o, false);
	struct tf_rb_snapshot snap;
	struct tf_rb_stats st;
	int cpu = node_cpu(o);
	int ret;

	it.lat_fmt = how != R_SNAPSHOT &&
		     (it.trace_flags & TF_TRACE_LATENCY_FMT);
	tf_sources_drain(o->node.t->sources);	/* read-your-events */
	ret = tf_ring_buffer_copy(rb, cpu, 0, &snap);
	if (ret < 0)
		return ret;
	/* the counts are the whole buffer's, in per_cpu files too */
	tf_ring_buffer_stats(rb, -1, &st);
	tf_trace_header(&it, out, st.entries, st.entries + st.overrun,
			snap.nr == 0);
	for (size_t i = 0; i < snap.nr; i++) {
		size_t save = out->len;

		it.text_at = it.raw_pieces_at = 0;
		tf_trace_print_entry(&it, out, &snap.entries[i],
				     i + 1 < snap.nr ? &snap.entries[i + 1]
						     : NULL);
		if (out->len - save > TRACE_SEQ_BUFFER_SIZE - 1)
			cut_line(out, &it, save, false);
	}
	tf_rb_snapshot_release(&snap);
	return sb_error(out);
}

int tf_trace_show(struct tf_open *o, struct strbuf *out)
{
	return render_buffer(o, o->node.tr->buffer, out, R_TRACE);
}

long tf_trace_write(struct tf_open *o, const char *buf, size_t len)
{
	(void)o;
	(void)buf;
	return (long)len;	/* only opening with O_TRUNC clears */
}

/*
 * trace_pipe (tracing_read_pipe()).  A read returns what the last one
 * left of its text, if anything; else it waits for events (the caller
 * parks it), then prints and consumes them one at a time into a text as
 * large as the kernel's trace_seq, until the text holds the bytes asked
 * for (at most one trace_seq less a byte) or the next line does not fit;
 * it returns the bytes asked for and keeps the rest of the text for the
 * next read on this open file (gone when it is closed).  So a read cuts
 * the line that crosses its end and the next read goes on from there.
 */

int tf_trace_pipe_fill(struct tf_open *o, size_t cnt)
{
	struct tf_trace_array *tr = o->node.tr;
	struct tf_ring_buffer *rb = tr->buffer;
	struct tf_trace_iter it = iter_for(o, true);
	struct strbuf *out = &o->text;
	const struct tf_rb_entry *e;
	struct tf_rb_consumer *cs;
	int cpu = node_cpu(o);

	it.lat_fmt = it.trace_flags & TF_TRACE_LATENCY_FMT;
	tf_sources_drain(o->node.t->sources);	/* read-your-events */
	sb_reset(out);
	if (tf_ring_buffer_empty(rb, cpu))
		/* tracing_wait_pipe(): once something was read, tracing
		 * turned off means end of file */
		return o->stream_started && !atomic_load(&tr->tracing_on) ?
		       TF_STREAM_EOF : 0;
	o->stream_started = true;
	if (cnt >= TRACE_SEQ_BUFFER_SIZE)
		cnt = TRACE_SEQ_BUFFER_SIZE - 1;
	tf_rcu_read_lock();
	cs = tf_rb_consumer_begin(rb, cpu);
	if (!cs) {
		tf_rcu_read_unlock();
		return -ENOMEM;
	}
	while ((e = tf_rb_consumer_peek(cs))) {
		size_t save = out->len;

		it.text_at = it.raw_pieces_at = 0;
		/* print_trace_line(): a consumer learns what it missed */
		if (e->lost)
			sb_printf(out, "CPU:%d [LOST %llu EVENTS]\n", e->cpu,
				  (unsigned long long)e->lost);
		tf_trace_print_entry(&it, out, e, NULL);
		if (out->len > TRACE_SEQ_BUFFER_SIZE - 1) {
			if (save == 0) {
				cut_line(out, &it, 0, true);
				tf_rb_consumer_consume(cs);
			} else {
				out->len = save;	/* the next read's */
			}
			break;
		}
		tf_rb_consumer_consume(cs);
		if (out->len >= cnt)
			break;
	}
	tf_rb_consumer_end(cs);
	tf_rcu_read_unlock();
	return sb_error(out);
}

/*
 * open_pipe_on_cpu(): one trace_pipe of a trace array reads a CPU at a
 * time: the top one takes every CPU, a per_cpu one its own; another open
 * of any of them is EBUSY until the first is closed.  FUSE sends the
 * RELEASE of a closed file after close(2) has returned, and another
 * worker thread may serve the next OPEN first: a script that opens
 * trace_pipe again right after closing it must not find it busy, so a
 * busy open waits up to PIPE_RELEASE_WAIT_MS for a release.
 */
#define PIPE_RELEASE_WAIT_MS 100

int tf_trace_pipe_open(struct tf_open *o)
{
	struct tf_trace_array *tr = o->node.tr;
	int n = o->node.t->nr_cpus, cpu = node_cpu(o), ret;

	for (int ms = 0;; ms++) {
		ret = 0;
		pthread_mutex_lock(&o->node.t->lock);
		for (int c = 0; c < n && !ret; c++)
			if ((cpu < 0 || c == cpu) && tr->pipe_cpus[c])
				ret = -EBUSY;
		for (int c = 0; c < n && !ret; c++)
			if (cpu < 0 || c == cpu)
				tr->pipe_cpus[c] = 1;
		pthread_mutex_unlock(&o->node.t->lock);
		if (ret == 0 || ms == PIPE_RELEASE_WAIT_MS)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	o->stream_claim = ret == 0;
	return ret;
}

/* RELEASE: the file's last descriptor is closed. */
void tf_trace_pipe_release(struct tf_open *o)
{
	struct tf_trace_array *tr = o->node.tr;
	int n = o->node.t->nr_cpus, cpu = node_cpu(o);

	pthread_mutex_lock(&o->node.t->lock);
	if (o->stream_claim)
		for (int c = 0; c < n; c++)
			if (cpu < 0 || c == cpu)
				tr->pipe_cpus[c] = 0;
	o->stream_claim = false;
	pthread_mutex_unlock(&o->node.t->lock);
}

int tf_trace_pipe_show(struct tf_open *o, struct strbuf *out)
{
	(void)out;
	return tf_trace_pipe_fill(o, TRACE_SEQ_BUFFER_SIZE);
}

unsigned tf_trace_pipe_poll(struct tf_open *o, bool peek)
{
	(void)peek;		/* nothing is consumed by looking */
	if (o->text.len)
		return POLLIN | POLLRDNORM;
	return tf_ring_buffer_empty(o->node.tr->buffer, node_cpu(o)) ?
	       0 : POLLIN | POLLRDNORM;
}

bool tf_trace_pipe_wakes(struct tf_open *o)
{
	if (o->node.def->show != tf_trace_pipe_show)
		return tf_raw_pipe_poll(o, true);
	return tf_trace_pipe_poll(o, true) ||
	       (o->stream_started && !atomic_load(&o->node.tr->tracing_on));
}

/* ---- snapshot ---- */

static const char snapshot_help_top[] =
	"# Snapshot commands:\n"
	"# echo 0 > snapshot : Clears and frees snapshot buffer\n"
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already "
	"allocated.\n"
	"#                      Takes a snapshot of the main buffer.\n"
	"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate "
	"or free)\n"
	"#                      (Doesn't have to be '2' works with any number "
	"that\n"
	"#                       is not a '0' or '1')\n";

static const char snapshot_help_cpu[] =
	"# Snapshot commands:\n"
	"# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"
	"# echo 1 > snapshot : Not supported with this kernel.\n"
	"#                     Must use main snapshot file to allocate.\n"
	"# echo 2 > snapshot : Clears this cpu's snapshot buffer (but does not "
	"allocate)\n"
	"#                      (Doesn't have to be '2' works with any number "
	"that\n"
	"#                       is not a '0' or '1')\n";

int tf_snapshot_show(struct tf_open *o, struct strbuf *out)
{
	struct tf_trace_array *tr = o->node.tr;

	/* the help text while it holds no event (trace_empty(), whatever
	 * the counts say: a new sub-buffer order keeps them) */
	if (tr->snapshot && !tf_ring_buffer_empty(tr->snapshot, node_cpu(o)))
		return render_buffer(o, tr->snapshot, out, R_SNAPSHOT);
	sb_printf(out, "# tracer: nop\n#\n#\n# * Snapshot is %s *\n#\n",
		  tr->snapshot ? "allocated" : "freed");
	sb_puts(out, node_cpu(o) >= 0 ? snapshot_help_cpu : snapshot_help_top);
	return 0;
}

long tf_snapshot_write(struct tf_open *o, const char *buf, size_t len)
{
	struct tf_trace_array *tr = o->node.tr;
	int cpu = node_cpu(o);
	unsigned long v;
	long ret = tf_parse_ulong(buf, len, &v);

	if (ret < 0)
		return ret;
	tf_buffer_expand(tr);
	pthread_mutex_lock(&o->node.t->lock);
	if (tr->cond_snapshot) {	/* an onmax()/onchange() snapshot() */
		pthread_mutex_unlock(&o->node.t->lock);
		return -EBUSY;
	}
	switch (v) {
	case 0:
		if (cpu >= 0) {
			pthread_mutex_unlock(&o->node.t->lock);
			return -EINVAL;
		}
		{
			/* an armed snapshot trigger may be swapping (RCU) */
			struct tf_ring_buffer *old = tr->snapshot;

			if (old)	/* free_snapshot() resets it first */
				tf_tr_clock_now(tr, tr->clock_id);
			tf_rcu_assign_pointer(tr->snapshot, NULL);
			tf_rcu_synchronize();
			tf_ring_buffer_free(old);
		}
		break;
	case 1:
		if (cpu >= 0) {
			pthread_mutex_unlock(&o->node.t->lock);
			return -EINVAL;
		}
		if (!tr->snapshot) {
			tr->snapshot = tf_trace_array_snapshot_alloc(
				tr, buffer_bytes(tr));
			/* CPUs sized one by one keep their sizes */
			if (tr->snapshot && resize_like(tr->snapshot, tr, -1)) {
				tf_ring_buffer_free(tr->snapshot);
				tr->snapshot = NULL;
			}
		}
		if (!tr->snapshot) {
			pthread_mutex_unlock(&o->node.t->lock);
			return -ENOMEM;
		}
		tf_ring_buffer_swap(tr->buffer, tr->snapshot);
		/* update_max_tr() saves the comm of the task it runs for */
		{
			char comm[TF_COMM_LEN];

			if (tf_proc_comm(o->pid, comm))
				tf_saved_cmdlines_record(&o->node.t->cmdlines,
							 o->pid, comm);
		}
		break;
	default:
		if (tr->snapshot && cpu < 0)	/* tracing_reset_online_cpus() */
			tf_tr_clock_now(tr, tr->clock_id);
		if (tr->snapshot)
			tf_ring_buffer_reset(tr->snapshot, cpu);
		break;
	}
	pthread_mutex_unlock(&o->node.t->lock);
	return (long)len;
}

/* ---- trace_marker ---- */

long tf_trace_marker_file_write(struct tf_open *o, const char *buf,
				size_t len)
{
	if (!tf_option_enabled(o->node.tr, "markers"))
		return -EINVAL;
	return tf_trace_marker_write(o->node.tr, o->pid, buf, len);
}

long tf_trace_marker_raw_file_write(struct tf_open *o, const char *buf,
			       size_t len)
{
	if (!tf_option_enabled(o->node.tr, "markers"))
		return -EINVAL;
	return tf_trace_marker_raw_write(o->node.tr, o->pid, buf, len);
}

/* ---- per_cpu/cpuN/ ---- */

static int stats_show(struct tf_open *o, struct strbuf *out)
{
	struct tf_rb_stats st;
	struct timespec now;

	tf_ring_buffer_stats(o->node.tr->buffer, node_cpu(o), &st);
	clock_gettime(CLOCK_MONOTONIC, &now);
	sb_printf(out, "entries: %llu\n", (unsigned long long)st.entries);
	sb_printf(out, "overrun: %llu\n", (unsigned long long)st.overrun);
	sb_puts(out, "commit overrun: 0\n");
	sb_printf(out, "bytes: %llu\n", (unsigned long long)st.bytes);
	sb_printf(out, "oldest event ts: %5llu.%06llu\n",
		  (unsigned long long)(st.oldest_ts / 1000000000ull),
		  (unsigned long long)(st.oldest_ts % 1000000000ull / 1000));
	sb_printf(out, "now ts: %5llu.%06llu\n",
		  (unsigned long long)now.tv_sec,
		  (unsigned long long)(now.tv_nsec / 1000));
	/* refused by a full buffer (nooverwrite), and the events the host's
	 * buffers lost before the live source read them */
	sb_printf(out, "dropped events: %llu\n", (unsigned long long)
		  st.dropped + tf_sources_lost(o->node.t->sources,
		  node_cpu(o), o->node.tr->tracing->nr_cpus));
	sb_printf(out, "read events: %llu\n", (unsigned long long)st.read);
	return 0;
}

/*
 * trace_pipe_raw and snapshot_raw, as 6.12's tracing_buffers_read(): a
 * read hands out one page of the buffer's sub-buffer size
 * (buffer_subbuf_size_kb), as the kernel's page (src/buffer/raw_page.c),
 * what trace-cmd and libtracefs read.  A read of a whole page or more
 * takes the CPU's oldest unread page when it has not been read from and
 * the writer has left it; otherwise the events that fit the read (at
 * least the first, else nothing: 0 bytes).  A read shorter than the page
 * gets its start; the next reads of that open file get the rest.  As on
 * 6.12, a read of an empty trace_pipe_raw returns 0 (end of file); one
 * of an empty snapshot_raw waits (O_NONBLOCK: EAGAIN) for a snapshot.
 */
static int raw_show(struct tf_open *o, struct tf_ring_buffer *rb,
		    struct strbuf *out)
{
	struct tf_rb_snapshot snap;
	struct tf_rb_read_page rp;
	size_t page_size, done = 0;
	uint8_t *page;
	int ret;

	if (!rb)
		return 0;
	/* no room for the page header: nothing read (ring_buffer_read_page) */
	if (o->read_size <= TF_RAW_PAGE_HDR)
		return TF_STREAM_EOF;
	page_size = (size_t)TF_RAW_PAGE_SIZE << tf_ring_buffer_order(rb);
	tf_sources_drain(o->node.t->sources);	/* read-your-events */
	ret = tf_ring_buffer_read_page(rb, node_cpu(o),
				       o->read_size - TF_RAW_PAGE_HDR > UINT_MAX ?
				       UINT_MAX : (unsigned)(o->read_size -
							     TF_RAW_PAGE_HDR),
				       &snap, &rp);
	if (ret < 0)
		return ret;
	if (rp.too_small) {
		tf_rb_snapshot_release(&snap);
		return TF_STREAM_EOF;
	}
	page = malloc(page_size);
	if (!page) {
		tf_rb_snapshot_release(&snap);
		return -ENOMEM;
	}
	/* an out-of-order stamp costs 8 bytes the writer did not count:
	 * what does not fit goes on a page of its own */
	while (done < snap.nr || (done == 0 && rp.pad)) {
		done += tf_raw_page_encode(snap.entries + done, snap.nr - done,
					   done ? 0 : rp.lost,
					   done ? snap.entries[done].ts : rp.stamp,
					   rp.pad, page, page_size);
		sb_add(out, page, page_size);
		if (!snap.nr)
			break;		/* the padding alone */
	}
	free(page);
	tf_rb_snapshot_release(&snap);
	return sb_error(out);
}

static int trace_pipe_raw_show(struct tf_open *o, struct strbuf *out)
{
	return raw_show(o, o->node.tr->buffer, out);
}

static int snapshot_raw_show(struct tf_open *o, struct strbuf *out)
{
	return raw_show(o, o->node.tr->snapshot, out);
}

unsigned tf_raw_pipe_poll(struct tf_open *o, bool peek)
{
	struct tf_ring_buffer *snap = o->node.tr->snapshot;

	(void)peek;
	if (o->text.len || (o->node.def->flags & TF_FD_EOF))
		return POLLIN | POLLRDNORM;
	return snap && !tf_ring_buffer_empty(snap, node_cpu(o)) ?
	       POLLIN | POLLRDNORM : 0;
}

const struct tf_file_def tf_cpu_files[] = {
	{ "snapshot_raw", 0440, TF_FD_NO_LOCK | TF_FD_STREAM,
	  NULL, snapshot_raw_show, NULL, NULL },
	{ "snapshot", 0640, TF_FD_NO_LOCK, NULL, tf_snapshot_show,
	  tf_snapshot_write, NULL },
	{ "buffer_size_kb", 0640, 0, NULL, tf_buffer_size_show,
	  tf_buffer_size_write, NULL },
	{ "stats", 0440, TF_FD_NO_LOCK, NULL, stats_show, NULL, NULL },
	{ "trace_pipe_raw", 0440, TF_FD_NO_LOCK | TF_FD_STREAM | TF_FD_EOF,
	  NULL, trace_pipe_raw_show, NULL, NULL },
	{ "trace", 0640, TF_FD_NO_LOCK, tf_trace_open, tf_trace_show,
	  tf_trace_write, NULL },
	{ "trace_pipe", 0440, TF_FD_NO_LOCK | TF_FD_STREAM, tf_trace_pipe_open,
	  tf_trace_pipe_show, NULL, tf_trace_pipe_release },
};
const unsigned tf_nr_cpu_files =
	sizeof(tf_cpu_files) / sizeof(tf_cpu_files[0]);
