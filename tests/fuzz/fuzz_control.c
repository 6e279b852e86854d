// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_control.c - libFuzzer target for the control files' parsers that
 * have no target of their own: set_event tokens, the pid lists
 * (set_event_pid and set_event_notrace_pid) and the injection text
 * format (docs/inject.md).
 *
 * Input: one control byte, then the text.  The low two bits pick the
 * parser; for set_event the text is split at whitespace into tokens, a
 * leading '!' disabling; for the pid lists bit 2 truncates first (`>`)
 * and bit 3 picks the notrace list; for injection the text is split
 * into lines, each parsed and, when it makes a record, dispatched.  The
 * files are rendered after each input, and the state is cleared.
 *
 * Build and run: scripts/fuzz.sh [SECONDS] builds every tests/fuzz/
 * target with clang -fsanitize=fuzzer,address,undefined and runs each.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "source/inject.h"
#include "util/rcu.h"
#include "fuzz_tree.h"

static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_inject *inject;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	fuzz_tree_init("fuzz_control", &reg, &tracing, 2, false);
	inject = tf_inject_new(reg);
	if (!inject)
		exit(1);
	return 0;
}

static void set_events(char *text)
{
	char *save = NULL;

	for (char *tok = strtok_r(text, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		bool off = tok[0] == '!';

		tf_set_event_token(tracing.top, tok + off, !off);
	}
}

static void inject_lines(const char *text, size_t len)
{
	unsigned long lineno = 0;

	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;

		if (tf_inject_parse(inject, text + at, n, ++lineno) == 1)
			tf_dispatch(&tracing, tf_inject_record(inject));
		else
			(void)tf_inject_error(inject);
		at += n + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	uint8_t ctl;
	char *text;

	if (size < 1 || size > 8192)
		return 0;
	ctl = data[0];
	text = strndup((const char *)data + 1, size - 1);
	if (!text)
		return 0;
	switch (ctl & 3) {
	case 0:
	case 1:
		set_events(text);
		tf_set_event_show(tracing.top, &sb);
		tf_clear_events(tracing.top);
		break;
	case 2: {
		enum tf_pid_kind kind = (ctl & 8) ? TF_PIDS_EVENT_NOTRACE
						  : TF_PIDS_EVENT;

		/* the raw bytes: NULs included */
		tf_pid_list_write(tracing.top, kind, (const char *)data + 1,
				  size - 1, ctl & 4);
		tf_pid_list_show(tracing.top, kind, &sb);
		tf_pid_list_write(tracing.top, kind, "", 0, true);
		break;
	}
	case 3:
		tf_set_event_token(tracing.top, "*:*", 1);
		inject_lines((const char *)data + 1, size - 1);
		tf_clear_events(tracing.top);
		tf_trace_array_reset(tracing.top);
		break;
	}
	sb_release(&sb);
	free(text);
	return 0;
}
