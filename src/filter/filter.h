/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - the event filter language: compile once, match per record.
 *
 * This is the kernel's filter (kernel/trace/trace_events_filter.c), as a
 * script sees it through an event's `filter` file or a trigger's `if` part:
 * the same grammar, the same matching (quirks included), the same errno,
 * error text and caret position for every bad string.
 *
 * Writing a filter, the way the kernel does it:
 *
 *	if (tf_filter_is_clear(buf))            -> remove the filter ("none")
 *	else if (tf_filter_compile(env, ev, buf, &f, &e) == 0)
 *		publish f; the file reads tf_filter_string(f) + "\n"
 *	else
 *		unfilter the event; the file reads
 *		tf_filter_error_file_text(buf, &e); log
 *		tf_filter_error_log_*(&e) to error_log; the write fails with e.errnum
 *
 * (A buffer of 4096 bytes or more is refused with -EINVAL before any of
 * this, and the written bytes end at the first NUL: both are the caller's.)
 */
#ifndef TF_FILTER_FILTER_H
#define TF_FILTER_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "events/schema.h"

/* The kernel's FILT_ERR_* list, in its order: the index is err_text[]'s. */
enum tf_filt_err {
	TF_FILT_ERR_NONE,
	TF_FILT_ERR_INVALID_OP,
	TF_FILT_ERR_TOO_MANY_OPEN,
	TF_FILT_ERR_TOO_MANY_CLOSE,
	TF_FILT_ERR_MISSING_QUOTE,
	TF_FILT_ERR_MISSING_BRACE_OPEN,
	TF_FILT_ERR_MISSING_BRACE_CLOSE,
	TF_FILT_ERR_OPERAND_TOO_LONG,
	TF_FILT_ERR_EXPECT_STRING,
	TF_FILT_ERR_EXPECT_DIGIT,
	TF_FILT_ERR_ILLEGAL_FIELD_OP,
	TF_FILT_ERR_FIELD_NOT_FOUND,
	TF_FILT_ERR_ILLEGAL_INTVAL,
	TF_FILT_ERR_BAD_SUBSYS_FILTER,
	TF_FILT_ERR_TOO_MANY_PREDS,
	TF_FILT_ERR_INVALID_FILTER,
	TF_FILT_ERR_INVALID_CPULIST,
	TF_FILT_ERR_IP_FIELD_ONLY,
	TF_FILT_ERR_INVALID_VALUE,
	TF_FILT_ERR_NO_FUNCTION,
	TF_FILT_ERR_ERRNO,
	TF_FILT_ERR_NO_FILTER,
	TF_FILT_ERR_MAX
};

/* The error_log `loc` of a filter error. */
#define TF_FILTER_ERROR_LOC "event filter parse error"

/* A write this long or longer is refused with -EINVAL, nothing logged. */
#define TF_FILTER_MAX_WRITE 4096

struct tf_filter;	/* compiled, immutable; tf_filter_free() */

/*
 * `.function`: resolves a symbol name to its address, and an address to the
 * [start, end) of the function holding it.  Without a lookup (the default)
 * every `.function` predicate fails with "Function not found", as on a
 * kernel whose kallsyms are hidden.
 */
struct tf_filter_symbols {
	/* 0 when unknown */
	uint64_t (*lookup_name)(void *data, const char *name);
	/* false when @addr is in no function */
	bool (*lookup_addr)(void *data, uint64_t addr, uint64_t *start,
			    uint64_t *end);
	void *data;
};

/*
 * What a tree compiles its filters with (a member of its struct
 * tf_tracing): the symbols .function resolves with, and nr_cpu_ids for
 * CPUS{} lists (0: the CPUs this machine has).  A NULL environment has
 * no symbols and the machine's CPUs.
 */
struct tf_filter_env {
	struct tf_filter_symbols symbols;
	unsigned nr_cpus;
};

struct tf_filter_error {
	int pos;	/* the kernel's lasterr_pos (may exceed the length) */
	int err;	/* enum tf_filt_err; 0 for the bare-errno failures */
	int errnum;	/* what the write returns: a negative errno */
};

/*
 * Compiles @str (as written: trailing white space is ignored, leading kept,
 * as the kernel's strstrip leaves it) for @ev.  Returns 0 and sets *out, or
 * a negative errno and fills *err (may be NULL).  The errno is the kernel's,
 * which is not always -EINVAL: an unbalanced ')' gives -EPERM, '(' -ENOENT,
 * a missing quote -ESRCH, junk between predicates -EPERM.
 */
int tf_filter_compile(const struct tf_filter_env *env,
		      const struct tf_event *ev, const char *str,
		      struct tf_filter **out, struct tf_filter_error *err);
void tf_filter_free(struct tf_filter *f);

/* True when @rec passes @f (a NULL filter passes everything).  No
 * allocation, no lock; safe from any number of threads at once. */
bool tf_filter_match(const struct tf_filter *f, const struct tf_record *rec);

/* The filter string as stored, shown by the `filter` file followed by "\n". */
const char *tf_filter_string(const struct tf_filter *f);

/*
 * Whether @f compares a string a pointer field points to (`char *` and
 * `.ustring`): the kernel reads that memory when it filters; a record
 * does not hold it, so such a predicate never matches here.
 */
bool tf_filter_reads_pointers(const struct tf_filter *f);

/* The whole `filter` file text for @f: "<string>\n", or "none\n" for NULL.
 * Allocated; free() it. */
char *tf_filter_file_text(const struct tf_filter *f);

/* True when writing @str clears the filter (it is "0" once stripped). */
bool tf_filter_is_clear(const char *str);

/* The kernel's err_text[] entry (C3), or NULL out of range. */
const char *tf_filter_err_text(int err);

/*
 * The `filter` file's text after a failed write of @str (B4): the stored
 * string, a caret line, "parse_error: <msg>" (or "Error: (<n>)"), and the
 * blank line the kernel's read adds.  Allocated; free() it.
 */
char *tf_filter_error_file_text(const char *str,
				const struct tf_filter_error *e);

/* What goes to error_log for a failed write (B7): loc is
 * TF_FILTER_ERROR_LOC, cmd is the stored string (see tf_filter_stored). */
int tf_filter_error_log_err(const struct tf_filter_error *e);	/* index */
int tf_filter_error_log_pos(const struct tf_filter_error *e);	/* caret */

/*
 * The error_log entry without its "[timestamp] " prefix:
 * "event filter parse error: error: <msg>\n  Command: <cmd>\n<spaces>^\n".
 * Allocated; free() it.
 */
char *tf_filter_error_log_entry(const char *str,
				const struct tf_filter_error *e);

/* The string the kernel stores for a write of @str (trailing white space
 * removed).  Allocated; free() it. */
char *tf_filter_stored(const char *str);

/*
 * Subsystem filters: the kernel applies the string to each event of the
 * system and leaves alone the events where it does not compile.  This says
 * whether @str names a field @ev lacks (the usual reason); callers that
 * want the kernel's exact rule just try tf_filter_compile per event.
 */
bool tf_filter_lacks_field(const struct tf_filter_env *env,
			   const struct tf_event *ev, const char *str);

#endif
