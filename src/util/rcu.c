// SPDX-License-Identifier: GPL-2.0
/*
 * rcu.c - lazy reader registration for liburcu's memb flavour.
 *
 * Process-wide by nature: liburcu registers threads, not trees, and one
 * registration serves every tree a thread reads.
 */
#include <pthread.h>

#include "util/rcu.h"

__thread int tf_rcu_registered;

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void unregister_at_exit(void *arg)
{
	(void)arg;
	urcu_memb_unregister_thread();
	tf_rcu_registered = 0;
}

static void make_key(void)
{
	pthread_key_create(&key, unregister_at_exit);
}

void tf_rcu_register_self(void)
{
	pthread_once(&once, make_key);
	urcu_memb_register_thread();
	tf_rcu_registered = 1;
	/* any non-NULL value makes the destructor run at thread exit */
	pthread_setspecific(key, &tf_rcu_registered);
}
