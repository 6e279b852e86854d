/* SPDX-License-Identifier: GPL-2.0 */
/*
 * raw_page.h - records as the kernel's ring-buffer pages
 * (trace_pipe_raw, snapshot_raw): a buffer_data_page header (u64 time
 * stamp, 8-byte commit with the missed-events flags) and the events
 * with their 4-byte headers and time extends, as events/header_page and
 * header_event describe them.
 */
#ifndef TF_BUFFER_RAW_PAGE_H
#define TF_BUFFER_RAW_PAGE_H

#include <stddef.h>
#include <stdint.h>

#include "buffer/ring_buffer.h"

/* The size of a page of the default sub-buffer (buffer_subbuf_size_kb 4). */
#define TF_RAW_PAGE_SIZE 4096u
/* Its header: u64 time stamp, local_t commit (BUF_PAGE_HDR_SIZE). */
#define TF_RAW_PAGE_HDR 16u

/*
 * Writes @n entries (one CPU, in the order written) into @page of
 * @page_size bytes (the sub-buffer's, header included; zero-filled past
 * the data), their deltas counted from @stamp (the page's time stamp: the
 * first entry's time for a page read from its start), then, when every
 * entry fitted, a padding event of @pad bytes (0: none), and @lost, the
 * events lost before them, into the commit flags (and after the data
 * where there is room, as the kernel does).  Returns how many entries
 * fitted; the rest belong on a following page.
 */
size_t tf_raw_page_encode(const struct tf_rb_entry *e, size_t n,
			  uint64_t lost, uint64_t stamp, unsigned pad,
			  uint8_t *page, size_t page_size);

#endif
