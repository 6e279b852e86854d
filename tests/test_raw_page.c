// SPDX-License-Identifier: GPL-2.0
/*
 * test_raw_page.c - trace_pipe_raw's pages read back by libtraceevent's
 * kbuffer, the reader trace-cmd and libtracefs use: timestamps (deltas,
 * time extends, an earlier event's absolute stamp), small and large
 * events, and the missed-events count.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>

#include "buffer/raw_page.h"
#include "check.h"

static uint8_t payload[3][300];

int main(void)
{
	struct tf_rb_entry e[5] = {
		{ .ts = 1000, .len = 23, .data = payload[0] },
		{ .ts = 1500, .len = 8, .data = payload[1] },
		/* a delta beyond 27 bits: a time extend */
		{ .ts = 1500 + (1ull << 30) + 7, .len = 200, .data = payload[2] },
		/* earlier than the one before: an absolute stamp */
		{ .ts = 1200, .len = 4, .data = payload[0] },
		{ .ts = 1201, .len = 112, .data = payload[1] },
	};
	uint8_t page[TF_RAW_PAGE_SIZE];
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts;
	void *rec;
	int i;

	for (i = 0; i < 3; i++)
		for (int j = 0; j < 300; j++)
			payload[i][j] = (uint8_t)(i * 31 + j);
	CHECK(kb != NULL);
	CHECK_INT(tf_raw_page_encode(e, 5, 0, e[0].ts, 0, page, sizeof(page)), 5);
	CHECK_INT(kbuffer_load_subbuffer(kb, page), 0);
	CHECK_INT(kbuffer_missed_events(kb), 0);
	rec = kbuffer_read_event(kb, &ts);
	for (i = 0; i < 5 && rec; i++) {
		CHECK_INT(ts, e[i].ts);
		CHECK(kbuffer_event_size(kb) >= (int)e[i].len);
		CHECK(memcmp(rec, e[i].data, e[i].len) == 0);
		rec = kbuffer_next_event(kb, &ts);
	}
	CHECK_INT(i, 5);
	CHECK(rec == NULL);

	/* events lost before the page: flagged and counted */
	CHECK_INT(tf_raw_page_encode(e, 2, 42, e[0].ts, 0, page, sizeof(page)), 2);
	CHECK_INT(kbuffer_load_subbuffer(kb, page), 0);
	CHECK_INT(kbuffer_missed_events(kb), 42);

	/* what does not fit is left for the next page */
	{
		struct tf_rb_entry many[40];

		for (i = 0; i < 40; i++)
			many[i] = (struct tf_rb_entry){ .ts = 10 + i,
				.len = 200, .data = payload[2] };
		CHECK_INT(tf_raw_page_encode(many, 40, 0, many[0].ts, 0, page, sizeof(page)), 4080 / 208);
	}
	kbuffer_free(kb);
	return check_done("test_raw_page");
}
