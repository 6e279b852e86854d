/*
 * hist_sym.c - names for numbers: kernel symbols for .sym, .sym-offset
 * and stack keys (a pluggable resolver, /proc/kallsyms by default), and
 * syscall names for .syscall (x86_64, from hist_syscalls.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"
#include "hist/hist_internal.h"
#include "hist/hist_syscalls.h"

const char *tf_hist_syscall_name(uint64_t nr)
{
	if (nr >= sizeof(hist_syscall_names) / sizeof(hist_syscall_names[0]))
		return NULL;
	return hist_syscall_names[nr];
}

/* ---- the default resolver: /proc/kallsyms -------------------------------- */

struct ksym {
	uint64_t addr;
	char *name;
	char *module;
};

static struct ksym *ksyms;
static size_t nr_ksyms;
static pthread_once_t ksyms_once = PTHREAD_ONCE_INIT;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void ksyms_load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	size_t cap = 0;
	bool any_addr = false;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256], module[128] = "";
		int n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type,
			       name, module);

		if (n < 3)
			continue;
		if (addr)
			any_addr = true;
		if (nr_ksyms == cap) {
			struct ksym *p;

			cap = cap ? cap * 2 : 4096;
			p = realloc(ksyms, cap * sizeof(*p));
			if (!p)
				break;
			ksyms = p;
		}
		ksyms[nr_ksyms].addr = addr;
		ksyms[nr_ksyms].name = strdup(name);
		ksyms[nr_ksyms].module = strdup(module);
		if (!ksyms[nr_ksyms].name || !ksyms[nr_ksyms].module)
			break;
		nr_ksyms++;
	}
	fclose(f);
	if (!any_addr) {	/* kptr_restrict: no addresses, no symbols */
		for (size_t i = 0; i < nr_ksyms; i++) {
			free(ksyms[i].name);
			free(ksyms[i].module);
		}
		free(ksyms);
		ksyms = NULL;
		nr_ksyms = 0;
		return;
	}
	qsort(ksyms, nr_ksyms, sizeof(*ksyms), ksym_cmp);
}

static bool kallsyms_lookup(void *data, uint64_t addr, const char **name,
			    uint64_t *start, uint64_t *size,
			    const char **module)
{
	size_t lo = 0, hi;

	(void)data;
	pthread_once(&ksyms_once, ksyms_load);
	hi = nr_ksyms;
	if (!hi || addr < ksyms[0].addr)
		return false;
	while (hi - lo > 1) {		/* last symbol with addr <= @addr */
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo + 1 >= nr_ksyms)		/* no end known for the last one */
		return false;
	*name = ksyms[lo].name;
	*start = ksyms[lo].addr;
	*size = ksyms[lo + 1].addr - ksyms[lo].addr;
	*module = ksyms[lo].module;
	return true;
}

static const struct tf_hist_symbols kallsyms_resolver = {
	.lookup = kallsyms_lookup,
};

static struct tf_hist_symbols resolver = { .lookup = kallsyms_lookup };
static pthread_mutex_t resolver_lock = PTHREAD_MUTEX_INITIALIZER;

void tf_hist_set_symbols(const struct tf_hist_symbols *syms)
{
	pthread_mutex_lock(&resolver_lock);
	resolver = syms ? *syms : kallsyms_resolver;
	pthread_mutex_unlock(&resolver_lock);
}

void tf_hist_format_sym(struct strbuf *out, uint64_t addr, bool offset)
{
	struct tf_hist_symbols r;
	const char *name = NULL, *module = NULL;
	uint64_t start = 0, size = 0;

	pthread_mutex_lock(&resolver_lock);
	r = resolver;
	pthread_mutex_unlock(&resolver_lock);
	if (!r.lookup || !r.lookup(r.data, addr, &name, &start, &size, &module) ||
	    !name) {
		sb_printf(out, "0x%llx", (unsigned long long)addr);
		return;
	}
	sb_puts(out, name);
	if (offset)
		sb_printf(out, "+0x%llx/0x%llx", (unsigned long long)(addr - start),
			  (unsigned long long)size);
	if (offset && module && *module)
		sb_printf(out, " [%s]", module);
}

/* ---- the same table for filters' .function ----------------------------- */

static uint64_t filter_lookup_name(void *data, const char *name)
{
	(void)data;
	pthread_once(&ksyms_once, ksyms_load);
	for (size_t i = 0; i < nr_ksyms; i++)
		if (strcmp(ksyms[i].name, name) == 0)
			return ksyms[i].addr;
	return 0;
}

static bool filter_lookup_addr(void *data, uint64_t addr, uint64_t *start,
			       uint64_t *end)
{
	const char *name, *module;
	uint64_t size;

	if (!kallsyms_lookup(data, addr, &name, start, &size, &module))
		return false;
	*end = *start + size;
	return true;
}

const struct tf_filter_symbols tf_kallsyms_filter_symbols = {
	.lookup_name = filter_lookup_name,
	.lookup_addr = filter_lookup_addr,
};
