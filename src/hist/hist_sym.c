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
	return tf_ksyms_lookup(data, addr, name, start, size, module);
}

void tf_hist_set_symbols(struct tf_tracing *t,
			 const struct tf_hist_symbols *syms)
{
	struct tf_hist_state *st = t->hist;

	pthread_mutex_lock(&st->resolver_lock);
	if (syms)
		st->resolver = *syms;
	else
		st->resolver = (struct tf_hist_symbols){
			.lookup = kallsyms_lookup, .data = t->reg->ksyms,
		};
	pthread_mutex_unlock(&st->resolver_lock);
}

void tf_hist_format_sym(struct tf_tracing *t, struct strbuf *out,
			uint64_t addr, bool offset)
{
	struct tf_hist_state *st = t->hist;
	struct tf_hist_symbols r;
	const char *name = NULL, *module = NULL;
	uint64_t start = 0, size = 0;

	pthread_mutex_lock(&st->resolver_lock);
	r = st->resolver;
	pthread_mutex_unlock(&st->resolver_lock);
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
