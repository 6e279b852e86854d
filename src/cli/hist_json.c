// SPDX-License-Identifier: GPL-2.0
/*
 * hist_json.c - `tracefuse hist --json PATH`: one hist file as JSON
 * (json-c), for scripts.  The shape is documented in docs/metrics.md:
 *
 *   { "path": ..., "histograms": [ { "trigger", "name", "filter",
 *     "paused", "keys": [{field, modifier}], "values": [...],
 *     "variables": [...], "handlers": [...],
 *     "entries": [ { "key": { FIELD: { "text", "value", ... } },
 *                    "values": { NAME: number | text },
 *                    "actions": [ { "handler", "value", "saved" } ] } ],
 *     "snapshot": { "handler", "value", "key" },
 *     "totals": { "hits", "entries", "dropped" } } ] }
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/hist_text.h"

char *tf_cli_read_file(const char *path, int *err)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*err = 0;
	if (!buf || fd < 0) {
		*err = fd < 0 ? errno : ENOMEM;
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *more = realloc(buf, 2 * cap + 1);

			if (!more) {
				*err = ENOMEM;
				break;
			}
			buf = more;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				*err = errno;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (*err) {
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *num(uint64_t v, bool negative)
{
	return negative ? json_object_new_int64((int64_t)v) :
			  json_object_new_uint64(v);
}

static json_object *specs(const struct hist_field_spec *s, size_t n)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "field",
				       json_object_new_string(s[i].field));
		json_object_object_add(o, "modifier", str_or_null(s[i].mod));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *strings(char **s, size_t n)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_string(s[i]));
	return arr;
}

static json_object *val_json(const struct hist_val *v)
{
	switch (v->kind) {
	case HV_NUM:
		return num(v->num, v->text[0] == '-');
	case HV_PERCENT:
		return json_object_new_double(v->pct);
	default:
		return json_object_new_string(v->text);
	}
}

static json_object *vals_json(const struct hist_val *v, size_t n)
{
	json_object *o = json_object_new_object();

	/* hitcount.graph prints a second "hitcount": the number stays */
	for (size_t i = 0; i < n; i++)
		if (!json_object_object_get_ex(o, v[i].name, NULL))
			json_object_object_add(o, v[i].name, val_json(&v[i]));
	return o;
}

static json_object *key_json(const struct hist_key *k)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "text", json_object_new_string(k->text));
	if (k->is_stack) {
		json_object_object_add(o, "frames",
				       strings(k->frames, k->n_frames));
		return o;
	}
	if (k->has_num)
		json_object_object_add(o, "value", num(k->num, k->negative));
	if (k->name)
		json_object_object_add(o, k->spec && k->spec->mod ?
				       k->spec->mod : "name",
				       json_object_new_string(k->name));
	if (k->spec && k->spec->mod && strcmp(k->spec->mod, "buckets") == 0 &&
	    k->has_num) {
		json_object_object_add(o, "low", json_object_new_uint64(k->lo));
		json_object_object_add(o, "high", json_object_new_uint64(k->hi));
	}
	return o;
}

static json_object *entry_json(const struct hist_entry *e)
{
	json_object *o = json_object_new_object(), *key =
		json_object_new_object(), *acts = json_object_new_array();

	for (size_t i = 0; i < e->n_keys; i++)
		json_object_object_add(key, e->keys[i].spec ?
				       e->keys[i].spec->field : "key",
				       key_json(&e->keys[i]));
	json_object_object_add(o, "key", key);
	json_object_object_add(o, "values", vals_json(e->vals, e->n_vals));
	for (size_t i = 0; i < e->n_actions; i++) {
		const struct hist_action *a = &e->actions[i];
		json_object *ao = json_object_new_object();

		json_object_object_add(ao, "handler",
				       json_object_new_string(a->handler));
		json_object_object_add(ao, "value", val_json(&a->vals[0]));
		json_object_object_add(ao, "saved",
				       vals_json(a->vals + 1, a->n_vals - 1));
		json_object_array_add(acts, ao);
	}
	if (e->n_actions)
		json_object_object_add(o, "actions", acts);
	else
		json_object_put(acts);
	return o;
}

static json_object *tf_cli_hist_json(const struct hist_file *f, const char *path)
{
	json_object *root = json_object_new_object();
	json_object *tables = json_object_new_array();

	json_object_object_add(root, "path", json_object_new_string(path));
	for (size_t i = 0; i < f->n_tables; i++) {
		const struct hist_table *t = &f->tables[i];
		json_object *o = json_object_new_object();
		json_object *entries = json_object_new_array();

		json_object_object_add(o, "trigger", str_or_null(t->trigger));
		json_object_object_add(o, "name", str_or_null(t->name));
		json_object_object_add(o, "filter", str_or_null(t->filter));
		json_object_object_add(o, "paused",
				       json_object_new_boolean(t->paused));
		json_object_object_add(o, "keys", specs(t->keys, t->n_keys));
		json_object_object_add(o, "values", specs(t->vals, t->n_vals));
		json_object_object_add(o, "variables",
				       strings(t->vars, t->n_vars));
		json_object_object_add(o, "handlers",
				       strings(t->handlers, t->n_handlers));
		for (size_t j = 0; j < t->n_entries; j++)
			json_object_array_add(entries,
					      entry_json(&t->entries[j]));
		json_object_object_add(o, "entries", entries);
		if (t->has_snapshot) {
			json_object *s = json_object_new_object();

			json_object_object_add(s, "handler",
				json_object_new_string(t->snap_handler));
			json_object_object_add(s, "value",
				json_object_new_uint64(t->snap_value));
			json_object_object_add(s, "key",
				str_or_null(t->snap_key));
			json_object_object_add(o, "snapshot", s);
		}
		if (t->has_totals) {
			json_object *s = json_object_new_object();

			json_object_object_add(s, "hits",
				json_object_new_uint64(t->hits));
			json_object_object_add(s, "entries",
				json_object_new_uint64(t->nr_entries));
			json_object_object_add(s, "dropped",
				json_object_new_uint64(t->dropped));
			json_object_object_add(o, "totals", s);
		}
		json_object_array_add(tables, o);
	}
	json_object_object_add(root, "histograms", tables);
	return root;
}

static const char hist_usage[] =
"Usage: tracefuse hist --json PATH\n"
"\n"
"Prints the hist file PATH (events/SYSTEM/EVENT/hist of a tracefs tree)\n"
"as JSON: every histogram of the file with its keys, values, action\n"
"lines and totals (docs/metrics.md).\n";

int tf_cli_hist(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct arena a = { 0 };
	struct hist_file f;
	json_object *root;
	bool json = false;
	char *text;
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h': fputs(hist_usage, stdout); return 0;
		default: fputs(hist_usage, stderr); return 2;
		}
	}
	if (!json || optind != argc - 1) {
		fputs(hist_usage, stderr);
		return 2;
	}
	text = tf_cli_read_file(argv[optind], &err);
	if (!text) {
		fprintf(stderr, "tracefuse hist: %s: %s\n", argv[optind],
			strerror(err));
		return 1;
	}
	hist_parse(&a, text, &f);
	root = tf_cli_hist_json(&f, argv[optind]);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	arena_reset(&a);
	free(text);
	return fflush(stdout) == 0 ? 0 : 1;
}
