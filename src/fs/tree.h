/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.h - the tracefs tree: which directories and files exist, their
 * modes, and the inode numbers that name them.
 *
 * Nothing is materialised per file: an inode number encodes the trace
 * array, the node kind and an index (event, system, cpu, file), so every
 * event of every instance has a stable inode without a table of nodes.
 * Lookups of events and systems go through the registry, which may grow
 * while mounted (a replay's events): indices, hence inodes, never change.
 * A removed synthetic event's index may be taken by a later one: the
 * inodes of an event and its files carry the index's generation
 * (tf_event.gen), so an inode of the old event names nothing any more
 * and its open files answer ENODEV instead of acting on the new one.
 */
#ifndef TF_FS_TREE_H
#define TF_FS_TREE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "trace/trace_array.h"
#include "util/strbuf.h"

enum tf_node_kind {
	TF_N_ROOT,		/* a trace array's top directory */
	TF_N_EVENTS,		/* events/ */
	TF_N_SYSTEM,		/* events/<sys>/ : idx = system */
	TF_N_EVENT,		/* events/<sys>/<event>/ : idx = event */
	TF_N_INSTANCES,		/* instances/ */
	TF_N_OPTIONS,		/* options/ */
	TF_N_PER_CPU,		/* per_cpu/ */
	TF_N_CPU,		/* per_cpu/cpuN/ : idx = cpu */
	TF_N_DIR_MAX,
	TF_N_FILE_ROOT = TF_N_DIR_MAX,	/* idx = file */
	TF_N_FILE_EVENTS,		/* idx = file */
	TF_N_FILE_SYSTEM,		/* idx = system << 8 | file */
	TF_N_FILE_EVENT,		/* idx = event << 8 | file */
	TF_N_FILE_CPU,			/* idx = cpu << 8 | file */
	TF_N_FILE_OPTION,		/* idx = option */
};

struct tf_open;

/* One kind of file: its name, mode and what reading and writing do. */
struct tf_file_def {
	const char *name;
	unsigned mode;
	unsigned flags;
	/* Called at open; O_TRUNC with write access is the `>` hook. */
	int (*open)(struct tf_open *o);
	/* Renders the file's text; NULL: read gives -EINVAL. */
	int (*show)(struct tf_open *o, struct strbuf *out);
	/* One write(2) is one command: bytes taken or -errno. */
	long (*write)(struct tf_open *o, const char *buf, size_t len);
	void (*release)(struct tf_open *o);
};

/*
 * poll(2) of a file kind: the POLL* events ready now.  @peek (the poll
 * notifier's periodic check, without tracing->lock): only report, change
 * nothing; otherwise (a poll request, under the lock) it may consume an
 * edge, as the kernel's hist POLLPRI.  tf_file_poll() returns @def's, or
 * NULL: always ready (the kernel's DEFAULT_POLLMASK for files without
 * poll).  Kept out of tf_file_def so that its tables stay as they are.
 */
typedef unsigned (*tf_poll_fn)(struct tf_open *o, bool peek);
tf_poll_fn tf_file_poll(const struct tf_file_def *def);

enum {
	TF_FD_TOP_ONLY	= 1u << 0,	/* not in instances */
	TF_FD_NO_LOCK	= 1u << 1,	/* show/write without tracing->lock */
	TF_FD_STREAM	= 1u << 2,	/* show called per read (trace_pipe) */
	TF_FD_KEEPS	= 1u << 3,	/* an event file that still reads
					 * once its event is removed (id) */
	/* no event changes its text: a read need not catch up with the
	 * sources first (tf_sources_sync); format, id, README, ... */
	TF_FD_STATIC	= 1u << 4,
	/* a stream read that finds nothing ends the file (returns 0)
	 * instead of waiting: trace_pipe_raw */
	TF_FD_EOF	= 1u << 5,
};

/* A resolved inode. */
struct tf_node {
	struct tf_tracing *t;
	struct tf_trace_array *tr;
	enum tf_node_kind kind;
	unsigned idx;			/* event/system/cpu/option index */
	uint32_t gen;			/* events and their files: the
					 * generation of the event */
	const struct tf_file_def *def;	/* files only */
};

/*
 * An open file.  Several threads may read one descriptor at once: @lock
 * serialises what its reads and polls change (the rendered @text, a
 * stream's unread text, @priv's per-reader state), as the kernel's
 * seq_file and trace_pipe reads serialise on a per-file mutex.
 */
struct tf_open {
	struct tf_node node;
	int flags;			/* open(2) flags */
	int pid;			/* the opener */
	pthread_mutex_t lock;
	struct strbuf text;		/* rendered content; for a stream,
					 * what a read left for the next */
	bool rendered;
	bool stream_started;		/* a stream read found events */
	bool stream_claim;		/* trace_pipe: holds its CPUs */
	size_t read_size;		/* a stream: the read being served */
	int event_id;			/* event files: the id at open */
	void *priv;
};

uint64_t tf_ino(const struct tf_trace_array *tr, enum tf_node_kind kind,
		unsigned idx);
/* A node's inode number (with its event's generation). */
uint64_t tf_node_ino(const struct tf_node *n);
/* An event or event-file node whose event was removed (its index is
 * vacant or another event's): what an open file of it finds.  Lock-free. */
bool tf_node_event_gone(const struct tf_node *n);
/* The id of the trace array an inode number belongs to. */
unsigned tf_ino_trace_array(uint64_t ino);
/* Resolves an inode number; -ENOENT when it names nothing (any more). */
int tf_node_from_ino(struct tf_tracing *t, uint64_t ino, struct tf_node *n);
/* The same, also for an event or event file whose event was removed:
 * its attributes, for the open files that still hold it. */
int tf_node_from_ino_stale(struct tf_tracing *t, uint64_t ino,
			   struct tf_node *n);
int tf_node_lookup(const struct tf_node *dir, const char *name,
		   struct tf_node *child);
void tf_node_stat(const struct tf_node *n, struct stat *st);
bool tf_node_is_dir(const struct tf_node *n);

/* Lists @dir's entries from position @pos; the callback returns nonzero
 * to stop (buffer full).  Returns the next position. */
typedef int (*tf_dir_fill)(void *ctx, const char *name,
			   const struct tf_node *child, long next_pos);
void tf_node_readdir(const struct tf_node *dir, long pos, tf_dir_fill fill,
		     void *ctx);

/* File tables, by directory (files_*.c). */
extern const struct tf_file_def tf_root_files[];
extern const unsigned tf_nr_root_files;
extern const struct tf_file_def tf_events_files[];
extern const unsigned tf_nr_events_files;
extern const struct tf_file_def tf_system_files[];
extern const unsigned tf_nr_system_files;
extern const struct tf_file_def tf_event_files[];
extern const unsigned tf_nr_event_files;
extern const struct tf_file_def tf_cpu_files[];
extern const unsigned tf_nr_cpu_files;
extern const struct tf_file_def tf_option_file;

/* Trace options (options/ and trace_options). */
unsigned tf_nr_options(void);
const char *tf_option_name(unsigned i);
bool tf_option_in_instance(unsigned i);

/* Whether an event file kind exists for @ev (ftrace events lack some). */
bool tf_event_file_present(const struct tf_event *ev, unsigned file);
/* Whether a system has enable/filter files (ftrace has none). */
bool tf_system_files_present(const struct tf_system *sys);

/* Helpers shared by the file tables. */
long tf_parse_ulong(const char *buf, size_t len, unsigned long *val);

#endif
