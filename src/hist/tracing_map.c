// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_map.c - the hist-trigger map: insertion, per-slot sums, totals,
 * clear, and the kernel's sort.  The design and its threading rules are in
 * tracing_map.h; this file follows kernel/trace/tracing_map.c where the
 * behaviour is visible to users (sizes, drops, sort order) and departs from
 * it where user space makes a better trade (per-slot sums, no spurious
 * drops while another thread finishes an insertion).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* qsort_r */
#endif
#include "hist/tracing_map.h"
#include "util/rcu.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CACHELINE	64

/* ---- hashing and key comparison ------------------------------------- */

/* The hash of a key of any size: tracing_map_hash()'s general case
 * (the kernel's jhash would do as well: see tracing_map.h). */
uint32_t tracing_map_hash_any(const void *key, unsigned int size)
{
	const unsigned char *p = key;
	uint64_t h = tracing_map_hash_start(size);
	unsigned int i = 0;

	for (; i + 8 <= size; i += 8)
		h = tracing_map_hash_mix(h, tracing_map_load_word(p + i));
	if (i < size) {
		uint64_t w = 0;

		memcpy(&w, p + i, size - i);
		h = tracing_map_hash_mix(h, w);
	}
	return tracing_map_hash_end(h);
}

/* A key's first word, and the second of a key of 9-16 bytes (the
 * rest zero). */
static inline uint64_t tracing_map_key_word(const void *key, unsigned int size)
{
	uint64_t w = 0;

	if (size >= 8)
		return tracing_map_load_word(key);
	memcpy(&w, key, size);
	return w;
}

static inline uint64_t tracing_map_key_word2(const void *key,
					     unsigned int size)
{
	uint64_t w = 0;

	if (size == 16)	/* two numeric keys: the common case */
		return tracing_map_load_word((const unsigned char *)key + 8);
	memcpy(&w, (const unsigned char *)key + 8, size - 8);
	return w;
}

/* Whether @map's buckets hold a second key word. */
static inline bool has_word2(const struct tracing_map *map)
{
	return map->bucket_shift == 5;
}

/* ---- creation and destruction ---------------------------------------- */

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

#define HUGE_PAGE	(2u << 20)

/*
 * Zeroed, cache-line aligned memory.  Arrays of a huge page or more are
 * mapped fresh, 2 MiB aligned, and advised into transparent huge pages
 * before their first touch (THP "madvise" mode, Debian's default): the
 * map is probed at random, and TLB misses cost more than cache misses
 * (under virtualisation most).  Memory from malloc would mostly be pages
 * a freed array already faulted in small.  Pages never written (a
 * slot's sums no thread uses) are never allocated.
 */
static bool is_big(size_t size)
{
	return size >= HUGE_PAGE;
}

static void *zalloc_aligned(size_t size)
{
	size_t len = align_up(size, HUGE_PAGE);
	uint8_t *p, *start;
	void *q;

	if (!is_big(size)) {
		if (posix_memalign(&q, CACHELINE, align_up(size ? size : 1,
							   CACHELINE)))
			return NULL;
		memset(q, 0, size);
		return q;
	}
	p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (uint8_t *)align_up((size_t)p, HUGE_PAGE);
	if (start > p)
		munmap(p, (size_t)(start - p));
	munmap(start + len, (size_t)(p + HUGE_PAGE - start));
#ifdef MADV_HUGEPAGE
	madvise(start, len, MADV_HUGEPAGE);
#endif
	return start;
}

static void zfree_aligned(void *p, size_t size)
{
	if (!p)
		return;
	if (is_big(size))
		munmap(p, align_up(size, HUGE_PAGE));
	else
		free(p);
}

static size_t buckets_bytes(const struct tracing_map *map)
{
	return (size_t)map->map_size << map->bucket_shift;
}

static size_t sums_bytes(const struct tracing_map *map)
{
	return (size_t)map->map_size * map->n_vals * sizeof(uint64_t);
}

unsigned int tracing_map_size_to_bits(unsigned long size)
{
	unsigned int bits = 0;

	while (bits < 63 && (1ul << bits) < size)
		bits++;
	return bits;
}

void tracing_map_destroy(struct tracing_map *map)
{
	unsigned int i;

	if (!map)
		return;
	if (map->slots)
		for (i = 0; i < map->n_slots; i++)
			zfree_aligned(map->slots[i].sums, sums_bytes(map));
	zfree_aligned(map->slots, map->n_slots * sizeof(*map->slots));
	zfree_aligned(map->elt_mem, (size_t)map->max_elts * map->elt_stride);
	zfree_aligned(map->map, buckets_bytes(map));
	free(map->present);
	free(map);
}

/*
 * Fault in @size bytes of a fresh array at creation, as the kernel
 * allocates a map's entries and buckets when the trigger is written,
 * not on the events that first touch them.
 */
static void populate(void *p, size_t size)
{
	if (!is_big(size))	/* zeroed by memset already */
		return;
#ifdef MADV_POPULATE_WRITE
	if (!madvise(p, align_up(size, HUGE_PAGE), MADV_POPULATE_WRITE))
		return;
#endif
	for (size_t off = 0; off < size; off += 4096)	/* an older kernel */
		((volatile uint8_t *)p)[off] = 0;
}

/* The key of entry @idx, without reading the entry's header. */
static inline const unsigned char *key_at(struct tracing_map *map,
					  uint32_t idx)
{
	return (const unsigned char *)tracing_map_elt_at(map, idx) + map->key_off;
}

static int create(unsigned int map_bits, unsigned int max_bits,
		  unsigned int key_size, unsigned int n_vals,
		  unsigned int n_vars, unsigned int n_strs,
		  const unsigned short *str_off, unsigned int str_size,
		  unsigned int n_slots, struct tracing_map **mapp)
{
	struct tracing_map *map;
	size_t elt_size;
	unsigned int i;

	if (map_bits < TRACING_MAP_BITS_MIN || map_bits > max_bits ||
	    !key_size || key_size > TRACING_MAP_KEY_SIZE_MAX ||
	    !n_vals || n_vals > TRACING_MAP_VALS_MAX ||
	    n_vars > TRACING_MAP_VARS_MAX || n_strs > 64 ||
	    !n_slots || n_slots > TRACING_MAP_SLOTS_MAX)
		return -EINVAL;

	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->map_bits = map_bits;
	map->max_elts = 1u << map_bits;
	map->map_size = 1u << (map_bits + 1);
	map->key_size = key_size;
	map->n_vals = n_vals;
	map->n_vars = n_vars;
	map->n_strs = n_strs;
	map->str_size = str_size;
	if (n_strs)
		memcpy(map->str_off, str_off, n_strs * sizeof(*str_off));
	map->n_slots = n_slots;

	/* see struct tracing_map_elt: what events write first */
	map->entry_sums = n_vars > 0;
	map->bucket_sums = !n_vars && n_vals == 1 && key_size > 8 &&
			   key_size <= 16;
	map->elt_head = (unsigned int)align_up(n_vars, 8);
	map->sums_off = (unsigned int)(sizeof(struct tracing_map_elt) +
				       n_vars * sizeof(uint64_t));
	map->strs_off = map->sums_off +
			(map->entry_sums ? n_vals * sizeof(uint64_t) : 0);
	map->key_off = map->strs_off + str_size;
	map->comm_off = map->key_off + (unsigned int)align_up(key_size, 8);
	elt_size = map->elt_head + map->comm_off + TRACING_MAP_COMM_LEN;
	/* entries start on a line: a small entry is one line, and a large
	 * one has what events write in its first */
	map->elt_stride = align_up(elt_size, CACHELINE);

	/* a two-word key's second word in its bucket (has_word2()) */
	map->bucket_shift = key_size > 8 && key_size <= 16 ? 5 : 4;
	map->map = zalloc_aligned(buckets_bytes(map));
	map->present = calloc(map->max_elts / 4 ? map->max_elts / 4 : 1,
			      sizeof(uint64_t));
	map->elt_mem = zalloc_aligned((size_t)map->max_elts * map->elt_stride);
	map->slots = zalloc_aligned(n_slots * sizeof(*map->slots));
	if (!map->map || !map->elt_mem || !map->slots || !map->present)
		goto nomem;
	populate(map->map, buckets_bytes(map));
	populate(map->elt_mem, (size_t)map->max_elts * map->elt_stride);
	for (i = 0; i < n_slots; i++) {
		map->slots[i].sums = zalloc_aligned(sums_bytes(map));
		if (!map->slots[i].sums)
			goto nomem;
	}
	for (i = 0; i < n_vals; i++) {
		map->fields[i].cmp_fn = NULL;	/* sums: u64, see cmp_sum */
		map->fields[i].sum_idx = i;
	}
	map->n_fields = n_vals;
	*mapp = map;
	return 0;
nomem:
	tracing_map_destroy(map);
	return -ENOMEM;
}

int tracing_map_create(unsigned int map_bits, unsigned int key_size,
		       unsigned int n_vals, unsigned int n_vars,
		       unsigned int n_slots, struct tracing_map **mapp)
{
	return create(map_bits, TRACING_MAP_BITS_MAX, key_size, n_vals,
		      n_vars, 0, NULL, 0, n_slots, mapp);
}

int tracing_map_create_strs(unsigned int map_bits, unsigned int key_size,
			    unsigned int n_vals, unsigned int n_vars,
			    unsigned int n_strs, const unsigned int *str_sizes,
			    unsigned int n_slots, struct tracing_map **mapp)
{
	unsigned short off[64];
	unsigned int size = 0;

	if (n_strs > 64)
		return -EINVAL;
	for (unsigned int i = 0; i < n_strs; i++) {
		unsigned int n = str_sizes[i];

		if (!n || n > TRACING_MAP_STR_LEN)
			return -EINVAL;
		off[i] = (unsigned short)size;
		size += (unsigned int)align_up(n, 8);
	}
	return create(map_bits, TRACING_MAP_BITS_MAX, key_size, n_vals,
		      n_vars, n_strs, off, size, n_slots, mapp);
}

int tracing_map_create_unbounded(unsigned int map_bits, unsigned int key_size,
				 unsigned int n_vals, unsigned int n_vars,
				 unsigned int n_slots, struct tracing_map **mapp)
{
	return create(map_bits, TRACING_MAP_BITS_HARD_MAX, key_size, n_vals,
		      n_vars, 0, NULL, 0, n_slots, mapp);
}

static void cmp_fn_kind(tracing_map_cmp_fn_t fn, unsigned char *size,
			bool *is_signed);

int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn)
{
	struct tracing_map_field *field;

	if (map->n_keys >= TRACING_MAP_KEYS_MAX || !cmp_fn ||
	    offset >= map->key_size)
		return -EINVAL;
	field = &map->fields[map->n_fields];
	field->is_key = true;
	field->offset = offset;
	field->cmp_fn = cmp_fn;
	cmp_fn_kind(cmp_fn, &field->num_size, &field->num_signed);
	map->n_keys++;
	return map->n_fields++;
}

/* ---- insertion -------------------------------------------------------- */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * Another thread has claimed this bucket for a key with our hash and not
 * yet published its entry: wait for it.  The kernel gives up and drops the
 * event after map_size tries (it cannot sleep there); a thread here can be
 * preempted between claim and publish, so yield instead of dropping.
 */
static void wait_for_publish(unsigned int *tries)
{
	if ((++*tries & 63) == 0)
		sched_yield();
	else
		cpu_relax();
}

static struct tracing_map_elt *claim_elt(struct tracing_map *map,
					 struct tracing_map_slot *s,
					 uint32_t bucket, const void *key,
					 const char *comm)
{
	struct tracing_map_entry *entry = tracing_map_bucket(map, bucket);
	struct tracing_map_elt *elt;
	uint32_t idx;

	/* release: whoever sees the map full sees every key's present bit */
	idx = __atomic_fetch_add(&map->next_elt, 1, __ATOMIC_ACQ_REL);
	if (idx >= map->max_elts) {
		/* full: give the bucket back, as the kernel does */
		__atomic_store_n(&entry->key, 0, __ATOMIC_RELAXED);
		return NULL;
	}
	elt = tracing_map_elt_at(map, idx);
	elt->bucket = bucket;
	if ((map->entry_sums || map->bucket_sums) && s)
		elt->owner = (uint32_t)(s - map->slots) + 1;
	memcpy(tracing_map_elt_key(map, elt), key, map->key_size);
	entry->key_word = tracing_map_key_word(key, map->key_size);
	if (has_word2(map))
		*tracing_map_bucket_word2(entry) = tracing_map_key_word2(key,
							       map->key_size);
	if (comm)
		strncpy(tracing_map_elt_comm(map, elt), comm,
			TRACING_MAP_COMM_LEN - 1);
	/* publish: key and comm are visible to whoever sees val */
	__atomic_store_n(&entry->val, (idx + 1) |
			 (map->bucket_sums ? elt->owner <<
			  TRACING_MAP_VAL_OWNER_SHIFT : 0), __ATOMIC_RELEASE);
	return elt;
}

/* The present bit of a key hash (see tracing_map.h). */
static inline unsigned int present_bit(const struct tracing_map *map,
				       uint32_t key_hash)
{
	return key_hash >> (32 - (map->map_bits + 4));
}

static inline void set_present(struct tracing_map *map, uint32_t key_hash)
{
	unsigned int b = present_bit(map, key_hash);

	__atomic_fetch_or(&map->present[b / 64], 1ull << (b % 64),
			  __ATOMIC_RELAXED);
}

/* Full, and the key was never claimed: surely a drop. */
static inline bool full_and_absent(struct tracing_map *map,
				   uint32_t key_hash)
{
	unsigned int b;

	if (__atomic_load_n(&map->next_elt, __ATOMIC_ACQUIRE) < map->max_elts)
		return false;
	b = present_bit(map, key_hash);
	return !(__atomic_load_n(&map->present[b / 64], __ATOMIC_RELAXED) &
		 (1ull << (b % 64)));
}

static inline __attribute__((always_inline)) struct tracing_map_elt *
tm_insert(struct tracing_map *map, const void *key, uint32_t key_hash,
	  const char *comm, bool lookup_only, bool *dropped,
	  struct tracing_map_slot *s)
{
	uint32_t idx = key_hash >> (32 - (map->map_bits + 1));
	uint64_t key_word = tracing_map_key_word(key, map->key_size);
	unsigned int tries = 0, probes = 0;

	if (full_and_absent(map, key_hash)) {
		if (!lookup_only)
			*dropped = true;
		return NULL;
	}
	for (;;) {
		struct tracing_map_entry *entry;
		uint32_t test_key, val;

		idx &= map->map_size - 1;
		entry = tracing_map_bucket(map, idx);
		test_key = __atomic_load_n(&entry->key, __ATOMIC_ACQUIRE);

		if (test_key == key_hash) {
			val = __atomic_load_n(&entry->val, __ATOMIC_ACQUIRE);
			if (!val) {
				wait_for_publish(&tries);
				continue;
			}
			/* published: key_word is visible (acquire on val) */
			if (entry->key_word == key_word &&
			    (map->key_size <= 8 ||
			     !memcmp(key, key_at(map, tracing_map_val_idx(val)),
				     map->key_size))) {
				if (s)
					tracing_map_note_last(map, s, tracing_map_elt_at(map,
						  tracing_map_val_idx(val)), idx, entry,
						  val);
				return tracing_map_elt_at(map, tracing_map_val_idx(val));
			}
		} else if (!test_key) {
			uint32_t expected = 0;

			if (lookup_only)
				return NULL;
			/*
			 * Full: every later new key is dropped, so do not
			 * claim a bucket just to hand it back.
			 */
			if (__atomic_load_n(&map->next_elt, __ATOMIC_RELAXED) >=
			    map->max_elts)
				break;
			set_present(map, key_hash);
			if (__atomic_compare_exchange_n(&entry->key, &expected,
							key_hash, false,
							__ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				struct tracing_map_elt *elt;

				elt = claim_elt(map, s, idx, key, comm);
				if (!elt)
					break;
				if (s)
					tracing_map_note_last(map, s, elt, idx, entry,
						  elt->owner <<
						  TRACING_MAP_VAL_OWNER_SHIFT);
				return elt;
			}
			continue;	/* lost the race: look at the winner */
		}
		idx++;
		/* at most max_elts buckets are used, but be safe */
		if (++probes > map->map_size)
			break;
	}
	*dropped = true;
	return NULL;
}

struct tracing_map_elt *tracing_map_insert(struct tracing_map *map,
					   unsigned int slot, const void *key,
					   const char *comm)
{
	return tracing_map_insert_comm(map, slot, key,
				       tracing_map_hash(key, map->key_size),
				       comm);
}

struct tracing_map_elt *tracing_map_insert_slow(struct tracing_map *map,
						unsigned int slot,
						const void *key,
						uint32_t key_hash,
						const char *comm)
{
	struct tracing_map_slot *s = &map->slots[slot];
	struct tracing_map_elt *elt;
	bool dropped = false;

	elt = tm_insert(map, key, key_hash, comm, false, &dropped, s);
	tracing_map_count(elt ? &s->hits : &s->drops);
	return elt;
}

struct tracing_map_elt *tracing_map_lookup_slow(struct tracing_map *map,
						const void *key)
{
	bool dropped = false;

	return tm_insert(map, key, tracing_map_hash(key, map->key_size), NULL, true,
			 &dropped, NULL);
}

/* ---- sums, vars, totals ----------------------------------------------- */

/* The sums of an entry's owner slot, in the entry or its bucket; NULL
 * if it has none. */
static inline const uint64_t *entry_sums(const struct tracing_map *map,
					 const struct tracing_map_elt *elt)
{
	if (!elt->owner)
		return NULL;
	if (map->bucket_sums)
		return tracing_map_bucket_sum(tracing_map_bucket(map,
								 elt->bucket));
	if (!map->entry_sums)
		return NULL;
	return (const uint64_t *)((const char *)elt + map->sums_off);
}

uint64_t tracing_map_read_sum(const struct tracing_map *map,
			      const struct tracing_map_elt *elt,
			      unsigned int i)
{
	const uint64_t *in_elt = entry_sums(map, elt);
	size_t off = (size_t)elt->bucket * map->n_vals + i;
	uint64_t sum = in_elt ? __atomic_load_n(&in_elt[i], __ATOMIC_RELAXED)
			      : 0;
	unsigned int s;

	for (s = 0; s < map->n_slots; s++)
		if (__atomic_load_n(&map->slots[s].used, __ATOMIC_RELAXED))
			sum += __atomic_load_n(&map->slots[s].sums[off],
					       __ATOMIC_RELAXED);
	return sum;
}

void tracing_map_read_totals(struct tracing_map *map,
			     struct tracing_map_totals *totals)
{
	uint32_t next = __atomic_load_n(&map->next_elt, __ATOMIC_RELAXED);
	unsigned int s;

	totals->hits = totals->drops = 0;
	for (s = 0; s < map->n_slots; s++) {
		totals->hits += __atomic_load_n(&map->slots[s].hits,
						__ATOMIC_RELAXED);
		totals->drops += __atomic_load_n(&map->slots[s].drops,
						 __ATOMIC_RELAXED);
	}
	/* an elt once claimed is always published: exact when quiescent */
	totals->entries = next < map->max_elts ? next : map->max_elts;
}

/* ---- clear ------------------------------------------------------------- */

void tracing_map_clear(struct tracing_map *map)
{
	unsigned int s;

	memset(map->map, 0, buckets_bytes(map));
	for (s = 0; s < map->n_slots; s++) {
		map->slots[s].hits = map->slots[s].drops = 0;
		/* a slot never written is all zeros still */
		if (map->slots[s].used)
			memset(map->slots[s].sums, 0, sums_bytes(map));
		map->slots[s].used = false;
		map->slots[s].last_elt = NULL;
		map->slots[s].last_sums = NULL;
	}
	memset(map->present, 0, (map->max_elts / 4 ? map->max_elts / 4 : 1) *
	       sizeof(uint64_t));
	memset(map->elt_mem, 0, (size_t)map->max_elts * map->elt_stride);
	map->next_elt = 0;
}

static void free_rcu_cb(struct rcu_head *head)
{
	tracing_map_destroy(caa_container_of(head, struct tracing_map, rcu));
}

void tracing_map_destroy_rcu(struct tracing_map *map)
{
	if (map)
		urcu_memb_call_rcu(&map->rcu, free_rcu_cb);
}

int tracing_map_replace_rcu(struct tracing_map **mapp)
{
	struct tracing_map *old = *mapp, *fresh;
	int ret;

	ret = create(old->map_bits, TRACING_MAP_BITS_HARD_MAX, old->key_size,
		     old->n_vals, old->n_vars, old->n_strs, old->str_off,
		     old->str_size, old->n_slots, &fresh);
	if (ret)
		return ret;
	memcpy(fresh->fields, old->fields, sizeof(fresh->fields));
	fresh->n_fields = old->n_fields;
	fresh->n_keys = old->n_keys;
	tf_rcu_assign_pointer(*mapp, fresh);
	tracing_map_destroy_rcu(old);
	return 0;
}

/* ---- comparators ------------------------------------------------------- */

#define DEFINE_TRACING_MAP_CMP_FN(type)					\
static int tracing_map_cmp_##type(const void *val_a, const void *val_b)	\
{									\
	type a, b;							\
									\
	memcpy(&a, val_a, sizeof(a));					\
	memcpy(&b, val_b, sizeof(b));					\
	return (a > b) - (a < b);					\
}

DEFINE_TRACING_MAP_CMP_FN(int64_t)
DEFINE_TRACING_MAP_CMP_FN(uint64_t)
DEFINE_TRACING_MAP_CMP_FN(int32_t)
DEFINE_TRACING_MAP_CMP_FN(uint32_t)
DEFINE_TRACING_MAP_CMP_FN(int16_t)
DEFINE_TRACING_MAP_CMP_FN(uint16_t)
DEFINE_TRACING_MAP_CMP_FN(int8_t)
DEFINE_TRACING_MAP_CMP_FN(uint8_t)

/* Which numeric comparator is fn, if any: lets the sort precompute values. */
static void cmp_fn_kind(tracing_map_cmp_fn_t fn, unsigned char *size,
			bool *is_signed)
{
	static const struct {
		tracing_map_cmp_fn_t fn;
		unsigned char size;
		bool is_signed;
	} kinds[] = {
		{ tracing_map_cmp_int64_t, 8, true },
		{ tracing_map_cmp_uint64_t, 8, false },
		{ tracing_map_cmp_int32_t, 4, true },
		{ tracing_map_cmp_uint32_t, 4, false },
		{ tracing_map_cmp_int16_t, 2, true },
		{ tracing_map_cmp_uint16_t, 2, false },
		{ tracing_map_cmp_int8_t, 1, true },
		{ tracing_map_cmp_uint8_t, 1, false },
	};
	unsigned int i;

	*size = 0;
	*is_signed = false;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].fn == fn) {
			*size = kinds[i].size;
			*is_signed = kinds[i].is_signed;
		}
}

int tracing_map_cmp_string(const void *val_a, const void *val_b)
{
	return strcmp(val_a, val_b);
}

int tracing_map_cmp_none(const void *val_a, const void *val_b)
{
	return 0;
}

tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed)
{
	switch (field_size) {
	case 8:
		return field_is_signed ? tracing_map_cmp_int64_t :
					 tracing_map_cmp_uint64_t;
	case 4:
		return field_is_signed ? tracing_map_cmp_int32_t :
					 tracing_map_cmp_uint32_t;
	case 2:
		return field_is_signed ? tracing_map_cmp_int16_t :
					 tracing_map_cmp_uint16_t;
	case 1:
		return field_is_signed ? tracing_map_cmp_int8_t :
					 tracing_map_cmp_uint8_t;
	default:
		return tracing_map_cmp_none;
	}
}

/* ---- the kernel's heapsort (lib/sort.c) -------------------------------- */

/*
 * lib/sort.c's bottom-up heapsort with the "double pop", in element
 * indices instead of byte offsets.  Heapsort is not stable: which of two
 * equal entries comes first depends on every step, so the hist output of
 * ties matches the kernel's only if this is the kernel's algorithm, step
 * for step (tests/test_tracing_map.c checks it against a literal copy).
 * One body, instantiated for pointer arrays with any comparator and for
 * arrays of precomputed u64 sort values (the fast path).
 */
#define DEFINE_HEAPSORT(name, type, params, CMP)				\
static void name(type *base, size_t num params)				\
{									\
	size_t n = num, a = num / 2, shift = 0;				\
	type t;								\
									\
	if (!a)			/* num < 2 */				\
		return;							\
	for (;;) {							\
		size_t b, c, d;						\
									\
		if (a) {		/* building heap: sift down a */ \
			a -= (size_t)1 << shift;			\
		} else if (n > 3) {	/* extract two largest */	\
			n--;						\
			t = base[0]; base[0] = base[n]; base[n] = t;	\
			shift = CMP(base[1], base[2]) <= 0;		\
			a = (size_t)1 << shift;				\
			n--;						\
			t = base[a]; base[a] = base[n]; base[n] = t;	\
		} else {						\
			break;						\
		}							\
		for (b = a; c = 2 * b + 1, (d = c + 1) < n;)		\
			b = CMP(base[c], base[d]) > 0 ? c : d;		\
		if (d == n)		/* last leaf with no sibling */	\
			b = c;						\
		while (b != a && CMP(base[a], base[b]) >= 0)		\
			b = (b - 1) / 2;				\
		c = b;			/* where "a" belongs */		\
		while (b != a) {					\
			b = (b - 1) / 2;				\
			t = base[b]; base[b] = base[c]; base[c] = t;	\
		}							\
	}								\
	n--;								\
	t = base[0]; base[0] = base[n]; base[n] = t;			\
	if (n == 2 && CMP(base[0], base[1]) > 0) {			\
		t = base[0]; base[0] = base[1]; base[1] = t;		\
	}								\
}

#define PTR_CMP(x, y)	cmp((x), (y), priv)
#define PTR_PARAMS	, int (*cmp)(const void *, const void *, void *), void *priv
#define NO_PARAMS
DEFINE_HEAPSORT(heapsort_ptr, void *, PTR_PARAMS, PTR_CMP)

void tracing_map_heapsort(void **base, size_t num,
			  int (*cmp)(const void *a, const void *b, void *priv),
			  void *priv)
{
	heapsort_ptr(base, num, cmp, priv);
}

/* An entry's sort value, encoded so that u64 order is the field's order. */
struct sort_item {
	uint64_t v;
	uint32_t i;		/* index in the snapshot */
};

#define ITEM_CMP_ASC(x, y)	(((x).v > (y).v) - ((x).v < (y).v))
#define ITEM_CMP_DESC(x, y)	(((x).v < (y).v) - ((x).v > (y).v))
DEFINE_HEAPSORT(heapsort_items_asc, struct sort_item, NO_PARAMS, ITEM_CMP_ASC)
DEFINE_HEAPSORT(heapsort_items_desc, struct sort_item, NO_PARAMS, ITEM_CMP_DESC)

/* The same with values that fit 32 bits after subtracting the minimum. */
struct sort_item32 {
	uint32_t v;
	uint32_t i;
};
DEFINE_HEAPSORT(heapsort_items32_asc, struct sort_item32, NO_PARAMS,
		ITEM_CMP_ASC)
DEFINE_HEAPSORT(heapsort_items32_desc, struct sort_item32, NO_PARAMS,
		ITEM_CMP_DESC)

/*
 * Sort items by v.  Where the values span less than 2^32 (hitcounts, most
 * sums and keys) sort 8-byte items instead of 16: the heap's random
 * accesses then stay in cache for twice as many entries.  v - min keeps
 * every comparison's result, so the permutation is the same.
 */
static void heapsort_items(struct sort_item *base, size_t num, bool descending)
{
	struct sort_item32 *small = (struct sort_item32 *)base;
	uint64_t min = UINT64_MAX, max = 0;
	size_t i;

	for (i = 0; i < num; i++) {
		min = base[i].v < min ? base[i].v : min;
		max = base[i].v > max ? base[i].v : max;
	}
	if (max - min > UINT32_MAX) {
		if (descending)
			heapsort_items_desc(base, num);
		else
			heapsort_items_asc(base, num);
		return;
	}
	/* compact in place (small[i] never overtakes base[i]), then back */
	for (i = 0; i < num; i++) {
		struct sort_item32 it = { (uint32_t)(base[i].v - min), base[i].i };

		small[i] = it;
	}
	if (descending)
		heapsort_items32_desc(small, num);
	else
		heapsort_items32_asc(small, num);
	for (i = num; i-- > 0;) {
		struct sort_item it = { small[i].v + min, small[i].i };

		base[i] = it;
	}
}

/* ---- snapshot and sort ------------------------------------------------- */

struct sort_ctx {
	struct tracing_map *map;
	const struct tracing_map_sort_key *key;
};

static bool is_key(struct tracing_map *map, unsigned int field_idx)
{
	return map->fields[field_idx].is_key;
}

static int cmp_entries_sum(const void *A, const void *B, void *priv)
{
	const struct tracing_map_sort_entry *a = A, *b = B;
	const struct sort_ctx *ctx = priv;
	unsigned int i = ctx->map->fields[ctx->key->field_idx].sum_idx;
	int ret = (a->sums[i] > b->sums[i]) - (a->sums[i] < b->sums[i]);

	return ctx->key->descending ? -ret : ret;
}

static int cmp_entries_key(const void *A, const void *B, void *priv)
{
	const struct tracing_map_sort_entry *a = A, *b = B;
	const struct sort_ctx *ctx = priv;
	const struct tracing_map_field *field;
	int ret;

	field = &ctx->map->fields[ctx->key->field_idx];
	ret = field->cmp_fn((const char *)a->key + field->offset,
			    (const char *)b->key + field->offset);
	return ctx->key->descending ? -ret : ret;
}

/*
 * Can field be compared as a u64 sort value?  Sums and numeric or
 * uncompared keys can; strings (and foreign comparators) cannot.
 */
static bool encodable(const struct tracing_map_field *field)
{
	return !field->is_key || field->num_size ||
	       field->cmp_fn == tracing_map_cmp_none;
}

static uint64_t encode(const struct tracing_map_field *field,
		       const struct tracing_map_sort_entry *e)
{
	const unsigned char *p;
	uint64_t v = 0;

	if (!field->is_key)
		return e->sums[field->sum_idx];
	if (!field->num_size)		/* cmp_none: all equal */
		return 0;
	p = (const unsigned char *)e->key + field->offset;
	switch (field->num_size) {
	case 8: { uint64_t x; memcpy(&x, p, 8); v = x; break; }
	case 4: { uint32_t x; memcpy(&x, p, 4); v = field->num_signed ?
				(uint64_t)(int64_t)(int32_t)x : x; break; }
	case 2: { uint16_t x; memcpy(&x, p, 2); v = field->num_signed ?
				(uint64_t)(int64_t)(int16_t)x : x; break; }
	case 1: v = field->num_signed ? (uint64_t)(int64_t)(int8_t)*p : *p;
		break;
	}
	/* signed: flip the sign bit so that u64 order is signed order */
	return field->num_signed ? v ^ (1ull << 63) : v;
}

static int cmp_key_bytes(const void *A, const void *B, void *priv)
{
	const struct tracing_map_sort_entry *a = A, *b = B;
	const struct tracing_map *map = priv;

	return memcmp(a->key, b->key, map->key_size);
}

static int qsort_key_bytes(const void *A, const void *B, void *map)
{
	return cmp_key_bytes(*(void *const *)A, *(void *const *)B, map);
}

/* LSD radix sort of items by v, 8 bits a pass, skipping constant digits */
static int radix_sort_items(struct sort_item *items, size_t n)
{
	struct sort_item *tmp = malloc(n * sizeof(*tmp)), *src = items, *dst;
	size_t count[256], i;
	unsigned int pass;

	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (pass = 0; pass < 8; pass++) {
		unsigned int shift = pass * 8;
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(src[i].v >> shift) & 0xff]++;
		if (count[(src[0].v >> shift) & 0xff] == n)
			continue;	/* every item has this digit */
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].v >> shift) & 0xff]++] = src[i];
		dst = src;
		src = src == items ? tmp : items;
	}
	if (src != items)
		memcpy(items, src, n * sizeof(*items));
	free(tmp);
	return 0;
}

/*
 * The kernel's first sort (detect_dups(): memcmp of the key bytes) into
 * entries[].  Keys are unique, so any correct sort gives the same order:
 * radix on the first 8 bytes read big-endian, then memcmp inside runs of
 * equal first words (keys longer than 8 bytes).
 */
static int sort_by_key_bytes(struct tracing_map *map,
			     struct tracing_map_sort_entry **entries,
			     struct sort_item *items, unsigned int n)
{
	struct tracing_map_sort_entry **tmp;
	unsigned int i, start;
	int ret;

	for (i = 0; i < n; i++) {
		uint64_t w = 0;

		memcpy(&w, entries[i]->key, map->key_size < 8 ? map->key_size : 8);
		items[i].v = __builtin_bswap64(w);
		items[i].i = i;
	}
	ret = radix_sort_items(items, n);
	if (ret)
		return ret;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		tmp[i] = entries[items[i].i];
	memcpy(entries, tmp, n * sizeof(*tmp));
	free(tmp);
	if (map->key_size <= 8)
		return 0;
	for (start = 0; start < n; start = i) {
		for (i = start + 1; i < n && items[i].v == items[start].v; i++)
			;
		if (i - start > 1)
			qsort_r(&entries[start], i - start, sizeof(*entries),
				qsort_key_bytes, map);
	}
	return 0;
}

/* Sort entries[] by one field with the kernel's heapsort. */
static void sort_by_field(struct tracing_map *map,
			  struct tracing_map_sort_entry **entries,
			  struct sort_item *items, unsigned int n,
			  const struct tracing_map_sort_key *key)
{
	const struct tracing_map_field *field = &map->fields[key->field_idx];
	struct sort_ctx ctx = { map, key };
	unsigned int i;

	if (!encodable(field)) {
		heapsort_ptr((void **)entries, n,
			     is_key(map, key->field_idx) ? cmp_entries_key :
							  cmp_entries_sum,
			     &ctx);
		return;
	}
	/* the same comparisons on precomputed values: the same permutation */
	for (i = 0; i < n; i++) {
		items[i].v = encode(field, entries[i]);
		items[i].i = i;
	}
	heapsort_items(items, n, key->descending);
	for (i = 0; i < n; i++)
		items[i].v = (uint64_t)(uintptr_t)entries[items[i].i];
	for (i = 0; i < n; i++)
		entries[i] = (void *)(uintptr_t)items[i].v;
}

/*
 * The kernel's sort_secondary(): sort each run of entries equal in the
 * primary key by the secondary key, with the kernel's way of closing the
 * last run.
 */
static void sort_secondary(struct tracing_map *map,
			   struct tracing_map_sort_entry **entries,
			   struct sort_item *items, unsigned int n_entries,
			   const struct tracing_map_sort_key *primary_key,
			   const struct tracing_map_sort_key *secondary_key)
{
	int (*primary_fn)(const void *, const void *, void *);
	struct sort_ctx pctx = { map, primary_key };
	unsigned int i, start = 0, n_sub = 1;

	primary_fn = is_key(map, primary_key->field_idx) ?
		     cmp_entries_key : cmp_entries_sum;

	for (i = 0; i < n_entries - 1; i++) {
		if (primary_fn(entries[i], entries[i + 1], &pctx) == 0) {
			n_sub++;
			if (i < n_entries - 2)
				continue;
		}
		if (n_sub < 2) {
			start = i + 1;
			n_sub = 1;
			continue;
		}
		sort_by_field(map, &entries[start], items, n_sub,
			      secondary_key);
		start = i + 1;
		n_sub = 1;
	}
}

/*
 * Collect the published entries, in bucket order as the kernel does,
 * merging each entry's sums over the slots and copying its vars.
 */
static int snapshot(struct tracing_map *map,
		    struct tracing_map_sort_entry ***entriesp)
{
	size_t vars_size = map->n_vars * (sizeof(uint64_t) + sizeof(bool));
	size_t stride = align_up(sizeof(struct tracing_map_sort_entry) +
				 vars_size, 8);
	struct tracing_map_sort_entry **entries;
	unsigned char *mem;
	unsigned int i, s, v, n = 0;

	/*
	 * One block: the pointer array, then the entries.  Room for every
	 * possible entry, since inserts may go on while we scan; pages past
	 * the ones used are never touched.
	 */
	entries = malloc((size_t)map->max_elts * (sizeof(*entries) + stride));
	if (!entries)
		return -ENOMEM;
	mem = (unsigned char *)(entries + map->max_elts);

	for (i = 0; i < map->map_size && n < map->max_elts; i++) {
		struct tracing_map_entry *entry = tracing_map_bucket(map, i);
		struct tracing_map_sort_entry *se;
		struct tracing_map_elt *elt;
		const uint64_t *in_elt;
		uint32_t val;

		if (!__atomic_load_n(&entry->key, __ATOMIC_RELAXED))
			continue;
		val = __atomic_load_n(&entry->val, __ATOMIC_ACQUIRE);
		if (!val)
			continue;
		elt = tracing_map_elt_at(map, tracing_map_val_idx(val));
		se = (struct tracing_map_sort_entry *)(mem + (size_t)n * stride);
		se->key = tracing_map_elt_key(map, elt);
		se->elt = elt;
		se->vars = (uint64_t *)(se + 1);
		se->var_set = (bool *)(se->vars + map->n_vars);
		memset(se->sums, 0, sizeof(se->sums));
		in_elt = entry_sums(map, elt);
		for (v = 0; in_elt && v < map->n_vals; v++)
			se->sums[v] = __atomic_load_n(&in_elt[v],
						      __ATOMIC_RELAXED);
		for (v = 0; v < map->n_vars; v++) {
			se->var_set[v] = tracing_map_var_set(elt, v);
			se->vars[v] = tracing_map_read_var(elt, v);
		}
		entries[n++] = se;
	}

	for (s = 0; s < map->n_slots; s++) {
		const uint64_t *sums = map->slots[s].sums;

		/* most slots belong to threads that never fed this map */
		if (!__atomic_load_n(&map->slots[s].used, __ATOMIC_RELAXED))
			continue;
		for (i = 0; i < n; i++) {
			struct tracing_map_sort_entry *se = entries[i];
			size_t off = (size_t)se->elt->bucket * map->n_vals;

			for (v = 0; v < map->n_vals; v++)
				se->sums[v] += __atomic_load_n(&sums[off + v],
							       __ATOMIC_RELAXED);
		}
	}
	*entriesp = entries;
	return n;
}

/*
 * The kernel's tracing_map_sort_entries(): entries in bucket order are
 * first sorted by their key bytes (detect_dups(), memcmp), then by the
 * primary sort key with the heapsort, then each run of entries equal in
 * the primary key by the secondary key, heapsort again.  The order of
 * ties is thus fixed by the key bytes and the heapsort's steps: the same
 * as the kernel's for the same entries and values.
 */
int tracing_map_sort_entries(struct tracing_map *map,
			     const struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry ***sort_entries)
{
	struct tracing_map_sort_entry **entries;
	struct sort_item *items;
	unsigned int i;
	int n, ret;

	*sort_entries = NULL;
	if (!n_sort_keys || n_sort_keys > TRACING_MAP_SORT_KEYS_MAX)
		return -EINVAL;
	for (i = 0; i < n_sort_keys; i++)
		if (sort_keys[i].field_idx >= map->n_fields)
			return -EINVAL;

	n = snapshot(map, &entries);
	if (n <= 0) {
		if (n == 0)
			free(entries);
		return n;
	}
	if (n > 1) {
		items = malloc(n * sizeof(*items));
		ret = items ? sort_by_key_bytes(map, entries, items, n) :
			      -ENOMEM;
		if (ret) {
			free(items);
			free(entries);
			return ret;
		}
		sort_by_field(map, entries, items, n, &sort_keys[0]);
		if (n_sort_keys > 1)
			sort_secondary(map, entries, items, n, &sort_keys[0],
				       &sort_keys[1]);
		free(items);
	}
	*sort_entries = entries;
	return n;
}

void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n_entries)
{
	free(entries);	/* one block: see snapshot() */
}
