// SPDX-License-Identifier: GPL-2.0
/*
 * test_event_growth.c - events added to a mounted tree while events
 * stream and readers walk the tree (a replay started by tracefuse-inject
 * adding the events the tree lacks).  Two ingest threads dispatch an
 * existing event and every added event they see enabled; a reader
 * thread, as FUSE's threads do, resolves inodes, looks events up by name,
 * lists directories and parses injection lines naming the new events;
 * the main thread, as the control path does (under tracing.lock), adds
 * 600 events - in new systems and in an existing one, across chunk
 * boundaries - and enables each in an instance.  What a user would see:
 *
 * - nothing crashes, and under ThreadSanitizer (scripts/tsan.sh
 *   tests/test_event_growth.c) nothing races;
 * - no event is lost or counted twice: the top level recorded exactly
 *   the existing event's records, the instance exactly the new events'
 *   records dispatched once they were enabled;
 * - every added event is found by name, under its system, in every
 *   trace array (one made afterwards too), with the inode number it had
 *   when it appeared;
 *   available_events lists the added events first, newest first;
 * - a parser made before the events existed takes lines naming them;
 * - an added event is like any other: a filter on it decides what it
 *   records; adding a name or an id that is taken is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "buffer/ring_buffer.h"
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "fs/tree.h"
#include "source/inject.h"
#include "util/kstrto.h"
#include "util/rcu.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif

#define NR_INGEST 2
#define NR_ADD 600
#define FIRST_ID 40000

static struct tf_registry *reg;
static struct tf_tracing tracing;
static struct tf_trace_array *inst;
static struct tf_event *sig_ev;

static atomic_int stop;
static atomic_long sig_sent[NR_INGEST];	/* the existing event's records */
static atomic_long new_sent[NR_INGEST];	/* added events', while enabled */
static atomic_long reader_rounds, reader_errors, parsed_new;

static const char *system_of(int k)
{
	static const char *const systems[] = {
		"sched", "grow_a", "grow_b", "grow_c", "grow_d",
	};

	return systems[k % 5];
}

static int format_text(char *buf, size_t size, int k, int id)
{
	return snprintf(buf, size,
		"name: grow_%d\n"
		"ID: %d\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:u64 value;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"value=%%llu\", REC->value\n", k, id);
}

static int add_event(int k, int id)
{
	char text[1024];
	int len = format_text(text, sizeof(text), k, id), ret;

	pthread_mutex_lock(&tracing.lock);
	ret = tf_tracing_add_event(&tracing, system_of(k), text, (size_t)len,
				   NULL, NULL);
	pthread_mutex_unlock(&tracing.lock);
	return ret;
}

/* A record of added event @ev, to every trace array or only to @tr. */
static void dispatch_one_to(struct tf_trace_array *tr,
			    const struct tf_event *ev, uint64_t value, int cpu)
{
	uint8_t data[16] = { 0 };
	uint16_t type = (uint16_t)ev->id;
	int32_t pid = 100 + cpu;
	struct tf_record rec = {
		.event = ev, .data = data, .size = sizeof(data),
		.ts = value, .cpu = cpu,
	};

	memcpy(data, &type, 2);
	memcpy(data + 4, &pid, 4);
	memcpy(data + 8, &value, 8);
	if (!tr) {
		tf_dispatch(&tracing, &rec);
		return;
	}
	tf_rcu_read_lock();
	tf_dispatch_opts(&tracing, &rec, &(struct tf_dispatch_opts){ .tr = tr });
	tf_rcu_read_unlock();
}

static void dispatch_one(const struct tf_event *ev, uint64_t value, int cpu)
{
	dispatch_one_to(NULL, ev, value, cpu);
}

static void *ingest(void *arg)
{
	long id = (long)arg;
	uint8_t sig_data[48] = { 0 };
	uint16_t type = (uint16_t)sig_ev->id;
	struct tf_record sig = {
		.event = sig_ev, .data = sig_data, .size = sizeof(sig_data),
		.cpu = (int)id,
	};

	memcpy(sig_data, &type, 2);
	for (uint64_t n = 1; !atomic_load(&stop); n++) {
		unsigned base = tracing.top->nr_events_made;
		unsigned nr = reg->nr_events, added = nr - base;

		sig.ts = n;
		tf_dispatch(&tracing, &sig);
		atomic_fetch_add(&sig_sent[id], 1);
		if (!added)
			continue;
		/* an added event, every other time the newest: to every
		 * trace array once seen enabled in the instance (it never
		 * goes back), so every one is recorded there; before that
		 * only to the top level, where it stays disabled */
		const struct tf_event *ev =
			tf_registry_event(reg, n & 1 ? nr - 1 :
					  base + (unsigned)(n % added));

		if (!(atomic_load(&tf_tr_file(inst, ev->index)->flags) &
		      TF_FILE_ENABLED)) {
			dispatch_one_to(tracing.top, ev, n, (int)id);
			continue;
		}
		dispatch_one(ev, n, (int)id);
		atomic_fetch_add(&new_sent[id], 1);
	}
	return NULL;
}

static int count_fill(void *ctx, const char *name, const struct tf_node *c,
		      long next)
{
	(void)name;
	(void)c;
	(void)next;
	++*(long *)ctx;
	return 0;
}

/* What FUSE's lookup of events/SYS/EVENT does: the event's node. */
static int lookup_event(struct tf_trace_array *tr, const struct tf_event *ev,
			struct tf_node *out)
{
	struct tf_node events, sys;
	int ret;

	ret = tf_node_from_ino(&tracing, tf_ino(tr, TF_N_EVENTS, 0), &events);
	if (ret == 0)
		ret = tf_node_lookup(&events, ev->system, &sys);
	if (ret == 0)
		ret = tf_node_lookup(&sys, ev->name, out);
	return ret;
}

static void *reader(void *arg)
{
	struct tf_inject *parser = arg;
	long last_entries = 0;

	for (unsigned n = 0; !atomic_load(&stop); n++) {
		unsigned nr = reg->nr_events;
		const struct tf_event *ev = tf_registry_event(reg, n % nr);
		struct tf_node node, events;
		long entries = 0;
		char line[128];

		tf_rcu_read_lock();
		/* by name, in the top level, as FUSE looks it up */
		if (lookup_event(tracing.top, ev, &node) != 0 ||
		    node.kind != TF_N_EVENT || node.idx != ev->index)
			atomic_fetch_add(&reader_errors, 1);
		/* its inode resolves to it */
		if (tf_node_from_ino(&tracing, tf_ino(tracing.top, TF_N_EVENT,
						      ev->index), &node) != 0)
			atomic_fetch_add(&reader_errors, 1);
		/* events/ only grows */
		if (tf_node_from_ino(&tracing, tf_ino(tracing.top,
						      TF_N_EVENTS, 0),
				     &events) == 0)
			tf_node_readdir(&events, 2, count_fill, &entries);
		if (entries < last_entries)
			atomic_fetch_add(&reader_errors, 1);
		last_entries = entries;
		tf_rcu_read_unlock();

		/* the newest event: its files, as reading its enable file
		 * does, and an injection line naming it */
		if (nr > tracing.top->nr_events_made) {
			ev = tf_registry_event(reg, nr - 1);
			if (tf_tr_file(tracing.top, ev->index)->event != ev ||
			    tf_tr_file(inst, ev->index)->event != ev ||
			    strcmp(tf_event_enable_str(tf_tr_file(tracing.top,
						ev->index)), "0\n") != 0)
				atomic_fetch_add(&reader_errors, 1);
			snprintf(line, sizeof(line), "%s:%s value=%u",
				 ev->system, ev->name, n);
			if (tf_inject_parse(parser, line, strlen(line), n) != 1 ||
			    tf_inject_record(parser)->event != ev)
				atomic_fetch_add(&reader_errors, 1);
			else
				atomic_fetch_add(&parsed_new, 1);
		}
		atomic_fetch_add(&reader_rounds, 1);
	}
	return NULL;
}

static long sum(atomic_long *v)
{
	long s = 0;

	for (int i = 0; i < NR_INGEST; i++)
		s += atomic_load(&v[i]);
	return s;
}

static uint64_t written(struct tf_trace_array *tr)
{
	uint64_t s = 0;

	for (int cpu = 0; cpu < NR_INGEST; cpu++) {
		struct tf_rb_stats st;

		tf_ring_buffer_stats(tr->buffer, cpu, &st);
		s += st.written;
	}
	return s;
}

/* Waits until the ingest threads dispatched @n more records. */
static void wait_progress(long n)
{
	long start = sum(sig_sent);

	while (sum(sig_sent) - start < n)
		sched_yield();
}

int main(void)
{
	int fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	char *order = tf_read_file_at(AT_FDCWD, FORMATS_DIR
				      "/available_events", NULL);
	unsigned nr_before, nr_systems_before;
	struct tf_inject *parser;
	struct tf_trace_array *tmp;
	pthread_t th[NR_INGEST], rd;
	uint64_t ino_first = 0;
	struct tf_node node;
	int add_failed = 0;

	if (fd < 0 || tf_registry_load(&reg, fd, order, "test") < 0)
		return 99;
	free(order);
	close(fd);
	if (tf_tracing_init(&tracing, reg, NR_INGEST) < 0)
		return 99;
	sig_ev = tf_registry_find(reg, "signal", "signal_generate");
	CHECK(sig_ev != NULL);
	if (!sig_ev)
		return check_done("test_event_growth");
	nr_before = reg->nr_events;
	nr_systems_before = reg->nr_systems;

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "grow", &inst), 0);
	CHECK_INT(tf_event_enable_disable(tf_tr_file(tracing.top,
						     sig_ev->index), 1, false),
		  0);
	pthread_mutex_unlock(&tracing.lock);
	parser = tf_inject_new(reg);	/* before any event is added */
	CHECK(parser != NULL);
	if (!parser)
		return check_done("test_event_growth");

	for (long i = 0; i < NR_INGEST; i++)
		pthread_create(&th[i], NULL, ingest, (void *)i);
	pthread_create(&rd, NULL, reader, parser);

	for (int k = 0; k < NR_ADD; k++) {
		struct tf_event *ev;

		if (add_event(k, FIRST_ID + k) != 0) {
			add_failed++;
			continue;
		}
		pthread_mutex_lock(&tracing.lock);
		ev = tf_registry_event(reg, reg->nr_events - 1);
		/* a new event starts disabled, unfiltered, untriggered */
		if (atomic_load(&tf_tr_file(tracing.top, ev->index)->flags) ||
		    tf_tr_file(inst, ev->index)->filter ||
		    !cds_list_empty(&tf_tr_file(inst, ev->index)->triggers))
			add_failed++;
		tf_event_enable_disable(tf_tr_file(inst, ev->index), 1,
					false);
		pthread_mutex_unlock(&tracing.lock);
		if (k == 0)
			ino_first = tf_ino(inst, TF_N_EVENT, ev->index);
		if (k % 16 == 0)
			wait_progress(100);
	}
	wait_progress(20000);
	while (atomic_load(&reader_rounds) < 1000)
		sched_yield();
	atomic_store(&stop, 1);
	for (int i = 0; i < NR_INGEST; i++)
		pthread_join(th[i], NULL);
	pthread_join(rd, NULL);

	fprintf(stderr, "%ld records of the existing event, %ld of added "
		"ones, %ld reader rounds, %ld new-event lines parsed\n",
		sum(sig_sent), sum(new_sent), atomic_load(&reader_rounds),
		atomic_load(&parsed_new));
	CHECK_INT(add_failed, 0);
	CHECK_INT(reg->nr_events, nr_before + NR_ADD);
	CHECK_INT(reg->nr_systems, nr_systems_before + 4);
	CHECK_INT(atomic_load(&reader_errors), 0);
	CHECK(atomic_load(&parsed_new) > 0);
	/* no record lost or counted twice, in either trace array */
	CHECK_INT(written(tracing.top), sum(sig_sent));
	CHECK_INT(written(inst), sum(new_sent));
	CHECK(sum(new_sent) > 0);

	/*
	 * An instance made after the growth has every event, each with
	 * its file like the others'.  (Made here, not while events stream:
	 * an instance is published with cds_list_add_rcu, which TSan
	 * cannot see - tsan.supp's first kind - and suppressing tr_alloc
	 * would hide the chunks it allocates from this test.)
	 */
	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "late", &tmp), 0);
	pthread_mutex_unlock(&tracing.lock);
	{
		struct tf_event *ev = tf_registry_find(reg, "grow_d",
						       "grow_599");
		uint64_t before = written(tmp);

		CHECK(ev && tf_tr_file(tmp, ev->index)->event == ev);
		pthread_mutex_lock(&tracing.lock);
		tf_event_enable_disable(tf_tr_file(tmp, ev->index), 1, false);
		pthread_mutex_unlock(&tracing.lock);
		dispatch_one(ev, 1, 1);
		CHECK_INT(written(tmp) - before, 1);
	}

	/* every added event, by name, in every trace array; stable inodes */
	tf_rcu_read_lock();
	for (int k = 0; k < NR_ADD; k++) {
		char name[32];
		struct tf_event *ev;

		snprintf(name, sizeof(name), "grow_%d", k);
		ev = tf_registry_find(reg, system_of(k), name);
		CHECK(ev && ev->id == FIRST_ID + k &&
		      ev->index == nr_before + (unsigned)k);
		CHECK(ev && lookup_event(inst, ev, &node) == 0 &&
		      node.idx == ev->index);
		CHECK(ev && lookup_event(tmp, ev, &node) == 0 &&
		      node.idx == ev->index);
	}
	CHECK(tf_node_from_ino(&tracing, ino_first, &node) == 0 &&
	      node.kind == TF_N_EVENT && node.idx == nr_before);
	tf_rcu_read_unlock();

	/* available_events' order: the added events first, newest first;
	 * an instance made after them lists them in registry order */
	{
		const struct tf_event *ev = tf_tr_list_first(tracing.top);
		unsigned pos = 0;

		CHECK_STR(ev->name, "grow_599");
		while (pos < NR_ADD - 1 && ev) {
			ev = tf_tr_list_next(tracing.top, ev);
			pos++;
		}
		CHECK_STR(ev ? ev->name : NULL, "grow_0");
		ev = tf_tr_list_next(tracing.top, ev);
		CHECK(ev && ev->index == 0);
		ev = tf_tr_list_first(tmp);
		CHECK(ev && ev->index == 0);
		while (ev && tf_tr_list_next(tmp, ev))
			ev = tf_tr_list_next(tmp, ev);
		CHECK(ev && ev->index == reg->nr_events - 1);
	}

	/* a taken name or id is refused, and changes nothing */
	CHECK_INT(add_event(3, FIRST_ID + NR_ADD), -EEXIST);
	CHECK_INT(add_event(NR_ADD, FIRST_ID), -EEXIST);
	CHECK_INT(reg->nr_events, nr_before + NR_ADD);

	/* a filter on an added event decides what it records */
	{
		struct tf_event *ev = tf_registry_find(reg, "grow_b",
						       "grow_2");
		uint64_t before = written(inst);

		pthread_mutex_lock(&tracing.lock);
		CHECK_INT(tf_event_filter_write(tf_tr_file(inst, ev->index),
						"value > 5"), 0);
		pthread_mutex_unlock(&tracing.lock);
		dispatch_one(ev, 3, 0);
		dispatch_one(ev, 7, 0);
		CHECK_INT(written(inst) - before, 1);
	}

	tf_inject_free(parser);
	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_remove(&tracing, "grow"), 0);
	CHECK_INT(tf_instance_remove(&tracing, "late"), 0);
	pthread_mutex_unlock(&tracing.lock);
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return check_done("test_event_growth");
}
