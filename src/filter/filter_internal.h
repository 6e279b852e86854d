/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_internal.h - the compiled form of a filter, shared by the parser
 * (filter_parse.c) and the evaluator (filter_match.c).
 *
 * A filter compiles to the kernel's "program": an array of predicates,
 * each with a branch condition and a target, ending in a TRUE and a FALSE
 * entry.  Evaluating is a walk along the array; nothing is allocated.
 */
#ifndef TF_FILTER_INTERNAL_H
#define TF_FILTER_INTERNAL_H

#include "filter/filter.h"

#define TF_MAX_FILTER_STR_VAL 256	/* kernel MAX_FILTER_STR_VAL */
#define TF_TASK_COMM_LEN 16

/* Operators in the kernel's matching order: '<=' before '<'. */
enum tf_filter_op {
	TF_OP_GLOB, TF_OP_NE, TF_OP_EQ, TF_OP_LE, TF_OP_LT, TF_OP_GE,
	TF_OP_GT, TF_OP_BAND, TF_OP_MAX
};

/* The kernel's filter_type of a field. */
enum tf_filter_type {
	TF_FT_OTHER, TF_FT_STATIC_STRING, TF_FT_DYN_STRING, TF_FT_RDYN_STRING,
	TF_FT_PTR_STRING, TF_FT_CPUMASK, TF_FT_COMM, TF_FT_CPU,
	TF_FT_STACKTRACE,
};

/* Predicate functions (the kernel's FILTER_PRED_FN_*). */
enum tf_pred_fn {
	TF_FN_NOP,		/* always 0 (size not 1/2/4/8) */
	TF_FN_NUM_EQ,		/* ==, != on an N-bit field */
	TF_FN_NUM_CMP,		/* < <= > >= & on a typed field */
	TF_FN_STRING,		/* char name[N] */
	TF_FN_STRLOC,		/* __data_loc char[] */
	TF_FN_STRRELLOC,	/* __rel_loc char[] */
	TF_FN_PCHAR,		/* char *: unreadable here, never matches */
	TF_FN_COMM,		/* COMM/comm: the task's comm */
	TF_FN_CPU,		/* CPU/cpu/common_cpu vs a number */
	TF_FN_CPU_CPUMASK,	/* current CPU vs CPUS{} */
	TF_FN_CPUMASK,		/* cpumask field vs CPUS{} */
	TF_FN_CPUMASK_CPU,	/* cpumask field vs a one-CPU CPUS{} */
	TF_FN_SCALAR_CPUMASK,	/* integer field vs CPUS{} */
	TF_FN_FUNCTION,		/* .function: [val, val2) */
};

enum tf_match_type {
	TF_MATCH_FULL, TF_MATCH_FRONT, TF_MATCH_MIDDLE, TF_MATCH_END,
	TF_MATCH_GLOB,
};

struct tf_pred {
	uint8_t fn;		/* enum tf_pred_fn */
	uint8_t op;		/* enum tf_filter_op */
	uint8_t not;
	uint8_t is_signed;
	uint8_t match;		/* enum tf_match_type */
	unsigned size;
	unsigned offset;
	int field_len;		/* regex len argument for static strings */
	int rlen;		/* pattern length */
	uint64_t val, val2;
	uint64_t *mask;		/* CPUS{} of more than one CPU */
	char pattern[TF_MAX_FILTER_STR_VAL];
};

struct tf_prog_entry {
	int target;
	int when_to_branch;
	struct tf_pred *pred;	/* NULL for the TRUE and FALSE entries */
};

struct tf_filter {
	char *string;
	unsigned nr_cpus;
	int n;
	struct tf_prog_entry *prog;	/* n + 2 entries */
	struct tf_pred *preds;		/* n entries (nr_alloc allocated) */
	int nr_alloc;
};

#endif
