/* SPDX-License-Identifier: GPL-2.0 */
/*
 * saved_tgids.h - the pid -> tgid map the trace output prints from with
 * record-tgid, as the kernel's tgid_map (a pid not in it prints as
 * "(-------)"), and the text of the saved_tgids file.
 */
#ifndef TF_BUFFER_SAVED_TGIDS_H
#define TF_BUFFER_SAVED_TGIDS_H

#include <pthread.h>
#include <stdatomic.h>

#include "util/strbuf.h"

/* One tree's map (a member of its struct tf_tracing). */
struct tf_saved_tgids {
	_Atomic(atomic_int *) map;	/* one slot per pid, made on demand */
	int max;			/* set before map is published */
	pthread_mutex_t alloc_lock;
};

void tf_saved_tgids_init(struct tf_saved_tgids *st);
void tf_saved_tgids_destroy(struct tf_saved_tgids *st);
/* Allocates the map when record-tgid is first set: 0 or -ENOMEM. */
int tf_saved_tgids_alloc(struct tf_saved_tgids *st);
/* Saves @pid's @tgid; nothing before the map exists.  Lock-free. */
void tf_saved_tgids_record(struct tf_saved_tgids *st, int pid, int tgid);
/* @pid's tgid, or 0 when not saved. */
int tf_saved_tgids_find(struct tf_saved_tgids *st, int pid);
/* Reads the tgid of a task of this host (/proc); 0 if gone. */
int tf_proc_tgid(int pid);
/* "pid tgid" lines in pid order. */
void tf_saved_tgids_show(struct tf_saved_tgids *st, struct strbuf *out);

#endif
