// SPDX-License-Identifier: GPL-2.0
/*
 * filter_text.c - what a script reads back: the `filter` file's text and
 * the error_log entry of a failed write, byte for byte as the kernel's
 * print_event_filter(), append_filter_err() and tracing_log_err() make
 * them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter_internal.h"

static const char *const err_text[TF_FILT_ERR_MAX] = {
	"No error",
	"Invalid operator",
	"Too many '('",
	"Too few '('",
	"Missing matching quote",
	"Missing '{'",
	"Missing '}'",
	"Operand too long",
	"Expecting string field",
	"Expecting numeric field",
	"Illegal operation for field type",
	"Field not found",
	"Illegal integer value",
	"Couldn't find or set field in one of a subsystem's events",
	"Too many terms in predicate expression",
	"Meaningless filter expression",
	"Invalid cpulist",
	"Only 'ip' field is supported for function trace",
	"Invalid value (did you forget quotes)?",
	"Function not found",
	"Error",
	"No filter found",
};

const char *tf_filter_err_text(int err)
{
	if (err < 0 || err >= TF_FILT_ERR_MAX)
		return NULL;
	return err_text[err];
}

char *tf_filter_file_text(const struct tf_filter *f)
{
	char *s = NULL;

	if (!f)
		return strdup("none\n");
	if (asprintf(&s, "%s\n", f->string) < 0)
		return NULL;
	return s;
}

/* A message error (lasterr > 0) or a bare errno ("Error: (n)")? */
static bool has_message(const struct tf_filter_error *e)
{
	return e->err > 0 && e->err < TF_FILT_ERR_MAX;
}

char *tf_filter_error_file_text(const char *str,
				const struct tf_filter_error *e)
{
	char *stored = tf_filter_stored(str), *s = NULL;
	int pos = e->pos, len, ret;

	if (!stored)
		return NULL;
	len = (int)strlen(stored);
	if (pos > len)
		pos = len;
	if (pos)		/* "indexing is off by one" */
		pos++;
	if (has_message(e))
		ret = asprintf(&s, "%s\n%*s\nparse_error: %s\n\n", stored,
			       pos, "^", err_text[e->err]);
	else
		ret = asprintf(&s, "%s\nError: (%d)\n\n", stored, e->err);
	free(stored);
	return ret < 0 ? NULL : s;
}

int tf_filter_error_log_err(const struct tf_filter_error *e)
{
	return has_message(e) ? e->err : TF_FILT_ERR_ERRNO;
}

int tf_filter_error_log_pos(const struct tf_filter_error *e)
{
	/* the log keeps the position as a u16, uncapped */
	return has_message(e) ? (int)(uint16_t)e->pos : 0;
}

char *tf_filter_error_log_entry(const char *str,
				const struct tf_filter_error *e)
{
	char *stored = tf_filter_stored(str), *s = NULL;
	int ret;

	if (!stored)
		return NULL;
	ret = asprintf(&s, "%s: error: %s\n  Command: %s\n%*s^\n",
		       TF_FILTER_ERROR_LOC, err_text[tf_filter_error_log_err(e)],
		       stored, 11 + tf_filter_error_log_pos(e), "");
	free(stored);
	return ret < 0 ? NULL : s;
}
