// SPDX-License-Identifier: GPL-2.0
/*
 * synth_parse.c - the commands of synthetic_events and dynamic_events,
 * parsed as the kernel's trace_events_synth.c and trace_dynevent.c parse
 * them (create_or_delete_synth_event, __create_synth_event,
 * parse_synth_field, check_command, create_synth_event,
 * dyn_event_release, dyn_events_release_all), with their errors,
 * error_log entries and carets, and the reads of both files.
 *
 * The kernel splits words with its own character classes (isspace()
 * includes the Latin-1 no-break space, isalpha() the Latin-1 letters):
 * so does this file, so that odd bytes are taken or refused alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synth_internal.h"

#define WRITE_BUFSIZE	4096	/* trace_parse_run_command()'s buffer */

/* ---- the kernel's ctype ---- */

static bool k_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static bool k_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool k_isalpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= 0xc0 && c != 0xd7 && c != 0xf7);
}

static char *skip_spaces(const char *s)
{
	while (k_isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

/* is_good_name(): a letter or '_', then letters, digits and '_' */
static bool good_name(const char *name)
{
	if (!k_isalpha((unsigned char)*name) && *name != '_')
		return false;
	while (*++name)
		if (!k_isalpha((unsigned char)*name) &&
		    !k_isdigit((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

/*
 * argv_split(): the words of @s, split at white space, no quoting; a
 * NULL-ended array whose strings live in one block after it.  NULL when
 * out of memory.
 */
static char **split_words(const char *s, int *argc)
{
	size_t len = strlen(s), n = 0;
	bool space = true;
	char **argv, *copy;

	for (size_t i = 0; i < len; i++) {
		if (k_isspace((unsigned char)s[i]))
			space = true;
		else if (space) {
			space = false;
			n++;
		}
	}
	argv = malloc((n + 1) * sizeof(*argv) + len + 1);
	if (!argv)
		return NULL;
	copy = (char *)(argv + n + 1);
	memcpy(copy, s, len + 1);
	n = 0;
	for (space = true; *copy; copy++) {
		if (k_isspace((unsigned char)*copy)) {
			space = true;
			*copy = '\0';
		} else if (space) {
			space = false;
			argv[n++] = copy;
		}
	}
	argv[n] = NULL;
	*argc = (int)n;
	return argv;
}

/* ---- error_log ---- */

#define C(a, b) b,
static const char *const err_text[] = { TF_SYNTH_ERRORS };
#undef C

static void last_cmd_set(struct tf_synth_state *st, const char *cmd)
{
	char *copy = strdup(cmd);

	if (!copy)
		return;
	free(st->last_cmd);
	st->last_cmd = copy;
}

/* err_pos(): where @str first occurs in the last command, else 0 */
static unsigned errpos(const struct tf_synth_state *st, const char *str)
{
	const char *found;

	if (!str || !st->last_cmd || !*st->last_cmd)
		return 0;
	found = strstr(st->last_cmd, str);
	return found ? (unsigned)(found - st->last_cmd) : 0;
}

void tf_synth_err(struct tf_tracing *t, enum tf_synth_err err, unsigned pos)
{
	struct tf_synth_state *st = t->synth;

	if (st && st->last_cmd)
		tf_error_log_add(&t->top->error_log, "synthetic_events",
				 st->last_cmd, pos, err_text[err]);
}

/* ---- a definition ---- */

/*
 * parse_synth_field(): one field from @argv (@argc words left): "type
 * name", "unsigned type name", name[N] making an array.  Adds the words
 * it takes to *consumed (even when the name is missing).
 */
static int parse_field(struct tf_tracing *t, int argc, char **argv,
		       int *consumed, struct tf_synth_field *out)
{
	struct tf_synth_state *st = t->synth;
	const char *prefix = "", *type = argv[0], *name, *array;
	char *fname = NULL, *ftype = NULL;
	size_t nlen;
	int size;

	if (strcmp(type, "unsigned") == 0) {
		if (argc < 3) {
			tf_synth_err(t, TF_SYNTH_ERR_INCOMPLETE_TYPE,
				     errpos(st, type));
			return -EINVAL;
		}
		prefix = "unsigned ";
		type = argv[1];
		name = argv[2];
		*consumed += 3;
	} else {
		name = argv[1];
		*consumed += 2;
	}
	if (!name) {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_FIELD, errpos(st, type));
		return -EINVAL;
	}
	array = strchr(name, '[');
	nlen = array ? (size_t)(array - name) : strlen(name);
	fname = strndup(name, nlen);
	if (!fname)
		return -ENOMEM;
	if (!good_name(fname)) {
		tf_synth_err(t, TF_SYNTH_ERR_BAD_NAME, errpos(st, name));
		free(fname);
		return -EINVAL;
	}
	ftype = malloc(strlen(prefix) + strlen(type) +
		       (array ? strlen(array) : 0) + 1);
	if (!ftype) {
		free(fname);
		return -ENOMEM;
	}
	strcpy(ftype, prefix);
	strcat(ftype, type);
	if (array)
		strcat(ftype, array);
	size = tf_synth_field_size(ftype);
	if (size < 0) {
		if (array)
			tf_synth_err(t, TF_SYNTH_ERR_INVALID_ARRAY_SPEC,
				     errpos(st, name));
		else
			tf_synth_err(t, TF_SYNTH_ERR_INVALID_TYPE,
				     errpos(st, type));
		goto bad;
	}
	if (size == 0) {
		char *dyn;

		if (!tf_synth_type_is_string(ftype) &&
		    !tf_synth_type_is_stack(ftype)) {
			tf_synth_err(t, TF_SYNTH_ERR_INVALID_TYPE,
				     errpos(st, type));
			goto bad;
		}
		/* char[] and long[]: data after the slots, located by it */
		dyn = malloc(strlen("__data_loc ") + strlen(ftype) + 1);
		if (!dyn) {
			free(fname);
			free(ftype);
			return -ENOMEM;
		}
		strcpy(dyn, "__data_loc ");
		strcat(dyn, ftype);
		free(ftype);
		ftype = dyn;
		size = 8;
	}
	tf_synth_field_init(out, ftype, fname, size);
	return 0;
bad:
	free(fname);
	free(ftype);
	return -EINVAL;
}

/* __create_synth_event(): @name and the text after it. */
static int create_event(struct tf_tracing *t, const char *name,
			const char *raw_fields)
{
	struct tf_synth_state *st = t->synth;
	struct tf_synth_field *fields;
	char *copy, *rest, *field_str;
	unsigned n = 0;
	int ret = 0;

	if (!*name) {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	if (!good_name(name)) {
		tf_synth_err(t, TF_SYNTH_ERR_BAD_NAME, errpos(st, name));
		return -EINVAL;
	}
	if (tf_synth_find(t, name)) {
		tf_synth_err(t, TF_SYNTH_ERR_EVENT_EXISTS, errpos(st, name));
		return -EEXIST;
	}
	fields = calloc(TF_SYNTH_FIELDS_MAX, sizeof(*fields));
	rest = copy = strdup(raw_fields);
	if (!fields || !copy) {
		free(fields);
		free(copy);
		return -ENOMEM;
	}
	while ((field_str = strsep(&rest, ";")) != NULL) {
		int argc, consumed = 0;
		char **argv = split_words(field_str, &argc);

		if (!argv) {
			ret = -ENOMEM;
			goto out;
		}
		while (argc > consumed) {
			struct tf_synth_field f;

			ret = parse_field(t, argc - consumed, argv + consumed,
					  &consumed, &f);
			if (ret < 0)
				break;
			if (n == TF_SYNTH_FIELDS_MAX) {
				free(f.type);
				free(f.name);
				tf_synth_err(t, TF_SYNTH_ERR_TOO_MANY_FIELDS, 0);
				ret = -EINVAL;
				break;
			}
			fields[n++] = f;
		}
		free(argv);
		if (ret < 0)
			goto out;
	}
	if (n == 0) {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_CMD, 0);
		ret = -EINVAL;
		goto out;
	}
	free(copy);
	return tf_synth_event_create(t, name, fields, n);
out:
	free(copy);
	tf_synth_fields_free(fields, n);
	return ret;
}

/* check_command(): a definition needs a name and a type and a name
 * before its first ';' (a removal is not checked) */
static int check_command(const char *raw)
{
	const char *semi = strchr(raw, ';');
	size_t len = semi ? (size_t)(semi - raw) : strlen(raw);
	char *first = strndup(raw, len), **argv;
	int argc = 0;

	if (!first)
		return -ENOMEM;
	if (first[0] == '!') {
		free(first);
		return 0;
	}
	argv = split_words(first, &argc);
	free(first);
	if (!argv)
		return -ENOMEM;
	free(argv);
	return argc < 3 ? -EINVAL : 0;
}

/* synth_event_delete(): no buffer reset on this path */
static int delete_event(struct tf_tracing *t, const char *name)
{
	struct tf_synth_event *se = tf_synth_find(t, name);

	return se ? tf_synth_event_destroy(t, se) : -ENOENT;
}

/* create_or_delete_synth_event(): one line of synthetic_events */
static int synth_command(struct tf_tracing *t, const char *raw)
{
	struct tf_synth_state *st = tf_synth_state(t);
	const char *p;
	char *name;
	int ret;

	if (!st)
		return -ENOMEM;
	raw = skip_spaces(raw);
	if (!*raw)
		return 0;
	last_cmd_set(st, raw);
	ret = check_command(raw);
	if (ret) {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_CMD, 0);
		return ret;
	}
	p = strpbrk(raw, " \t");
	if (!p && raw[0] != '!') {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	name = strndup(raw, p ? (size_t)(p - raw) : strlen(raw));
	if (!name)
		return -ENOMEM;
	if (name[0] == '!')
		ret = delete_event(t, name + 1);
	else
		ret = create_event(t, name, skip_spaces(p));
	free(name);
	return ret;
}

/* create_synth_event(): an `s:` line of dynamic_events; -ECANCELED for
 * a line that is not one */
static int dyn_create(struct tf_tracing *t, const char *raw)
{
	static const char prefix[] = TF_SYNTH_SYSTEM "/";
	struct tf_synth_state *st = tf_synth_state(t);
	const char *name, *p;
	char *dup;
	size_t len;
	int ret;

	if (!st)
		return -ENOMEM;
	raw = skip_spaces(raw);
	if (!*raw)
		return 0;
	last_cmd_set(st, raw);
	if (raw[0] != 's' || raw[1] != ':')
		return -ECANCELED;
	name = raw + 2;
	p = strpbrk(raw, " \t");
	if (!p) {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	/* a '/' anywhere after "s:" must be the system's */
	if (strchr(name, '/')) {
		if (strncmp(name, prefix, sizeof(prefix) - 1) != 0) {
			tf_synth_err(t, TF_SYNTH_ERR_INVALID_DYN_CMD, 0);
			return -EINVAL;
		}
		name += sizeof(prefix) - 1;
	}
	len = (size_t)(name - raw);
	ret = check_command(raw + len);
	if (ret) {
		tf_synth_err(t, TF_SYNTH_ERR_INVALID_CMD, 0);
		return ret;
	}
	dup = strndup(name, p > name ? (size_t)(p - name) : 0);
	if (!dup)
		return -ENOMEM;
	ret = create_event(t, dup, skip_spaces(p));
	free(dup);
	return ret;
}

/*
 * dyn_event_release(): `-:[system/]event` or `!...:[system/]event`;
 * every dynamic event that matches goes (the first that cannot stops
 * it), and the buffers are reset as the kernel's always are here, even
 * when nothing matched.
 */
static int dyn_release(struct tf_tracing *t, const char *raw)
{
	struct tf_synth_state *st = tf_synth_state(t);
	char **argv, *event, *system = NULL, *slash;
	struct synth_entry *e, *tmp;
	int argc, ret = -ENOENT;

	if (!st)
		return -ENOMEM;
	argv = split_words(raw, &argc);
	if (!argv)
		return -ENOMEM;
	if (argc == 0) {
		ret = -EINVAL;
		goto out;
	}
	if (argv[0][0] == '-') {
		if (argv[0][1] != ':') {
			ret = -EINVAL;
			goto out;
		}
		event = argv[0] + 2;
	} else {
		event = strchr(argv[0], ':');
		if (!event) {
			ret = -EINVAL;
			goto out;
		}
		event++;
	}
	slash = strchr(event, '/');
	if (slash) {
		system = event;
		event = slash + 1;
		*slash = '\0';
	}
	if (!system && !*event) {
		ret = -EINVAL;
		goto out;
	}
	cds_list_for_each_entry_safe(e, tmp, &st->events, list) {
		if (strcmp(e->se.name, event) != 0 ||
		    (system && strcmp(system, TF_SYNTH_SYSTEM) != 0))
			continue;
		ret = tf_synth_event_destroy(t, &e->se);
		if (ret)
			break;
	}
	tf_tracing_reset_cleared(t);
out:
	free(argv);
	return ret;
}

/* create_dyn_event(): one line of dynamic_events */
static int dyn_command(struct tf_tracing *t, const char *raw)
{
	int ret;

	if (raw[0] == '-' || raw[0] == '!')
		return dyn_release(t, raw);
	ret = dyn_create(t, raw);
	/* probes would take p:, r:, e:, f:, t: lines; tracefuse has none */
	return ret == -ECANCELED ? -EINVAL : ret;
}

int tf_synth_release_all(struct tf_tracing *t)
{
	struct tf_synth_state *st = t->synth;
	struct synth_entry *e, *tmp;
	int ret = 0;

	if (st) {
		cds_list_for_each_entry(e, &st->events, list)
			if (e->se.ref) {
				ret = -EBUSY;
				goto out;
			}
		cds_list_for_each_entry_safe(e, tmp, &st->events, list) {
			ret = tf_synth_event_destroy(t, &e->se);
			if (ret)
				break;
		}
	}
out:
	tf_tracing_reset_cleared(t);
	return ret;
}

/*
 * trace_parse_run_command(): the write in lines, each without its
 * comment; a line must fit the kernel's 4096-byte buffer with its
 * newline and NUL.  The first failing line ends the write.
 */
static long run_commands(struct tf_tracing *t, const char *buf, size_t count,
			 int (*fn)(struct tf_tracing *t, const char *cmd))
{
	char kbuf[WRITE_BUFSIZE];
	size_t done = 0, size;
	int ret;

	while (done < count) {
		char *b = kbuf, *nl;

		size = count - done;
		if (size >= WRITE_BUFSIZE)
			size = WRITE_BUFSIZE - 1;
		memcpy(kbuf, buf + done, size);
		kbuf[size] = '\0';
		do {
			nl = strchr(b, '\n');
			if (nl) {
				*nl = '\0';
				size = (size_t)(nl - b) + 1;
			} else {
				size = strlen(b);
				if (done + size < count) {
					if (b != kbuf)
						break;	/* read it again */
					return -EINVAL;	/* too long a line */
				}
			}
			done += size;
			nl = strchr(b, '#');
			if (nl)
				*nl = '\0';
			ret = fn(t, b);
			if (ret)
				return ret;
			b += size;
		} while (done < count);
	}
	return (long)done;
}

long tf_synth_events_write(struct tf_tracing *t, const char *buf, size_t len)
{
	return run_commands(t, buf, len, synth_command);
}

long tf_dynamic_events_write(struct tf_tracing *t, const char *buf,
			     size_t len)
{
	return run_commands(t, buf, len, dyn_command);
}

/* __synth_event_show(): "name\ttype name; type name" */
static void show(struct tf_tracing *t, struct strbuf *out, bool dyn)
{
	struct tf_synth_state *st = t->synth;
	struct synth_entry *e;

	if (!st)
		return;
	cds_list_for_each_entry(e, &st->events, list) {
		const struct tf_synth_event *se = &e->se;

		if (dyn)
			sb_puts(out, "s:" TF_SYNTH_SYSTEM "/");
		sb_printf(out, "%s\t", se->name);
		for (unsigned i = 0; i < se->n_fields; i++) {
			const char *type = se->fields[i].type;
			const char *dl = strstr(type, "__data_loc");

			/* __data_loc belongs in the format only */
			if (dl)
				type = dl + strlen("__data_loc") + 1;
			sb_printf(out, "%s %s%s", type, se->fields[i].name,
				  i == se->n_fields - 1 ? "" : "; ");
		}
		sb_putc(out, '\n');
	}
}

void tf_synth_events_show(struct tf_tracing *t, struct strbuf *out)
{
	show(t, out, false);
}

void tf_dynamic_events_show(struct tf_tracing *t, struct strbuf *out)
{
	show(t, out, true);
}
