/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuse_ops.h - the libfuse low-level operations of the tracefs tree.
 */
#ifndef TF_FS_FUSE_OPS_H
#define TF_FS_FUSE_OPS_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include "trace/trace_array.h"

extern const struct fuse_lowlevel_ops tf_fuse_ops;

/* The session tf_fuse_event_removed() tells the kernel through. */
void tf_fuse_set_session(struct fuse_session *se);
/* tf_tracing.event_removed: drops the kernel's cached dentries of a
 * removed event (and of its system when it has no event left). */
void tf_fuse_event_removed(struct tf_tracing *t, const struct tf_system *sys,
			   const char *name, bool system_gone);
/* How long the kernel may cache attributes (default 1 s). */
void tf_fuse_ops_set_attr_timeout(double seconds);

/* After the session loop: answers the reads still waiting (EIO) and
 * stops the thread that answers them. */
void tf_fuse_ops_stop(void);

#endif
