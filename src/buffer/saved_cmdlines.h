/* SPDX-License-Identifier: GPL-2.0 */
/*
 * saved_cmdlines.h - the pid -> comm map the trace output prints from,
 * as the kernel's saved_cmdlines (a task not in it prints as "<...>").
 */
#ifndef TF_BUFFER_SAVED_CMDLINES_H
#define TF_BUFFER_SAVED_CMDLINES_H

#include <stdbool.h>

#include "util/strbuf.h"

#define TF_COMM_LEN 16

void tf_saved_cmdlines_record(int pid, const char *comm);
/* Reads the comm of a task of this host (/proc); false if gone. */
bool tf_proc_comm(int pid, char comm[TF_COMM_LEN]);
/* Copies the comm of @pid into @comm; false if not saved. */
bool tf_saved_cmdlines_find(int pid, char comm[TF_COMM_LEN]);
void tf_saved_cmdlines_show(struct strbuf *out);
unsigned tf_saved_cmdlines_size(void);
int tf_saved_cmdlines_resize(unsigned n);

#endif
