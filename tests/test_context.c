// SPDX-License-Identifier: GPL-2.0
/*
 * test_context.c - two trees in one process are two trees: everything
 * the engine holds hangs off its struct tf_tracing.
 *
 * Two scripts of control writes and records (triggers, named hists,
 * filters, synthetic events and their actions, bad commands for
 * error_log, comms for saved_cmdlines) run first each alone in a tree of
 * its own, then interleaved step by step in two trees made from the same
 * formats directory.  What each tree shows (hist, hist_debug, trigger
 * and filter read-backs, trace, saved_cmdlines, error_log) must be what
 * it showed alone, and neither may show the other's events, names or
 * comms.  Both scripts use the same named histogram with different keys:
 * shared names would refuse the second.  Every record goes through
 * tf_dispatch(), the one entry point.  Then both trees are destroyed
 * (under ASan: nothing may leak).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "fs/files.h"
#include "fs/tree.h"
#include "hist/hist.h"
#include "source/inject.h"
#include "synth/synth.h"
#include "trigger/trigger.h"
#include "util/kstrto.h"
#include "util/rcu.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif

struct tree {
	struct tf_registry *reg;
	struct tf_tracing t;
	struct tf_inject *inject;
};

/* One step of a script: a kind letter and its text.
 *   S  synthetic_events write          E  enable SYS:EVENT
 *   T  trigger write "SYS:EVENT CMD"   F  filter write "SYS:EVENT STR"
 *   R  a record (text injection line)  X  a trigger write that must fail */
struct step {
	char kind;
	const char *text;
};

static const struct step script_a[] = {
	{ 'S', "wake_lat u64 lat; pid_t pid" },
	{ 'T', "sched:sched_waking hist:keys=pid:ts0=common_timestamp.usecs" },
	{ 'T', "sched:sched_switch hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:"
	       "onmatch(sched.sched_waking).trace(wake_lat,$lat,next_pid)" },
	{ 'T', "sched:sched_switch hist:name=shared:keys=prev_pid:vals=hitcount" },
	{ 'T', "synthetic:wake_lat hist:keys=pid,lat:sort=pid" },
	{ 'F', "sched:sched_switch prev_pid != 77" },
	{ 'E', "sched:sched_switch" },
	{ 'E', "synthetic:wake_lat" },
	{ 'X', "sched:sched_switch hist:keys=no_such_field" },
	{ 'R', "sched:sched_waking ts=1000000 cpu=0 pid=100 comm=alpha "
	       "common_pid=1 common_comm=alphatask prio=120 target_cpu=0" },
	{ 'R', "sched:sched_switch ts=1500000 cpu=0 pid=1 comm=alphatask "
	       "prev_comm=init prev_pid=1 prev_prio=120 prev_state=1 "
	       "next_comm=alpha next_pid=100 next_prio=120" },
	{ 'R', "sched:sched_switch ts=2500000 cpu=1 pid=77 comm=hidden "
	       "prev_comm=hidden prev_pid=77 prev_prio=120 prev_state=0 "
	       "next_comm=alpha next_pid=100 next_prio=120" },
	{ 0, NULL },
};

static const struct step script_b[] = {
	{ 'S', "wake_lat int other" },	/* same name, other fields */
	{ 'T', "sched:sched_switch hist:name=shared:keys=next_pid,prev_prio" },
	{ 'T', "sched:sched_waking traceoff:1" },
	{ 'E', "sched:sched_waking" },
	{ 'X', "sched:sched_waking hist:keys=pid:vals=nope" },
	{ 'R', "sched:sched_switch ts=3000000 cpu=1 pid=200 comm=beta "
	       "prev_comm=beta prev_pid=200 prev_prio=100 prev_state=0 "
	       "next_comm=gamma next_pid=300 next_prio=120" },
	{ 'R', "sched:sched_waking ts=3500000 cpu=0 pid=300 comm=gamma "
	       "common_pid=200 common_comm=beta prio=120 target_cpu=1" },
	{ 'R', "sched:sched_waking ts=4000000 cpu=0 pid=301 comm=delta "
	       "common_pid=200 common_comm=beta prio=120 target_cpu=1" },
	{ 0, NULL },
};

static void tree_init(struct tree *tr)
{
	int fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	char *order = tf_read_file_at(AT_FDCWD, FORMATS_DIR "/available_events",
				      NULL);

	CHECK(fd >= 0);
	CHECK_INT(tf_registry_load(&tr->reg, fd, order, "test"), 0);
	free(order);
	close(fd);
	CHECK_INT(tf_tracing_init(&tr->t, tr->reg, 2), 0);
	CHECK_INT(tf_hist_init(&tr->t), 0);
	tf_tracing_use_ksyms(&tr->t);
	tr->inject = tf_inject_new(tr->reg);
	CHECK(tr->inject != NULL);
}

static void tree_destroy(struct tree *tr)
{
	tf_inject_free(tr->inject);
	tf_tracing_destroy(&tr->t);
	tf_registry_free(tr->reg);
}

/* The top-level file of "SYS:EVENT" at the start of @s; *@rest after it. */
static struct tf_event_file *file_of(struct tree *tr, const char *s,
				     const char **rest)
{
	char sys[64], ev[64];
	struct tf_event *e;
	int n = 0;

	if (sscanf(s, "%63[^:]:%63s%n", sys, ev, &n) != 2)
		return NULL;
	if (rest)
		*rest = s[n] ? s + n + 1 : s + n;
	e = tf_registry_find(tr->reg, sys, ev);
	return e ? tf_tr_file(tr->t.top, e->index) : NULL;
}

static void run_step(struct tree *tr, const struct step *st)
{
	struct tf_event_file *f = NULL;
	const char *rest = NULL;
	long ret = 0;

	if (st->kind != 'S' && st->kind != 'R') {
		f = file_of(tr, st->text, &rest);
		CHECK(f != NULL);
		if (!f)
			return;
	}
	if (st->kind == 'R') {
		CHECK_INT(tf_inject_parse(tr->inject, st->text,
					  strlen(st->text), 1), 1);
		tf_dispatch(&tr->t, tf_inject_record(tr->inject));
		return;
	}
	pthread_mutex_lock(&tr->t.lock);
	switch (st->kind) {
	case 'S':
		ret = tf_synth_events_write(&tr->t, st->text, strlen(st->text));
		break;
	case 'E':
		ret = tf_event_enable_disable(f, 1, false);
		break;
	case 'T':
	case 'X':
		ret = tf_trigger_write(f, rest, strlen(rest));
		break;
	case 'F':
		ret = tf_event_filter_write(f, rest);
		break;
	}
	pthread_mutex_unlock(&tr->t.lock);
	if (st->kind == 'X')
		CHECK(ret < 0);
	else if (ret < 0)
		CHECK_STR(st->text, "(succeeds)");
}

/* Everything a reader of @tr's top level sees of the scripts' events. */
static char *view(struct tree *tr)
{
	static const char *const events[] = {
		"sched:sched_switch", "sched:sched_waking", "synthetic:wake_lat",
	};
	struct strbuf out = STRBUF_INIT;
	struct tf_open o = {
		.node = { .t = &tr->t, .tr = tr->t.top,
			  .kind = TF_N_FILE_ROOT },
	};

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct tf_event_file *f = file_of(tr, events[i], NULL);

		sb_printf(&out, "=== %s\n", events[i]);
		if (!f)
			continue;
		pthread_mutex_lock(&tr->t.lock);
		sb_printf(&out, "enable: %s\n", tf_event_enable_str(f));
		sb_printf(&out, "filter: %s\n",
			  f->filter_text ? f->filter_text : "none");
		tf_trigger_show(f, &out);
		pthread_mutex_unlock(&tr->t.lock);
		sb_puts(&out, "--- hist\n");
		tf_hist_show(f, &out);
		sb_puts(&out, "--- hist_debug\n");
		tf_hist_debug_show(f, &out);
	}
	sb_puts(&out, "=== trace\n");
	CHECK_INT(tf_trace_show(&o, &out), 0);
	sb_puts(&out, "=== saved_cmdlines\n");
	tf_saved_cmdlines_show(&tr->t.cmdlines, &out);
	sb_puts(&out, "=== error_log\n");
	{
		/* without the entries' times (the wall clock's) */
		struct strbuf log = STRBUF_INIT;
		const char *p;

		tf_error_log_show(&tr->t.top->error_log, &log);
		sb_putc(&log, '\0');
		for (p = log.buf; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
			const char *close = p[0] == '[' ? memchr(p, ']', n) : NULL;

			if (close)
				sb_add(&out, close + 1, n - (size_t)(close + 1 - p));
			else
				sb_add(&out, p, n);
			p += n;
		}
		sb_release(&log);
	}
	sb_putc(&out, '\0');
	return sb_detach(&out);
}

/* @script alone in a fresh tree: what it shows. */
static char *alone(const struct step *script)
{
	struct tree tr;
	char *v;

	tree_init(&tr);
	for (const struct step *st = script; st->kind; st++)
		run_step(&tr, st);
	v = view(&tr);
	tree_destroy(&tr);
	return v;
}

int main(void)
{
	struct tree a, b;
	char *want_a, *want_b, *got_a, *got_b;
	const struct step *sa = script_a, *sb = script_b;

	tf_rcu_register_self();
	want_a = alone(script_a);
	want_b = alone(script_b);
	if (getenv("TEST_CONTEXT_SHOW"))
		printf("%s\n######\n%s\n", want_a, want_b);
	/* what the scripts must have done, alone, for the test to mean
	 * anything: a generated synthetic event, a filtered record, a
	 * named hist, an error, saved comms */
	CHECK(strstr(want_a, "wake_lat: lat=") != NULL);
	CHECK(strstr(want_a, "hidden-77") == NULL);
	CHECK(strstr(want_a, "hist:name=shared:keys=prev_pid") != NULL);
	CHECK(strstr(want_a, "Couldn't find field") != NULL);
	CHECK(strstr(want_a, "1 alphatask\n") != NULL);
	CHECK(strstr(want_b, "hist:name=shared:keys=next_pid,prev_prio") != NULL);
	CHECK(strstr(want_b, "beta-200") != NULL);
	CHECK(strstr(want_b, "200 beta\n") != NULL);
	CHECK(strstr(want_b, "Command: hist:keys=pid:vals=nope") != NULL);

	tree_init(&a);
	tree_init(&b);
	while (sa->kind || sb->kind) {
		if (sa->kind)
			run_step(&a, sa++);
		if (sb->kind)
			run_step(&b, sb++);
	}
	got_a = view(&a);
	got_b = view(&b);
	CHECK_STR(got_a, want_a);
	CHECK_STR(got_b, want_b);
	/* and, plainly, none of the other's comms, events or names */
	CHECK(strstr(got_a, "beta") == NULL && strstr(got_a, "gamma") == NULL);
	CHECK(strstr(got_a, "vals=nope") == NULL);
	CHECK(strstr(got_b, "alpha") == NULL && strstr(got_b, "wake_lat: ") == NULL);
	CHECK(strstr(got_b, "keys=prev_pid:vals") == NULL);
	CHECK(strstr(got_b, "no_such_field") == NULL);
	tree_destroy(&a);
	tree_destroy(&b);
	free(want_a);
	free(want_b);
	free(got_a);
	free(got_b);
	return check_done("test_context");
}
