// SPDX-License-Identifier: GPL-2.0
/*
 * hist_text.c - reads a `hist` file back (see hist_text.h).
 *
 * The layout is the kernel's hist_trigger_show(): per histogram a
 * "# event histogram" header with the trigger info, one entry per
 * line as "{ key: text, key: text } hitcount: N  val: N", the action
 * lines of onmax()/onchange() ("\tmax: N  field: v"), the "Snapshot
 * taken" block of snapshot(), and the Totals.  A stacktrace key prints
 * its frames on lines of their own before the closing brace.
 *
 * The trigger info names the keys and values in order, so an entry is
 * cut at the names it must hold: the values start at the last "}"
 * followed by the first value's name, and each key (searching from the
 * last) at ", NAME: ".  A string key that itself holds ", NEXT_KEY: "
 * would be cut there; no other ambiguity remains.  How each key is read
 * back depends on its modifier:
 *   (none)      a number if the text is one, else a string (trimmed)
 *   .hex        hex digits, no 0x
 *   .sym        "[addr] symbol" (.sym-offset the same)
 *   .execname   "comm [pid]"
 *   .syscall    "name [nr]"
 *   .log2       "~ 2^N": N
 *   .buckets=S  "~ lo-hi"
 *   stacktrace  the frames
 * Values print as numbers (.hex in hex), .percent as "name (%): P.PP",
 * .graph as a bar of '#' with no number.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/hist_text.h"

/* Room for one more element of @size in @arr of @n (capacity *@cap). */
static void *grow(struct arena *a, void *arr, size_t n, size_t *cap,
		  size_t size)
{
	void *more;

	if (n < *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 8;
	more = arena_alloc(a, *cap * size);
	if (n)
		memcpy(more, arr, n * size);
	return more;
}

#define PUSH(a, arr, n, cap) \
	((arr) = grow((a), (arr), (n), &(cap), sizeof(*(arr))), &(arr)[(n)++])

static char *trim(struct arena *a, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return arena_strndup(a, s, len);
}

static bool parse_u64(const char *s, int base, uint64_t *v, bool *neg)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	*neg = *s == '-';
	errno = 0;
	*v = *neg ? (uint64_t)strtoll(s, &end, base) : strtoull(s, &end, base);
	while (isspace((unsigned char)*end))
		end++;
	return !*end && errno == 0;
}

/* ---- the trigger info ---- */

static void parse_fields(struct arena *a, const char *list,
			 struct hist_field_spec **out, size_t *n)
{
	size_t cap = 0;
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		char *f = arena_strndup(a, p, len), *dot = strchr(f, '.');
		struct hist_field_spec *s = PUSH(a, *out, *n, cap);

		if (dot) {
			*dot = 0;
			s->mod = dot + 1;
			/* buckets=SIZE keeps its size out of the name */
			if (strncmp(s->mod, "buckets", 7) == 0)
				s->mod[7] = 0;
		}
		s->field = f;
		p += len + (p[len] == ',');
	}
}

static void parse_trigger(struct arena *a, struct hist_table *t,
			  const char *line)
{
	size_t len = strlen(line), cap_v = 0, cap_h = 0;
	const char *p, *end;
	char *body;

	t->trigger = trim(a, line, len);
	len = strlen(t->trigger);
	if (len >= 9 && strcmp(t->trigger + len - 9, " [paused]") == 0) {
		t->paused = true;
		len -= 9;
	} else if (len >= 9 && strcmp(t->trigger + len - 9, " [active]") == 0) {
		len -= 9;
	}
	body = arena_strndup(a, t->trigger, len);
	if ((p = strstr(body, " if "))) {
		t->filter = arena_strndup(a, p + 4, strlen(p + 4));
		body[p - body] = 0;
	}
	if (strncmp(body, "hist:", 5) == 0)
		body += 5;
	for (p = body; *p; p = *end ? end + 1 : end) {
		char *attr;

		end = p + strcspn(p, ":");
		attr = arena_strndup(a, p, (size_t)(end - p));
		if (strncmp(attr, "keys=", 5) == 0)
			parse_fields(a, attr + 5, &t->keys, &t->n_keys);
		else if (strncmp(attr, "vals=", 5) == 0)
			parse_fields(a, attr + 5, &t->vals, &t->n_vals);
		else if (strncmp(attr, "name=", 5) == 0)
			t->name = attr + 5;
		else if (strncmp(attr, "on", 2) == 0 && strchr(attr, '('))
			*PUSH(a, t->handlers, t->n_handlers, cap_h) = attr;
		else if (strchr(attr, '=') && strncmp(attr, "sort=", 5) &&
			 strncmp(attr, "size=", 5) && strncmp(attr, "clock=", 6))
			*PUSH(a, t->vars, t->n_vars, cap_v) = attr;
	}
}

/* ---- entries ---- */

static const struct hist_field_spec *val_spec(const struct hist_table *t,
					      const char *name)
{
	for (size_t i = 0; i < t->n_vals; i++)
		if (strcmp(t->vals[i].field, name) == 0)
			return &t->vals[i];
	return NULL;
}

/* Reads "name: value" pairs from @p (values of an entry, action lines). */
static void parse_pairs(struct arena *a, const struct hist_table *t,
			const char *p, struct hist_val **out, size_t *n)
{
	size_t cap = 0;

	for (;;) {
		const char *colon, *v, *e;
		struct hist_val *hv;
		const struct hist_field_spec *spec;
		bool neg;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || !(colon = strchr(p, ':')))
			return;
		hv = PUSH(a, *out, *n, cap);
		hv->name = trim(a, p, (size_t)(colon - p));
		v = colon + 1;
		while (*v == ' ')
			v++;
		e = v + strcspn(v, " \t");
		/* an empty graph bar: what follows is the next name */
		if (*e != ':' && e > v && e[-1] == ':')
			e = v;
		else if (*e == ' ' && strncmp(e, " (%):", 5) == 0)
			e = v;
		hv->text = arena_strndup(a, v, (size_t)(e - v));
		spec = val_spec(t, hv->name);
		if (strstr(hv->name, " (%)")) {
			hv->kind = HV_PERCENT;
			hv->pct = strtod(hv->text, NULL);
		} else if (spec && spec->mod && strcmp(spec->mod, "graph") == 0) {
			hv->kind = HV_GRAPH;
		} else if (parse_u64(hv->text, spec && spec->mod &&
				     strcmp(spec->mod, "hex") == 0 ? 16 : 10,
				     &hv->num, &neg)) {
			hv->kind = HV_NUM;
		} else {
			hv->kind = *hv->text || !strchr(v, '#') ? HV_TEXT :
				   HV_GRAPH;
		}
		p = e;
	}
}

static void parse_key(struct arena *a, struct hist_key *k, const char *s,
		      size_t len)
{
	const char *mod = k->spec ? k->spec->mod : NULL;
	char *text = trim(a, s, len), *lb;

	k->text = text;
	if (mod && strcmp(mod, "hex") == 0) {
		k->has_num = parse_u64(text, 16, &k->num, &k->negative);
	} else if (mod && strncmp(mod, "sym", 3) == 0 && text[0] == '[') {
		k->has_num = parse_u64(arena_strndup(a, text + 1,
				       strcspn(text + 1, "]")), 16, &k->num,
				       &k->negative);
		k->name = trim(a, text + strcspn(text, "]") + 1,
			       strlen(text + strcspn(text, "]") + 1));
	} else if (mod && (strcmp(mod, "execname") == 0 ||
			   strcmp(mod, "syscall") == 0) &&
		   (lb = strrchr(text, '['))) {
		k->name = trim(a, text, (size_t)(lb - text));
		k->has_num = parse_u64(arena_strndup(a, lb + 1,
				       strcspn(lb + 1, "]")), 10, &k->num,
				       &k->negative);
	} else if (mod && strcmp(mod, "log2") == 0 &&
		   strncmp(text, "~ 2^", 4) == 0) {
		k->has_num = parse_u64(text + 4, 10, &k->num, &k->negative);
	} else if (mod && strcmp(mod, "buckets") == 0 &&
		   strncmp(text, "~ ", 2) == 0) {
		char *dash = strchr(text + 2, '-');

		if (dash) {
			k->lo = strtoull(text + 2, NULL, 10);
			k->hi = strtoull(dash + 1, NULL, 10);
			k->num = k->lo;
			k->has_num = true;
		}
	} else if (strchr(text, '\n') || (k->spec &&
		   strstr(k->spec->field, "stacktrace"))) {
		size_t cap = 0;

		k->is_stack = true;
		for (const char *p = text; *p;) {
			size_t l = strcspn(p, "\n");
			char *f = trim(a, p, l);

			if (*f)
				*PUSH(a, k->frames, k->n_frames, cap) = f;
			p += l + (p[l] == '\n');
		}
		/* the frames, one a line, without the kernel's indent */
		k->text = arena_strndup(a, "", 0);
		for (size_t i = 0; i < k->n_frames; i++)
			k->text = arena_printf(a, "%s%s%s", k->text,
					       i ? "\n" : "", k->frames[i]);
	} else {
		k->has_num = parse_u64(text, 10, &k->num, &k->negative);
	}
}

/* Finds the last "NEEDLE" in [s, s+len). */
static const char *rfind(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = len >= n ? len - n + 1 : 0; i-- > 0;)
		if (memcmp(s + i, needle, n) == 0)
			return s + i;
	return NULL;
}

static int parse_entry(struct arena *a, struct hist_table *t,
		       const char *text)
{
	size_t len = strlen(text), klen;
	const char *first = t->n_vals ? t->vals[0].field : "hitcount";
	const char *close = NULL, *end;
	char pat[256];
	struct hist_entry *e;

	snprintf(pat, sizeof(pat), "} %s", first);
	close = rfind(text, len, pat);
	if (!close && !(close = strrchr(text, '}')))
		return 0;
	e = PUSH(a, t->entries, t->n_entries, t->cap_entries);
	e->n_keys = t->n_keys ? t->n_keys : 1;
	e->keys = arena_alloc(a, e->n_keys * sizeof(*e->keys));
	/* the keys, from the last one back */
	end = close;
	klen = (size_t)(close - text);
	for (size_t i = e->n_keys; i-- > 0;) {
		const char *name = t->n_keys ? t->keys[i].field : "";
		const char *at;

		snprintf(pat, sizeof(pat), i ? ", %s:" : "{ %s:", name);
		at = rfind(text, klen, pat);
		if (!at)
			at = text;
		e->keys[i].spec = t->n_keys ? &t->keys[i] : NULL;
		at += strlen(pat);
		parse_key(a, &e->keys[i], at, at <= end ? (size_t)(end - at) : 0);
		end = at - strlen(pat);
		klen = (size_t)(end - text);
	}
	parse_pairs(a, t, close + 1, &e->vals, &e->n_vals);
	return 0;
}

/* ---- the file ---- */

int hist_parse(struct arena *a, const char *text, struct hist_file *out)
{
	size_t cap_t = 0;
	struct hist_table *t = NULL;
	const char *p = text;
	char *pending = NULL;	/* an entry spread over lines (stacks) */
	bool snapshot = false;

	memset(out, 0, sizeof(*out));
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = arena_strndup(a, p, len);

		p += len + (p[len] == '\n');
		if (pending) {
			pending = arena_printf(a, "%s\n%s", pending, line);
			if (strchr(line, '}')) {
				parse_entry(a, t, pending);
				pending = NULL;
			}
			continue;
		}
		if (strcmp(line, "# event histogram") == 0) {
			t = PUSH(a, out->tables, out->n_tables, cap_t);
			snapshot = false;
			continue;
		}
		if (!t)
			continue;
		if (strncmp(line, "# trigger info: ", 16) == 0) {
			parse_trigger(a, t, line + 16);
		} else if (strncmp(line, "{ ", 2) == 0) {
			if (strchr(line, '}'))
				parse_entry(a, t, line);
			else
				pending = line;
		} else if (line[0] == '\t' && !snapshot && t->n_entries) {
			struct hist_entry *e = &t->entries[t->n_entries - 1];
			struct hist_action *act;
			size_t cap = e->n_actions;	/* grows each time */

			act = PUSH(a, e->actions, e->n_actions, cap);
			parse_pairs(a, t, line + 1, &act->vals, &act->n_vals);
			if (act->n_vals)
				act->handler = act->vals[0].name;
			else
				e->n_actions--;
		} else if (strncmp(line, "Snapshot taken", 14) == 0) {
			snapshot = true;
		} else if (snapshot && strncmp(line, "\ttriggering value { ",
					       20) == 0) {
			const char *h = strstr(line, "{ ");
			const char *he = strstr(line, " }:");
			const char *k = strstr(line, "key: ");

			if (h && he && (h += 2) <= he) {
				bool neg;

				t->has_snapshot = true;
				t->snap_handler = arena_strndup(a, h,
							(size_t)(he - h));
				parse_u64(arena_strndup(a, he + 3,
					  strcspn(he + 3, "\t")), 10,
					  &t->snap_value, &neg);
				t->snap_key = k ? trim(a, k + 5,
						       strlen(k + 5)) : NULL;
			}
		} else if (strcmp(line, "Totals:") == 0) {
			t->has_totals = true;
			snapshot = false;
		} else if (t->has_totals) {
			unsigned long long v;

			if (sscanf(line, "    Hits: %llu", &v) == 1)
				t->hits = v;
			else if (sscanf(line, "    Entries: %llu", &v) == 1)
				t->nr_entries = v;
			else if (sscanf(line, "    Dropped: %llu", &v) == 1)
				t->dropped = v;
		}
	}
	return 0;
}
