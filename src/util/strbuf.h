/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strbuf.h - a growable byte string for generated file contents.
 *
 * Generated files (set_event, trace, hist, ...) are rendered into a strbuf
 * when opened or read from offset 0.  Allocation failure is sticky: the
 * buffer remembers it and the caller checks once, at the end (sb_error).
 */
#ifndef TF_UTIL_STRBUF_H
#define TF_UTIL_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;
};

#define STRBUF_INIT { NULL, 0, 0, false }

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putc(struct strbuf *sb, char c);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* Hands the NUL-terminated string to the caller; the strbuf is reset. */
char *sb_detach(struct strbuf *sb);
/* -ENOMEM if an allocation failed since init/reset, else 0. */
int sb_error(const struct strbuf *sb);

#endif
