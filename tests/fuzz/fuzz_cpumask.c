// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cpumask.c - libFuzzer target for tracing_cpumask's parser and
 * printer, the kernel's bitmap_parse() and "%*pb"
 * (src/util/bitmap_parse.c).
 *
 * Input: two bytes giving the number of CPUs (1 + the 12-bit value, so
 * 1-4096: masks of one word, several words and a partial last word),
 * then the text written.  Beyond memory errors it checks what
 * tracing_cpumask promises: an accepted mask names no CPU that does not
 * exist, a refused one is left as it was, and the mask read back parses
 * to itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/bitmap_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf shown = STRBUF_INIT;
	uint64_t *mask, *again, *before;
	size_t words, bytes;
	char *text = NULL;
	int nr_cpus, ret;

	if (size < 2 || size > 8192)
		return 0;
	nr_cpus = 1 + (((data[0] << 8) | data[1]) & 0xfff);
	words = TF_BITMAP_WORDS(nr_cpus);
	bytes = words * sizeof(uint64_t);
	mask = tf_bitmap_alloc_full(nr_cpus);
	again = calloc(words, sizeof(uint64_t));
	before = tf_bitmap_alloc_full(nr_cpus);
	/* exactly the bytes written, so that ASan sees any overread */
	text = malloc(size - 2 ? size - 2 : 1);
	if (!mask || !again || !before || !text)
		goto out;
	memcpy(text, data + 2, size - 2);
	ret = tf_bitmap_parse(text, size - 2, nr_cpus, mask);
	if (ret != 0 && ret != -EINVAL && ret != -EOVERFLOW)
		abort();
	if (ret != 0 && memcmp(mask, before, bytes))
		abort();			/* a refused write changed it */
	if (nr_cpus % 64 && mask[words - 1] >> (nr_cpus % 64))
		abort();			/* a CPU that does not exist */
	tf_bitmap_print(mask, nr_cpus, &shown);
	sb_putc(&shown, '\n');
	if (sb_error(&shown))
		goto out;
	if (tf_bitmap_parse(shown.buf, shown.len, nr_cpus, again) ||
	    memcmp(again, mask, bytes))
		abort();			/* does not read back */
out:
	sb_release(&shown);
	free(text);
	free(before);
	free(again);
	free(mask);
	return 0;
}
