/* SPDX-License-Identifier: GPL-2.0 */
/*
 * saved_cmdlines.h - the pid -> comm map the trace output prints from,
 * as the kernel's saved_cmdlines (a task not in it prints as "<...>").
 */
#ifndef TF_BUFFER_SAVED_CMDLINES_H
#define TF_BUFFER_SAVED_CMDLINES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "util/strbuf.h"

#define TF_COMM_LEN 16
#define TF_CMDLINE_PID_SLOTS 4096	/* direct-mapped pid -> slot hint */

/* One tree's table (a member of its struct tf_tracing). */
struct tf_saved_cmdlines {
	pthread_mutex_t lock;
	struct tf_cmdline *slots;	/* made on first use */
	unsigned nr_slots;
	unsigned next_slot;
	int hint[TF_CMDLINE_PID_SLOTS];	/* slot + 1 of a pid, by pid % */
	/* changes whenever the table forgets something (saved_cmdlines.c) */
	atomic_uint generation;
	unsigned id;			/* tells tables apart in those caches */
};

void tf_saved_cmdlines_init(struct tf_saved_cmdlines *sc);
void tf_saved_cmdlines_destroy(struct tf_saved_cmdlines *sc);
void tf_saved_cmdlines_record(struct tf_saved_cmdlines *sc, int pid,
			      const char *comm);
/* Reads the comm of a task of this host (/proc); false if gone. */
bool tf_proc_comm(int pid, char comm[TF_COMM_LEN]);
/* Copies the comm of @pid into @comm; false if not saved. */
bool tf_saved_cmdlines_find(struct tf_saved_cmdlines *sc, int pid,
			    char comm[TF_COMM_LEN]);
void tf_saved_cmdlines_show(struct tf_saved_cmdlines *sc, struct strbuf *out);
unsigned tf_saved_cmdlines_size(struct tf_saved_cmdlines *sc);
int tf_saved_cmdlines_resize(struct tf_saved_cmdlines *sc, unsigned n);

#endif
