// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c - the kernel symbols of the tree (see ksyms.h).
 *
 * A table is a sorted array published with a release store; adding
 * builds a merged copy and publishes it, and the old array is freed
 * after a grace period (readers look up inside tf_rcu_read_lock()).
 * Names are copied once and freed only with the tables (tf_ksyms_free),
 * so a name a lookup returned stays valid after the section ends: a
 * replaced table's names live on in its successor, which keeps every
 * name of the one it merged.  Writers (replay loads, start-up)
 * serialise on the tables' mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "events/ksyms.h"
#include "util/rcu.h"

struct table {
	size_t n;
	struct tf_ksym syms[];
};

struct tf_ksyms {
	struct table *own, *file, *host;	/* RCU */
	pthread_mutex_t add_lock;
	/* whether the host's were read (under host_lock, once) */
	pthread_mutex_t host_lock;
	_Atomic bool host_loaded;
};

#define OWN_RANGE 4096

static int sym_cmp(const void *a, const void *b)
{
	const struct tf_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void free_later(struct table *t)
{
	if (!t)
		return;
	tf_rcu_synchronize();
	free(t);
}

/* Whether sorted @t has @s (same address and name). */
static bool have_sym(const struct table *t, const struct tf_ksym *s)
{
	size_t lo = 0, hi = t ? t->n : 0;

	while (lo < hi) {		/* the first at or above s->addr */
		size_t mid = (lo + hi) / 2;

		if (t->syms[mid].addr < s->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; t && lo < t->n && t->syms[lo].addr == s->addr; lo++)
		if (strcmp(t->syms[lo].name, s->name) == 0)
			return true;
	return false;
}

/* Publishes @old merged with @syms (copied names) in *@tab. */
static int merge(struct table **tab, const struct tf_ksym *syms, size_t n)
{
	struct table *old = *tab, *t;
	size_t have = old ? old->n : 0, k = have;

	t = malloc(sizeof(*t) + (have + n) * sizeof(t->syms[0]));
	if (!t)
		return -ENOMEM;
	if (have)
		memcpy(t->syms, old->syms, have * sizeof(t->syms[0]));
	for (size_t i = 0; i < n; i++) {
		char *name, *mod;

		/* the same file replayed again: no second copy (names
		 * already handed out must stay valid, so keep the old) */
		if (have_sym(old, &syms[i]))
			continue;
		name = strdup(syms[i].name);
		mod = strdup(syms[i].module ? syms[i].module : "");

		if (!name || !mod) {
			free(name);
			free(mod);
			free(t);
			return -ENOMEM;
		}
		t->syms[k++] = (struct tf_ksym){ syms[i].addr, name, mod,
						 syms[i].size };
	}
	qsort(t->syms, k, sizeof(t->syms[0]), sym_cmp);
	t->n = k;
	tf_rcu_assign_pointer(*tab, t);
	free_later(old);
	return 0;
}

struct tf_ksyms *tf_ksyms_new(void)
{
	struct tf_ksyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	pthread_mutex_init(&ks->add_lock, NULL);
	pthread_mutex_init(&ks->host_lock, NULL);
	return ks;
}

/* Frees @t with its names (each table's names are its own copies). */
static void table_free(struct table *t)
{
	for (size_t i = 0; t && i < t->n; i++) {
		free((char *)t->syms[i].name);
		free((char *)t->syms[i].module);
	}
	free(t);
}

void tf_ksyms_free(struct tf_ksyms *ks)
{
	if (!ks)
		return;
	table_free(ks->own);
	table_free(ks->file);
	table_free(ks->host);
	pthread_mutex_destroy(&ks->add_lock);
	pthread_mutex_destroy(&ks->host_lock);
	free(ks);
}

int tf_ksyms_add_own(struct tf_ksyms *ks, const char *name, uint64_t addr)
{
	return tf_ksyms_add_own_range(ks, name, addr, OWN_RANGE);
}

int tf_ksyms_add_own_range(struct tf_ksyms *ks, const char *name,
			   uint64_t addr, uint64_t size)
{
	struct tf_ksym s = { addr, name, "", size ? size : OWN_RANGE };
	int ret;

	pthread_mutex_lock(&ks->add_lock);
	ret = merge(&ks->own, &s, 1);
	pthread_mutex_unlock(&ks->add_lock);
	return ret;
}

int tf_ksyms_add_file(struct tf_ksyms *ks, const struct tf_ksym *syms,
		      size_t n)
{
	int ret;

	if (!n)
		return 0;
	pthread_mutex_lock(&ks->add_lock);
	ret = merge(&ks->file, syms, n);
	pthread_mutex_unlock(&ks->add_lock);
	return ret;
}

static void host_load(struct tf_ksyms *ks)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct tf_ksym *v = NULL;
	size_t n = 0, cap = 0;
	bool any_addr = false;
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256], module[128] = "";

		if (sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type,
			   name, module) < 3)
			continue;
		any_addr |= addr != 0;
		if (n == cap) {
			struct tf_ksym *p;

			cap = cap ? cap * 2 : 4096;
			if (!(p = realloc(v, cap * sizeof(*p))))
				break;
			v = p;
		}
		v[n].addr = addr;
		v[n].name = strdup(name);
		v[n].module = strdup(module);
		if (!v[n].name || !v[n].module) {
			free((char *)v[n].name);
			free((char *)v[n].module);
			break;
		}
		n++;
	}
	fclose(f);
	/* kptr_restrict: no addresses, no symbols */
	if (any_addr) {
		struct table *t = malloc(sizeof(*t) + n * sizeof(t->syms[0]));

		if (t) {
			memcpy(t->syms, v, n * sizeof(*v));
			t->n = n;
			qsort(t->syms, n, sizeof(t->syms[0]), sym_cmp);
			tf_rcu_assign_pointer(ks->host, t);
			n = 0;	/* the table owns the names now */
		}
	}
	for (size_t i = 0; i < n; i++) {
		free((char *)v[i].name);
		free((char *)v[i].module);
	}
	free(v);
}

/* The last symbol at or below @addr in @t, with the next one's start. */
static bool find(const struct table *t, uint64_t addr, const char **name,
		 uint64_t *start, uint64_t *size, const char **module)
{
	size_t lo = 0, hi = t ? t->n : 0;

	if (!hi || addr < t->syms[0].addr)
		return false;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo + 1 >= t->n)		/* no end known for the last one */
		return false;
	*name = t->syms[lo].name;
	*start = t->syms[lo].addr;
	*size = t->syms[lo + 1].addr - t->syms[lo].addr;
	*module = t->syms[lo].module;
	return true;
}

/* The table addresses come from: the files', else the host's. */
static const struct table *kernel_table(struct tf_ksyms *ks)
{
	const struct table *t = rcu_dereference(ks->file);

	if (t && t->n)
		return t;
	return rcu_dereference(ks->host);
}

/* Reads the host's symbols on the first lookup (not inside a section). */
static void host_once(struct tf_ksyms *ks)
{
	if (atomic_load_explicit(&ks->host_loaded, memory_order_acquire))
		return;
	pthread_mutex_lock(&ks->host_lock);
	if (!atomic_load_explicit(&ks->host_loaded, memory_order_relaxed)) {
		host_load(ks);
		atomic_store_explicit(&ks->host_loaded, true,
				      memory_order_release);
	}
	pthread_mutex_unlock(&ks->host_lock);
}

bool tf_ksyms_lookup(struct tf_ksyms *ks, uint64_t addr, const char **name,
		     uint64_t *start, uint64_t *size, const char **module)
{
	const struct table *own;
	bool ok = false;

	host_once(ks);
	tf_rcu_read_lock();
	own = rcu_dereference(ks->own);
	/* sorted: the last one starting at or below @addr, in its range */
	for (size_t i = 0; own && i < own->n && own->syms[i].addr <= addr; i++)
		if (addr < own->syms[i].addr + own->syms[i].size) {
			uint64_t to_next = i + 1 < own->n ?
				own->syms[i + 1].addr - own->syms[i].addr :
				own->syms[i].size;

			*name = own->syms[i].name;
			*start = own->syms[i].addr;
			*size = to_next < own->syms[i].size ? to_next :
				own->syms[i].size;
			*module = own->syms[i].module;
			ok = true;
		}
	if (!ok)
		ok = find(kernel_table(ks), addr, name, start, size, module);
	tf_rcu_read_unlock();
	return ok;
}

uint64_t tf_ksyms_lookup_name(struct tf_ksyms *ks, const char *name)
{
	const struct table *t;
	uint64_t addr = 0;

	host_once(ks);
	tf_rcu_read_lock();
	t = kernel_table(ks);
	for (size_t i = 0; t && i < t->n; i++)
		if (strcmp(t->syms[i].name, name) == 0) {
			addr = t->syms[i].addr;
			break;
		}
	tf_rcu_read_unlock();
	return addr;
}

/* libtraceevent's resolver: name, and *addrp set to the function start. */
static char *tep_resolver(void *priv, unsigned long long *addrp, char **modp)
{
	const char *name, *module;
	uint64_t start, size;

	if (!tf_ksyms_lookup(priv, *addrp, &name, &start, &size, &module))
		return NULL;
	*addrp = start;
	*modp = module && *module ? (char *)module : NULL;
	return (char *)name;
}

int tf_ksyms_attach(struct tf_ksyms *ks, struct tep_handle *tep)
{
	return tep_set_function_resolver(tep, tep_resolver, ks);
}
