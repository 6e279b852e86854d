// SPDX-License-Identifier: GPL-2.0
/*
 * source.c - the list of event sources (see source.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ring_channel.h"
#include "source/source.h"

/* Every source type tracefuse has: add a line when adding a type. */
static const struct tf_source_type *const types[] = {
	&tf_source_replay,
	&tf_source_kernel,
	&tf_source_inject,
	NULL,
};


static const struct tf_source_type *find_type(const char *spec,
					      const char **arg)
{
	for (size_t i = 0; types[i]; i++) {
		const struct tf_source_type *ty = types[i];
		size_t n;

		n = strlen(ty->name);
		if (strncmp(spec, ty->name, n) != 0)
			continue;
		if (spec[n] == '\0') {
			*arg = NULL;
			return ty;
		}
		if (spec[n] == ':') {
			*arg = spec + n + 1;
			return ty;
		}
	}
	return NULL;
}

struct tf_sources *tf_sources_new(void)
{
	struct tf_sources *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	strcpy(s->description, "none");
	s->host_fd = -1;
	pthread_mutex_init(&s->ring_lock, NULL);
	return s;
}

void tf_sources_set_host_fd(struct tf_sources *s, int fd)
{
	s->host_fd = fd;
}

int tf_sources_add(struct tf_sources *s, const char *spec,
		   struct tf_registry *reg)
{
	char *description = s->description;
	const struct tf_source_type *type;
	struct tf_source *src, **tail;
	const char *arg;
	int ret;

	if (strcmp(spec, "none") == 0)
		return 0;
	type = find_type(spec, &arg);
	if (!type)
		return -EINVAL;
	src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	src->type = type;
	src->owner = s;
	ret = type->create ? type->create(src, arg, reg) : 0;
	if (ret < 0) {
		free(src);
		return ret;
	}
	for (tail = &s->list; *tail; tail = &(*tail)->next)
		;
	*tail = src;
	if (strcmp(description, "none") == 0)
		description[0] = '\0';
	else
		strncat(description, ", ",
			sizeof(s->description) - strlen(description) - 1);
	strncat(description, spec,
		sizeof(s->description) - strlen(description) - 1);
	return 0;
}

bool tf_sources_empty(const struct tf_sources *s)
{
	return s->list == NULL;
}

int tf_sources_start(struct tf_sources *s, struct tf_tracing *t)
{
	t->sources = s;
	for (struct tf_source *src = s->list; src; src = src->next) {
		int ret;

		src->tracing = t;
		ret = src->type->start ? src->type->start(src) : 0;
		if (ret < 0)
			return ret;
	}
	return 0;
}

void tf_sources_drain(struct tf_sources *s)
{
	if (!s)
		return;
	tf_ring_channels_sync(s);	/* producers' rings never lag long */
	for (struct tf_source *src = s->list; src; src = src->next)
		if (src->type->drain)
			src->type->drain(src);
}

void tf_sources_sync(struct tf_sources *s)
{
	if (!s)
		return;
	tf_ring_channels_sync(s);
	for (struct tf_source *src = s->list; src; src = src->next)
		if (src->type->sync)
			src->type->sync(src);
}

void tf_sources_stop(struct tf_sources *s)
{
	struct tf_source *src, *next;

	if (!s)
		return;
	for (src = s->list; src; src = src->next)
		if (src->type->stop)
			src->type->stop(src);
	for (src = s->list; src; src = next) {
		next = src->next;
		if (src->type->destroy)
			src->type->destroy(src);
		free(src);
	}
	s->list = NULL;
}

void tf_sources_free(struct tf_sources *s)
{
	if (!s)
		return;
	tf_sources_stop(s);
	pthread_mutex_destroy(&s->ring_lock);
	free(s);
}

const char *tf_sources_describe(const struct tf_sources *s)
{
	return s->description;
}

unsigned long long tf_sources_lost(const struct tf_sources *s, int cpu,
				   int nr_cpus)
{
	unsigned long long sum = 0;

	if (!s || nr_cpus <= 0)
		return 0;
	for (int c = cpu; c < 4096; c += nr_cpus)
		sum += atomic_load_explicit(&s->lost_by_cpu[c],
					    memory_order_relaxed);
	return sum;
}
