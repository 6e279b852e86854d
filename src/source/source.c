// SPDX-License-Identifier: GPL-2.0
/*
 * source.c - the list of event sources (see source.h).
 */
#include <errno.h>
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

static struct tf_source *sources;
static char description[512] = "none";

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

int tf_sources_add(const char *spec, struct tf_registry *reg)
{
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
	ret = type->create ? type->create(src, arg, reg) : 0;
	if (ret < 0) {
		free(src);
		return ret;
	}
	for (tail = &sources; *tail; tail = &(*tail)->next)
		;
	*tail = src;
	if (strcmp(description, "none") == 0)
		description[0] = '\0';
	else
		strncat(description, ", ",
			sizeof(description) - strlen(description) - 1);
	strncat(description, spec, sizeof(description) - strlen(description) - 1);
	return 0;
}

bool tf_sources_empty(void)
{
	return sources == NULL;
}

int tf_sources_start(struct tf_tracing *t)
{
	for (struct tf_source *s = sources; s; s = s->next) {
		int ret;

		s->tracing = t;
		ret = s->type->start ? s->type->start(s) : 0;
		if (ret < 0)
			return ret;
	}
	return 0;
}

void tf_sources_drain(void)
{
	tf_ring_channels_sync();	/* producers' rings never lag long */
	for (struct tf_source *s = sources; s; s = s->next)
		if (s->type->drain)
			s->type->drain(s);
}

void tf_sources_sync(void)
{
	tf_ring_channels_sync();
	for (struct tf_source *s = sources; s; s = s->next)
		if (s->type->sync)
			s->type->sync(s);
}

void tf_sources_stop(void)
{
	struct tf_source *s = sources, *next;

	for (; s; s = s->next)
		if (s->type->stop)
			s->type->stop(s);
	for (s = sources; s; s = next) {
		next = s->next;
		if (s->type->destroy)
			s->type->destroy(s);
		free(s);
	}
	sources = NULL;
}

const char *tf_sources_describe(void)
{
	return description;
}
