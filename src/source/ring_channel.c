// SPDX-License-Identifier: GPL-2.0
/*
 * ring_channel.c - draining producer rings into the engine (see
 * ring_channel.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buffer/saved_cmdlines.h"
#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "source/ring.h"
#include "source/source.h"
#include "source/ring_channel.h"
#include "source/ring_clock.h"
#include "util/rcu.h"

#define ARENA_SIZE	(256u << 10)	/* copies of one batch's records */
#define SPIN		200		/* empty looks before napping */
#define NAP_MS		1		/* a nap: woken past the watermark */
#define NAPS		100		/* idle naps before sleeping */
#define SLEEP_MS	100		/* bounds a late wake-up */
#define LOG_MAX		16		/* malformed records logged, each */
#define CACHE		64		/* events checked, by id */
#define MAX_DYN		16
#define LAG_PART	4		/* a streaming writer's lead: 1/4 ring */
#define LOOK_NS		20000		/* between looks at its head, then */
#define LAG_MAX_NS	1000000		/* and no longer than this */

/* What a record of one event must satisfy, worked out once. */
struct ev_check {
	const struct tf_event *ev;
	uint64_t seq;
	unsigned min_size;	/* the fixed fields' end */
	bool ftrace;		/* written, not enabled: ftrace system */
	unsigned n_dyn;
	struct {
		unsigned offset;
		bool rel, str;
	} dyn[MAX_DYN];
};

struct tf_ring_channel {
	struct tf_tracing *tracing;
	void *map;
	size_t map_size;
	struct tf_ring_reader r;
	bool tsc;
	pthread_mutex_t lock;		/* one reader of the ring at a time */
	pthread_t thread;
	bool stop;			/* under lock */
	int tid, tgid;
	char comm[TF_COMM_LEN];
	uint64_t records, lost, malformed, logged;	/* atomics */
	uint8_t *arena;
	struct tf_record recs[TF_DISPATCH_BATCH];
	struct ev_check cache[CACHE];
	struct tf_ring_channel *next;	/* channels list */
};

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif


static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A writer streaming records (the last batch was full) is let run ahead
 * by a part of the ring before its records are read.  Reading right
 * behind a writer on another CPU pulls each cache line over while it is
 * being written, and the head's line at every look: both sides then pay
 * more for the transfers than for the records' own work (measured on
 * the 2-CPU machine of docs/performance.md, "Producer ring").  Bounded
 * in time; tfuse_sync() and every read-your-events point drain
 * regardless.
 */
static void let_writer_ahead(struct tf_ring_channel *ch)
{
	uint64_t start = now_ns(), t = start, look = start;

	while (tf_ring_pending(&ch->r) < ch->r.size / LAG_PART &&
	       !__atomic_load_n(&ch->r.ctl->writer_closed, __ATOMIC_RELAXED)) {
		/* a CPU shared with other threads goes to them meanwhile */
		do {
			sched_yield();
			t = now_ns();
		} while (t - look < LOOK_NS);
		if (t - start >= LAG_MAX_NS)
			break;
		look = t;
	}
}

static void count(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static void bad(struct tf_ring_channel *ch, const char *why, int id)
{
	count(&ch->malformed, 1);
	if (__atomic_fetch_add(&ch->logged, 1, __ATOMIC_RELAXED) < LOG_MAX)
		fprintf(stderr, "tracefuse: ring of %s[%d]: record dropped: "
			"%s (id %d)\n", ch->comm, ch->tid, why, id);
}

static bool is_dyn_kind(const struct tf_field *f)
{
	switch (f->kind) {
	case TF_FIELD_STR_DYN:
	case TF_FIELD_STR_REL:
	case TF_FIELD_DYN_ARRAY:
		return true;
	case TF_FIELD_CPUMASK:
		return strncmp(f->type, "__data_loc", 10) == 0;
	default:
		return false;
	}
}

static bool check_build(struct ev_check *c, const struct tf_event *ev)
{
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < ev->nr_fields; i++) {
		const struct tf_field *f = &ev->fields[i];
		unsigned end = f->offset + (is_dyn_kind(f) ? 4 : f->size);

		if (end > c->min_size)
			c->min_size = end;
		if (!is_dyn_kind(f))
			continue;
		if (c->n_dyn == MAX_DYN)
			return false;
		c->dyn[c->n_dyn].offset = f->offset;
		c->dyn[c->n_dyn].rel = f->kind == TF_FIELD_STR_REL;
		c->dyn[c->n_dyn].str = f->kind == TF_FIELD_STR_DYN ||
				       f->kind == TF_FIELD_STR_REL;
		c->n_dyn++;
	}
	c->ev = ev;
	c->seq = ev->seq;
	c->ftrace = strcmp(ev->system, "ftrace") == 0;
	return true;
}

/* The check for @id's event, or NULL with @why set.  RCU read lock. */
static const struct ev_check *check_of(struct tf_ring_channel *ch, int id,
				       const char **why)
{
	const struct tf_event *ev =
		tf_registry_event_by_id(ch->tracing->reg, id);
	struct ev_check *c = &ch->cache[(unsigned)id % CACHE];

	if (!ev) {
		*why = "no event has this id";
		return NULL;
	}
	if (c->ev == ev && c->seq == ev->seq)
		return c;
	if (!check_build(c, ev)) {
		c->ev = NULL;
		*why = "too many dynamic fields to check";
		return NULL;
	}
	return c;
}

static bool record_ok(const struct ev_check *c, const uint8_t *p,
		      uint32_t len, const char **why)
{
	if (len < c->min_size) {
		*why = "shorter than its event's fields";
		return false;
	}
	for (unsigned i = 0; i < c->n_dyn; i++) {
		uint32_t loc, off, n;

		memcpy(&loc, p + c->dyn[i].offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (c->dyn[i].rel)
			off += c->dyn[i].offset + 4;
		if (off > len || n > len - off) {
			*why = "dynamic data outside the record";
			return false;
		}
		if (c->dyn[i].str && n && p[off + n - 1] != '\0') {
			*why = "string not ended";
			return false;
		}
	}
	return true;
}

static void dispatch_run(struct tf_ring_channel *ch, unsigned from,
			 unsigned to)
{
	if (to > from)
		tf_dispatch_locked_n(ch->tracing, ch->recs + from, to - from);
}

/*
 * One batch: copies up to TF_DISPATCH_BATCH records out, gives their
 * space back to the producer, checks and dispatches them.  The number of
 * records taken (of any kind).  Under ch->lock.
 */
static unsigned drain_batch(struct tf_ring_channel *ch)
{
	struct tf_tracing *t = ch->tracing;
	struct tf_ring_record rrs[TF_DISPATCH_BATCH];
	struct tf_ring_clock_line line = { 0 };
	bool have_line = false;
	unsigned n = 0;
	const char *why;
	int taken;

	/* one copy out for the whole batch; the copies are ours, the
	 * producer may reuse the space */
	taken = tf_ring_read_batch(&ch->r, ch->arena, ARENA_SIZE, rrs,
				   TF_DISPATCH_BATCH);
	if (taken == 0)
		return 0;
	tf_ring_reader_release(&ch->r);
	if (taken < 0) {
		bad(ch, "broken framing, the rest skipped", -1);
		return 1;
	}
	tf_rcu_read_lock();
	for (int i = 0; i < taken; i++) {
		struct tf_ring_record *rr = &rrs[i];
		const struct ev_check *c;
		uint16_t id;

		if (rr->type == TF_RING_LOST) {
			count(&ch->lost, rr->lost);
			continue;
		}
		if (rr->type != TF_RING_EVENT || rr->len == UINT32_MAX ||
		    rr->len < 8) {
			bad(ch, "not an event record", -1);
			continue;
		}
		memcpy(&id, rr->payload, 2);
		if (!(c = check_of(ch, id, &why)) ||
		    !record_ok(c, rr->payload, rr->len, &why)) {
			bad(ch, why, id);
			continue;
		}
		if (rr->cpu >= (uint32_t)t->nr_cpus)
			rr->cpu %= (uint32_t)t->nr_cpus;
		if (ch->tsc) {		/* one line for the batch */
			if (!have_line) {
				tf_ring_clock_line(&line, rr->ts);
				have_line = true;
			}
			rr->ts = tf_ring_clock_apply(&line, rr->ts);
		}
		ch->recs[n++] = (struct tf_record){
			.event = c->ev,
			.data = rr->payload,
			.size = rr->len,
			.ts = rr->ts,
			.cpu = (int)rr->cpu,
			.comm = ch->comm,
			.tgid = ch->tgid,
			/* into the top level's buffer, as trace_marker */
			.written = c->ftrace,
		};
	}
	dispatch_run(ch, 0, n);
	tf_rcu_read_unlock();
	count(&ch->records, n);
	return (unsigned)taken;
}

static void *drain_thread(void *arg)
{
	struct tf_ring_channel *ch = arg;
	unsigned idle = 0;
	bool streaming = false;

	for (;;) {
		bool stop, closed;
		unsigned n;

		if (streaming)
			let_writer_ahead(ch);
		pthread_mutex_lock(&ch->lock);
		n = drain_batch(ch);
		stop = ch->stop;
		pthread_mutex_unlock(&ch->lock);
		streaming = n == TF_DISPATCH_BATCH;
		if (n) {
			idle = 0;
			continue;
		}
		closed = __atomic_load_n(&ch->r.ctl->writer_closed,
					 __ATOMIC_ACQUIRE);
		if ((stop || closed) && !tf_ring_pending(&ch->r))
			break;
		if (stop)
			continue;
		if (++idle < SPIN) {
			cpu_relax();
			continue;
		}
		if (idle < SPIN + NAPS)
			tf_ring_reader_sleep(&ch->r, TF_RING_NAPPING, NAP_MS);
		else
			tf_ring_reader_sleep(&ch->r, TF_RING_ASLEEP, SLEEP_MS);
	}
	return NULL;
}

int tf_ring_channel_attach(struct tf_tracing *t, int fd, int tid, int tgid,
			   const char *comm, struct tf_ring_channel **out)
{
	struct tf_sources *srcs = t->sources;
	struct tf_ring_channel *ch;
	struct stat st;
	int ret;

	if (!srcs)	/* the tree's sources were not started */
		return -ENODEV;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)(TF_RING_CTL_SIZE +
							 TF_RING_MIN_DATA) ||
	    st.st_size > (off_t)(TF_RING_CTL_SIZE + TF_RING_MAX_DATA))
		return -EINVAL;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	ch->arena = malloc(ARENA_SIZE);
	ch->map_size = (size_t)st.st_size;
	ch->map = mmap(NULL, ch->map_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, 0);
	if (!ch->arena || ch->map == MAP_FAILED) {
		ret = ch->arena ? -errno : -ENOMEM;
		goto fail;
	}
	ret = tf_ring_reader_init(&ch->r, ch->map, ch->map_size);
	if (ret < 0)
		goto fail_unmap;
	ch->tracing = t;
	ch->tid = tid;
	ch->tgid = tgid;
	snprintf(ch->comm, sizeof(ch->comm), "%s", comm);
	ch->tsc = tf_ring_clock_tsc_usable();
	__atomic_store_n(&ch->r.ctl->flags, ch->tsc ? TF_RING_TS_TSC : 0,
			 __ATOMIC_RELEASE);
	pthread_mutex_init(&ch->lock, NULL);
	if (pthread_create(&ch->thread, NULL, drain_thread, ch) != 0) {
		ret = -EAGAIN;
		pthread_mutex_destroy(&ch->lock);
		goto fail_unmap;
	}
	pthread_mutex_lock(&srcs->ring_lock);
	ch->next = srcs->rings;
	srcs->rings = ch;
	__atomic_fetch_add(&srcs->nr_rings, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&srcs->ring_lock);
	*out = ch;
	return 0;
fail_unmap:
	munmap(ch->map, ch->map_size);
fail:
	free(ch->arena);
	free(ch);
	return ret;
}

bool tf_ring_channel_tsc(const struct tf_ring_channel *ch)
{
	return ch->tsc;
}

void tf_ring_channel_stats(const struct tf_ring_channel *ch,
			   struct tf_ring_stats *st)
{
	st->records = __atomic_load_n(&ch->records, __ATOMIC_RELAXED);
	st->lost = __atomic_load_n(&ch->lost, __ATOMIC_RELAXED);
	st->malformed = __atomic_load_n(&ch->malformed, __ATOMIC_RELAXED);
}

void tf_ring_channel_detach(struct tf_ring_channel *ch,
			    struct tf_ring_stats *final)
{
	struct tf_sources *srcs = ch->tracing->sources;
	struct tf_ring_channel **p;
	struct tf_ring_stats st;

	pthread_mutex_lock(&srcs->ring_lock);
	for (p = &srcs->rings; *p; p = &(*p)->next)
		if (*p == ch) {
			*p = ch->next;
			__atomic_fetch_sub(&srcs->nr_rings, 1, __ATOMIC_RELEASE);
			break;
		}
	pthread_mutex_unlock(&srcs->ring_lock);
	pthread_mutex_lock(&ch->lock);
	ch->stop = true;
	pthread_mutex_unlock(&ch->lock);
	tf_ring_wake_reader(ch->r.ctl);
	pthread_join(ch->thread, NULL);
	tf_ring_channel_stats(ch, &st);
	if (final)
		*final = st;
	if (st.malformed > LOG_MAX)
		fprintf(stderr, "tracefuse: ring of %s[%d]: %llu malformed "
			"records dropped in all\n", ch->comm, ch->tid,
			(unsigned long long)st.malformed);
	pthread_mutex_lock(&srcs->ring_lock);
	srcs->gone[0] += st.records;
	srcs->gone[1] += st.lost;
	srcs->gone[2] += st.malformed;
	pthread_mutex_unlock(&srcs->ring_lock);
	pthread_mutex_destroy(&ch->lock);
	munmap(ch->map, ch->map_size);
	free(ch->arena);
	free(ch);
}

/*
 * Drains @ch up to the head it has now.  Under the channel's lock even
 * when nothing seems pending: the drain thread may have taken the last
 * records out of the ring and still be dispatching them, and a reader
 * that syncs must find them dispatched.
 */
static void sync_one(struct tf_ring_channel *ch)
{
	uint64_t head = __atomic_load_n(&ch->r.ctl->data_head,
					__ATOMIC_ACQUIRE);

	pthread_mutex_lock(&ch->lock);
	while ((int64_t)(head - ch->r.tail) > 0 && drain_batch(ch))
		;
	pthread_mutex_unlock(&ch->lock);
}

void tf_ring_channels_sync(struct tf_sources *srcs)
{
	struct tf_ring_channel *ch;

	if (!__atomic_load_n(&srcs->nr_rings, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&srcs->ring_lock);
	for (ch = srcs->rings; ch; ch = ch->next)
		sync_one(ch);
	pthread_mutex_unlock(&srcs->ring_lock);
}

void tf_ring_channels_total(struct tf_sources *srcs, struct tf_ring_stats *st)
{
	struct tf_ring_channel *ch;

	pthread_mutex_lock(&srcs->ring_lock);
	*st = (struct tf_ring_stats){ srcs->gone[0], srcs->gone[1],
				      srcs->gone[2] };
	for (ch = srcs->rings; ch; ch = ch->next) {
		struct tf_ring_stats one;

		tf_ring_channel_stats(ch, &one);
		st->records += one.records;
		st->lost += one.lost;
		st->malformed += one.malformed;
	}
	pthread_mutex_unlock(&srcs->ring_lock);
}
