// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_synth.c - libFuzzer target for synthetic_events and
 * dynamic_events.
 *
 * Input: one control byte, then up to 8 writes separated by 0xff bytes
 * (a write may hold newlines, '#' comments and NULs: the files split
 * lines themselves).  Control bits: 0x01 the first file is opened with
 * O_TRUNC (every synthetic event removed first), 0x02 writes alternate
 * between synthetic_events and dynamic_events (else all go to
 * synthetic_events), 0x04 every event made is enabled and generates a
 * record from the input's bytes (numbers, strings, stacks of any
 * length) which `trace` then prints, 0x08 an event is held (its ref
 * taken, as a hist action does) across the writes.  The read-backs,
 * every format and the top-level error_log are rendered; at the end
 * every event is disabled and removed, so inputs do not build on each
 * other.
 *
 * Build and run: scripts/fuzz-synth.sh [SECONDS] compiles every source
 * of src/ but main.c with clang -fsanitize=fuzzer,address,undefined into
 * fuzz_synth, makes seeds from the commands of tests/oracle/synth-*.sh
 * and runs it (default 600 s).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/ksyms.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "fs/files.h"
#include "fs/tree.h"
#include "synth/synth.h"
#include "util/rcu.h"
#include "fuzz_tree.h"

static struct tf_registry *reg;
static struct tf_tracing tracing;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct tf_ksym syms[] = {
		{ 0xffffffff81000000ull, "some_function", "" },
		{ 0xffffffff81001000ull, "other_fn", "mod" },
		{ 0xffffffff81002000ull, "end", "" },
	};

	(void)argc;
	(void)argv;
	fuzz_tree_init("fuzz_synth", &reg, &tracing, 2, false);
	tf_ksyms_add_file(reg->ksyms, syms, 3);
	return 0;
}

static void render(void)
{
	struct tf_open o = {
		.node = { .t = &tracing, .tr = tracing.top,
			  .kind = TF_N_FILE_ROOT },
	};
	struct strbuf sb = STRBUF_INIT;
	unsigned nr = reg->nr_events;

	tf_synth_events_show(&tracing, &sb);
	tf_dynamic_events_show(&tracing, &sb);
	tf_set_event_show(tracing.top, &sb);
	tf_error_log_show(&tracing.top->error_log, &sb);
	for (unsigned i = 0; i < nr; i++) {
		const struct tf_event *ev = tf_registry_event(reg, i);

		if (ev && tf_synth_of_event(ev))
			sb_puts(&sb, ev->format_text);
	}
	sb_release(&sb);
	tf_trace_show(&o, &sb);
	sb_release(&sb);
}

/* A record of every synthetic event, its values taken from @data. */
static void fire(const uint8_t *data, size_t size)
{
	static char strs[4][300];
	static uint64_t stacks[2][24];
	uint64_t vals[TF_SYNTH_FIELDS_MAX];
	unsigned idx[TF_SYNTH_FIELDS_MAX], nr = reg->nr_events, k = 0;
	uint8_t cause_data[16] = { 5, 0, 1, 0x13, 7 };
	struct tf_record cause = {
		.event = tf_registry_find(reg, "ftrace", "print"),
		.data = cause_data, .size = sizeof(cause_data), .ts = 1000,
		.comm = "fuzz",
	};

	for (unsigned s = 0; s < 4; s++) {
		size_t n = size > 299 ? 299 : size;

		memcpy(strs[s], data, n);
		strs[s][n] = '\0';
		if (size > 7)
			data += 7, size -= 7;
	}
	for (unsigned s = 0; s < 2; s++) {
		memset(stacks[s], 0, sizeof(stacks[s]));
		stacks[s][0] = size ? data[0] % 24 : 3;	/* any count */
		for (unsigned i = 1; i < 24; i++)
			stacks[s][i] = 0xffffffff81000000ull +
				       (size > i ? data[i] * 97ull : i);
	}
	tf_rcu_read_lock();
	for (unsigned i = 0; i < nr; i++) {
		const struct tf_event *ev = tf_registry_event(reg, i);
		const struct tf_synth_event *se = tf_synth_of_event(ev);

		if (!se)
			continue;
		for (unsigned f = 0; f < se->n_fields; f++) {
			const struct tf_synth_field *fl = &se->fields[f];
			uint64_t v = 0;

			for (unsigned b = 0; b < 8 && size; b++)
				v = v << 8 | data[(k++) % size];
			if (fl->is_string)
				v = (uintptr_t)strs[k % 4];
			else if (fl->is_stack)
				v = (uintptr_t)stacks[k % 2];
			vals[f] = v;
			idx[f] = f;
		}
		cause.ts += 10;
		tf_synth_trace(&tracing, se, vals, idx, &cause);
	}
	tf_rcu_read_unlock();
}

static void enable_all(int on)
{
	unsigned nr = reg->nr_events;

	for (unsigned i = 0; i < nr; i++) {
		const struct tf_event *ev = tf_registry_event(reg, i);

		if (tf_synth_of_event(ev))
			tf_event_enable_disable(tf_tr_file(tracing.top, i), on,
						false);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_synth_event *held = NULL;
	unsigned ctl, n = 0;
	const uint8_t *p, *end;

	if (size < 1)
		return 0;
	ctl = data[0];
	p = data + 1;
	end = data + size;
	pthread_mutex_lock(&tracing.lock);
	if (ctl & 0x01)
		tf_synth_release_all(&tracing);
	while (p <= end && n < 8) {
		const uint8_t *sep = memchr(p, 0xff, (size_t)(end - p));
		size_t len = sep ? (size_t)(sep - p) : (size_t)(end - p);

		if ((ctl & 0x02) && (n & 1))
			tf_dynamic_events_write(&tracing, (const char *)p, len);
		else
			tf_synth_events_write(&tracing, (const char *)p, len);
		if ((ctl & 0x08) && !held) {
			for (unsigned i = 0; i < reg->nr_events && !held; i++)
				held = (struct tf_synth_event *)
					tf_synth_of_event(tf_registry_event(reg,
									    i));
			if (held)
				held->ref++;
		}
		n++;
		if (!sep)
			break;
		p = sep + 1;
	}
	if (ctl & 0x04) {
		enable_all(1);
		pthread_mutex_unlock(&tracing.lock);
		fire(data, size);
		pthread_mutex_lock(&tracing.lock);
	}
	render();
	enable_all(0);
	if (held)
		held->ref--;
	tf_synth_release_all(&tracing);
	tf_error_log_clear(&tracing.top->error_log);
	tf_trace_array_reset(tracing.top);
	pthread_mutex_unlock(&tracing.lock);
	return 0;
}
