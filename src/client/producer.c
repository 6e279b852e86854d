// SPDX-License-Identifier: GPL-2.0
/*
 * producer.c - each thread's ring into the daemon (src/source/ring.h)
 * and the writing of one record.
 *
 * A thread's first event through a connection makes its ring: a memfd
 * mapped here, formatted, and handed to the daemon, which maps it too
 * and drains it from a thread of its own.  After that an event costs no
 * system call: a time stamp, a copy into the ring, a release store.
 *
 * A ring belongs to its thread and to its connection at once; whichever
 * lets go last frees it: the thread when it exits (or says it is done),
 * the connection when it is closed (tfc_lock).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "client/client.h"
#include "source/ring.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define read_tsc() __rdtsc()
#else
#define read_tsc() 0
#endif

struct tfc_producer {
	struct tfuse *t;		/* valid while !dead */
	uint64_t conn_id;
	struct tf_ring_writer w;
	void *map;
	size_t map_size;
	int slot;			/* the daemon's number for it */
	bool tsc;
	bool dead;			/* the connection let go (tfc_lock) */
	int refs;			/* thread + connection (tfc_lock) */
	struct tfc_producer *next_thread, *next_conn;
};

/* initial-exec: a few words, read without a call per access */
#define TLS __thread __attribute__((tls_model("initial-exec")))
static TLS struct tfc_producer *tl_last, *tl_list;
static TLS int tl_tid;
static TLS unsigned char *tl_scratch;
static TLS size_t tl_scratch_size;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

int tfc_gettid(void)
{
	if (!tl_tid)
		tl_tid = (int)syscall(SYS_gettid);
	return tl_tid;
}

unsigned char *tfc_scratch(size_t size)
{
	if (size > tl_scratch_size) {
		unsigned char *p = realloc(tl_scratch, size);

		if (!p)
			return NULL;
		tl_scratch = p;
		tl_scratch_size = size;
	}
	return tl_scratch;
}

static void put_ref(struct tfc_producer *p)
{
	if (--p->refs)
		return;
	munmap(p->map, p->map_size);
	free(p);
}

/* The thread lets go of @p (tfc_lock held): tells the daemon, which
 * drains and detaches it, unless the connection went first. */
static void thread_release(struct tfc_producer *p)
{
	tf_ring_writer_close(&p->w);
	if (!p->dead) {
		struct tfc_producer **q;

		tfc_request(p->t, -1, NULL, 0, "CLOSE %d", p->slot);
		p->t->done_written += p->w.ctl->produced;
		p->t->done_lost += p->w.ctl->lost;
		for (q = &p->t->producers; *q; q = &(*q)->next_conn)
			if (*q == p) {
				*q = p->next_conn;
				break;
			}
		p->refs--;	/* the connection's */
	}
	put_ref(p);
}

static void thread_exit(void *arg)
{
	struct tfc_producer *p = arg, *next;

	pthread_mutex_lock(&tfc_lock);
	for (; p; p = next) {
		next = p->next_thread;
		thread_release(p);
	}
	pthread_mutex_unlock(&tfc_lock);
	tl_list = tl_last = NULL;
	free(tl_scratch);
	tl_scratch = NULL;
	tl_scratch_size = 0;
}

static void key_init(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

/* Drops this thread's rings of connections that are gone (tfc_lock). */
static void forget_dead(void)
{
	struct tfc_producer **q = &tl_list;

	while (*q) {
		struct tfc_producer *p = *q;

		if (p->dead) {
			*q = p->next_thread;
			put_ref(p);
		} else {
			q = &p->next_thread;
		}
	}
	pthread_setspecific(exit_key, tl_list);
}

static struct tfc_producer *make_ring(struct tfuse *t)
{
	struct tfc_producer *p = calloc(1, sizeof(*p));
	char comm[17] = "", out[64];
	int fd = -1, slot, tsc, ret;
	size_t data;

	if (!p)
		return NULL;
	pthread_mutex_lock(&tfc_lock);
	data = t->ring_size;
	pthread_mutex_unlock(&tfc_lock);
	p->map_size = TF_RING_CTL_SIZE + data;
	fd = memfd_create("tracefuse-ring", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)p->map_size) < 0)
		goto fail;
	p->map = mmap(NULL, p->map_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_POPULATE, fd, 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		goto fail;
	}
	tf_ring_format(p->map, data, 0);
	prctl(PR_GET_NAME, comm);
	ret = tfc_request(t, fd, out, sizeof(out), "RING %d %d %s",
			  tfc_gettid(), (int)getpid(), comm);
	if (ret < 0) {
		errno = -ret;
		goto fail;
	}
	if (sscanf(out, "%d %d", &slot, &tsc) != 2) {
		errno = EPROTO;
		goto fail;
	}
	close(fd);
	p->slot = slot;
	p->tsc = tsc == 1 && __atomic_load_n(&((struct tf_ring_ctl *)p->map)
					     ->flags, __ATOMIC_ACQUIRE) &
			      TF_RING_TS_TSC;
	tf_ring_writer_init(&p->w, p->map);
	p->t = t;
	p->conn_id = t->id;
	p->refs = 2;
	pthread_once(&key_once, key_init);
	pthread_mutex_lock(&tfc_lock);
	p->next_conn = t->producers;
	t->producers = p;
	forget_dead();
	p->next_thread = tl_list;
	tl_list = p;
	pthread_setspecific(exit_key, tl_list);
	pthread_mutex_unlock(&tfc_lock);
	return p;
fail:
	ret = errno;
	if (p->map)
		munmap(p->map, p->map_size);
	if (fd >= 0)
		close(fd);
	free(p);
	errno = ret;
	return NULL;
}

static struct tfc_producer *ring_of(struct tfuse *t)
{
	struct tfc_producer *p = tl_last;

	if (__builtin_expect(p && __atomic_load_n(&p->t, __ATOMIC_RELAXED) == t &&
			     p->conn_id == t->id, 1))
		return p;
	for (p = tl_list; p; p = p->next_thread)
		if (__atomic_load_n(&p->t, __ATOMIC_ACQUIRE) == t &&
		    p->conn_id == t->id)
			return tl_last = p;
	p = make_ring(t);
	if (p)
		tl_last = p;
	return p;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int tfc_write(struct tfuse *t, const void *common, const void *rest,
	      uint32_t rest_len)
{
	struct tfc_producer *p = ring_of(t);
	int cpu;

	if (!p)
		return -errno;
	cpu = sched_getcpu();
	return tf_ring_write2(&p->w, p->tsc ? read_tsc() : now_ns(),
			      cpu < 0 ? 0 : (uint32_t)cpu, common, 8, rest,
			      rest_len);
}

int tfuse_thread_done(struct tfuse *t)
{
	struct tfc_producer **q;

	if (!t)
		return -EINVAL;
	pthread_mutex_lock(&tfc_lock);
	for (q = &tl_list; *q; q = &(*q)->next_thread) {
		struct tfc_producer *p = *q;

		if (!p->dead && p->t == t && p->conn_id == t->id) {
			*q = p->next_thread;
			if (tl_last == p)
				tl_last = NULL;
			thread_release(p);
			break;
		}
	}
	pthread_once(&key_once, key_init);
	pthread_setspecific(exit_key, tl_list);
	pthread_mutex_unlock(&tfc_lock);
	return 0;
}

void tfc_producers_release(struct tfuse *t)
{
	struct tfc_producer *p, *next;

	pthread_mutex_lock(&tfc_lock);
	for (p = t->producers; p; p = next) {
		next = p->next_conn;
		tf_ring_writer_close(&p->w);
		t->done_written += p->w.ctl->produced;
		t->done_lost += p->w.ctl->lost;
		p->dead = true;
		__atomic_store_n(&p->t, NULL, __ATOMIC_RELEASE);
		put_ref(p);	/* the connection's */
	}
	t->producers = NULL;
	pthread_mutex_unlock(&tfc_lock);
}

void tfc_producers_count(struct tfuse *t, uint64_t *written, uint64_t *lost)
{
	pthread_mutex_lock(&tfc_lock);
	*written = t->done_written;
	*lost = t->done_lost;
	for (struct tfc_producer *p = t->producers; p; p = p->next_conn) {
		*written += __atomic_load_n(&p->w.ctl->produced,
					    __ATOMIC_RELAXED);
		*lost += __atomic_load_n(&p->w.ctl->lost, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&tfc_lock);
}
