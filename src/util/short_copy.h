/* SPDX-License-Identifier: GPL-2.0 */
/*
 * short_copy.h - copies of a few dozen bytes on the event path, in plain
 * word moves.  A memcpy() whose length the compiler can bound becomes
 * `rep movs`, which takes tens of cycles to start and whose stores a
 * following load cannot take from the store buffer: a string written
 * into a histogram entry and read back at once by an action would wait
 * for the entry's line to arrive first.
 */
#ifndef TF_UTIL_SHORT_COPY_H
#define TF_UTIL_SHORT_COPY_H

#include <stddef.h>
#include <stdint.h>

/* @n bytes from @src to @dst (not overlapping). */
static inline void tf_short_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uint64_t w;
	uint32_t h;

	if (n >= 8) {
		/* whole words, then the last word again, overlapping */
		for (size_t i = 0; i + 8 < n; i += 8) {
			__builtin_memcpy(&w, s + i, 8);
			__builtin_memcpy(d + i, &w, 8);
		}
		__builtin_memcpy(&w, s + n - 8, 8);
		__builtin_memcpy(d + n - 8, &w, 8);
	} else if (n >= 4) {
		__builtin_memcpy(&h, s, 4);
		__builtin_memcpy(d, &h, 4);
		__builtin_memcpy(&h, s + n - 4, 4);
		__builtin_memcpy(d + n - 4, &h, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}

/* The string @src up to its NUL or @max bytes, without the NUL, to
 * @dst; returns the bytes copied (strnlen + memcpy in one pass). */
static inline size_t tf_short_strcopy(char *dst, const char *src, size_t max)
{
	size_t n = 0;

	while (n < max && src[n]) {
		dst[n] = src[n];
		n++;
	}
	return n;
}

#endif
