// SPDX-License-Identifier: GPL-2.0
/*
 * trigger_defer.c - work a trigger puts off within a batch of records
 * (see trigger.h, tf_trigger_defer()): a short FIFO per thread.
 */
#include "trigger/trigger.h"

/*
 * Per thread, as the records being dispatched on it: empty between
 * batches, like the kernel's per-CPU scratch state.
 */
static __thread struct {
	unsigned int depth;		/* batches open (nested: one) */
	unsigned int head, n;
	struct tf_deferred q[TF_DEFERRED_MAX];
} defer;

void tf_triggers_batch_begin(void)
{
	defer.depth++;
}

void tf_triggers_batch_end(void)
{
	if (--defer.depth)
		return;
	for (; defer.n; defer.n--) {
		struct tf_deferred *d = &defer.q[defer.head];

		d->apply(d);
		defer.head = (defer.head + 1) % TF_DEFERRED_MAX;
	}
}

struct tf_deferred *tf_trigger_defer(void)
{
	struct tf_deferred *d;

	if (!defer.depth)
		return NULL;
	d = &defer.q[(defer.head + defer.n) % TF_DEFERRED_MAX];
	if (defer.n == TF_DEFERRED_MAX) {	/* the oldest goes first */
		d->apply(d);
		defer.head = (defer.head + 1) % TF_DEFERRED_MAX;
	} else {
		defer.n++;
	}
	return d;
}
