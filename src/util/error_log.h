/* SPDX-License-Identifier: GPL-2.0 */
/*
 * error_log.h - the kernel's tracing error log: the last 8 command errors
 * of a trace array, each with where it happened, the command and a caret.
 */
#ifndef TF_UTIL_ERROR_LOG_H
#define TF_UTIL_ERROR_LOG_H

#include <pthread.h>
#include <stdint.h>

#include "util/strbuf.h"

#define TF_ERROR_LOG_MAX 8	/* TRACING_LOG_ERRS_MAX */

struct tf_error_entry {
	uint64_t ts_ns;
	char *loc;
	char *cmd;
	char *text;
	unsigned pos;
};

struct tf_error_log {
	pthread_mutex_t lock;
	unsigned head;		/* index of the oldest entry */
	unsigned count;
	struct tf_error_entry entries[TF_ERROR_LOG_MAX];
};

void tf_error_log_init(struct tf_error_log *log);
void tf_error_log_destroy(struct tf_error_log *log);
/* Appends an entry, recycling the oldest when full (tracing_log_err). */
void tf_error_log_add(struct tf_error_log *log, const char *loc,
		      const char *cmd, unsigned pos, const char *text);
void tf_error_log_clear(struct tf_error_log *log);
void tf_error_log_show(struct tf_error_log *log, struct strbuf *out);

#endif
