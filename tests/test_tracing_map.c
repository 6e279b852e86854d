// SPDX-License-Identifier: GPL-2.0
/*
 * test_tracing_map.c - the hist map: sizes as size= gives them, Hits,
 * Entries and Dropped as hist's Totals show them (also with two ingest
 * threads), sums, variables, the kernel's sort order, and clearing a map
 * that events still reach.
 */
#include "hist/tracing_map.h"
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

static struct tracing_map *new_map(unsigned int bits, unsigned int key_size,
				   unsigned int n_vals, unsigned int n_vars,
				   unsigned int n_slots)
{
	struct tracing_map *map = NULL;

	CHECK_INT(tracing_map_create(bits, key_size, n_vals, n_vars, n_slots,
				     &map), 0);
	return map;
}

/* One event: insert key, count a hit in sum 0, add val to sum 1. */
static struct tracing_map_elt *event(struct tracing_map *map, unsigned slot,
				     uint64_t key, uint64_t val)
{
	struct tracing_map_elt *elt = tracing_map_insert(map, slot, &key, NULL);

	if (elt) {
		tracing_map_update_sum(map, slot, elt, 0, 1);
		if (map->n_vals > 1)
			tracing_map_update_sum(map, slot, elt, 1, val);
	}
	return elt;
}

static void test_sizes(void)
{
	struct tracing_map *map = NULL;

	/* size= N gives ilog2(roundup_pow_of_two(N)) */
	CHECK_INT(tracing_map_size_to_bits(128), 7);
	CHECK_INT(tracing_map_size_to_bits(100), 7);
	CHECK_INT(tracing_map_size_to_bits(129), 8);
	CHECK_INT(tracing_map_size_to_bits(2048), 11);
	CHECK_INT(tracing_map_size_to_bits(131072), 17);
	CHECK_INT(tracing_map_size_to_bits(131073), 18);

	/* size=64 and size=262144 are out of the kernel's range */
	CHECK_INT(tracing_map_create(6, 8, 1, 0, 1, &map), -EINVAL);
	CHECK_INT(tracing_map_create(18, 8, 1, 0, 1, &map), -EINVAL);
	CHECK_INT(tracing_map_create(7, 8, 4, 0, 1, &map), -EINVAL);
	CHECK_INT(tracing_map_create(7, 8, 1, 17, 1, &map), -EINVAL);
	CHECK_INT(tracing_map_create(7, 392, 1, 0, 1, &map), -EINVAL);
	CHECK_INT(tracing_map_create(7, 384, 3, 16, 1, &map), 0);
	tracing_map_destroy(map);

	map = new_map(7, 8, 1, 0, 1);
	CHECK_INT(map->max_elts, 128);
	CHECK_INT(map->map_size, 256);
	tracing_map_destroy(map);
	map = new_map(11, 8, 1, 0, 1);
	CHECK_INT(map->max_elts, 2048);
	CHECK_INT(map->map_size, 4096);
	tracing_map_destroy(map);
}

/* size=128 and 200 distinct keys: Hits: 128 Entries: 128 Dropped: 72 */
static void test_dropped(void)
{
	struct tracing_map *map = new_map(7, 8, 1, 0, 1);
	struct tracing_map_totals t;
	uint64_t k;
	int inserted = 0;

	for (k = 0; k < 200; k++)
		inserted += event(map, 0, k * 1000 + 7, 0) != NULL;
	CHECK_INT(inserted, 128);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 128);
	CHECK_INT(t.entries, 128);
	CHECK_INT(t.drops, 72);

	/* keys already in still count; new ones are dropped */
	for (k = 0; k < 200; k++)
		event(map, 0, k * 1000 + 7, 0);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 256);
	CHECK_INT(t.entries, 128);
	CHECK_INT(t.drops, 144);

	/* the first 128 keys are the ones in */
	for (k = 0; k < 200; k++) {
		uint64_t key = k * 1000 + 7;
		struct tracing_map_elt *elt = tracing_map_lookup(map, &key);

		CHECK((elt != NULL) == (k < 128));
		if (elt)
			CHECK_INT(tracing_map_read_sum(map, elt, 0), 2);
	}
	tracing_map_destroy(map);
}

static void test_sums_vars_comm(void)
{
	struct tracing_map *map = new_map(7, 16, 2, 2, 2);
	struct tracing_map_elt *elt, *again;
	struct tracing_map_totals t;
	uint64_t key[2] = { 42, 43 }, other[2] = { 42, 44 };

	elt = tracing_map_insert(map, 0, key, "bash");
	CHECK(elt != NULL);
	CHECK_STR(tracing_map_elt_comm(map, elt), "bash");
	CHECK(memcmp(tracing_map_elt_key(map, elt), key, 16) == 0);
	tracing_map_update_sum(map, 0, elt, 0, 1);
	tracing_map_update_sum(map, 0, elt, 1, 100);

	/* the comm is the first inserter's, as the kernel saves it */
	again = tracing_map_insert(map, 1, key, "sshd");
	CHECK(again == elt);
	CHECK_STR(tracing_map_elt_comm(map, again), "bash");
	tracing_map_update_sum(map, 1, again, 0, 1);
	tracing_map_update_sum(map, 1, again, 1, 23);
	CHECK_INT(tracing_map_read_sum(map, elt, 0), 2);
	CHECK_INT(tracing_map_read_sum(map, elt, 1), 123);
	{
		/* a map with variables: slot 0 made the entry and keeps its
		 * sums in it, slot 1 by bucket; snapshots merge both */
		struct tracing_map_sort_key sk = { 0, false };
		struct tracing_map_sort_entry **e = NULL;

		CHECK(map->entry_sums && elt->owner == 1);
		CHECK_INT(tracing_map_sort_entries(map, &sk, 1, &e), 1);
		CHECK(e && e[0]->elt == elt && e[0]->sums[0] == 2 &&
		      e[0]->sums[1] == 123);
		tracing_map_destroy_sort_entries(e, 1);
	}
	/* what events write starts the entry's line */
	CHECK(((uintptr_t)elt - map->elt_head) % 64 == 0);
	CHECK(map->sums_off + 2 * 8 <= 64);

	/* lookup neither inserts nor counts */
	CHECK(tracing_map_lookup(map, other) == NULL);
	CHECK(tracing_map_lookup(map, key) == elt);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 2);
	CHECK_INT(t.entries, 1);
	CHECK_INT(t.drops, 0);

	/* variables: unset, set, read, read once */
	CHECK(!tracing_map_var_set(elt, 1));
	tracing_map_set_var(elt, 1, 555);
	CHECK(tracing_map_var_set(elt, 1));
	CHECK_INT(tracing_map_read_var(elt, 1), 555);
	CHECK_INT(tracing_map_read_var_once(elt, 1), 555);
	CHECK(!tracing_map_var_set(elt, 1));
	CHECK(!tracing_map_var_set(elt, 0));

	/* clear empties everything */
	tracing_map_clear(map);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 0);
	CHECK_INT(t.entries, 0);
	CHECK(tracing_map_lookup(map, key) == NULL);
	elt = tracing_map_insert(map, 0, other, NULL);
	CHECK(elt != NULL && elt == again);	/* entry 0 again */
	CHECK_INT(tracing_map_read_sum(map, elt, 0), 0);
	CHECK(!tracing_map_var_set(elt, 1));
	CHECK_STR(tracing_map_elt_comm(map, elt), "");
	tracing_map_destroy(map);
}

/*
 * A two-word key and one sum, no variables (the synthetic histogram's
 * keys=pid,lat): the slot that made an entry keeps its sum in the
 * bucket, beside the key's second word; another slot's, by bucket;
 * every read and snapshot merges both, and a clear empties both.
 */
static void test_bucket_sums(void)
{
	struct tracing_map *map = new_map(7, 16, 1, 0, 2);
	struct tracing_map_elt *elt[4];
	struct tracing_map_sort_key sk = { 1, false };
	struct tracing_map_sort_entry **e = NULL;

	CHECK(map->bucket_sums && !map->entry_sums);
	CHECK(tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)) == 1);
	for (uint64_t i = 0; i < 4; i++) {
		uint64_t key[2] = { 7, i };

		/* entries 0, 1 made by slot 0; 2, 3 by slot 1 */
		elt[i] = tracing_map_insert(map, i < 2 ? 0 : 1, key, NULL);
		CHECK(elt[i] != NULL);
		if (!elt[i])
			return;
		tracing_map_update_sum(map, i < 2 ? 0 : 1, elt[i], 0, 10);
		for (unsigned int r = 0; r < 3; r++) {
			/* the other slot: by bucket */
			unsigned int other = i < 2 ? 1 : 0;

			CHECK(tracing_map_insert(map, other, key, NULL) ==
			      elt[i]);
			tracing_map_update_sum(map, other, elt[i], 0, 1);
		}
		/* the owner again, through its last insert */
		CHECK(tracing_map_insert(map, i < 2 ? 0 : 1, key, NULL) ==
		      elt[i]);
		tracing_map_update_sum(map, i < 2 ? 0 : 1, elt[i], 0, 100);
	}
	/* an update of an entry not last inserted still finds the bucket */
	tracing_map_update_sum(map, 0, elt[0], 0, 1000);
	for (unsigned int i = 0; i < 4; i++) {
		struct tracing_map_entry *b =
			tracing_map_bucket(map, elt[i]->bucket);

		CHECK_INT(elt[i]->owner, i < 2 ? 1 : 2);
		CHECK_INT(*tracing_map_bucket_sum(b), i ? 110 : 1110);
		CHECK_INT(tracing_map_read_sum(map, elt[i], 0), i ? 113 : 1113);
		CHECK_INT(b->val >> TRACING_MAP_VAL_OWNER_SHIFT,
			  i < 2 ? 1 : 2);
	}
	CHECK_INT(tracing_map_sort_entries(map, &sk, 1, &e), 4);
	for (unsigned int i = 0; e && i < 4; i++)
		CHECK_INT(e[i]->sums[0],
			  *(uint64_t *)((char *)e[i]->key + 8) ? 113 : 1113);
	tracing_map_destroy_sort_entries(e, 4);
	tracing_map_clear(map);
	{
		uint64_t key[2] = { 7, 0 };
		struct tracing_map_elt *x = tracing_map_insert(map, 1, key,
							       NULL);

		CHECK(x != NULL && tracing_map_read_sum(map, x, 0) == 0);
	}
	tracing_map_destroy(map);
}

/* ---- sort ---------------------------------------------------------------- */

/*
 * lib/sort.c as the kernel writes it, in byte offsets, to check that
 * tracing_map_heapsort() is the same algorithm step for step.
 */
static size_t k_parent(size_t i, unsigned int lsbit, size_t size)
{
	i -= size;
	i -= size & -(i & lsbit);
	return i / 2;
}

static void k_swap(char *a, char *b, size_t size)
{
	char t[8];

	memcpy(t, a, size);
	memcpy(a, b, size);
	memcpy(b, t, size);
}

static void kernel_sort(void *v, size_t num, size_t size,
			int (*cmp)(const void *, const void *))
{
	char *base = v;
	size_t n = num * size, a = (num / 2) * size;
	const unsigned int lsbit = size & -size;
	size_t shift = 0;

	if (!a)
		return;
	for (;;) {
		size_t b, c, d;

		if (a)
			a -= size << shift;
		else if (n > 3 * size) {
			n -= size;
			k_swap(base, base + n, size);
			shift = cmp(base + size, base + 2 * size) <= 0;
			a = size << shift;
			n -= size;
			k_swap(base + a, base + n, size);
		} else
			break;
		for (b = a; c = 2 * b + size, (d = c + size) < n;)
			b = cmp(base + c, base + d) > 0 ? c : d;
		if (d == n)
			b = c;
		while (b != a && cmp(base + a, base + b) >= 0)
			b = k_parent(b, lsbit, size);
		c = b;
		while (b != a) {
			b = k_parent(b, lsbit, size);
			k_swap(base + b, base + c, size);
		}
	}
	n -= size;
	k_swap(base, base + n, size);
	if (n == size * 2 && cmp(base, base + size) > 0)
		k_swap(base, base + size, size);
}

struct item { int val; int id; };

static int k_cmp_item(const void *a, const void *b)
{
	const struct item *x = *(struct item *const *)a;
	const struct item *y = *(struct item *const *)b;

	return (x->val > y->val) - (x->val < y->val);
}

static int my_cmp_item(const void *a, const void *b, void *priv)
{
	const struct item *x = a, *y = b;

	return (x->val > y->val) - (x->val < y->val);
}

/*
 * Two-word (and 12-byte) keys that share their first word: the probe
 * tells them apart by the second word kept in the bucket (on the
 * bucket's line), a hit finds the entry it made, and lookup agrees
 * with insert.
 */
static void test_two_word_keys(void)
{
	for (unsigned int size = 12; size <= 16; size += 4) {
		struct tracing_map *map = new_map(7, size, 1, 0, 1);
		struct tracing_map_elt *elts[8];
		struct tracing_map_totals totals;
		uint64_t key[2];

		for (unsigned int round = 0; round < 3; round++)
			for (uint64_t i = 0; i < 8; i++) {
				struct tracing_map_elt *elt;

				key[0] = 42;
				key[1] = i + 1;
				elt = tracing_map_insert(map, 0, key, NULL);
				CHECK(elt != NULL);
				if (!elt)
					continue;
				tracing_map_update_sum(map, 0, elt, 0, 1);
				if (round == 0)
					elts[i] = elt;
				else
					CHECK(elt == elts[i]);
				CHECK(memcmp(tracing_map_elt_key(map, elt), key,
					     size) == 0);
			}
		for (uint64_t i = 0; i < 8; i++) {
			key[0] = 42;
			key[1] = i + 1;
			CHECK(tracing_map_lookup(map, key) == elts[i]);
			CHECK_INT((int)tracing_map_read_sum(map, elts[i], 0), 3);
			{
				struct tracing_map_entry *b =
					tracing_map_bucket(map, elts[i]->bucket);
				uint64_t *w2 = tracing_map_bucket_word2(b);

				CHECK(*w2 == key[1]);
				CHECK((uintptr_t)b / 64 ==
				      (uintptr_t)(w2 + 1) / 64 ||
				      (uintptr_t)(w2 + 1) % 64 == 0);
			}
		}
		key[1] = 9;	/* first word there, second not */
		CHECK(tracing_map_lookup(map, key) == NULL);
		tracing_map_read_totals(map, &totals);
		CHECK_INT((int)totals.entries, 8);
		CHECK_INT((int)totals.hits, 24);
		tracing_map_destroy(map);
	}
}

static void test_heapsort_is_kernels(void)
{
	static struct item items[600];
	static void *mine[600], *theirs[600];
	unsigned int seed = 1, num, i, round, same = 1, sorted = 1;

	for (round = 0; round < 300; round++) {
		num = round < 20 ? round : 1 + rand_r(&seed) % 600;
		for (i = 0; i < num; i++) {
			items[i].val = rand_r(&seed) % (1 + round % 7);
			items[i].id = i;
			mine[i] = theirs[i] = &items[i];
		}
		tracing_map_heapsort(mine, num, my_cmp_item, NULL);
		kernel_sort(theirs, num, sizeof(void *), k_cmp_item);
		for (i = 0; i < num; i++) {
			same &= mine[i] == theirs[i];
			if (i)
				sorted &= ((struct item *)mine[i - 1])->val <=
					  ((struct item *)mine[i])->val;
		}
	}
	CHECK(same);
	CHECK(sorted);
}

/* keys: { u64 a, s32 b (padded to 8), char s[16] } as the hist code lays them */
struct tkey {
	uint64_t a;
	int64_t b;
	char s[16];
};

static void test_sort(void)
{
	struct tracing_map *map = new_map(7, sizeof(struct tkey), 2, 0, 2);
	struct tracing_map_sort_entry **e = NULL;
	struct tracing_map_sort_key sk[2];
	int fa, fb, fs, n, i, ok;
	static const char *names[] = { "sshd", "bash", "cron", "abc" };

	fa = tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0));
	fb = tracing_map_add_key_field(map, 8, tracing_map_cmp_num(4, 1));
	fs = tracing_map_add_key_field(map, 16, tracing_map_cmp_string);
	CHECK_INT(fa, 2);
	CHECK_INT(fb, 3);
	CHECK_INT(fs, 4);
	CHECK_INT(tracing_map_add_key_field(map, 0, tracing_map_cmp_none),
		  -EINVAL);

	/* empty map: no entries */
	sk[0] = (struct tracing_map_sort_key){ 0, false };
	CHECK_INT(tracing_map_sort_entries(map, sk, 1, &e), 0);
	CHECK(e == NULL);

	/* 40 keys; hitcount = a % 5 + 1 so that there are many ties */
	for (i = 0; i < 40; i++) {
		struct tkey k = { 0 };
		struct tracing_map_elt *elt;
		int h;

		k.a = 1000 - i * 7;
		k.b = (int32_t)(i % 2 ? -i : i);	/* sign-extended */
		strcpy(k.s, names[i % 4]);
		k.s[4] = 'a' + i % 13;
		for (h = 0; h <= (int)(k.a % 5); h++) {
			elt = tracing_map_insert(map, h % 2, &k, NULL);
			tracing_map_update_sum(map, h % 2, elt, 0, 1);
			tracing_map_update_sum(map, h % 2, elt, 1, k.a);
		}
	}

	/* sort=hitcount: ascending, ties in key-byte order run through
	 * the heapsort; at least check the order and the merged sums */
	n = tracing_map_sort_entries(map, sk, 1, &e);
	CHECK_INT(n, 40);
	ok = 1;
	for (i = 0; i < n; i++) {
		ok &= e[i]->sums[0] == ((struct tkey *)e[i]->key)->a % 5 + 1;
		ok &= e[i]->sums[1] == e[i]->sums[0] *
				       ((struct tkey *)e[i]->key)->a;
		if (i)
			ok &= e[i - 1]->sums[0] <= e[i]->sums[0];
	}
	CHECK(ok);
	tracing_map_destroy_sort_entries(e, n);

	/* sort=b.descending: s32 compare, so -39 sorts last */
	sk[0] = (struct tracing_map_sort_key){ fb, true };
	n = tracing_map_sort_entries(map, sk, 1, &e);
	CHECK_INT(((struct tkey *)e[0]->key)->b, 38);
	CHECK_INT(((struct tkey *)e[n - 1]->key)->b, -39);
	tracing_map_destroy_sort_entries(e, n);

	/* sort=s,hitcount.descending: strcmp, then hitcount within equal s */
	sk[0] = (struct tracing_map_sort_key){ fs, false };
	sk[1] = (struct tracing_map_sort_key){ 0, true };
	n = tracing_map_sort_entries(map, sk, 2, &e);
	ok = 1;
	for (i = 1; i < n; i++) {
		const char *p = ((struct tkey *)e[i - 1]->key)->s;
		const char *q = ((struct tkey *)e[i]->key)->s;

		ok &= strcmp(p, q) < 0 ||
		      (strcmp(p, q) == 0 && e[i - 1]->sums[0] >= e[i]->sums[0]);
	}
	CHECK(ok);
	CHECK_STR(((struct tkey *)e[0]->key)->s, "abc");
	tracing_map_destroy_sort_entries(e, n);

	/* sort=a: u64 ascending, all distinct */
	sk[0] = (struct tracing_map_sort_key){ fa, false };
	n = tracing_map_sort_entries(map, sk, 1, &e);
	CHECK_INT(((struct tkey *)e[0]->key)->a, 1000 - 39 * 7);
	CHECK_INT(((struct tkey *)e[n - 1]->key)->a, 1000);
	tracing_map_destroy_sort_entries(e, n);

	/* bad sort keys */
	sk[0] = (struct tracing_map_sort_key){ 9, false };
	CHECK_INT(tracing_map_sort_entries(map, sk, 1, &e), -EINVAL);
	CHECK_INT(tracing_map_sort_entries(map, sk, 3, &e), -EINVAL);
	tracing_map_destroy(map);
}

/*
 * The tie order is the kernel's: entries are first put in key-byte
 * order, then heapsorted.  Reproduce that with the kernel's own sort and
 * compare the whole order.
 */
static struct tracing_map *tie_map;

static int k_cmp_keybytes(const void *a, const void *b)
{
	const struct tracing_map_sort_entry *x = *(void *const *)a;
	const struct tracing_map_sort_entry *y = *(void *const *)b;

	return memcmp(x->key, y->key, tie_map->key_size);
}

static int k_cmp_hitcount(const void *a, const void *b)
{
	const struct tracing_map_sort_entry *x = *(void *const *)a;
	const struct tracing_map_sort_entry *y = *(void *const *)b;

	return (x->sums[0] > y->sums[0]) - (x->sums[0] < y->sums[0]);
}

static int k_cmp_hitcount_desc(const void *a, const void *b)
{
	return -k_cmp_hitcount(a, b);
}

static int k_cmp_key_u64(const void *a, const void *b)
{
	const struct tracing_map_sort_entry *x = *(void *const *)a;
	const struct tracing_map_sort_entry *y = *(void *const *)b;
	uint64_t p = *(uint64_t *)x->key, q = *(uint64_t *)y->key;

	return (p > q) - (p < q);
}

/* kernel/trace/tracing_map.c's sort_secondary(), literally */
static void kernel_sort_secondary(void **entries, unsigned int n_entries,
				  int (*primary_fn)(const void *, const void *),
				  int (*secondary_fn)(const void *, const void *))
{
	unsigned int i, start = 0, n_sub = 1;

	for (i = 0; i < n_entries - 1; i++) {
		if (primary_fn(&entries[i], &entries[i + 1]) == 0) {
			n_sub++;
			if (i < n_entries - 2)
				continue;
		}
		if (n_sub < 2) {
			start = i + 1;
			n_sub = 1;
			continue;
		}
		kernel_sort(&entries[start], n_sub, sizeof(void *),
			    secondary_fn);
		start = i + 1;
		n_sub = 1;
	}
}

static void test_tie_order(void)
{
	struct tracing_map *map = new_map(10, 8, 1, 0, 1);
	struct tracing_map_sort_entry **e, **ref;
	struct tracing_map_sort_key sk = { 0, false };
	uint64_t k;
	int n, i, same = 1;

	for (k = 0; k < 700; k++) {
		int h;

		for (h = 0; h < (int)((k * 2654435761u >> 7) % 4) + 1; h++)
			event(map, 0, k * 0x10001, 0);
	}
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	CHECK_INT(n, 700);

	ref = malloc(n * sizeof(*ref));
	memcpy(ref, e, n * sizeof(*ref));
	tie_map = map;
	kernel_sort(ref, n, sizeof(*ref), k_cmp_keybytes);
	kernel_sort(ref, n, sizeof(*ref), k_cmp_hitcount);
	for (i = 0; i < n; i++)
		same &= ref[i] == e[i];
	CHECK(same);
	tracing_map_destroy_sort_entries(e, n);

	/* sort=hitcount.descending,key: two keys, runs of ties */
	{
		struct tracing_map_sort_key sk2[2] = { { 0, true }, { 0, false } };

		sk2[1].field_idx = tracing_map_add_key_field(map, 0,
						tracing_map_cmp_num(8, 0));
		n = tracing_map_sort_entries(map, sk2, 2, &e);
		CHECK_INT(n, 700);
		memcpy(ref, e, n * sizeof(*ref));
		kernel_sort(ref, n, sizeof(*ref), k_cmp_keybytes);
		kernel_sort(ref, n, sizeof(*ref), k_cmp_hitcount_desc);
		kernel_sort_secondary((void **)ref, n, k_cmp_hitcount_desc,
				      k_cmp_key_u64);
		same = 1;
		for (i = 0; i < n; i++)
			same &= ref[i] == e[i];
		CHECK(same);
		for (i = 1; i < n; i++)
			same &= e[i - 1]->sums[0] > e[i]->sums[0] ||
				(e[i - 1]->sums[0] == e[i]->sums[0] &&
				 *(uint64_t *)e[i - 1]->key <
				 *(uint64_t *)e[i]->key);
		CHECK(same);
		tracing_map_destroy_sort_entries(e, n);
	}
	free(ref);
	tracing_map_destroy(map);
}

/* ---- two ingest threads ---------------------------------------------------- */

struct writer {
	struct tracing_map *map;
	unsigned int slot;
	unsigned int n_keys;
	unsigned int rounds;
};

/* Every key gets `rounds` events from each writer, in a different order. */
static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	unsigned int r, i;

	for (r = 0; r < w->rounds; r++)
		for (i = 0; i < w->n_keys; i++) {
			unsigned int k = w->slot ? w->n_keys - 1 - i : i;

			event(w->map, w->slot, (uint64_t)k * 0x9e37 + 1, k);
		}
	return NULL;
}

static void run_writers(struct tracing_map *map, unsigned int n_keys,
			unsigned int rounds)
{
	struct writer w[2];
	pthread_t tid[2];
	int i;

	for (i = 0; i < 2; i++) {
		w[i] = (struct writer){ map, i, n_keys, rounds };
		pthread_create(&tid[i], NULL, writer_thread, &w[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
}

static void test_two_threads_exact(void)
{
	struct tracing_map *map = new_map(11, 8, 2, 0, 2);
	struct tracing_map_sort_entry **e;
	struct tracing_map_sort_key sk = { 0, false };
	struct tracing_map_totals t;
	int n, i, ok = 1;

	/* 2000 keys fit in size=2048: nothing dropped, every event counted */
	run_writers(map, 2000, 50);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 2 * 2000 * 50);
	CHECK_INT(t.entries, 2000);
	CHECK_INT(t.drops, 0);
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	CHECK_INT(n, 2000);
	for (i = 0; i < n; i++) {
		uint64_t k = (*(uint64_t *)e[i]->key - 1) / 0x9e37;

		ok &= e[i]->sums[0] == 100 && e[i]->sums[1] == 100 * k;
	}
	CHECK(ok);
	tracing_map_destroy_sort_entries(e, n);
	tracing_map_destroy(map);

	/*
	 * size=128, 200 keys, 2 x 30 events per key: whichever 128 keys win,
	 * a key is either in (all its events hit) or out (all dropped).
	 */
	map = new_map(7, 8, 2, 0, 2);
	run_writers(map, 200, 30);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 128 * 60);
	CHECK_INT(t.entries, 128);
	CHECK_INT(t.drops, 72 * 60);
	n = tracing_map_sort_entries(map, &sk, 1, &e);
	CHECK_INT(n, 128);
	for (i = 0; i < n; i++)
		ok &= e[i]->sums[0] == 60;
	CHECK(ok);
	tracing_map_destroy_sort_entries(e, n);
	tracing_map_destroy(map);
}

/* A reader snapshots while two writers insert: it sees only whole entries. */
struct reader {
	struct tracing_map *map;
	int stop;
	int snapshots, bad;
};

static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	struct tracing_map_sort_key sk = { 0, true };
	int last = 0;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		struct tracing_map_sort_entry **e;
		int n = tracing_map_sort_entries(r->map, &sk, 1, &e), i;

		if (n < last)
			r->bad++;
		for (i = 0; i < n; i++) {
			uint64_t key = *(uint64_t *)e[i]->key;

			if ((key - 1) % 0x9e37 || e[i]->sums[0] > 40 ||
			    (i && e[i - 1]->sums[0] < e[i]->sums[0]))
				r->bad++;
		}
		last = n;
		__atomic_add_fetch(&r->snapshots, 1, __ATOMIC_RELEASE);
		tracing_map_destroy_sort_entries(e, n);
	}
	return NULL;
}

static void test_reader_during_inserts(void)
{
	struct tracing_map *map = new_map(12, 8, 2, 0, 2);
	struct reader r = { map, 0, 0, 0 };
	struct tracing_map_totals t;
	pthread_t tid;

	pthread_create(&tid, NULL, reader_thread, &r);
	/* the reader is running before the writers start, however the
	 * machine's load schedules it */
	while (!__atomic_load_n(&r.snapshots, __ATOMIC_ACQUIRE))
		sched_yield();
	run_writers(map, 4000, 20);
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
	CHECK(r.snapshots > 0);
	CHECK_INT(r.bad, 0);
	tracing_map_read_totals(map, &t);
	CHECK_INT(t.hits, 2 * 4000 * 20);
	CHECK_INT(t.entries, 4000);
	tracing_map_destroy(map);
}

/* ---- clear while events stream (RCU) ---------------------------------------- */

static struct tracing_map *live_map;

struct rcu_writer {
	unsigned int slot;
	int stop;
	uint64_t events;
};

static void *rcu_writer_thread(void *arg)
{
	struct rcu_writer *w = arg;
	uint64_t k = 0;

	urcu_memb_register_thread();
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		struct tracing_map *map;

		urcu_memb_read_lock();
		map = rcu_dereference(live_map);
		event(map, w->slot, k++ % 3000, 1);
		urcu_memb_read_unlock();
		w->events++;
	}
	urcu_memb_unregister_thread();
	return NULL;
}

static void test_replace_rcu(void)
{
	struct rcu_writer w[2] = { { 0, 0, 0 }, { 1, 0, 0 } };
	struct tracing_map_totals t;
	struct tracing_map *old;
	pthread_t tid[2];
	int i, ok = 1;

	urcu_memb_register_thread();
	live_map = new_map(11, 8, 2, 0, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, rcu_writer_thread, &w[i]);
	for (i = 0; i < 200; i++) {
		old = live_map;
		ok &= tracing_map_replace_rcu(&live_map) == 0;
		ok &= live_map != old;
	}
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&w[i].stop, 1, __ATOMIC_RELEASE);
		pthread_join(tid[i], NULL);
	}
	CHECK(ok);
	/* the last map holds what came after the last clear, and no more */
	tracing_map_read_totals(live_map, &t);
	CHECK(t.hits <= w[0].events + w[1].events);
	CHECK(t.entries <= 2048);
	CHECK_INT(t.hits + t.drops <= w[0].events + w[1].events, 1);
	tracing_map_destroy(live_map);
	urcu_memb_barrier();		/* run the pending frees */
	urcu_memb_unregister_thread();
}

int main(void)
{
	test_sizes();
	test_dropped();
	test_sums_vars_comm();
	test_two_word_keys();
	test_bucket_sums();
	test_heapsort_is_kernels();
	test_sort();
	test_tie_order();
	test_two_threads_exact();
	test_reader_during_inserts();
	if (!getenv("TF_SKIP_RCU_TEST"))
		test_replace_rcu();
	return check_done("test_tracing_map");
}
