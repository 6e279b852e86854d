// SPDX-License-Identifier: GPL-2.0
/*
 * raw_page.c - records as the kernel's ring-buffer pages (see
 * raw_page.h).  The layout is the kernel's ring_buffer.c: an event's
 * 32-bit header holds type_len (5 bits) and time_delta (27 bits); a
 * type_len of 1-28 is the data length in 4-byte words, 0 puts the
 * length in the next word (data over 112 bytes); 30 is a time extend
 * (the delta's upper bits in the next word), 31 an absolute time stamp.
 * The first event's delta is from the page's time stamp.
 */
#include <string.h>

#include "buffer/raw_page.h"

#define PAGE_HDR	TF_RAW_PAGE_HDR
#define TS_BITS		27
#define TS_MASK		((1u << TS_BITS) - 1)
#define TYPE_PADDING	29u
#define TYPE_EXTEND	30u
#define TYPE_STAMP	31u
#define MAX_SMALL	112u		/* RB_MAX_SMALL_DATA */
#define MISSED_EVENTS	(1ull << 31)	/* RB_MISSED_EVENTS */
#define MISSED_STORED	(1ull << 30)	/* RB_MISSED_STORED */

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the host's order, as header_page says */
}

/* Bytes an event of @len data bytes takes (rb_calculate_event_length). */
static unsigned event_size(unsigned len)
{
	unsigned n = len ? len : 1;

	if (n > MAX_SMALL)
		n += 4;
	n += 4;
	n = (n + 3) & ~3u;
	if (n == 12)		/* not to be taken for a time extend */
		n += 4;
	return n;
}

size_t tf_raw_page_encode(const struct tf_rb_entry *e, size_t n,
			  uint64_t lost, uint64_t stamp, unsigned pad,
			  uint8_t *page, size_t page_size)
{
	const uint64_t page_data = page_size - PAGE_HDR;
	uint8_t *data = page + PAGE_HDR;
	uint64_t commit = 0, last = stamp, flags = 0;
	size_t i;

	memset(page, 0, page_size);
	if (n == 0 && !pad)
		return 0;
	memcpy(page, &last, 8);
	for (i = 0; i < n; i++) {
		unsigned size = event_size(e[i].len), extra = 0;
		uint64_t delta = 0;
		uint32_t type;

		if (e[i].ts < last)		/* earlier: an absolute stamp */
			extra = 8;
		else if ((delta = e[i].ts - last) > TS_MASK)
			extra = 8;
		if (commit + extra + size > page_data)
			break;
		if (extra) {
			uint64_t v = e[i].ts < last ? e[i].ts : delta;

			put32(data + commit, (e[i].ts < last ? TYPE_STAMP :
				TYPE_EXTEND) | (uint32_t)(v & TS_MASK) << 5);
			put32(data + commit + 4, (uint32_t)(v >> TS_BITS));
			commit += 8;
			delta = 0;
		}
		/* the data length in words, or 0 and the length after */
		if (size - 4 > MAX_SMALL) {
			type = 0;
			put32(data + commit + 4, size - 4);
			memcpy(data + commit + 8, e[i].data, e[i].len);
		} else {
			type = (size - 4) / 4;
			memcpy(data + commit + 4, e[i].data, e[i].len);
		}
		put32(data + commit, type | (uint32_t)delta << 5);
		commit += size;
		last = e[i].ts;
	}
	/* rb_reset_tail(): a padding's delta is never 0 (a null event's
	 * is), its length after the header */
	if (pad && i == n && commit + pad <= page_data) {
		put32(data + commit, TYPE_PADDING | 1u << 5);
		put32(data + commit + 4, pad - 4);
		commit += pad;
	}
	if (lost) {
		flags = MISSED_EVENTS;
		if (page_data - commit >= sizeof(lost)) {
			memcpy(data + commit, &lost, sizeof(lost));
			flags |= MISSED_STORED;
		}
	}
	commit |= flags;
	memcpy(page + 8, &commit, 8);
	return i;
}
