// SPDX-License-Identifier: GPL-2.0
/*
 * synth_event.c - the synthetic event itself: its fields, the registry
 * event that presents it (format text, print fmt, id), its lifetime in
 * a tracing context, its line in `trace` (the kernel's
 * print_synth_event()) and the event path that generates its records
 * (trace_event_raw_event_synth()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dispatch/dispatch.h"
#include "events/ksyms.h"
#include "synth/synth_internal.h"
#include "util/kstrto.h"
#include "util/rcu.h"
#include "util/short_copy.h"
#include <urcu/rculist.h>

/* The kernel's ida of event types starts above its own entry types. */
#define FIRST_DYN_ID		20	/* __TRACE_LAST_TYPE */
#define COMMON_SIZE		8	/* struct trace_entry */
#define STACK_DEPTH		16	/* HIST_STACKTRACE_DEPTH */
#define MAX_STRING_SIZE		4096	/* PATH_MAX: fetch_store_strlen() */
/* The largest record the kernel's ring buffer reserves (BUF_MAX_DATA_SIZE
 * of a 4096-byte page); a bigger synthetic event is not generated. */
#define MAX_RECORD		4072
/* Nested generation (a synthetic event's action tracing another) stops
 * here, as the kernel's recursion protection stops a loop. */
#define MAX_NESTING		8

/* ---- field types: the kernel's synth_field_*() ---- */

bool tf_synth_type_is_string(const char *type)
{
	return strstr(type, "char[") != NULL;
}

bool tf_synth_type_is_stack(const char *type)
{
	return strstr(type, "long[") != NULL;
}

/* char[N]: N (0 for char[]), -EINVAL when N is not 0..256 in 3 chars */
static int string_size(const char *type)
{
	const char *start = strstr(type, "char["), *end;
	char buf[4];
	uint64_t size;
	size_t len;

	if (!start)
		return -EINVAL;
	start += strlen("char[");
	end = strchr(type, ']');
	if (!end || end < start || type + strlen(type) > end + 1)
		return -EINVAL;
	len = (size_t)(end - start);
	if (len > 3)
		return -EINVAL;
	if (len == 0)
		return 0;
	memcpy(buf, start, len);
	buf[len] = '\0';
	if (tf_kstrtoull(buf, 0, &size) < 0 || size > TF_STR_VAR_LEN_MAX)
		return -EINVAL;
	return (int)size;
}

static const struct {
	const char *type;
	int size;
	const char *fmt;
} num_types[] = {
	{ "s64", 8, "%lld" }, { "u64", 8, "%llu" },
	{ "s32", 4, "%d" }, { "u32", 4, "%u" },
	{ "s16", 2, "%d" }, { "u16", 2, "%u" },
	{ "s8", 1, "%d" }, { "u8", 1, "%u" },
	{ "char", 1, "%d" }, { "unsigned char", 1, "%u" },
	{ "int", 4, "%d" }, { "unsigned int", 4, "%u" },
	{ "long", 8, "%ld" }, { "unsigned long", 8, "%lu" },
	{ "bool", 1, "%d" }, { "pid_t", 4, "%d" }, { "gfp_t", 4, "%x" },
};
#define NR_NUM_TYPES (sizeof(num_types) / sizeof(num_types[0]))

int tf_synth_field_size(const char *type)
{
	for (unsigned i = 0; i < NR_NUM_TYPES; i++)
		if (strcmp(type, num_types[i].type) == 0)
			return num_types[i].size;
	if (tf_synth_type_is_string(type))
		return string_size(type);
	return 0;	/* a stack, or not a type */
}

/* synth_field_fmt(): what print fmt and the verbose option show */
static const char *field_fmt(const char *type)
{
	for (unsigned i = 0; i < NR_NUM_TYPES; i++)
		if (strcmp(type, num_types[i].type) == 0)
			return num_types[i].fmt;
	if (tf_synth_type_is_string(type) || tf_synth_type_is_stack(type))
		return "%s";
	return "%llu";
}

void tf_synth_field_init(struct tf_synth_field *f, char *type, char *name,
			 int size)
{
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->name = name;
	f->size = (unsigned)size;
	f->is_dynamic = strncmp(type, "__data_loc ", 11) == 0;
	if (tf_synth_type_is_string(type))
		f->is_string = true;
	else if (tf_synth_type_is_stack(type))
		f->is_stack = true;
	/* synth_field_signed(), on the type as it ends up */
	f->is_signed = type[0] != 'u' && strcmp(type, "gfp_t") != 0;
}

void tf_synth_fields_free(struct tf_synth_field *fields, unsigned n)
{
	for (unsigned i = 0; fields && i < n; i++) {
		free(fields[i].type);
		free(fields[i].name);
	}
	free(fields);
}

/* ---- the registry event: fields, format and print fmt ---- */

static const struct tf_field common_fields[] = {
	{ "common_type", "unsigned short", 0, 2, false, true, TF_FIELD_NUM },
	{ "common_flags", "unsigned char", 2, 1, false, true, TF_FIELD_NUM },
	{ "common_preempt_count", "unsigned char", 3, 1, false, true,
	  TF_FIELD_NUM },
	{ "common_pid", "int", 4, 4, true, true, TF_FIELD_NUM },
};
#define NR_COMMON (sizeof(common_fields) / sizeof(common_fields[0]))

/*
 * synth_event_define_fields(): a u64 slot per field, STR_VAR_LEN_MAX
 * bytes for a static string; the tf_field of each as a filter or a
 * hist reads it.
 */
static void define_fields(struct synth_entry *e)
{
	struct tf_synth_event *se = &e->se;
	unsigned n_u64 = 0;

	memcpy(e->tfields, common_fields, sizeof(common_fields));
	for (unsigned i = 0; i < se->n_fields; i++) {
		struct tf_synth_field *f = &se->fields[i];
		struct tf_field *tf = &e->tfields[NR_COMMON + i];

		f->offset = n_u64;
		f->field_pos = i;
		*tf = (struct tf_field){
			.name = f->name,
			.type = f->type,
			.offset = COMMON_SIZE + 8 * n_u64,
			.size = f->size,
			.is_signed = f->is_signed,
			.kind = f->is_string ? (f->is_dynamic ?
						TF_FIELD_STR_DYN :
						TF_FIELD_STR_STATIC) :
				f->is_stack ? TF_FIELD_DYN_ARRAY :
				TF_FIELD_NUM,
		};
		f->kind = f->is_string ? (f->is_dynamic ? TF_SYNTH_DYN_STR :
					  TF_SYNTH_STR) :
			  f->is_stack ? TF_SYNTH_STACK : TF_SYNTH_NUM;
		f->mask = f->size == 1 ? 0xff : f->size == 2 ? 0xffff :
			  f->size == 4 ? 0xffffffff : ~0ull;
		if (f->kind == TF_SYNTH_STR) {
			se->str_fields[se->n_strs] = (unsigned char)i;
			se->str_slots[se->n_strs++] = (unsigned short)n_u64;
		} else if (f->kind == TF_SYNTH_NUM) {
			se->nums[se->n_nums++] = (unsigned char)i;
		}
		n_u64 += f->kind == TF_SYNTH_STR ? TF_STR_VAR_LEN_MAX / 8 : 1;
		se->has_dynamic |= f->is_dynamic;
	}
	se->n_u64 = n_u64;
	/* a record without dynamic fields is always this size */
	se->fixed_size = COMMON_SIZE + 8 * n_u64 > MAX_RECORD ? 0 :
			 COMMON_SIZE + 8 * n_u64;
}

/* __set_synth_event_print_fmt() */
static void print_fmt(const struct tf_synth_event *se, struct strbuf *out)
{
	sb_putc(out, '"');
	for (unsigned i = 0; i < se->n_fields; i++)
		sb_printf(out, "%s=%s%s", se->fields[i].name,
			  field_fmt(se->fields[i].type),
			  i == se->n_fields - 1 ? "" : ", ");
	sb_putc(out, '"');
	for (unsigned i = 0; i < se->n_fields; i++) {
		const struct tf_synth_field *f = &se->fields[i];

		if (f->is_string && f->is_dynamic)
			sb_printf(out, ", __get_str(%s)", f->name);
		else if (f->is_stack)
			sb_printf(out, ", __get_stacktrace(%s)", f->name);
		else
			sb_printf(out, ", REC->%s", f->name);
	}
}

/* The `format` file, as the kernel's f_show() prints the fields. */
static char *format_text(const struct synth_entry *e, size_t *pf_off)
{
	const struct tf_synth_event *se = &e->se;
	struct strbuf sb = STRBUF_INIT;

	sb_printf(&sb, "name: %s\nID: %d\nformat:\n", se->name, e->ev.id);
	for (unsigned i = 0; i < NR_COMMON + se->n_fields; i++) {
		const struct tf_field *f = &e->tfields[i];
		const char *array = strchr(f->type, '[');

		if (i == NR_COMMON)
			sb_putc(&sb, '\n');
		if (strncmp(f->type, "__data_loc", 10) == 0)
			array = NULL;
		if (array)	/* char[16] comm: "char comm[]", size 16 */
			sb_printf(&sb, "\tfield:%.*s %s[];", (int)(array -
				  f->type), f->type, f->name);
		else
			sb_printf(&sb, "\tfield:%s %s;", f->type, f->name);
		sb_printf(&sb, "\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			  f->offset, f->size, f->is_signed);
	}
	sb_puts(&sb, "\nprint fmt: ");
	*pf_off = sb.len;
	print_fmt(se, &sb);
	sb_putc(&sb, '\n');
	if (sb_error(&sb)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

/* ---- printing: print_synth_event() ---- */

/* Bytes of the record, zero past its end (a record of a removed event
 * whose id a larger event took is read as the kernel reads its page). */
static uint64_t rec_uint(const uint8_t *data, unsigned size, unsigned off,
			 unsigned n)
{
	uint8_t b[8] = { 0 };
	uint64_t v;

	for (unsigned i = 0; i < n; i++)
		if (off + i < size)
			b[i] = data[off + i];
	memcpy(&v, b, 8);
	return v;
}

/* A NUL-ended string at @off of the record, cut at its end. */
static void put_rec_str(struct strbuf *out, const uint8_t *data,
			unsigned size, unsigned off, unsigned max)
{
	unsigned n = 0;

	while (n < max && off + n < size && data[off + n])
		n++;
	if (off < size)
		sb_add(out, data + off, n);
}

/* %pS: symbol+offset/size [module], or the address */
static void put_sym(const struct synth_entry *e, struct strbuf *out,
		    uint64_t addr)
{
	const char *name, *module;
	uint64_t start, size;

	if (!tf_ksyms_lookup(e->ksyms, addr, &name, &start, &size, &module) || !name) {
		sb_printf(out, "0x%llx", (unsigned long long)addr);
		return;
	}
	sb_printf(out, "%s+0x%llx/0x%llx", name,
		  (unsigned long long)(addr - start),
		  (unsigned long long)size);
	if (module && *module)
		sb_printf(out, " [%s]", module);
}

/* trace_print_flags_seq() with the gfp names, "|" between */
static void put_gfp(struct strbuf *out, const struct synth_entry *e,
		    uint64_t flags)
{
	bool first = true;

	for (unsigned i = 0; i < e->nr_gfp && flags; i++) {
		uint64_t mask = e->gfp[i].mask;

		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		if (!first)
			sb_putc(out, '|');
		first = false;
		sb_puts(out, e->gfp[i].name);
	}
	if (flags) {
		if (!first)
			sb_putc(out, '|');
		sb_printf(out, "0x%llx", (unsigned long long)flags);
	}
}

/*
 * A number as the kernel's printf of the slot's u8/u16/u32/u64 with the
 * type's format: 1- and 2-byte values are zero-extended (so a negative
 * s8 prints as 255), a 4-byte one is signed for %d.
 */
static void put_num(struct strbuf *out, const char *fmt, unsigned size,
		    uint64_t v)
{
	bool sgn = strcmp(fmt, "%d") == 0 || strcmp(fmt, "%ld") == 0 ||
		   strcmp(fmt, "%lld") == 0;

	if (strcmp(fmt, "%x") == 0)
		sb_printf(out, "%llx", (unsigned long long)v);
	else if (sgn && size == 4)
		sb_printf(out, "%d", (int32_t)(uint32_t)v);
	else if (sgn && size == 8)
		sb_printf(out, "%lld", (long long)v);
	else
		sb_printf(out, "%llu", (unsigned long long)v);
}

static void print_synth(const struct tf_event *ev, const uint8_t *data,
			unsigned size, unsigned trace_flags,
			struct strbuf *out)
{
	const struct synth_entry *e = ev->dyn;
	const struct tf_synth_event *se = &e->se;
	bool verbose = trace_flags & TF_TRACE_VERBOSE;

	sb_printf(out, "%s: ", se->name);
	for (unsigned i = 0; i < se->n_fields; i++) {
		const struct tf_synth_field *f = &se->fields[i];
		unsigned off = COMMON_SIZE + 8 * f->offset;
		const char *fmt = field_fmt(f->type);
		const char *space = i == se->n_fields - 1 ? "" : " ";

		if (verbose)
			sb_printf(out, "%s ", fmt);
		if (f->is_string) {
			uint64_t loc = rec_uint(data, size, off, 4);

			sb_printf(out, "%s=", f->name);
			if (f->is_dynamic)
				put_rec_str(out, data, size,
					    (unsigned)(loc & 0xffff),
					    MAX_STRING_SIZE);
			else
				put_rec_str(out, data, size, off,
					    TF_STR_VAR_LEN_MAX);
			sb_puts(out, space);
		} else if (f->is_stack) {
			uint64_t loc = rec_uint(data, size, off, 4);
			unsigned start = (unsigned)(loc & 0xffff);
			unsigned n = (unsigned)(loc >> 16) / 8;

			/* the first word is the count; no separator after */
			sb_printf(out, "%s=STACK:\n", f->name);
			for (unsigned j = 1; j < n; j++) {
				sb_puts(out, "=> ");
				put_sym(e, out, rec_uint(data, size,
						      start + 8 * j, 8));
				sb_putc(out, '\n');
			}
		} else {
			sb_printf(out, "%s=", f->name);
			put_num(out, fmt, f->size,
				rec_uint(data, size, off, f->size));
			sb_puts(out, space);
			if (strcmp(f->type, "gfp_t") == 0) {
				sb_puts(out, " (");
				put_gfp(out, e, rec_uint(data, size, off, 8));
				sb_putc(out, ')');
			}
		}
	}
	sb_putc(out, '\n');
}

/* ---- the state and the gfp names ---- */

/* The __print_flags() list of a gfp_flags field in @tev's print fmt. */
static const struct tep_print_flag_sym *find_gfp_flags(struct tep_print_arg *a)
{
	const struct tep_print_flag_sym *s;

	for (; a; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_FLAGS:
			if (a->flags.field &&
			    a->flags.field->type == TEP_PRINT_FIELD &&
			    strcmp(a->flags.field->field.name,
				   "gfp_flags") == 0)
				return a->flags.flags;
			break;
		case TEP_PRINT_OP:
			if ((s = find_gfp_flags(a->op.left)) ||
			    (s = find_gfp_flags(a->op.right)))
				return s;
			break;
		default:
			break;
		}
	}
	return NULL;
}

/*
 * The kernel prints a gfp_t field's flags with its __def_gfpflag_names,
 * the table its kmem events' print fmts spell out (show_gfp_flags):
 * taken from the schemas' kmem:kmalloc (or mm_page_alloc), so that
 * they are the names and bits of the kernel the tree presents.
 */
static void load_gfp_names(struct tf_synth_state *st, struct tf_registry *reg)
{
	static const char *const from[] = { "kmalloc", "mm_page_alloc" };
	const struct tep_print_flag_sym *list = NULL, *s;
	unsigned n = 0;

	pthread_mutex_lock(&reg->tep_lock);
	for (unsigned i = 0; i < 2 && !list; i++) {
		struct tf_event *ev = tf_registry_find(reg, "kmem", from[i]);
		struct tep_event *tev = ev ? ev->tep_event : NULL;

		if (tev)
			list = find_gfp_flags(tev->print_fmt.args);
	}
	for (s = list; s; s = s->next)
		n++;
	st->gfp = n ? calloc(n, sizeof(*st->gfp)) : NULL;
	for (s = list; st->gfp && s; s = s->next) {
		uint64_t v;

		if (!s->value || !s->str ||
		    tf_kstrtoull(s->value, 0, &v) < 0)
			continue;
		st->gfp[st->nr_gfp].mask = v;
		st->gfp[st->nr_gfp].name = strdup(s->str);
		if (st->gfp[st->nr_gfp].name)
			st->nr_gfp++;
	}
	pthread_mutex_unlock(&reg->tep_lock);
}

static void state_destroy(struct tf_tracing *t)
{
	struct tf_synth_state *st = t->synth;
	struct synth_entry *e, *tmp;

	if (!st)
		return;
	/* the trace arrays are gone: nothing refers to the events */
	cds_list_for_each_entry_safe(e, tmp, &st->events, list) {
		cds_list_del(&e->list);
		tf_registry_unlink(t->reg, &e->ev);
		tf_registry_release_event(&e->ev);
	}
	for (unsigned i = 0; i < st->nr_gfp; i++)
		free(st->gfp[i].name);
	free(st->gfp);
	free(st->last_cmd);
	free(st);
	t->synth = NULL;
	t->synth_destroy = NULL;
}

struct tf_synth_state *tf_synth_state(struct tf_tracing *t)
{
	struct tf_synth_state *st = t->synth;

	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	CDS_INIT_LIST_HEAD(&st->events);
	load_gfp_names(st, t->reg);
	tf_rcu_assign_pointer(t->synth, st);
	t->synth_destroy = state_destroy;
	return st;
}

/* ---- lookups ---- */

struct tf_synth_event *tf_synth_find(struct tf_tracing *t, const char *name)
{
	struct tf_synth_state *st = rcu_dereference(t->synth);
	struct synth_entry *e;

	if (!st)
		return NULL;
	cds_list_for_each_entry_rcu(e, &st->events, list)
		if (strcmp(e->se.name, name) == 0)
			return &e->se;
	return NULL;
}

struct tf_synth_event *tf_synth_of_event(const struct tf_event *ev)
{
	if (!ev || ev->print != print_synth)
		return NULL;
	return &((struct synth_entry *)ev->dyn)->se;
}

/* ---- creation and removal ---- */

static void entry_free(struct synth_entry *e)
{
	tf_synth_fields_free(e->se.fields, e->se.n_fields);
	free(e->se.name);
	free(e->tfields);
	free(e->format);
	free(e);
}

static void release_entry(struct tf_event *ev)
{
	entry_free(ev->dyn);
}

static void unpublish_entry(struct tf_event *ev)
{
	struct synth_entry *e = ev->dyn;

	cds_list_del_rcu(&e->list);
}

int tf_synth_event_create(struct tf_tracing *t, const char *name,
			  struct tf_synth_field *fields, unsigned n)
{
	struct tf_synth_state *st = tf_synth_state(t);
	struct synth_entry *e = calloc(1, sizeof(*e));
	size_t pf_off = 0;
	int ret = -ENOMEM;

	if (!st || !e) {
		free(e);
		tf_synth_fields_free(fields, n);
		return -ENOMEM;
	}
	e->se.fields = fields;
	e->se.n_fields = n;
	e->se.name = strdup(name);
	e->se.event = &e->ev;
	e->tfields = calloc(NR_COMMON + n, sizeof(*e->tfields));
	e->gfp = st->gfp;
	e->nr_gfp = st->nr_gfp;
	e->ksyms = t->reg->ksyms;
	if (!e->se.name || !e->tfields)
		goto fail;
	define_fields(e);
	ret = tf_registry_alloc_id(t->reg, FIRST_DYN_ID);
	if (ret < 0)
		goto fail;
	e->ev = (struct tf_event){
		.name = e->se.name,
		.id = ret,
		.nr_fields = NR_COMMON + n,
		.fields = e->tfields,
		.dyn = e,
		.print = print_synth,
		.release = release_entry,
	};
	ret = -ENOMEM;
	e->format = format_text(e, &pf_off);
	if (!e->format)
		goto fail;
	e->ev.format_text = e->format;
	e->ev.print_fmt = e->format + pf_off;
	ret = tf_tracing_add_built_event(t, &e->ev, TF_SYNTH_SYSTEM);
	if (ret < 0)
		goto fail;
	cds_list_add_tail_rcu(&e->list, &st->events);
	return 0;
fail:
	entry_free(e);
	return ret;
}

int tf_synth_event_destroy(struct tf_tracing *t, struct tf_synth_event *se)
{
	if (se->ref)
		return -EBUSY;
	return tf_tracing_remove_event(t, se->event, unpublish_entry);
}

/* ---- the event path: trace_event_raw_event_synth() ---- */

/* How deep the calling thread is in generated events (at most 8): a
 * recursion count, zero between records, as the kernel's per-CPU one. */
static __thread unsigned nesting;

/* fetch_store_strlen(): with its NUL, at most MAX_STRING_SIZE */
static unsigned str_len(const char *s)
{
	return s ? (unsigned)strnlen(s, MAX_STRING_SIZE - 1) + 1 : 1;
}

/* Bytes the kernel reserves for @se's record with these values, @se
 * having dynamic fields (without, se->fixed_size). */
static unsigned record_size(const struct tf_synth_event *se,
			    const uint64_t *vals, const unsigned *idx)
{
	uint64_t size = COMMON_SIZE + 8ull * se->n_u64;

	for (unsigned i = 0; i < se->n_fields; i++) {
		const struct tf_synth_field *f = &se->fields[i];
		const void *p = (const void *)(uintptr_t)vals[idx[i]];

		if (!f->is_dynamic)
			continue;
		if (f->is_stack)	/* one more word for the count */
			size += p ? 8 * (*(const uint64_t *)p + 1) : 8;
		else
			size += str_len(p);
		if (size > MAX_RECORD)
			break;
	}
	return size > MAX_RECORD ? 0 : (unsigned)size;
}

/*
 * Where records are built, one per nesting level: zero between records
 * but for nothing, so a record's build writes only its own bytes; what
 * a record leaves (its strings' words, its dynamic data) is zeroed
 * again once it has been dispatched.  Per thread, as the kernel's
 * per-CPU buffers.
 */
static __thread uint64_t build_buf[MAX_NESTING][MAX_RECORD / 8];

/* Zero again what the record built in @buf left: the words its static
 * strings took (@words[i] for string i) and its dynamic data. */
static void build_clean(const struct tf_synth_event *se, uint8_t *buf,
			const unsigned char *words, unsigned data)
{
	for (unsigned i = 0; i < se->n_strs; i++)
		tf_short_zero_words(buf + COMMON_SIZE + 8 * se->str_slots[i],
				    8 * (size_t)words[i]);
	if (data)
		memset(buf + COMMON_SIZE + 8 * se->n_u64, 0, data);
}

/* A string field's value into its slot (zero): up to STR_VAR_LEN_MAX -
 * 1 bytes, whatever N is (no strncpy padding); returns the words
 * written, to the one with its NUL. */
static unsigned char build_str(uint8_t *slot, const char *p)
{
	return (unsigned char)(p ? tf_short_strcopy((char *)slot, p,
					TF_STR_VAR_LEN_MAX - 1) / 8 + 1 : 0);
}

/*
 * The fields of a record with dynamic ones into @buf, in their order
 * (each dynamic field's data follows the previous one's); returns the
 * bytes of dynamic data.  @words: as build_clean() takes them.
 */
static unsigned build_fields(const struct tf_synth_event *se, uint8_t *buf,
			     const uint64_t *vals, const unsigned *idx,
			     unsigned char *words)
{
	unsigned data = 0, n_strs = 0;
	unsigned dyn_base = COMMON_SIZE + 8 * se->n_u64;

	for (unsigned i = 0; i < se->n_fields; i++) {
		const struct tf_synth_field *f = &se->fields[i];
		uint8_t *slot = buf + COMMON_SIZE + 8 * f->offset;
		uint64_t v = vals[idx[i]];
		const void *p = (const void *)(uintptr_t)v;
		unsigned dyn_off = dyn_base + data, len, n;
		uint32_t loc;
		const uint64_t *st;

		switch (f->kind) {
		case TF_SYNTH_NUM:	/* zero-extended past its size */
			v &= f->mask;
			memcpy(slot, &v, 8);
			break;
		case TF_SYNTH_STR:
			words[n_strs++] = build_str(slot, p);
			break;
		case TF_SYNTH_DYN_STR:
			len = str_len(p);
			if (p)
				tf_short_copy(buf + dyn_off, p, len - 1);
			buf[dyn_off + len - 1] = '\0';
			loc = len << 16 | dyn_off;
			memcpy(slot, &loc, 4);
			data += len;
			break;
		case TF_SYNTH_STACK:
			st = p;
			n = 0;
			/* the count and the frames, up to a zero word */
			while (st && n < STACK_DEPTH && n <= st[0] && st[n])
				n++;
			if (n)
				tf_short_copy(buf + dyn_off, st, 8 * n);
			loc = (8 * n) << 16 | dyn_off;
			memcpy(slot, &loc, 4);
			data += 8 * n;
			break;
		}
	}
	return data;
}

/* The fields of a record without dynamic ones: numbers as masked words
 * and strings, from the lists define_fields() made. */
static void build_fixed(const struct tf_synth_event *se, uint8_t *buf,
			const uint64_t *vals, const unsigned *idx,
			unsigned char *words)
{
	uint8_t *slots = buf + COMMON_SIZE;

	for (unsigned j = 0; j < se->n_nums; j++) {
		const struct tf_synth_field *f = &se->fields[se->nums[j]];
		uint64_t v = vals[idx[se->nums[j]]] & f->mask;

		memcpy(slots + 8 * f->offset, &v, 8);
	}
	for (unsigned j = 0; j < se->n_strs; j++)
		words[j] = build_str(slots + 8 * se->str_slots[j],
				     (const char *)(uintptr_t)
				     vals[idx[se->str_fields[j]]]);
}

void tf_synth_trace(struct tf_tracing *t, const struct tf_synth_event *se,
		    const uint64_t *vals, const unsigned *idx,
		    const struct tf_record *cause)
{
	unsigned size, data = 0, pc, base;
	unsigned char words[TF_SYNTH_FIELDS_MAX];
	uint8_t *buf;
	uint64_t head;
	struct tf_record rec;

	if (nesting >= MAX_NESTING)
		return;
	size = se->has_dynamic ? record_size(se, vals, idx) : se->fixed_size;
	if (!size)
		return;		/* too big for the ring buffer */
	buf = (uint8_t *)build_buf[nesting];
	/*
	 * The common header: the cause's task and flags; the preemption
	 * depth as the kernel records it for an event generated inside
	 * another's trigger: 3 more than that event's (the tracepoint, its
	 * reserved slot and the nested reserve), 2 more for a trace_marker
	 * write, which is no tracepoint (checked on 6.12).
	 */
	pc = cause->size > 3 ? cause->data[3] : 0;
	base = (pc & 0xf) + (cause->event->is_ftrace_print ? 2 : 3);
	head = (uint64_t)(uint16_t)se->event->id |
	       (uint64_t)(cause->size > 2 ? cause->data[2] : 0) << 16 |
	       (uint64_t)((pc & 0xf0) | (base > 0xf ? 0xf : base)) << 24;
	if (cause->size >= 8) {
		uint32_t pid;

		memcpy(&pid, cause->data + 4, 4);
		head |= (uint64_t)pid << 32;
	}
	memcpy(buf, &head, 8);

	if (se->has_dynamic)
		data = build_fields(se, buf, vals, idx, words);
	else
		build_fixed(se, buf, vals, idx, words);
	rec = (struct tf_record){
		.event = se->event,
		.data = buf,
		.size = size,
		.ts = cause->ts,
		.cpu = cause->cpu,
		.comm = cause->comm,
		.tgid = cause->tgid,
		.stack = cause->stack,
		.nr_stack = cause->nr_stack,
		.generated = true,
	};
	nesting++;
	tf_dispatch_locked(t, &rec);
	nesting--;
	build_clean(se, buf, words, data);
}
