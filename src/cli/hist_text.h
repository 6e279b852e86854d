/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_text.h - a parsed `hist` file: the text the kernel's
 * hist_trigger_show() prints (and tracefuse, byte for byte), read back
 * into keys, values, action lines and totals for `tracefuse hist --json`
 * and `tracefuse metrics`.  Everything lives in the caller's arena.
 */
#ifndef TF_CLI_HIST_TEXT_H
#define TF_CLI_HIST_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/arena.h"

/* A key or value of the trigger: "common_pid.execname" -> field, mod. */
struct hist_field_spec {
	char *field;
	char *mod;		/* NULL, "hex", "sym", "execname", ... */
};

/* One printed key of an entry. */
struct hist_key {
	const struct hist_field_spec *spec;
	char *text;		/* as printed, padding trimmed */
	bool has_num;		/* a number could be read back */
	uint64_t num;		/* the key's number (pid, address, 2^N's N) */
	bool negative;		/* num is a negative int64 */
	char *name;		/* execname's comm, sym's symbol, syscall name */
	uint64_t lo, hi;	/* .buckets: the bucket's range */
	bool is_stack;		/* a stacktrace key: */
	char **frames;		/* its frames, innermost first */
	size_t n_frames;
};

/* One printed "name: value" pair. */
struct hist_val {
	char *name;		/* as printed: "hitcount", "x (%)", ... */
	char *text;		/* the value as printed */
	enum { HV_NUM, HV_PERCENT, HV_GRAPH, HV_TEXT } kind;
	uint64_t num;		/* HV_NUM */
	double pct;		/* HV_PERCENT */
};

/* A "\tmax: N  saved: v ..." or "\tchanged: N ..." line. */
struct hist_action {
	char *handler;		/* "max" or "changed" */
	struct hist_val *vals;	/* [0] the tracked value, then saved ones */
	size_t n_vals;
};

struct hist_entry {
	struct hist_key *keys;
	size_t n_keys;
	struct hist_val *vals;
	size_t n_vals;
	struct hist_action *actions;
	size_t n_actions;
};

struct hist_table {
	char *trigger;		/* the trigger info line */
	char *name;		/* name=, or NULL */
	char *filter;		/* the text after " if ", or NULL */
	bool paused;
	struct hist_field_spec *keys, *vals;
	size_t n_keys, n_vals;
	char **vars;		/* "name=expr" definitions */
	size_t n_vars;
	char **handlers;	/* "onmax($d).save(...)" ... */
	size_t n_handlers;
	struct hist_entry *entries;
	size_t n_entries, cap_entries;
	bool has_totals;
	uint64_t hits, nr_entries, dropped;
	/* the "Snapshot taken" block */
	char *snap_handler, *snap_key;
	uint64_t snap_value;
	bool has_snapshot;
};

struct hist_file {
	struct hist_table *tables;
	size_t n_tables;
};

/* Parses @text; lines it does not know are skipped.  0 or -ENOMEM. */
int hist_parse(struct arena *a, const char *text, struct hist_file *out);

#endif
