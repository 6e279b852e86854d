// SPDX-License-Identifier: GPL-2.0
/*
 * hist_sym.c - names for numbers: kernel symbols for .sym, .sym-offset
 * and stack keys (a pluggable resolver, by default the tree's kernel
 * symbols: a replayed file's, else the host's kallsyms), and
 * syscall names for .syscall (x86_64, from hist_syscalls.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/ksyms.h"
#include "filter/filter.h"
#include "hist/hist_internal.h"
#include "hist/hist_syscalls.h"

const char *tf_hist_syscall_name(uint64_t nr)
{
	if (nr >= sizeof(hist_syscall_names) / sizeof(hist_syscall_names[0]))
		return NULL;
	return hist_syscall_names[nr];
}

/* ---- the default resolver: the tree's kernel symbols (events/ksyms.c) ---- */

static bool kallsyms_lookup(void *data, uint64_t addr, const char **name,
			    uint64_t *start, uint64_t *size,
			    const char **module)
{
	(void)data;
	return tf_ksyms_lookup(addr, name, start, size, module);
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
	return tf_ksyms_lookup_name(name);
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
