/*
 * event_filter.c - the `filter` files of events and systems: compiling
 * with src/filter, publishing under RCU, and the text the files show
 * (the kernel's apply_event_filter and apply_subsystem_event_filter).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/trace_array.h"
#include "filter/filter.h"
#include "util/rcu.h"

/* Publishes @f (may be NULL) and frees the old filter after readers. */
static void set_filter(struct tf_event_file *file, struct tf_filter *f,
		       char *text)
{
	struct tf_filter *old = file->filter;

	rcu_assign_pointer(file->filter, f);
	free(file->filter_text);
	file->filter_text = text;
	if (old) {
		tf_rcu_synchronize();
		tf_filter_free(old);
	}
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
	ret = tf_filter_compile(file->event, str, &f, &e);
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

static char **system_text(struct tf_trace_array *tr,
			  const struct tf_system *sys)
{
	if (!tr->system_filter_text)
		tr->system_filter_text = calloc(tr->tracing->reg->nr_systems,
						sizeof(char *));
	return tr->system_filter_text ? &tr->system_filter_text[sys->index]
				      : NULL;
}

int tf_system_filter_write(struct tf_trace_array *tr,
			   const struct tf_system *sys, const char *str)
{
	char **text = system_text(tr, sys);
	unsigned applied = 0;
	int ret = 0;

	if (!text)
		return -ENOMEM;
	if (tf_filter_is_clear(str)) {
		for (unsigned i = 0; i < sys->nr_events; i++)
			set_filter(&tr->files[sys->events[i]], NULL, NULL);
		free(*text);
		*text = NULL;
		return 0;
	}
	for (unsigned i = 0; i < sys->nr_events; i++) {
		struct tf_event_file *file = &tr->files[sys->events[i]];
		struct tf_filter_error e = { 0 };
		struct tf_filter *f = NULL;

		/* events without the fields keep their filter */
		if (tf_filter_lacks_field(file->event, str))
			continue;
		if (tf_filter_compile(file->event, str, &f, &e) < 0) {
			set_filter(file, NULL,
				   tf_filter_error_file_text(str, &e));
			ret = e.errnum ? e.errnum : -EINVAL;
			continue;
		}
		set_filter(file, f, tf_filter_file_text(f));
		applied++;
	}
	free(*text);
	*text = NULL;
	if (!applied) {
		struct tf_filter_error e = {
			.pos = 0, .err = TF_FILT_ERR_BAD_SUBSYS_FILTER,
			.errnum = -EINVAL,
		};

		*text = tf_filter_error_file_text(str, &e);
		log_error(tr, str, &e);
		return -EINVAL;
	}
	*text = tf_filter_stored(str);
	return ret < 0 ? ret : 0;
}

void tf_system_filter_show(struct tf_trace_array *tr,
			   const struct tf_system *sys, struct strbuf *out)
{
	char **text = tr->system_filter_text ?
		      &tr->system_filter_text[sys->index] : NULL;

	sb_puts(out, subsys_banner);
	if (text && *text) {
		sb_puts(out, *text);
		if ((*text)[0] && (*text)[strlen(*text) - 1] != '\n')
			sb_putc(out, '\n');
	}
}
