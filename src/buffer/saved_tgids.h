/* SPDX-License-Identifier: GPL-2.0 */
/*
 * saved_tgids.h - the pid -> tgid map the trace output prints from with
 * record-tgid, as the kernel's tgid_map (a pid not in it prints as
 * "(-------)"), and the text of the saved_tgids file.
 */
#ifndef TF_BUFFER_SAVED_TGIDS_H
#define TF_BUFFER_SAVED_TGIDS_H

#include "util/strbuf.h"

/* Allocates the map when record-tgid is first set: 0 or -ENOMEM. */
int tf_saved_tgids_alloc(void);
/* Saves @pid's @tgid; nothing before the map exists.  Lock-free. */
void tf_saved_tgids_record(int pid, int tgid);
/* @pid's tgid, or 0 when not saved. */
int tf_saved_tgids_find(int pid);
/* Reads the tgid of a task of this host (/proc); 0 if gone. */
int tf_proc_tgid(int pid);
/* "pid tgid" lines in pid order. */
void tf_saved_tgids_show(struct strbuf *out);

#endif
