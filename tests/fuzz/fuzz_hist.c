// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_hist.c - libFuzzer target for the hist trigger language, variables,
 * handlers and actions included.
 *
 * Input: one control byte, then up to 16 trigger-file writes separated by
 * '\n'.  A write that starts with a digit and a space goes to that
 * event's trigger file (0 ftrace:print, 1 kmem:kmalloc, 2 sched_switch,
 * 3 raw_syscalls:sys_enter, 4 sched_process_exec, 5 sched_waking, 6-9
 * the synthetic events s1, lat_ev, ev2 and wakeup_latency made at
 * start); the others go to
 * the event the control byte picks, which may also be truncated first.
 * Each write goes through tf_trigger_write (so `hist:`, `!hist:`,
 * variables, references, onmatch/onmax/onchange with trace(), save()
 * and snapshot(), pause/cont/clear, `if` filters and the other commands
 * are all reached); then records built from the input's bytes (data_loc
 * words pointing anywhere, truncated records) are dispatched to every
 * event (so references resolve and actions generate synthetic events),
 * and the hist, hist_debug, trigger and error_log files are rendered.
 * Every trigger is removed at the end of each input, in an order that
 * references allow.
 *
 * Build and run: scripts/fuzz-hist.sh [SECONDS] compiles every source of
 * src/ but main.c with clang -fsanitize=fuzzer,address,undefined into
 * fuzz_hist, makes seeds from the hist commands of the tests/hist-golden
 * scripts and runs it (default 600 s).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <urcu/urcu-memb.h>

#include "events/registry.h"
#include "dispatch/dispatch.h"
#include "hist/hist.h"
#include "synth/synth.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "fuzz_tree.h"

static struct tf_registry *reg;
static struct tf_tracing tracing;
#define N_FILES 10
static struct tf_event_file *files[N_FILES];

static bool fake_lookup(void *data, uint64_t addr, const char **name,
			uint64_t *start, uint64_t *size, const char **module)
{
	(void)data;
	if ((addr >> 40) != 0xffffff)
		return false;
	*name = (addr & 0x1000) ? "some_function" : "other_fn";
	*start = addr & ~0xfffULL;
	*size = 0x1000;
	*module = (addr & 0x2000) ? "mod" : "";
	return true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const evs[6][2] = {
		{ "ftrace", "print" }, { "kmem", "kmalloc" },
		{ "sched", "sched_switch" }, { "raw_syscalls", "sys_enter" },
		{ "sched", "sched_process_exec" }, { "sched", "sched_waking" },
	};
	/* the golden scripts' (tests/hist-golden/inter-*.sh, seeds) */
	static const char *const synth[4][2] = {
		{ "s1", "s1 int pid; u64 val" },
		{ "lat_ev", "lat_ev u64 lat; int pid" },
		{ "ev2", "ev2 u64 lat; u64 val; char d[]; unsigned long[] st" },
		{ "wakeup_latency", "wakeup_latency u64 lat; pid_t pid; char comm[16]" },
	};
	struct tf_hist_symbols syms = { .lookup = fake_lookup };

	(void)argc;
	(void)argv;
	fuzz_tree_init("fuzz_hist", &reg, &tracing, 4, true);
	tf_hist_set_symbols(&tracing, &syms);
	for (int i = 0; i < 6; i++) {
		struct tf_event *ev = tf_registry_find(reg, evs[i][0], evs[i][1]);

		if (!ev) {
			fprintf(stderr, "fuzz_hist: no event %s:%s\n", evs[i][0], evs[i][1]);
			exit(1);
		}
		files[i] = tf_tr_file(tracing.top, ev->index);
	}
	pthread_mutex_lock(&tracing.lock);
	for (int i = 0; i < 4; i++) {
		struct tf_synth_event *se;

		if (tf_synth_events_write(&tracing, synth[i][1],
					  strlen(synth[i][1])) < 0 ||
		    !(se = tf_synth_find(&tracing, synth[i][0]))) {
			fprintf(stderr, "fuzz_hist: %s refused\n", synth[i][1]);
			exit(1);
		}
		files[6 + i] = tf_tr_file(tracing.top, se->event->index);
	}
	pthread_mutex_unlock(&tracing.lock);
	return 0;
}

static void render(struct tf_event_file *f)
{
	struct strbuf sb = STRBUF_INIT;

	tf_hist_show(f, &sb);
	sb_release(&sb);
	tf_hist_debug_show(f, &sb);
	sb_release(&sb);
	tf_trigger_show(f, &sb);
	sb_release(&sb);
	tf_error_log_show(&tracing.top->error_log, &sb);
	sb_release(&sb);
}

static void fire(struct tf_event_file *f, const uint8_t *data, size_t size,
		 unsigned k)
{
	static const uint64_t stack[4] = {
		0xffffff0000001010ull, 0xffffff0000003020ull, 0x1234, 0
	};
	uint8_t rec[256];
	uint16_t type = (uint16_t)f->event->id;
	struct tf_record r = {
		.event = f->event, .data = rec, .size = sizeof(rec),
		.ts = 1000 + k * 977, .cpu = (int)(k % 5),
		.comm = k % 3 ? "bash" : NULL,
		.stack = k & 1 ? stack : NULL, .nr_stack = k & 1 ? 4 : 0,
	};

	for (unsigned i = 0; i < sizeof(rec); i++)
		rec[i] = data[(i * 7 + k) % size] ^ (uint8_t)(i * k);
	memcpy(rec, &type, 2);
	if (k % 4 == 3)
		r.size = (unsigned)(size % sizeof(rec));
	if (r.size < 8)
		r.size = 8;
	/* the one path: triggers, actions and what they generate */
	tf_dispatch(&tracing, &r);
}

/*
 * Removes every trigger: a hist trigger whose variables another
 * references refuses to go (and `>` then keeps them all), so each is
 * removed by its read-back line, the referencing ones first, in passes.
 */
static void clear_all(void)
{
	for (int pass = 0; pass < 8; pass++) {
		bool left = false;

		for (int i = 0; i < N_FILES; i++) {
			struct tf_event_file *f = files[i];
			struct tf_trigger *t, *tmp;

			cds_list_for_each_entry_safe(t, tmp, &f->triggers, list) {
				struct strbuf sb = STRBUF_INIT;
				char *e;

				if (strcmp(t->cmd->name, "hist") != 0)
					continue;
				t->ops->print(t, &sb);
				if (!sb.buf)
					continue;
				e = strstr(sb.buf, " [");
				if (e)
					*e = '\0';
				memmove(sb.buf + 1, sb.buf, strlen(sb.buf) + 1);
				sb.buf[0] = '!';
				(void)tf_trigger_write(f, sb.buf, strlen(sb.buf));
				sb_release(&sb);
				break;	/* the list changed */
			}
			tf_trigger_truncate(f);
			if (!cds_list_empty(&f->triggers))
				left = true;
		}
		if (!left)
			return;
	}
	/* what the passes could not undo (a read-back that does not parse
	 * back): the trace array's triggers go unconditionally */
	tf_trigger_clear_all(tracing.top);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_event_file *f;
	char *str, *p, *line;
	unsigned n = 0, ctl;

	if (size < 1 || size > 4096)
		return 0;
	ctl = data[0];
	f = files[ctl % N_FILES];
	str = strndup((const char *)data + 1, size - 1);
	if (!str)
		return 0;
	pthread_mutex_lock(&tracing.lock);
	if (ctl & 0x08)
		tf_trigger_truncate(f);
	pthread_mutex_unlock(&tracing.lock);
	p = str;
	while ((line = strsep(&p, "\n")) && n++ < 16) {
		struct tf_event_file *to = f;

		if (line[0] >= '0' && line[0] < '0' + N_FILES && line[1] == ' ') {
			to = files[line[0] - '0'];
			line += 2;
		}
		pthread_mutex_lock(&tracing.lock);
		(void)tf_trigger_write(to, line, strlen(line));
		pthread_mutex_unlock(&tracing.lock);
		if (ctl & 0x10)
			for (unsigned k = 0; k < 6; k++)
				fire(files[(k + n) % 6], data, size, k + n);
	}
	if (ctl & 0x20)	/* many distinct keys: fills small maps, drops */
		for (unsigned k = 0; k < 300; k++)
			fire(files[k % 6], data, size, k);
	for (int i = 0; i < N_FILES; i++)
		render(files[i]);
	pthread_mutex_lock(&tracing.lock);
	clear_all();
	tf_error_log_clear(&tracing.top->error_log);
	pthread_mutex_unlock(&tracing.lock);
	urcu_memb_barrier();	/* retired maps and triggers: no leak reports */
	free(str);
	return 0;
}
