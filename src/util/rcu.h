/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcu.h - liburcu (memb flavour) for threads tracefuse does not create.
 *
 * The memb flavour needs every reader thread registered; FUSE's worker
 * threads come and go inside libfuse, so a reader registers itself on
 * its first read-side section and unregisters when the thread exits.
 */
#ifndef TF_UTIL_RCU_H
#define TF_UTIL_RCU_H

#include <urcu/urcu-memb.h>

void tf_rcu_register_self(void);

static inline void tf_rcu_read_lock(void)
{
	extern __thread int tf_rcu_registered;

	if (__builtin_expect(!tf_rcu_registered, 0))
		tf_rcu_register_self();
	urcu_memb_read_lock();
}

static inline void tf_rcu_read_unlock(void)
{
	urcu_memb_read_unlock();
}

/*
 * Publishes a pointer for readers' rcu_dereference(): a C11 release store
 * (liburcu's rcu_assign_pointer is a volatile store with a barrier, the
 * same on x86, but invisible to ThreadSanitizer).
 */
#define tf_rcu_assign_pointer(p, v) \
	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

/* Waits for readers; the caller must not be inside a read-side section. */
static inline void tf_rcu_synchronize(void)
{
	urcu_memb_synchronize_rcu();
}

#endif
