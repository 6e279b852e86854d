// SPDX-License-Identifier: GPL-2.0
/*
 * bitmap_parse.h - CPU masks as the kernel reads and prints them
 * (tracing_cpumask): bitmap_parse() and the "%*pb" format.
 *
 * A mask of N CPUs is an array of (N + 63) / 64 words, bit C of word
 * C / 64 being CPU C.
 */
#ifndef TF_UTIL_BITMAP_PARSE_H
#define TF_UTIL_BITMAP_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define TF_BITMAP_WORDS(nr_cpus) (((size_t)(nr_cpus) + 63) / 64)

/* A mask of @nr_cpus CPUs (1 or more), all set; NULL without memory. */
uint64_t *tf_bitmap_alloc_full(int nr_cpus);

/*
 * Parses the @len bytes at @buf (not NUL-terminated) as a mask of
 * @nr_cpus CPUs into @mask.  0, -EINVAL, -EOVERFLOW as the kernel, or
 * -ENOMEM; @mask is changed only on success.
 */
int tf_bitmap_parse(const char *buf, size_t len, int nr_cpus,
		    uint64_t *mask);

/* Appends @mask as "%*pb" prints it: 32-bit groups, most significant
 * first, comma-separated, zero-padded to the CPUs they hold. */
void tf_bitmap_print(const uint64_t *mask, int nr_cpus, struct strbuf *out);

#endif
