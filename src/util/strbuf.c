// SPDX-License-Identifier: GPL-2.0
/*
 * strbuf.c - a growable byte string (see strbuf.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void sb_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->oom = false;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static bool sb_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	char *p;

	if (sb->oom)
		return false;
	if (want <= sb->cap)
		return true;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < want)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!sb_grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || !sb_grow(sb, (size_t)n))
		return;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *sb_detach(struct strbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		s = calloc(1, 1);
	sb_init(sb);
	return s;
}

int sb_error(const struct strbuf *sb)
{
	return sb->oom ? -ENOMEM : 0;
}
