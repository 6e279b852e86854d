// SPDX-License-Identifier: GPL-2.0
/*
 * inject_parse.c - the injection line format (see inject.h and
 * docs/inject.md): a hand-written parser and packer.  No sscanf, no
 * allocation per line; events are found through a hash table and fields
 * by guessing the next field in format order, then by hash.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buffer/ring_buffer.h"
#include "buffer/saved_cmdlines.h"
#include "dispatch/dispatch.h"
#include "source/inject.h"
#include "trigger/trigger.h"
#include "util/rcu.h"

/* What a name on a line may set besides the event's own fields. */
enum {
	GEN_NONE, GEN_TS, GEN_CPU, GEN_PID, GEN_COMM, GEN_STACK,
};

struct finfo {
	const struct tf_field *f;
	uint32_t hash;
	unsigned short len;
	unsigned char elem;	/* element size of an array */
	unsigned short count;	/* elements of a static array */
};

struct einfo {
	const struct tf_event *ev;
	char *key;		/* "system:name" */
	size_t key_len;
	uint32_t hash;
	struct finfo *fields;
	unsigned nr_fields;
	unsigned fixed;		/* size of the fixed part, aligned */
	const struct tf_field *pid_f;	/* common_pid */
	const struct tf_field *type_f;	/* common_type */
	unsigned shadowed;	/* 1 << GEN_*: names the event's fields take */
};

/* A variable-length value waiting to be appended after the fixed part. */
struct pending {
	const char *val;
	size_t len;
	int quoted;
};

struct tf_inject {
	const struct tf_registry *reg;
	struct einfo *events;
	unsigned nr_events;
	unsigned *table;	/* hash -> event index + 1; 0 = empty */
	unsigned mask;
	unsigned max_fields;
	uint32_t *seen;		/* per field: stamp of the line that set it */
	uint32_t stamp;
	struct pending *pend;	/* per field */
	struct einfo *last;	/* the previous line's event */
	char *scratch;		/* unescaped strings of the line */
	size_t scratch_cap;
	uint64_t data[TF_INJECT_MAX_RECORD / 8 + 1];
	uint64_t stack[TF_INJECT_MAX_STACK];
	char comm[TF_COMM_LEN];
	struct tf_record rec;
	char err[512];
};

static inline uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Size of one element of an array field, from its type's spelling. */
static unsigned type_elem_size(const char *type)
{
	if (strstr(type, "64") || strstr(type, "long"))
		return 8;
	if (strstr(type, "32") || strstr(type, "int"))
		return 4;
	if (strstr(type, "16") || strstr(type, "short"))
		return 2;
	return 1;
}

static int generic_name(const char *s, size_t n);

static void field_info(struct finfo *fi, const struct tf_field *f)
{
	const char *br = strchr(f->type, '[');

	fi->f = f;
	fi->len = (unsigned short)strlen(f->name);
	fi->hash = hash_bytes(f->name, fi->len);
	fi->elem = (unsigned char)type_elem_size(f->type);
	fi->count = 0;
	if (f->kind == TF_FIELD_ARRAY || f->kind == TF_FIELD_CPUMASK) {
		unsigned long n = br ? strtoul(br + 1, NULL, 10) : 0;

		if (n && f->size && f->size % n == 0) {
			fi->elem = (unsigned char)(f->size / n);
			fi->count = (unsigned short)n;
		} else if (f->size) {
			fi->count = (unsigned short)(f->size / fi->elem);
		}
	}
}

static unsigned field_align(const struct finfo *fi)
{
	const struct tf_field *f = fi->f;
	unsigned a;

	switch (f->kind) {
	case TF_FIELD_NUM:
	case TF_FIELD_STR_PTR:
		a = f->size;
		break;
	case TF_FIELD_STR_DYN:
	case TF_FIELD_STR_REL:
	case TF_FIELD_DYN_ARRAY:
		a = 4;
		break;
	case TF_FIELD_ARRAY:
	case TF_FIELD_CPUMASK:
		a = fi->elem;
		break;
	default:
		a = 1;
	}
	if (a != 1 && a != 2 && a != 4 && a != 8)
		a = 1;
	return a;
}

/* Describes event @ev for the parser in @e. */
static int event_info(struct einfo *e, const struct tf_event *ev)
{
	unsigned end = 0, align = 1;

	e->ev = ev;
	e->key_len = strlen(ev->system) + 1 + strlen(ev->name);
	e->key = malloc(e->key_len + 1);
	e->fields = calloc(ev->nr_fields ? ev->nr_fields : 1,
			   sizeof(*e->fields));
	if (!e->key || !e->fields)
		return -ENOMEM;
	snprintf(e->key, e->key_len + 1, "%s:%s", ev->system, ev->name);
	e->hash = hash_bytes(e->key, e->key_len);
	e->nr_fields = ev->nr_fields;
	for (unsigned j = 0; j < ev->nr_fields; j++) {
		const struct tf_field *f = &ev->fields[j];
		unsigned a;

		field_info(&e->fields[j], f);
		a = field_align(&e->fields[j]);
		if (a > align)
			align = a;
		if (f->offset + f->size > end)
			end = f->offset + f->size;
		e->shadowed |= 1u << generic_name(f->name, strlen(f->name));
		if (!strcmp(f->name, "common_pid"))
			e->pid_f = f;
		else if (!strcmp(f->name, "common_type"))
			e->type_f = f;
	}
	/* sizeof(struct trace_event_raw_*): its alignment pads it */
	e->fixed = (end + align - 1) / align * align;
	return 0;
}

/*
 * Takes in the registry's events the parser does not know yet: all of
 * them when it is made, and those a replay added to the mounted tree
 * since (the registry only grows; entries below its count are
 * complete).  The parser's own tables are rebuilt; p->last is dropped
 * (it pointed into the old array).
 */
static int take_new_events(struct tf_inject *p)
{
	unsigned nr = p->reg->nr_events, size = 16, max_fields;
	struct einfo *events;
	unsigned *table;

	if (nr == p->nr_events && p->table)
		return 0;
	events = realloc(p->events, (nr ? nr : 1) * sizeof(*events));
	if (!events)
		return -ENOMEM;
	p->events = events;
	p->last = NULL;
	memset(events + p->nr_events, 0,
	       (nr - p->nr_events) * sizeof(*events));
	max_fields = p->max_fields;
	for (unsigned i = p->nr_events; i < nr; i++) {
		const struct tf_event *ev = tf_registry_event(p->reg, i);

		/* synthetic events come from hist actions only (and may
		 * go away): no injection line names one */
		if (!ev || ev->dyn)
			continue;
		if (event_info(&events[i], ev) < 0) {
			/* nothing taken: the next miss tries again */
			for (unsigned j = p->nr_events; j <= i; j++) {
				free(events[j].key);
				free(events[j].fields);
			}
			return -ENOMEM;
		}
		if (ev->nr_fields > max_fields)
			max_fields = ev->nr_fields;
	}
	if (max_fields > p->max_fields || !p->seen) {
		uint32_t *seen = calloc(max_fields + 1, sizeof(*seen));
		struct pending *pend = calloc(max_fields + 1, sizeof(*pend));

		if (!seen || !pend) {
			free(seen);
			free(pend);
			goto fail;
		}
		free(p->seen);
		free(p->pend);
		p->seen = seen;
		p->pend = pend;
		p->max_fields = max_fields;
	}
	while (size < 2 * nr)
		size <<= 1;
	table = calloc(size, sizeof(*table));
	if (!table)
		goto fail;
	for (unsigned i = 0; i < nr; i++) {
		unsigned h;

		if (!events[i].key)
			continue;
		for (h = events[i].hash & (size - 1); table[h];
		     h = (h + 1) & (size - 1))
			;
		table[h] = i + 1;
	}
	free(p->table);
	p->table = table;
	p->mask = size - 1;
	p->nr_events = nr;
	return 0;
fail:
	for (unsigned i = p->nr_events; i < nr; i++) {
		free(events[i].key);
		free(events[i].fields);
	}
	return -ENOMEM;
}

struct tf_inject *tf_inject_new(const struct tf_registry *reg)
{
	struct tf_inject *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->reg = reg;
	if (take_new_events(p) < 0) {
		tf_inject_free(p);
		return NULL;
	}
	return p;
}

void tf_inject_free(struct tf_inject *p)
{
	if (!p)
		return;
	for (unsigned i = 0; p->events && i < p->nr_events; i++) {
		free(p->events[i].key);
		free(p->events[i].fields);
	}
	free(p->events);
	free(p->table);
	free(p->seen);
	free(p->pend);
	free(p->scratch);
	free(p);
}

const struct tf_record *tf_inject_record(const struct tf_inject *p)
{
	return &p->rec;
}

const char *tf_inject_error(const struct tf_inject *p)
{
	return p->err;
}

__attribute__((format(printf, 3, 4)))
static int fail(struct tf_inject *p, unsigned long lineno, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, sizeof(p->err), "line %lu: ", lineno);
	va_start(ap, fmt);
	vsnprintf(p->err + n, sizeof(p->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A value for a message: quoted, cut short when long. */
static const char *show(char *buf, size_t size, const char *s, size_t n)
{
	if (n > size - 8)
		snprintf(buf, size, "\"%.*s...\"", (int)(size - 8), s);
	else
		snprintf(buf, size, "\"%.*s\"", (int)n, s);
	return buf;
}

static struct einfo *lookup_event(struct tf_inject *p, const char *s,
				  size_t n, uint32_t h)
{
	for (unsigned i = h & p->mask; p->table[i]; i = (i + 1) & p->mask) {
		struct einfo *e = &p->events[p->table[i] - 1];

		if (e->hash == h && e->key_len == n && !memcmp(e->key, s, n))
			return p->last = e;
	}
	return NULL;
}

static struct einfo *find_event(struct tf_inject *p, const char *s, size_t n)
{
	struct einfo *e;
	uint32_t h;

	if (p->last && p->last->key_len == n && !memcmp(p->last->key, s, n))
		return p->last;
	h = hash_bytes(s, n);
	e = lookup_event(p, s, n, h);
	/* a replay may have added events to the tree since: look again */
	if (!e && p->reg->nr_events != p->nr_events &&
	    take_new_events(p) == 0)
		e = lookup_event(p, s, n, h);
	return e;
}

static int find_field(const struct einfo *e, unsigned guess, const char *s,
		      size_t n)
{
	uint32_t h;

	if (guess < e->nr_fields && e->fields[guess].len == n &&
	    !memcmp(e->fields[guess].f->name, s, n))
		return (int)guess;
	h = hash_bytes(s, n);
	for (unsigned i = 0; i < e->nr_fields; i++)
		if (e->fields[i].hash == h && e->fields[i].len == n &&
		    !memcmp(e->fields[i].f->name, s, n))
			return (int)i;
	return -1;
}

static int generic_name(const char *s, size_t n)
{
#define IS(lit) (n == sizeof(lit) - 1 && !memcmp(s, lit, n))
	if (IS("ts") || IS("common_timestamp"))
		return GEN_TS;
	if (IS("cpu") || IS("common_cpu"))
		return GEN_CPU;
	if (IS("pid"))
		return GEN_PID;
	if (IS("comm") || IS("common_comm"))
		return GEN_COMM;
	if (IS("stack") || IS("common_stacktrace"))
		return GEN_STACK;
#undef IS
	return GEN_NONE;
}

/*
 * The kernel's kstrtoull() with base 0 ("0x" hex, leading 0 octal,
 * otherwise decimal), with an optional '-'.  Returns 0, or an error text.
 */
static const char *parse_int(const char *s, size_t n, uint64_t *mag, int *neg)
{
	uint64_t v = 0;
	size_t i = 0;
	unsigned base = 10;

	*neg = 0;
	if (n && (s[0] == '-' || s[0] == '+')) {
		*neg = s[0] == '-';
		i++;
	}
	if (i == n)
		return "invalid number";
	if (n - i > 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
		if (i == n)
			return "invalid number";
	} else if (n - i > 1 && s[i] == '0') {
		base = 8;
		i++;
	}
	for (; i < n; i++) {
		unsigned c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return "invalid number";
		if (d >= base)
			return "invalid number";
		if (__builtin_mul_overflow(v, base, &v) ||
		    __builtin_add_overflow(v, d, &v))
			return "number out of range";
	}
	*mag = v;
	return NULL;
}

/*
 * An integer of @size bytes: unsigned values up to the size's maximum;
 * signed ones also take negative values down to its minimum (and their
 * unsigned bit pattern).
 */
static const char *parse_num(const char *s, size_t n, unsigned size,
			     int is_signed, uint64_t *out)
{
	uint64_t mag, max = size >= 8 ? UINT64_MAX : (1ull << (size * 8)) - 1;
	int neg;
	const char *err = parse_int(s, n, &mag, &neg);

	if (err)
		return err;
	if (neg) {
		uint64_t lim = size >= 8 ? 1ull << 63 : 1ull << (size * 8 - 1);

		if (!is_signed && mag)
			return "negative value for an unsigned field";
		if (mag > lim)
			return "number out of range";
		*out = (uint64_t)0 - mag;
		return NULL;
	}
	if (mag > max)
		return "number out of range";
	*out = mag;
	return NULL;
}

static void put_num(uint8_t *dst, unsigned size, uint64_t v)
{
	switch (size) {
	case 1: *dst = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
	case 8: memcpy(dst, &v, 8); break;
	}
}

/* "S.FFFFFFFFF" seconds (as `trace` prints them) or plain nanoseconds. */
static const char *parse_ts(const char *s, size_t n, uint64_t *out)
{
	const char *dot = memchr(s, '.', n);
	uint64_t sec, frac = 0;
	size_t fl;
	int neg;
	const char *err;

	if (!dot)
		return parse_num(s, n, 8, 0, out);
	if (dot == s || (err = parse_int(s, (size_t)(dot - s), &sec, &neg)) ||
	    neg)
		return "invalid timestamp";
	fl = n - (size_t)(dot - s) - 1;
	if (fl == 0 || fl > 9)
		return "invalid timestamp";
	for (size_t i = 0; i < fl; i++) {
		char c = dot[1 + i];

		if (c < '0' || c > '9')
			return "invalid timestamp";
		frac = frac * 10 + (uint64_t)(c - '0');
	}
	for (size_t i = fl; i < 9; i++)
		frac *= 10;
	if (sec > (UINT64_MAX - frac) / 1000000000ull)
		return "number out of range";
	*out = sec * 1000000000ull + frac;
	return NULL;
}

/*
 * A comma-separated list of integers of @elem bytes into @dst, at most
 * @max of them; *count is set to how many.
 */
static const char *parse_list(const char *s, size_t n, unsigned elem,
			      uint8_t *dst, size_t max, size_t *count)
{
	size_t k = 0;

	*count = 0;
	if (n == 0)
		return NULL;
	for (;;) {
		const char *c = memchr(s, ',', n);
		size_t l = c ? (size_t)(c - s) : n;
		uint64_t v;
		const char *err;

		if (k == max)
			return "too many elements";
		err = parse_num(s, l, elem, 1, &v);
		if (err)
			return err;
		if (dst)
			put_num(dst + k * elem, elem, v);
		k++;
		if (!c)
			break;
		s = c + 1;
		n -= l + 1;
	}
	*count = k;
	return NULL;
}

/* Unescapes a quoted value (after the opening quote) into p->scratch. */
static const char *unquote(struct tf_inject *p, const char *s, const char *end,
			   const char **after, size_t *len, char **outp)
{
	char *o = *outp, *start = o;

	for (; s < end; s++) {
		char c = *s;

		if (c == '"') {
			*after = s + 1;
			*len = (size_t)(o - start);
			*outp = o;
			return NULL;
		}
		if (c == '\\') {
			if (++s == end)
				break;
			switch (*s) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case '0': c = '\0'; break;
			case '\\': c = '\\'; break;
			case '"': c = '"'; break;
			case 'x': {
				int v = 0;

				for (int k = 0; k < 2; k++) {
					char h = ++s < end ? *s : 0;

					if (h >= '0' && h <= '9') v = v * 16 + h - '0';
					else if (h >= 'a' && h <= 'f') v = v * 16 + h - 'a' + 10;
					else if (h >= 'A' && h <= 'F') v = v * 16 + h - 'A' + 10;
					else return "bad \\x escape";
				}
				c = (char)v;
				break;
			}
			default:
				return "unknown escape";
			}
		}
		*o++ = c;
	}
	(void)p;
	return "unterminated quoted string";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const char *kind_name(const struct tf_field *f)
{
	return f->type;
}

int tf_inject_parse(struct tf_inject *p, const char *line, size_t len,
		    unsigned long lineno)
{
	const char *s = line, *end = line + len, *tok;
	uint8_t *data = (uint8_t *)p->data;
	struct einfo *e;
	unsigned guess = 0, size, nr_stack = 0, tail_field = ~0u;
	uint64_t ts = 0, cpu = 0;
	int have_ts = 0, have_comm = 0, have_pid = 0;
	int gen_seen[GEN_STACK + 1] = { 0 };
	char *scr;
	char vb[80];

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s == end || *s == '#')
		return 0;
	if (len > p->scratch_cap) {
		char *n = realloc(p->scratch, len);

		if (!n)
			return fail(p, lineno, "out of memory");
		p->scratch = n;
		p->scratch_cap = len;
	}
	scr = p->scratch;
	tok = s;
	while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
		s++;
	e = find_event(p, tok, (size_t)(s - tok));
	if (!e) {
		if (!memchr(tok, ':', (size_t)(s - tok)))
			return fail(p, lineno, "%s: expected SYSTEM:EVENT",
				    show(vb, sizeof(vb), tok, (size_t)(s - tok)));
		return fail(p, lineno, "unknown event %s",
			    show(vb, sizeof(vb), tok, (size_t)(s - tok)));
	}
	if (++p->stamp == 0) {
		memset(p->seen, 0, (p->max_fields + 1) * sizeof(*p->seen));
		p->stamp = 1;
	}
	memset(data, 0, e->fixed);

	for (;;) {
		const char *name, *val;
		size_t nl, vl;
		int fi, gen = GEN_NONE, quoted = 0;
		const char *err = NULL;

		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == end)
			break;
		name = s;
		while (s < end && *s != '=' && *s != ' ' && *s != '\t')
			s++;
		nl = (size_t)(s - name);
		if (s == end || *s != '=' || nl == 0)
			return fail(p, lineno, "%s: expected NAME=VALUE",
				    show(vb, sizeof(vb), name, nl));
		s++;
		if (s < end && *s == '"') {
			char *o = scr;

			err = unquote(p, s + 1, end, &s, &vl, &o);
			if (err)
				return fail(p, lineno, "field \"%.*s\": %s",
					    (int)nl, name, err);
			val = scr;
			scr = o;
			quoted = 1;
			if (s < end && *s != ' ' && *s != '\t' && *s != '\r')
				return fail(p, lineno, "field \"%.*s\": text "
					    "after the closing quote",
					    (int)nl, name);
		} else {
			val = s;
			while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
				s++;
			vl = (size_t)(s - val);
		}
		/* the next field in format order, a generic name the event
		 * does not shadow, then any field */
		fi = -1;
		if (guess < e->nr_fields && e->fields[guess].len == nl &&
		    !memcmp(e->fields[guess].f->name, name, nl))
			fi = (int)guess;
		else if ((gen = generic_name(name, nl)) == GEN_NONE ||
			 (e->shadowed & (1u << gen)))
			fi = find_field(e, guess, name, nl);
		if (fi >= 0)
			gen = GEN_NONE;
		if (fi < 0) {
			if (gen == GEN_NONE)
				return fail(p, lineno, "field \"%.*s\": no such "
					    "field in %s", (int)nl, name,
					    e->key);
			if (gen_seen[gen])
				return fail(p, lineno, "field \"%.*s\": given "
					    "twice", (int)nl, name);
			gen_seen[gen] = 1;
		} else {
			if (p->seen[fi] == p->stamp)
				return fail(p, lineno, "field \"%.*s\": given "
					    "twice", (int)nl, name);
			p->seen[fi] = p->stamp;
			guess = (unsigned)fi + 1;
		}
		if (gen != GEN_NONE) {
			switch (gen) {
			case GEN_TS:
				err = parse_ts(val, vl, &ts);
				have_ts = 1;
				break;
			case GEN_CPU:
				err = parse_num(val, vl, 4, 0, &cpu);
				break;
			case GEN_PID: {
				uint64_t v;

				err = parse_num(val, vl, e->pid_f ?
						e->pid_f->size : 4, 1, &v);
				if (!err && e->pid_f)
					put_num(data + e->pid_f->offset,
						e->pid_f->size, v);
				have_pid = 1;
				break;
			}
			case GEN_COMM:
				if (vl >= TF_COMM_LEN)
					err = "string longer than 15 bytes";
				else if (memchr(val, '\0', vl))
					err = "NUL byte in string";
				else {
					memcpy(p->comm, val, vl);
					p->comm[vl] = '\0';
					have_comm = 1;
				}
				break;
			case GEN_STACK: {
				size_t k;

				err = parse_list(val, vl, 8, (uint8_t *)p->stack,
						 TF_INJECT_MAX_STACK, &k);
				nr_stack = (unsigned)k;
				break;
			}
			}
			if (err)
				return fail(p, lineno, "field \"%.*s\": %s %s",
					    (int)nl, name, err,
					    show(vb, sizeof(vb), val, vl));
			continue;
		}

		{
			const struct finfo *fin = &e->fields[fi];
			const struct tf_field *f = fin->f;
			uint64_t v;
			size_t k;

			if (f == e->type_f)
				return fail(p, lineno, "field \"%.*s\": set by "
					    "the event name", (int)nl, name);
			switch (f->kind) {
			case TF_FIELD_NUM:
			case TF_FIELD_STR_PTR:
				if (f->size != 1 && f->size != 2 &&
				    f->size != 4 && f->size != 8)
					return fail(p, lineno, "field \"%.*s\": "
						    "cannot set a %s", (int)nl,
						    name, kind_name(f));
				err = parse_num(val, vl, f->size, f->is_signed,
						&v);
				if (!err)
					put_num(data + f->offset, f->size, v);
				if (f == e->pid_f)
					have_pid = 1;
				break;
			case TF_FIELD_STR_STATIC:
				if (memchr(val, '\0', vl)) {
					err = "NUL byte in string";
					break;
				}
				if (f->size == 0) {	/* char buf[]: the tail */
					tail_field = (unsigned)fi;
					p->pend[fi] = (struct pending){ val, vl,
									quoted };
					break;
				}
				if (vl >= f->size) {
					return fail(p, lineno, "field \"%.*s\": "
						    "string of %zu bytes too "
						    "long for %s (at most %u)",
						    (int)nl, name, vl, f->type,
						    f->size - 1);
				}
				memcpy(data + f->offset, val, vl);
				break;
			case TF_FIELD_STR_DYN:
			case TF_FIELD_STR_REL:
				if (memchr(val, '\0', vl))
					err = "NUL byte in string";
				else
					p->pend[fi] = (struct pending){ val, vl,
									quoted };
				break;
			case TF_FIELD_DYN_ARRAY:
				err = parse_list(val, vl, fin->elem, NULL,
						 TF_INJECT_MAX_RECORD, &k);
				if (!err)
					p->pend[fi] = (struct pending){ val, vl,
									quoted };
				break;
			case TF_FIELD_CPUMASK:
				if (strstr(f->type, "__data_loc")) {
					err = parse_list(val, vl, 8, NULL,
							 TF_INJECT_MAX_RECORD, &k);
					if (!err)
						p->pend[fi] = (struct pending){
							val, vl, quoted };
					break;
				}
				/* a static mask */
				__attribute__((fallthrough));
			case TF_FIELD_ARRAY:
				if (f->size == 0) {	/* u32 buf[]: the tail */
					err = parse_list(val, vl, fin->elem,
							 NULL,
							 TF_INJECT_MAX_RECORD,
							 &k);
					if (!err) {
						tail_field = (unsigned)fi;
						p->pend[fi] = (struct pending){
							val, vl, quoted };
					}
					break;
				}
				err = parse_list(val, vl, fin->elem,
						 data + f->offset, fin->count, &k);
				break;
			}
			if (err)
				return fail(p, lineno, "field \"%.*s\": %s %s",
					    (int)nl, name, err,
					    show(vb, sizeof(vb), val, vl));
		}
	}
	(void)have_pid;

	/* the variable parts, in field order, after the fixed part */
	size = e->fixed;
	put_num(data + e->type_f->offset, e->type_f->size,
		(uint64_t)e->ev->id);
	for (unsigned i = 0; i < e->nr_fields; i++) {
		const struct finfo *fin = &e->fields[i];
		const struct tf_field *f = fin->f;
		const struct pending *pv = &p->pend[i];
		int given = p->seen[i] == p->stamp;
		size_t n = 0, k;
		uint32_t loc;

		if (f->kind == TF_FIELD_STR_DYN || f->kind == TF_FIELD_STR_REL) {
			n = (given ? pv->len : 0) + 1;	/* with its NUL */
			if (size + n > TF_INJECT_MAX_RECORD || n > 0xffff)
				goto too_big;
			if (given)
				memcpy(data + size, pv->val, pv->len);
			data[size + n - 1] = '\0';
		} else if (f->kind == TF_FIELD_DYN_ARRAY ||
			   (f->kind == TF_FIELD_CPUMASK &&
			    strstr(f->type, "__data_loc"))) {
			unsigned el = f->kind == TF_FIELD_CPUMASK ? 8 : fin->elem;

			if (given) {
				if (parse_list(pv->val, pv->len, el, NULL,
					       TF_INJECT_MAX_RECORD, &k) ||
				    size + k * el > TF_INJECT_MAX_RECORD)
					goto too_big;
				parse_list(pv->val, pv->len, el, data + size,
					   k, &k);
				n = k * el;
			}
		} else {
			continue;
		}
		loc = (uint32_t)n << 16;
		if (f->kind == TF_FIELD_STR_REL)
			loc |= (size - (f->offset + 4)) & 0xffff;
		else
			loc |= size & 0xffff;
		put_num(data + f->offset, 4, loc);
		size += (unsigned)n;
	}
	if (tail_field != ~0u) {
		const struct finfo *fin = &e->fields[tail_field];
		const struct pending *pv = &p->pend[tail_field];
		size_t k;

		/* the tail starts at its offset: the fixed part ends there */
		size = fin->f->offset;
		if (fin->f->kind == TF_FIELD_STR_STATIC) {
			if (size + pv->len + 1 > TF_INJECT_MAX_RECORD)
				goto too_big;
			memcpy(data + size, pv->val, pv->len);
			size += (unsigned)pv->len;
			data[size++] = '\0';
		} else {
			if (parse_list(pv->val, pv->len, fin->elem, NULL,
				       TF_INJECT_MAX_RECORD, &k) ||
			    size + k * fin->elem > TF_INJECT_MAX_RECORD)
				goto too_big;
			parse_list(pv->val, pv->len, fin->elem, data + size,
				   k, &k);
			size += (unsigned)(k * fin->elem);
		}
	}
	p->rec = (struct tf_record) {
		.event = e->ev,
		.data = data,
		.size = size,
		.ts = have_ts ? ts : now_ns(),
		.cpu = (int)cpu,
		.comm = have_comm ? p->comm : NULL,
		.stack = nr_stack ? p->stack : NULL,
		.nr_stack = nr_stack,
		/* ftrace:print and friends: written, as trace_marker */
		.written = strcmp(e->ev->system, "ftrace") == 0,
	};
	return 1;
too_big:
	return fail(p, lineno, "record longer than %u bytes",
		    TF_INJECT_MAX_RECORD);
}

/* ---- streams ---------------------------------------------------------- */

void tf_inject_stream_init(struct tf_inject_stream *s, struct tf_inject *p,
			   struct tf_tracing *t, tf_inject_error_fn fn,
			   void *arg)
{
	memset(s, 0, sizeof(*s));
	s->parser = p;
	s->tracing = t;
	s->on_error = fn;
	s->arg = arg;
}

/*
 * Records of one fed chunk share a read-side section, TF_DISPATCH_BATCH
 * at a time (as replay's); it ends before anything that may block (an
 * error reported to the client's socket) and at the end of the chunk.
 */
static void batch_end(struct tf_inject_stream *s)
{
	if (s->batch) {
		tf_dispatch_batch_end();
		s->batch = 0;
	}
}

static void one_line(struct tf_inject_stream *s, const char *line, size_t len)
{
	int r;

	s->lineno++;
	r = tf_inject_parse(s->parser, line, len, s->lineno);
	if (r < 0) {
		s->errors++;
		batch_end(s);
		if (s->on_error)
			s->on_error(s->arg, tf_inject_error(s->parser));
		return;
	}
	if (r == 0)
		return;
	s->records++;
	if (s->tracing) {
		struct tf_record rec = *tf_inject_record(s->parser);

		if (rec.cpu >= s->tracing->nr_cpus)
			rec.cpu %= s->tracing->nr_cpus;
		if (!s->batch++)
			tf_dispatch_batch_begin();
		tf_dispatch_locked(s->tracing, &rec);
		if (s->batch == TF_DISPATCH_BATCH)
			batch_end(s);
	}
}

static void too_long(struct tf_inject_stream *s)
{
	char msg[96];

	s->lineno++;
	s->errors++;
	batch_end(s);
	snprintf(msg, sizeof(msg), "line %lu: line longer than %u bytes",
		 s->lineno, TF_INJECT_MAX_LINE);
	if (s->on_error)
		s->on_error(s->arg, msg);
}

static void partial_add(struct tf_inject_stream *s, const char *buf, size_t n)
{
	if (s->skipping)
		return;
	if (s->partial_len + n > TF_INJECT_MAX_LINE) {
		s->skipping = 1;
		s->partial_len = 0;
		return;
	}
	if (s->partial_len + n > s->partial_cap) {
		size_t cap = s->partial_cap ? s->partial_cap : 256;
		char *m;

		while (cap < s->partial_len + n)
			cap *= 2;
		m = realloc(s->partial, cap);
		if (!m) {
			s->skipping = 1;
			s->partial_len = 0;
			return;
		}
		s->partial = m;
		s->partial_cap = cap;
	}
	memcpy(s->partial + s->partial_len, buf, n);
	s->partial_len += n;
}

/* The end of a line that began in an earlier chunk. */
static void partial_end(struct tf_inject_stream *s)
{
	if (s->skipping)
		too_long(s);
	else
		one_line(s, s->partial, s->partial_len);
	s->skipping = 0;
	s->partial_len = 0;
}

void tf_inject_stream_feed(struct tf_inject_stream *s, const char *buf,
			   size_t len)
{
	const char *end = buf + len, *nl;

	if (s->partial_len || s->skipping) {
		nl = memchr(buf, '\n', len);
		if (!nl) {
			partial_add(s, buf, len);
			return;
		}
		partial_add(s, buf, (size_t)(nl - buf));
		partial_end(s);
		batch_end(s);
		buf = nl + 1;
	}
	while (buf < end && (nl = memchr(buf, '\n', (size_t)(end - buf)))) {
		if ((size_t)(nl - buf) > TF_INJECT_MAX_LINE)
			too_long(s);
		else
			one_line(s, buf, (size_t)(nl - buf));
		buf = nl + 1;
	}
	batch_end(s);
	if (buf < end)
		partial_add(s, buf, (size_t)(end - buf));
}

void tf_inject_stream_finish(struct tf_inject_stream *s)
{
	if (s->partial_len || s->skipping)
		partial_end(s);
	batch_end(s);
}

size_t tf_inject_stream_abandon(struct tf_inject_stream *s)
{
	size_t dropped = s->partial_len;

	if (!s->partial_len && !s->skipping)
		dropped = 0;
	else if (!dropped)
		dropped = 1;		/* inside an over-long line */
	s->skipping = 0;
	s->partial_len = 0;
	batch_end(s);
	return dropped;
}

void tf_inject_stream_release(struct tf_inject_stream *s)
{
	free(s->partial);
	s->partial = NULL;
	s->partial_len = s->partial_cap = 0;
}
