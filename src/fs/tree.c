// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - inode numbers, lookup, stat and readdir of the tracefs tree
 * (see tree.h).
 *
 * Inode layout: bits 48-63 the trace array id (0 = top level), bits
 * 40-47 the node kind, bits 0-39 the index.  The top-level root, which
 * encodes as 0, is FUSE's root inode 1.  An event's index is below
 * 2^16 and an event file's (event << 8 | file) below 2^24, so their
 * bits 24-39 hold the event's generation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include <urcu/rculist.h>

#include "fs/fuse_ops.h"

#include "fs/tree.h"
#include "util/kstrto.h"

#define INO_TR_SHIFT 48
#define INO_KIND_SHIFT 40
#define INO_IDX_MASK ((1ull << 40) - 1)
#define INO_GEN_SHIFT 24
#define INO_GEN_MASK 0xffffu

static bool is_event_kind(enum tf_node_kind kind)
{
	return kind == TF_N_EVENT || kind == TF_N_FILE_EVENT;
}

uint64_t tf_ino(const struct tf_trace_array *tr, enum tf_node_kind kind,
		unsigned idx)
{
	uint64_t ino = ((uint64_t)tr->id << INO_TR_SHIFT) |
		       ((uint64_t)kind << INO_KIND_SHIFT) | idx;

	return ino == 0 ? FUSE_ROOT_ID : ino;
}

uint64_t tf_node_ino(const struct tf_node *n)
{
	unsigned gen = is_event_kind(n->kind) ? n->gen & INO_GEN_MASK : 0;

	return tf_ino(n->tr, n->kind, n->idx) |
	       (uint64_t)gen << INO_GEN_SHIFT;
}

/* Whether the event at index @ev is there with generation @gen. */
static bool event_present(const struct tf_registry *reg, unsigned ev,
			  uint32_t gen)
{
	return ev < reg->nr_events && tf_registry_event(reg, ev) &&
	       tf_registry_slot_gen(reg, ev) == gen;
}

bool tf_node_event_gone(const struct tf_node *n)
{
	unsigned ev = n->kind == TF_N_FILE_EVENT ? n->idx >> 8 : n->idx;

	return is_event_kind(n->kind) && !event_present(n->t->reg, ev, n->gen);
}

unsigned tf_ino_trace_array(uint64_t ino)
{
	return ino == FUSE_ROOT_ID ? 0 : (unsigned)(ino >> INO_TR_SHIFT);
}

bool tf_node_is_dir(const struct tf_node *n)
{
	return n->kind < TF_N_DIR_MAX;
}

static const struct tf_file_def *file_def(const struct tf_node *n)
{
	unsigned f = n->idx & 0xff;

	switch (n->kind) {
	case TF_N_FILE_ROOT:
		return n->idx < tf_nr_root_files ? &tf_root_files[n->idx] : NULL;
	case TF_N_FILE_EVENTS:
		return n->idx < tf_nr_events_files ? &tf_events_files[n->idx]
						   : NULL;
	case TF_N_FILE_SYSTEM:
		return f < tf_nr_system_files ? &tf_system_files[f] : NULL;
	case TF_N_FILE_EVENT:
		return f < tf_nr_event_files ? &tf_event_files[f] : NULL;
	case TF_N_FILE_CPU:
		return f < tf_nr_cpu_files ? &tf_cpu_files[f] : NULL;
	case TF_N_FILE_OPTION:
		return n->idx < tf_nr_options() ? &tf_option_file : NULL;
	default:
		return NULL;
	}
}

/* Whether a well-formed node exists in its trace array. */
static bool node_valid(const struct tf_node *n)
{
	struct tf_registry *reg = n->t->reg;
	bool top = n->tr->id == 0;
	unsigned hi = n->idx >> 8;

	switch (n->kind) {
	case TF_N_ROOT: case TF_N_EVENTS: case TF_N_OPTIONS: case TF_N_PER_CPU:
		return true;
	case TF_N_INSTANCES:
		return top;
	case TF_N_SYSTEM:
		return n->idx < reg->nr_systems &&
		       tf_system_visible(tf_registry_system_at(reg, n->idx));
	case TF_N_EVENT:
		return event_present(reg, n->idx, n->gen);
	case TF_N_CPU:
		return n->idx < (unsigned)n->t->nr_cpus;
	case TF_N_FILE_ROOT:
		return n->def && (top || !(n->def->flags & TF_FD_TOP_ONLY));
	case TF_N_FILE_EVENTS:
		return n->def != NULL;
	case TF_N_FILE_SYSTEM:
		return n->def && hi < reg->nr_systems &&
		       tf_system_files_present(tf_registry_system_at(reg, hi));
	case TF_N_FILE_EVENT: {
		struct tf_event *ev;

		if (!n->def || !event_present(reg, hi, n->gen))
			return false;
		ev = tf_registry_event(reg, hi);
		return ev && tf_event_file_present(ev, n->idx & 0xff);
	}
	case TF_N_FILE_CPU:
		return n->def && hi < (unsigned)n->t->nr_cpus;
	case TF_N_FILE_OPTION:
		return n->def && (top || tf_option_in_instance(n->idx));
	default:
		return false;
	}
}

int tf_node_from_ino_stale(struct tf_tracing *t, uint64_t ino,
			   struct tf_node *n)
{
	int ret = tf_node_from_ino(t, ino, n);

	/* an event file's inode outlives its event: what fstat() of an
	 * open file sees (the kernel's eventfs inode stays too) */
	if (ret == -ENOENT && n->tr && is_event_kind(n->kind) &&
	    (n->kind == TF_N_EVENT || n->def) && tf_node_event_gone(n))
		return 0;
	return ret;
}

int tf_node_from_ino(struct tf_tracing *t, uint64_t ino, struct tf_node *n)
{
	unsigned tr_id, kind;

	if (ino == FUSE_ROOT_ID)
		ino = 0;
	tr_id = (unsigned)(ino >> INO_TR_SHIFT);
	kind = (unsigned)(ino >> INO_KIND_SHIFT) & 0xff;
	memset(n, 0, sizeof(*n));
	n->t = t;
	n->tr = tr_id == 0 ? t->top : tf_instance_by_id(t, tr_id);
	if (!n->tr)
		return -ENOENT;
	n->kind = (enum tf_node_kind)kind;
	n->idx = (unsigned)(ino & INO_IDX_MASK);
	if (is_event_kind(n->kind)) {
		n->gen = (n->idx >> INO_GEN_SHIFT) & INO_GEN_MASK;
		n->idx &= (1u << INO_GEN_SHIFT) - 1;
	}
	n->def = file_def(n);
	return node_valid(n) ? 0 : -ENOENT;
}

static void set_node(struct tf_node *c, const struct tf_node *dir,
		     struct tf_trace_array *tr, enum tf_node_kind kind,
		     unsigned idx)
{
	c->t = dir->t;
	c->tr = tr;
	c->kind = kind;
	c->idx = idx;
	/* an event's files are of its generation */
	c->gen = kind == TF_N_FILE_EVENT ? dir->gen : 0;
	c->def = file_def(c);
}

static void set_event_node(struct tf_node *c, const struct tf_node *dir,
			   const struct tf_event *ev)
{
	set_node(c, dir, dir->tr, TF_N_EVENT, ev->index);
	c->gen = ev->gen;
}

/*
 * The entries of a directory, in order, as (name, node).  One walker
 * serves both lookup and readdir so that they cannot disagree.
 */
typedef int (*entry_fn)(void *ctx, const char *name, const struct tf_node *c,
			long pos);

static int walk_files(const struct tf_node *dir, const struct tf_file_def *defs,
		      unsigned nr, enum tf_node_kind kind, unsigned hi,
		      long *pos, entry_fn fn, void *ctx)
{
	struct tf_node c;

	for (unsigned i = 0; i < nr; i++) {
		(void)defs;
		set_node(&c, dir, dir->tr, kind, hi << 8 | i);
		if (!node_valid(&c))
			continue;
		if (fn(ctx, c.def->name, &c, (*pos)++))
			return 1;
	}
	return 0;
}

/*
 * The root's directories sit among its files where the kernel's readdir
 * lists them (tests/oracle/readdir.out): each after its anchor file.
 */
static const struct {
	const char *after;
	const char *name;
	enum tf_node_kind kind;
	bool top_only;
} root_dirs[] = {
	{ "stack_max_size", "instances", TF_N_INSTANCES, true },
	{ "set_ftrace_pid", "per_cpu", TF_N_PER_CPU, false },
	{ "tracing_max_latency", "options", TF_N_OPTIONS, false },
	{ "set_event_pid", "events", TF_N_EVENTS, false },
};
#define NR_ROOT_DIRS (sizeof(root_dirs) / sizeof(root_dirs[0]))

/* An instance creates its function-filter files later: after snapshot. */
static const char *const instance_late[] = {
	"set_ftrace_notrace", "set_ftrace_filter",
};
#define NR_INSTANCE_LATE (sizeof(instance_late) / sizeof(instance_late[0]))

static bool is_instance_late(const char *name)
{
	for (unsigned k = 0; k < NR_INSTANCE_LATE; k++)
		if (strcmp(instance_late[k], name) == 0)
			return true;
	return false;
}

/* The root file @name, emitted out of its table place (instances). */
static int emit_root_file(const struct tf_node *dir, const char *name,
			  long *pos, entry_fn fn, void *ctx)
{
	struct tf_node c;

	for (unsigned i = 0; i < tf_nr_root_files; i++) {
		set_node(&c, dir, dir->tr, TF_N_FILE_ROOT, i);
		if (node_valid(&c) && strcmp(c.def->name, name) == 0)
			return fn(ctx, name, &c, (*pos)++);
	}
	return 0;
}

static int walk_root(const struct tf_node *dir, long *pos, entry_fn fn,
		     void *ctx)
{
	bool done[NR_ROOT_DIRS] = { false };
	bool instance = dir->tr->id != 0;
	struct tf_node c;
	unsigned d;

	for (unsigned i = 0; i < tf_nr_root_files; i++) {
		set_node(&c, dir, dir->tr, TF_N_FILE_ROOT, i);
		if (!node_valid(&c))
			continue;
		const char *file = c.def->name;

		if (instance && is_instance_late(file))
			continue;
		if (fn(ctx, file, &c, (*pos)++))
			return 1;
		if (instance && strcmp(file, "snapshot") == 0)
			for (unsigned k = 0; k < NR_INSTANCE_LATE; k++)
				if (emit_root_file(dir, instance_late[k], pos,
						   fn, ctx))
					return 1;
		for (d = 0; d < NR_ROOT_DIRS; d++) {
			if (done[d] || strcmp(root_dirs[d].after, file))
				continue;
			done[d] = true;
			if (root_dirs[d].top_only && dir->tr->id != 0)
				continue;
			set_node(&c, dir, dir->tr, root_dirs[d].kind, 0);
			if (fn(ctx, root_dirs[d].name, &c, (*pos)++))
				return 1;
		}
	}
	/* an anchor this tree lacks: the directory comes last */
	for (d = 0; d < NR_ROOT_DIRS; d++) {
		if (done[d] || (root_dirs[d].top_only && dir->tr->id != 0))
			continue;
		set_node(&c, dir, dir->tr, root_dirs[d].kind, 0);
		if (fn(ctx, root_dirs[d].name, &c, (*pos)++))
			return 1;
	}
	return 0;
}

static int walk(const struct tf_node *dir, entry_fn fn, void *ctx)
{
	struct tf_registry *reg = dir->t->reg;
	struct tf_node c;
	long pos = 2;		/* after . and .. */
	char name[32];
	unsigned nr;

	switch (dir->kind) {
	case TF_N_ROOT:
		return walk_root(dir, &pos, fn, ctx);
	case TF_N_EVENTS:
		if (walk_files(dir, tf_events_files, tf_nr_events_files,
			       TF_N_FILE_EVENTS, 0, &pos, fn, ctx))
			return 1;
		/* systems added at run time come last, as eventfs adds a
		 * new directory at the tail of its parent's children */
		nr = reg->nr_systems;
		for (unsigned i = 0; i < nr; i++) {
			const struct tf_system *sys =
				tf_registry_system_at(reg, i);

			/* synthetic/ goes with its last event */
			if (!tf_system_visible(sys))
				continue;
			set_node(&c, dir, dir->tr, TF_N_SYSTEM, i);
			if (fn(ctx, sys->name, &c, pos++))
				return 1;
		}
		return 0;
	case TF_N_SYSTEM: {
		const struct tf_system *sys =
			tf_registry_system_at(reg, dir->idx);

		if (walk_files(dir, tf_system_files, tf_nr_system_files,
			       TF_N_FILE_SYSTEM, dir->idx, &pos, fn, ctx))
			return 1;
		/* in registry order: an event added at run time is last */
		for (struct tf_event *ev = tf_system_first_event(sys); ev;
		     ev = tf_system_next_event(ev)) {
			set_event_node(&c, dir, ev);
			if (fn(ctx, ev->name, &c, pos++))
				return 1;
		}
		return 0;
	}
	case TF_N_EVENT:
		return walk_files(dir, tf_event_files, tf_nr_event_files,
				  TF_N_FILE_EVENT, dir->idx, &pos, fn, ctx);
	case TF_N_INSTANCES: {
		struct tf_trace_array *tr;

		cds_list_for_each_entry_rcu(tr, &dir->t->instances, list) {
			if (!tr->name)
				continue;
			set_node(&c, dir, tr, TF_N_ROOT, 0);
			if (fn(ctx, tr->name, &c, pos++))
				return 1;
		}
		return 0;
	}
	case TF_N_OPTIONS:
		for (unsigned i = 0; i < tf_nr_options(); i++) {
			set_node(&c, dir, dir->tr, TF_N_FILE_OPTION, i);
			if (!node_valid(&c))
				continue;
			if (fn(ctx, tf_option_name(i), &c, pos++))
				return 1;
		}
		return 0;
	case TF_N_PER_CPU:
		for (int i = 0; i < dir->t->nr_cpus; i++) {
			snprintf(name, sizeof(name), "cpu%d", i);
			set_node(&c, dir, dir->tr, TF_N_CPU, (unsigned)i);
			if (fn(ctx, name, &c, pos++))
				return 1;
		}
		return 0;
	case TF_N_CPU:
		return walk_files(dir, tf_cpu_files, tf_nr_cpu_files,
				  TF_N_FILE_CPU, dir->idx, &pos, fn, ctx);
	default:
		return 0;
	}
}

struct lookup_ctx {
	const char *name;
	struct tf_node *out;
	bool found;
};

static int lookup_fn(void *ctx, const char *name, const struct tf_node *c,
		     long pos)
{
	struct lookup_ctx *l = ctx;

	(void)pos;
	if (strcmp(name, l->name) != 0)
		return 0;
	*l->out = *c;
	l->found = true;
	return 1;
}

int tf_node_lookup(const struct tf_node *dir, const char *name,
		   struct tf_node *child)
{
	struct tf_registry *reg = dir->t->reg;
	struct lookup_ctx l = { .name = name, .out = child };

	if (!tf_node_is_dir(dir))
		return -ENOTDIR;
	/* the big directories go by the registry, not by walking */
	if (dir->kind == TF_N_EVENTS) {
		const struct tf_system *sys = tf_registry_system(reg, name);

		if (sys && tf_system_visible(sys)) {
			set_node(child, dir, dir->tr, TF_N_SYSTEM, sys->index);
			return 0;
		}
	} else if (dir->kind == TF_N_SYSTEM) {
		struct tf_event *ev = tf_registry_find(
			reg, tf_registry_system_at(reg, dir->idx)->name, name);

		if (ev) {
			set_event_node(child, dir, ev);
			return 0;
		}
	}
	walk(dir, lookup_fn, &l);
	return l.found ? 0 : -ENOENT;
}

/* Link counts as tracefs reports them (eventfs directories say 1). */
static unsigned dir_nlink(const struct tf_node *n)
{
	switch (n->kind) {
	case TF_N_EVENTS: case TF_N_SYSTEM: case TF_N_EVENT:
		return 1;
	case TF_N_ROOT:
		return n->tr->id == 0 ? 6 : 5;
	case TF_N_INSTANCES: {
		unsigned nr = 2;
		struct tf_trace_array *tr;

		cds_list_for_each_entry_rcu(tr, &n->t->instances, list)
			nr += tr->name != NULL;
		return nr;
	}
	case TF_N_PER_CPU:
		return 2 + (unsigned)n->t->nr_cpus;
	default:
		return 2;
	}
}

/* When the mount first answered a stat: the mount's, one per daemon
 * process (see access.c), not a tree's. */
static struct timespec mount_time;
static pthread_once_t mount_time_once = PTHREAD_ONCE_INIT;

static void set_mount_time(void)
{
	clock_gettime(CLOCK_REALTIME, &mount_time);
}

void tf_node_stat(const struct tf_node *n, struct stat *st)
{
	/* every inode shows the time tracefuse first answered, as tracefs
	 * shows its mount time */
	pthread_once(&mount_time_once, set_mount_time);
	memset(st, 0, sizeof(*st));
	st->st_atim = st->st_mtim = st->st_ctim = mount_time;
	st->st_ino = tf_node_ino(n);
	st->st_uid = 0;
	st->st_gid = 0;
	st->st_blksize = 4096;
	if (tf_node_is_dir(n)) {
		unsigned mode = 0750;

		if (n->kind == TF_N_ROOT && n->tr->id == 0)
			mode = 0700;
		else if (n->kind == TF_N_EVENTS || n->kind == TF_N_SYSTEM ||
			 n->kind == TF_N_EVENT)
			mode = 0755;
		st->st_mode = S_IFDIR | mode;
		st->st_nlink = dir_nlink(n);
	} else {
		st->st_mode = S_IFREG | (n->def ? n->def->mode : 0440);
		st->st_nlink = 1;
	}
}

struct readdir_ctx {
	long from;
	tf_dir_fill fill;
	void *ctx;
};

static int readdir_fn(void *ctx, const char *name, const struct tf_node *c,
		      long pos)
{
	struct readdir_ctx *r = ctx;

	if (pos < r->from)
		return 0;
	return r->fill(r->ctx, name, c, pos + 1);
}

void tf_node_readdir(const struct tf_node *dir, long pos, tf_dir_fill fill,
		     void *ctx)
{
	struct readdir_ctx r = { .from = pos, .fill = fill, .ctx = ctx };

	walk(dir, readdir_fn, &r);
}

long tf_parse_ulong(const char *buf, size_t len, unsigned long *val)
{
	uint64_t v;
	int ret;

	/* kstrtoul_from_user(buf, len, 10, &val): -ERANGE past 2^64-1 */
	if (len == 0)
		return -EINVAL;
	ret = tf_kstrtoull_buf(buf, len, 10, &v);
	if (ret < 0)
		return ret;
	*val = (unsigned long)v;
	return 0;
}
