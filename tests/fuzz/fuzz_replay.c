// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_replay.c - libFuzzer target for the replay source: the input is
 * a trace.dat file, read by libtracecmd and decoded, translated and
 * dispatched by src/source/replay.c exactly as `tracefuse-inject
 * --replay FILE` does (tf_replay_run), into a tree of 6.12's events
 * with every event enabled and a hist trigger on sched_switch; then
 * `trace` and the hist are rendered and the buffers reset.
 *
 * Seeds: small version 6 files made by tests/fuzz/make-dat.py
 * (scripts/fuzz.sh).  Events the tree lacks are added from the file's
 * format texts through `trace-cmd dump --events` when trace-cmd is in
 * PATH, as in the daemon (a fork per such input; set PATH without it to
 * fuzz faster without that path).
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
#include "fs/files.h"
#include "hist/hist.h"
#include "source/replay.h"
#include "trigger/trigger.h"
#include "util/rcu.h"
#include "fuzz_tree.h"

static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_event_file *switch_file;
static char dir[64], path[80];

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char hist[] =
		"hist:keys=prev_comm,next_pid:vals=hitcount,prev_state";
	struct tf_event *sw;

	(void)argc;
	(void)argv;
	fuzz_tree_init("fuzz_replay", &reg, &tracing, 2, true);
	snprintf(dir, sizeof(dir), "%s/tf-fuzz-replay.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (strlen(dir) > 60 || !mkdtemp(dir))
		exit(1);
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	atexit(remove_dir);
	sw = tf_registry_find(reg, "sched", "sched_switch");
	if (!sw)
		exit(1);
	switch_file = tf_tr_file(tracing.top, sw->index);
	pthread_mutex_lock(&tracing.lock);
	if (tf_trigger_write(switch_file, hist, strlen(hist)) < 0)
		exit(1);
	pthread_mutex_unlock(&tracing.lock);
	return 0;
}

static void render(void)
{
	struct tf_open o = {
		.node = { .t = &tracing, .tr = tracing.top,
			  .kind = TF_N_FILE_ROOT },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)tf_trace_show(&o, &sb);
	sb_release(&sb);
	tf_hist_show(switch_file, &sb);
	sb_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_replay_opts opts = { .speed = 0, .loops = 1 };
	int fd;

	if (size > (1 << 20))
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	pthread_mutex_lock(&tracing.lock);
	tf_set_event_token(tracing.top, "*:*", 1);
	pthread_mutex_unlock(&tracing.lock);
	if (tf_replay_run(&tracing, path, &opts, NULL, NULL, NULL) == 0)
		render();
	pthread_mutex_lock(&tracing.lock);
	tf_trace_array_reset(tracing.top);
	pthread_mutex_unlock(&tracing.lock);
	return 0;
}
