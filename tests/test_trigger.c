// SPDX-License-Identifier: GPL-2.0
/*
 * test_trigger.c - the trigger file as a script sees it: what writing a
 * command returns and what the file reads back afterwards (replayed from
 * the kernel's answers in tests/trigger-corpus/corpus.txt), error_log
 * entries of bad trigger filters, soft mode of the triggering and target
 * events, and what each trigger does when its event fires.
 */
#include "trigger/trigger.h"
#include "buffer/ring_buffer.h"
#include "events/registry.h"
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct tf_registry *reg;
static struct tf_tracing tracing;

/* ---- a stand-in for the hist command (src/hist/ registers the real one) */

static void fake_hist_func(struct tf_trigger *d, const struct tf_record *r)
{
	(void)r;
	d->private_data = (char *)d->private_data + 1;	/* hit counter */
}

static void fake_hist_print(struct tf_trigger *d, struct strbuf *out)
{
	sb_printf(out, "hist:%s [%s]\n", d->filter_str ? d->filter_str : "",
		  d->paused ? "paused" : "active");
}

static const struct tf_trigger_ops fake_hist_ops = {
	.func = fake_hist_func, .print = fake_hist_print,
};

static int fake_hist_parse(const struct tf_event_command *cmd,
			   struct tf_event_file *file, char *glob,
			   char *cmd_str, char *paf)
{
	struct tf_trigger *d;
	int ret;

	(void)cmd_str;
	if (glob[0] == '!' || !paf)
		return -EINVAL;
	d = tf_trigger_alloc(cmd, &fake_hist_ops, file, NULL);
	d->filter_str = strdup(paf);	/* shown as the key text */
	ret = tf_trigger_register(file, d);
	if (ret)
		tf_trigger_free_unregistered(d);
	return ret;
}

static int unreg_one(struct tf_trigger *d, void *arg)
{
	tf_trigger_unregister(arg, d);
	return 0;
}

static void fake_hist_unreg_all(struct tf_event_file *file)
{
	tf_trigger_for_each(file, "hist", unreg_one, file);
}

static const struct tf_event_command fake_hist_cmd = {
	.name = "hist", .trigger_type = TF_ETT_EVENT_HIST,
	.flags = TF_CMD_NEEDS_REC | TF_CMD_ADD_TAIL,
	.parse = fake_hist_parse, .unreg_all = fake_hist_unreg_all,
};

/* ---- helpers ---- */

static struct tf_event_file *efile(struct tf_trace_array *tr,
				   const char *sys, const char *name)
{
	struct tf_event *ev = tf_registry_find(reg, sys, name);

	if (!ev) {
		fprintf(stderr, "no event %s:%s\n", sys, name);
		exit(2);
	}
	return tf_tr_file(tr, ev->index);
}

static long wr(struct tf_event_file *f, const char *s)
{
	long ret;

	pthread_mutex_lock(&tracing.lock);
	ret = tf_trigger_write(f, s, strlen(s));
	pthread_mutex_unlock(&tracing.lock);
	return ret < 0 ? ret : 0;
}

/* `>`: O_TRUNC, then the write (if any). */
static long wr_trunc(struct tf_event_file *f, const char *s)
{
	pthread_mutex_lock(&tracing.lock);
	tf_trigger_truncate(f);
	pthread_mutex_unlock(&tracing.lock);
	return *s ? wr(f, s) : 0;
}

static char *show(struct tf_event_file *f)
{
	struct strbuf sb = STRBUF_INIT;

	tf_trigger_show(f, &sb);
	return sb.buf ? sb_detach(&sb) : strdup("");
}

#define CHECK_SHOW(f, want) do {					\
	char *s_ = show(f);						\
	CHECK_STR(s_, want);						\
	free(s_);							\
} while (0)

/* error_log text without the "[timestamp] " prefixes; clears the log */
static char *error_log_text(struct tf_trace_array *tr)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *line, *save = NULL;

	tf_error_log_show(&tr->error_log, &sb);
	tf_error_log_clear(&tr->error_log);
	p = sb.buf ? sb.buf : (char *)"";
	for (line = strtok_r(p, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '[') {
			char *e = strstr(line, "] ");
			line = e ? e + 2 : line;
		}
		sb_puts(&out, line);
		sb_putc(&out, '\n');
	}
	sb_release(&sb);
	return out.buf ? sb_detach(&out) : strdup("");
}

static const char *errname(long e)
{
	switch (e) {
	case 0: return "OK";
	case -EEXIST: return "EEXIST";
	case -EINVAL: return "EINVAL";
	case -ENOENT: return "ENOENT";
	case -EPERM: return "EPERM";
	case -ESRCH: return "ESRCH";
	case -ERANGE: return "ERANGE";
	case -ENOMEM: return "ENOMEM";
	default: return "E?";
	}
}

static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* ---- the corpus: the kernel's answers, replayed ---- */

static void test_corpus(void)
{
	const char *srcdir = getenv("srcdir");
	char path[4096], line[8192], cmd[8192] = "";
	struct strbuf want = STRBUF_INIT, wantlog = STRBUF_INIT;
	struct tf_trace_array *tr;
	struct tf_event_file *f = NULL;
	long got = 0;
	unsigned nr = 0, bad = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/trigger-corpus/corpus.txt",
		 srcdir ? srcdir : ".");
	fp = fopen(path, "r");
	CHECK(fp != NULL);
	if (!fp)
		return;
	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "corpus", &tr), 0);
	pthread_mutex_unlock(&tracing.lock);
	while (fgets(line, sizeof(line), fp)) {
		char *arg = line + 2;

		line[strcspn(line, "\n")] = '\0';
		switch (line[0]) {
		case '@': {
			char *slash = strchr(arg, '/');

			*slash = '\0';
			f = efile(tr, arg, slash + 1);
			break;
		}
		case 'A':
		case 'W':
			snprintf(cmd, sizeof(cmd), "%s", arg);
			unescape(arg);
			got = line[0] == 'W' ? wr_trunc(f, arg) : wr(f, arg);
			nr++;
			break;
		case '=':
			check_run++;
			if (strcmp(errname(got), arg) != 0) {
				check_failed++;
				bad++;
				fprintf(stderr, "corpus: '%s' -> %s, want %s\n",
					cmd, errname(got), arg);
			}
			break;
		case '|':
			sb_puts(&want, arg);
			sb_putc(&want, '\n');
			break;
		case '.': {
			char *s = show(f);

			check_run++;
			if (strcmp(s, want.buf ? want.buf : "") != 0) {
				check_failed++;
				bad++;
				fprintf(stderr, "corpus: after '%s' reads\n%s"
					"want\n%s", cmd, s, want.buf);
			}
			free(s);
			sb_reset(&want);
			break;
		}
		case 'L':
			if (line[1] == '.') {
				char *s = error_log_text(tr);

				check_run++;
				if (strcmp(s, wantlog.buf ? wantlog.buf : "")) {
					check_failed++;
					bad++;
					fprintf(stderr, "corpus: error_log\n%s"
						"want\n%s", s, wantlog.buf);
				}
				free(s);
				sb_reset(&wantlog);
			} else {
				sb_puts(&wantlog, arg);
				sb_putc(&wantlog, '\n');
			}
			break;
		}
	}
	fclose(fp);
	printf("corpus: %u commands, %u mismatches\n", nr, bad);
	CHECK(nr >= 100);
	pthread_mutex_lock(&tracing.lock);
	tf_trigger_clear_all(tr);
	CHECK_INT(tf_instance_remove(&tracing, "corpus"), 0);
	pthread_mutex_unlock(&tracing.lock);
	sb_release(&want);
	sb_release(&wantlog);
}

/* ---- the event path, as dispatch.c runs it (see the report) ---- */

static void dispatch(struct tf_event_file *file, const struct tf_record *rec)
{
	struct tf_trace_array *tr = file->tr;
	unsigned flags = atomic_load(&file->flags), tt = 0, swaps;
	struct tf_ring_buffer *rb;

	tf_rcu_read_lock();
	if (!(flags & TF_FILE_ENABLED))
		goto out;
	if (!(flags & TF_FILE_TRIGGER_COND)) {
		if (flags & TF_FILE_TRIGGER_MODE)
			tf_triggers_call(file, NULL);
		if (flags & TF_FILE_SOFT_DISABLED)
			goto out;
		if (atomic_load(&tr->tracing_on))
			tf_ring_buffer_write(tr->buffer, rec->cpu, rec->ts,
					     rec->data, rec->size);
		goto out;
	}
	/* reserve (tracing_on decides now), triggers, then commit */
	swaps = tf_trigger_snapshot_swaps;
	rb = atomic_load(&tr->tracing_on) ? tr->buffer : NULL;
	tt = tf_triggers_call(file, rec);
	if (atomic_load(&file->flags) & TF_FILE_SOFT_DISABLED)
		goto post;
	if (rb) {
		rb = tf_trigger_reserved_buffer(tr, swaps);
		tf_ring_buffer_write(rb, rec->cpu, rec->ts, rec->data,
				     rec->size);
	}
post:
	if (tt)
		tf_triggers_post_call(file, tt, rec);
out:
	tf_rcu_read_unlock();
}

/* A sched_process_hang/sched_kthread_stop record: __data_loc comm, pid. */
struct hang_rec {
	uint8_t data[64];
	struct tf_record rec;
};

static void make_rec(struct hang_rec *h, struct tf_event_file *f,
		     const char *comm, int pid)
{
	uint16_t type = (uint16_t)f->event->id;
	uint16_t len = (uint16_t)(strlen(comm) + 1);
	uint32_t loc = (uint32_t)len << 16 | 16;
	int32_t p = pid;

	memset(h, 0, sizeof(*h));
	memcpy(h->data, &type, 2);
	memcpy(h->data + 4, &p, 4);
	memcpy(h->data + 8, &loc, 4);
	memcpy(h->data + 12, &p, 4);
	memcpy(h->data + 16, comm, len);
	h->rec.event = f->event;
	h->rec.data = h->data;
	h->rec.size = 16 + len;
	h->rec.ts = 1000;
}

static void fire(struct tf_event_file *f, const char *comm, int pid)
{
	struct hang_rec h;

	make_rec(&h, f, comm, pid);
	dispatch(f, &h.rec);
}

static uint64_t entries(struct tf_ring_buffer *rb)
{
	struct tf_rb_stats st;

	if (!rb)
		return 0;
	tf_ring_buffer_stats(rb, -1, &st);
	return st.entries;
}

static const char *en(struct tf_event_file *f)
{
	return tf_event_enable_str(f);
}

/* ---- behaviours ---- */

static void test_available(void)
{
	struct tf_event_file *f = efile(tracing.top, "sched", "sched_switch");

	CHECK_INT(tf_trigger_register_command(&tracing, &fake_hist_cmd), 0);
	CHECK_INT(tf_trigger_register_command(&tracing, &fake_hist_cmd), 0);
	CHECK_SHOW(f, "# Available triggers:\n# traceon traceoff snapshot "
		   "stacktrace enable_event disable_event enable_hist "
		   "disable_hist hist\n");
	CHECK(tf_trigger_find_command(&tracing, "stacktrace") != NULL);
	CHECK(tf_trigger_find_command(&tracing, "nosuch") == NULL);
}

static void test_soft_mode_and_truncate(void)
{
	struct tf_trace_array *tr = tracing.top;
	struct tf_event_file *hang = efile(tr, "sched", "sched_process_hang");
	struct tf_event_file *fork = efile(tr, "sched", "sched_process_fork");

	CHECK_STR(en(hang), "0\n");
	CHECK_INT(wr(hang, "stacktrace:4"), 0);
	CHECK_STR(en(hang), "0*\n");
	CHECK(atomic_load(&hang->flags) & TF_FILE_TRIGGER_MODE);
	CHECK(atomic_load(&hang->flags) & TF_FILE_TRIGGER_COND);
	CHECK_INT(wr(hang, "enable_event:sched:sched_process_fork if "
		     "comm == \"x\""), 0);
	CHECK_STR(en(fork), "0*\n");
	CHECK_INT(wr(hang, "hist:keys=pid"), 0);
	CHECK_INT(wr(hang, "hist:keys=comm"), 0);
	/* hist triggers go at the tail, the others at the head */
	CHECK_SHOW(hang, "enable_event:sched:sched_process_fork:unlimited if "
		   "comm == \"x\"\nstacktrace:count=4\n"
		   "hist:keys=pid [active]\nhist:keys=comm [active]\n");
	/* `>` removes the hist triggers only (6.12) */
	CHECK_INT(wr_trunc(hang, "traceoff"), 0);
	CHECK_SHOW(hang, "traceoff:unlimited\nenable_event:sched:"
		   "sched_process_fork:unlimited if comm == \"x\"\n"
		   "stacktrace:count=4\n");
	CHECK_INT(wr(hang, "!traceon"), 0);	/* same kind as traceoff */
	CHECK_INT(wr(hang, "!stacktrace"), 0);
	CHECK(!(atomic_load(&hang->flags) & TF_FILE_TRIGGER_COND) == 0);
	CHECK_INT(wr(hang, "!disable_event:sched:sched_process_fork"), 0);
	CHECK_STR(en(fork), "0\n");
	CHECK_STR(en(hang), "0\n");
	CHECK(!(atomic_load(&hang->flags) &
		(TF_FILE_TRIGGER_MODE | TF_FILE_TRIGGER_COND)));
	CHECK_SHOW(hang, "# Available triggers:\n# traceon traceoff snapshot "
		   "stacktrace enable_event disable_event enable_hist "
		   "disable_hist hist\n");
	/* a trigger on an enabled event keeps it 1* and recorded */
	tf_event_enable_disable(hang, 1, false);
	CHECK_INT(wr(hang, "traceon"), 0);
	CHECK_STR(en(hang), "1*\n");
	CHECK_INT(wr(hang, "!traceon"), 0);
	CHECK_STR(en(hang), "1\n");
	tf_event_enable_disable(hang, 0, false);
	CHECK_STR(en(hang), "0\n");
}

static void test_parse_edges(void)
{
	struct tf_event_file *f = efile(tracing.top, "sched",
					"sched_process_hang");
	char big[5000];

	CHECK_INT(tf_trigger_write(f, "", 0), 0);
	memset(big, ' ', sizeof(big));
	memcpy(big, "traceon", 7);
	CHECK_INT(tf_trigger_write(f, big, 4096), -EINVAL);
	CHECK_INT(tf_trigger_write(f, big, 4095), 4095);
	CHECK_SHOW(f, "traceon:unlimited\n");
	CHECK_INT(wr(f, "!traceon"), 0);
	/* a NUL ends the command, as memdup_user_nul does */
	CHECK_INT(tf_trigger_write(f, "traceon\0junk", 12), 12);
	CHECK_SHOW(f, "traceon:unlimited\n");
	CHECK_INT(wr(f, "!traceon"), 0);
	CHECK_INT(wr(f, "traceon\n"), 0);
	CHECK_INT(wr(f, "!traceon\n"), 0);
	CHECK_INT(wr(f, "\n"), -EINVAL);
}

static void test_traceon_traceoff(void)
{
	struct tf_trace_array *tr;
	struct tf_event_file *hang, *kst;

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "fire", &tr), 0);
	pthread_mutex_unlock(&tracing.lock);
	hang = efile(tr, "sched", "sched_process_hang");
	kst = efile(tr, "sched", "sched_kthread_stop");

	/* traceoff is a post trigger: the record that turns tracing off is
	 * still recorded, the next ones are not */
	tf_event_enable_disable(hang, 1, false);
	CHECK_INT(wr(hang, "traceoff:1 if comm == \"off\""), 0);
	fire(hang, "hello", 1);
	fire(hang, "off", 2);
	fire(hang, "after", 3);
	CHECK_INT(atomic_load(&tr->tracing_on), 0);
	CHECK_INT(entries(tr->buffer), 2);
	CHECK_SHOW(hang, "traceoff:count=0 if comm == \"off\"\n");
	/* a count only goes down when the trigger changes something */
	atomic_store(&tr->tracing_on, 1);
	CHECK_INT(wr(hang, "!traceoff"), 0);
	CHECK_INT(wr(hang, "traceoff:2 if comm == \"x\""), 0);
	fire(hang, "a", 1);
	CHECK_SHOW(hang, "traceoff:count=2 if comm == \"x\"\n");
	fire(hang, "x", 1);
	fire(hang, "x", 1);	/* already off: not counted */
	CHECK_SHOW(hang, "traceoff:count=1 if comm == \"x\"\n");
	atomic_store(&tr->tracing_on, 1);
	fire(hang, "x", 1);
	atomic_store(&tr->tracing_on, 1);
	fire(hang, "x", 1);
	CHECK_SHOW(hang, "traceoff:count=0 if comm == \"x\"\n");
	CHECK_INT(atomic_load(&tr->tracing_on), 1);
	CHECK_INT(wr(hang, "!traceoff"), 0);
	tf_event_enable_disable(hang, 0, false);

	/* traceon fires on a soft-mode event while tracing is off, with
	 * or without a filter; the soft-mode event is not recorded */
	tf_ring_buffer_reset(tr->buffer, -1);
	CHECK_INT(wr(kst, "traceon:3"), 0);
	atomic_store(&tr->tracing_on, 0);
	fire(kst, "k", 1);
	CHECK_INT(atomic_load(&tr->tracing_on), 1);
	CHECK_SHOW(kst, "traceon:count=2\n");
	fire(kst, "k", 1);
	CHECK_SHOW(kst, "traceon:count=2\n");
	CHECK_INT(entries(tr->buffer), 0);
	CHECK_INT(wr(kst, "!traceon"), 0);
	CHECK_INT(wr(kst, "traceon if pid > 0"), 0);
	atomic_store(&tr->tracing_on, 0);
	fire(kst, "k", 0);
	CHECK_INT(atomic_load(&tr->tracing_on), 0);
	fire(kst, "k", 5);
	CHECK_INT(atomic_load(&tr->tracing_on), 1);
	CHECK_INT(wr(kst, "!traceon"), 0);
	CHECK_INT(entries(tr->buffer), 0);

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_remove(&tracing, "fire"), 0);
	pthread_mutex_unlock(&tracing.lock);
}

static void test_enable_event(void)
{
	struct tf_trace_array *tr = tracing.top;
	struct tf_event_file *hang = efile(tr, "sched", "sched_process_hang");
	struct tf_event_file *wake = efile(tr, "sched", "sched_wakeup");
	struct tf_event_file *waking = efile(tr, "sched", "sched_waking");

	CHECK_INT(wr(hang, "enable_event:sched:sched_wakeup:2"), 0);
	CHECK_STR(en(wake), "0*\n");
	fire(hang, "e1", 1);
	CHECK_STR(en(wake), "1*\n");
	CHECK_SHOW(hang, "enable_event:sched:sched_wakeup:count=1\n");
	fire(hang, "e2", 1);	/* already enabled: not counted */
	CHECK_SHOW(hang, "enable_event:sched:sched_wakeup:count=1\n");
	CHECK_INT(wr(hang, "disable_event:sched:sched_waking:2"), 0);
	fire(hang, "e3", 1);	/* already soft-disabled: not counted */
	CHECK_SHOW(hang, "disable_event:sched:sched_waking:count=2\n"
		   "enable_event:sched:sched_wakeup:count=1\n");
	CHECK_STR(en(waking), "0*\n");
	CHECK_INT(wr(hang, "!enable_event:sched:sched_wakeup"), 0);
	CHECK_INT(wr(hang, "!disable_event:sched:sched_waking"), 0);
	/* the kernel's quirk: fired, then removed, stays enabled */
	CHECK_STR(en(wake), "1\n");
	CHECK_STR(en(waking), "0\n");
	tf_event_enable_disable(wake, 0, false);

	tf_event_enable_disable(waking, 1, false);
	CHECK_INT(wr(hang, "disable_event:sched:sched_waking:1"), 0);
	CHECK_STR(en(waking), "1*\n");
	fire(hang, "d1", 1);
	CHECK_STR(en(waking), "0*\n");
	CHECK_SHOW(hang, "disable_event:sched:sched_waking:count=0\n");
	CHECK_INT(wr(hang, "!disable_event:sched:sched_waking"), 0);
	CHECK_STR(en(waking), "0\n");
	CHECK_STR(en(hang), "0\n");
	/* ftrace events cannot be targets; errors change nothing */
	CHECK_INT(wr(hang, "enable_event:ftrace:print"), -EINVAL);
	CHECK_INT(wr(hang, "enable_event:sched:sched_wakeup:x"), -EINVAL);
	CHECK_STR(en(wake), "0\n");
	CHECK_STR(en(hang), "0\n");
}

static void test_enable_hist(void)
{
	struct tf_trace_array *tr = tracing.top;
	struct tf_event_file *hang = efile(tr, "sched", "sched_process_hang");
	struct tf_event_file *kst = efile(tr, "sched", "sched_kthread_stop");

	CHECK_INT(wr(kst, "hist:keys=pid"), 0);
	CHECK_INT(wr(kst, "hist:keys=comm"), 0);
	CHECK_INT(wr(hang, "disable_hist:sched:sched_kthread_stop:1 if "
		     "comm == \"p\""), 0);
	CHECK_INT(wr(hang, "enable_hist:sched:sched_kthread_stop:2 if "
		     "comm == \"u\""), -EEXIST);
	fire(hang, "x", 1);
	CHECK_SHOW(kst, "hist:keys=pid [active]\nhist:keys=comm [active]\n");
	fire(hang, "p", 1);
	CHECK_SHOW(hang, "disable_hist:sched:sched_kthread_stop:count=0 if "
		   "comm == \"p\"\n");
	CHECK_SHOW(kst, "hist:keys=pid [paused]\nhist:keys=comm [paused]\n");
	CHECK_INT(wr(hang, "!enable_hist:sched:sched_kthread_stop"), 0);
	/* enable_hist counts every firing, paused or not */
	CHECK_INT(wr(hang, "enable_hist:sched:sched_kthread_stop:2"), 0);
	fire(hang, "u", 1);
	fire(hang, "u", 1);
	fire(hang, "u", 1);
	CHECK_SHOW(hang, "enable_hist:sched:sched_kthread_stop:count=0\n");
	CHECK_SHOW(kst, "hist:keys=pid [active]\nhist:keys=comm [active]\n");
	CHECK_INT(wr(hang, "!disable_hist:sched:sched_kthread_stop"), 0);
	CHECK_INT(wr_trunc(kst, ""), 0);
	CHECK_STR(en(kst), "0\n");
	CHECK_STR(en(hang), "0\n");
}

static void test_snapshot_stacktrace(void)
{
	struct tf_trace_array *tr = tracing.top;
	struct tf_event_file *hang = efile(tr, "sched", "sched_process_hang");
	static const uint64_t stack[3] = { 0x1000, 0x2000, 0x3000 };
	struct tf_rb_snapshot snap;
	struct hang_rec h;

	CHECK(tr->snapshot == NULL);
	CHECK_INT(wr(hang, "snapshot:1 if comm == \"snap\""), 0);
	CHECK(tr->snapshot != NULL);	/* arming allocates it */
	CHECK(tf_trigger_snapshot_armed(tr));
	tf_event_enable_disable(hang, 1, false);
	tf_ring_buffer_reset(tr->buffer, -1);
	fire(hang, "before", 1);
	fire(hang, "snap", 1);
	fire(hang, "after", 1);
	/* the record that triggers the swap goes with the old buffer into
	 * the snapshot (oracle: snapshot has before and snap) */
	CHECK_INT(entries(tr->snapshot), 2);
	CHECK_INT(entries(tr->buffer), 1);
	CHECK_SHOW(hang, "snapshot:count=0 if comm == \"snap\"\n");
	CHECK_INT(wr(hang, "!snapshot"), 0);
	CHECK(!tf_trigger_snapshot_armed(tr));
	CHECK(tr->snapshot != NULL);	/* disarming does not free it */

	/* stacktrace: a kernel_stack entry after the record */
	tf_ring_buffer_reset(tr->buffer, -1);
	CHECK_INT(wr(hang, "stacktrace:1"), 0);
	make_rec(&h, hang, "s1", 7);
	h.rec.stack = stack;
	h.rec.nr_stack = 3;
	dispatch(hang, &h.rec);
	dispatch(hang, &h.rec);
	CHECK_INT(entries(tr->buffer), 3);
	CHECK_INT(tf_ring_buffer_copy(tr->buffer, -1, 0, &snap), 0);
	if (snap.nr == 3) {
		const uint8_t *d = snap.entries[1].data;
		uint16_t type;
		int32_t size, pid;
		uint64_t c2;

		memcpy(&type, d, 2);
		memcpy(&pid, d + 4, 4);
		memcpy(&size, d + 8, 4);
		memcpy(&c2, d + 16 + 16, 8);
		CHECK_INT(type, tf_registry_find(reg, "ftrace",
						 "kernel_stack")->id);
		CHECK_INT(pid, 7);
		CHECK_INT(size, 3);
		CHECK_INT(c2, 0x3000);
		CHECK_INT(snap.entries[1].len, 16 + 3 * 8);
	}
	tf_rb_snapshot_release(&snap);
	CHECK_INT(wr(hang, "!stacktrace"), 0);
	tf_event_enable_disable(hang, 0, false);
	CHECK_STR(en(hang), "0\n");
}

static void test_snapshot_not_allocated(void)
{
	struct tf_trace_array *tr;
	struct tf_event_file *hang;
	struct tf_rb_snapshot snap;

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "sn", &tr), 0);
	pthread_mutex_unlock(&tracing.lock);
	hang = efile(tr, "sched", "sched_process_hang");
	CHECK_INT(wr(hang, "snapshot if comm == \"s\""), 0);
	/* `echo 0 > snapshot` frees it even while armed (6.12) */
	tf_ring_buffer_free(tr->snapshot);
	tr->snapshot = NULL;
	tf_event_enable_disable(hang, 1, false);
	fire(hang, "a", 1);
	fire(hang, "s", 1);
	fire(hang, "b", 1);
	CHECK_INT(atomic_load(&tr->tracing_on), 0);
	CHECK_INT(tf_ring_buffer_copy(tr->buffer, -1, 0, &snap), 0);
	/* a, the two messages, s (the kernel has s before the messages) */
	CHECK_INT(snap.nr, 4);
	if (snap.nr == 4) {
		uint64_t ip;

		CHECK_STR((const char *)snap.entries[1].data + 16,
			  "*** SNAPSHOT NOT ALLOCATED ***\n");
		CHECK_STR((const char *)snap.entries[2].data + 16,
			  "*** stopping trace here!   ***\n");
		memcpy(&ip, snap.entries[1].data + 8, 8);
		CHECK(ip == TF_SNAPSHOT_IP);
	}
	tf_rb_snapshot_release(&snap);
	pthread_mutex_lock(&tracing.lock);
	tf_trigger_clear_all(tr);
	CHECK_INT(tf_instance_remove(&tracing, "sn"), 0);
	pthread_mutex_unlock(&tracing.lock);
}

/* Adding and removing triggers while an ingest thread fires the event. */
static atomic_int stop_ingest;
static atomic_long fired;

static void *ingest(void *arg)
{
	struct tf_event_file *f = arg;
	struct hang_rec h;
	static const uint64_t stack[2] = { 1, 2 };

	make_rec(&h, f, "x", 1);
	h.rec.stack = stack;
	h.rec.nr_stack = 2;
	while (!atomic_load(&stop_ingest)) {
		dispatch(f, &h.rec);
		atomic_fetch_add(&fired, 1);
	}
	return NULL;
}

static void test_concurrent(void)
{
	struct tf_trace_array *tr;
	struct tf_event_file *hang, *wake;
	pthread_t th[2];

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "conc", &tr), 0);
	pthread_mutex_unlock(&tracing.lock);
	hang = efile(tr, "sched", "sched_process_hang");
	wake = efile(tr, "sched", "sched_wakeup");
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, ingest, hang);
	/* let the ingest threads start before the triggers churn: on a
	 * busy machine the loop below could end before they ran at all */
	while (atomic_load(&fired) < 100)
		sched_yield();
	for (int i = 0; i < 200; i++) {
		CHECK_INT(wr(hang, "stacktrace:5 if pid == 1"), 0);
		CHECK_INT(wr(hang, "enable_event:sched:sched_wakeup:3"), 0);
		CHECK_INT(wr(hang, "traceoff:2"), 0);
		CHECK_INT(wr(hang, "hist:keys=pid"), 0);
		CHECK_INT(wr(hang, "disable_hist:sched:sched_process_hang"), 0);
		atomic_store(&tr->tracing_on, 1);
		CHECK_INT(wr_trunc(hang, ""), 0);
		CHECK_INT(wr(hang, "!stacktrace"), 0);
		CHECK_INT(wr(hang, "!enable_event:sched:sched_wakeup"), 0);
		CHECK_INT(wr(hang, "!traceon"), 0);
		CHECK_INT(wr(hang, "!disable_hist:sched:sched_process_hang"), 0);
	}
	atomic_store(&stop_ingest, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	CHECK(atomic_load(&fired) > 0);
	CHECK_STR(en(hang), "0\n");
	/* fired enable_event then removed: the kernel leaves it enabled */
	tf_event_enable_disable(wake, 0, false);
	CHECK_STR(en(wake), "0\n");
	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_remove(&tracing, "conc"), 0);
	pthread_mutex_unlock(&tracing.lock);
}

static void test_clear_all(void)
{
	struct tf_trace_array *tr;
	struct tf_event_file *hang, *wake, *topwake;

	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_create(&tracing, "ti", &tr), 0);
	pthread_mutex_unlock(&tracing.lock);
	hang = efile(tr, "sched", "sched_process_hang");
	wake = efile(tr, "sched", "sched_wakeup");
	topwake = efile(tracing.top, "sched", "sched_wakeup");
	CHECK_INT(wr(hang, "enable_event:sched:sched_wakeup"), 0);
	CHECK_INT(wr(hang, "snapshot"), 0);
	CHECK_STR(en(wake), "0*\n");
	CHECK_STR(en(topwake), "0\n");	/* the instance's own event */
	pthread_mutex_lock(&tracing.lock);
	tf_trigger_clear_all(tr);
	pthread_mutex_unlock(&tracing.lock);
	CHECK_STR(en(wake), "0\n");
	CHECK_STR(en(hang), "0\n");
	CHECK(!tf_trigger_snapshot_armed(tr));
	pthread_mutex_lock(&tracing.lock);
	CHECK_INT(tf_instance_remove(&tracing, "ti"), 0);
	pthread_mutex_unlock(&tracing.lock);
}

static void test_kstrtoul(void)
{
	unsigned long v = 0;

	CHECK_INT(tf_trigger_kstrtoul("0x1f", &v), 0);
	CHECK_INT(v, 31);
	CHECK_INT(tf_trigger_kstrtoul("017", &v), 0);
	CHECK_INT(v, 15);
	CHECK_INT(tf_trigger_kstrtoul("+5", &v), 0);
	CHECK_INT(v, 5);
	CHECK_INT(tf_trigger_kstrtoul("08", &v), -EINVAL);
	CHECK_INT(tf_trigger_kstrtoul("0x", &v), -EINVAL);
	CHECK_INT(tf_trigger_kstrtoul("0", &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(tf_trigger_kstrtoul("18446744073709551616", &v), -ERANGE);
	CHECK_INT(tf_trigger_kstrtoul("5\n", &v), 0);
	CHECK_INT(tf_trigger_kstrtoul("", &v), -EINVAL);
}

/* ---- tf_trigger_defer(): work put off within a batch ------------------- */

static unsigned applied[64], n_applied;

static void note_applied(struct tf_deferred *d)
{
	applied[n_applied++] = (unsigned)d->data[0];
}

static void defer_n(unsigned from, unsigned n)
{
	for (unsigned i = from; i < from + n; i++) {
		struct tf_deferred *d = tf_trigger_defer();

		CHECK(d != NULL);
		d->apply = note_applied;
		d->data[0] = i;
	}
}

static void test_defer(void)
{
	/* outside a batch: no place, the caller works at once */
	CHECK(tf_trigger_defer() == NULL);
	/* up to TF_DEFERRED_MAX wait; the next ones push the oldest out */
	tf_triggers_batch_begin();
	defer_n(0, TF_DEFERRED_MAX);
	CHECK_INT(n_applied, 0);
	defer_n(TF_DEFERRED_MAX, 3);
	CHECK_INT(n_applied, 3);
	/* the end applies the rest, in order */
	tf_triggers_batch_end();
	CHECK_INT(n_applied, TF_DEFERRED_MAX + 3);
	for (unsigned i = 0; i < n_applied; i++)
		CHECK_INT(applied[i], i);
	CHECK(tf_trigger_defer() == NULL);
	/* a new batch starts empty; one begun inside it is part of it */
	n_applied = 0;
	tf_triggers_batch_begin();
	defer_n(100, 1);
	tf_triggers_batch_begin();
	tf_triggers_batch_end();
	CHECK_INT(n_applied, 0);
	defer_n(101, 1);
	tf_triggers_batch_end();
	CHECK_INT(n_applied, 2);
	CHECK_INT(applied[0], 100);
	CHECK_INT(applied[1], 101);
}

int main(void)
{
	const char *srcdir = getenv("srcdir");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/data/formats", srcdir ? srcdir : ".");
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "test") < 0) {
		fprintf(stderr, "cannot load %s\n", path);
		return 99;
	}
	close(fd);
	if (tf_tracing_init(&tracing, reg, 1) < 0)
		return 99;
	test_kstrtoul();
	test_available();
	test_parse_edges();
	test_corpus();
	test_soft_mode_and_truncate();
	test_traceon_traceoff();
	test_enable_event();
	test_enable_hist();
	test_snapshot_stacktrace();
	test_snapshot_not_allocated();
	test_clear_all();
	test_concurrent();
	test_defer();
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	return check_done("test_trigger");
}
