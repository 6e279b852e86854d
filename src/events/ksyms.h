/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h - the kernel symbols of the events in the tree: what %pS in
 * `trace`, .sym/.sym-offset and stack keys in `hist`, and .function in
 * filters resolve addresses with.
 *
 * Three tables, looked up in this order: tracefuse's own names (the
 * callers it gives trace_marker's and snapshot's records), the symbols
 * of the trace.dat files replayed (their kernel produced the addresses),
 * and, when no file brought any, the host's /proc/kallsyms (read on
 * first use; empty under kptr_restrict).  Tables only grow; lookups may
 * run in any thread at any time, and the names they return stay valid
 * until the tables are freed with the tree's registry (which owns them:
 * tf_registry.ksyms).
 */
#ifndef TF_EVENTS_KSYMS_H
#define TF_EVENTS_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_handle;

struct tf_ksym {
	uint64_t addr;
	const char *name;
	const char *module;	/* "" for the core kernel */
	uint64_t size;		/* tracefuse's own: the range (0: 4 KiB) */
};

struct tf_ksyms;

/* Empty tables (the host's are read on first lookup); NULL: no memory. */
struct tf_ksyms *tf_ksyms_new(void);
/* Frees the tables and every name they handed out. */
void tf_ksyms_free(struct tf_ksyms *ks);

/* A name of tracefuse's own at @addr (a 4 KiB range of its own). */
int tf_ksyms_add_own(struct tf_ksyms *ks, const char *name, uint64_t addr);
/* The same over @size bytes: a kernel symbol's own range, so that the
 * name stays when a replayed file's symbols take over from the host's. */
int tf_ksyms_add_own_range(struct tf_ksyms *ks, const char *name,
			   uint64_t addr, uint64_t size);
/* A replayed file's symbols (copied); they take over from the host's. */
int tf_ksyms_add_file(struct tf_ksyms *ks, const struct tf_ksym *syms,
		      size_t n);

/* The symbol containing @addr: its name, start, size and module. */
bool tf_ksyms_lookup(struct tf_ksyms *ks, uint64_t addr, const char **name,
		     uint64_t *start, uint64_t *size, const char **module);
/* The address of the symbol @name, or 0. */
uint64_t tf_ksyms_lookup_name(struct tf_ksyms *ks, const char *name);

/* Makes @tep resolve functions (%pS and friends) through @ks. */
int tf_ksyms_attach(struct tf_ksyms *ks, struct tep_handle *tep);

#endif
