/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arena.h - a bump allocator for the short-lived objects of one output
 * unit (a Perfetto packet, a parsed hist file): everything is freed at
 * once.  Allocation failure exits, as these are command-line tools.
 */
#ifndef TF_CLI_ARENA_H
#define TF_CLI_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
};

/* Zeroed memory for @size bytes, aligned for any type. */
void *arena_alloc(struct arena *a, size_t size);
/* A copy of the @len bytes at @s with a NUL after them. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void arena_reset(struct arena *a);

#endif
