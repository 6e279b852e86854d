// SPDX-License-Identifier: GPL-2.0
/*
 * arena.c - a bump allocator (see arena.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/arena.h"

#define BLOCK_SIZE (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_block *b = a->head;
	size_t need = (size + sizeof(max_align_t) - 1) &
		      ~(sizeof(max_align_t) - 1);
	void *p;

	if (!b || b->size - b->used < need) {
		size_t bsize = need > BLOCK_SIZE ? need : BLOCK_SIZE;

		b = malloc(sizeof(*b) + bsize);
		if (!b) {
			fputs("tracefuse: out of memory\n", stderr);
			exit(1);
		}
		b->used = 0;
		b->size = bsize;
		b->next = a->head;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += need;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	return p;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void arena_reset(struct arena *a)
{
	while (a->head) {
		struct arena_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}
