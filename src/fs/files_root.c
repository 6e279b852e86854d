// SPDX-License-Identifier: GPL-2.0
/*
 * files_root.c - the files at the top of a trace array: event control
 * (available_events, set_event, set_event_pid), tracing_on, error_log,
 * README, and the files of kernel features tracefuse has not, which
 * behave as the kernel's do while that feature is idle.
 *
 * The table is in the kernel's readdir order.
 */
#include <ctype.h>
#include <fcntl.h>
#include <errno.h>
#include <string.h>

#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "buffer/saved_tgids.h"
#include "buffer/trace_clock.h"
#include "fs/files.h"
#include "synth/synth.h"
#include "util/bitmap_parse.h"

extern const char tf_readme_text[];

/* ---- fixed text ---- */

struct fixed_text {
	const char *name;
	const char *text;
};

static const struct fixed_text fixed_texts[] = {
	{ "stack_trace",
	  "        Depth    Size   Location    (0 entries)\n"
	  "        -----    ----   --------\n"
	  "#\n"
	  "#  Stack tracer disabled\n"
	  "#\n"
	  "# To enable the stack tracer, either add 'stacktrace' to the\n"
	  "# kernel command line\n"
	  "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n"
	  "#\n" },
	{ "stack_trace_filter", "#### all functions enabled ####\n" },
	{ "set_ftrace_filter", "#### all functions enabled ####\n" },
	{ "set_graph_function", "#### all functions enabled ####\n" },
	{ "set_ftrace_notrace", "#### no functions disabled ####\n" },
	{ "set_graph_notrace", "#### no functions disabled ####\n" },
	{ "dyn_ftrace_total_info", "0 pages:0 groups: 0\n" },
	{ "timestamp_mode", "[delta] absolute\n" },
	{ "available_tracers", "nop\n" },
	{ "current_tracer", "nop\n" },
};

static int fixed_show(struct tf_open *o, struct strbuf *out)
{
	for (size_t i = 0; i < sizeof(fixed_texts) / sizeof(*fixed_texts); i++)
		if (strcmp(fixed_texts[i].name, o->node.def->name) == 0) {
			sb_puts(out, fixed_texts[i].text);
			return 0;
		}
	return 0;	/* the idle files that read empty */
}

static int readme_show(struct tf_open *o, struct strbuf *out)
{
	(void)o;
	sb_puts(out, tf_readme_text);
	return 0;
}

/* Trims the whitespace the kernel's parsers skip around a word. */
static void trim(const char **buf, size_t *len)
{
	while (*len && isspace((unsigned char)**buf)) {
		(*buf)++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)(*buf)[*len - 1]))
		(*len)--;
}

/*
 * Files of features that are idle here (function tracer filters, probe
 * events): clearing them works, anything else names a function or probe
 * that does not exist.
 */
static long idle_write(struct tf_open *o, const char *buf, size_t len)
{
	const char *p = buf;
	size_t n = len;

	(void)o;
	trim(&p, &n);
	return n == 0 ? (long)len : -EINVAL;
}

/* Numbers the kernel keeps for features that are idle here. */
static enum tf_knob knob_of(const struct tf_open *o)
{
	static const char *const names[TF_KNOB_MAX] = {
		[TF_KNOB_TRACING_THRESH] = "tracing_thresh",
		[TF_KNOB_MAX_LATENCY] = "tracing_max_latency",
		[TF_KNOB_MAX_GRAPH_DEPTH] = "max_graph_depth",
		[TF_KNOB_STACK_MAX_SIZE] = "stack_max_size",
	};
	unsigned i;

	for (i = 0; i < TF_KNOB_MAX; i++)
		if (strcmp(names[i], o->node.def->name) == 0)
			break;
	return (enum tf_knob)i;
}

static int knob_show(struct tf_open *o, struct strbuf *out)
{
	enum tf_knob k = knob_of(o);

	sb_printf(out, "%lu\n", k < TF_KNOB_MAX ? o->node.tr->knobs[k] : 0);
	return 0;
}

static long knob_write(struct tf_open *o, const char *buf, size_t len)
{
	enum tf_knob k = knob_of(o);
	unsigned long v;
	long ret = tf_parse_ulong(buf, len, &v);

	if (ret < 0)
		return ret;
	if (k >= TF_KNOB_MAX)
		return -EINVAL;
	o->node.tr->knobs[k] = v;
	return (long)len;
}

static long current_tracer_write(struct tf_open *o, const char *buf,
				 size_t len)
{
	const char *p = buf;
	size_t n = len;

	(void)o;
	trim(&p, &n);
	/* nop is the only tracer; an empty name is none (EINVAL) */
	if (n == 3 && memcmp(p, "nop", 3) == 0)
		return (long)len;
	return -EINVAL;
}

static long free_buffer_write(struct tf_open *o, const char *buf, size_t len)
{
	(void)buf;
	o->priv = o;		/* the buffer is freed on close */
	return (long)len;
}

static void free_buffer_release(struct tf_open *o)
{
	if (o->priv)
		tf_buffer_free(o->node.tr);
}

/* ---- event control ---- */

static int available_events_show(struct tf_open *o, struct strbuf *out)
{
	struct tf_trace_array *top = o->node.t->top;

	/* the top level's list order: events added at run time first */
	for (const struct tf_event *ev = tf_tr_list_first(top); ev;
	     ev = tf_tr_list_next(top, ev)) {
		if (strcmp(ev->system, "ftrace") != 0)
			sb_printf(out, "%s:%s\n", ev->system, ev->name);
	}
	return 0;
}

static int set_event_open(struct tf_open *o)
{
	if ((o->flags & O_ACCMODE) != O_RDONLY && (o->flags & O_TRUNC))
		tf_clear_events(o->node.tr);
	return 0;
}

static int set_event_show(struct tf_open *o, struct strbuf *out)
{
	tf_set_event_show(o->node.tr, out);
	return 0;
}

#define EVENT_BUF_SIZE 127	/* the kernel's set_event token limit */

/* Whitespace-separated tokens; `!` disables; the first error ends it. */
static long set_event_write(struct tf_open *o, const char *buf, size_t len)
{
	char tok[EVENT_BUF_SIZE + 1];
	size_t i = 0;

	while (i < len) {
		size_t n = 0;
		int ret;

		while (i < len && isspace((unsigned char)buf[i]))
			i++;
		while (i < len && buf[i] && !isspace((unsigned char)buf[i])) {
			if (n >= EVENT_BUF_SIZE)
				return -EINVAL;
			tok[n++] = buf[i++];
		}
		if (i < len && !buf[i])
			i = len;
		if (!n)
			continue;
		tok[n] = '\0';
		tf_buffer_expand(o->node.tr);
		if (tok[0] == '!')
			ret = tf_set_event_token(o->node.tr, tok + 1, 0);
		else
			ret = tf_set_event_token(o->node.tr, tok, 1);
		if (ret < 0)
			return ret;
	}
	return (long)len;
}

static enum tf_pid_kind pid_kind(const struct tf_open *o)
{
	const char *name = o->node.def->name;

	if (strcmp(name, "set_event_notrace_pid") == 0)
		return TF_PIDS_EVENT_NOTRACE;
	if (strcmp(name, "set_ftrace_pid") == 0)
		return TF_PIDS_FTRACE;
	if (strcmp(name, "set_ftrace_notrace_pid") == 0)
		return TF_PIDS_FTRACE_NOTRACE;
	return TF_PIDS_EVENT;
}

static int pid_open(struct tf_open *o)
{
	if ((o->flags & O_ACCMODE) != O_RDONLY && (o->flags & O_TRUNC))
		return tf_pid_list_write(o->node.tr, pid_kind(o), "", 0,
					 true);
	return 0;
}

static int pid_show(struct tf_open *o, struct strbuf *out)
{
	tf_pid_list_show(o->node.tr, pid_kind(o), out);
	return 0;
}

static long pid_write(struct tf_open *o, const char *buf, size_t len)
{
	int ret = tf_pid_list_write(o->node.tr, pid_kind(o), buf, len,
				    false);

	return ret < 0 ? ret : (long)len;
}

/* ---- synthetic_events, dynamic_events ---- */

/* `>` removes every synthetic event first; EBUSY fails the open */
static int synth_open(struct tf_open *o)
{
	if ((o->flags & O_ACCMODE) != O_RDONLY && (o->flags & O_TRUNC))
		return tf_synth_release_all(o->node.t);
	return 0;
}

static int synthetic_events_show(struct tf_open *o, struct strbuf *out)
{
	tf_synth_events_show(o->node.t, out);
	return 0;
}

static long synthetic_events_write(struct tf_open *o, const char *buf,
				   size_t len)
{
	return tf_synth_events_write(o->node.t, buf, len);
}

static int dynamic_events_show(struct tf_open *o, struct strbuf *out)
{
	tf_dynamic_events_show(o->node.t, out);
	return 0;
}

static long dynamic_events_write(struct tf_open *o, const char *buf,
				 size_t len)
{
	return tf_dynamic_events_write(o->node.t, buf, len);
}

/* ---- tracing_on, error_log, saved_cmdlines ---- */

static int tracing_on_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%d\n", atomic_load(&o->node.tr->tracing_on) ? 1 : 0);
	return 0;
}

static long tracing_on_write(struct tf_open *o, const char *buf, size_t len)
{
	unsigned long v;
	long ret = tf_parse_ulong(buf, len, &v);

	if (ret < 0)
		return ret;
	atomic_store(&o->node.tr->tracing_on, v ? 1 : 0);
	return (long)len;
}

static int error_log_open(struct tf_open *o)
{
	if ((o->flags & O_ACCMODE) != O_RDONLY && (o->flags & O_TRUNC))
		tf_error_log_clear(&o->node.tr->error_log);
	return 0;
}

static int error_log_show(struct tf_open *o, struct strbuf *out)
{
	tf_error_log_show(&o->node.tr->error_log, out);
	return 0;
}

static long error_log_write(struct tf_open *o, const char *buf, size_t len)
{
	(void)o;
	(void)buf;
	return (long)len;	/* only opening with O_TRUNC clears it */
}

static int saved_cmdlines_show(struct tf_open *o, struct strbuf *out)
{
	tf_saved_cmdlines_show(&o->node.t->cmdlines, out);
	return 0;
}

static int saved_tgids_show(struct tf_open *o, struct strbuf *out)
{
	tf_saved_tgids_show(&o->node.t->tgids, out);
	return 0;
}

static int saved_cmdlines_size_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%u\n", tf_saved_cmdlines_size(&o->node.t->cmdlines));
	return 0;
}

static long saved_cmdlines_size_write(struct tf_open *o, const char *buf,
				      size_t len)
{
	unsigned long v;
	int ret;

	ret = (int)tf_parse_ulong(buf, len, &v);
	if (ret < 0)
		return ret;
	ret = tf_saved_cmdlines_resize(&o->node.t->cmdlines, v > 0xffffffffUL ? 0 : (unsigned)v);
	return ret < 0 ? ret : (long)len;
}

static int trace_clock_show(struct tf_open *o, struct strbuf *out)
{
	for (int i = 0; i < TF_NR_CLOCKS; i++)
		sb_printf(out, i == o->node.tr->clock_id ? "%s[%s]" : "%s%s",
			  i ? " " : "", tf_trace_clocks[i].name);
	sb_putc(out, '\n');
	return 0;
}

static long trace_clock_write(struct tf_open *o, const char *buf, size_t len)
{
	const char *p = buf;
	size_t n = len;
	int clock;

	trim(&p, &n);
	clock = tf_trace_clock_lookup(p, n);
	if (clock < 0)
		return clock;
	tf_trace_array_set_clock(o->node.tr, clock);
	return (long)len;
}

static int buffer_percent_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%u\n", o->node.tr->buffer_percent);
	return 0;
}

static long buffer_percent_write(struct tf_open *o, const char *buf,
				 size_t len)
{
	unsigned long v;
	long ret = tf_parse_ulong(buf, len, &v);

	if (ret < 0)
		return ret;
	if (v > 100)
		return -EINVAL;
	o->node.tr->buffer_percent = (unsigned)v;
	return (long)len;
}

static int subbuf_size_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%u\n", 4u << tf_ring_buffer_order(o->node.tr->buffer));
	return 0;
}

/* fls(): the 1-based index of the highest set bit, 0 for none. */
static unsigned fls32(uint32_t x)
{
	return x ? 32u - (unsigned)__builtin_clz(x) : 0;
}

/*
 * buffer_subbuf_size_write(): kB to pages (in the kernel's unsigned long
 * and int arithmetic, wraps included), to the order of the power of two
 * that holds them, 1 to 128 pages.  The main buffer and an allocated
 * snapshot get the new order; if the snapshot cannot, the main buffer
 * goes back to the old one.
 */
static long subbuf_size_write(struct tf_open *o, const char *buf, size_t len)
{
	struct tf_trace_array *tr = o->node.tr;
	unsigned long v;
	uint32_t pages;
	unsigned order, old;
	long ret = tf_parse_ulong(buf, len, &v);

	if (ret < 0)
		return ret;
	v *= 1024;
	pages = (uint32_t)((v + 4095) / 4096);	/* DIV_ROUND_UP into an int */
	order = fls32(pages - 1);
	if (order > TF_RB_MAX_ORDER)
		return -EINVAL;
	old = tf_ring_buffer_order(tr->buffer);
	if (order == old)
		return (long)len;
	ret = tf_ring_buffer_set_order(tr->buffer, order);
	if (ret == 0 && tr->snapshot) {
		ret = tf_ring_buffer_set_order(tr->snapshot, order);
		if (ret)
			tf_ring_buffer_set_order(tr->buffer, old);
	}
	return ret ? ret : (long)len;
}

static int tracing_cpumask_show(struct tf_open *o, struct strbuf *out)
{
	tf_bitmap_print(o->node.tr->cpumask, o->node.t->nr_cpus, out);
	sb_putc(out, '\n');
	return 0;
}

/* tracing_cpumask takes the kernel's bitmap_parse() (util/bitmap_parse.c) */
static long tracing_cpumask_write(struct tf_open *o, const char *buf,
				  size_t len)
{
	int ret = tf_bitmap_parse(buf, len, o->node.t->nr_cpus,
				  o->node.tr->cpumask);

	return ret < 0 ? ret : (long)len;
}

#define ROOT(name, mode, flags, open, show, write) \
	{ name, mode, flags, open, show, write, NULL }
#define TOP TF_FD_TOP_ONLY
#define NL TF_FD_NO_LOCK
#define ST TF_FD_STATIC

const struct tf_file_def tf_root_files[] = {
	ROOT("stack_trace_filter", 0640, TOP, NULL, fixed_show, idle_write),
	ROOT("stack_trace", 0440, TOP, NULL, fixed_show, NULL),
	ROOT("stack_max_size", 0640, TOP, NULL, knob_show, knob_write),
	ROOT("dyn_ftrace_total_info", 0440, TOP, NULL, fixed_show, NULL),
	ROOT("saved_tgids", 0440, TOP, NULL, saved_tgids_show, NULL),
	ROOT("saved_cmdlines_size", 0640, TOP, NULL, saved_cmdlines_size_show,
	     saved_cmdlines_size_write),
	ROOT("saved_cmdlines", 0440, TOP, NULL, saved_cmdlines_show, NULL),
	ROOT("README", 0440, TOP | NL | ST, NULL, readme_show, NULL),
	ROOT("tracing_thresh", 0640, TOP, NULL, knob_show, knob_write),
	ROOT("set_graph_notrace", 0640, TOP, NULL, fixed_show, idle_write),
	ROOT("set_graph_function", 0640, TOP, NULL, fixed_show, idle_write),
	ROOT("set_ftrace_notrace", 0640, 0, NULL, fixed_show, idle_write),
	ROOT("set_ftrace_filter", 0640, 0, NULL, fixed_show, idle_write),
	ROOT("touched_functions", 0440, TOP, NULL, fixed_show, NULL),
	ROOT("enabled_functions", 0440, TOP, NULL, fixed_show, NULL),
	ROOT("available_filter_functions_addrs", 0440, TOP | ST, NULL,
	     fixed_show, NULL),
	ROOT("available_filter_functions", 0440, TOP | ST, NULL, fixed_show,
	     NULL),
	ROOT("set_ftrace_notrace_pid", 0640, 0, pid_open, pid_show, pid_write),
	ROOT("set_ftrace_pid", 0640, 0, pid_open, pid_show, pid_write),
	ROOT("error_log", 0640, 0, error_log_open, error_log_show,
	     error_log_write),
	ROOT("snapshot", 0640, NL, NULL, tf_snapshot_show, tf_snapshot_write),
	ROOT("tracing_max_latency", 0640, 0, NULL, knob_show,
	     knob_write),
	ROOT("buffer_subbuf_size_kb", 0640, 0, NULL, subbuf_size_show,
	     subbuf_size_write),
	ROOT("buffer_percent", 0640, 0, NULL, buffer_percent_show,
	     buffer_percent_write),
	ROOT("timestamp_mode", 0440, 0, NULL, fixed_show, NULL),
	ROOT("tracing_on", 0640, 0, NULL, tracing_on_show, tracing_on_write),
	ROOT("trace_clock", 0640, 0, NULL, trace_clock_show,
	     trace_clock_write),
	ROOT("trace_marker_raw", 0220, NL, NULL, NULL,
	     tf_trace_marker_raw_file_write),
	ROOT("trace_marker", 0220, NL, NULL, NULL, tf_trace_marker_file_write),
	{ "free_buffer", 0200, 0, NULL, NULL, free_buffer_write,
	  free_buffer_release },
	ROOT("buffer_total_size_kb", 0440, 0, NULL, tf_buffer_total_size_show,
	     NULL),
	ROOT("buffer_size_kb", 0640, 0, NULL, tf_buffer_size_show,
	     tf_buffer_size_write),
	{ "trace_pipe", 0440, NL | TF_FD_STREAM, tf_trace_pipe_open,
	  tf_trace_pipe_show, NULL, tf_trace_pipe_release },
	ROOT("trace", 0640, NL, tf_trace_open, tf_trace_show, tf_trace_write),
	ROOT("trace_options", 0640, 0, NULL, tf_trace_options_show,
	     tf_trace_options_write),
	ROOT("tracing_cpumask", 0640, 0, NULL, tracing_cpumask_show,
	     tracing_cpumask_write),
	ROOT("current_tracer", 0640, 0, NULL, fixed_show,
	     current_tracer_write),
	ROOT("available_tracers", 0440, ST, NULL, fixed_show, NULL),
	ROOT("uprobe_profile", 0440, TOP, NULL, fixed_show, NULL),
	ROOT("uprobe_events", 0640, TOP, NULL, fixed_show, idle_write),
	ROOT("dynamic_events", 0640, TOP, synth_open, dynamic_events_show,
	     dynamic_events_write),
	ROOT("kprobe_profile", 0440, TOP, NULL, fixed_show, NULL),
	ROOT("kprobe_events", 0640, TOP, NULL, fixed_show, idle_write),
	ROOT("synthetic_events", 0640, TOP, synth_open, synthetic_events_show,
	     synthetic_events_write),
	ROOT("max_graph_depth", 0640, TOP, NULL, knob_show,
	     knob_write),
	ROOT("printk_formats", 0440, TOP | ST, NULL, fixed_show, NULL),
	ROOT("set_event_notrace_pid", 0640, 0, pid_open, pid_show, pid_write),
	ROOT("set_event_pid", 0640, 0, pid_open, pid_show, pid_write),
	ROOT("set_event", 0640, 0, set_event_open, set_event_show,
	     set_event_write),
	ROOT("available_events", 0440, TOP | ST, NULL,
	     available_events_show, NULL),
};
const unsigned tf_nr_root_files =
	sizeof(tf_root_files) / sizeof(tf_root_files[0]);
