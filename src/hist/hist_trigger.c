// SPDX-License-Identifier: GPL-2.0
/*
 * hist_trigger.c - the "hist" trigger command: parsing a write into a
 * trigger (the kernel's event_hist_trigger_parse), the matching rules
 * that removal, pause/cont/clear and the duplicate check share
 * (hist_trigger_match), named histograms shared between triggers, and
 * the event path (event_hist_trigger) that feeds the tracing_map.
 *
 * Control functions run under tracing->lock.  The event path runs under
 * the RCU read lock, allocates nothing and takes no lock: the map is
 * read through rcu_dereference because a clear replaces it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/urcu-memb.h>

#include "buffer/saved_cmdlines.h"
#include "buffer/trace_clock.h"
#include "filter/filter.h"
#include "hist/hist_internal.h"
#include "synth/synth.h"
#include "util/rcu.h"
#include "util/short_copy.h"

/* ---- ingest slots: one per live thread, reused after it exits ---------- */

/*
 * Process-wide on purpose: a slot names a thread, not a tree; a thread
 * writes the same slot of every map of every tree, so two trees in one
 * process share the allocator and nothing else.
 */
static uint64_t slot_bits[TRACING_MAP_SLOTS_MAX / 64];
static pthread_key_t slot_key;
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static __thread int slot_id = -1;
static unsigned int slot_overflow;

static void slot_release(void *p)
{
	int id = (int)(intptr_t)p - 1;

	if (id >= 0 && id < TRACING_MAP_SLOTS_MAX)
		__atomic_and_fetch(&slot_bits[id / 64], ~(1ull << (id % 64)),
				   __ATOMIC_RELEASE);
}

static void slot_init(void)
{
	pthread_key_create(&slot_key, slot_release);
}

static int slot_claim(void)
{
	for (int w = 0; w < TRACING_MAP_SLOTS_MAX / 64; w++) {
		uint64_t old = __atomic_load_n(&slot_bits[w], __ATOMIC_RELAXED);

		while (~old) {
			int b = __builtin_ctzll(~old);

			if (__atomic_compare_exchange_n(&slot_bits[w], &old,
							old | (1ull << b), false,
							__ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED)) {
				pthread_setspecific(slot_key,
						    (void *)(intptr_t)(w * 64 + b + 1));
				return w * 64 + b;
			}
		}
	}
	/* more live threads than slots: share (counts may then race) */
	return (int)(__atomic_fetch_add(&slot_overflow, 1, __ATOMIC_RELAXED) %
		     TRACING_MAP_SLOTS_MAX);
}

/*
 * The tracing_map wants one writer per slot.  A thread keeps its slot
 * for life; maps have HIST_MAP_SLOTS(nr_cpus) slots, which covers the
 * per-CPU ingest threads plus FUSE's workers; beyond that, threads
 * share a slot (see the report: an adapter the map does not provide).
 */
static __attribute__((noinline)) unsigned int hist_slot_first(void)
{
	pthread_once(&slot_once, slot_init);
	slot_id = slot_claim();
	return (unsigned int)slot_id;
}

/* The ingest slot of the calling thread in a map of n_slots. */
static inline unsigned int hist_slot(unsigned int n_slots)
{
	unsigned int id = __builtin_expect(slot_id >= 0, 1) ?
			  (unsigned int)slot_id : hist_slot_first();

	/* no division on the event path: slot ids are below n_slots
	 * unless more threads than slots came and went */
	if (__builtin_expect(id < n_slots, 1))
		return id;
	return id % n_slots;
}

/* ---- named histograms ---------------------------------------------------- */

/* A name ("name=foo") shared by triggers: one hist_data, one map. */
struct named_hist {
	char *name;
	struct hist_data *hist_data;
	struct named_hist *next;
};

/* The named histograms of @file's tree. */
static struct tf_hist_state *hist_state(const struct tf_event_file *file)
{
	return file->tr->tracing->hist;
}

static struct hist_data *find_named(struct tf_hist_state *st,
				    const char *name)
{
	struct named_hist *n;
	struct hist_data *hd = NULL;

	pthread_mutex_lock(&st->named_lock);
	for (n = st->named; n; n = n->next)
		if (!strcmp(n->name, name)) {
			hd = n->hist_data;
			break;
		}
	pthread_mutex_unlock(&st->named_lock);
	return hd;
}

static int save_named(struct tf_hist_state *st, const char *name,
		      struct hist_data *hd)
{
	struct named_hist *n = calloc(1, sizeof(*n));

	if (!n || !(n->name = strdup(name))) {
		free(n);
		return -ENOMEM;
	}
	n->hist_data = hd;
	pthread_mutex_lock(&st->named_lock);
	n->next = st->named;
	st->named = n;
	pthread_mutex_unlock(&st->named_lock);
	return 0;
}

static void del_named(struct tf_hist_state *st, struct hist_data *hd)
{
	struct named_hist **p, *n;

	pthread_mutex_lock(&st->named_lock);
	for (p = &st->named; (n = *p); p = &n->next)
		if (n->hist_data == hd) {
			*p = n->next;
			free(n->name);
			free(n);
			break;
		}
	pthread_mutex_unlock(&st->named_lock);
}

/* ---- matching (hist_trigger_match) --------------------------------------- */

static bool compatible_field(const struct tf_field *a, const struct tf_field *b)
{
	if (a == b)
		return true;
	if (!a || !b)
		return false;
	return !strcmp(a->name, b->name) && !strcmp(a->type, b->type) &&
	       a->size == b->size && a->is_signed == b->is_signed;
}

static struct hist_trigger *priv(const struct tf_trigger *t)
{
	return t->private_data;
}

static bool is_hist_trigger(const struct tf_trigger *t)
{
	return t->cmd == &hist_command;
}

/*
 * @data: the trigger just parsed (its own hist_data); @test: a registered
 * one; @named: the named histogram @data names, if any.
 */
static bool hist_trigger_match(const struct tf_trigger *data,
			       const struct tf_trigger *test,
			       const struct hist_data *named, bool ignore_filter)
{
	const struct hist_data *hd = priv(data)->hist_data;
	const struct hist_data *ht = priv(test)->hist_data;
	unsigned int i;

	if (named && ht != named)
		return false;
	if (!named && priv(test)->name)
		return false;
	if (hd->n_vals != ht->n_vals || hd->n_fields != ht->n_fields ||
	    hd->n_sort_keys != ht->n_sort_keys)
		return false;
	if (!ignore_filter && (!data->filter_str != !test->filter_str))
		return false;
	for (i = 0; i < hd->n_fields; i++) {
		const struct hist_field *a = hd->fields[i], *b = ht->fields[i];

		if (a->flags != b->flags || !compatible_field(a->field, b->field) ||
		    a->offset != b->offset || a->size != b->size ||
		    a->is_signed != b->is_signed)
			return false;
		if (!!a->var.name != !!b->var.name ||
		    (a->var.name && strcmp(a->var.name, b->var.name) != 0))
			return false;
	}
	for (i = 0; i < hd->n_sort_keys; i++)
		if (hd->sort_keys[i].field_idx != ht->sort_keys[i].field_idx ||
		    hd->sort_keys[i].descending != ht->sort_keys[i].descending)
			return false;
	if (!ignore_filter && data->filter_str &&
	    strcmp(data->filter_str, test->filter_str))
		return false;
	return actions_match(hd, ht);
}

/* ---- the trigger ops ----------------------------------------------------- */

/*
 * The last trigger of a histogram is gone: its variables leave the
 * trace array's list, the histograms made for its field variables go,
 * then it does (event_hist_trigger_free).
 */
static void hist_put(struct hist_data *hd)
{
	if (--hd->refs > 0)
		return;
	if (hd->attrs && hd->attrs->name)
		del_named(hd->tracing->hist, hd);
	remove_hist_vars(hd);
	unregister_field_var_hists(hd);
	hist_data_free(hd);
}

/*
 * From this many entries a map's buckets and sums outgrow the caches of
 * the machines tracefuse is measured on (docs/performance.md "Hist end
 * to end", 2026-12-03): below it a prefetch only costs instructions.
 */
#define HIST_PREFETCH_MIN_ELTS	(1u << 14)

static int hist_trigger_init(struct tf_trigger *data)
{
	struct hist_trigger *ht = data->private_data;
	struct hist_data *hd = ht ? ht->hist_data : NULL;

	/* a key of one word read straight from the record: the simple case
	 * (hist_update_simple), or one with variables or actions whose key
	 * is an event field (hist_trigger_func) */
	data->prefetch = hd && hd->n_keys == 1 && hd->map &&
			 hd->map->key_size == 8 &&
			 hd->fields[hd->n_vals]->fn == HIST_FN_NUM &&
			 hd->map->max_elts >= HIST_PREFETCH_MIN_ELTS;
	/* worth putting off while its bucket is fetched (see "Deferred
	 * updates"): a simple histogram whose map outgrows the caches
	 * (parsing caps its keys and values at the map's maxima) */
	if (hd && hd->simple)
		hd->deferrable = hd->map &&
				 hd->map->max_elts >= HIST_PREFETCH_MIN_ELTS;
	data->generates = false;
	for (unsigned int i = 0; hd && i < hd->n_actions; i++)
		if (hd->actions[i]->action == ACTION_TRACE)
			data->generates = true;
	return 0;
}

static void hist_trigger_free(struct tf_trigger *data)
{
	struct hist_trigger *ht = data->private_data;
	struct tf_synth_event *se;

	if (!ht)
		return;
	/* a synthetic event is busy while a hist trigger is on it */
	se = tf_synth_of_event(data->file->event);
	if (se)
		se->ref--;
	hist_put(ht->hist_data);
	free(ht->name);
	free(ht);
	data->private_data = NULL;
}

/* trace_clock_in_ns(): common_timestamp.usecs converts only these */
static bool clock_in_ns(const struct tf_trace_array *tr)
{
	return !tr || atomic_load_explicit(&tr->clock_in_ns,
					   memory_order_relaxed);
}

/* The comm a new entry saves (the kernel's save_comm(current)). */
/* @hd's tree's saved comm of the task, when the record brings none */
static void record_comm(const struct hist_data *hd,
			const struct tf_record *rec, char comm[HIST_COMM_LEN])
{
	int32_t pid = -1;

	if (rec->size >= 8)
		memcpy(&pid, rec->data + 4, 4);
	if (pid == 0) {
		strcpy(comm, "<idle>");
		return;
	}
	if (rec->comm) {
		strncpy(comm, rec->comm, HIST_COMM_LEN - 1);
		comm[HIST_COMM_LEN - 1] = '\0';
		return;
	}
	if (pid < 0 ||
	    !tf_saved_cmdlines_find(&hd->tracing->cmdlines, pid, comm))
		strcpy(comm, "<...>");
}

static void add_string_key(unsigned char *key, const struct hist_field *f,
			   const struct tf_record *rec)
{
	const char *s = NULL;
	unsigned len = 0;

	if (f->fn == HIST_FN_COMM) {
		char comm[HIST_COMM_LEN];

		record_comm(f->hist_data, rec, comm);
		len = strnlen(comm, HIST_COMM_LEN - 1);
		if (len > f->size - 1)
			len = f->size - 1;
		memcpy(key + f->offset, comm, len);
		return;
	}
	s = tf_field_read_str(f->field, rec->data, rec->size, &len);
	if (!s)
		return;
	if (len > f->size - 1)
		len = f->size - 1;
	/* strncpy: stops at a NUL inside the string */
	len = strnlen(s, len);
	memcpy(key + f->offset, s, len);
}

/* @hd's numeric keys in order (keys_end), from a record that holds them
 * (a histogram has one key at least: the first outside the loop) */
static inline void read_num_keys(const struct hist_data *hd,
				 const uint8_t *data, void *key)
{
	uint64_t v0 = hist_rd(hd->fields[hd->n_vals], data);

	memcpy(key, &v0, 8);
	for (unsigned int i = 1; i < hd->n_keys; i++) {
		uint64_t v = hist_rd(hd->fields[hd->n_vals + i], data);

		memcpy((unsigned char *)key + 8 * i, &v, 8);
	}
}

/* simple_key_vals() for a record too short for some field: each read
 * as hist_fn_call() does it (0 for a field past the end) */
static __attribute__((noinline)) void
simple_key_vals_checked(const struct hist_data *hd,
			const struct tf_record *rec, uint64_t *key,
			uint64_t *vals)
{
	struct hist_ctx cx = { .rec = rec };
	unsigned int i;

	for (i = hd->n_vals; i < hd->n_fields; i++) {
		uint64_t v = hist_eval(&cx, hd->fields[i]);

		memcpy((unsigned char *)key + hd->fields[i]->offset, &v, 8);
	}
	for (i = 0; i < hd->n_vals; i++)
		vals[i] = hist_eval(&cx, hd->fields[i]);
}

/*
 * The common case without the general loop: event fields as the keys
 * (one word each), hitcount and event fields as values (hd->simple).
 * Same results.  In two halves: the key and values read from the
 * record, then added to the map (maybe some records later: "Deferred
 * updates" below).
 */
static inline void simple_key_vals(const struct hist_data *hd,
				   const struct tf_record *rec, uint64_t *key,
				   uint64_t *vals)
{
	unsigned int i;

	if (__builtin_expect(rec->size < hd->simple_end, 0)) {
		simple_key_vals_checked(hd, rec, key, vals);
		return;
	}
	/* every field in the record: no check per field */
	read_num_keys(hd, rec->data, key);
	for (i = 0; i < hd->n_vals; i++)
		vals[i] = hd->fields[i]->fn == HIST_FN_COUNTER ? 1 :
			  hist_rd(hd->fields[i], rec->data);
}

static void simple_add(struct tracing_map *map, unsigned int slot,
		       struct tracing_map_elt *elt, const uint64_t *vals)
{
	uint64_t *sums;

	if (!elt)
		return;
	sums = tracing_map_slot_sums(map, slot, elt);
	for (unsigned int i = 0; i < map->n_vals; i++)
		/* single writer: a plain add, atomic only for readers */
		__atomic_store_n(&sums[i], __atomic_load_n(&sums[i],
				 __ATOMIC_RELAXED) + vals[i], __ATOMIC_RELAXED);
}

static void hist_update_simple(struct hist_data *hd,
			       const struct tf_record *rec)
{
	struct tracing_map *map = rcu_dereference(hd->map);
	uint64_t key[HIST_KEY_SIZE_MAX / 8], vals[TRACING_MAP_VALS_MAX];
	unsigned int slot = hist_slot(map->n_slots);

	simple_key_vals(hd, rec, key, vals);
	simple_add(map, slot, tracing_map_insert_comm(map, slot, key,
				tracing_map_hash(key, map->key_size), NULL), vals);
}

/*
 * Deferred updates.  A simple histogram's update is a key and sums read
 * from the record, added to a map that nothing on the event path reads
 * (it has no variables).  Inside a batch of records, where the
 * lookahead does not fetch its bucket (a key of several words, or a
 * generated record the lookahead never sees; a one-word key of a
 * source's record is left to the lookahead), the update is put off
 * (tf_trigger_defer()) while its bucket (with a second key word) and
 * sums are fetched: the miss overlaps the following records' work instead of
 * stalling this one.  Whether the trigger fires (pause, filter, count)
 * was decided when it fired; the updates of a thread's slot are
 * applied in their order; readers and file operations wait for the
 * batch (the sources' sync), so none sees the difference.
 */
struct hist_deferred {
	struct tracing_map *map;
	uint32_t hash;
	unsigned int slot;
	uint64_t key[TRACING_MAP_KEYS_MAX];
	uint64_t vals[TRACING_MAP_VALS_MAX];
};

_Static_assert(sizeof(struct hist_deferred) <=
	       sizeof(((struct tf_deferred *)0)->data),
	       "a deferred hist update fits a tf_deferred");

static void deferred_apply(struct tf_deferred *d)
{
	struct hist_deferred *u = (struct hist_deferred *)d->data;

	simple_add(u->map, u->slot,
		   tracing_map_insert_hashed(u->map, u->slot, u->key,
					     u->hash),
		   u->vals);
}

/* false: not in a batch, update now */
static inline __attribute__((always_inline)) bool
hist_update_deferred(struct hist_data *hd, const struct tf_record *rec)
{
	struct tf_deferred *d = tf_trigger_defer();
	struct hist_deferred *u;

	if (!d)
		return false;
	u = (struct hist_deferred *)d->data;
	d->apply = deferred_apply;
	u->map = rcu_dereference(hd->map);
	u->slot = hist_slot(u->map->n_slots);
	simple_key_vals(hd, rec, u->key, u->vals);
	u->hash = tracing_map_prefetch_key(u->map, u->slot, u->key);
	return true;
}

/* The first key's value for a record too short for it, or of a key
 * that is no plain field. */
static __attribute__((noinline)) uint64_t
first_key_checked(const struct hist_data *hd, const struct tf_record *rec)
{
	struct hist_ctx cx = { .rec = rec };

	return hist_eval(&cx, hd->fields[hd->n_vals]);
}

/* ops->prefetch: what hist_update_simple() will read for @rec. */
static void hist_trigger_prefetch(struct tf_trigger *data,
				  const struct tf_record *rec)
{
	struct hist_trigger *ht = data->private_data;
	struct hist_data *hd = ht->hist_data;
	struct tracing_map *map = rcu_dereference(hd->map);
	uint64_t key = hd->keys_end &&
		       __builtin_expect(rec->size >= hd->keys_end, 1) ?
		       hist_rd(hd->fields[hd->n_vals], rec->data) :
		       first_key_checked(hd, rec);

	tracing_map_prefetch_word(map, hist_slot(map->n_slots), key);
}

/*
 * The kernel's hist_pad: where a hist trigger's referenced variables are
 * gathered for an event, per CPU there, per thread here, one level per
 * nested trigger (an action's synthetic event firing another).  It is
 * not cleared between events: a histogram's values that reference its
 * own variables read what the last event left (the kernel's do too).
 * Per thread, as the kernel's per CPU: a scratch area for the record
 * being processed, not a tree's state.
 */
#define HIST_PAD_DEPTH	4
static __thread uint64_t hist_pad[HIST_PAD_DEPTH][TRACING_MAP_VARS_MAX];
static __thread unsigned int hist_pad_cnt;

/*
 * The kernel's resolve_var_refs(), in two halves.  The variables @hd
 * references in other histograms, looked up under this event's key;
 * false when one is unset.  A reference in an expression consumes the
 * other histogram's value.  @hash is @key's in this event's map, of
 * @key_size bytes: the other map's too where its keys are as long.
 */
static bool resolve_other_refs(struct hist_data *hd, const void *key,
			       unsigned int key_size, uint32_t hash,
			       uint64_t *vals)
{
	for (unsigned int j = 0; j < hd->n_other_refs; j++) {
		unsigned int i = hd->other_refs[j];
		const struct hist_field *ref = hd->var_refs[i];
		unsigned int idx = ref->var.idx;
		struct tracing_map *other = rcu_dereference(
				ref->var.hist_data->map);
		struct tracing_map_elt *elt;

		elt = other->key_size == key_size ?
		      tracing_map_lookup_hashed(other, key, hash) :
		      tracing_map_lookup(other, key);
		if (!elt || !tracing_map_var_set(elt, idx))
			return false;
		vals[i] = ref->read_once ? tracing_map_read_var_once(elt, idx)
					 : tracing_map_read_var(elt, idx);
	}
	return true;
}

/*
 * A direct field variable's value (mark_direct_field_vars): a number
 * from the record, or a string where the record holds it, NUL and all
 * within the bytes the entry's copy would take; else that copy.
 */
static uint64_t direct_field_var(const struct hist_ctx *cx,
				 const struct hist_field *ref)
{
	const struct hist_field *f = ref->direct;
	const struct tf_record *rec = cx->rec;
	const struct tf_field *fl = f->field;
	char *str;

	if (f->fn != HIST_FN_STRING)
		return hist_eval(cx, f);
	if (fl->offset + fl->size <= rec->size &&
	    tf_short_has_nul(rec->data + fl->offset, hist_str_size(f)))
		return (uint64_t)(uintptr_t)(rec->data + fl->offset);
	str = tracing_map_elt_str(cx->map, cx->elt, ref->direct_str);
	hist_copy_str(str, f, rec, 0);
	return (uint64_t)(uintptr_t)str;
}

/* ... and those in itself: in @self, the entry of this event's key,
 * just updated; read, not consumed. */
static inline bool resolve_self_refs(const struct hist_ctx *cx,
				     const struct hist_data *hd,
				     uint64_t *vals,
				     struct tracing_map_elt *self)
{
	for (unsigned int j = 0; j < hd->n_self_refs; j++) {
		unsigned int i = hd->self_refs[j];
		const struct hist_field *ref = hd->var_refs[i];
		unsigned int idx = ref->var.idx;

		if (ref->direct) {
			vals[i] = direct_field_var(cx, ref);
			continue;
		}
		if (!tracing_map_var_set(self, idx))
			return false;
		vals[i] = tracing_map_read_var(self, idx);
	}
	return true;
}

/* The stack a stack key or a stack variable takes: the record's. */
static unsigned int record_stack(const struct tf_record *rec,
				 const uint64_t **frames)
{
	unsigned int n = rec->stack ? rec->nr_stack : 0;

	*frames = rec->stack;
	return n > HIST_STACKTRACE_DEPTH ? HIST_STACKTRACE_DEPTH : n;
}

/* A synthetic event's stack field: a count, then the frames. */
static unsigned int field_stack(const struct hist_field *f,
				const struct tf_record *rec,
				const uint64_t **frames)
{
	uint32_t loc, off, len;
	uint64_t n;

	*frames = NULL;
	if (f->field->offset + 4 > rec->size)
		return 0;
	memcpy(&loc, rec->data + f->field->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (off > rec->size || len > rec->size - off || len < 8)
		return 0;
	memcpy(&n, rec->data + off, 8);
	if (n > (len - 8) / 8)
		n = (len - 8) / 8;
	*frames = (const uint64_t *)(rec->data + off + 8);
	return n > HIST_STACKTRACE_DEPTH ? HIST_STACKTRACE_DEPTH : (unsigned)n;
}

void hist_copy_stack(char *dst, const struct tf_record *rec)
{
	const uint64_t *frames;
	unsigned int n = rec ? record_stack(rec, &frames) : 0;
	uint64_t count = n;

	memset(dst, 0, (HIST_STACKTRACE_DEPTH + 1) * 8);
	memcpy(dst, &count, 8);
	if (n)
		memcpy(dst + 8, frames, (size_t)n * 8);
}

/*
 * A string field's value into @dst (a variable's string, HIST_STR_LEN
 * bytes): at most the field's size less one, as the kernel's strscpy.
 */
void hist_copy_str(char *dst, const struct hist_field *f,
		   const struct tf_record *rec, uint64_t v)
{
	unsigned int size = hist_str_size(f);	/* the entry's string */
	const char *s = NULL;
	unsigned int len = 0;
	char comm[HIST_COMM_LEN];

	if (!size)
		return;
	if (f->fn == HIST_FN_STRING && rec) {
		const struct tf_field *fl = f->field;

		/* a char[N] inside the record: no data_loc to follow */
		if (fl->kind == TF_FIELD_STR_STATIC && fl->size &&
		    fl->offset + fl->size <= rec->size) {
			/* its bytes whole, no strnlen: the string still
			 * ends at their first NUL, cut at size - 1 as by
			 * strscpy */
			len = fl->size < size ? fl->size : size - 1;
			tf_short_copy(dst, rec->data + fl->offset, len);
			dst[len] = '\0';
			return;
		} else {
			s = tf_field_read_str(fl, rec->data, rec->size, &len);
		}
	} else if (f->fn == HIST_FN_COMM && rec) {
		record_comm(f->hist_data, rec, comm);
		s = comm;
		len = (unsigned int)strlen(comm);
	} else if (v) {
		s = (const char *)(uintptr_t)v;
		len = (unsigned int)strnlen(s, size);
	}
	if (!s)
		len = 0;
	if (len > size - 1)
		len = size - 1;
	len = s ? (unsigned int)strnlen(s, len) : 0;
	if (len)
		tf_short_copy(dst, s, len);
	dst[len] = '\0';
}

/* hist_trigger_elt_update(): values, variables, field variables, of
 * the entry cx->elt of cx->map, in @slot. */
static void hist_elt_update(const struct hist_ctx *cx, struct hist_data *hd,
			    unsigned int slot)
{
	struct tracing_map *map = cx->map;
	struct tracing_map_elt *elt = cx->elt;
	unsigned int str_start = hd->n_field_var_str + hd->n_save_var_str;

	for (unsigned int i = 0; i < hd->n_vals; i++) {
		const struct hist_field *f = hd->fields[i];
		uint64_t v;

		if (!(f->flags & HIST_FIELD_FL_VAR)) {
			v = (f->flags & HIST_FIELD_FL_STRING) ? 0 :
			    hist_eval(cx, f);
			tracing_map_update_sum(map, slot, elt, i, v);
			continue;
		}
		/* an event's string is read where it is copied */
		v = f->fn == HIST_FN_STRING ? 0 : hist_eval(cx, f);
		if (!(f->flags & HIST_FIELD_FL_ALIAS) &&
		    (f->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE))) {
			char *str = tracing_map_elt_str(map, elt, str_start +
							f->var_str_idx);

			if (f->flags & HIST_FIELD_FL_STRING)
				hist_copy_str(str, f, cx->rec, v);
			else
				hist_copy_stack(str, cx->rec);
			v = (uint64_t)(uintptr_t)str;
		}
		tracing_map_set_var(elt, f->var.idx, v);
	}
	if (hd->n_field_vars > hd->n_direct_field_vars)
		update_field_vars(cx, hd, elt);
}

/*
 * The kernel's event path for a histogram that sets variables from the
 * record and references none, with no action (the first half of every
 * latency pipeline, `keys=pid:ts0=common_timestamp`): its numeric keys,
 * then each value a sum or a variable, without the general path's
 * scratch pad, references and actions.  Same results.  False: the
 * record is too short for the keys, the general path decides.
 */
static inline __attribute__((always_inline)) bool
hist_update_vars(struct tf_trigger *data, struct hist_data *hd,
		 const struct tf_record *rec)
{
	struct tracing_map *map = rcu_dereference(hd->map);
	uint64_t key[HIST_KEY_SIZE_MAX / 8];
	struct hist_ctx cx;
	unsigned int slot;

	if (__builtin_expect(rec->size < hd->keys_end, 0))
		return false;
	read_num_keys(hd, rec->data, key);
	slot = hist_slot(map->n_slots);
	cx = (struct hist_ctx) {
		.rec = rec,
		.ts_usecs = hd->attrs->ts_in_usecs && clock_in_ns(data->file->tr),
		.map = map,
		.elt = tracing_map_insert_comm(map, slot, key,
				tracing_map_hash(key, map->key_size), NULL),
	};
	if (!cx.elt)
		return true;
	for (unsigned int i = 0; i < hd->n_vals; i++) {
		const struct hist_field *f = hd->fields[i];
		uint64_t v = hist_eval(&cx, f);

		if (f->flags & HIST_FIELD_FL_VAR)
			tracing_map_set_var(cx.elt, f->var.idx, v);
		else
			tracing_map_update_sum(map, slot, cx.elt, i, v);
	}
	return true;
}

/* A simple histogram's event (hd->simple): now, or put off in a batch. */
static inline void hist_simple(const struct tf_trigger *data,
			       struct hist_data *hd,
			       const struct tf_record *rec)
{
	if (!hd->deferrable || (!rec->generated && data->prefetch) ||
	    !hist_update_deferred(hd, rec))
		hist_update_simple(hd, rec);
}

/* The general path, right for every histogram (the short paths' funcs
 * fall back on it); not inlined into them: its frame is what they save */
static __attribute__((noinline)) void
hist_trigger_func(struct tf_trigger *data, const struct tf_record *rec)
{
	struct hist_trigger *ht = data->private_data;
	struct hist_data *hd;
	struct tracing_map *map;
	struct tracing_map_elt *elt;
	unsigned char key[HIST_KEY_SIZE_MAX];
	char comm[HIST_COMM_LEN];
	struct hist_ctx cx;
	uint64_t *vals;
	unsigned int i, slot;
	uint32_t hash;

	if (!rec || !ht)
		return;
	hd = ht->hist_data;
	if (hist_pad_cnt >= HIST_PAD_DEPTH)
		return;
	vals = hist_pad[hist_pad_cnt++];
	/* the trigger's own trace array: a named hist_data may outlive its */
	cx = (struct hist_ctx) {
		.rec = rec,
		.ts_usecs = hd->attrs->ts_in_usecs && clock_in_ns(data->file->tr),
		.var_ref_vals = vals,
	};
	map = rcu_dereference(hd->map);
	/* a referenced histogram may have a longer key: compare zeros */
	if (hd->clear_key_size)
		memset(key, 0, hd->clear_key_size);

	if (hd->keys_end && __builtin_expect(rec->size >= hd->keys_end, 1)) {
		/* numeric keys, in order, all in the record: no checks */
		read_num_keys(hd, rec->data, key);
		i = hd->n_fields;	/* done */
	} else {
		i = hd->n_vals;
	}
	for (; i < hd->n_fields; i++) {
		const struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			const uint64_t *frames;
			unsigned n = f->field ? field_stack(f, rec, &frames)
					      : record_stack(rec, &frames);

			if (n)
				memcpy(key + f->offset, frames, n * 8);
		} else if (f->flags & HIST_FIELD_FL_STRING) {
			add_string_key(key, f, rec);
		} else {
			uint64_t v = hist_eval(&cx, f);

			memcpy(key + f->offset, &v, 8);
		}
	}
	hash = tracing_map_hash(key, map->key_size);
	if (hd->n_other_refs &&
	    !resolve_other_refs(hd, key, map->key_size, hash, vals))
		goto out;
	if (hd->need_comm)
		record_comm(hd, rec, comm);
	slot = hist_slot(map->n_slots);
	elt = tracing_map_insert_comm(map, slot, key, hash,
				      hd->need_comm ? comm : NULL);
	if (!elt)
		goto out;
	cx.elt = elt;
	cx.map = map;
	hist_elt_update(&cx, hd, slot);
	if (resolve_self_refs(&cx, hd, vals, elt) && hd->n_actions)
		hist_trigger_actions(&cx, hd, elt, key, vals);
out:
	hist_pad_cnt--;
}

/*
 * The short paths as functions of their own, so that their events do
 * not pay the general path's frame: a trigger whose histogram is
 * simple, or sets variables only, is registered with the ops whose
 * func goes there first (hist_ops_for()).
 */
static void hist_trigger_func_simple(struct tf_trigger *data,
				     const struct tf_record *rec)
{
	struct hist_trigger *ht = data->private_data;

	if (rec && ht)
		hist_simple(data, ht->hist_data, rec);
}

static void hist_trigger_func_vars(struct tf_trigger *data,
				   const struct tf_record *rec)
{
	struct hist_trigger *ht = data->private_data;

	if (!rec || !ht || !hist_update_vars(data, ht->hist_data, rec))
		hist_trigger_func(data, rec);
}

#define HIST_TRIGGER_OPS(fn) {			\
	.func = fn,				\
	.print = hist_trigger_print,		\
	.init = hist_trigger_init,		\
	.free = hist_trigger_free,		\
	.prefetch = hist_trigger_prefetch,	\
}
static const struct tf_trigger_ops hist_trigger_ops =
	HIST_TRIGGER_OPS(hist_trigger_func);
static const struct tf_trigger_ops hist_simple_ops =
	HIST_TRIGGER_OPS(hist_trigger_func_simple);
static const struct tf_trigger_ops hist_vars_ops =
	HIST_TRIGGER_OPS(hist_trigger_func_vars);

/* The ops of a trigger on @hd (decided when @hd was made, never after). */
static const struct tf_trigger_ops *hist_ops_for(const struct hist_data *hd)
{
	if (hd->simple)
		return &hist_simple_ops;
	if (hd->vars_only)
		return &hist_vars_ops;
	return &hist_trigger_ops;
}

/* ---- registration (hist_register_trigger and friends) -------------------- */

/* tracing_set_clock(): with @tr NULL only checks the name. */
static int set_clock(struct tf_trace_array *tr, const char *clock)
{
	int id = tf_trace_clock_lookup(clock, strlen(clock));

	if (id < 0)
		return id;
	if (tr)		/* resets the trace buffer, as the kernel's */
		tf_trace_array_set_clock(tr, id);
	return 0;
}

static void hist_clear(struct hist_data *hd)
{
	/* events may still arrive: publish an empty map, retire the old */
	tracing_map_replace_rcu(&hd->map);
}

/* pause/cont/clear of an existing trigger: true when one was updated. */
static bool existing_hist_update_only(struct tf_trigger *data,
				      struct tf_event_file *file)
{
	struct hist_data *hd = priv(data)->hist_data;
	struct hist_data *named = NULL;
	struct tf_trigger *test;

	if (!hd->attrs->pause && !hd->attrs->cont && !hd->attrs->clear)
		return false;
	if (hd->attrs->name) {
		named = find_named(hist_state(file), hd->attrs->name);
		if (!named)
			return false;
		/* hist_trigger_match(data, named_data, named_data, true) */
		struct hist_trigger np = { .hist_data = named };
		struct tf_trigger nt = { .private_data = &np };

		np.name = hd->attrs->name;
		if (!hist_trigger_match(data, &nt, named, true))
			return false;
	}
	cds_list_for_each_entry(test, &file->triggers, list) {
		if (!is_hist_trigger(test))
			continue;
		if (!hist_trigger_match(data, test, named, false))
			continue;
		if (hd->attrs->pause)
			__atomic_store_n(&test->paused, true, __ATOMIC_RELAXED);
		else if (hd->attrs->cont)
			__atomic_store_n(&test->paused, false, __ATOMIC_RELAXED);
		else if (hd->attrs->clear)
			hist_clear(priv(test)->hist_data);
		return true;
	}
	return false;
}

static int hist_register(struct hist_err_ctx *ec, struct tf_trigger *data,
			 struct tf_event_file *file)
{
	struct hist_trigger *ht = priv(data);
	struct hist_data *hd = ht->hist_data, *named = NULL;
	struct tf_trigger *test;
	int ret;

	if (hd->attrs->name) {
		named = find_named(hist_state(file), hd->attrs->name);
		if (named) {
			struct hist_trigger np = { .hist_data = named,
						   .name = hd->attrs->name };
			struct tf_trigger nt = { .private_data = &np };

			if (!hist_trigger_match(data, &nt, named, true)) {
				hist_err(ec, HIST_ERR_NAMED_MISMATCH,
					 hist_errpos(ec, hd->attrs->name));
				return -EINVAL;
			}
		}
	}
	if (!hd->attrs->name || named) {
		cds_list_for_each_entry(test, &file->triggers, list) {
			if (is_hist_trigger(test) &&
			    hist_trigger_match(data, test, named, false)) {
				hist_err(ec, HIST_ERR_TRIGGER_EEXIST, 0);
				return -EEXIST;
			}
		}
	}
	if (hd->attrs->cont || hd->attrs->clear) {
		hist_err(ec, HIST_ERR_TRIGGER_ENOENT_CLEAR, 0);
		return -ENOENT;
	}
	if (hd->enable_timestamps) {
		/* checked before anything changes: a failed write changes nothing */
		ret = set_clock(NULL, hd->attrs->clock);
		if (ret) {
			hist_err(ec, HIST_ERR_SET_CLOCK_FAIL,
				 hist_errpos(ec, hd->attrs->clock));
			return ret;
		}
	}
	if (hd->attrs->name) {
		ht->name = strdup(hd->attrs->name);
		if (!ht->name)
			return -ENOMEM;
		if (!named && save_named(hist_state(file), hd->attrs->name, hd)) {
			free(ht->name);
			ht->name = NULL;
			return -ENOMEM;
		}
	}
	if (hd->attrs->pause)
		data->paused = true;
	if (named) {
		/* share the existing histogram; ours goes */
		hist_data_free(hd);
		ht->hist_data = named;
		named->refs++;
	}
	data->ops = hist_ops_for(ht->hist_data);	/* not yet visible */
	ret = tf_trigger_register(file, data);
	if (ret == 0) {
		struct tf_synth_event *se = tf_synth_of_event(file->event);

		if (se)
			se->ref++;
	}
	if (ret < 0) {
		if (named) {
			named->refs--;
			ht->hist_data = NULL;	/* freed above */
		} else if (ht->name) {
			del_named(hist_state(file), hd);
		}
		return ret;
	}
	if (ht->hist_data->enable_timestamps)
		set_clock(file->tr, ht->hist_data->attrs->clock);
	return 0;
}

/* ---- the command ---------------------------------------------------------- */

static bool empty_param(const char *p)
{
	return !p || !*p;
}

static void ec_init(struct hist_err_ctx *ec, struct tf_event_file *file,
		    const char *glob, const char *param_and_filter)
{
	memset(ec, 0, sizeof(*ec));
	ec->tr = file->tr;
	if (!glob[0] || !param_and_filter)
		return;
	ec->last_cmd = malloc(strlen(HIST_PREFIX) + strlen(param_and_filter) + 1);
	if (ec->last_cmd) {
		strcpy(ec->last_cmd, HIST_PREFIX);
		strcat(ec->last_cmd, param_and_filter);
	}
	snprintf(ec->loc, sizeof(ec->loc), HIST_PREFIX "%s:%s",
		 file->event->system, file->event->name);
}

/* The first registered hist trigger @data matches, or NULL. */
static struct tf_trigger *find_match(struct tf_trigger *data,
				     struct tf_event_file *file)
{
	struct hist_data *hd = priv(data)->hist_data;
	struct hist_data *named = hd->attrs->name ?
				  find_named(hist_state(file), hd->attrs->name) :
				  NULL;
	struct tf_trigger *test;

	cds_list_for_each_entry(test, &file->triggers, list)
		if (is_hist_trigger(test) &&
		    hist_trigger_match(data, test, named, false))
			return test;
	return NULL;
}

/*
 * The kernel's event_hist_trigger_parse().  @outer is the error context
 * of the command that asks for this one (an action's histogram for a
 * field variable, @glob ""): its errors are logged as that command's.
 */
int hist_parse_cmd(struct hist_err_ctx *outer, struct tf_event_file *file,
		   const char *glob, const char *param_and_filter)
{
	struct hist_err_ctx own, *ec = &own;
	struct hist_attrs *attrs = NULL;
	struct hist_data *hd = NULL;
	struct hist_trigger *ht = NULL;
	struct tf_trigger *data = NULL;
	char *copy = NULL, *param, *filter = NULL, *p, *start;
	bool remove;
	int ret;

	ec_init(&own, file, glob, param_and_filter);
	if (!glob[0] && outer)
		ec = outer;
	remove = glob[0] == '!';
	if (empty_param(param_and_filter)) {
		ret = -EINVAL;
		goto out;
	}
	copy = strdup(param_and_filter);
	if (!copy) {
		ret = -ENOMEM;
		goto out;
	}
	/* the first "if" with white space on both sides starts the filter */
	p = param = copy;
	for (;;) {
		size_t len = strlen(copy);

		p = strstr(p, "if");
		if (!p)
			break;
		if (p == copy) {
			ret = -EINVAL;
			goto out;
		}
		if (p[-1] != ' ' && p[-1] != '\t') {
			p++;
			continue;
		}
		if (p >= copy + len - 2 - 1) {
			ret = -EINVAL;
			goto out;
		}
		if (p[2] != ' ' && p[2] != '\t') {
			p++;
			continue;
		}
		break;
	}
	if (p) {
		char *e;

		p[-1] = '\0';
		filter = p;
		e = filter + strlen(filter);
		while (e > filter && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
			*--e = '\0';
		while (*param == ' ' || *param == '\t')
			param++;
		e = param + strlen(param);
		while (e > param && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
			*--e = '\0';
	}
	for (start = strstr(param, ".sym-offset"); start;
	     start = strstr(start + 11, ".sym-offset"))
		start[4] = 'X';

	ret = hist_parse_attrs(ec, param, &attrs);
	if (ret)
		goto out;
	ret = hist_create_data(ec, attrs, file, remove, &hd);
	if (ret) {
		hist_attrs_free(attrs);
		goto out;
	}
	ht = calloc(1, sizeof(*ht));
	data = ht ? tf_trigger_alloc(&hist_command, &hist_trigger_ops, file, ht)
		  : NULL;
	if (!data) {
		ret = -ENOMEM;
		goto out_free;
	}
	ht->hist_data = hd;
	ht->trigger = data;
	ret = tf_trigger_set_filter(data, file, filter);
	if (ret < 0)
		goto out_free;

	if (remove) {
		struct tf_trigger *found = find_match(data, file);

		ret = 0;
		if (found) {
			if (check_var_refs(priv(found)->hist_data))
				ret = -EBUSY;
			else
				tf_trigger_unregister(file, found);
		}
		goto out_free;
	}
	if (existing_hist_update_only(data, file)) {
		ret = 0;
		goto out_free;
	}
	ret = create_actions(ec, hd);
	if (ret)
		goto out_free;
	if (has_hist_vars(hd) || hd->n_var_refs)
		save_hist_vars(hd);
	ret = hist_create_map(hd);
	if (ret)
		goto out_free;
	ret = hist_register(ec, data, file);
	if (ret < 0) {
		if (!ht->hist_data)	/* named: ours was freed */
			hd = NULL;
		goto out_free;
	}
	goto out;
out_free:
	if (ht && ht->hist_data && ht->hist_data != hd)
		hd = NULL;	/* shared named histogram: not ours */
	if (hd) {
		remove_hist_vars(hd);
		unregister_field_var_hists(hd);
	}
	hist_data_free(hd);
	free(ht ? ht->name : NULL);
	free(ht);
	if (data) {
		data->private_data = NULL;
		tf_trigger_free_unregistered(data);
	}
out:
	free(copy);
	free(own.last_cmd);
	return ret;
}

int tf_hist_parse(struct tf_event_file *file, const char *glob,
		  const char *param_and_filter)
{
	return hist_parse_cmd(NULL, file, glob, param_and_filter);
}

static int hist_cmd_parse(const struct tf_event_command *cmd,
			  struct tf_event_file *file, char *glob,
			  char *cmd_str, char *param_and_filter)
{
	(void)cmd;
	(void)cmd_str;
	return tf_hist_parse(file, glob, param_and_filter);
}

void tf_hist_unreg_all(struct tf_event_file *file)
{
	struct tf_trigger *t, *tmp;
	struct cds_list_head dead;

	/* a referenced variable keeps every hist trigger of the event */
	if (hist_file_check_refs(file))
		return;
	CDS_INIT_LIST_HEAD(&dead);
	cds_list_for_each_entry_safe(t, tmp, &file->triggers, list) {
		if (!is_hist_trigger(t))
			continue;
		tf_trigger_unlink(file, t);
		cds_list_add_tail(&t->list, &dead);
	}
	if (cds_list_empty(&dead))
		return;
	tf_rcu_synchronize();
	cds_list_for_each_entry_safe(t, tmp, &dead, list) {
		cds_list_del(&t->list);
		tf_trigger_release(t);
	}
}

void tf_hist_pause_all(struct tf_event_file *file, bool pause)
{
	tf_trigger_set_hist_paused(file, pause);
}

const struct tf_event_command hist_command = {
	.name = "hist",
	.flags = TF_CMD_NEEDS_REC | TF_CMD_ADD_TAIL,
	.trigger_type = TF_ETT_EVENT_HIST,
	.parse = hist_cmd_parse,
	.unreg_all = tf_hist_unreg_all,
};

/* What tf_tracing_destroy() calls, after the trace arrays went (with
 * them every histogram, so no name is left). */
static void hist_state_destroy(struct tf_tracing *t)
{
	struct tf_hist_state *st = t->hist;
	struct named_hist *n, *next;

	for (n = st->named; n; n = next) {
		next = n->next;
		free(n->name);
		free(n);
	}
	pthread_mutex_destroy(&st->named_lock);
	pthread_mutex_destroy(&st->resolver_lock);
	free(st);
	t->hist = NULL;
}

int tf_hist_init(struct tf_tracing *t)
{
	if (!t->hist) {
		struct tf_hist_state *st = calloc(1, sizeof(*st));

		if (!st)
			return -ENOMEM;
		pthread_mutex_init(&st->named_lock, NULL);
		pthread_mutex_init(&st->resolver_lock, NULL);
		t->hist = st;
		t->hist_destroy = hist_state_destroy;
		tf_hist_set_symbols(t, NULL);	/* the tree's ksyms */
	}
	return tf_trigger_register_command(t, &hist_command);
}
