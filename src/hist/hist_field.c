// SPDX-License-Identifier: GPL-2.0
/*
 * hist_field.c - one key, value or variable of a histogram, from its
 * text: a field of the event with its modifier (the kernel's
 * parse_field), a pseudo field (hitcount, common_timestamp, common_cpu,
 * common_stacktrace, common_comm), a constant, a reference to a variable
 * ($var, sys.event.$var), or an expression of those (parse_expr,
 * parse_unary, parse_atom), each a hist_field as create_hist_field makes
 * it; and hist_fn_call, which computes a field's value.  The checks and
 * their order are the kernel's, for its errors.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist_internal.h"
#include "util/kstrto.h"

/* ---- numbers, as the kernel's kstrtoul/kstrtoull (base 0) --------------- */

int hist_kstrtoull(const char *s, unsigned long long *res)
{
	uint64_t v;
	int ret = tf_kstrtoull(s, 0, &v);

	if (ret == 0)
		*res = v;
	return ret;
}

/* ---- hist fields --------------------------------------------------------- */

static void free_field_strings(struct hist_field *f)
{
	free(f->var.name);
	free(f->name);
	free(f->type);
	free(f->system);
	free(f->event_name);
	free(f->full_name);
	free(f);
}

/* The kernel's destroy_hist_field(): references are freed with their
 * histogram's var_refs[], not by the expressions that use them. */
void destroy_hist_field(struct hist_field *f)
{
	if (!f || (f->flags & HIST_FIELD_FL_VAR_REF))
		return;
	destroy_hist_field(f->operands[0]);
	destroy_hist_field(f->operands[1]);
	free_field_strings(f);
}

/* A reference itself (__destroy_hist_field). */
void destroy_var_ref(struct hist_field *f)
{
	if (f)
		free_field_strings(f);
}

/*
 * The kernel's hist_field_name(): what a field is called in the hist
 * file, its sort keys and expressions.  Plain fields keep that name in
 * ->name (the generic "cpu" or "comm" included); a constant has none.
 */
static const char *name_at(const struct hist_field *f, unsigned int level)
{
	unsigned long fl = f->flags;

	if (level > 1)
		return "";
	if (f->field)
		return f->field->name;
	if (fl & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_ALIAS | HIST_FIELD_FL_BUCKET))
		return f->operands[0] ? name_at(f->operands[0], level + 1) : "";
	if (fl & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_VAR_REF)) {
		if (f->full_name)
			return f->full_name;
		return f->name ? f->name : "";
	}
	if (fl & (HIST_FIELD_FL_CPU | HIST_FIELD_FL_TIMESTAMP |
		  HIST_FIELD_FL_STACKTRACE | HIST_FIELD_FL_HITCOUNT |
		  HIST_FIELD_FL_COMM))
		return f->name ? f->name : "";
	return "";
}

/* The kernel's hist_field_name(field, 0). */
const char *hist_field_name(const struct hist_field *f)
{
	return name_at(f, 0);
}

const char *hist_field_flags_str(const struct hist_field *f)
{
	unsigned long fl = f->flags;

	if (fl & HIST_FIELD_FL_HEX)
		return "hex";
	if (fl & HIST_FIELD_FL_SYM)
		return "sym";
	if (fl & HIST_FIELD_FL_SYM_OFFSET)
		return "sym-offset";
	if (fl & HIST_FIELD_FL_EXECNAME)
		return "execname";
	if (fl & HIST_FIELD_FL_SYSCALL)
		return "syscall";
	if (fl & HIST_FIELD_FL_LOG2)
		return "log2";
	if (fl & HIST_FIELD_FL_BUCKET)
		return "buckets";
	if (fl & HIST_FIELD_FL_TIMESTAMP_USECS)
		return "usecs";
	if (fl & HIST_FIELD_FL_PERCENT)
		return "percent";
	if (fl & HIST_FIELD_FL_GRAPH)
		return "graph";
	if (fl & HIST_FIELD_FL_STACKTRACE)
		return "stacktrace";
	return NULL;
}

static bool is_string_field(const struct tf_field *f)
{
	return f->kind == TF_FIELD_STR_STATIC || f->kind == TF_FIELD_STR_DYN ||
	       f->kind == TF_FIELD_STR_REL;
}

/* A synthetic event's long[] field (the kernel's FILTER_STACKTRACE). */
bool hist_is_stack_field(const struct tf_field *f)
{
	return f && f->kind == TF_FIELD_DYN_ARRAY && strstr(f->type, "long[]");
}

static int set_strdup(char **dst, const char *src)
{
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

void hist_rd_init(struct hist_field *f, const struct tf_field *field)
{
	f->rd_end = field->offset + field->size;
	f->rd_shift = 64 - 8 * field->size;
	f->rd_sign = field->is_signed ? 1ull << (8 * field->size - 1) : 0;
}

/*
 * The kernel's create_hist_field().  @name is the name the field shows
 * (NULL: derived); @var_name makes it a variable's.  Returns NULL on
 * -ENOMEM or, as the kernel, for an event field whose size has no
 * reader (arrays): the caller says -ENOMEM.
 */
struct hist_field *create_hist_field(struct hist_data *hd,
				     const struct tf_field *field,
				     unsigned long flags, const char *name,
				     const char *var_name)
{
	struct hist_field *f = calloc(1, sizeof(*f));
	const char *type = NULL;

	if (!f)
		return NULL;
	f->hist_data = hd;
	if (flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_ALIAS)) {
		/* the caller fills it in */
	} else if (flags & HIST_FIELD_FL_VAR_REF) {
		f->fn = HIST_FN_VAR_REF;
	} else if (flags & HIST_FIELD_FL_CONST) {
		f->fn = HIST_FN_CONST;
		f->size = 8;
		type = "u64";
	} else if (flags & HIST_FIELD_FL_HITCOUNT) {
		f->fn = HIST_FN_COUNTER;
		f->size = 8;
		type = "u64";
		name = "hitcount";
	} else if (flags & HIST_FIELD_FL_STACKTRACE) {
		f->fn = field ? HIST_FN_STACK : HIST_FN_NOP;
		f->size = HIST_STACKTRACE_SIZE;
		type = "unsigned long[]";
		if (!name)
			name = field ? field->name : "common_stacktrace";
	} else if (flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)) {
		unsigned long fl = flags & ~(HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET);

		f->fn = flags & HIST_FIELD_FL_LOG2 ? HIST_FN_LOG2 : HIST_FN_BUCKET;
		f->operands[0] = create_hist_field(hd, field, fl, name, NULL);
		if (!f->operands[0])
			goto fail;
		f->size = f->operands[0]->size;
		/* is_signed stays 0, as the kernel's (hist_debug shows it) */
		type = f->operands[0]->type;
		name = f->operands[0]->name;
	} else if (flags & HIST_FIELD_FL_TIMESTAMP) {
		f->fn = HIST_FN_TIMESTAMP;
		f->size = 8;
		type = "u64";
		name = "common_timestamp";
	} else if (flags & HIST_FIELD_FL_CPU) {
		f->fn = HIST_FN_CPU;
		f->size = 4;
		type = "unsigned int";
		if (!name)
			name = "common_cpu";
	} else if (flags & HIST_FIELD_FL_COMM) {
		f->fn = HIST_FN_COMM;
		flags |= HIST_FIELD_FL_STRING;
		f->size = MAX_FILTER_STR_VAL;
		type = "char[]";
		if (!name)
			name = "common_comm";
	} else if (field && is_string_field(field)) {
		flags |= HIST_FIELD_FL_STRING;
		f->fn = HIST_FN_STRING;
		f->size = field->kind == TF_FIELD_STR_STATIC ? field->size
							      : MAX_FILTER_STR_VAL;
		type = field->type;
		/*
		 * The kernel's type is the TRACE_EVENT source text, the format
		 * file shows the number: comm arrays are declared
		 * char[TASK_COMM_LEN] (hist_debug prints that).
		 */
		if (!strcmp(type, "char[16]") && strstr(field->name, "comm") &&
		    !(hd && hd->file &&
		      !strcmp(hd->file->event->system, "synthetic")))
			type = "char[TASK_COMM_LEN]";
	} else if (hist_is_stack_field(field)) {
		flags |= HIST_FIELD_FL_STACKTRACE;
		f->fn = HIST_FN_STACK;
		f->size = MAX_FILTER_STR_VAL;
		type = field->type;
	} else if (field) {
		if (field->size != 1 && field->size != 2 && field->size != 4 &&
		    field->size != 8)
			goto fail;
		f->fn = HIST_FN_NUM;
		f->size = field->size;
		f->is_signed = field->is_signed;
		hist_rd_init(f, field);
		type = field->type;
	}
	if (field && !name)
		name = field->name;
	f->field = field;
	f->flags = flags;
	if (set_strdup(&f->name, name) || set_strdup(&f->type, type) ||
	    set_strdup(&f->var.name, var_name))
		goto fail;
	return f;
fail:
	destroy_hist_field(f);
	return NULL;
}

/* ---- variable references -------------------------------------------------- */

/* The kernel's init_var_ref(): @ref takes @var's place and shape. */
static int init_var_ref(struct hist_field *ref, const struct hist_field *var,
			const char *system, const char *event_name)
{
	const char *name = var->var.name ? var->var.name : var->name;

	ref->var.idx = var->var.idx;
	ref->var.hist_data = var->hist_data;
	ref->size = var->size;
	ref->is_signed = var->is_signed;
	ref->flags |= var->flags & (HIST_FIELD_FL_TIMESTAMP |
				    HIST_FIELD_FL_TIMESTAMP_USECS |
				    HIST_FIELD_FL_STACKTRACE);
	if (set_strdup(&ref->system, system) ||
	    set_strdup(&ref->event_name, event_name) ||
	    set_strdup(&ref->name, name) || set_strdup(&ref->type, var->type))
		return -ENOMEM;
	if (system) {
		size_t n = strlen(system) + strlen(event_name ? event_name : "") +
			   strlen(name ? name : "") + 4;

		ref->full_name = malloc(n);
		if (!ref->full_name)
			return -ENOMEM;
		snprintf(ref->full_name, n,
			 (ref->flags & HIST_FIELD_FL_VAR_REF) ? "%s.%s.$%s"
							       : "%s.%s.%s",
			 system, event_name ? event_name : "",
			 name ? name : "");
	}
	return 0;
}

int find_var_ref_idx(struct hist_data *hd, const struct hist_field *var)
{
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		const struct hist_field *ref = hd->var_refs[i];

		if (ref->var.idx == var->var.idx &&
		    ref->var.hist_data == var->hist_data)
			return (int)i;
	}
	return -ENOENT;
}

/*
 * The kernel's create_var_ref(): a reference from @hd to variable @var,
 * added to hd->var_refs[] (one per variable: a second use shares it).
 * NULL when there is no room or no memory.
 */
struct hist_field *create_var_ref(struct hist_data *hd,
				  const struct hist_field *var,
				  const char *system, const char *event_name)
{
	struct hist_field *ref;
	int i = find_var_ref_idx(hd, var);

	if (i >= 0)
		return hd->var_refs[i];
	if (hd->n_var_refs >= TRACING_MAP_VARS_MAX)
		return NULL;
	ref = create_hist_field(var->hist_data, NULL, HIST_FIELD_FL_VAR_REF,
				NULL, NULL);
	if (!ref)
		return NULL;
	if (init_var_ref(ref, var, system, event_name)) {
		destroy_var_ref(ref);
		return NULL;
	}
	hd->var_refs[hd->n_var_refs] = ref;
	ref->var_ref_idx = hd->n_var_refs++;
	return ref;
}

bool is_var_ref(const char *s)
{
	return s && strlen(s) >= 2 && s[0] == '$';
}

/* A variable of this command that is a plain field: its field name. */
static const char *field_name_from_var(struct hist_data *hd,
				       const char *var_name)
{
	struct hist_attrs *a = hd->attrs;

	for (unsigned int i = 0; i < a->n_vars; i++) {
		if (strcmp(var_name, a->var_name[i]) != 0)
			continue;
		if (hist_contains_operator(a->var_expr[i], NULL) ||
		    is_var_ref(a->var_expr[i]))
			continue;
		return a->var_expr[i];
	}
	return NULL;
}

/* The kernel's local_field_var_ref(). */
static const char *local_field_var_ref(struct hist_data *hd,
				       const char *system,
				       const char *event_name,
				       const char *var_name)
{
	const struct tf_event *ev = hd->file->event;

	if (system && event_name) {
		if (strcmp(system, ev->system) != 0 ||
		    strcmp(event_name, ev->name) != 0)
			return NULL;
	}
	if (!!system != !!event_name)
		return NULL;
	if (!is_var_ref(var_name))
		return NULL;
	return field_name_from_var(hd, var_name + 1);
}

/* The kernel's parse_var_ref(). */
static struct hist_field *parse_var_ref(struct parse_state *ps,
					const char *system,
					const char *event_name,
					const char *var_name)
{
	struct hist_field *var, *ref = NULL;

	if (!is_var_ref(var_name))
		return NULL;
	var_name++;
	var = find_event_var(ps->ec, ps->hd, system, event_name, var_name);
	if (var)
		ref = create_var_ref(ps->hd, var, system, event_name);
	if (!ref)
		hist_err(ps->ec, HIST_ERR_VAR_NOT_FOUND,
			 hist_errpos(ps->ec, var_name));
	return ref;
}

/* The kernel's create_alias(): a variable that is another's value. */
static struct hist_field *create_alias(struct hist_data *hd,
				       struct hist_field *ref,
				       const char *var_name)
{
	struct hist_field *alias;

	alias = create_hist_field(hd, NULL, HIST_FIELD_FL_ALIAS |
				  HIST_FIELD_FL_VAR, NULL, var_name);
	if (!alias)
		return NULL;
	alias->fn = ref->fn;
	alias->operands[0] = ref;
	if (init_var_ref(alias, ref, ref->system, ref->event_name)) {
		destroy_hist_field(alias);
		return NULL;
	}
	alias->var_ref_idx = ref->var_ref_idx;
	return alias;
}

/* ---- one field ------------------------------------------------------------ */

/*
 * The kernel's parse_field(): @field_str is "name[.modifier]".  Sets
 * *flags, *buckets, *fieldp (NULL for pseudo fields) and *name (the name
 * the field shows: "cpu" stays "cpu").  Returns 0 or -EINVAL (logged).
 */
static int parse_field(struct parse_state *ps, const char *field_str,
		       unsigned long *flags, unsigned long *buckets,
		       const struct tf_field **fieldp, char **namep)
{
	struct hist_err_ctx *ec = ps->ec;
	char *str = strdup(field_str), *modifier = str, *field_name;
	const struct tf_field *field = NULL;
	bool stack_modifier = false;
	int ret = 0;

	if (!str)
		return -ENOMEM;
	field_name = strsep(&modifier, ".");
	if (modifier) {
		if (!strcmp(modifier, "hex"))
			*flags |= HIST_FIELD_FL_HEX;
		else if (!strcmp(modifier, "sym"))
			*flags |= HIST_FIELD_FL_SYM;
		else if (!strcmp(modifier, "symXoffset"))
			*flags |= HIST_FIELD_FL_SYM_OFFSET;
		else if (!strcmp(modifier, "execname") &&
			 !strcmp(field_name, "common_pid"))
			*flags |= HIST_FIELD_FL_EXECNAME;
		else if (!strcmp(modifier, "syscall"))
			*flags |= HIST_FIELD_FL_SYSCALL;
		else if (!strcmp(modifier, "stacktrace")) {
			*flags |= HIST_FIELD_FL_STACKTRACE;
			stack_modifier = true;
		} else if (!strcmp(modifier, "log2"))
			*flags |= HIST_FIELD_FL_LOG2;
		else if (!strcmp(modifier, "usecs"))
			*flags |= HIST_FIELD_FL_TIMESTAMP_USECS;
		else if (!strncmp(modifier, "bucket", 6)) {
			unsigned long long b;

			modifier += 6;
			if (*modifier == 's')
				modifier++;
			if (*modifier != '=')
				goto bad_modifier;
			modifier++;
			if (hist_kstrtoull(modifier, &b) || !b)
				goto bad_modifier;
			*buckets = b;
			*flags |= HIST_FIELD_FL_BUCKET;
		} else if (!strncmp(modifier, "percent", 7)) {
			if (*flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_KEY))
				goto bad_modifier;
			*flags |= HIST_FIELD_FL_PERCENT;
		} else if (!strncmp(modifier, "graph", 5)) {
			if (*flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_KEY))
				goto bad_modifier;
			*flags |= HIST_FIELD_FL_GRAPH;
		} else {
bad_modifier:
			hist_err(ec, HIST_ERR_BAD_FIELD_MODIFIER,
				 hist_errpos(ec, modifier));
			ret = -EINVAL;
			goto out;
		}
	}

	if (!strcmp(field_name, "common_timestamp")) {
		*flags |= HIST_FIELD_FL_TIMESTAMP;
		ps->hd->enable_timestamps = true;
		if (*flags & HIST_FIELD_FL_TIMESTAMP_USECS)
			ps->hd->attrs->ts_in_usecs = true;
	} else if (!strcmp(field_name, "common_stacktrace")) {
		*flags |= HIST_FIELD_FL_STACKTRACE;
	} else if (!strcmp(field_name, "common_cpu")) {
		*flags |= HIST_FIELD_FL_CPU;
	} else if (!strcmp(field_name, "common_comm")) {
		*flags |= HIST_FIELD_FL_COMM;
	} else if (!strcmp(field_name, "hitcount")) {
		*flags |= HIST_FIELD_FL_HITCOUNT;
	} else {
		field = tf_event_field(ps->ev, field_name);
		if (!field || !field->size) {
			/* the generic fields, when the event has none of the name */
			field = NULL;
			if (!strcmp(field_name, "cpu") || !strcmp(field_name, "CPU")) {
				*flags |= HIST_FIELD_FL_CPU;
			} else if (!strcmp(field_name, "stacktrace") ||
				   !strcmp(field_name, "STACKTRACE")) {
				*flags |= HIST_FIELD_FL_STACKTRACE;
			} else if (!strcmp(field_name, "comm") ||
				   !strcmp(field_name, "COMM")) {
				*flags |= HIST_FIELD_FL_COMM;
			} else {
				hist_err(ec, HIST_ERR_FIELD_NOT_FOUND,
					 hist_errpos(ec, field_name));
				ret = -EINVAL;
				goto out;
			}
		}
	}
	if (stack_modifier && !hist_is_stack_field(field)) {
		/* .stacktrace needs a long[] stack field (synthetic) */
		hist_err(ec, HIST_ERR_BAD_FIELD_MODIFIER,
			 hist_errpos(ec, field_str));
		ret = -EINVAL;
		goto out;
	}
	*fieldp = field;
	if (!field && (*flags & (HIST_FIELD_FL_CPU | HIST_FIELD_FL_COMM)) &&
	    strncmp(field_name, "common_", 7)) {
		*namep = strdup(field_name);
		if (!*namep)
			ret = -ENOMEM;
	}
out:
	free(str);
	return ret;
}

static struct hist_field *parse_const(struct parse_state *ps, char *str,
				      const char *var_name,
				      unsigned long *flags, int *errp)
{
	unsigned long long c;
	struct hist_field *f;

	if (hist_kstrtoull(str, &c)) {
		hist_err(ps->ec, HIST_ERR_EXPECT_NUMBER, hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		return NULL;
	}
	*flags |= HIST_FIELD_FL_CONST;
	f = create_hist_field(ps->hd, NULL, *flags, NULL, var_name);
	if (!f) {
		*errp = -ENOMEM;
		return NULL;
	}
	f->constant = c;
	return f;
}

/* The kernel's parse_atom(): a constant, a variable reference or a field. */
struct hist_field *parse_atom(struct parse_state *ps, char *str,
			      unsigned long *flags, const char *var_name,
			      int *errp)
{
	const struct tf_field *field = NULL;
	char *ref_system = NULL, *ref_event = NULL, *ref_var = str, *s;
	const char *local;
	unsigned long buckets = 0;
	struct hist_field *f;
	char *name = NULL;
	int ret;

	if (isdigit((unsigned char)str[0]))
		return parse_const(ps, str, var_name, flags, errp);

	s = strchr(str, '.');
	if (s && strchr(s + 1, '.')) {
		ref_system = strsep(&str, ".");
		if (!str) {
			*errp = -EINVAL;
			return NULL;
		}
		ref_event = strsep(&str, ".");
		if (!str) {
			*errp = -EINVAL;
			return NULL;
		}
		ref_var = str;
	}
	local = local_field_var_ref(ps->hd, ref_system, ref_event, ref_var);
	if (!local) {
		f = parse_var_ref(ps, ref_system, ref_event, ref_var);
		if (f) {
			if (var_name) {
				f = create_alias(ps->hd, f, var_name);
				if (!f) {
					*errp = -ENOMEM;
					return NULL;
				}
			}
			return f;
		}
	} else {
		str = (char *)local;
	}

	ret = parse_field(ps, str, flags, &buckets, &field, &name);
	if (ret) {
		*errp = ret;
		return NULL;
	}
	f = create_hist_field(ps->hd, field, *flags, name, var_name);
	free(name);
	if (!f) {
		*errp = -ENOMEM;
		return NULL;
	}
	f->buckets = buckets;
	return f;
}

/* ---- expressions ---------------------------------------------------------- */

/*
 * The kernel's contains_operator(): the root operator of @str, the
 * rightmost of the lowest precedence (so that a-b-c is (a-b)-c); a '-'
 * in front is a unary minus.
 */
int hist_contains_operator(char *str, char **sep)
{
	char *minus = strrchr(str, '-'), *plus, *div, *mult;
	int op = FIELD_OP_NONE;

	if (minus) {
		if (minus == str) {
			op = FIELD_OP_UNARY_MINUS;
			goto out;
		}
		op = FIELD_OP_MINUS;
	}
	plus = strrchr(str, '+');
	if (plus || minus) {
		if (plus > minus)
			op = FIELD_OP_PLUS;
		goto out;
	}
	div = strrchr(str, '/');
	if (div)
		op = FIELD_OP_DIV;
	mult = strrchr(str, '*');
	if (mult > div)
		op = FIELD_OP_MULT;
out:
	if (sep) {
		switch (op) {
		case FIELD_OP_UNARY_MINUS:
		case FIELD_OP_MINUS: *sep = minus; break;
		case FIELD_OP_PLUS: *sep = plus; break;
		case FIELD_OP_DIV: *sep = div; break;
		case FIELD_OP_MULT: *sep = mult; break;
		default: *sep = NULL;
		}
	}
	return op;
}

/* The kernel's expr_field_str(): an operand as an expression shows it. */
void hist_expr_field_str(struct strbuf *sb, const struct hist_field *f)
{
	const char *fl;

	if (f->flags & HIST_FIELD_FL_VAR_REF) {
		if (!f->system)
			sb_putc(sb, '$');
	} else if (f->flags & HIST_FIELD_FL_CONST) {
		sb_printf(sb, "%llu", (unsigned long long)f->constant);
	}
	sb_puts(sb, hist_field_name(f));
	if (f->flags && !(f->flags & HIST_FIELD_FL_VAR_REF)) {
		fl = hist_field_flags_str(f);
		if (fl)
			sb_printf(sb, ".%s", fl);
	}
	if (f->buckets)
		sb_printf(sb, "=%lu", f->buckets);
}

/* The kernel's expr_str(): an expression's text, one level deep. */
static char *expr_str(const struct hist_field *e, unsigned int level)
{
	struct strbuf sb = STRBUF_INIT;
	static const char ops[] = { 0, '+', '-', 0, '/', '*' };

	if (level > 1)
		return NULL;
	if (!e->operands[0]) {
		hist_expr_field_str(&sb, e);
	} else if (e->operator == FIELD_OP_UNARY_MINUS) {
		char *sub = expr_str(e->operands[0], level + 1);

		if (!sub) {
			sb_release(&sb);
			return NULL;
		}
		sb_printf(&sb, "-(%s)", sub);
		free(sub);
	} else {
		hist_expr_field_str(&sb, e->operands[0]);
		sb_putc(&sb, ops[e->operator]);
		hist_expr_field_str(&sb, e->operands[1]);
	}
	/* the kernel's buffer is MAX_FILTER_STR_VAL bytes (-E2BIG) */
	if (sb_error(&sb) || sb.len >= MAX_FILTER_STR_VAL) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static struct hist_field *parse_unary(struct parse_state *ps, char *str,
				      unsigned long flags,
				      const char *var_name,
				      unsigned int *n_subexprs, int *errp)
{
	struct hist_field *expr, *operand;
	char *s;

	++*n_subexprs;
	if (*n_subexprs > 3) {
		hist_err(ps->ec, HIST_ERR_TOO_MANY_SUBEXPR, hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		return NULL;
	}
	str++;			/* the '-' */
	if (!strchr(str, '(')) {
		*errp = -EINVAL;
		return NULL;
	}
	str++;
	s = strrchr(str, ')');
	if (!s) {
		*errp = -EINVAL;
		return NULL;
	}
	if (s[1] != '\0') {
		hist_err(ps->ec, HIST_ERR_UNARY_MINUS_SUBEXPR,
			 hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		return NULL;
	}
	*s = '\0';
	expr = create_hist_field(ps->hd, NULL, flags | HIST_FIELD_FL_EXPR,
				 NULL, var_name);
	if (!expr) {
		*errp = -ENOMEM;
		return NULL;
	}
	operand = parse_expr(ps, str, 0, NULL, n_subexprs, errp);
	if (!operand) {
		destroy_hist_field(expr);
		return NULL;
	}
	if (operand->flags & HIST_FIELD_FL_STRING) {
		hist_err(ps->ec, HIST_ERR_INVALID_STR_OPERAND,
			 hist_errpos(ps->ec, str));
		destroy_hist_field(operand);
		destroy_hist_field(expr);
		*errp = -EINVAL;
		return NULL;
	}
	expr->flags |= operand->flags &
		(HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr->fn = HIST_FN_UMINUS;
	expr->operands[0] = operand;
	expr->size = operand->size;
	expr->is_signed = operand->is_signed;
	expr->operator = FIELD_OP_UNARY_MINUS;
	expr->name = expr_str(expr, 0);
	expr->type = operand->type ? strdup(operand->type) : NULL;
	if (!expr->name || !expr->type) {
		destroy_hist_field(expr);
		*errp = expr->name ? -ENOMEM : -E2BIG;
		return NULL;
	}
	return expr;
}

/*
 * The kernel's check_expr_operands(): the variables behind references
 * (their flags decide), and timestamps of one unit.
 */
static int check_expr_operands(struct parse_state *ps,
			       struct hist_field *op1, struct hist_field *op2,
			       struct hist_field **var1,
			       struct hist_field **var2)
{
	unsigned long f1 = op1->flags, f2 = op2->flags;

	if (f1 & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) {
		struct hist_field *v = find_var_field(op1->var.hist_data,
						      op1->name);
		if (!v)
			return -EINVAL;
		f1 = v->flags;
		*var1 = v;
	}
	if (f2 & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) {
		struct hist_field *v = find_var_field(op2->var.hist_data,
						      op2->name);
		if (!v)
			return -EINVAL;
		f2 = v->flags;
		*var2 = v;
	}
	if ((f1 & HIST_FIELD_FL_TIMESTAMP_USECS) !=
	    (f2 & HIST_FIELD_FL_TIMESTAMP_USECS)) {
		hist_err(ps->ec, HIST_ERR_TIMESTAMP_MISMATCH, 0);
		return -EINVAL;
	}
	return 0;
}

/* The kernel's hist_field_get_div_fn(): how to divide by a constant. */
static enum hist_fn div_fn(struct hist_field *divisor)
{
	uint64_t d = divisor->constant;

	if (!(d & (d - 1)))
		return HIST_FN_DIV_POWER2;
	if (d > (1u << HIST_DIV_SHIFT))
		return HIST_FN_DIV_NOT_POWER2;
	divisor->div_multiplier = (1u << HIST_DIV_SHIFT) / d;
	return HIST_FN_DIV_MULT_SHIFT;
}

struct hist_field *parse_expr(struct parse_state *ps, char *str,
			      unsigned long flags, const char *var_name,
			      unsigned int *n_subexprs, int *errp)
{
	struct hist_field *op1 = NULL, *op2 = NULL, *expr, *var1 = NULL,
			  *var2 = NULL;
	unsigned long f1, f2;
	char *sep, *op1_str;
	enum hist_fn fn;
	bool combine;
	int op;

	if (*n_subexprs > 3) {
		hist_err(ps->ec, HIST_ERR_TOO_MANY_SUBEXPR, hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		return NULL;
	}
	op = hist_contains_operator(str, &sep);
	if (op == FIELD_OP_NONE)
		return parse_atom(ps, str, &flags, var_name, errp);
	if (op == FIELD_OP_UNARY_MINUS)
		return parse_unary(ps, str, flags, var_name, n_subexprs, errp);

	++*n_subexprs;
	*sep = '\0';
	op1_str = str;
	str = sep + 1;
	if (!*op1_str || !*str) {
		*errp = -EINVAL;
		return NULL;
	}
	op1 = parse_expr(ps, op1_str, 0, NULL, n_subexprs, errp);
	if (!op1)
		return NULL;
	if (op1->flags & HIST_FIELD_FL_STRING) {
		hist_err(ps->ec, HIST_ERR_INVALID_STR_OPERAND,
			 hist_errpos(ps->ec, op1_str));
		*errp = -EINVAL;
		goto fail;
	}
	op2 = parse_expr(ps, str, 0, NULL, n_subexprs, errp);
	if (!op2)
		goto fail;
	if (op2->flags & HIST_FIELD_FL_STRING) {
		hist_err(ps->ec, HIST_ERR_INVALID_STR_OPERAND,
			 hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		goto fail;
	}
	fn = op == FIELD_OP_MINUS ? HIST_FN_MINUS :
	     op == FIELD_OP_PLUS ? HIST_FN_PLUS :
	     op == FIELD_OP_DIV ? HIST_FN_DIV : HIST_FN_MULT;
	*errp = check_expr_operands(ps, op1, op2, &var1, &var2);
	if (*errp)
		goto fail;
	f1 = var1 ? var1->flags : op1->flags;
	f2 = var2 ? var2->flags : op2->flags;
	combine = f1 & f2 & HIST_FIELD_FL_CONST;
	flags |= combine ? HIST_FIELD_FL_CONST : HIST_FIELD_FL_EXPR;
	flags |= op1->flags &
		 (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr = create_hist_field(ps->hd, NULL, flags, NULL, var_name);
	if (!expr) {
		*errp = -ENOMEM;
		goto fail;
	}
	op1->read_once = true;
	op2->read_once = true;
	expr->operands[0] = op1;
	expr->operands[1] = op2;
	if (op == FIELD_OP_DIV && (f2 & HIST_FIELD_FL_CONST)) {
		uint64_t divisor = var2 ? var2->constant : op2->constant;

		if (!divisor) {
			hist_err(ps->ec, HIST_ERR_DIVISION_BY_ZERO,
				 hist_errpos(ps->ec, str));
			destroy_hist_field(expr);
			*errp = -EDOM;
			return NULL;
		}
		op2->constant = divisor;
		fn = div_fn(op2);
	}
	expr->fn = fn;
	if (combine) {
		struct hist_ctx none = { 0 };

		if (var1)
			expr->operands[0] = var1;
		if (var2)
			expr->operands[1] = var2;
		expr->constant = hist_fn_call(&none, expr);
		expr->fn = HIST_FN_CONST;
		expr->operands[0] = expr->operands[1] = NULL;
		destroy_hist_field(op2);
		destroy_hist_field(op1);
		expr->name = expr_str(expr, 0);
		if (!expr->name) {
			destroy_hist_field(expr);
			*errp = -E2BIG;
			return NULL;
		}
	} else {
		/* the operands' sizes should be the same: take the first's */
		expr->size = op1->size;
		expr->is_signed = op1->is_signed;
		expr->operator = op;
		expr->type = op1->type ? strdup(op1->type) : NULL;
		expr->name = expr_str(expr, 0);
		if (!expr->type || !expr->name) {
			*errp = expr->type ? -E2BIG : -ENOMEM;
			destroy_hist_field(expr);
			return NULL;
		}
	}
	return expr;
fail:
	destroy_hist_field(op1);
	destroy_hist_field(op2);
	return NULL;
}

/* ---- values ---------------------------------------------------------------- */

/* Where an event's string field starts in the record (0: none). */
static const char *field_str(const struct hist_field *f,
			     const struct tf_record *rec)
{
	unsigned len;

	if (!rec || !f->field)
		return NULL;
	return tf_field_read_str(f->field, rec->data, rec->size, &len);
}

/*
 * The kernel's hist_fn_call().  Strings come back as pointers to their
 * bytes (into the record, or the entry's comm), stacks as a pointer to
 * the record's frame count, as the kernel's do.
 */
uint64_t hist_fn_call(const struct hist_ctx *cx, const struct hist_field *f)
{
	const struct tf_record *rec = cx->rec;
	uint64_t a, b;

	switch (f->fn) {
	case HIST_FN_VAR_REF:
		return cx->var_ref_vals ? cx->var_ref_vals[f->var_ref_idx] : 0;
	case HIST_FN_COUNTER:
		return 1;
	case HIST_FN_CONST:
		return f->constant;
	case HIST_FN_NUM:
		if (!rec || f->rd_end > rec->size)
			return 0;
		return hist_rd(f, rec->data);
	case HIST_FN_STRING: {
		const char *s = field_str(f, rec);

		return (uint64_t)(uintptr_t)(s ? s : "");
	}
	case HIST_FN_TIMESTAMP:
		if (!rec)
			return 0;
		return cx->ts_usecs ? hist_ns2usecs(rec->ts) : rec->ts;
	case HIST_FN_CPU:
		return rec ? (uint64_t)(unsigned)rec->cpu : 0;
	case HIST_FN_EXECNAME:
		return (uint64_t)(uintptr_t)(cx->elt ?
			tracing_map_elt_comm(cx->map, cx->elt) : "(no comm)");
	case HIST_FN_LOG2:
		a = hist_fn_call(cx, f->operands[0]);
		return a <= 1 ? 0 : 64 - __builtin_clzll(a - 1);
	case HIST_FN_BUCKET:
		a = hist_fn_call(cx, f->operands[0]);
		return a / f->buckets * f->buckets;
	case HIST_FN_UMINUS:
		return (uint64_t)-(int64_t)hist_fn_call(cx, f->operands[0]);
	case HIST_FN_MINUS:
		return hist_fn_call(cx, f->operands[0]) -
		       hist_fn_call(cx, f->operands[1]);
	case HIST_FN_PLUS:
		return hist_fn_call(cx, f->operands[0]) +
		       hist_fn_call(cx, f->operands[1]);
	case HIST_FN_MULT:
		return hist_fn_call(cx, f->operands[0]) *
		       hist_fn_call(cx, f->operands[1]);
	case HIST_FN_DIV:
		a = hist_fn_call(cx, f->operands[0]);
		b = hist_fn_call(cx, f->operands[1]);
		if (!b)
			return (uint64_t)-1;
		if (!(b & (b - 1)))
			return a >> __builtin_ctzll(b);
		return a / b;
	case HIST_FN_DIV_POWER2:
		a = hist_fn_call(cx, f->operands[0]);
		return a >> __builtin_ctzll(f->operands[1]->constant);
	case HIST_FN_DIV_NOT_POWER2:
		a = hist_fn_call(cx, f->operands[0]);
		return a / f->operands[1]->constant;
	case HIST_FN_DIV_MULT_SHIFT:
		a = hist_fn_call(cx, f->operands[0]);
		if (a < (1u << HIST_DIV_SHIFT))
			return (a * f->operands[1]->div_multiplier +
				((1u << HIST_DIV_SHIFT) - 1)) >> HIST_DIV_SHIFT;
		return a / f->operands[1]->constant;
	case HIST_FN_STACK:
	case HIST_FN_COMM:
	default:
		return 0;
	}
}
