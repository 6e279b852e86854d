// SPDX-License-Identifier: GPL-2.0
/*
 * fuse_ops.c - libfuse low-level glue: lookup, getattr, readdir, open,
 * read, write, mkdir/rmdir of instances.  The per-file behaviour lives in
 * the file tables (files_*.c); this file only turns FUSE requests into
 * calls on struct tf_open and answers with the kernel's errnos.
 *
 * Every request that changes state or reads state events change first
 * catches up with the event sources (tf_sources_sync): the kernel has
 * processed an event before the system call that caused it returns, so
 * a later `cat tracing_on` sees what a traceoff trigger did, and `echo 0
 * > tracing_on` comes after the events before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/rcu.h"

#include "fs/access.h"
#include "fs/files.h"
#include "fs/fuse_ops.h"
#include "fs/tree.h"
#include "source/source.h"

#define ENTRY_TIMEOUT 1.0
#define TF_NAME_MAX 255		/* tracefs's NAME_MAX */

static struct tf_tracing *tracing(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

/* Resolves @ino inside an RCU read-side section held by the caller. */
static int resolve(fuse_req_t req, fuse_ino_t ino, struct tf_node *n)
{
	return tf_node_from_ino(tracing(req), ino, n);
}

/*
 * How long the kernel may trust an inode's attributes.  With allow_other
 * the kernel checks permissions itself (default_permissions) from the
 * attributes it holds, and a chgrp of the top directory changes the
 * group of every file that inherits it: attributes are then not cached.
 */
static double attr_timeout = ENTRY_TIMEOUT;

void tf_fuse_ops_set_attr_timeout(double seconds)
{
	attr_timeout = seconds;
}

static void node_stat(const struct tf_node *n, struct stat *st)
{
	tf_access_stat(n, st);
}

static void fill_entry(const struct tf_node *n, struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	node_stat(n, &e->attr);
	e->ino = e->attr.st_ino;
	/* an index a removed event held: its inodes are not the old's */
	e->generation = n->kind == TF_N_EVENT || n->kind == TF_N_FILE_EVENT ?
			n->gen : 0;
	e->attr_timeout = attr_timeout;
	e->entry_timeout = ENTRY_TIMEOUT;
}

static void tf_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* `>` must reach open() as O_TRUNC, distinct from `>>` */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
}

/* The attributes of @ino, for a permission check. */
static int ino_stat(fuse_req_t req, fuse_ino_t ino, struct tf_node *n,
		    struct stat *st)
{
	int ret;

	tf_rcu_read_lock();
	ret = resolve(req, ino, n);
	if (ret == 0)
		node_stat(n, st);
	tf_rcu_read_unlock();
	return ret;
}

/* May the caller search (@mask: and write) directory @dir? */
static int may_dir(fuse_req_t req, fuse_ino_t dir, int mask)
{
	struct tf_caller c;
	struct tf_node n;
	struct stat st;
	int ret = ino_stat(req, dir, &n, &st);

	if (ret)
		return ret;
	if (!tf_node_is_dir(&n))
		return -ENOTDIR;
	tf_caller_init(&c, req);
	return tf_access_permission(&c, &st, mask);
}

static void tf_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct tf_node dir, child;
	struct fuse_entry_param e;
	int ret;

	/* a path walk needs search permission on every directory */
	ret = may_dir(req, parent, TF_MAY_EXEC);
	if (ret == 0 && strlen(name) > TF_NAME_MAX)
		ret = -ENAMETOOLONG;
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	tf_rcu_read_lock();
	ret = resolve(req, parent, &dir);
	if (ret == 0)
		ret = tf_node_lookup(&dir, name, &child);
	if (ret == 0)
		fill_entry(&child, &e);
	tf_rcu_read_unlock();
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_entry(req, &e);
}

static void tf_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct tf_node n;
	struct stat st;
	int ret;

	(void)fi;
	tf_rcu_read_lock();
	ret = tf_node_from_ino_stale(tracing(req), ino, &n);
	if (ret == 0)
		node_stat(&n, &st);
	tf_rcu_read_unlock();
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_attr(req, &st, attr_timeout);
}

/*
 * tracefs accepts chmod, chown, truncate (a no-op) and utimes, from whom
 * the kernel lets do them (access.c).
 */
static void tf_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct tf_caller c;
	struct tf_node n;
	int ret;

	tf_rcu_read_lock();
	ret = resolve(req, ino, &n);
	tf_rcu_read_unlock();
	/* ftruncate() of a descriptor open for writing needs no more */
	if (ret == 0 && fi && (fi->flags & O_ACCMODE) != O_RDONLY)
		to_set &= ~FUSE_SET_ATTR_SIZE;
	if (ret == 0) {
		tf_caller_init(&c, req);
		ret = tf_access_setattr(&c, &n, attr, to_set);
	}
	if (ret)
		fuse_reply_err(req, -ret);
	else
		tf_getattr(req, ino, fi);
}

/* opendir: listing a directory needs read permission on it. */
static void tf_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct tf_caller c;
	struct tf_node n;
	struct stat st;
	int ret;

	/* the directory of a removed event still opens, as before */
	tf_rcu_read_lock();
	ret = tf_node_from_ino_stale(tracing(req), ino, &n);
	if (ret == 0)
		node_stat(&n, &st);
	tf_rcu_read_unlock();
	if (ret == 0) {
		tf_caller_init(&c, req);
		ret = tf_access_permission(&c, &st, TF_MAY_READ);
	}
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_open(req, fi);
}

struct dir_buf {
	fuse_req_t req;
	char *buf;
	size_t size, len;
};

static int dir_fill(void *ctx, const char *name, const struct tf_node *c,
		    long next)
{
	struct dir_buf *d = ctx;
	struct stat st;
	size_t n;

	node_stat(c, &st);
	n = fuse_add_direntry(d->req, d->buf + d->len, d->size - d->len,
			      name, &st, next);
	if (n > d->size - d->len)
		return 1;
	d->len += n;
	return 0;
}

static void tf_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi)
{
	struct dir_buf d = { .req = req, .size = size };
	struct tf_node n;
	struct stat st;
	int ret;

	(void)fi;
	d.buf = malloc(size);
	if (!d.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	tf_rcu_read_lock();
	ret = resolve(req, ino, &n);
	if (ret == 0 && !tf_node_is_dir(&n))
		ret = -ENOTDIR;
	if (ret == 0) {
		/* readdir(3) skips entries with inode 0 */
		memset(&st, 0, sizeof(st));
		st.st_mode = S_IFDIR;
		st.st_ino = ino;
		if (off < 1) {
			size_t k = fuse_add_direntry(req, d.buf, size, ".",
						     &st, 1);
			if (k <= size)
				d.len += k;
			off = 1;
		}
		if (off < 2) {
			size_t k;

			st.st_ino = FUSE_ROOT_ID;
			k = fuse_add_direntry(req, d.buf + d.len,
						     size - d.len, "..", &st, 2);
			if (k <= size - d.len) {
				d.len += k;
				off = 2;
			}
		}
		if (off >= 2)
			tf_node_readdir(&n, off, dir_fill, &d);
	}
	tf_rcu_read_unlock();
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_buf(req, d.buf, d.len);
	free(d.buf);
}

/* The access an open(2) asks for. */
static int open_mask(int flags)
{
	int mask = 0;

	if ((flags & O_ACCMODE) != O_WRONLY)
		mask |= TF_MAY_READ;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		mask |= TF_MAY_WRITE;
	return mask;
}

/* An open file of an event that was removed (the kernel's
 * EVENT_FILE_FL_FREED): ENODEV, whatever now holds its index. */
static bool event_gone(const struct tf_open *o)
{
	return tf_node_event_gone(&o->node);
}

static void flush_invalidations(void);
static void open_free(struct tf_open *o);

static void lock_for(const struct tf_open *o)
{
	if (!(o->node.def->flags & TF_FD_NO_LOCK))
		pthread_mutex_lock(&o->node.t->lock);
}

static void unlock_for(const struct tf_open *o)
{
	if (!(o->node.def->flags & TF_FD_NO_LOCK))
		pthread_mutex_unlock(&o->node.t->lock);
}

static void tf_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct tf_caller c;
	struct tf_open *o;
	struct stat st;
	int ret;

	o = calloc(1, sizeof(*o));
	if (!o) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	tf_caller_init(&c, req);
	ret = ino_stat(req, ino, &o->node, &st);
	if (ret == 0)
		ret = tf_access_permission(&c, &st, open_mask(fi->flags));
	tf_rcu_read_lock();
	if (ret == 0)
		ret = resolve(req, ino, &o->node);
	if (ret == 0 && tf_node_is_dir(&o->node))
		ret = -EISDIR;
	/* the trace array stays while a file of it is open (rmdir: EBUSY) */
	if (ret == 0)
		atomic_fetch_add(&o->node.tr->open_refs, 1);
	/* the id file still tells it once the event is gone */
	if (ret == 0 && o->node.kind == TF_N_FILE_EVENT)
		o->event_id = tf_registry_event(o->node.t->reg,
						o->node.idx >> 8)->id;
	tf_rcu_read_unlock();
	if (ret) {
		free(o);
		fuse_reply_err(req, -ret);
		return;
	}
	o->flags = fi->flags;
	o->pid = ctx->pid;
	pthread_mutex_init(&o->lock, NULL);
	sb_init(&o->text);
	if (o->node.def->open) {
		/* `>`: clearing (trace, set_event, ...) is a control write */
		if ((fi->flags & O_ACCMODE) != O_RDONLY &&
		    (fi->flags & O_TRUNC))
			tf_sources_sync(o->node.t->sources);
		lock_for(o);
		ret = event_gone(o) ? -ENODEV : o->node.def->open(o);
		unlock_for(o);
		flush_invalidations();	/* `>` may have removed events */
		if (ret) {
			atomic_fetch_sub(&o->node.tr->open_refs, 1);
			pthread_mutex_destroy(&o->lock);
			free(o);
			fuse_reply_err(req, -ret);
			return;
		}
	}
	fi->fh = (uint64_t)(uintptr_t)o;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	if (o->node.def->flags & TF_FD_STREAM)
		fi->nonseekable = 1;
	/* an open interrupted before this reply gets no release: the
	 * file is let go here (a trace_pipe would stay busy otherwise) */
	if (fuse_reply_open(req, fi) == -ENOENT)
		open_free(o);
}

/* Renders @o's text again; caller holds o->lock. */
static int render(struct tf_open *o)
{
	bool rcu = o->node.kind == TF_N_FILE_EVENT &&
		   (o->node.def->flags & TF_FD_NO_LOCK);
	int ret;

	/* trace_pipe's show drains its sources itself */
	if (!(o->node.def->flags & (TF_FD_STATIC | TF_FD_STREAM)))
		tf_sources_sync(o->node.t->sources);
	sb_reset(&o->text);
	lock_for(o);
	/* an unlocked event file (format, id) keeps its event alive with
	 * the read lock; a locked one with the lock removal takes */
	if (rcu)
		tf_rcu_read_lock();
	ret = event_gone(o) && !(o->node.def->flags & TF_FD_KEEPS) ? -ENODEV :
	      o->node.def->show(o, &o->text);
	if (rcu)
		tf_rcu_read_unlock();
	unlock_for(o);
	if (ret == 0)
		ret = sb_error(&o->text);
	o->rendered = ret == 0;
	return ret;
}

/*
 * Replies never point into @o: a reader copies its piece out under
 * o->lock and replies from the copy.  Once a reply is out the reader
 * may close the file, and RELEASE, on another thread, frees @o while
 * the replying thread is still inside fuse_reply_buf() (ASan's writev
 * interceptor, for one, reads the buffer after the system call); and a
 * second reader of the same descriptor may render the text anew.
 */
/*
 * Memory exhausted under a request is the daemon's trouble, not the
 * caller's mistake: the caller gets ENOMEM and changes nothing, and the
 * log says where it happened.
 */
static void log_enomem(const struct tf_open *o, const char *what)
{
	fprintf(stderr, "tracefuse: out of memory: a %s of %s failed "
		"(ENOMEM)%s\n", what,
		o->node.def && o->node.def->name ? o->node.def->name : "a file",
		strcmp(what, "write") == 0 ? "; nothing changed" : "");
}

static void reply_copy(fuse_req_t req, char *copy, size_t size, int err)
{
	if (err)
		fuse_reply_err(req, -err);
	else
		fuse_reply_buf(req, copy, size);
	free(copy);
}

/* @size bytes of @o's text from @off, copied; caller holds o->lock. */
static int copy_out(struct tf_open *o, size_t off, size_t *size, char **copy)
{
	*copy = NULL;
	if (off >= o->text.len) {
		*size = 0;
		return 0;
	}
	if (*size > o->text.len - off)
		*size = o->text.len - off;
	*copy = malloc(*size);
	if (!*copy)
		return -ENOMEM;
	memcpy(*copy, o->text.buf + off, *size);
	return 0;
}

/*
 * A stream (trace_pipe): takes up to *@size bytes of what @o rendered
 * and has not handed out, rendering (consuming) more for a read of
 * *@size bytes when nothing is left.  Returns 1 with a copy in *@copy
 * (none and *@size 0 at end of file), 0 when there is nothing to read,
 * or -errno.  Caller holds o->lock.
 */
static int stream_take(struct tf_open *o, size_t *size, char **copy)
{
	int ret;

	*copy = NULL;
	if (o->text.len == 0) {
		/* trace_pipe prints what fits the read; the raw files
		 * consume one page per read, or what of one fits it */
		o->read_size = *size;
		ret = o->node.def->show == tf_trace_pipe_show ?
		      tf_trace_pipe_fill(o, *size) : render(o);
		if (ret < 0)
			return ret;
		if (ret == TF_STREAM_EOF) {
			*size = 0;
			return 1;
		}
		if (o->text.len == 0)
			return 0;
	}
	ret = copy_out(o, 0, size, copy);
	if (ret)
		return ret;
	memmove(o->text.buf, o->text.buf + *size, o->text.len - *size);
	o->text.len -= *size;
	return 1;
}

/*
 * Blocked stream reads.  A trace_pipe read that finds nothing does not
 * sleep in its FUSE worker thread (16 such readers would hold every
 * thread, and no other request, not even the kernel's INTERRUPT, would
 * be served): its request waits in a list, and is answered by the
 * stream waker thread, which drains the sources and checks the listed
 * files every STREAM_PERIOD_NS, or by the INTERRUPT of a reader that
 * got a signal (stream_interrupted).
 *
 * Whoever takes a wait off the list under wait_lock replies to it.
 * Lock order: the request's lock (libfuse, around an interrupt
 * callback), wait_lock, o->lock, tracing->lock.
 */
#define STREAM_PERIOD_NS (10 * 1000 * 1000)

struct stream_wait {
	fuse_req_t req;
	struct tf_open *o;
	size_t size;
	struct stream_wait *next;
};

/*
 * The FUSE session's plumbing (the stream waker here, the poll thread
 * and the invalidation queue below, the session and attr_timeout): per
 * mount, and a daemon process serves one mount, so these are the
 * process's.  They hold requests and open files, never a tree's state:
 * the tree is the session's userdata.
 */
static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_cond = PTHREAD_COND_INITIALIZER;
static struct stream_wait *waits;
static pthread_t waker;
static bool waker_running, waker_stop;

static void wait_add_locked(struct stream_wait *w)
{
	struct stream_wait **p = &waits;

	while (*p)	/* FIFO: readers of one file are served in turn */
		p = &(*p)->next;
	w->next = NULL;
	*p = w;
}

/* Takes @req's wait off the list; NULL if someone else took it. */
static struct stream_wait *wait_take_locked(fuse_req_t req)
{
	struct stream_wait **p, *w;

	for (p = &waits; (w = *p); p = &w->next)
		if (w->req == req) {
			*p = w->next;
			return w;
		}
	return NULL;
}

/* libfuse's interrupt callback: the reader got a signal. */
static void stream_interrupted(fuse_req_t req, void *data)
{
	struct stream_wait *w;

	(void)data;
	pthread_mutex_lock(&wait_lock);
	w = wait_take_locked(req);
	pthread_mutex_unlock(&wait_lock);
	if (w) {
		fuse_reply_err(req, EINTR);
		free(w);
	}
}

/* One pass over the waits: answers those with data or interrupted. */
static void stream_wake_pass(void)
{
	struct stream_wait **p, *w;

	for (p = &waits; (w = *p);) {
		size_t size = w->size;
		char *copy = NULL;
		int ret = 0;

		if (!fuse_req_interrupted(w->req)) {
			pthread_mutex_lock(&w->o->lock);
			/* a cheap look first: render only what has records */
			if (tf_trace_pipe_wakes(w->o))
				ret = stream_take(w->o, &size, &copy);
			pthread_mutex_unlock(&w->o->lock);
			if (ret == 0) {
				p = &w->next;
				continue;
			}
		} else {
			ret = -EINTR;
		}
		*p = w->next;
		reply_copy(w->req, copy, size, ret < 0 ? ret : 0);
		free(w);
	}
}

static void *stream_waker(void *arg)
{
	struct tf_tracing *t = arg;	/* the mount's */

	pthread_mutex_lock(&wait_lock);
	while (!waker_stop) {
		struct timespec ts;

		if (!waits) {
			pthread_cond_wait(&wait_cond, &wait_lock);
			continue;
		}
		/* the sources' records reach the buffers (read-your-events)
		 * without wait_lock: an interrupt is answered meanwhile */
		pthread_mutex_unlock(&wait_lock);
		tf_sources_drain(t->sources);
		pthread_mutex_lock(&wait_lock);
		stream_wake_pass();
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += STREAM_PERIOD_NS;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&wait_cond, &wait_lock, &ts);
	}
	pthread_mutex_unlock(&wait_lock);
	return NULL;
}

/* Parks @req until @o has text or the reader is interrupted. */
static void stream_wait(fuse_req_t req, struct tf_open *o, size_t size)
{
	struct stream_wait *w = malloc(sizeof(*w));
	int err = 0;

	if (!w) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	w->req = req;
	w->o = o;
	w->size = size;
	/* before the wait is listed (once listed, it may be answered and
	 * @req freed at once); a callback that runs now finds nothing to
	 * take, which the check under wait_lock below catches */
	fuse_req_interrupt_func(req, stream_interrupted, NULL);
	pthread_mutex_lock(&wait_lock);
	if (!waker_running && !waker_stop) {
		if (pthread_create(&waker, NULL, stream_waker, o->node.t) == 0)
			waker_running = true;
		else
			err = EAGAIN;
	}
	if (waker_stop)
		err = EIO;
	else if (fuse_req_interrupted(req))
		err = EINTR;
	if (!err) {
		wait_add_locked(w);
		pthread_cond_signal(&wait_cond);
	}
	pthread_mutex_unlock(&wait_lock);
	if (err) {
		fuse_reply_err(req, err);
		free(w);
	}
}

void tf_fuse_ops_stop(void)
{
	struct stream_wait *w;

	pthread_mutex_lock(&wait_lock);
	waker_stop = true;
	pthread_cond_signal(&wait_cond);
	pthread_mutex_unlock(&wait_lock);
	if (waker_running)
		pthread_join(waker, NULL);
	/* the session is over: nobody reads these replies any more */
	while ((w = waits)) {
		waits = w->next;
		fuse_reply_err(w->req, EIO);
		free(w);
	}
}

static void tf_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct tf_open *o = (struct tf_open *)(uintptr_t)fi->fh;
	char *copy = NULL;
	int ret = 0;

	(void)ino;
	if (!o->node.def->show) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_mutex_lock(&o->lock);
	if (o->node.def->flags & TF_FD_STREAM) {
		ret = stream_take(o, &size, &copy);
		pthread_mutex_unlock(&o->lock);
		if (ret == 0 && (o->node.def->flags & TF_FD_EOF)) {
			size = 0;	/* trace_pipe_raw: end of file */
			ret = 1;
		} else if ((ret == 0 || (ret == 1 && size == 0)) &&
			   (o->flags & O_NONBLOCK)) {
			/* tracing_wait_pipe(): O_NONBLOCK comes before end
			 * of file */
			ret = -EAGAIN;
			free(copy);
			copy = NULL;
		}
		if (ret == 0)
			stream_wait(req, o, size);
		else
			reply_copy(req, copy, size, ret < 0 ? ret : 0);
		return;
	}
	if (off == 0 || !o->rendered)
		ret = render(o);
	if (ret == 0)
		ret = copy_out(o, (size_t)off, &size, &copy);
	if (ret == -ENOMEM)
		log_enomem(o, "read");
	pthread_mutex_unlock(&o->lock);
	reply_copy(req, copy, size, ret);
}

static void tf_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct tf_open *o = (struct tf_open *)(uintptr_t)fi->fh;
	long ret;

	(void)ino;
	(void)off;
	if (!o->node.def->write) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	tf_sources_sync(o->node.t->sources);
	lock_for(o);
	ret = event_gone(o) ? -ENODEV : o->node.def->write(o, buf, size);
	unlock_for(o);
	flush_invalidations();	/* the write may have removed events */
	if (ret == -ENOMEM)
		log_enomem(o, "write");
	if (ret < 0)
		fuse_reply_err(req, (int)-ret);
	else
		fuse_reply_write(req, (size_t)ret);
}

/*
 * poll(2).  A file with a poll hook answers for itself; while nothing is
 * ready, the kernel's poll handle waits in a list that a notifier thread
 * checks every POLL_PERIOD_NS (peeking, without tracing->lock), and
 * fuse_lowlevel_notify_poll() makes the kernel poll again when something
 * is.  So the event path never learns about pollers: it only bumps the
 * counters it bumps anyway (for hist: the map's per-slot hits).
 */
#define POLL_PERIOD_NS (20 * 1000 * 1000)
#define TF_DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

struct poll_waiter {
	struct tf_open *o;
	struct fuse_pollhandle *ph;
	struct poll_waiter *next;
};

static pthread_mutex_t poll_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t poll_cond = PTHREAD_COND_INITIALIZER;
static struct poll_waiter *poll_waiters;
static bool poll_thread_running;

/* Drops @o's waiter (its handle destroyed); caller holds poll_lock. */
static void poll_forget_locked(struct tf_open *o)
{
	struct poll_waiter **p, *w;

	for (p = &poll_waiters; (w = *p); p = &w->next)
		if (w->o == o) {
			*p = w->next;
			fuse_pollhandle_destroy(w->ph);
			free(w);
			return;
		}
}

static struct inval *invals;
static void run_invalidations(void);

static void *poll_notifier(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&poll_lock);
	for (;;) {
		struct poll_waiter **p, *w;
		struct timespec ts;

		while (!poll_waiters && !invals)
			pthread_cond_wait(&poll_cond, &poll_lock);
		run_invalidations();
		for (p = &poll_waiters; (w = *p);) {
			unsigned ready;

			pthread_mutex_lock(&w->o->lock);
			ready = event_gone(w->o) ||
				tf_file_poll(w->o->node.def)(w->o, true);
			pthread_mutex_unlock(&w->o->lock);
			if (ready) {
				fuse_lowlevel_notify_poll(w->ph);
				fuse_pollhandle_destroy(w->ph);
				*p = w->next;
				free(w);
			} else {
				p = &w->next;
			}
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += POLL_PERIOD_NS;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&poll_cond, &poll_lock, &ts);
	}
	return NULL;
}

/* Starts the notifier thread if it is not running; poll_lock held. */
static bool notifier_start_locked(void)
{
	pthread_t tid;

	if (poll_thread_running)
		return true;
	if (pthread_create(&tid, NULL, poll_notifier, NULL) != 0)
		return false;
	pthread_detach(tid);
	poll_thread_running = true;
	return true;
}

/*
 * Removed events: the kernel caches the dentries of events/SYS/EVENT
 * (and of events/SYS when the system goes) for ENTRY_TIMEOUT, so that
 * `ls` or `test -d` would still find them.  The removal queues their
 * names here; the notifier thread, which serves no request, tells the
 * kernel (fuse_lowlevel_notify_inval_entry must not run in the path of
 * a request that may hold the directory's lock), and the request that
 * removed them waits for that before it replies.
 */
struct inval {
	fuse_ino_t parent;
	struct inval *next;
	char name[];
};

static struct fuse_session *session;
static struct inval **invals_tail = &invals;
static uint64_t invals_queued, invals_done;
static pthread_cond_t invals_cond = PTHREAD_COND_INITIALIZER;

void tf_fuse_set_session(struct fuse_session *se)
{
	pthread_mutex_lock(&poll_lock);
	session = se;
	pthread_mutex_unlock(&poll_lock);
}

static void queue_inval(fuse_ino_t parent, const char *name)
{
	size_t n = strlen(name);
	struct inval *iv = malloc(sizeof(*iv) + n + 1);

	if (!iv)
		return;		/* the entry times out by itself */
	iv->parent = parent;
	iv->next = NULL;
	memcpy(iv->name, name, n + 1);
	pthread_mutex_lock(&poll_lock);
	if (!session || !notifier_start_locked()) {
		pthread_mutex_unlock(&poll_lock);
		free(iv);
		return;
	}
	*invals_tail = iv;
	invals_tail = &iv->next;
	invals_queued++;
	pthread_cond_signal(&poll_cond);
	pthread_mutex_unlock(&poll_lock);
}

/* The notifier's part; called with poll_lock held, drops it meanwhile. */
static void run_invalidations(void)
{
	while (invals) {
		struct inval *iv = invals;

		invals = iv->next;
		if (!invals)
			invals_tail = &invals;
		pthread_mutex_unlock(&poll_lock);
		fuse_lowlevel_notify_inval_entry(session, iv->parent,
						 iv->name, strlen(iv->name));
		free(iv);
		pthread_mutex_lock(&poll_lock);
		invals_done++;
		pthread_cond_broadcast(&invals_cond);
	}
}

/* Waits (a second at most) until what was queued so far is done. */
static void flush_invalidations(void)
{
	struct timespec ts;
	uint64_t want;

	pthread_mutex_lock(&poll_lock);
	want = invals_queued;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	while (invals_done < want &&
	       pthread_cond_timedwait(&invals_cond, &poll_lock, &ts) == 0)
		;
	pthread_mutex_unlock(&poll_lock);
}

void tf_fuse_event_removed(struct tf_tracing *t, const struct tf_system *sys,
			   const char *name, bool system_gone)
{
	struct tf_trace_array *tr;

	cds_list_for_each_entry(tr, &t->instances, list) {
		queue_inval(tf_ino(tr, TF_N_SYSTEM, sys->index), name);
		if (system_gone)
			queue_inval(tf_ino(tr, TF_N_EVENTS, 0), sys->name);
	}
}

/* Keeps @ph until @o has something to report; false if it cannot. */
static bool poll_wait_for(struct tf_open *o, struct fuse_pollhandle *ph)
{
	struct poll_waiter *w = malloc(sizeof(*w));
	bool ok = true;

	if (!w)
		return false;
	w->o = o;
	w->ph = ph;
	pthread_mutex_lock(&poll_lock);
	ok = notifier_start_locked();
	if (ok) {
		poll_forget_locked(o);	/* the kernel's newest handle wins */
		w->next = poll_waiters;
		poll_waiters = w;
		pthread_cond_signal(&poll_cond);
	}
	pthread_mutex_unlock(&poll_lock);
	if (!ok)
		free(w);
	return ok;
}

static void tf_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	struct tf_open *o = (struct tf_open *)(uintptr_t)fi->fh;
	tf_poll_fn poll_fn = tf_file_poll(o->node.def);
	unsigned revents;

	(void)ino;
	if (!poll_fn) {
		if (ph)
			fuse_pollhandle_destroy(ph);
		fuse_reply_poll(req, TF_DEFAULT_POLLMASK);
		return;
	}
	pthread_mutex_lock(&o->lock);
	lock_for(o);
	revents = event_gone(o) ? POLLERR : poll_fn(o, false);
	unlock_for(o);
	pthread_mutex_unlock(&o->lock);
	if (ph && (revents || !poll_wait_for(o, ph)))
		fuse_pollhandle_destroy(ph);
	fuse_reply_poll(req, revents);
}

/* Lets go of an open file: its file's release, its memory. */
static void open_free(struct tf_open *o)
{
	if (tf_file_poll(o->node.def)) {
		pthread_mutex_lock(&poll_lock);
		poll_forget_locked(o);
		pthread_mutex_unlock(&poll_lock);
	}
	if (o->node.def->release) {
		lock_for(o);
		o->node.def->release(o);
		unlock_for(o);
	}
	atomic_fetch_sub(&o->node.tr->open_refs, 1);
	sb_release(&o->text);
	pthread_mutex_destroy(&o->lock);
	free(o);
}

static void tf_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	open_free((struct tf_open *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

/*
 * Creating or removing an entry of @parent (may_create, may_delete):
 * write and search permission on it, else -EACCES; then -EPERM where
 * tracefs has no such operation (everywhere but instances/, for mkdir
 * and rmdir).
 */
static int may_change(fuse_req_t req, fuse_ino_t parent, bool instances_ok)
{
	struct tf_node dir;
	int ret = may_dir(req, parent, TF_MAY_WRITE | TF_MAY_EXEC);

	if (ret)
		return ret;
	tf_rcu_read_lock();
	ret = resolve(req, parent, &dir);
	tf_rcu_read_unlock();
	if (ret == 0 && !(instances_ok && dir.kind == TF_N_INSTANCES))
		ret = -EPERM;
	return ret;
}

static void tf_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	struct tf_tracing *t = tracing(req);
	struct tf_trace_array *tr = NULL;
	struct fuse_entry_param e;
	struct tf_node dir, child;
	int ret;

	(void)mode;
	ret = may_change(req, parent, true);
	if (ret == 0 && strlen(name) > TF_NAME_MAX)
		ret = -ENAMETOOLONG;
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	tf_sources_sync(t->sources);
	pthread_mutex_lock(&t->lock);
	tf_rcu_read_lock();
	ret = resolve(req, parent, &dir);
	tf_rcu_read_unlock();
	if (ret == 0 && dir.kind != TF_N_INSTANCES)
		ret = -EPERM;
	if (ret == 0)
		ret = tf_instance_create(t, name, &tr);
	if (ret == 0) {
		tf_access_instance_created(tr->id);
		child = dir;
		child.tr = tr;
		child.kind = TF_N_ROOT;
		child.idx = 0;
		child.def = NULL;
		fill_entry(&child, &e);
	}
	pthread_mutex_unlock(&t->lock);
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_entry(req, &e);
}

static void tf_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct timespec ms = { 0, 1000 * 1000 };
	struct tf_tracing *t = tracing(req);
	struct tf_node dir, child;
	unsigned id = 0;
	int ret;

	ret = may_change(req, parent, true);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	/* FUSE sends RELEASE after close() has returned, so a file closed
	 * just before rmdir may still count as open (EBUSY) where the
	 * kernel's synchronous close would not: give such releases up to
	 * 50 ms, outside the lock they may need */
	tf_sources_sync(t->sources);
	for (int tries = 0;; tries++) {
		pthread_mutex_lock(&t->lock);
		tf_rcu_read_lock();
		ret = resolve(req, parent, &dir);
		if (ret == 0 && dir.kind != TF_N_INSTANCES)
			ret = -EPERM;
		if (ret == 0 && tf_node_lookup(&dir, name, &child) == 0)
			id = child.tr->id;
		tf_rcu_read_unlock();
		if (ret == 0)
			ret = tf_instance_remove(t, name);
		pthread_mutex_unlock(&t->lock);
		if (ret != -EBUSY || tries == 50)
			break;
		nanosleep(&ms, NULL);
	}
	if (ret == 0 && id)
		tf_access_instance_removed(id);
	fuse_reply_err(req, -ret);
}

/* open(O_CREAT) of a new name: tracefs has no create, so EACCES for
 * root and for anyone else alike. */
static void tf_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	(void)parent;
	(void)name;
	(void)mode;
	(void)fi;
	fuse_reply_err(req, EACCES);
}

static void tf_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	(void)name;
	(void)mode;
	(void)rdev;
	fuse_reply_err(req, -may_change(req, parent, false));
}

static void tf_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)name;
	fuse_reply_err(req, -may_change(req, parent, false));
}

static void tf_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	int ret = may_change(req, parent, false);

	(void)name;
	(void)newname;
	(void)flags;
	if (ret == -EPERM)
		ret = may_change(req, newparent, false);
	fuse_reply_err(req, -ret);
}

static void tf_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		    const char *newname)
{
	(void)ino;
	(void)newname;
	fuse_reply_err(req, -may_change(req, newparent, false));
}

static void tf_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	(void)link;
	(void)name;
	fuse_reply_err(req, -may_change(req, parent, false));
}

static void tf_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs st;

	(void)ino;
	memset(&st, 0, sizeof(st));
	st.f_bsize = 4096;
	st.f_namemax = TF_NAME_MAX;
	fuse_reply_statfs(req, &st);
}

const struct fuse_lowlevel_ops tf_fuse_ops = {
	.init = tf_init,
	.lookup = tf_lookup,
	.getattr = tf_getattr,
	.setattr = tf_setattr,
	.opendir = tf_opendir,
	.readdir = tf_readdir,
	.open = tf_open,
	.read = tf_read,
	.write = tf_write,
	.release = tf_release,
	.poll = tf_poll,
	.mkdir = tf_mkdir,
	.rmdir = tf_rmdir,
	.create = tf_create,
	.mknod = tf_mknod,
	.unlink = tf_unlink,
	.rename = tf_rename,
	.link = tf_link,
	.symlink = tf_symlink,
	.statfs = tf_statfs,
};
