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

#include <stdbool.h>
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

/*
 * @n (a multiple of 8) bytes of zeros at the 8-aligned @dst, in word
 * stores: a loop of plain zero stores would become `rep stos` (or a
 * memset call), whose start costs more than the few words written here.
 */
static inline void tf_short_zero_words(void *dst, size_t n)
{
	uint64_t z = 0;

	/* opaque to the optimizer: no memset pattern */
	__asm__("" : "+r"(z));
	for (size_t i = 0; i < n; i += 8)
		__builtin_memcpy((unsigned char *)dst + i, &z, 8);
}

/* Whether the @n bytes at @p hold a NUL: a word at a time, the last
 * bytes one by one; nothing past @p + @n is read. */
static inline bool tf_short_has_nul(const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		__builtin_memcpy(&w, s + i, 8);
		if ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)
			return true;
	}
	for (; i < n; i++)
		if (!s[i])
			return true;
	return false;
}

/*
 * The string @src up to its NUL or @max bytes, without the NUL, to
 * @dst; returns the bytes copied (strnlen + memcpy in one pass).  From
 * an 8-aligned @src, a word at a time: it reads no word past the one
 * that holds the NUL (never across a page), and writes that word's
 * bytes after the NUL as zeros, so @dst needs room up to it (@max
 * rounded up to 8).  A word read may run past a short object's end
 * inside its last word, which AddressSanitizer would report: not
 * instrumented.
 */
static inline __attribute__((no_sanitize_address)) size_t
tf_short_strcopy(char *dst, const char *src, size_t max)
{
	size_t n = 0;

	if (((uintptr_t)src & 7) == 0) {
		for (; n + 8 <= max; n += 8) {
			uint64_t w, z;

			__builtin_memcpy(&w, src + n, 8);
			/* the lowest byte flagged is the first NUL */
			z = (w - 0x0101010101010101ull) & ~w &
			    0x8080808080808080ull;
			if (z) {
				unsigned int k = (unsigned int)
					__builtin_ctzll(z) / 8;

				w &= k ? ~0ull >> (64 - 8 * k) : 0;
				__builtin_memcpy(dst + n, &w, 8);
				return n + k;
			}
			__builtin_memcpy(dst + n, &w, 8);
		}
	}
	while (n < max && src[n]) {
		dst[n] = src[n];
		n++;
	}
	return n;
}

#endif
