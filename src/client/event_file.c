// SPDX-License-Identifier: GPL-2.0
/*
 * event_file.c - event files: an event of the mount, its id and layout
 * read from its format file with libtraceevent, and writing its records.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "client/client.h"

#define MAX_FORMAT	(256u << 10)

static bool bad_name(const char *s)
{
	return !s || !*s || strchr(s, '/') || strcmp(s, ".") == 0 ||
	       strcmp(s, "..") == 0;
}

/* @t's path of @file in @instance's events/@system/@event/. */
static int event_path(char *out, size_t size, const struct tfuse *t,
		      const char *instance, const char *system,
		      const char *event, const char *file)
{
	int n;

	if ((instance && bad_name(instance)) || bad_name(system) ||
	    bad_name(event))
		return -EINVAL;
	n = instance ?
	    snprintf(out, size, "%s/instances/%s/events/%s/%s/%s", t->mnt,
		     instance, system, event, file) :
	    snprintf(out, size, "%s/events/%s/%s/%s", t->mnt, system, event,
		     file);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t have = 0;

	if (fd < 0)
		return NULL;
	buf = malloc(MAX_FORMAT + 1);
	while (buf && have < MAX_FORMAT) {
		ssize_t n = read(fd, buf + have, MAX_FORMAT - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			free(buf);
			close(fd);
			errno = err;
			return NULL;
		}
		if (n == 0)
			break;
		have += (size_t)n;
	}
	close(fd);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf[have] = '\0';
	*len = have;
	return buf;
}

/* The record room a field takes: a synthetic event gives each field a
 * u64 slot, a static string STR_VAR_LEN_MAX bytes (trace_events_synth.c). */
static unsigned room(const struct tfc_field *f, bool synthetic)
{
	if (!synthetic)
		return f->size;
	if (f->is_string && !f->is_dynamic)
		return TFC_STR_VAR_LEN_MAX;
	return 8;
}

static int fill_fields(struct tfuse_event_file *file, struct tep_event *ev)
{
	struct tep_format_field *ff;
	unsigned n = 0;

	for (ff = ev->format.fields; ff; ff = ff->next)
		n++;
	file->fields = calloc(n ? n : 1, sizeof(*file->fields));
	if (!file->fields)
		return -ENOMEM;
	file->min_size = 8;
	for (ff = ev->format.fields; ff; ff = ff->next) {
		struct tfc_field *f = &file->fields[file->n_fields++];
		unsigned end;

		f->name = strdup(ff->name);
		if (!f->name)
			return -ENOMEM;
		f->offset = (unsigned)ff->offset;
		f->size = (unsigned)ff->size;
		f->is_signed = ff->flags & TEP_FIELD_IS_SIGNED;
		f->is_dynamic = ff->flags & TEP_FIELD_IS_DYNAMIC;
		f->is_string = (ff->flags & TEP_FIELD_IS_STRING) ||
			       ((ff->flags & TEP_FIELD_IS_ARRAY) &&
				strncmp(ff->type, "char", 4) == 0) ||
			       (f->is_dynamic && strstr(ff->type, "char"));
		f->is_stack = f->is_dynamic && !f->is_string;
		if (f->is_dynamic)
			file->n_dynamic++;
		end = f->offset + room(f, file->synthetic);
		if (end > file->min_size)
			file->min_size = end;
	}
	return 0;
}

void tfuse_put_event_file(struct tfuse_event_file *file)
{
	if (!file)
		return;
	for (unsigned i = 0; i < file->n_fields; i++)
		free(file->fields[i].name);
	free(file->fields);
	free(file->system);
	free(file->name);
	free(file);
}

struct tfuse_event_file *tfuse_get_event_file(struct tfuse *t,
					      const char *instance,
					      const char *system,
					      const char *event)
{
	struct tfuse_event_file *file = NULL;
	struct tep_handle *tep = NULL;
	struct tep_event *ev = NULL;
	char path[PATH_MAX], *fmt = NULL;
	size_t len;
	int err;

	if (!t) {
		errno = EINVAL;
		return NULL;
	}
	err = -event_path(path, sizeof(path), t, instance, system, event,
			  "format");
	if (err)
		goto out;
	fmt = read_all(path, &len);
	if (!fmt) {
		err = errno;
		goto out;
	}
	tep = tep_alloc();
	file = calloc(1, sizeof(*file));
	if (!tep || !file) {
		err = ENOMEM;
		goto out;
	}
	if (tep_parse_format(tep, &ev, fmt, len, system) != 0 || !ev) {
		err = EPROTO;	/* a format file libtraceevent cannot read */
		goto out;
	}
	file->t = t;
	file->id = ev->id;
	file->system = strdup(system);
	file->name = strdup(event);
	file->synthetic = strcmp(system, "synthetic") == 0;
	if (!file->system || !file->name) {
		err = ENOMEM;
		goto out;
	}
	err = -fill_fields(file, ev);
out:
	if (tep)
		tep_free(tep);
	free(fmt);
	if (err) {
		tfuse_put_event_file(file);
		errno = err;
		return NULL;
	}
	return file;
}

int tfuse_set_clr_event(struct tfuse *t, const char *instance,
			const char *system, const char *event, bool enable)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!t)
		return -EINVAL;
	ret = event_path(path, sizeof(path), t, instance, system, event,
			 "enable");
	if (ret < 0)
		return ret;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, enable ? "1" : "0", 1) == 1 ? 0 : -errno;
	close(fd);
	return ret;
}

int tfuse_event_file_write(struct tfuse_event_file *file, const void *record,
			   size_t len)
{
	unsigned char common[8];
	uint16_t type;
	int32_t pid;

	if (!file || !record || len < file->min_size || len > UINT32_MAX)
		return -EINVAL;
	memcpy(common, record, 8);
	type = (uint16_t)file->id;
	memcpy(common, &type, 2);
	memcpy(&pid, common + 4, 4);
	if (!pid) {
		pid = tfc_gettid();
		memcpy(common + 4, &pid, 4);
	}
	return tfc_write(file->t, common, (const unsigned char *)record + 8,
			 (uint32_t)(len - 8));
}

int tfuse_event_write(struct tfuse *t, const char *system, const char *event,
		      const void *record, size_t len)
{
	struct tfuse_event_file *file = NULL;
	bool cached = false;
	int ret;

	if (!t || !system || !event)
		return -EINVAL;
	pthread_mutex_lock(&t->cache_lock);
	for (unsigned i = 0; i < t->nr_cache; i++)
		if (strcmp(t->cache[i]->name, event) == 0 &&
		    strcmp(t->cache[i]->system, system) == 0) {
			file = t->cache[i];
			break;
		}
	if (!file) {
		file = tfuse_get_event_file(t, NULL, system, event);
		if (file && !file->synthetic && t->nr_cache < 64)
			t->cache[t->nr_cache++] = file;
	}
	cached = file && !file->synthetic;
	pthread_mutex_unlock(&t->cache_lock);
	if (!file)
		return -errno;
	ret = tfuse_event_file_write(file, record, len);
	if (!cached)
		tfuse_put_event_file(file);
	return ret;
}
