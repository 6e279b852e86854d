// SPDX-License-Identifier: GPL-2.0
/*
 * event_filter.c - the `filter` files of events and systems: compiling
 * with src/filter, publishing under RCU, and the text the files show
 * (the kernel's apply_event_filter and apply_subsystem_event_filter).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/ksyms.h"
#include "trace/trace_array.h"
#include "filter/filter.h"
#include "util/rcu.h"

/* ---- .function: the tree's kernel symbols (events/ksyms.c) ---- */

static uint64_t ksyms_lookup_name(void *data, const char *name)
{
	return tf_ksyms_lookup_name(data, name);
}

static bool ksyms_lookup_addr(void *data, uint64_t addr, uint64_t *start,
			      uint64_t *end)
{
	const char *name, *module;
	uint64_t size;

	if (!tf_ksyms_lookup(data, addr, &name, start, &size, &module))
		return false;
	*end = *start + size;
	return true;
}

void tf_tracing_use_ksyms(struct tf_tracing *t)
{
	t->filter_env.symbols = (struct tf_filter_symbols){
		.lookup_name = ksyms_lookup_name,
		.lookup_addr = ksyms_lookup_addr,
		.data = t->reg->ksyms,
	};
}

/* Publishes @f (may be NULL) and frees the old filter after readers. */
static void set_filter(struct tf_event_file *file, struct tf_filter *f,
		       char *text)
{
	struct tf_filter *old = file->filter;

	tf_rcu_assign_pointer(file->filter, f);
	free(file->filter_text);
	file->filter_text = text;
	if (old) {
		tf_rcu_synchronize();
		tf_filter_free(old);
	}
	/* a source may filter for us (the live source's push-down) */
	tf_event_enabled_notify(file);
}

static void log_error(struct tf_trace_array *tr, const char *str,
		      const struct tf_filter_error *e)
{
	char *cmd = tf_filter_stored(str);
	const char *text = tf_filter_err_text(tf_filter_error_log_err(e));

	if (cmd && text)
		tf_error_log_add(&tr->error_log, TF_FILTER_ERROR_LOC, cmd,
				 (unsigned)tf_filter_error_log_pos(e), text);
	free(cmd);
}

int tf_event_filter_write(struct tf_event_file *file, const char *str)
{
	struct tf_filter_error e = { 0 };
	struct tf_filter *f = NULL;
	int ret;

	if (tf_filter_is_clear(str)) {
		set_filter(file, NULL, NULL);
		return 0;
	}
	ret = tf_filter_compile(&file->tr->tracing->filter_env, file->event,
				str, &f, &e);
	if (ret < 0) {
		/* 6.12: a failed write leaves the event unfiltered */
		set_filter(file, NULL, tf_filter_error_file_text(str, &e));
		log_error(file->tr, str, &e);
		return ret;
	}
	set_filter(file, f, tf_filter_file_text(f));
	return 0;
}

static const char subsys_banner[] =
	"### global filter ###\n"
	"# Use this to set filters for multiple events.\n"
	"# Only events with the given fields will be affected.\n"
	"# If no events are modified, an error message will be displayed "
	"here\n";

/* The subsystem filter text slot of @sys in @tr (grown with systems,
 * under the control lock like every user of it); NULL: no memory. */
static char **system_text(struct tf_trace_array *tr,
			  const struct tf_system *sys)
{
	if (sys->index >= tr->nr_system_filter_text) {
		unsigned nr = tr->tracing->reg->nr_systems;
		char **t = realloc(tr->system_filter_text, nr * sizeof(*t));

		if (!t || sys->index >= nr) {
			if (t)
				tr->system_filter_text = t;
			return NULL;
		}
		memset(t + tr->nr_system_filter_text, 0,
		       (nr - tr->nr_system_filter_text) * sizeof(*t));
		tr->system_filter_text = t;
		tr->nr_system_filter_text = nr;
	}
	return &tr->system_filter_text[sys->index];
}

/*
 * The kernel's apply_subsystem_event_filter() and process_system_preds()
 * (6.12, checked by tests/oracle/subsys-filter.sh): every event of the
 * system gets a new filter, whether or not it has the fields.  An event
 * whose compile fails is left unfiltered and its file shows the string
 * with a caret at 0 and "Couldn't find or set field in one of a
 * subsystem's events" (the compile's own error is overwritten), one
 * error_log entry per such event.  The write still returns 0: only a
 * system without events fails (-ENODEV; tracefuse has none such).  The
 * system's own file keeps showing the banner.  events.txt 5.4's "events
 * without the fields keep their filter" is no longer true.
 */
int tf_system_filter_write(struct tf_trace_array *tr,
			   const struct tf_system *sys, const char *str)
{
	char **text = system_text(tr, sys);

	if (!text)
		return -ENOMEM;
	if (!tf_system_first_event(sys))
		return -ENODEV;
	free(*text);
	*text = NULL;
	if (tf_filter_is_clear(str)) {
		for (struct tf_event *ev = tf_system_first_event(sys); ev;
		     ev = tf_system_next_event(ev))
			set_filter(tf_tr_file(tr, ev->index), NULL, NULL);
		return 0;
	}
	for (struct tf_event *ev = tf_system_first_event(sys); ev;
	     ev = tf_system_next_event(ev)) {
		struct tf_event_file *file = tf_tr_file(tr, ev->index);
		struct tf_filter_error e = { 0 };
		struct tf_filter *f = NULL;

		if (tf_filter_compile(&tr->tracing->filter_env, file->event,
				      str, &f, &e) < 0) {
			e = (struct tf_filter_error){
				.pos = 0, .err = TF_FILT_ERR_BAD_SUBSYS_FILTER,
				.errnum = -EINVAL,
			};
			set_filter(file, NULL,
				   tf_filter_error_file_text(str, &e));
			log_error(tr, str, &e);
			continue;
		}
		set_filter(file, f, tf_filter_file_text(f));
	}
	return 0;
}

void tf_system_filter_show(struct tf_trace_array *tr,
			   const struct tf_system *sys, struct strbuf *out)
{
	char **text = sys->index < tr->nr_system_filter_text ?
		      &tr->system_filter_text[sys->index] : NULL;

	/* print_subsystem_event_filter(): the text, else the banner */
	if (text && *text) {
		sb_puts(out, *text);
		if ((*text)[0] && (*text)[strlen(*text) - 1] != '\n')
			sb_putc(out, '\n');
	} else {
		sb_puts(out, subsys_banner);
	}
}
