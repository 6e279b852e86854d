// SPDX-License-Identifier: GPL-2.0
/*
 * dynevent.c - the dynevent_cmd builder for synthetic events: a command
 * ("name type field; type field; ...") built a piece at a time, then run
 * as a line of synthetic_events by the daemon.  The kernel's rules: at
 * most SYNTH_FIELDS_MAX fields, no NULL type or name, -E2BIG when the
 * buffer is full; the first failure is what the end returns too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "client/client.h"

void tfuse_synth_event_cmd_init(struct tfuse_dynevent_cmd *cmd,
				struct tfuse *t, char *buf, int maxlen)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->t = t;
	cmd->buf = buf;
	cmd->maxlen = maxlen;
	if (buf && maxlen > 0)
		buf[0] = '\0';
}

/* Appends @s to the command; -E2BIG when it does not fit. */
static int append(struct tfuse_dynevent_cmd *cmd, const char *s)
{
	size_t n = strlen(s);

	if (!cmd->buf || cmd->maxlen <= 0 ||
	    cmd->len + n + 1 > (size_t)cmd->maxlen)
		return cmd->err = -E2BIG;
	memcpy(cmd->buf + cmd->len, s, n + 1);
	cmd->len += n;
	return 0;
}

static int start(struct tfuse_dynevent_cmd *cmd, const char *name)
{
	if (!cmd || !name || !*name || strpbrk(name, " \t\n;"))
		return -EINVAL;
	cmd->len = 0;
	cmd->n_fields = 0;
	cmd->err = 0;
	cmd->event_name = name;
	return append(cmd, name);
}

int tfuse_synth_event_add_field(struct tfuse_dynevent_cmd *cmd,
				const char *type, const char *name)
{
	int ret;

	if (!cmd || !type || !name)
		return -EINVAL;
	if (strchr(type, '\n') || strchr(name, '\n'))
		return -EINVAL;
	if (cmd->n_fields && (ret = append(cmd, ";")))
		return ret;
	if ((ret = append(cmd, " ")) || (ret = append(cmd, type)) ||
	    (ret = append(cmd, " ")) || (ret = append(cmd, name)))
		return ret;
	if (++cmd->n_fields > TFUSE_SYNTH_FIELDS_MAX)
		return cmd->err = -EINVAL;
	return 0;
}

int tfuse_synth_event_add_fields(struct tfuse_dynevent_cmd *cmd,
				 const struct tfuse_field_desc *fields,
				 unsigned int n_fields)
{
	if (!fields && n_fields)
		return -EINVAL;
	for (unsigned i = 0; i < n_fields; i++) {
		int ret;

		if (!fields[i].type || !fields[i].name)
			return -EINVAL;
		ret = tfuse_synth_event_add_field(cmd, fields[i].type,
						  fields[i].name);
		if (ret)
			return ret;
	}
	return 0;
}

int tfuse_synth_event_add_field_str(struct tfuse_dynevent_cmd *cmd,
				    const char *type_name)
{
	int ret;

	if (!cmd || !type_name || strchr(type_name, '\n'))
		return -EINVAL;
	if (cmd->n_fields && (ret = append(cmd, ";")))
		return ret;
	if ((ret = append(cmd, " ")) || (ret = append(cmd, type_name)))
		return ret;
	if (++cmd->n_fields > TFUSE_SYNTH_FIELDS_MAX)
		return cmd->err = -EINVAL;
	return 0;
}

int __tfuse_synth_event_gen_cmd_start(struct tfuse_dynevent_cmd *cmd,
				      const char *name, ...)
{
	va_list ap;
	int ret = start(cmd, name);

	if (ret)
		return ret;
	va_start(ap, name);
	for (;;) {
		const char *type = va_arg(ap, const char *), *field;

		if (!type)
			break;
		field = va_arg(ap, const char *);
		if (!field)
			break;
		if (cmd->n_fields + 1 > TFUSE_SYNTH_FIELDS_MAX) {
			ret = -EINVAL;
			break;
		}
		ret = tfuse_synth_event_add_field(cmd, type, field);
		if (ret)
			break;
	}
	va_end(ap);
	return ret;
}

int tfuse_synth_event_gen_cmd_array_start(struct tfuse_dynevent_cmd *cmd,
					  const char *name,
					  const struct tfuse_field_desc *fields,
					  unsigned int n_fields)
{
	int ret;

	if (n_fields > TFUSE_SYNTH_FIELDS_MAX)
		return -EINVAL;
	ret = start(cmd, name);
	if (ret)
		return ret;
	return tfuse_synth_event_add_fields(cmd, fields, n_fields);
}

int tfuse_synth_event_gen_cmd_end(struct tfuse_dynevent_cmd *cmd)
{
	if (!cmd || !cmd->t || !cmd->event_name)
		return -EINVAL;
	if (cmd->err)
		return cmd->err;
	return tfc_request(cmd->t, -1, NULL, 0, "SYNTH %s", cmd->buf);
}
