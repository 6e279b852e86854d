// SPDX-License-Identifier: GPL-2.0
/*
 * test_events.c - the schema registry, enabling, set_event and the pid
 * lists, without FUSE: what a write to those files does to the state.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "util/rcu.h"
#include "util/kstrto.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif

/* A whole file (the formats and available_events of the fixture). */
static char *slurp(const char *path)
{
	return tf_read_file_at(AT_FDCWD, path, NULL);
}

static struct tf_registry *load(void)
{
	struct tf_registry *reg = NULL;
	int fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	char *order = slurp(FORMATS_DIR "/available_events");

	CHECK(fd >= 0);
	CHECK_INT(tf_registry_load(&reg, fd, order, "test"), 0);
	free(order);
	close(fd);
	return reg;
}

static void test_registry(struct tf_registry *reg)
{
	struct tf_event *ev = tf_registry_find(reg, "sched", "sched_switch");
	const struct tf_field *f;
	char *text;

	CHECK(ev != NULL);
	if (!ev)
		return;
	CHECK_INT(ev->id, 310);		/* the 6.12 kernel's id */
	CHECK(tf_registry_find_id(reg, 310) == ev);
	/* the format text is kept byte for byte */
	text = slurp(FORMATS_DIR "/sched/sched_switch/format");
	CHECK_STR(ev->format_text, text);
	free(text);
	f = tf_event_field(ev, "prev_comm");
	CHECK(f && f->kind == TF_FIELD_STR_STATIC && f->offset == 8 &&
	      f->size == 16);
	f = tf_event_field(ev, "prev_pid");
	CHECK(f && f->kind == TF_FIELD_NUM && f->is_signed && f->size == 4);
	f = tf_event_field(ev, "common_pid");
	CHECK(f && f->is_common && f->offset == 4);
	CHECK(tf_event_field(ev, "nosuch") == NULL);
	ev = tf_registry_find(reg, "sched", "sched_process_exec");
	f = ev ? tf_event_field(ev, "filename") : NULL;
	CHECK(f && f->kind == TF_FIELD_STR_DYN);
	ev = tf_registry_find(reg, "ftrace", "print");
	f = ev ? tf_event_field(ev, "buf") : NULL;
	CHECK(f && f->kind == TF_FIELD_STR_STATIC && f->size == 0);
	/* the order of available_events is the registry's */
	CHECK_STR(tf_registry_event(reg, 0)->system, "initcall");
	CHECK_STR(tf_registry_event(reg, 0)->name, "initcall_finish");
	CHECK(tf_registry_system(reg, "sched") != NULL);
	CHECK(tf_registry_system(reg, "nosuch") == NULL);
}

static void test_data_loc(struct tf_registry *reg)
{
	struct tf_event *ev = tf_registry_find(reg, "sched",
					       "sched_process_exec");
	const struct tf_field *f = tf_event_field(ev, "filename");
	uint8_t rec[64] = { 0 };
	uint32_t loc = (6u << 16) | 40u;
	unsigned len;
	const char *s;

	memcpy(rec + f->offset, &loc, 4);
	memcpy(rec + 40, "/bin/x", 6);
	s = tf_field_read_str(f, rec, sizeof(rec), &len);
	CHECK(s && len == 6 && memcmp(s, "/bin/x", 6) == 0);
	loc = (30u << 16) | 40u;	/* runs past the record */
	memcpy(rec + f->offset, &loc, 4);
	CHECK(tf_field_read_str(f, rec, sizeof(rec), &len) == NULL);
}

static char *show_set_event(struct tf_trace_array *tr)
{
	struct strbuf sb = STRBUF_INIT;

	tf_set_event_show(tr, &sb);
	return sb_detach(&sb);
}

static void test_enable(struct tf_tracing *t)
{
	struct tf_trace_array *tr = t->top;
	struct tf_registry *reg = t->reg;
	struct tf_event *sw = tf_registry_find(reg, "sched", "sched_switch");
	struct tf_event_file *f = tf_tr_file(tr, sw->index);
	const struct tf_system *sched = tf_registry_system(reg, "sched");
	char *s;

	CHECK_STR(tf_event_enable_str(f), "0\n");
	CHECK(tf_system_enable_char(tr, sched) == '0');
	CHECK_INT(tf_set_event_token(tr, "sched:sched_switch", 1), 0);
	CHECK_STR(tf_event_enable_str(f), "1\n");
	CHECK(tf_system_enable_char(tr, sched) == 'X');
	s = show_set_event(tr);
	CHECK_STR(s, "sched:sched_switch\n");
	free(s);
	/* the kernel's match rules */
	CHECK_INT(tf_set_event_token(tr, "nosuch", 1), -EINVAL);
	CHECK_INT(tf_set_event_token(tr, "sched:nosuch", 1), -EINVAL);
	CHECK_INT(tf_set_event_token(tr, "sched_*", 1), -EINVAL);
	CHECK_INT(tf_set_event_token(tr, "ftrace:print", 1), -EINVAL);
	CHECK_INT(tf_set_event_token(tr, "sched:sched_switch:mod:x", 1),
		  -EINVAL);
	CHECK_INT(tf_set_event_token(tr, "sched", 1), 0);	/* a system */
	CHECK(tf_system_enable_char(tr, sched) == '1');
	CHECK_INT(tf_set_event_token(tr, ":sched_switch", 0), 0);
	CHECK_STR(tf_event_enable_str(f), "0\n");
	CHECK_INT(tf_set_event_token(tr, "sched:", 0), 0);
	CHECK(tf_system_enable_char(tr, sched) == '0');
	CHECK_INT(tf_set_event_token(tr, "*:*", 1), 0);
	CHECK(tf_system_enable_char(tr, NULL) == '1');
	tf_clear_events(tr);
	CHECK(tf_system_enable_char(tr, NULL) == '0');

	/* soft mode: a trigger's reference keeps the event hooked */
	tf_event_enable_disable(f, 1, true);
	CHECK_STR(tf_event_enable_str(f), "0*\n");
	s = show_set_event(tr);
	CHECK_STR(s, "sched:sched_switch\n");	/* listed, as the kernel */
	free(s);
	tf_event_enable_disable(f, 1, false);
	CHECK_STR(tf_event_enable_str(f), "1*\n");
	tf_event_enable_disable(f, 0, false);
	CHECK_STR(tf_event_enable_str(f), "0*\n");
	tf_event_enable_disable(f, 0, true);
	CHECK_STR(tf_event_enable_str(f), "0\n");
	s = show_set_event(tr);
	CHECK_STR(s, "");
	free(s);
}

static char *show_pids(struct tf_trace_array *tr, enum tf_pid_kind k)
{
	struct strbuf sb = STRBUF_INIT;

	tf_pid_list_show(tr, k, &sb);
	return sb_detach(&sb);
}

static void test_pids(struct tf_tracing *t)
{
	struct tf_trace_array *tr = t->top;
	char *s;

#define PIDS(str, trunc) tf_pid_list_write(tr, TF_PIDS_EVENT, str, \
					   strlen(str), trunc)
	CHECK_INT(PIDS("5", true), 0);
	CHECK_INT(PIDS("123 244 1\n", false), 0);
	s = show_pids(tr, TF_PIDS_EVENT);
	CHECK_STR(s, "1\n5\n123\n244\n");
	free(s);
	CHECK_INT(PIDS("7 7 +3 0x10 010", false), 0);
	s = show_pids(tr, TF_PIDS_EVENT);
	CHECK_STR(s, "1\n3\n5\n7\n8\n16\n123\n244\n");
	free(s);
	/* a bad pid fails the whole write and changes nothing */
	CHECK_INT(PIDS("9 abc", false), -EINVAL);
	CHECK_INT(PIDS("-1", false), -EINVAL);
	CHECK_INT(PIDS("1,2", false), -EINVAL);
	CHECK_INT(PIDS("2147483648", false), -EPERM);
	s = show_pids(tr, TF_PIDS_EVENT);
	CHECK_STR(s, "1\n3\n5\n7\n8\n16\n123\n244\n");
	free(s);
	tf_rcu_read_lock();
	CHECK(tf_pid_allowed(tr, 123));
	CHECK(!tf_pid_allowed(tr, 124));
	tf_rcu_read_unlock();
	CHECK_INT(PIDS("", true), 0);		/* `>` clears */
	s = show_pids(tr, TF_PIDS_EVENT);
	CHECK_STR(s, "");
	free(s);
	s = show_pids(tr, TF_PIDS_FTRACE);
	CHECK_STR(s, "no pid\n");
	free(s);
#undef PIDS
}

static void test_instances(struct tf_tracing *t)
{
	struct tf_trace_array *a, *b;

	CHECK_INT(tf_instance_create(t, "foo", &a), 0);
	CHECK_INT(tf_instance_create(t, "foo", NULL), -EEXIST);
	CHECK_INT(tf_instance_create(t, "bar", &b), 0);
	CHECK(a->id != b->id && a->id != 0);
	CHECK(tf_instance_by_id(t, a->id) == a);
	/* per-instance state */
	CHECK_INT(tf_set_event_token(a, "sched:sched_switch", 1), 0);
	CHECK(tf_system_enable_char(t->top, NULL) == '0');
	atomic_fetch_add(&b->open_refs, 1);
	CHECK_INT(tf_instance_remove(t, "bar"), -EBUSY);
	atomic_fetch_sub(&b->open_refs, 1);
	CHECK_INT(tf_instance_remove(t, "bar"), 0);
	CHECK_INT(tf_instance_remove(t, "bar"), -ENOENT);
	CHECK_INT(tf_instance_remove(t, "foo"), 0);
}

int main(void)
{
	struct tf_registry *reg = load();
	struct tf_tracing t;

	if (!reg)
		return check_done("test_events");
	test_registry(reg);
	test_data_loc(reg);
	CHECK_INT(tf_tracing_init(&t, reg, 2), 0);
	test_enable(&t);
	test_pids(&t);
	test_instances(&t);
	tf_tracing_destroy(&t);
	tf_registry_free(reg);
	return check_done("test_events");
}
