// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - synthetic events through libtracefuse: created and deleted
 * by the daemon for the session (its synthetic_events command), traced
 * by building the record here in the layout the event's format gives
 * (the kernel's synth_trace_event: a u64 slot per field, a static string
 * taking STR_VAR_LEN_MAX bytes, dynamic strings after the slots).  The
 * rules are trace_events_synth.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"

int tfuse_synth_event_create(struct tfuse *t, const char *name,
			     const struct tfuse_field_desc *fields,
			     unsigned int n_fields)
{
	struct tfuse_dynevent_cmd cmd;
	char *buf = malloc(TFUSE_MAX_DYNEVENT_CMD_LEN);
	int ret;

	if (!buf)
		return -ENOMEM;
	tfuse_synth_event_cmd_init(&cmd, t, buf, TFUSE_MAX_DYNEVENT_CMD_LEN);
	ret = tfuse_synth_event_gen_cmd_array_start(&cmd, name, fields,
						    n_fields);
	if (!ret)
		ret = tfuse_synth_event_gen_cmd_end(&cmd);
	free(buf);
	return ret;
}

int tfuse_synth_event_delete(struct tfuse *t, const char *name)
{
	if (!t || !name || !*name || strpbrk(name, " \t\n;"))
		return -EINVAL;
	return tfc_request(t, -1, NULL, 0, "DELETE %s", name);
}

static int require_synthetic(const struct tfuse_event_file *file)
{
	return file && file->synthetic ? 0 : -EINVAL;
}

/* Stores a number in field @f of @entry, in the field's size. */
static void put_number(unsigned char *entry, const struct tfc_field *f,
		       uint64_t val)
{
	unsigned char *p = entry + f->offset;

	switch (f->size) {
	case 1: { uint8_t v = (uint8_t)val; memcpy(p, &v, 1); break; }
	case 2: { uint16_t v = (uint16_t)val; memcpy(p, &v, 2); break; }
	case 4: { uint32_t v = (uint32_t)val; memcpy(p, &v, 4); break; }
	default: memcpy(p, &val, 8); break;
	}
}

/* A static string: strscpy() into its STR_VAR_LEN_MAX room. */
static void put_static_string(unsigned char *entry, const struct tfc_field *f,
			      const char *s)
{
	size_t n = strnlen(s, TFC_STR_VAR_LEN_MAX - 1);

	memcpy(entry + f->offset, s, n);
	entry[f->offset + n] = '\0';
}

/* The record's size with the dynamic strings of @vals, or -errno. */
static long record_size(const struct tfuse_event_file *file,
			const tfuse_u64 *vals)
{
	size_t size = file->min_size;

	for (unsigned i = 0; i < file->n_fields; i++) {
		const struct tfc_field *f = &file->fields[i];

		if (f->is_stack)
			return -EOPNOTSUPP;
		if (!f->is_string)
			continue;
		if (!vals[i])
			return -EINVAL;
		if (f->is_dynamic)
			size += strlen((const char *)(uintptr_t)vals[i]) + 1;
	}
	return size > 65536 - 32 ? -E2BIG : (long)size;
}

/* Builds and writes one record of @vals (one per field, in order). */
static int trace_vals(struct tfuse_event_file *file, const tfuse_u64 *vals)
{
	long size = record_size(file, vals);
	unsigned char *entry;
	unsigned data = file->min_size;
	int32_t pid = tfc_gettid();
	uint16_t type = (uint16_t)file->id;

	if (size < 0)
		return (int)size;
	entry = tfc_scratch((size_t)size);
	if (!entry)
		return -ENOMEM;
	memset(entry, 0, file->min_size);
	memcpy(entry, &type, 2);
	memcpy(entry + 4, &pid, 4);
	for (unsigned i = 0; i < file->n_fields; i++) {
		const struct tfc_field *f = &file->fields[i];
		const char *s = (const char *)(uintptr_t)vals[i];

		if (!f->is_string) {
			put_number(entry, f, vals[i]);
		} else if (!f->is_dynamic) {
			put_static_string(entry, f, s);
		} else {
			uint32_t len = (uint32_t)strlen(s) + 1;
			uint32_t loc = len << 16 | data;

			memcpy(entry + data, s, len);
			memcpy(entry + f->offset, &loc, 4);
			data += len;
		}
	}
	return tfc_write(file->t, entry, entry + 8, (uint32_t)size - 8);
}

int tfuse_synth_event_trace_array(struct tfuse_event_file *file,
				  const tfuse_u64 *vals, unsigned int n_vals)
{
	int ret = require_synthetic(file);

	if (ret)
		return ret;
	if (!vals && n_vals)
		return -EINVAL;
	if (n_vals != file->n_fields) {
		/* the kernel commits the record it reserved regardless,
		 * with no field set: here, all zero */
		tfuse_u64 zero[TFUSE_SYNTH_FIELDS_MAX] = { 0 };
		static const char empty[] = "";

		for (unsigned i = 0; i < file->n_fields; i++)
			if (file->fields[i].is_string)
				zero[i] = (uintptr_t)empty;
		trace_vals(file, zero);
		return -EINVAL;
	}
	return trace_vals(file, vals);
}

int tfuse_synth_event_trace(struct tfuse_event_file *file,
			    unsigned int n_vals, ...)
{
	tfuse_u64 vals[TFUSE_SYNTH_FIELDS_MAX];
	va_list ap;
	int ret = require_synthetic(file);

	if (ret)
		return ret;
	va_start(ap, n_vals);
	for (unsigned i = 0; i < n_vals && i < TFUSE_SYNTH_FIELDS_MAX; i++)
		vals[i] = va_arg(ap, tfuse_u64);
	va_end(ap);
	return tfuse_synth_event_trace_array(
		file, vals, n_vals > TFUSE_SYNTH_FIELDS_MAX ?
			    TFUSE_SYNTH_FIELDS_MAX + 1 : n_vals);
}

int tfuse_synth_event_trace_start(struct tfuse_event_file *file,
				  struct tfuse_synth_trace_state *state)
{
	int32_t pid;
	uint16_t type;
	int ret;

	if (!state)
		return -EINVAL;
	memset(state, 0, sizeof(*state));
	ret = require_synthetic(file);
	if (ret)
		return ret;
	/* the record is reserved before its fields are known */
	if (file->n_dynamic)
		return -EOPNOTSUPP;
	state->entry = calloc(1, file->min_size);
	if (!state->entry)
		return -ENOMEM;
	type = (uint16_t)file->id;
	pid = tfc_gettid();
	memcpy(state->entry, &type, 2);
	memcpy(state->entry + 4, &pid, 4);
	state->file = file;
	state->open = true;
	return 0;
}

static int add_val(const char *field_name, tfuse_u64 val,
		   struct tfuse_synth_trace_state *state)
{
	const struct tfc_field *f = NULL;
	struct tfuse_event_file *file;

	if (!state || !state->open)
		return -EINVAL;
	file = state->file;
	if (field_name) {
		if (state->add_next)
			return -EINVAL;
		state->add_name = true;
		for (unsigned i = 0; i < file->n_fields; i++)
			if (strcmp(file->fields[i].name, field_name) == 0) {
				f = &file->fields[i];
				break;
			}
		if (!f)
			return -EINVAL;
	} else {
		if (state->add_name)
			return -EINVAL;
		state->add_next = true;
		if (state->cur_field >= file->n_fields)
			return -EINVAL;
		f = &file->fields[state->cur_field++];
	}
	if (f->is_string) {
		if (f->is_dynamic || !val)
			return -EINVAL;
		put_static_string(state->entry, f,
				  (const char *)(uintptr_t)val);
	} else {
		put_number(state->entry, f, val);
	}
	return 0;
}

int tfuse_synth_event_add_next_val(tfuse_u64 val,
				   struct tfuse_synth_trace_state *state)
{
	return add_val(NULL, val, state);
}

int tfuse_synth_event_add_val(const char *field_name, tfuse_u64 val,
			      struct tfuse_synth_trace_state *state)
{
	if (!field_name)
		return -EINVAL;
	return add_val(field_name, val, state);
}

int tfuse_synth_event_trace_end(struct tfuse_synth_trace_state *state)
{
	struct tfuse_event_file *file;
	int ret;

	if (!state)
		return -EINVAL;
	if (!state->open)
		return 0;
	file = state->file;
	ret = tfc_write(file->t, state->entry, state->entry + 8,
			file->min_size - 8);
	free(state->entry);
	state->entry = NULL;
	state->open = false;
	return ret;
}
