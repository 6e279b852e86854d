// SPDX-License-Identifier: GPL-2.0
/*
 * test_short_copy.c - src/util/short_copy.h: every length up to 80
 * bytes at every source and destination offset within a word copies
 * exactly those bytes and writes nothing around them; the string copy
 * stops at the NUL or the limit, whichever comes first, and from an
 * aligned source zeros the rest of the NUL's word.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "util/short_copy.h"

#define GUARD 0xa5
#define SPAN 80

static void test_copy(void)
{
	unsigned char src[SPAN + 16], dst[SPAN + 32];

	for (unsigned i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (unsigned n = 0; n <= SPAN; n++)
		for (unsigned so = 0; so < 8; so++)
			for (unsigned dof = 0; dof < 8; dof++) {
				unsigned char *d = dst + 8 + dof;
				bool ok = true;

				memset(dst, GUARD, sizeof(dst));
				tf_short_copy(d, src + so, n);
				for (unsigned i = 0; i < sizeof(dst); i++) {
					unsigned char *p = dst + i;
					bool in = p >= d && p < d + n;

					if (in ? *p != src[so + (p - d)]
					       : *p != GUARD)
						ok = false;
				}
				CHECK(ok);
			}
}

/*
 * From every source offset within a word: the bytes before the NUL or
 * the limit; from an aligned source whose NUL comes within the limit's
 * whole words, zeros to the end of the NUL's word (the word copy);
 * nothing else written.
 */
static void test_strcopy(void)
{
	char dst[64];

	for (unsigned so = 0; so < 8; so++)
		for (unsigned len = 0; len < 40; len++)
			for (unsigned max = 0; max < 40; max++) {
				uint64_t words[7];
				char *src = (char *)words + so;
				size_t n, want = len < max ? len : max;
				size_t word = want & ~(size_t)7, zeros = want;
				bool ok = true;

				memset(words, 'x', sizeof(words));
				src[len] = '\0';
				if (so == 0 && len < max && word + 8 <= max)
					zeros = word + 8;
				memset(dst, GUARD, sizeof(dst));
				n = tf_short_strcopy(dst, src, max);
				CHECK(n == want);
				for (unsigned i = 0; i < sizeof(dst); i++)
					if (dst[i] != (char)(i < want ? 'x' :
							     i < zeros ? 0 :
							     GUARD))
						ok = false;
				CHECK(ok);
			}
}

int main(void)
{
	test_copy();
	test_strcopy();
	return check_done("test_short_copy");
}
