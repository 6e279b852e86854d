// SPDX-License-Identifier: GPL-2.0
/*
 * schema.c - field lookup and string access on event schemas.
 */
#include <string.h>

#include "events/schema.h"

const struct tf_field *tf_event_field(const struct tf_event *ev,
				      const char *name)
{
	for (unsigned i = 0; i < ev->nr_fields; i++)
		if (strcmp(ev->fields[i].name, name) == 0)
			return &ev->fields[i];
	return NULL;
}

const char *tf_field_read_str(const struct tf_field *f, const uint8_t *data,
			      unsigned size, unsigned *len)
{
	uint32_t loc, off, n;
	const char *s;

	switch (f->kind) {
	case TF_FIELD_STR_STATIC:
		if (f->offset > size)
			return NULL;
		/* char buf[] of size 0 (ftrace:print) runs to the record's end */
		n = f->size ? f->size : size - f->offset;
		if (n > size - f->offset)
			return NULL;
		s = (const char *)data + f->offset;
		*len = strnlen(s, n);
		return s;
	case TF_FIELD_STR_DYN:
	case TF_FIELD_STR_REL:
		if (f->offset + 4 > size)
			return NULL;
		memcpy(&loc, data + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->kind == TF_FIELD_STR_REL)
			off += f->offset + 4;
		if (off > size || n > size - off)
			return NULL;
		s = (const char *)data + off;
		*len = strnlen(s, n);
		return s;
	default:
		return NULL;
	}
}
