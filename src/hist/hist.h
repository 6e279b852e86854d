/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - the `hist` trigger command: histograms over an event's records,
 * the kernel's kernel/trace/trace_events_hist.c without variables and
 * actions (see reference/histogram-design.txt for the vocabulary).
 *
 * At start:
 *  - tf_hist_init() once per tree: makes the tree's hist state (named
 *    histograms, the symbol resolver) and registers the "hist" trigger
 *    command in its trigger command table (src/trigger/trigger.h);
 * then:
 *  - tf_hist_show() renders an event's `hist` file, tf_hist_debug_show()
 *    its `hist_debug` file (both take the RCU read lock themselves);
 *  - tf_hist_pause_all() is what enable_hist/disable_hist fire.
 *
 * The event path is the trigger's ops->func: no allocation, no lock.
 * Everything else runs under tracing->lock (the control mutex).
 */
#ifndef TF_HIST_HIST_H
#define TF_HIST_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace_array.h"
#include "util/strbuf.h"

/* Makes @t's hist state (freed by tf_tracing_destroy()) and registers
 * the "hist" command there.  Returns 0 or a negative errno. */
int tf_hist_init(struct tf_tracing *t);

/* The `hist` file of @file: every hist trigger's table, "\n\n" apart. */
void tf_hist_show(struct tf_event_file *file, struct strbuf *out);
/* The `hist_debug` file (CONFIG_HIST_TRIGGERS_DEBUG layout). */
void tf_hist_debug_show(struct tf_event_file *file, struct strbuf *out);

/*
 * The kernel's get_hist_hit_count(): the sum of the hits of every hist
 * trigger of @file, what poll() on `hist` compares (6.13+: POLLIN when it
 * differs from what the last read saw, POLLPRI when it changed since the
 * last read or poll).  Reads per-slot counters only: costs the event path
 * nothing.  Takes the RCU read lock itself.
 */
uint64_t tf_hist_hit_count(struct tf_event_file *file);

/*
 * enable_hist (@pause false) / disable_hist (@pause true): un-pause or
 * pause every hist trigger of @file.  Safe on the event path (it only
 * stores flags), as the kernel's hist_enable_trigger().
 */
void tf_hist_pause_all(struct tf_event_file *file, bool pause);

/*
 * The whole hist command as the kernel's event_hist_trigger_parse() gets
 * it: @glob is "hist" or "!hist", @param_and_filter what follows "hist:"
 * (attributes, then optionally " if <filter>").  Logs to error_log where
 * the kernel does.  The registered command's parse() ends up here.
 */
int tf_hist_parse(struct tf_event_file *file, const char *glob,
		  const char *param_and_filter);

/*
 * `>` on the trigger file: removes every hist trigger of @file (the
 * kernel's hist_unreg_all); also the command's unreg_all.
 */
void tf_hist_unreg_all(struct tf_event_file *file);

/*
 * Symbols for .sym / .sym-offset and stack keys: a pluggable resolver.
 * lookup() finds the symbol holding @addr: its name, start and size, and
 * its module ("" for the core kernel); false when no symbol holds it.
 * The default is the tree's kernel symbols (events/ksyms.h: a replayed
 * file's, else the host's /proc/kallsyms when it shows addresses);
 * without any every address prints as the kernel prints an unknown one
 * (0x...).
 */
struct tf_hist_symbols {
	bool (*lookup)(void *data, uint64_t addr, const char **name,
		       uint64_t *start, uint64_t *size, const char **module);
	void *data;
};
/* @t's resolver (after tf_hist_init()); NULL restores the default. */
void tf_hist_set_symbols(struct tf_tracing *t,
			 const struct tf_hist_symbols *syms);

/* The kernel's %ps (@offset false) and %pS (@offset true) of @addr,
 * with @t's resolver. */
void tf_hist_format_sym(struct tf_tracing *t, struct strbuf *out,
			uint64_t addr, bool offset);

/* The kernel's name of syscall @nr for .syscall (x86_64), or NULL. */
const char *tf_hist_syscall_name(uint64_t nr);

#endif
