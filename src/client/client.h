/* SPDX-License-Identifier: GPL-2.0 */
/*
 * client.h - libtracefuse's insides, shared by its files.
 *
 * connection.c   struct tfuse: the session on the daemon's socket
 * producer.c     each thread's ring and the writing of records
 * event_file.c   event files: an event's layout read from its format
 * synth.c        synthetic events: creating, deleting, tracing
 * dynevent.c     the dynevent_cmd builder
 *
 * Only the tfuse_ functions of include/tracefuse/tracefuse.h leave the
 * library (its export list); the rest here is tfc_.
 */
#ifndef TF_CLIENT_CLIENT_H
#define TF_CLIENT_CLIENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <tracefuse/tracefuse.h>

#define TFC_DEFAULT_RING	(1u << 20)
#define TFC_STR_VAR_LEN_MAX	256	/* a synthetic static string's room */

struct tfc_producer;

struct tfuse {
	uint64_t id;		/* never reused in the process */
	char *mnt;		/* the mount point's real path */
	int fd;			/* the session */
	pthread_mutex_t lock;	/* one request at a time */
	size_t ring_size;
	/* every ring made through this connection (tfc_lock) */
	struct tfc_producer *producers;
	/* counts of rings released already (tfc_lock) */
	uint64_t done_written, done_lost;
	/* event files tfuse_event_write() looked up (events that are not
	 * synthetic: their layout never changes); cache_lock */
	pthread_mutex_t cache_lock;
	struct tfuse_event_file *cache[64];
	unsigned nr_cache;
};

/* A field of an event file's event, as its format gives it. */
struct tfc_field {
	char *name;
	unsigned offset;
	unsigned size;		/* its room in the record */
	bool is_signed;
	bool is_string;
	bool is_dynamic;	/* __data_loc */
	bool is_stack;		/* __data_loc of a non-char array */
};

struct tfuse_event_file {
	struct tfuse *t;
	char *system, *name;
	int id;
	unsigned min_size;	/* the fixed fields' end */
	bool synthetic;
	unsigned n_fields;	/* its own fields, common ones not counted */
	unsigned n_dynamic;
	struct tfc_field *fields;
};

/* Guards producers' lists and their "dead" flags across threads and
 * connections (taken before any tfuse's lock). */
extern pthread_mutex_t tfc_lock;

/*
 * One request on @t's session, with @fd attached when >= 0; the reply's
 * text after "OK" (or "STATS") in @out.  0, or the -errno of "E <errno>",
 * or -EPIPE when the daemon is gone.  Takes @t->lock.
 */
int tfc_request(struct tfuse *t, int fd, char *out, size_t out_size,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Writes one record into the calling thread's ring of @t (made on first
 * use); the first 8 bytes come from @common, the rest from @rest. */
int tfc_write(struct tfuse *t, const void *common, const void *rest,
	      uint32_t rest_len);
/* The calling thread's pid, cached. */
int tfc_gettid(void);
/* Rings of @t: releases all (tfuse_disconnect), adds up their counts. */
void tfc_producers_release(struct tfuse *t);
void tfc_producers_count(struct tfuse *t, uint64_t *written, uint64_t *lost);

/* Per-thread scratch of at least @size bytes for building a record. */
unsigned char *tfc_scratch(size_t size);

#endif
