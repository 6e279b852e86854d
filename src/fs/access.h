/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access.h - who owns the tree and who may do what in it: the
 * ownership tracefs gives its files (the uid=, gid= and mode= mount
 * options, chown and chmod that stick, inheritance from the top), and
 * the kernel's permission checks (generic_permission, setattr_prepare,
 * may_create) over those attributes.
 */
#ifndef TF_FS_ACCESS_H
#define TF_FS_ACCESS_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fs/fuse_ops.h"
#include "fs/tree.h"

/* The tree's owner, group and top-directory mode (tracefs's uid=, gid=
 * and mode=): by default the user who mounts, and 0700. */
void tf_access_set_owner(uid_t uid, gid_t gid);
void tf_access_set_root_mode(mode_t mode);

/* Splits tracefs's uid=, gid= and mode= out of a comma-separated -o
 * list (they are not libfuse's); the rest is left in @opts.  Returns 0,
 * or -EINVAL with @bad pointing at the option that is not valid. */
int tf_access_parse_opts(char *opts, const char **bad);

/* @n's attributes as a user sees them: mode, owner, group, times. */
void tf_access_stat(const struct tf_node *n, struct stat *st);

/* A request's caller: its fsuid and fsgid, and its groups, read once. */
struct tf_caller {
	fuse_req_t req;
	uid_t uid;
	gid_t gid;
	int nr_groups;		/* -1 until read */
	gid_t groups[64];
};
void tf_caller_init(struct tf_caller *c, fuse_req_t req);

enum { TF_MAY_EXEC = 1, TF_MAY_WRITE = 2, TF_MAY_READ = 4 };

/* generic_permission(): 0 or -EACCES. */
int tf_access_permission(struct tf_caller *c, const struct stat *st,
			 int mask);

/* chmod, chown, utimes, truncate: the kernel's checks, then remembered
 * (chmod, chown and times; a size change is a no-op, as in tracefs).
 * 0, -EPERM or -EACCES, or -ENOMEM. */
int tf_access_setattr(struct tf_caller *c, const struct tf_node *n,
		      const struct stat *attr, int to_set);

/* An instance was made (@id): its events/ takes the top's owner as it
 * is now, and nothing of a removed instance that had @id survives. */
void tf_access_instance_created(unsigned id);
/* An instance went: its files' chmod and chown are forgotten. */
void tf_access_instance_removed(unsigned id);

#endif
