// SPDX-License-Identifier: GPL-2.0
/*
 * access.c - ownership and permission checks of the tree (see access.h).
 *
 * What tracefs does, as Linux 6.12 shows it (tests/perms/owners.sh):
 *
 *  - The tree belongs to the mount's uid= and gid= (here: by default the
 *    user who mounts, so that a user's own mount is that user's); the
 *    top directory has mode= (0700).
 *  - chmod, chown and utimes by root (or the owner) stick to the file.
 *  - A file or directory never chowned takes the top directory's owner
 *    and group as they are now: chgrp of the top reaches every file of
 *    the top level and of every instance (tracefs's
 *    set_tracefs_inode_owner()).  eventfs (events/ and below) does not
 *    follow later changes: its files keep the owner the top had when
 *    their trace array was made (the mount's, for the top level).
 *
 * The checks are the kernel's generic_permission() (owner, then group,
 * supplementary groups included, then others; root passes read and
 * write, and search on directories), setattr_prepare() (chown is root's;
 * chgrp the owner's, to a group of theirs; chmod and setting times the
 * owner's; touching to now needs write access) and may_create() for
 * mkdir, rmdir and the rest: write and search on the parent.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fs/access.h"

#define NR_BUCKETS 1024
#define MAX_TR 0x10000		/* trace array ids: 16 bits of the inode */

/* What chmod, chown and utimes set on one inode. */
struct attr_override {
	uint64_t ino;
	int to_set;		/* FUSE_SET_ATTR_* kept */
	mode_t mode;
	uid_t uid;
	gid_t gid;
	struct timespec atime, mtime;
	struct attr_override *next;
};

struct owner {
	uid_t uid;
	gid_t gid;
	bool set;
};

/*
 * The mount's ownership and attribute state: per mount, and a daemon
 * process serves one mount (main.c), so it is the process's.  No tree
 * state lives here: trees made without a mount (tests, the library's
 * use) never reach this file.
 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct attr_override *buckets[NR_BUCKETS];
static uid_t mount_uid;
static gid_t mount_gid;
static mode_t root_mode = 0700;
/* per instance: the top's owner when it was made (its eventfs's) */
static struct owner made_by[MAX_TR];

void tf_access_set_owner(uid_t uid, gid_t gid)
{
	mount_uid = uid;
	mount_gid = gid;
}

void tf_access_set_root_mode(mode_t mode)
{
	root_mode = mode & 07777;
}

static int parse_id(const char *s, unsigned long *v, int base)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, base);
	if (errno || *end || *s == '-')
		return -EINVAL;
	return 0;
}

int tf_access_parse_opts(char *opts, const char **bad)
{
	char *out = opts, *tok, *save = NULL;
	unsigned long v;

	for (tok = strtok_r(opts, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int ret = 0;

		if (strncmp(tok, "uid=", 4) == 0) {
			ret = parse_id(tok + 4, &v, 10);
			if (ret == 0 && v < (uid_t)-1)
				mount_uid = (uid_t)v;
			else
				ret = -EINVAL;
		} else if (strncmp(tok, "gid=", 4) == 0) {
			ret = parse_id(tok + 4, &v, 10);
			if (ret == 0 && v < (gid_t)-1)
				mount_gid = (gid_t)v;
			else
				ret = -EINVAL;
		} else if (strncmp(tok, "mode=", 5) == 0) {
			ret = parse_id(tok + 5, &v, 8);
			if (ret == 0 && v <= 07777)
				root_mode = (mode_t)v;
			else
				ret = -EINVAL;
		} else {	/* libfuse's: kept, in order */
			size_t n = strlen(tok);

			if (out != opts)
				*out++ = ',';
			memmove(out, tok, n);
			out += n;
			continue;
		}
		if (ret) {
			*bad = tok;
			return ret;
		}
	}
	*out = '\0';
	return 0;
}

static struct attr_override *find_locked(uint64_t ino)
{
	struct attr_override *o = buckets[ino % NR_BUCKETS];

	while (o && o->ino != ino)
		o = o->next;
	return o;
}

static bool is_eventfs(const struct tf_node *n)
{
	switch (n->kind) {
	case TF_N_EVENTS: case TF_N_SYSTEM: case TF_N_EVENT:
	case TF_N_FILE_EVENTS: case TF_N_FILE_SYSTEM: case TF_N_FILE_EVENT:
		return true;
	default:
		return false;
	}
}

/* The top directory's owner and group now; caller holds the lock. */
static struct owner top_owner_locked(void)
{
	struct attr_override *o = find_locked(FUSE_ROOT_ID);
	struct owner w = { mount_uid, mount_gid, true };

	if (o && (o->to_set & FUSE_SET_ATTR_UID))
		w.uid = o->uid;
	if (o && (o->to_set & FUSE_SET_ATTR_GID))
		w.gid = o->gid;
	return w;
}

void tf_access_stat(const struct tf_node *n, struct stat *st)
{
	struct attr_override *o;
	struct owner w;

	tf_node_stat(n, st);
	if (n->kind == TF_N_ROOT && n->tr->id == 0)
		st->st_mode = S_IFDIR | root_mode;
	pthread_mutex_lock(&lock);
	if (!is_eventfs(n))
		w = top_owner_locked();
	else if (n->tr->id && made_by[n->tr->id].set)
		w = made_by[n->tr->id];
	else
		w = (struct owner){ mount_uid, mount_gid, true };
	st->st_uid = w.uid;
	st->st_gid = w.gid;
	o = find_locked(st->st_ino);
	if (o) {
		if (o->to_set & FUSE_SET_ATTR_MODE)
			st->st_mode = (st->st_mode & S_IFMT) | (o->mode & 07777);
		if (o->to_set & FUSE_SET_ATTR_UID)
			st->st_uid = o->uid;
		if (o->to_set & FUSE_SET_ATTR_GID)
			st->st_gid = o->gid;
		if (o->to_set & FUSE_SET_ATTR_ATIME)
			st->st_atim = o->atime;
		if (o->to_set & FUSE_SET_ATTR_MTIME)
			st->st_mtim = o->mtime;
	}
	pthread_mutex_unlock(&lock);
}

void tf_caller_init(struct tf_caller *c, fuse_req_t req)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	c->req = req;
	c->uid = ctx->uid;
	c->gid = ctx->gid;
	c->nr_groups = -1;
}

static bool in_group(struct tf_caller *c, gid_t gid)
{
	if (gid == c->gid)
		return true;
	if (c->nr_groups < 0) {
		/* from /proc/PID/task/TID/status: only when needed */
		int n = fuse_req_getgroups(c->req, 64, c->groups);

		c->nr_groups = n < 0 ? 0 : n > 64 ? 64 : n;
	}
	for (int i = 0; i < c->nr_groups; i++)
		if (c->groups[i] == gid)
			return true;
	return false;
}

int tf_access_permission(struct tf_caller *c, const struct stat *st,
			 int mask)
{
	unsigned bits;

	/* CAP_DAC_OVERRIDE: read, write, and search of directories */
	if (c->uid == 0 && (!(mask & TF_MAY_EXEC) || S_ISDIR(st->st_mode) ||
			    (st->st_mode & 0111)))
		return 0;
	if (c->uid == st->st_uid)
		bits = st->st_mode >> 6;
	else if (in_group(c, st->st_gid))
		bits = st->st_mode >> 3;
	else
		bits = st->st_mode;
	return (bits & (unsigned)mask) == (unsigned)mask ? 0 : -EACCES;
}

/* setattr_prepare() and vfs_utimes(): may @c change what @to_set says? */
static int may_setattr(struct tf_caller *c, const struct stat *st,
		       const struct stat *attr, int to_set)
{
	bool root = c->uid == 0, owner = c->uid == st->st_uid;
	const int times = FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME;

	if ((to_set & FUSE_SET_ATTR_SIZE) &&
	    tf_access_permission(c, st, TF_MAY_WRITE))
		return -EACCES;
	if (root)
		return 0;
	if ((to_set & FUSE_SET_ATTR_UID) &&
	    !(owner && attr->st_uid == st->st_uid))
		return -EPERM;
	if ((to_set & FUSE_SET_ATTR_GID) &&
	    !(owner && (attr->st_gid == st->st_gid ||
			in_group(c, attr->st_gid))))
		return -EPERM;
	if ((to_set & FUSE_SET_ATTR_MODE) && !owner)
		return -EPERM;
	if ((to_set & times) && !owner) {
		/* to a given time: the owner's; to now: write access will do */
		if (((to_set & FUSE_SET_ATTR_ATIME) &&
		     !(to_set & FUSE_SET_ATTR_ATIME_NOW)) ||
		    ((to_set & FUSE_SET_ATTR_MTIME) &&
		     !(to_set & FUSE_SET_ATTR_MTIME_NOW)))
			return -EPERM;
		if (tf_access_permission(c, st, TF_MAY_WRITE))
			return -EACCES;
	}
	return 0;
}

int tf_access_setattr(struct tf_caller *c, const struct tf_node *n,
		      const struct stat *attr, int to_set)
{
	const int keep = FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID |
			 FUSE_SET_ATTR_GID | FUSE_SET_ATTR_ATIME |
			 FUSE_SET_ATTR_MTIME;
	struct attr_override *o;
	struct timespec now;
	struct stat st;
	uint64_t ino;
	int ret;

	tf_access_stat(n, &st);
	ret = may_setattr(c, &st, attr, to_set);
	if (ret || !(to_set & keep))
		return ret;
	ino = st.st_ino;
	clock_gettime(CLOCK_REALTIME, &now);
	pthread_mutex_lock(&lock);
	o = find_locked(ino);
	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o) {
			pthread_mutex_unlock(&lock);
			return -ENOMEM;
		}
		o->ino = ino;
		o->next = buckets[ino % NR_BUCKETS];
		buckets[ino % NR_BUCKETS] = o;
	}
	if (to_set & FUSE_SET_ATTR_MODE)
		o->mode = attr->st_mode;
	if (to_set & FUSE_SET_ATTR_UID)
		o->uid = attr->st_uid;
	if (to_set & FUSE_SET_ATTR_GID)
		o->gid = attr->st_gid;
	if (to_set & FUSE_SET_ATTR_ATIME)
		o->atime = (to_set & FUSE_SET_ATTR_ATIME_NOW) ? now
							       : attr->st_atim;
	if (to_set & FUSE_SET_ATTR_MTIME)
		o->mtime = (to_set & FUSE_SET_ATTR_MTIME_NOW) ? now
							       : attr->st_mtim;
	o->to_set |= to_set & keep;
	pthread_mutex_unlock(&lock);
	return 0;
}

void tf_access_instance_removed(unsigned id)
{
	pthread_mutex_lock(&lock);
	for (unsigned b = 0; b < NR_BUCKETS; b++) {
		struct attr_override **p = &buckets[b], *o;

		while ((o = *p)) {
			if (tf_ino_trace_array(o->ino) == id) {
				*p = o->next;
				free(o);
			} else {
				p = &o->next;
			}
		}
	}
	if (id < MAX_TR)
		made_by[id].set = false;
	pthread_mutex_unlock(&lock);
}

void tf_access_instance_created(unsigned id)
{
	tf_access_instance_removed(id);	/* a previous holder of @id */
	pthread_mutex_lock(&lock);
	if (id < MAX_TR)
		made_by[id] = top_owner_locked();
	pthread_mutex_unlock(&lock);
}
