// SPDX-License-Identifier: GPL-2.0
/*
 * error_log.c - the tracing error log (see error_log.h).
 *
 * Format, from the kernel's tracing_err_log_seq_show():
 *   [%5llu.%06u] <loc>: error: <text>
 *     Command: <cmd>
 *   <11 + pos spaces>^
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error_log.h"

#define CMD_PREFIX "  Command: "

void tf_error_log_init(struct tf_error_log *log)
{
	memset(log, 0, sizeof(*log));
	pthread_mutex_init(&log->lock, NULL);
}

static void entry_free(struct tf_error_entry *e)
{
	free(e->loc);
	free(e->cmd);
	free(e->text);
	memset(e, 0, sizeof(*e));
}

void tf_error_log_clear(struct tf_error_log *log)
{
	pthread_mutex_lock(&log->lock);
	for (unsigned i = 0; i < TF_ERROR_LOG_MAX; i++)
		entry_free(&log->entries[i]);
	log->head = log->count = 0;
	pthread_mutex_unlock(&log->lock);
}

void tf_error_log_destroy(struct tf_error_log *log)
{
	tf_error_log_clear(log);
	pthread_mutex_destroy(&log->lock);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void tf_error_log_add(struct tf_error_log *log, const char *loc,
		      const char *cmd, unsigned pos, const char *text)
{
	struct tf_error_entry e = {
		.ts_ns = now_ns(),
		.loc = strdup(loc),
		.cmd = strdup(cmd),
		.text = strdup(text),
		.pos = pos,
	};
	unsigned slot;

	if (!e.loc || !e.cmd || !e.text) {
		entry_free(&e);
		return;
	}
	pthread_mutex_lock(&log->lock);
	if (log->count < TF_ERROR_LOG_MAX) {
		slot = (log->head + log->count) % TF_ERROR_LOG_MAX;
		log->count++;
	} else {
		slot = log->head;
		log->head = (log->head + 1) % TF_ERROR_LOG_MAX;
		entry_free(&log->entries[slot]);
	}
	log->entries[slot] = e;
	pthread_mutex_unlock(&log->lock);
}

void tf_error_log_show(struct tf_error_log *log, struct strbuf *out)
{
	pthread_mutex_lock(&log->lock);
	for (unsigned i = 0; i < log->count; i++) {
		const struct tf_error_entry *e =
			&log->entries[(log->head + i) % TF_ERROR_LOG_MAX];
		unsigned long long sec = e->ts_ns / 1000000000ull;
		unsigned usec = (unsigned)(e->ts_ns % 1000000000ull / 1000);

		sb_printf(out, "[%5llu.%06u] %s: error: %s\n", sec, usec,
			  e->loc, e->text);
		sb_printf(out, "%s%s\n", CMD_PREFIX, e->cmd);
		sb_printf(out, "%*s^\n", (int)(strlen(CMD_PREFIX) + e->pos),
			  "");
	}
	pthread_mutex_unlock(&log->lock);
}
