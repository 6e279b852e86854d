// SPDX-License-Identifier: GPL-2.0
/*
 * files_events.c - events/, events/<sys>/ and events/<sys>/<event>/:
 * enable, filter, format, id, trigger, hist, hist_debug, header_page,
 * header_event.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "buffer/ring_buffer.h"
#include "filter/filter.h"
#include "fs/files.h"
#include "fs/tree.h"
#include "hist/hist.h"
#include "source/source.h"
#include "trigger/trigger.h"

static struct tf_event_file *node_file(const struct tf_open *o)
{
	return tf_tr_file(o->node.tr, o->node.idx >> 8);
}

static const struct tf_system *node_system(const struct tf_open *o)
{
	return tf_registry_system_at(o->node.t->reg, o->node.idx >> 8);
}

/* ---- events/<sys>/<event>/ ---- */

static int event_enable_show(struct tf_open *o, struct strbuf *out)
{
	sb_puts(out, tf_event_enable_str(node_file(o)));
	return 0;
}

/* 0 or 1: kstrtoul_from_user()'s errno (ERANGE past 2^64-1), then
 * EINVAL for anything else. */
static long parse_enable(const char *buf, size_t len, unsigned long *val)
{
	long ret = tf_parse_ulong(buf, len, val);

	return ret < 0 ? ret : *val > 1 ? -EINVAL : 0;
}

static long event_enable_write(struct tf_open *o, const char *buf,
			       size_t len)
{
	unsigned long val;
	long err = parse_enable(buf, len, &val);

	if (err < 0)
		return err;
	tf_buffer_expand(o->node.tr);	/* tracing_update_buffers() */
	tf_event_enable_disable(node_file(o), (int)val, false);
	return (long)len;
}

static int event_format_show(struct tf_open *o, struct strbuf *out)
{
	sb_puts(out, node_file(o)->event->format_text);
	return 0;
}

/* The id the event had when the file was opened: the kernel's id file
 * keeps telling it after the event is removed. */
static int event_id_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%d\n", o->event_id);
	return 0;
}

static int event_filter_show(struct tf_open *o, struct strbuf *out)
{
	const char *text = node_file(o)->filter_text;

	sb_puts(out, text ? text : "none\n");
	return 0;
}

/* A filter write: at most 4095 bytes, ending at the first NUL. */
static long filter_write(struct tf_open *o, const char *buf, size_t len,
			 bool system)
{
	char *str;
	int ret;

	if (len >= TF_FILTER_MAX_WRITE)
		return -EINVAL;
	str = strndup(buf, len);
	if (!str)
		return -ENOMEM;
	if (system)
		ret = tf_system_filter_write(o->node.tr, node_system(o), str);
	else
		ret = tf_event_filter_write(node_file(o), str);
	free(str);
	return ret < 0 ? ret : (long)len;
}

static long event_filter_write(struct tf_open *o, const char *buf, size_t len)
{
	return filter_write(o, buf, len, false);
}

static int event_trigger_open(struct tf_open *o)
{
	if ((o->flags & O_ACCMODE) != O_RDONLY && (o->flags & O_TRUNC))
		tf_trigger_truncate(node_file(o));
	return 0;
}

static int event_trigger_show(struct tf_open *o, struct strbuf *out)
{
	tf_trigger_show(node_file(o), out);
	return 0;
}

static long event_trigger_write(struct tf_open *o, const char *buf,
				size_t len)
{
	return tf_trigger_write(node_file(o), buf, len);
}

/*
 * poll() on hist, as the kernel since 6.13 (event_hist_poll): per open
 * file, the hit count the last read saw and the one the last read or
 * poll saw.  POLLIN while the histogram differs from what was last read;
 * POLLPRI once per change.  Atomics: the poll notifier peeks unlocked.
 */
struct hist_poll_state {
	uint64_t last_read;	/* 0 at open, as the kernel's kzalloc */
	uint64_t last_act;	/* the count at open */
};

static int event_hist_open(struct tf_open *o)
{
	struct hist_poll_state *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return -ENOMEM;
	ps->last_act = tf_hist_hit_count(node_file(o));
	o->priv = ps;
	return 0;
}

static void event_hist_release(struct tf_open *o)
{
	free(o->priv);
	o->priv = NULL;
}

static int event_hist_show(struct tf_open *o, struct strbuf *out)
{
	struct hist_poll_state *ps = o->priv;
	uint64_t cnt;

	tf_sources_drain(o->node.t->sources);	/* read-your-events */
	tf_hist_show(node_file(o), out);
	if (ps) {
		cnt = tf_hist_hit_count(node_file(o));
		__atomic_store_n(&ps->last_read, cnt, __ATOMIC_RELAXED);
		__atomic_store_n(&ps->last_act, cnt, __ATOMIC_RELAXED);
	}
	return 0;
}

static unsigned event_hist_poll(struct tf_open *o, bool peek)
{
	struct hist_poll_state *ps = o->priv;
	uint64_t cnt = tf_hist_hit_count(node_file(o));
	unsigned ret = 0;

	if (!ps)
		return POLLERR;
	if (__atomic_load_n(&ps->last_read, __ATOMIC_RELAXED) != cnt)
		ret |= POLLIN | POLLRDNORM;
	if (__atomic_load_n(&ps->last_act, __ATOMIC_RELAXED) != cnt) {
		if (!peek)
			__atomic_store_n(&ps->last_act, cnt, __ATOMIC_RELAXED);
		ret |= POLLPRI;
	}
	return ret;
}

static int event_hist_debug_show(struct tf_open *o, struct strbuf *out)
{
	tf_sources_drain(o->node.t->sources);
	tf_hist_debug_show(node_file(o), out);
	return 0;
}

/* In the kernel's readdir order; hist_debug as with HIST_TRIGGERS_DEBUG. */
enum { EV_ENABLE, EV_FILTER, EV_TRIGGER, EV_FORMAT, EV_ID, EV_HIST,
       EV_HIST_DEBUG };

const struct tf_file_def tf_event_files[] = {
	[EV_ENABLE] = { "enable", 0640, 0, NULL, event_enable_show,
			event_enable_write, NULL },
	[EV_FILTER] = { "filter", 0640, 0, NULL, event_filter_show,
			event_filter_write, NULL },
	[EV_TRIGGER] = { "trigger", 0640, 0, event_trigger_open,
			 event_trigger_show, event_trigger_write, NULL },
	[EV_FORMAT] = { "format", 0440, TF_FD_NO_LOCK | TF_FD_STATIC, NULL,
			event_format_show, NULL, NULL },
	[EV_ID] = { "id", 0440, TF_FD_NO_LOCK | TF_FD_KEEPS | TF_FD_STATIC,
		    NULL, event_id_show, NULL, NULL },
	[EV_HIST] = { "hist", 0440, 0, event_hist_open, event_hist_show, NULL,
		      event_hist_release },
	[EV_HIST_DEBUG] = { "hist_debug", 0440, 0, NULL,
			    event_hist_debug_show, NULL, NULL },
};
const unsigned tf_nr_event_files =
	sizeof(tf_event_files) / sizeof(tf_event_files[0]);

tf_poll_fn tf_file_poll(const struct tf_file_def *def)
{
	if (def->show == tf_trace_pipe_show)
		return tf_trace_pipe_poll;
	if (def->flags & TF_FD_STREAM)	/* trace_pipe_raw, snapshot_raw */
		return tf_raw_pipe_poll;
	if (def == &tf_event_files[EV_HIST])
		return event_hist_poll;
	return NULL;
}

bool tf_event_file_present(const struct tf_event *ev, unsigned file)
{
	/*
	 * The ftrace system's internal events have no enable or filter
	 * file; of them only print has a trigger file, and only print and
	 * function an id (tests/oracle/ftrace-files.out).
	 */
	if (strcmp(ev->system, "ftrace") == 0) {
		bool print = strcmp(ev->name, "print") == 0;

		switch (file) {
		case EV_ENABLE: case EV_FILTER:
			return false;
		case EV_TRIGGER:
			return print;
		case EV_ID:
			return print || strcmp(ev->name, "function") == 0;
		default:
			return file < tf_nr_event_files;
		}
	}
	return file < tf_nr_event_files;
}

/* ---- events/<sys>/ ---- */

static int system_enable_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%c\n", tf_system_enable_char(o->node.tr,
						      node_system(o)));
	return 0;
}

static long system_enable_write(struct tf_open *o, const char *buf,
				size_t len)
{
	unsigned long val;
	long err = parse_enable(buf, len, &val);
	int ret;

	if (err < 0)
		return err;
	tf_buffer_expand(o->node.tr);
	ret = tf_system_enable_set(o->node.tr, node_system(o), (int)val);
	return ret < 0 ? ret : (long)len;
}

static int system_filter_show(struct tf_open *o, struct strbuf *out)
{
	tf_system_filter_show(o->node.tr, node_system(o), out);
	return 0;
}

static long system_filter_write(struct tf_open *o, const char *buf,
				size_t len)
{
	return filter_write(o, buf, len, true);
}

const struct tf_file_def tf_system_files[] = {
	{ "filter", 0640, 0, NULL, system_filter_show, system_filter_write,
	  NULL },
	{ "enable", 0640, 0, NULL, system_enable_show, system_enable_write,
	  NULL },
};
const unsigned tf_nr_system_files =
	sizeof(tf_system_files) / sizeof(tf_system_files[0]);

bool tf_system_files_present(const struct tf_system *sys)
{
	return strcmp(sys->name, "ftrace") != 0;
}

/* ---- events/ ---- */

static int all_enable_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%c\n", tf_system_enable_char(o->node.tr, NULL));
	return 0;
}

static long all_enable_write(struct tf_open *o, const char *buf, size_t len)
{
	unsigned long val;
	long err = parse_enable(buf, len, &val);
	int ret;

	if (err < 0)
		return err;
	tf_buffer_expand(o->node.tr);
	ret = tf_system_enable_set(o->node.tr, NULL, (int)val);
	return ret < 0 ? ret : (long)len;
}

/*
 * ring_buffer_print_page_header(): the schemas' page header, whose data
 * field is as large as a sub-buffer of this trace array's buffer holds.
 */
static int header_page_show(struct tf_open *o, struct strbuf *out)
{
	const char *t = o->node.t->reg->header_page;
	unsigned data = tf_ring_buffer_subbuf_data(
		tf_ring_buffer_order(o->node.tr->buffer));
	const char *f, *size, *end;

	if (!t) {
		sb_printf(out, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\t"
			  "signed:0;\n\tfield: local_t commit;\toffset:8;\t"
			  "size:8;\tsigned:1;\n\tfield: int overwrite;\t"
			  "offset:8;\tsize:1;\tsigned:1;\n\tfield: char data;"
			  "\toffset:16;\tsize:%u;\tsigned:0;\n", data);
		return 0;
	}
	f = strstr(t, "field: char data;");
	size = f ? strstr(f, "size:") : NULL;
	if (!size || memchr(f, '\n', (size_t)(size - f))) {
		sb_puts(out, t);
		return 0;
	}
	size += strlen("size:");
	end = size + strspn(size, "0123456789");
	sb_add(out, t, (size_t)(size - t));
	sb_printf(out, "%u", data);
	sb_puts(out, end);
	return 0;
}

static int header_event_show(struct tf_open *o, struct strbuf *out)
{
	const char *t = o->node.t->reg->header_event;

	sb_puts(out, t ? t : "");
	return 0;
}

const struct tf_file_def tf_events_files[] = {
	{ "enable", 0640, 0, NULL, all_enable_show, all_enable_write, NULL },
	{ "header_page", 0440, TF_FD_NO_LOCK | TF_FD_STATIC, NULL,
	  header_page_show, NULL, NULL },
	{ "header_event", 0440, TF_FD_NO_LOCK | TF_FD_STATIC, NULL,
	  header_event_show, NULL, NULL },
};
const unsigned tf_nr_events_files =
	sizeof(tf_events_files) / sizeof(tf_events_files[0]);
