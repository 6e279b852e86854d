// SPDX-License-Identifier: GPL-2.0
/*
 * bitmap_parse.c - the kernel's bitmap_parse() (lib/bitmap-str.c) and
 * bitmap_string() (lib/vsprintf.c) for tracing_cpumask (see
 * bitmap_parse.h).
 *
 * Parsing: the text counts up to the first newline or NUL.  It is read
 * from the end, in groups of up to 8 hex digits separated by commas or
 * spaces, the last group being CPUs 0-31; an empty mask is 0.  A non-hex
 * digit is EINVAL; a ninth digit in a group, more groups than 32-bit
 * words of CPUs, or a CPU that does not exist is EOVERFLOW.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/bitmap_parse.h"

uint64_t *tf_bitmap_alloc_full(int nr_cpus)
{
	size_t words = TF_BITMAP_WORDS(nr_cpus);
	uint64_t *mask = malloc(words * sizeof(*mask));

	if (!mask)
		return NULL;
	memset(mask, 0xff, words * sizeof(*mask));
	if (nr_cpus % 64)
		mask[words - 1] = (1ull << (nr_cpus % 64)) - 1;
	return mask;
}

static bool is_sep(int c)
{
	return isspace(c) || c == ',';
}

static int hex_value(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* The groups from the end of buf[0..i] into @bits; 0 or -errno. */
static int parse_groups(const char *buf, long i, int nr_cpus,
			uint64_t *bits)
{
	int groups = (nr_cpus + 31) / 32;

	for (int group = 0;; group++) {
		uint64_t word = 0;
		int digits;

		/* bitmap_find_region_reverse(): skip separators */
		while (i >= 0 && is_sep((unsigned char)buf[i]))
			i--;
		if (i < 0)
			return 0;
		if (group >= groups)
			return -EOVERFLOW;
		/* bitmap_get_x32_reverse(): 8 digits at most; a ninth that
		 * is hex is EOVERFLOW, one that is not is a separator's
		 * place and is skipped */
		for (digits = 0; digits < 8; digits++) {
			int c = (unsigned char)buf[i--];

			if (!isxdigit(c))
				return -EINVAL;
			word |= (uint64_t)hex_value(c) << (4 * digits);
			if (i < 0 || is_sep((unsigned char)buf[i]))
				break;
		}
		if (digits == 8 && isxdigit((unsigned char)buf[i--]))
			return -EOVERFLOW;
		bits[group / 2] |= word << (32 * (group % 2));
	}
}

int tf_bitmap_parse(const char *buf, size_t len, int nr_cpus,
		    uint64_t *mask)
{
	size_t words = TF_BITMAP_WORDS(nr_cpus), end = 0;
	uint64_t *bits = calloc(words, sizeof(*bits));
	int ret;

	if (!bits)
		return -ENOMEM;
	while (end < len && buf[end] != '\n' && buf[end] != '\0')
		end++;
	ret = parse_groups(buf, (long)end - 1, nr_cpus, bits);
	/* bits past nr_cpu_ids */
	if (!ret && nr_cpus % 64 && bits[words - 1] >> (nr_cpus % 64))
		ret = -EOVERFLOW;
	if (!ret)
		memcpy(mask, bits, words * sizeof(*bits));
	free(bits);
	return ret;
}

void tf_bitmap_print(const uint64_t *mask, int nr_cpus, struct strbuf *out)
{
	int width = nr_cpus % 32 ? nr_cpus % 32 : 32;

	for (int bit = (nr_cpus + 31) / 32 * 32 - 32; bit >= 0; bit -= 32) {
		uint32_t group = (uint32_t)(mask[bit / 64] >> (bit % 64));

		if (width < 32)
			group &= (1u << width) - 1;
		sb_printf(out, "%s%0*x", bit + 32 < nr_cpus ? "," : "",
			  (width + 3) / 4, group);
		width = 32;
	}
}
