/*
 * fuse_ops.h - the libfuse low-level operations of the tracefs tree.
 */
#ifndef TF_FS_FUSE_OPS_H
#define TF_FS_FUSE_OPS_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include "events/trace_array.h"

extern const struct fuse_lowlevel_ops tf_fuse_ops;

#endif
