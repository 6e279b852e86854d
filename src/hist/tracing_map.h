/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_map.h - the hist-trigger map: a fixed-size, insert-only table of
 * entries (tracing_map_elt) keyed by a histogram's compound key, holding
 * the histogram's sums and variables, with the semantics of the kernel's
 * kernel/trace/tracing_map.c (see reference/histogram-design.txt).
 *
 * What is the kernel's:
 *  - sizing: map_bits in [TRACING_MAP_BITS_MIN, TRACING_MAP_BITS_MAX];
 *    max_elts = 1 << map_bits entries; the hash array has 2 * max_elts
 *    buckets claimed with a compare-and-swap; an event whose key is new
 *    when all max_elts entries are taken is counted in "drops" and not in
 *    "hits";
 *  - entries are never removed and never move once inserted; only a clear
 *    empties the map;
 *  - sort: tracing_map_sort_entries() orders entries exactly as the kernel
 *    does, ties included (see the comment in tracing_map.c).
 *
 * What differs, and why: the kernel keeps one set of atomic sums per
 * entry, shared by all CPUs.  Here each ingest thread owns a "slot" (an
 * index in [0, n_slots)) with its own array of sums and its own hits and
 * drops counters, written without atomic read-modify-write and merged when
 * read: counters shared between threads scale negatively.  The key index
 * (hash array) and the entries are shared.  A slot's sums for an entry
 * sit at the index of the entry's bucket (known from the key's hash
 * before the bucket is read), so insertion prefetches them alongside it;
 * in a map with variables, whose entry every event writes anyway, the
 * slot that made an entry keeps its sums in the entry instead, and in a
 * map of a two-word key and one sum, in the bucket's free word.  Buckets
 * and entries are faulted in when the map is created, as the kernel
 * allocates them when the trigger is written.
 *
 * Threads and memory:
 *  - any number of threads may insert/update concurrently, provided no two
 *    use the same slot at the same time;
 *  - readers (lookup, read_sum, totals, sort_entries) may run concurrently
 *    with writers; they see every entry whose insertion completed;
 *  - tracing_map_clear() and tracing_map_destroy() need the map quiescent;
 *    to clear a map that events still reach, publish a fresh map with
 *    tracing_map_replace_rcu(), which retires the old one with call_rcu
 *    (liburcu-memb).  Writers and readers then must access the map inside
 *    urcu_memb_read_lock() through rcu_dereference().
 *  - nothing is allocated on the insert/update path.
 */
#ifndef TF_HIST_TRACING_MAP_H
#define TF_HIST_TRACING_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <urcu/urcu-memb.h>

#define TRACING_MAP_BITS_DEFAULT	11
#define TRACING_MAP_BITS_MAX		17
#define TRACING_MAP_BITS_MIN		7
/* Only tracing_map_create_unbounded() (benchmarks) goes past the kernel's. */
#define TRACING_MAP_BITS_HARD_MAX	22

#define TRACING_MAP_KEYS_MAX		3
#define TRACING_MAP_VALS_MAX		3
#define TRACING_MAP_FIELDS_MAX		(TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)
#define TRACING_MAP_VARS_MAX		16
#define TRACING_MAP_SORT_KEYS_MAX	2
#define TRACING_MAP_KEY_SIZE_MAX	384
#define TRACING_MAP_COMM_LEN		16
#define TRACING_MAP_SLOTS_MAX		256
/* Bytes of one string kept per entry (STR_VAR_LEN_MAX): string and
 * stack variables live there, the variable holds a pointer to them. */
#define TRACING_MAP_STR_LEN		256

typedef int (*tracing_map_cmp_fn_t)(const void *val_a, const void *val_b);

struct tracing_map;

/*
 * One entry.  A pointer to an entry points at this header.  Before it
 * sit its variables' set flags, one byte each (n_vars of them, padded
 * to 8); after it, at offsets the map keeps: the variables, the sums of
 * the slot that made the entry (maps with variables), the strings, the
 * key and the comm.  What an event writes (flags, variables, sums,
 * strings) comes first: an entry of a few variables and a short string
 * takes one line per event.  Variables are read and written with the
 * tracing_map_*_var() helpers (atomic, shared by all slots, as in the
 * kernel: a variable set by one event is read by another, maybe on
 * another thread); key, comm and owner are fixed once the entry is
 * published by tracing_map_insert().
 */
struct tracing_map_elt {
	uint32_t bucket;		/* its bucket: where slots' sums are */
	uint32_t owner;			/* 1 + the slot whose sums are in the
					 * entry; 0: none */
	uint64_t vars[];		/* the map's n_vars */
};

/*
 * One bucket of the hash array: the key's 32-bit hash (0: free), the elt
 * index + 1 (0: claimed, not yet published), and the key's first 8 bytes,
 * so that an 8-byte key is matched without touching its elt.  A key of
 * 9-16 bytes has buckets twice that size, its second word following
 * (tracing_map_bucket_word2()): one line holds all the probe compares;
 * in a map of one sum, the word after it holds the sum of the slot that
 * made the entry (bucket_sums), whose number + 1 is then in val's top
 * bits (TRACING_MAP_VAL_OWNER_SHIFT).
 */
struct tracing_map_entry {
	uint32_t key;
	uint32_t val;
	uint64_t key_word;
};

/* val: the elt index + 1 below this bit, above it the owner slot + 1
 * (bucket_sums maps; TRACING_MAP_BITS_HARD_MAX entries, SLOTS_MAX) */
#define TRACING_MAP_VAL_OWNER_SHIFT	23
#define TRACING_MAP_VAL_IDX_MASK	((1u << TRACING_MAP_VAL_OWNER_SHIFT) - 1)

/* An ingest thread's private counters; aligned so slots never share lines. */
struct tracing_map_slot {
	uint64_t hits;
	uint64_t drops;
	uint64_t *sums;			/* map_size * n_vals, by bucket */
	bool used;			/* sums written: readers skip it if not */
	/* the last insert's entry and bucket, and its sums if they are in
	 * the bucket (writer only) */
	struct tracing_map_elt *last_elt;
	unsigned int last_bucket;
	uint64_t *last_sums;
} __attribute__((aligned(64)));

struct tracing_map_field {
	tracing_map_cmp_fn_t cmp_fn;
	bool is_key;
	unsigned int offset;		/* key fields: byte offset in the key */
	unsigned int sum_idx;		/* sum fields: index into the sums */
	unsigned char num_size;		/* numeric key fields: 1, 2, 4, 8 */
	bool num_signed;
};

/* The map; callers use the functions below, not the fields. */
struct tracing_map {
	unsigned int map_bits;
	unsigned int map_size;		/* 2 * max_elts buckets */
	unsigned int max_elts;
	unsigned int key_size;
	unsigned int n_vals;
	unsigned int n_vars;
	unsigned int n_strs;
	unsigned int str_size;		/* bytes of an entry's strings */
	unsigned short str_off[64];	/* string i at strs_off + str_off[i] */
	/* offsets from an entry's header (struct tracing_map_elt) */
	unsigned int elt_head;		/* bytes before it: variables' flags */
	unsigned int sums_off;		/* the owner slot's sums, if entry_sums */
	unsigned int strs_off;		/* its strings */
	unsigned int key_off;		/* its key */
	unsigned int comm_off;		/* its comm */
	/*
	 * The slot that makes an entry keeps its sums in it, the others by
	 * bucket: for maps with variables, whose entries every event writes
	 * anyway (one line per event, not two).
	 */
	bool entry_sums;
	/*
	 * In a map of a two-word key and one sum (no variables), whose
	 * bucket has a free word, the slot that makes an entry keeps its
	 * sum there, the others by bucket: the probe's line is the sum's.
	 */
	bool bucket_sums;
	unsigned int n_slots;
	unsigned int n_fields;
	unsigned int n_keys;
	size_t elt_stride;
	struct tracing_map_entry *map;	/* map_size buckets */
	unsigned int bucket_shift;	/* log2 of a bucket's bytes: 16, or 32
					 * for a key of 9-16 bytes */
	/* 16 bits per entry, one set per claimed key hash: once the map is
	 * full, a key whose bit is clear is new, hence dropped, without a
	 * probe of the bucket array (a cache miss at large sizes) */
	uint64_t *present;
	unsigned char *elt_mem;		/* max_elts elts, elt_stride apart */
	struct tracing_map_slot *slots;	/* n_slots */
	struct tracing_map_field fields[TRACING_MAP_FIELDS_MAX];
	struct rcu_head rcu;		/* for tracing_map_destroy_rcu */
	/* written on every new key: keep it off the lines read per event */
	uint32_t next_elt __attribute__((aligned(64)));	/* may pass max_elts */
};

struct tracing_map_totals {
	uint64_t hits;			/* events counted in an entry */
	uint64_t drops;			/* events whose key did not fit */
	unsigned int entries;		/* entries inserted */
};

/*
 * A snapshot of one entry, for sorting and printing: the sums are merged
 * over all slots and the vars copied when the snapshot is taken, so a sort
 * sees values that do not change under it.  key and elt point into the map:
 * they stay valid while the map does (a reader holds urcu_memb_read_lock,
 * or owns the map).
 */
struct tracing_map_sort_entry {
	void *key;
	struct tracing_map_elt *elt;
	uint64_t sums[TRACING_MAP_VALS_MAX];
	uint64_t *vars;			/* n_vars copied values */
	bool *var_set;			/* n_vars copied flags */
};

struct tracing_map_sort_key {
	unsigned int field_idx;		/* as returned by tracing_map_add_*_field */
	bool descending;
};

/*
 * size= to map_bits as the kernel computes it (ilog2(roundup_pow_of_two)).
 * The result may be out of range: tracing_map_create() says -EINVAL then.
 */
unsigned int tracing_map_size_to_bits(unsigned long size);

/*
 * Create a map of 1 << map_bits entries with keys of key_size bytes,
 * n_vals sums (hitcount included), n_vars variables, and n_slots ingest
 * slots.  Sum fields 0 .. n_vals-1 are added at once (compared as u64, as
 * the kernel's atomic64 sums are); key fields are added with
 * tracing_map_add_key_field().  Returns 0 and *mapp, or -EINVAL / -ENOMEM.
 */
int tracing_map_create(unsigned int map_bits, unsigned int key_size,
		       unsigned int n_vals, unsigned int n_vars,
		       unsigned int n_slots, struct tracing_map **mapp);
/*
 * The same with @n_strs (at most 64) strings per entry, string i of
 * @str_sizes[i] bytes (at most TRACING_MAP_STR_LEN), zeroed when the
 * entry is made: the kernel's hist_elt_data field_var_str, sized to
 * what each holds (the kernel gives each STR_VAR_LEN_MAX bytes).
 */
int tracing_map_create_strs(unsigned int map_bits, unsigned int key_size,
			    unsigned int n_vals, unsigned int n_vars,
			    unsigned int n_strs, const unsigned int *str_sizes,
			    unsigned int n_slots, struct tracing_map **mapp);
/* The same without the kernel's upper size limit; for benchmarks. */
int tracing_map_create_unbounded(unsigned int map_bits, unsigned int key_size,
				 unsigned int n_vals, unsigned int n_vars,
				 unsigned int n_slots, struct tracing_map **mapp);
void tracing_map_destroy(struct tracing_map *map);

/*
 * Describe a key field for sorting: the field at byte offset in the key,
 * compared by cmp_fn.  Returns the new field index (n_vals + k), or
 * -EINVAL past TRACING_MAP_KEYS_MAX keys.  Sum field i has index i.
 */
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn);

/* Comparators, as the kernel's (numbers by size and signedness). */
tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed);
int tracing_map_cmp_string(const void *val_a, const void *val_b);
int tracing_map_cmp_none(const void *val_a, const void *val_b);

/* The key hash's steps: a start for @size bytes, a word mixed in, the
 * end (never 0: 0 marks a free bucket). */
static inline uint64_t tracing_map_hash_start(unsigned int size)
{
	return 0x9e3779b97f4a7c15ull ^ size;
}

static inline uint64_t tracing_map_hash_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 31);
}

static inline uint32_t tracing_map_hash_end(uint64_t h)
{
	h *= 0x94d049bb133111ebull;
	h ^= h >> 32;
	return (uint32_t)h ? (uint32_t)h : 1;
}

/* The hash of a one-word (8-byte) key, as tracing_map_insert() takes it. */
static inline uint32_t tracing_map_hash_word(uint64_t w)
{
	return tracing_map_hash_end(tracing_map_hash_mix(
		tracing_map_hash_start(8), w));
}

/* Bucket @idx of @map. */
static inline struct tracing_map_entry *
tracing_map_bucket(const struct tracing_map *map, uint32_t idx)
{
	return (struct tracing_map_entry *)((char *)map->map +
					    ((size_t)idx << map->bucket_shift));
}

/* Bucket @idx of a map whose keys are @size bytes, a constant where
 * it is inlined: its buckets' size is then known too. */
static inline __attribute__((always_inline)) struct tracing_map_entry *
tracing_map_bucket_sized(const struct tracing_map *map, uint32_t idx,
			 unsigned int size)
{
	unsigned int shift = size <= 8 ? 4 : size <= 16 ? 5 : map->bucket_shift;

	return (struct tracing_map_entry *)((char *)map->map +
					    ((size_t)idx << shift));
}

/* The second key word a two-word key's bucket holds after its entry. */
static inline uint64_t *tracing_map_bucket_word2(struct tracing_map_entry *b)
{
	return (uint64_t *)(b + 1);
}

/* The owner slot's sum a two-word key's bucket holds (bucket_sums). */
static inline uint64_t *tracing_map_bucket_sum(struct tracing_map_entry *b)
{
	return (uint64_t *)(b + 1) + 1;
}

/*
 * Fetches the line an insert into bucket @idx reads besides the
 * bucket's own: @s's sums there (not in a map whose entries hold them,
 * nor while @s sees more drops than hits: a full map and new keys,
 * wasted traffic).
 *
 * Always inlined, as every prefetching helper here: GCC takes a
 * function of loads and prefetches alone for a pure one (prefetches
 * have no side effect to it) and deletes its calls before it would
 * inline them, prefetches and all.
 */
static inline __attribute__((always_inline)) void
tracing_map_prefetch_beside(const struct tracing_map *map,
			    const struct tracing_map_slot *s, uint32_t idx)
{
	if (!map->entry_sums && !map->bucket_sums && s->drops <= s->hits)
		__builtin_prefetch(&s->sums[(size_t)idx * map->n_vals], 1);
}

/*
 * Fetches into the cache what tracing_map_insert(@map, @slot, &@key)
 * will read for a one-word key (its home bucket and what lies beside
 * it), changing nothing; issued some events ahead of the insert (see
 * tf_dispatch_locked_n()), the misses of consecutive events overlap.
 * Prefetches only: a load here would wait for its own miss.
 */
static inline __attribute__((always_inline)) void
tracing_map_prefetch_word(struct tracing_map *map, unsigned int slot,
			  uint64_t key)
{
	uint32_t idx = tracing_map_hash_word(key) >> (32 - (map->map_bits + 1));

	__builtin_prefetch(tracing_map_bucket_sized(map, idx, 8));
	tracing_map_prefetch_beside(map, &map->slots[slot], idx);
}

/* ---- finding and inserting keys ----------------------------------------
 * The event path's common case, a hit on a key of one or two words, is
 * inline here, without a call or a frame of its own; anything else (a
 * new key, a drop, an entry being published, longer keys) is
 * tracing_map.c's.
 */

static inline uint64_t tracing_map_load_word(const void *p)
{
	uint64_t w;

	__builtin_memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * The hash of a key of @size bytes: a word at a time (the hist code pads
 * every key field to 8 bytes); one and two words inline.  The slot a key
 * lands in is invisible to users: the sort orders entries by their key
 * bytes before anything else (see tracing_map_sort_entries).
 */
uint32_t tracing_map_hash_any(const void *key, unsigned int size);

static inline uint32_t tracing_map_hash(const void *key, unsigned int size)
{
	const unsigned char *p = key;

	if (size == 8)
		return tracing_map_hash_word(tracing_map_load_word(p));
	if (size == 16)
		return tracing_map_hash_end(tracing_map_hash_mix(
			tracing_map_hash_mix(tracing_map_hash_start(16),
					     tracing_map_load_word(p)),
			tracing_map_load_word(p + 8)));
	return tracing_map_hash_any(key, size);
}

/* The entry a published bucket's val names. */
static inline uint32_t tracing_map_val_idx(uint32_t val)
{
	return (val & TRACING_MAP_VAL_IDX_MASK) - 1;
}

static inline struct tracing_map_elt *
tracing_map_elt_at(const struct tracing_map *map, uint32_t idx)
{
	return (struct tracing_map_elt *)(map->elt_mem +
					  (size_t)idx * map->elt_stride +
					  map->elt_head);
}

/* Count in a slot's counter: one writer, readers load it atomically. */
static inline void tracing_map_count(uint64_t *counter)
{
	__atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
}

/*
 * The slot's last insert: @elt in bucket @idx (@entry), published as
 * @val; where the slot's sums for it are if the bucket holds them.
 */
static inline void tracing_map_note_last(struct tracing_map *map,
					 struct tracing_map_slot *s,
					 struct tracing_map_elt *elt,
					 uint32_t idx,
					 struct tracing_map_entry *entry,
					 uint32_t val)
{
	s->last_elt = elt;
	s->last_bucket = idx;
	s->last_sums = map->bucket_sums &&
		       val >> TRACING_MAP_VAL_OWNER_SHIFT ==
		       (uint32_t)(s - map->slots) + 1 ?
		       tracing_map_bucket_sum(entry) : NULL;
}

/* tracing_map_insert() past a hit on a short key (out of line). */
struct tracing_map_elt *tracing_map_insert_slow(struct tracing_map *map,
						unsigned int slot,
						const void *key,
						uint32_t key_hash,
						const char *comm);

/*
 * The probe for a key of @size bytes (8 or 16, a constant where it is
 * inlined) from bucket *@idx: the key's published entry, its bucket
 * left in *@idx and *@entry and its val in *@val; NULL where the probe
 * meets an empty bucket (*@entry NULL: the key is not there) or the
 * key's entry still being published (*@entry its bucket).  Half the
 * buckets at most are used, so the probe meets an empty one.
 */
static inline __attribute__((always_inline)) struct tracing_map_elt *
tracing_map_find(struct tracing_map *map, uint32_t *idx, const void *key,
		 uint32_t key_hash, unsigned int size,
		 struct tracing_map_entry **entry, uint32_t *val)
{
	uint64_t key_word = tracing_map_load_word(key);

	for (;; *idx = (*idx + 1) & (map->map_size - 1)) {
		struct tracing_map_entry *e =
			tracing_map_bucket_sized(map, *idx, size);
		uint32_t test_key = __atomic_load_n(&e->key, __ATOMIC_ACQUIRE);

		if (!test_key) {
			*entry = NULL;
			return NULL;
		}
		if (test_key != key_hash)
			continue;
		*entry = e;
		*val = __atomic_load_n(&e->val, __ATOMIC_ACQUIRE);
		if (!*val)
			return NULL;
		/* published: both words are visible */
		if (e->key_word == key_word &&
		    (size == 8 || *tracing_map_bucket_word2(e) ==
		     tracing_map_load_word((const char *)key + 8)))
			return tracing_map_elt_at(map,
						  tracing_map_val_idx(*val));
	}
}

/*
 * An insert's hit on a key of @size bytes (8 or 16) from bucket @idx:
 * its entry, noted as the slot's last; NULL for anything else (a new
 * key, a drop, an entry being published), which is the slow path's.
 */
static inline __attribute__((always_inline)) struct tracing_map_elt *
tracing_map_probe(struct tracing_map *map, struct tracing_map_slot *s,
		  uint32_t idx, const void *key, uint32_t key_hash,
		  unsigned int size)
{
	struct tracing_map_entry *entry;
	uint32_t val;
	struct tracing_map_elt *elt = tracing_map_find(map, &idx, key,
						       key_hash, size,
						       &entry, &val);

	if (elt) {
		tracing_map_note_last(map, s, elt, idx, entry, val);
		tracing_map_count(&s->hits);
	}
	return elt;
}

/* tracing_map_insert() of a key whose hash (tracing_map_hash()) is known */
static inline __attribute__((always_inline)) struct tracing_map_elt *
tracing_map_insert_comm(struct tracing_map *map, unsigned int slot,
			const void *key, uint32_t key_hash, const char *comm)
{
	struct tracing_map_slot *s = &map->slots[slot];
	uint32_t idx = key_hash >> (32 - (map->map_bits + 1));
	struct tracing_map_elt *elt = NULL;

	/*
	 * The sums of the key's entry sit at its bucket's index (unless the
	 * entry holds them): fetch their line while the bucket's is fetched
	 * (the entry is in its home bucket or the next, mostly the same
	 * sums line).
	 */
	tracing_map_prefetch_beside(map, s, idx);
	/* the common case, a one- or two-word key that is there, with
	 * the key's size known to each copy of the probe */
	if (map->key_size == 8)
		elt = tracing_map_probe(map, s, idx, key, key_hash, 8);
	else if (map->key_size == 16)
		elt = tracing_map_probe(map, s, idx, key, key_hash, 16);
	return elt ? elt : tracing_map_insert_slow(map, slot, key, key_hash,
						   comm);
}

/*
 * Find the entry for key, inserting it if new, and count a hit in slot;
 * comm (may be NULL) is saved in a new entry.  Returns NULL, counting a
 * drop in slot, when the key is new and the map full.  Out of line; the
 * event path inlines tracing_map_insert_comm(map, slot, key,
 * tracing_map_hash(key, map->key_size), comm) instead.
 */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map,
					   unsigned int slot, const void *key,
					   const char *comm);

/*
 * For an insert put off a few events (see hist_trigger.c, "Deferred
 * updates"): fetches into the cache what tracing_map_insert(@map,
 * @slot, @key) will read (the key's home bucket, @slot's sums beside
 * it), changing nothing, and returns the key's hash for
 * tracing_map_insert_hashed(), which then inserts @key as
 * tracing_map_insert() does (no comm saved).
 */
static inline __attribute__((always_inline)) uint32_t
tracing_map_prefetch_key(struct tracing_map *map, unsigned int slot,
			 const void *key)
{
	uint32_t key_hash = tracing_map_hash(key, map->key_size);
	uint32_t idx = key_hash >> (32 - (map->map_bits + 1));

	__builtin_prefetch(tracing_map_bucket(map, idx));
	tracing_map_prefetch_beside(map, &map->slots[slot], idx);
	return key_hash;
}

static inline __attribute__((always_inline)) struct tracing_map_elt *
tracing_map_insert_hashed(struct tracing_map *map, unsigned int slot,
			  const void *key, uint32_t key_hash)
{
	return tracing_map_insert_comm(map, slot, key, key_hash, NULL);
}

/* tracing_map_lookup() of any key (out of line). */
struct tracing_map_elt *tracing_map_lookup_slow(struct tracing_map *map,
						const void *key);

/*
 * Find the entry for key without inserting or counting: a one-word key
 * that is there, or surely not, inline (a variable reference looks one
 * up per event).  @h is tracing_map_hash(@key, @map->key_size), which
 * the caller may know already (the same key in a map of the same key
 * size hashes the same).
 */
static inline struct tracing_map_elt *
tracing_map_lookup_hashed(struct tracing_map *map, const void *key,
			  uint32_t h)
{
	if (map->key_size == 8) {
		uint32_t idx = h >> (32 - (map->map_bits + 1));
		struct tracing_map_entry *entry;
		uint32_t val;
		struct tracing_map_elt *elt = tracing_map_find(map, &idx, key,
							       h, 8, &entry,
							       &val);

		if (elt || !entry)	/* there, or surely not */
			return elt;
	}
	return tracing_map_lookup_slow(map, key);
}

static inline struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map,
							 const void *key)
{
	if (map->key_size == 8)
		return tracing_map_lookup_hashed(map, key, tracing_map_hash_word(
			tracing_map_load_word(key)));
	return tracing_map_lookup_slow(map, key);
}

/*
 * elt's n_vals sums in slot, for adding to in place (slot's owner only).
 * In the entry or its bucket if it is @slot's (see entry_sums and
 * bucket_sums); otherwise at the index of the entry's bucket, which
 * insertion knew before it read the bucket: it prefetched their line
 * meanwhile.
 */
static inline uint64_t *tracing_map_slot_sums(struct tracing_map *map,
					      unsigned int slot,
					      struct tracing_map_elt *elt)
{
	struct tracing_map_slot *s = &map->slots[slot];
	unsigned int bucket;

	if (map->entry_sums && __builtin_expect(elt->owner == slot + 1, 1))
		return (uint64_t *)((char *)elt + map->sums_off);
	if (__builtin_expect(s->last_elt == elt, 1)) {
		if (s->last_sums)
			return s->last_sums;
		bucket = s->last_bucket;
	} else {
		bucket = elt->bucket;
		if (map->bucket_sums && elt->owner == slot + 1)
			return tracing_map_bucket_sum(
				tracing_map_bucket(map, bucket));
	}

	/* note that this slot holds sums: snapshots skip unused slots */
	if (__builtin_expect(!__atomic_load_n(&s->used, __ATOMIC_RELAXED), 0))
		__atomic_store_n(&s->used, true, __ATOMIC_RELAXED);
	return &s->sums[(size_t)bucket * map->n_vals];
}

/* Add n to sum i of elt in slot.  Only slot's owner thread may call this. */
static inline void tracing_map_update_sum(struct tracing_map *map,
					  unsigned int slot,
					  struct tracing_map_elt *elt,
					  unsigned int i, uint64_t n)
{
	uint64_t *p = &tracing_map_slot_sums(map, slot, elt)[i];

	/* single writer: a plain add, made atomic only for readers' sake */
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

/* Sum i of @elt, an entry of @map, merged over all slots. */
uint64_t tracing_map_read_sum(const struct tracing_map *map,
			      const struct tracing_map_elt *elt,
			      unsigned int i);

/* The key of @elt, an entry of @map (key_size bytes). */
static inline void *tracing_map_elt_key(const struct tracing_map *map,
					const struct tracing_map_elt *elt)
{
	return (char *)elt + map->key_off;
}

/* The comm saved in @elt when it was made ("" if none was given). */
static inline char *tracing_map_elt_comm(const struct tracing_map *map,
					 const struct tracing_map_elt *elt)
{
	return (char *)elt + map->comm_off;
}

/* String @i of @elt (i < n_strs), an entry of @map: taken as an
 * argument, not from the entry, so that writing an entry's string loads
 * nothing from the entry first. */
static inline char *tracing_map_elt_str(const struct tracing_map *map,
					struct tracing_map_elt *elt,
					unsigned int i)
{
	return (char *)elt + map->strs_off + map->str_off[i];
}

/* Whether variable @i of @elt is set: a byte before the header. */
static inline bool *tracing_map_var_flag(struct tracing_map_elt *elt,
					 unsigned int i)
{
	return (bool *)elt - 1 - i;
}

/* Variables, shared by all slots (the kernel's tracing_map_*_var). */
static inline void tracing_map_set_var(struct tracing_map_elt *elt,
				       unsigned int i, uint64_t n)
{
	__atomic_store_n(&elt->vars[i], n, __ATOMIC_RELAXED);
	__atomic_store_n(tracing_map_var_flag(elt, i), true, __ATOMIC_RELEASE);
}

static inline bool tracing_map_var_set(struct tracing_map_elt *elt,
				       unsigned int i)
{
	return __atomic_load_n(tracing_map_var_flag(elt, i), __ATOMIC_ACQUIRE);
}

static inline uint64_t tracing_map_read_var(struct tracing_map_elt *elt,
					    unsigned int i)
{
	return __atomic_load_n(&elt->vars[i], __ATOMIC_RELAXED);
}

/* Read and unset: a variable reference consumes the value (kernel). */
static inline uint64_t tracing_map_read_var_once(struct tracing_map_elt *elt,
						 unsigned int i)
{
	__atomic_store_n(tracing_map_var_flag(elt, i), false,
			 __ATOMIC_RELAXED);
	return __atomic_load_n(&elt->vars[i], __ATOMIC_RELAXED);
}

void tracing_map_read_totals(struct tracing_map *map,
			     struct tracing_map_totals *totals);

/*
 * Empty the map in place: no entries, zero hits and drops.  Only for a
 * map no thread is using (see tracing_map_replace_rcu otherwise).
 */
void tracing_map_clear(struct tracing_map *map);

/*
 * Clear a map that is in use: create an empty map with the same shape
 * and fields, rcu_assign_pointer() it to *mapp, and free the old one after
 * a grace period (call_rcu, liburcu-memb).  The caller serialises calls
 * (the control mutex) and is a registered RCU thread, as call_rcu needs.
 * Events that raced with the swap are counted in the old map, as if they
 * had come before the clear.  On -ENOMEM nothing changes.
 */
int tracing_map_replace_rcu(struct tracing_map **mapp);
/* Free map after a grace period (caller: a registered RCU thread). */
void tracing_map_destroy_rcu(struct tracing_map *map);

/*
 * Snapshot the map and sort it by up to two keys as the kernel does.
 * Returns the number of entries and *sort_entries (free with
 * tracing_map_destroy_sort_entries), 0 with *sort_entries NULL if the map
 * is empty, or a negative errno.
 */
int tracing_map_sort_entries(struct tracing_map *map,
			     const struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry ***sort_entries);
void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n_entries);

/* The kernel's lib/sort.c heapsort (for callers that need its tie order). */
void tracing_map_heapsort(void **base, size_t num,
			  int (*cmp)(const void *a, const void *b, void *priv),
			  void *priv);

#endif
