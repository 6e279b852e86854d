// SPDX-License-Identifier: GPL-2.0
/*
 * test_synth.c - synthetic events without FUSE: the records
 * tf_synth_trace() generates print in `trace` as the kernel's did
 * (tests/oracle/synth-trace.out, "=== raw" sections, from hist onmatch()
 * actions on Linux 6.12), removal leaves indices and ids to later
 * events, events come and go while other threads dispatch and render,
 * and 10,000 create/remove cycles leave no memory behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "buffer/ring_buffer.h"
#include "dispatch/dispatch.h"
#include "events/ksyms.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "fs/files.h"
#include "fs/tree.h"
#include "synth/synth.h"
#include "util/kstrto.h"
#include "util/rcu.h"

#ifndef FORMATS_DIR
#define FORMATS_DIR "tests/oracle/formats-6.12"
#endif
#ifndef GOLDEN
#define GOLDEN "tests/oracle/synth-trace.out"
#endif

static struct tf_registry *reg;
static struct tf_tracing tracing;

static char *slurp(const char *path)
{
	return tf_read_file_at(AT_FDCWD, path, NULL);
}

static struct tf_registry *load(void)
{
	struct tf_registry *r = NULL;
	int fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	char *order = slurp(FORMATS_DIR "/available_events");

	CHECK(fd >= 0);
	CHECK_INT(tf_registry_load(&r, fd, order, "test"), 0);
	free(order);
	close(fd);
	return r;
}

/* One write to synthetic_events (or dynamic_events), under the lock. */
static long synth_cmd(const char *cmd)
{
	long ret;

	pthread_mutex_lock(&tracing.lock);
	ret = tf_synth_events_write(&tracing, cmd, strlen(cmd));
	pthread_mutex_unlock(&tracing.lock);
	return ret;
}

static struct tf_event_file *top_file(const char *name)
{
	struct tf_synth_event *se = tf_synth_find(&tracing, name);

	return se ? tf_tr_file(tracing.top, se->event->index) : NULL;
}

static void enable(const char *name, int on)
{
	pthread_mutex_lock(&tracing.lock);
	tf_event_enable_disable(top_file(name), on, false);
	pthread_mutex_unlock(&tracing.lock);
}

/* The data lines of `trace` (the top level), as cat shows them; NULL
 * if rendering fails (no CHECK here: other threads call it). */
static char *trace_lines(void)
{
	struct tf_open o = {
		.node = { .t = &tracing, .tr = tracing.top,
			  .kind = TF_N_FILE_ROOT },
	};
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *p;

	if (tf_trace_show(&o, &sb) != 0) {
		sb_release(&sb);
		return NULL;
	}
	sb_putc(&sb, '\0');
	for (p = sb.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (*p != '#')
			sb_add(&out, p, n);
		p += n;
	}
	sb_release(&sb);
	sb_putc(&out, '\0');
	return sb_detach(&out);
}

/* ---- the golden: "=== raw NAME" sections of synth-trace.out ---- */

static char *golden;

/* The lines of section @name (without the header), NUL-ended copy. */
static char *raw_section(const char *name)
{
	char head[128];
	const char *p, *end;

	snprintf(head, sizeof(head), "\n=== raw %s\n", name);
	p = golden ? strstr(golden, head) : NULL;
	if (!p)
		return NULL;
	p += strlen(head);
	for (end = p; *end; end = strchr(end, '\n') + 1) {
		if (!strncmp(end, "=== ", 4) || !strncmp(end, "#####", 5) ||
		    !strncmp(end, "W ", 2) || !strncmp(end, "A ", 2) ||
		    !strncmp(end, "--- ", 4) || !strchr(end, '\n'))
			break;
	}
	return strndup(p, (size_t)(end - p));
}

/* The golden's lines of synthetic events (each with what follows it up
 * to the next trace line: a stack's frames). */
static char *synth_lines(const char *section)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = section;
	bool keep = false;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		bool trace_line = strstr(p, "] ") && (size_t)(strstr(p, "] ") -
					p) < n && p[0] == ' ';

		if (trace_line)
			keep = !memmem(p, n, "tracing_mark_write", 18);
		if (keep)
			sb_add(&out, p, n);
		p += n;
	}
	sb_putc(&out, '\0');
	return sb_detach(&out);
}

/* The context of a golden trace line: comm, pid and time stamp. */
struct ctx {
	char comm[17];
	int pid;
	uint64_t ts;
};

/* Parses "            bash-147     [000] ...2.     3.420253: ev1: ..."
 * and finds the value of "@key=" in the event text. */
static bool parse_line(const char *text, const char *event, struct ctx *c)
{
	char ev[64], line[512];
	const char *p = line;
	unsigned long sec, usec;
	int n = 0;

	/* this line only */
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(text, "\n"), text);
	while (*p == ' ')
		p++;
	snprintf(ev, sizeof(ev), " %s: ", event);
	if (line[0] != ' ' || !strstr(line, ev))
		return false;
	if (sscanf(p, "%16[^ ]", c->comm) != 1)
		return false;
	/* the comm is up to the last '-' before the pid */
	char *dash = strrchr(c->comm, '-');

	if (!dash)
		return false;
	c->pid = atoi(dash + 1);
	*dash = '\0';
	p = strstr(p, "] ");
	if (!p || sscanf(p + 2, "%*s %lu.%lu:%n", &sec, &usec, &n) != 2)
		return false;
	c->ts = (uint64_t)sec * 1000000000ull + (uint64_t)usec * 1000ull;
	return true;
}

static uint64_t value_of(const char *line, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), " %s=", key);
	p = strstr(line, k);
	if (p && memchr(line, '\n', (size_t)(p - line)))
		p = NULL;	/* not on this line */
	return p ? strtoull(p + strlen(k), NULL, 10) : 0;
}

static char *string_of(const char *line, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), " %s=", key);
	p = strstr(line, k);
	if (!p || memchr(line, '\n', (size_t)(p - line)))
		return strdup("");
	p += strlen(k);
	return strndup(p, strcspn(p, " \n"));
}

/* A record of @system:@name from @c's task, as the cause of an action:
 * just its common header (the cause's flags and depth are 0 here, as
 * the kernel's were). */
struct cause {
	uint8_t data[64];
	struct tf_record rec;
};

static void make_cause(struct cause *k, const char *system, const char *name,
		       const struct ctx *c, const char *comm)
{
	struct tf_event *ev = tf_registry_find(reg, system, name);
	uint16_t type = (uint16_t)ev->id;
	int32_t pid = c->pid;

	memset(k, 0, sizeof(*k));
	memcpy(k->data, &type, 2);
	memcpy(k->data + 4, &pid, 4);
	k->rec = (struct tf_record){
		.event = ev, .data = k->data, .size = sizeof(k->data),
		.ts = c->ts, .cpu = 0, .comm = comm,
	};
}

static void trace_one(const char *name, const uint64_t *vals, unsigned n,
		      const struct tf_record *cause)
{
	unsigned idx[TF_SYNTH_FIELDS_MAX];

	for (unsigned i = 0; i < n; i++)
		idx[i] = i;
	tf_rcu_read_lock();
	tf_synth_trace(&tracing, tf_synth_find(&tracing, name), vals, idx,
		       cause);
	tf_rcu_read_unlock();
}

static void set_verbose(bool on)
{
	if (on)
		atomic_fetch_or(&tracing.top->trace_flags, TF_TRACE_VERBOSE);
	else
		atomic_fetch_and(&tracing.top->trace_flags, ~TF_TRACE_VERBOSE);
}

static void clear_trace(void)
{
	tf_trace_array_reset(tracing.top);
}

/* Checks @section's synthetic lines (verbose too) against what @gen
 * makes of them. */
static void compare_section(const char *section, void (*gen)(const char *))
{
	char *raw = raw_section(section), *want, *got;

	CHECK(raw != NULL);
	if (!raw)
		return;
	want = synth_lines(raw);
	clear_trace();
	gen(raw);
	got = trace_lines();
	CHECK_STR(got, want);
	free(got);
	free(want);
	free(raw);
}

/* ev1 int pid; u64 lat; unsigned long ip, from a trace_marker write */
static void gen_marker(const char *raw)
{
	struct ctx c;
	struct cause k;
	const char *l;

	for (l = raw; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		uint64_t v[3];

		if (!parse_line(l, "ev1", &c))
			continue;
		v[0] = value_of(l, "pid");
		v[1] = value_of(l, "lat");
		v[2] = value_of(l, "ip");
		make_cause(&k, "ftrace", "print", &c, c.comm);
		trace_one("ev1", v, 3, &k.rec);
	}
}

/* ev2 char comm[16]; char dcomm[]; pid_t child; u64 lat; char fname[],
 * from sched_process_fork (a tracepoint: the depth is 3 more) */
static void gen_fork(const char *raw)
{
	struct ctx c;
	struct cause k;
	const char *l;

	for (l = raw; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *comm, *dcomm, *fname;
		uint64_t v[5];

		if (!parse_line(l, "ev2", &c))
			continue;
		comm = string_of(l, "comm");
		dcomm = string_of(l, "dcomm");
		fname = string_of(l, "fname");
		v[0] = (uintptr_t)comm;
		v[1] = (uintptr_t)dcomm;
		v[2] = value_of(l, "child");
		v[3] = value_of(l, "lat");
		v[4] = (uintptr_t)fname;
		make_cause(&k, "sched", "sched_process_fork", &c, c.comm);
		trace_one("ev2", v, 5, &k.rec);
		free(comm);
		free(dcomm);
		free(fname);
	}
}

/* The two frames of the golden's stacks, at addresses of ours with the
 * symbol sizes the golden shows (tf_ksyms: a symbol ends where the next
 * begins). */
#define SYM_A 0xffffffff81a00000ull
#define SYM_B 0xffffffff81c00000ull
static const uint64_t stack[] = { 2, SYM_A + 0x87, SYM_B + 0x76, 0 };

static void add_stack_syms(void)
{
	static const struct tf_ksym syms[] = {
		{ SYM_A, "do_syscall_64", "", 0 },
		{ SYM_A + 0x180, "after_do_syscall_64", "", 0 },
		{ SYM_B, "entry_SYSCALL_64_after_hwframe", "", 0 },
		{ SYM_B + 0x7e, "after_entry", "", 0 },
	};

	CHECK_INT(tf_ksyms_add_file(reg->ksyms, syms, 4), 0);
}

/* ev4 unsigned long[] st; u64 lat and ev8 u64 lat; long[] st */
static void gen_stacks(const char *raw)
{
	struct ctx c;
	struct cause k;
	const char *l;

	for (l = raw; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		uint64_t v[2];
		/* lat is on the line after the frames for ev4 */
		const char *lat = strstr(l, "lat=");

		if (parse_line(l, "ev4", &c)) {
			v[0] = (uintptr_t)stack;
			v[1] = lat ? strtoull(lat + 4, NULL, 10) : 0;
			make_cause(&k, "ftrace", "print", &c, c.comm);
			trace_one("ev4", v, 2, &k.rec);
		} else if (parse_line(l, "ev8", &c)) {
			v[0] = value_of(l, "lat");
			v[1] = (uintptr_t)stack;
			make_cause(&k, "ftrace", "print", &c, c.comm);
			trace_one("ev8", v, 2, &k.rec);
		}
	}
}

/* ev9 u64 l2, from ev4's trigger: its cause is ev4's record, whose
 * depth is the marker's 2 (ev4 itself only recorded when enabled) */
static void gen_chain(const char *raw)
{
	const char *l;
	struct ctx c;

	for (l = raw; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		uint8_t data[64] = { 0 };
		struct tf_record cause;
		struct cause k;
		uint64_t v[2];

		if (parse_line(l, "ev4", &c)) {
			const char *lat = strstr(l, "lat=");

			v[0] = (uintptr_t)stack;
			v[1] = lat ? strtoull(lat + 4, NULL, 10) : 0;
			make_cause(&k, "ftrace", "print", &c, c.comm);
			trace_one("ev4", v, 2, &k.rec);
			continue;
		}
		if (!parse_line(l, "ev9", &c))
			continue;
		make_cause(&k, "ftrace", "print", &c, c.comm);
		/* what ev4's record header holds: made from the marker */
		cause = k.rec;
		cause.event = tf_synth_find(&tracing, "ev4")->event;
		memcpy(data, k.data, 8);
		data[3] = 2;
		cause.data = data;
		v[0] = value_of(l, "l2");
		trace_one("ev9", v, 1, &cause);
	}
}

static void test_golden(void)
{
	/* the script's events, in its order: the same ids */
	CHECK(synth_cmd("ev1 int pid; u64 lat; unsigned long ip") > 0);
	CHECK(synth_cmd("ev2 char comm[16]; char dcomm[]; pid_t child; "
			"u64 lat; char fname[]") > 0);
	CHECK(synth_cmd("ev4 unsigned long[] st; u64 lat") > 0);
	CHECK(synth_cmd("ev8 u64 lat; long[] st") > 0);
	CHECK(synth_cmd("ev9 u64 l2") > 0);
	CHECK(synth_cmd("ev6 unsigned long g; u64 lat") > 0);
	add_stack_syms();

	enable("ev1", 1);
	compare_section("marker", gen_marker);
	set_verbose(true);
	compare_section("marker-verbose", gen_marker);
	set_verbose(false);
	enable("ev1", 0);

	enable("ev2", 1);
	compare_section("fork", gen_fork);
	set_verbose(true);
	compare_section("fork-verbose", gen_fork);
	set_verbose(false);
	enable("ev2", 0);

	enable("ev4", 1);
	enable("ev8", 1);
	compare_section("stacks", gen_stacks);
	set_verbose(true);
	compare_section("stacks-verbose", gen_stacks);
	set_verbose(false);
	enable("ev8", 0);

	enable("ev9", 1);
	compare_section("chain", gen_chain);
	enable("ev4", 0);
	compare_section("chain-soft", gen_chain);
	enable("ev9", 0);
}

/* gfp_t fields print their flags with the names of the schemas'
 * kmem:kmalloc print fmt: the golden pairs kmalloc's text with the
 * value (through an unsigned long field) */
static void test_gfp(void)
{
	char *raw = raw_section("gfp");
	const char *l;
	unsigned n = 0;

	CHECK(raw != NULL);
	CHECK(synth_cmd("gt gfp_t g; gfp_t h") > 0);
	enable("gt", 1);
	for (l = raw; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1
						   : NULL) {
		char flags[256], want[1024], *got;
		unsigned long long g;
		struct ctx c = { "bash", 147, 5000000000ull };
		struct cause k;
		uint64_t v[2];

		if (sscanf(l, "gfp_flags=%255s g=%llu", flags, &g) != 2)
			continue;
		clear_trace();
		v[0] = g;
		v[1] = g;
		make_cause(&k, "ftrace", "print", &c, "bash");
		trace_one("gt", v, 2, &k.rec);
		/* print_synth_event(): "name=%x", the separator, then
		 * " (flags)": two blanks before a field's flags but the
		 * last's */
		snprintf(want, sizeof(want), "            bash-147     [000] "
			 "...2.     5.000000: gt: g=%llx  (%s)h=%llx (%s)\n",
			 g, flags, g, flags);
		got = trace_lines();
		CHECK_STR(got, want);
		free(got);
		n++;
	}
	CHECK(n >= 1);
	enable("gt", 0);
	CHECK_INT(synth_cmd("!gt"), 3);
	free(raw);
}

/*
 * A record of a removed event prints as "Unknown type N"; an event that
 * takes its id later prints it with its own fields, reading the old
 * record's bytes (and, past its end, zeros here: the kernel reads what
 * the page holds there, so b and c are not compared).
 */
static void test_removed_records(void)
{
	char *raw = raw_section("removed"), *reused = raw_section("reused");
	char *got, *want, *p;
	const char *l;
	struct ctx c;
	struct cause k;
	uint64_t v[1] = { 0 };

	CHECK(raw && reused);
	if (!raw || !reused)
		goto out;
	CHECK(synth_cmd("r1 u64 lat") > 0);
	CHECK_INT(tf_synth_find(&tracing, "r1")->event->id, 1560);
	enable("r1", 1);
	clear_trace();
	for (l = reused; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (parse_line(l, "r3", &c)) {
			v[0] = value_of(l, "a");
			make_cause(&k, "ftrace", "print", &c, c.comm);
			trace_one("r1", v, 1, &k.rec);
		}
	enable("r1", 0);
	CHECK(synth_cmd("!r1") > 0);
	got = trace_lines();
	want = synth_lines(raw);
	CHECK_STR(got, want);
	free(got);
	free(want);
	CHECK(synth_cmd("r3 u64 a; u64 b; u64 c") > 0);
	CHECK_INT(tf_synth_find(&tracing, "r3")->event->id, 1560);
	got = trace_lines();
	want = synth_lines(reused);
	p = strstr(want, " b=");
	if (p)
		strcpy(p, " b=0 c=0\n");
	CHECK_STR(got, want);
	free(got);
	free(want);
	CHECK(synth_cmd("!r3") > 0);
out:
	free(raw);
	free(reused);
}

/*
 * A record's bytes are its own: records are built in a buffer reused per
 * thread, so a short string after a long one must leave zeros, not the
 * long one's tail, in its char[N] slot (whose STR_VAR_LEN_MAX bytes the
 * record carries whole) and no dynamic bytes of the record before.
 */
static void test_record_bytes(void)
{
	static const char longer[] __attribute__((aligned(8))) =
		"abcdefghijklmnopqrstuvwxyz0123456789";
	static const char shorter[] __attribute__((aligned(8))) = "ab";
	struct tf_rb_snapshot snap = { 0 };
	struct ctx c = { .pid = 42, .ts = 1000 };
	struct cause k;
	uint64_t v[3];

	CHECK(synth_cmd("zb char[16] s; u64 n; char[] d") > 0);
	enable("zb", 1);
	clear_trace();
	make_cause(&k, "sched", "sched_switch", &c, "zz");
	v[0] = (uint64_t)(uintptr_t)longer;
	v[1] = 7;
	v[2] = (uint64_t)(uintptr_t)longer;
	trace_one("zb", v, 3, &k.rec);
	v[0] = (uint64_t)(uintptr_t)shorter;
	v[1] = 8;
	v[2] = (uint64_t)(uintptr_t)shorter;
	trace_one("zb", v, 3, &k.rec);
	CHECK_INT(tf_ring_buffer_copy(tracing.top->buffer, -1, 0, &snap), 0);
	CHECK_INT((int)snap.nr, 2);
	if (snap.nr == 2) {
		const uint8_t *d = snap.entries[1].data;
		uint64_t n;
		uint32_t loc;
		bool zeros = true;

		/* header, s (256 bytes), n, d's data_loc, then d's bytes */
		CHECK_INT(snap.entries[1].len, 8 + 256 + 8 + 8 + 3);
		CHECK(memcmp(d + 8, "ab", 3) == 0);
		for (unsigned i = 8 + 3; i < 8 + 256; i++)
			zeros &= d[i] == 0;
		CHECK(zeros);
		memcpy(&n, d + 8 + 256, 8);
		CHECK_INT(n, 8);
		memcpy(&loc, d + 8 + 264, 4);
		CHECK_INT(loc, 3u << 16 | 280);
		CHECK(memcmp(d + 8 + 264 + 4, "\0\0\0\0", 4) == 0);
		CHECK(memcmp(d + 280, "ab", 3) == 0);
		/* the first record's own bytes are all there */
		CHECK_INT(snap.entries[0].len, 280 + (int)sizeof(longer));
		CHECK(memcmp(snap.entries[0].data + 8, longer,
			     sizeof(longer)) == 0);
	}
	tf_rb_snapshot_release(&snap);
	enable("zb", 0);
	clear_trace();
	CHECK(synth_cmd("!zb") > 0);
}

/*
 * A number fills its u64 slot zero-extended past its size, whether the
 * record is built from the definition's lists (no dynamic field) or
 * field by field (with one).
 */
static void check_number_slots(const char *name, const char *def,
			       unsigned n_vals)
{
	static const char str[] __attribute__((aligned(8))) = "x";
	static const uint64_t want[4] = {
		0xff, 0xffff, 0xffffffff, ~0ull,
	};
	struct tf_rb_snapshot snap = { 0 };
	struct ctx c = { .pid = 42, .ts = 1000 };
	struct cause k;
	uint64_t v[5] = { ~0ull, ~0ull, ~0ull, ~0ull,
			  (uint64_t)(uintptr_t)str };
	char rm[16];

	CHECK(synth_cmd(def) > 0);
	enable(name, 1);
	clear_trace();
	make_cause(&k, "sched", "sched_switch", &c, "zz");
	trace_one(name, v, n_vals, &k.rec);
	CHECK_INT(tf_ring_buffer_copy(tracing.top->buffer, -1, 0, &snap), 0);
	CHECK_INT((int)snap.nr, 1);
	for (unsigned i = 0; snap.nr == 1 && i < 4; i++) {
		uint64_t slot;

		memcpy(&slot, snap.entries[0].data + 8 + 8 * i, 8);
		CHECK_INT(slot, want[i]);
	}
	tf_rb_snapshot_release(&snap);
	enable(name, 0);
	clear_trace();
	snprintf(rm, sizeof(rm), "!%s", name);
	CHECK(synth_cmd(rm) > 0);
}

static void test_number_slots(void)
{
	check_number_slots("zf", "zf u8 a; u16 b; u32 c; u64 d", 4);
	check_number_slots("zg", "zg u8 a; u16 b; u32 c; u64 d; char[] s", 5);
}

/* ---- removal: indices, generations, ids, list order ---- */

static void test_removal(void)
{
	struct tf_synth_event *a, *b;
	unsigned idx, nr;
	uint32_t gen;
	int id;

	clear_trace();
	CHECK(synth_cmd("ra u64 x") > 0);
	CHECK(synth_cmd("rb u64 x") > 0);
	a = tf_synth_find(&tracing, "ra");
	b = tf_synth_find(&tracing, "rb");
	idx = a->event->index;
	gen = a->event->gen;
	id = a->event->id;
	nr = reg->nr_events;
	CHECK(tf_synth_of_event(a->event) == a);
	CHECK(tf_synth_of_event(tf_registry_find(reg, "sched",
						 "sched_switch")) == NULL);
	/* the newest first in available_events */
	CHECK(tf_tr_list_first(tracing.top) == b->event);
	CHECK(tf_tr_list_next(tracing.top, b->event) == a->event);

	/* in use: EBUSY, nothing changes */
	a->ref++;
	CHECK_INT(synth_cmd("!ra"), -EBUSY);
	a->ref--;
	enable("ra", 1);
	CHECK_INT(synth_cmd("!ra"), -EBUSY);
	enable("ra", 0);
	CHECK(tf_synth_find(&tracing, "ra") == a);

	CHECK(synth_cmd("!ra") > 0);
	CHECK(tf_synth_find(&tracing, "ra") == NULL);
	CHECK(tf_registry_event(reg, idx) == NULL);
	CHECK(tf_registry_event_by_id(reg, id) == NULL);
	CHECK(tf_tr_file(tracing.top, idx)->event == NULL);

	/* the next event takes the index with a new generation, and the
	 * lowest free id */
	CHECK(synth_cmd("rc u64 y") > 0);
	a = tf_synth_find(&tracing, "rc");
	CHECK_INT(a->event->index, idx);
	CHECK_INT(a->event->gen, gen + 1);
	CHECK_INT(a->event->id, id);
	CHECK_INT(reg->nr_events, nr);
	/* made last, listed first, though its index is lower */
	CHECK(tf_tr_list_first(tracing.top) == a->event);
	CHECK(tf_tr_list_next(tracing.top, a->event) == b->event);

	/* an open file of the old event finds its event gone */
	{
		struct tf_node n = {
			.t = &tracing, .tr = tracing.top,
			.kind = TF_N_FILE_EVENT, .idx = idx << 8, .gen = gen,
		};

		CHECK(tf_node_event_gone(&n));
		n.gen = gen + 1;
		CHECK(!tf_node_event_gone(&n));
	}
	CHECK(synth_cmd("!rb") > 0);
	CHECK(synth_cmd("!rc") > 0);
}

/* ---- while others dispatch and render ---- */

static atomic_bool stop;
static atomic_long generated;

/* The hist side: holds a reference to "held" and generates it from
 * marker-like causes; also dispatches records of sched_switch. */
static void *generator(void *arg)
{
	struct tf_synth_event *se = arg;
	struct ctx c = { "gen", 42, 1 };
	struct cause k;
	unsigned idx[2] = { 0, 1 };
	char str[] = "a string";
	uint64_t v[2] = { 7, (uintptr_t)str };

	make_cause(&k, "ftrace", "print", &c, "gen");
	while (!atomic_load(&stop)) {
		k.rec.ts++;
		tf_rcu_read_lock();
		tf_synth_trace(&tracing, se, v, idx, &k.rec);
		tf_rcu_read_unlock();
		atomic_fetch_add(&generated, 1);
	}
	return NULL;
}

static atomic_long render_failures;

static void *renderer(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		char *t = trace_lines();

		if (!t)
			atomic_fetch_add(&render_failures, 1);
		free(t);
		pthread_mutex_lock(&tracing.lock);
		{
			struct strbuf sb = STRBUF_INIT;

			tf_synth_events_show(&tracing, &sb);
			tf_set_event_show(tracing.top, &sb);
			sb_release(&sb);
		}
		pthread_mutex_unlock(&tracing.lock);
	}
	return NULL;
}

static void test_concurrent(void)
{
	pthread_t g, r;
	struct tf_synth_event *held;

	CHECK(synth_cmd("held u64 n; char s[]") > 0);
	held = tf_synth_find(&tracing, "held");
	pthread_mutex_lock(&tracing.lock);
	held->ref++;		/* as a hist action does */
	pthread_mutex_unlock(&tracing.lock);
	enable("held", 1);
	atomic_store(&stop, false);
	pthread_create(&g, NULL, generator, held);
	pthread_create(&r, NULL, renderer, NULL);
	for (int i = 0; i < 300; i++) {
		char cmd[64], name[16];

		snprintf(name, sizeof(name), "c%d", i % 7);
		snprintf(cmd, sizeof(cmd), "%s u64 x; char s[%d]", name,
			 i % 200 + 1);
		CHECK(synth_cmd(cmd) > 0);
		if (i % 3 == 0) {	/* its removal resets the buffer */
			enable(name, 1);
			enable(name, 0);
		}
		snprintf(cmd, sizeof(cmd), "!%s", name);
		CHECK(synth_cmd(cmd) > 0);
		CHECK_INT(synth_cmd("!held"), -EBUSY);
	}
	/* on a loaded machine the generator may not have run yet */
	for (int i = 0; i < 10000 && !atomic_load(&generated); i++)
		usleep(1000);
	atomic_store(&stop, true);
	pthread_join(g, NULL);
	pthread_join(r, NULL);
	CHECK(atomic_load(&generated) > 0);
	CHECK_INT(atomic_load(&render_failures), 0);
	enable("held", 0);
	pthread_mutex_lock(&tracing.lock);
	held->ref--;
	pthread_mutex_unlock(&tracing.lock);
	CHECK(synth_cmd("!held") > 0);
}

/* ---- 10,000 cycles: no memory growth ---- */

static size_t in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static void test_cycles(void)
{
	const char *def = "cyc u64 lat; pid_t pid; char comm[16]; char s[]; "
			  "unsigned long[] st";
	unsigned nr = reg->nr_events;
	size_t before, after;

	/* warm up: chunks, the id table, error_log entries, the trace */
	for (int i = 0; i < 1000; i++) {
		CHECK(synth_cmd(def) > 0);
		CHECK(synth_cmd("!cyc") > 0);
	}
	before = in_use();
	for (int i = 0; i < 10000; i++) {
		if (synth_cmd(def) <= 0 || synth_cmd("!cyc") <= 0) {
			CHECK(0);
			break;
		}
	}
	after = in_use();
	printf("test_synth: 10000 create/remove cycles: %zu bytes in use "
	       "before, %zu after\n", before, after);
	CHECK(after <= before + 4096);
	CHECK(reg->nr_events <= nr + 1);	/* one index, reused */
}

int main(void)
{
	golden = slurp(GOLDEN);
	CHECK(golden != NULL);
	reg = load();
	CHECK_INT(tf_tracing_init(&tracing, reg, 1), 0);
	test_golden();
	test_gfp();
	test_removed_records();
	test_record_bytes();
	test_number_slots();
	test_removal();
	test_concurrent();
	test_cycles();
	tf_tracing_destroy(&tracing);
	tf_registry_free(reg);
	free(golden);
	return check_done("test_synth");
}
