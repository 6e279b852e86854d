// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - the trace.dat replay source (see replay.h and
 * docs/sources.md, "Replay").
 *
 * A replay has two phases.  Loading (at create time for `--source
 * replay:FILE`, before the registry is final) reads every buffer of the
 * file - the top level and every instance, merged in timestamp order
 * across buffers and CPUs by libtracecmd - and turns each record into
 * the mounted tree's layout for its event, into one in-memory arena:
 *
 *   - same layout and id as the tree's event: copied as is;
 *   - same layout, other id: copied, common_type patched;
 *   - other layout (recorded on another kernel): translated field by
 *     field by name (numbers converted by size and sign, strings copied,
 *     __data_loc rebuilt), fields the file lacks left zero;
 *   - an event the tree lacks: added to the registry from the file's own
 *     format text (with a fresh id if the file's collides), then copied;
 *     in a replay started later (tf_replay_run), added to the mounted
 *     tree with tf_tracing_add_event(), every trace array included.
 *
 * Dispatching (a thread started after mount) feeds the arena to
 * tf_dispatch() as fast as possible, or in real time scaled by `speed`,
 * `loop` times over.  Keeping the decoded records in memory makes loops
 * and real-time pacing cheap and keeps libtracecmd off the hot path; it
 * costs about the file's uncompressed event data in memory.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "dispatch/dispatch.h"
#include "events/ksyms.h"
#include "source/replay.h"
#include "source/replay_probe.h"
#include "source/trace_marker.h"
#include "source/source.h"
#include "util/rcu.h"
#include "util/strbuf.h"

/* libtracecmd exports it without declaring it in trace-cmd.h: the
 * file's UNAME option, "SYSNAME NODENAME RELEASE MACHINE" */
const char *tracecmd_get_uname(struct tracecmd_input *handle);

/* ---------------------------------------------------------------- */
/* Per file event: how its records become the tree's.               */

enum xmode { X_UNRESOLVED, X_SKIP, X_DIRECT, X_PATCH_ID, X_TRANSLATE };

enum xop_kind {
	OP_NUM,		/* integer: convert by size and sign */
	OP_BYTES,	/* same-kind opaque bytes or static string */
	OP_STR_DYN,	/* any string -> __data_loc char[] */
	OP_STR_STATIC,	/* any string -> char[N] */
	OP_DYN_ARRAY,	/* __data_loc array -> __data_loc array */
};

struct xop {
	enum xop_kind kind;
	unsigned soff, ssize, skind;	/* source field (file layout) */
	bool ssigned;
	unsigned doff, dsize;		/* destination field (tree layout) */
};

struct xlate {
	enum xmode mode;
	struct tf_event *tree;
	unsigned nr_ops;
	struct xop *ops;
	unsigned fixed;			/* tree record's fixed part */
};

/* One decoded record in the arena, followed by its data (8-aligned). */
struct rrec {
	uint64_t ts;
	const struct tf_event *event;
	const char *comm;
	uint32_t len;
	int32_t cpu;
};

struct comm_slot {
	int pid;
	char *comm;
};

struct replay {
	char *path;
	struct tf_replay_opts opts;
	bool start_on_read;		/* `start=read` */
	struct tf_registry *reg;
	bool may_add;			/* registry not final yet */
	/* a replay started later: events the tree lacks are added to the
	 * mounted tree (tf_tracing_add_event, under its control lock) */
	struct tf_tracing *grow;

	/* file */
	struct tracecmd_input *handle;
	struct tracecmd_input **handles;	/* top level + instances */
	int nr_handles;
	struct tep_handle *ftep;
	int page_size;			/* the file's sub-buffers' */
	struct xlate *x;		/* by file event id, 65536 */
	char *formats;			/* the file's format texts, lazily */
	char *release;			/* the recording kernel's, or NULL */
	size_t formats_len;
	unsigned added, skipped_events;

	/* comms from the file's saved cmdlines, interned */
	struct comm_slot *comms;
	unsigned comm_cap, nr_comms;

	/* arena */
	uint8_t *arena;
	size_t arena_len, arena_cap;
	size_t nr_records;
	unsigned long skipped;		/* records of events not replayed */
	uint8_t scratch[65536 + 4096];

	/* dispatching thread */
	struct tf_tracing *tracing;
	pthread_t thread;
	bool started, done, stopping;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* to the thread: drain/stop */
	pthread_cond_t progress;	/* from the thread */
	uint64_t caught_up;		/* monotonic ns: all due before are in */
	unsigned long dispatched;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------- */
/* Fields.                                                          */

static bool is_str(unsigned kind)
{
	return kind == TF_FIELD_STR_STATIC || kind == TF_FIELD_STR_DYN ||
	       kind == TF_FIELD_STR_REL;
}

static bool is_dyn(unsigned kind)
{
	return kind == TF_FIELD_STR_DYN || kind == TF_FIELD_STR_REL ||
	       kind == TF_FIELD_CPUMASK || kind == TF_FIELD_DYN_ARRAY;
}

/* The bytes a string or dynamic field of @data points at (len with NUL
 * for __data_loc strings, as the kernel stores it). */
static const uint8_t *src_bytes(const struct xop *op, const uint8_t *data,
				unsigned size, unsigned *len)
{
	uint32_t loc, off, n;

	if (op->skind == TF_FIELD_STR_STATIC || op->skind == TF_FIELD_ARRAY) {
		if (op->soff + op->ssize > size)
			return NULL;
		*len = op->skind == TF_FIELD_STR_STATIC ?
		       (unsigned)strnlen((const char *)data + op->soff,
					 op->ssize) : op->ssize;
		return data + op->soff;
	}
	if (op->soff + 4 > size)
		return NULL;
	memcpy(&loc, data + op->soff, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (op->skind == TF_FIELD_STR_REL)
		off += op->soff + 4;
	if (off + n > size)
		return NULL;
	*len = n;
	return data + off;
}

static uint64_t read_num(const uint8_t *p, unsigned size, bool sign)
{
	switch (size) {
	case 1: return sign ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
	case 2: { uint16_t v; memcpy(&v, p, 2);
		  return sign ? (uint64_t)(int64_t)(int16_t)v : v; }
	case 4: { uint32_t v; memcpy(&v, p, 4);
		  return sign ? (uint64_t)(int64_t)(int32_t)v : v; }
	case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
	default: return 0;
	}
}

static void write_num(uint8_t *p, unsigned size, uint64_t v)
{
	uint8_t b1 = (uint8_t)v;
	uint16_t b2 = (uint16_t)v;
	uint32_t b4 = (uint32_t)v;

	switch (size) {
	case 1: *p = b1; break;
	case 2: memcpy(p, &b2, 2); break;
	case 4: memcpy(p, &b4, 4); break;
	case 8: memcpy(p, &v, 8); break;
	}
}

/* Whether the file's event lays out its fields as the tree's does. */
static bool same_layout(const struct tf_event *tree, struct tep_event *fev)
{
	unsigned n = (unsigned)(fev->format.nr_common + fev->format.nr_fields);

	if (n != tree->nr_fields)
		return false;
	for (unsigned i = 0; i < tree->nr_fields; i++) {
		const struct tf_field *f = &tree->fields[i];
		struct tep_format_field *ff = tep_find_any_field(fev, f->name);

		if (!ff || (unsigned)ff->offset != f->offset ||
		    (unsigned)ff->size != f->size ||
		    tf_field_kind_of(ff) != f->kind ||
		    ((ff->flags & TEP_FIELD_IS_SIGNED) != 0) != f->is_signed)
			return false;
	}
	return true;
}

static int plan_translation(struct xlate *x, struct tep_event *fev)
{
	const struct tf_event *tree = x->tree;
	unsigned fixed = 0;

	x->ops = calloc(tree->nr_fields, sizeof(*x->ops));
	if (!x->ops)
		return -ENOMEM;
	for (unsigned i = 0; i < tree->nr_fields; i++) {
		const struct tf_field *f = &tree->fields[i];
		struct tep_format_field *ff;
		struct xop op;
		unsigned sk;

		if (f->offset + f->size > fixed)
			fixed = f->offset + f->size;
		if (strcmp(f->name, "common_type") == 0)
			continue;
		ff = tep_find_any_field(fev, f->name);
		if (!ff)
			continue;	/* stays zero */
		sk = tf_field_kind_of(ff);
		op = (struct xop) {
			.soff = (unsigned)ff->offset, .ssize = (unsigned)ff->size,
			.skind = sk, .ssigned = (ff->flags & TEP_FIELD_IS_SIGNED),
			.doff = f->offset, .dsize = f->size,
		};
		if (f->kind == TF_FIELD_NUM && sk == TF_FIELD_NUM)
			op.kind = OP_NUM;
		else if (f->kind == TF_FIELD_STR_DYN && is_str(sk))
			op.kind = OP_STR_DYN;
		else if (f->kind == TF_FIELD_STR_STATIC && is_str(sk))
			op.kind = OP_STR_STATIC;
		else if (is_dyn(f->kind) && f->kind == sk)
			op.kind = OP_DYN_ARRAY;
		else if (f->kind == sk && !is_dyn(sk))
			op.kind = OP_BYTES;
		else
			continue;	/* incompatible: stays zero */
		x->ops[x->nr_ops++] = op;
	}
	x->fixed = (fixed + 3) & ~3u;
	return 0;
}

/* Builds @data in the tree's layout into @out; returns its size or 0. */
static unsigned translate(const struct xlate *x, const uint8_t *data,
			  unsigned size, uint8_t *out, unsigned cap)
{
	unsigned end = x->fixed;
	uint16_t id = (uint16_t)x->tree->id;

	if (end > cap)
		return 0;
	memset(out, 0, end);
	memcpy(out, &id, 2);
	for (unsigned i = 0; i < x->nr_ops; i++) {
		const struct xop *op = &x->ops[i];
		const uint8_t *s;
		unsigned len;
		uint32_t loc;

		switch (op->kind) {
		case OP_NUM:
			if (op->soff + op->ssize <= size)
				write_num(out + op->doff, op->dsize,
					  read_num(data + op->soff, op->ssize,
						   op->ssigned));
			break;
		case OP_BYTES:
			if (op->soff + op->ssize <= size)
				memcpy(out + op->doff, data + op->soff,
				       op->ssize < op->dsize ? op->ssize
							     : op->dsize);
			break;
		case OP_STR_STATIC:
			s = src_bytes(op, data, size, &len);
			if (!s || !op->dsize)
				break;
			len = (unsigned)strnlen((const char *)s, len);
			if (len > op->dsize - 1)
				len = op->dsize - 1;
			memcpy(out + op->doff, s, len);
			break;
		case OP_STR_DYN:
		case OP_DYN_ARRAY:
			s = src_bytes(op, data, size, &len);
			if (!s)
				len = 0;
			if (op->kind == OP_STR_DYN) {
				/* the kernel stores the NUL and counts it */
				if (s)
					len = (unsigned)strnlen((const char *)s,
								len);
				if (end + len + 1 > cap || end > 0xffff)
					return 0;
				memcpy(out + end, s ? s : (const uint8_t *)"",
				       len);
				out[end + len] = '\0';
				len++;
			} else {
				if (end + len > cap || end > 0xffff)
					return 0;
				if (len)
					memcpy(out + end, s, len);
			}
			loc = (uint32_t)len << 16 | end;
			memcpy(out + op->doff, &loc, 4);
			end += (len + 3) & ~3u;
			break;
		}
	}
	return end;
}

/* ---------------------------------------------------------------- */
/* The file's format texts, for events the tree lacks.              */

/*
 * libtracecmd keeps the format texts only long enough to parse them;
 * tracecmd_print_events() (what `trace-cmd dump --events` runs) prints
 * them again from the file, to stdout.  Captured once, through a memfd.
 */
static char *capture_stdout(void (*fn)(void *), void *arg, size_t *lenp)
{
	int saved, fd;
	off_t len;
	char *text;

	fd = memfd_create("tracefuse-capture", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		close(fd);
		return NULL;
	}
	fn(arg);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = lseek(fd, 0, SEEK_END);
	text = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (text && pread(fd, text, (size_t)len, 0) != len) {
		free(text);
		text = NULL;
	}
	close(fd);
	if (text) {
		text[len] = '\0';
		if (lenp)
			*lenp = (size_t)len;
	}
	return text;
}

static void print_funcs(void *tep)
{
	tep_print_funcs(tep);
}

/*
 * libtracecmd keeps no format text after parsing it, and its
 * tracecmd_print_events() prints nothing for v7 files; `trace-cmd dump
 * --events FILE` reads the texts from the file itself.  So an event the
 * tree lacks can be added only where trace-cmd is installed (else its
 * records are skipped and counted).  Runs once, before mount.
 */
static int load_format_texts(struct replay *r)
{
	struct strbuf sb = STRBUF_INIT;
	char cmd[4200], chunk[8192], *q;
	size_t n;
	FILE *f;

	if (r->formats)
		return 0;
	if (r->formats_len)	/* tried and failed */
		return -ENOENT;
	r->formats_len = 1;
	/* the path single-quoted for the shell */
	strcpy(cmd, "trace-cmd dump --events '");
	q = cmd + strlen(cmd);
	for (const char *p = r->path; *p && q < cmd + sizeof(cmd) - 40; p++) {
		if (*p == '\'') {
			strcpy(q, "'\\''");
			q += 4;
		} else {
			*q++ = *p;
		}
	}
	strcpy(q, "' 2>/dev/null");
	fflush(stdout);
	f = popen(cmd, "re");
	if (!f)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sb_add(&sb, chunk, n);
	if (pclose(f) != 0 || sb_error(&sb) || !sb.len) {
		sb_release(&sb);
		return -ENOENT;
	}
	r->formats_len = sb.len;
	r->formats = sb_detach(&sb);
	return 0;
}

/*
 * The file's kernel symbols, for the tree's lookups (events/ksyms.c): the
 * recording kernel made the addresses its records carry, so %pS fields
 * print as its trace file did and .sym keys name its functions; a replay
 * started later brings its symbols too.  (bprint's printk formats are
 * not imported yet.)
 */
static void import_symbols(struct replay *r)
{
	char *text, *line, *save = NULL;
	struct tf_ksym *syms = NULL;
	size_t n = 0, cap = 0;

	text = capture_stdout(print_funcs, r->ftep, NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name, *mod = NULL, *end;
		unsigned long long addr = strtoull(line, &name, 16);

		if (*name != ' ')
			continue;
		name++;
		end = strstr(name, " [");
		if (end) {
			*end = '\0';
			mod = end + 2;
			end = strchr(mod, ']');
			if (end)
				*end = '\0';
		}
		/* the first 4 KiB of kernel text hold tracefuse's own
		 * names for trace_marker's and snapshot's callers */
		if (addr >= TF_MARKER_IP && addr < TF_MARKER_IP + 4096)
			continue;
		if (n == cap) {
			struct tf_ksym *p;

			cap = cap ? 2 * cap : 4096;
			if (!(p = realloc(syms, cap * sizeof(*p))))
				break;
			syms = p;
		}
		syms[n++] = (struct tf_ksym){ addr, name, mod ? mod : "", 0 };
	}
	if (tf_ksyms_add_file(r->reg->ksyms, syms, n) < 0)
		fprintf(stderr, "tracefuse: replay: %s: symbols not imported\n",
			r->path);
	free(syms);
	free(text);
}

/* The format text of file event @id: start and length in r->formats. */
static const char *format_text(struct replay *r, int id, size_t *len)
{
	char *p = r->formats;

	while (p && (p = strstr(p, "name: "))) {
		char *next, *idl;

		if (p != r->formats && p[-1] != '\n') {
			p += 6;
			continue;
		}
		next = strstr(p + 6, "\nname: ");
		idl = strstr(p, "\nID: ");
		if (idl && (!next || idl < next) && atoi(idl + 5) == id) {
			*len = next ? (size_t)(next + 1 - p) : strlen(p);
			return p;
		}
		p = next ? next + 1 : NULL;
	}
	return NULL;
}

static int max_id(const struct tf_registry *reg)
{
	unsigned nr = reg->nr_events;
	int m = 0;

	for (unsigned i = 0; i < nr; i++) {
		const struct tf_event *ev = tf_registry_event(reg, i);

		if (ev && ev->id > m)
			m = ev->id;
	}
	return m;
}

/*
 * The file's format text of @fev with the id @id (the file's own, or a
 * fresh one when the tree has taken it): malloc'ed, its length in *lenp.
 */
static char *format_with_id(const char *text, size_t len, int id,
			    size_t *lenp)
{
	const char *idl = strstr(text, "\nID: "), *rest;
	size_t head;
	char *copy;
	int n;

	if (!idl || idl > text + len)
		return NULL;
	rest = strchr(idl + 1, '\n');
	if (!rest || rest > text + len)
		return NULL;
	copy = malloc(len + 16);	/* room for a longer id */
	if (!copy)
		return NULL;
	head = (size_t)(idl - text) + 5;
	memcpy(copy, text, head);
	n = sprintf(copy + head, "%d", id);
	memcpy(copy + head + (size_t)n, rest, (size_t)(text + len - rest));
	*lenp = head + (size_t)n + (size_t)(text + len - rest);
	return copy;
}

/*
 * Adds file event @fev to the tree; returns the new tf_event.  Before
 * mount, to the registry alone; in a replay started later, to the
 * mounted tree under its control lock - where another replay may just
 * have added the same event (then that one is used) or taken the id.
 */
static struct tf_event *add_event(struct replay *r, struct tep_event *fev)
{
	struct tf_event *ev = NULL;
	const char *text;
	char *copy;
	size_t len;
	int id;

	if (load_format_texts(r) < 0)
		return NULL;
	text = format_text(r, fev->id, &len);
	if (!text)
		return NULL;
	/* dump separates the texts with a blank line; a format file ends
	 * with its print fmt line's newline */
	while (len >= 2 && text[len - 1] == '\n' && text[len - 2] == '\n')
		len--;
	if (r->grow)
		pthread_mutex_lock(&r->grow->lock);
	ev = tf_registry_find(r->reg, fev->system, fev->name);
	if (ev)
		goto out;
	id = fev->id;
	if (tf_registry_find_id(r->reg, id))
		id = max_id(r->reg) + 1;
	copy = id <= 0xffff ? format_with_id(text, len, id, &len) : NULL;
	if (!copy)
		goto out;
	if (r->grow) {
		if (tf_tracing_add_event(r->grow, fev->system, copy, len,
					 r->release, &ev) == 0)
			r->added++;
	} else if (tf_registry_prepare(r->reg, fev->system, copy, len,
				       &ev) == 0) {
		/* the recording kernel prints it (tf_event.kernel_release) */
		if (r->release)
			ev->kernel_release = strdup(r->release);
		tf_registry_commit(r->reg, ev);
		r->added++;
	} else {
		ev = NULL;
	}
	free(copy);
out:
	if (r->grow)
		pthread_mutex_unlock(&r->grow->lock);
	return ev;
}

/* ---------------------------------------------------------------- */
/* Loading.                                                         */

static struct xlate *resolve(struct replay *r, int id)
{
	struct xlate *x = &r->x[id & 0xffff];
	struct tep_event *fev;

	if (x->mode != X_UNRESOLVED)
		return x;
	x->mode = X_SKIP;
	fev = tep_find_event(r->ftep, id);
	if (!fev)
		return x;
	x->tree = tf_registry_find(r->reg, fev->system, fev->name);
	if (!x->tree && (r->may_add || r->grow))
		x->tree = add_event(r, fev);
	if (!x->tree) {
		r->skipped_events++;
		return x;
	}
	if (same_layout(x->tree, fev))
		x->mode = x->tree->id == fev->id ? X_DIRECT : X_PATCH_ID;
	else if (plan_translation(x, fev) == 0)
		x->mode = X_TRANSLATE;
	return x;
}

static const char *intern_comm(struct replay *r, int pid)
{
	const char *c;
	unsigned i;

	if (pid <= 0)
		return NULL;
	if (r->nr_comms * 2 >= r->comm_cap) {
		unsigned cap = r->comm_cap ? r->comm_cap * 2 : 1024;
		struct comm_slot *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (unsigned j = 0; j < r->comm_cap; j++) {
			struct comm_slot *s = &r->comms[j];

			if (!s->pid)
				continue;
			for (i = (unsigned)s->pid & (cap - 1); t[i].pid;
			     i = (i + 1) & (cap - 1))
				;
			t[i] = *s;
		}
		free(r->comms);
		r->comms = t;
		r->comm_cap = cap;
	}
	for (i = (unsigned)pid & (r->comm_cap - 1); r->comms[i].pid;
	     i = (i + 1) & (r->comm_cap - 1))
		if (r->comms[i].pid == pid)
			return r->comms[i].comm;
	c = tep_data_comm_from_pid(r->ftep, pid);
	if (!c || strcmp(c, "<...>") == 0)
		c = NULL;
	r->comms[i].pid = pid;
	r->comms[i].comm = c ? strdup(c) : NULL;
	r->nr_comms++;
	return r->comms[i].comm;
}

static int arena_add(struct replay *r, const struct rrec *h,
		     const void *data)
{
	size_t need = sizeof(*h) + ((h->len + 7u) & ~7u);

	if (r->arena_len + need > r->arena_cap) {
		size_t cap = r->arena_cap ? r->arena_cap * 2 : 1u << 20;
		uint8_t *p;

		while (cap < r->arena_len + need)
			cap *= 2;
		p = realloc(r->arena, cap);
		if (!p)
			return -ENOMEM;
		r->arena = p;
		r->arena_cap = cap;
	}
	memcpy(r->arena + r->arena_len, h, sizeof(*h));
	memcpy(r->arena + r->arena_len + sizeof(*h), data, h->len);
	r->arena_len += need;
	r->nr_records++;
	return 0;
}

/*
 * Whether @rec lies inside its page.  libtracecmd takes an event's length
 * from the file as it is: a corrupt one can claim more bytes than its page
 * holds, and the bytes after the page are another buffer's.  The record's
 * offset is its header's in the file, pages sit at multiples of the page
 * size (a power of two, checked when the file is opened), and
 * record_size counts the header and the data.
 */
static bool in_page(const struct replay *r, const struct tep_record *rec)
{
	unsigned long long psize = r->page_size, at;

	if (rec->record_size < rec->size || rec->size < 0)
		return false;
	at = rec->offset & (psize - 1);
	return at + (unsigned long long)rec->record_size <= psize;
}

static int load_one(struct tracecmd_input *handle, struct tep_record *rec,
		    int cpu, void *arg)
{
	struct replay *r = arg;
	const uint8_t *data = rec->data;
	struct rrec h;
	struct xlate *x;
	uint16_t type;
	int32_t pid;

	(void)handle;
	if (rec->size < 8 || !in_page(r, rec)) {
		r->skipped++;
		return 0;
	}
	memcpy(&type, data, 2);
	memcpy(&pid, data + 4, 4);
	x = resolve(r, type);
	h = (struct rrec) {
		.ts = rec->ts, .event = x->tree, .cpu = cpu,
		.comm = intern_comm(r, pid), .len = (uint32_t)rec->size,
	};
	switch (x->mode) {
	case X_DIRECT:
		break;
	case X_PATCH_ID:
		if (h.len > sizeof(r->scratch)) {
			r->skipped++;
			return 0;
		}
		memcpy(r->scratch, data, h.len);
		type = (uint16_t)x->tree->id;
		memcpy(r->scratch, &type, 2);
		data = r->scratch;
		break;
	case X_TRANSLATE:
		h.len = translate(x, data, (unsigned)rec->size, r->scratch,
				  sizeof(r->scratch));
		if (!h.len) {
			r->skipped++;
			return 0;
		}
		data = r->scratch;
		break;
	default:
		r->skipped++;
		return 0;
	}
	return arena_add(r, &h, data) < 0 ? -1 : 0;
}

static void replay_close_file(struct replay *r)
{
	/* instance handles are owned by (and closed with) the top one? no:
	 * libtracecmd gives each its own reference; close them all */
	for (int i = 1; i < r->nr_handles; i++)
		tracecmd_close(r->handles[i]);
	if (r->handle)
		tracecmd_close(r->handle);
	free(r->handles);
	r->handles = NULL;
	r->handle = NULL;
	r->nr_handles = 0;
}

/* The release in a uname line ("Linux vm 6.18.44 x86_64"), or NULL. */
static char *uname_release(const char *uname)
{
	const char *p = uname;

	for (int word = 0; p && word < 2; word++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return p && *p ? strndup(p, strcspn(p, " \n")) : NULL;
}

static int replay_load(struct replay *r)
{
	int n, ret;

	/* libtracecmd may crash on a corrupt file: read it in a child first */
	ret = tf_replay_probe(r->path);
	if (ret < 0)
		return ret;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r->handle = tracecmd_open(r->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!r->handle)
		return errno ? -errno : -EINVAL;
	r->ftep = tracecmd_get_tep(r->handle);
	if (!r->release)
		r->release = uname_release(tracecmd_get_uname(r->handle));
	if (tep_is_file_bigendian(r->ftep) != tep_is_local_bigendian(r->ftep)) {
		ret = -ENOTSUP;	/* byte-swapping records: not done */
		goto out;
	}
	/* its pages' size, which bounds every record (in_page) */
	r->page_size = tep_get_sub_buffer_size(r->ftep);
	if (r->page_size <= 0 || (r->page_size & (r->page_size - 1))) {
		ret = -EBADMSG;
		goto out;
	}
	n = tracecmd_buffer_instances(r->handle);
	r->handles = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*r->handles));
	r->x = calloc(65536, sizeof(*r->x));
	if (!r->handles || !r->x) {
		ret = -ENOMEM;
		goto out;
	}
	r->handles[r->nr_handles++] = r->handle;
	import_symbols(r);
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *h =
			tracecmd_buffer_instance_handle(r->handle, i);

		if (h)
			r->handles[r->nr_handles++] = h;
	}
	ret = tracecmd_iterate_events_multi(r->handles, r->nr_handles,
					    load_one, r);
	ret = ret < 0 ? -ENOMEM : 0;
out:
	replay_close_file(r);
	r->ftep = NULL;
	return ret;
}

static void replay_free(struct replay *r)
{
	if (!r)
		return;
	replay_close_file(r);
	for (unsigned i = 0; r->x && i < 65536; i++)
		free(r->x[i].ops);
	free(r->x);
	for (unsigned i = 0; i < r->comm_cap; i++)
		free(r->comms[i].comm);
	free(r->comms);
	free(r->formats);
	free(r->release);
	free(r->arena);
	free(r->path);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->wake);
	pthread_cond_destroy(&r->progress);
	free(r);
}

static struct replay *replay_new(const char *path,
				 const struct tf_replay_opts *opts,
				 struct tf_registry *reg, bool may_add)
{
	struct replay *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->path = strdup(path);
	if (opts)
		r->opts = *opts;
	r->reg = reg;
	r->may_add = may_add;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	pthread_cond_init(&r->progress, NULL);
	if (!r->path) {
		replay_free(r);
		return NULL;
	}
	return r;
}

/* ---------------------------------------------------------------- */
/* Dispatching.                                                     */

/* Sleeps until monotonic @due unless woken; false when stopping. */
static bool wait_until(struct replay *r, uint64_t due)
{
	bool go_on;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		uint64_t now = now_ns();

		if (r->stopping || now >= due)
			break;
		/* everything due before now is in: tell drainers */
		r->caught_up = now;
		pthread_cond_broadcast(&r->progress);
		struct timespec ts;
		uint64_t wake_at = due;

		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t rt = (uint64_t)ts.tv_sec * 1000000000ull +
			      (uint64_t)ts.tv_nsec + (wake_at - now);
		ts.tv_sec = (time_t)(rt / 1000000000ull);
		ts.tv_nsec = (long)(rt % 1000000000ull);
		pthread_cond_timedwait(&r->wake, &r->lock, &ts);
	}
	go_on = !r->stopping;
	pthread_mutex_unlock(&r->lock);
	return go_on;
}

/* Dispatches @batch[0..*nb) in one read-side section (never one that waits). */
static void flush_batch(struct tf_tracing *t, struct tf_record *batch,
			unsigned int *nb)
{
	if (!*nb)
		return;
	tf_rcu_read_lock();
	tf_dispatch_locked_n(t, batch, *nb);
	tf_rcu_read_unlock();
	*nb = 0;
}

/* Dispatches the arena; returns the number of records dispatched. */
static unsigned long replay_dispatch(struct replay *r, struct tf_tracing *t)
{
	unsigned loops = r->opts.loops ? r->opts.loops : 1;
	double speed = r->opts.speed;
	unsigned long n = 0;
	/* records for the next read-side section: the arena holds their
	 * data for as long as the replay runs */
	struct tf_record batch[TF_DISPATCH_BATCH];
	unsigned int nb = 0;
	uint64_t first = 0, last = 0, span, start = now_ns();
	int nr_cpus = t->nr_cpus > 0 ? t->nr_cpus : 1;

	if (r->arena_len) {
		first = ((const struct rrec *)r->arena)->ts;
		for (size_t off = 0; off < r->arena_len;) {
			const struct rrec *h = (const void *)(r->arena + off);

			last = h->ts;
			off += sizeof(*h) + ((h->len + 7u) & ~7u);
		}
	}
	span = last - first + 1000;
	for (unsigned loop = 0; loop < loops; loop++) {
		uint64_t shift = (uint64_t)loop * span;

		for (size_t off = 0; off < r->arena_len;) {
			const struct rrec *h = (const void *)(r->arena + off);

			batch[nb++] = (struct tf_record){
				.event = h->event,
				.data = (const uint8_t *)(h + 1),
				.size = h->len,
				.ts = h->ts + shift,
				.cpu = h->cpu % nr_cpus,
				.comm = h->comm,
			};
			off += sizeof(*h) + ((h->len + 7u) & ~7u);
			if (speed > 0) {
				/* paced: each record alone, when it is due */
				if (!wait_until(r, start + (uint64_t)((double)
						(h->ts + shift - first) / speed)))
					return n;
				flush_batch(t, batch, &nb);
				n++;
				continue;
			}
			n++;
			if (nb == TF_DISPATCH_BATCH) {
				flush_batch(t, batch, &nb);
				if (__builtin_expect(__atomic_load_n(
						&r->stopping, __ATOMIC_RELAXED), 0))
					return n;
			}
		}
	}
	flush_batch(t, batch, &nb);
	return n;
}

static void *replay_thread(void *arg)
{
	struct replay *r = arg;
	unsigned long n = replay_dispatch(r, r->tracing);

	/* what a corrupt file lost shows here: records it had whose
	 * events could not be read or translated */
	fprintf(stderr, "tracefuse: replay:%s: %lu records dispatched, %lu "
		"skipped\n", r->path, n, r->skipped);
	pthread_mutex_lock(&r->lock);
	r->dispatched = n;
	r->done = true;
	pthread_cond_broadcast(&r->progress);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* ---------------------------------------------------------------- */
/* The source type.                                                 */

/* Splits trailing ",key=value" options off a spec (FILE may hold
 * commas; only the known keys are taken). */
static int parse_spec(const char *arg, char **path, struct tf_replay_opts *o,
		      bool *start_on_read)
{
	char *s = strdup(arg), *comma;

	if (!s)
		return -ENOMEM;
	while ((comma = strrchr(s, ','))) {
		char *opt = comma + 1, *end;

		if (strncmp(opt, "speed=", 6) == 0) {
			o->speed = strtod(opt + 6, &end);
			if (*end || o->speed < 0)
				goto bad;
		} else if (strncmp(opt, "loop=", 5) == 0) {
			unsigned long v = strtoul(opt + 5, &end, 10);

			if (*end || v < 1 || v > 1000000)
				goto bad;
			o->loops = (unsigned)v;
		} else if (strcmp(opt, "start=read") == 0) {
			*start_on_read = true;
		} else if (strcmp(opt, "start=mount") == 0) {
			*start_on_read = false;
		} else {
			break;
		}
		*comma = '\0';
	}
	*path = s;
	return 0;
bad:
	free(s);
	return -EINVAL;
}

static int replay_create(struct tf_source *src, const char *arg,
			 struct tf_registry *reg)
{
	struct tf_replay_opts o = { 0 };
	bool on_read = false;
	struct replay *r;
	char *path;
	int ret;

	if (!arg || !*arg)
		return -EINVAL;
	ret = parse_spec(arg, &path, &o, &on_read);
	if (ret < 0)
		return ret;
	r = replay_new(path, &o, reg, true);
	free(path);
	if (!r)
		return -ENOMEM;
	r->start_on_read = on_read;
	ret = replay_load(r);
	if (ret < 0) {
		replay_free(r);
		return ret;
	}
	r->may_add = false;
	src->priv = r;
	return 0;
}

static int start_locked(struct replay *r)
{
	int ret;

	if (r->started)
		return 0;
	r->started = true;
	ret = pthread_create(&r->thread, NULL, replay_thread, r);
	if (ret) {
		r->started = false;
		return -ret;
	}
	return 0;
}

static int replay_start(struct tf_source *src)
{
	struct replay *r = src->priv;
	int ret = 0;

	r->tracing = src->tracing;
	if (r->start_on_read)
		return 0;
	pthread_mutex_lock(&r->lock);
	ret = start_locked(r);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

/*
 * Read-your-events: at full speed every record of the file "happened"
 * when the replay started, so a drain waits for the end; in real time,
 * for every record due before the call.
 */
static void replay_drain(struct tf_source *src)
{
	struct replay *r = src->priv;
	uint64_t now = now_ns();

	pthread_mutex_lock(&r->lock);
	if (!r->started && r->tracing && start_locked(r) < 0) {
		pthread_mutex_unlock(&r->lock);
		return;
	}
	while (r->started && !r->done && !r->stopping &&
	       (r->opts.speed <= 0 || r->caught_up < now)) {
		pthread_cond_signal(&r->wake);
		pthread_cond_wait(&r->progress, &r->lock);
	}
	pthread_mutex_unlock(&r->lock);
}

/*
 * Ordering a file operation: only a replay in real time has records due
 * by then; one at full speed, or not started, orders nothing.
 */
static void replay_sync(struct tf_source *src)
{
	struct replay *r = src->priv;
	uint64_t now;

	if (r->opts.speed <= 0)
		return;
	now = now_ns();
	pthread_mutex_lock(&r->lock);
	while (r->started && !r->done && !r->stopping && r->caught_up < now) {
		pthread_cond_signal(&r->wake);
		pthread_cond_wait(&r->progress, &r->lock);
	}
	pthread_mutex_unlock(&r->lock);
}

static void replay_stop(struct tf_source *src)
{
	struct replay *r = src->priv;
	bool join;

	pthread_mutex_lock(&r->lock);
	__atomic_store_n(&r->stopping, true, __ATOMIC_RELAXED);
	join = r->started;
	pthread_cond_broadcast(&r->wake);
	pthread_mutex_unlock(&r->lock);
	if (join)
		pthread_join(r->thread, NULL);
	r->started = false;
}

static void replay_destroy(struct tf_source *src)
{
	replay_free(src->priv);
	src->priv = NULL;
}

const struct tf_source_type tf_source_replay = {
	.name = "replay",
	.create = replay_create,
	.start = replay_start,
	.drain = replay_drain,
	.sync = replay_sync,
	.stop = replay_stop,
	.destroy = replay_destroy,
};

int tf_replay_run(struct tf_tracing *t, const char *path,
		  const struct tf_replay_opts *opts, unsigned long *dispatched,
		  unsigned long *skipped, unsigned *added)
{
	struct replay *r = replay_new(path, opts, t->reg, false);
	unsigned long n;
	int ret;

	if (!r)
		return -ENOMEM;
	r->grow = t;
	ret = replay_load(r);
	if (ret < 0) {
		replay_free(r);
		return ret;
	}
	n = replay_dispatch(r, t);
	if (dispatched)
		*dispatched = n;
	if (skipped)
		*skipped = r->skipped;
	if (added)
		*added = r->added;
	replay_free(r);
	return 0;
}
