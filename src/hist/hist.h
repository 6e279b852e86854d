/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - the `hist` trigger command: histograms over an event's records,
 * the kernel's kernel/trace/trace_events_hist.c without variables and
 * actions (see reference/histogram-design.txt for the vocabulary).
 *
 * What the lead wires up:
 *  - tf_hist_init() once at start: registers the "hist" trigger command
 *    with the trigger framework (src/trigger/trigger.h);
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

#include "events/trace_array.h"
#include "util/strbuf.h"

/* Registers the "hist" command.  Returns 0 or a negative errno. */
int tf_hist_init(void);

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
 * The default reads /proc/kallsyms once, when it is readable and shows
 * addresses; without it every address prints as the kernel prints an
 * unknown one (0x...).
 */
struct tf_hist_symbols {
	bool (*lookup)(void *data, uint64_t addr, const char **name,
		       uint64_t *start, uint64_t *size, const char **module);
	void *data;
};
/* NULL restores the default (kallsyms) resolver. */
void tf_hist_set_symbols(const struct tf_hist_symbols *syms);

/* The kernel's %ps (@offset false) and %pS (@offset true) of @addr. */
void tf_hist_format_sym(struct strbuf *out, uint64_t addr, bool offset);

/* The host's /proc/kallsyms for filters' .function (the same table
 * .sym uses), given to tf_filter_set_symbol_lookup() at start. */
struct tf_filter_symbols;
extern const struct tf_filter_symbols tf_kallsyms_filter_symbols;

/* The kernel's name of syscall @nr for .syscall (x86_64), or NULL. */
const char *tf_hist_syscall_name(uint64_t nr);

#endif
