/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstrto.h - the kernel's kstrtoull()/kstrtoll(): how tracefs files
 * parse numbers, quirks included (a leading '+', base 0 meaning 0x hex or
 * leading-0 octal, one trailing newline, -ERANGE on overflow).
 */
#ifndef TF_UTIL_KSTRTO_H
#define TF_UTIL_KSTRTO_H

#include <stddef.h>
#include <stdint.h>

/* @s NUL-terminated; @base 0, 8, 10 or 16.  0, -EINVAL or -ERANGE. */
int tf_kstrtoull(const char *s, unsigned base, uint64_t *res);
int tf_kstrtoll(const char *s, unsigned base, int64_t *res);
/* The same on a buffer of @len bytes (kstrtoull_from_user). */
int tf_kstrtoull_buf(const char *buf, size_t len, unsigned base,
		     uint64_t *res);

/* Reads a whole file below @dirfd (tracefs files report size 0). */
char *tf_read_file_at(int dirfd, const char *path, size_t *len);

#endif
