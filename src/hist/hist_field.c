/*
 * hist_field.c - one key or value of a histogram, from its text: a field
 * of the event with its modifier (the kernel's parse_field), a pseudo
 * field (hitcount, common_timestamp, common_cpu, common_stacktrace,
 * common_comm), a constant, or an expression of those (parse_expr,
 * parse_unary, parse_atom), each a hist_field as create_hist_field makes
 * it.  The checks and their order are the kernel's, for its errors.
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

void destroy_hist_field(struct hist_field *f)
{
	if (!f)
		return;
	destroy_hist_field(f->operands[0]);
	destroy_hist_field(f->operands[1]);
	free(f->name);
	free(f->type);
	free(f);
}

const char *hist_field_name(const struct hist_field *f)
{
	return f->name ? f->name : "";
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

/*
 * The kernel's create_hist_field().  @name is the name the field shows
 * (NULL: derived).  Returns NULL on -ENOMEM or, as the kernel, for an
 * event field whose size has no reader (arrays): the caller says -ENOMEM.
 */
struct hist_field *create_hist_field(const struct tf_field *field,
					    unsigned long flags,
					    const char *name)
{
	struct hist_field *f = calloc(1, sizeof(*f));
	const char *type = NULL;

	if (!f)
		return NULL;
	if (flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_CONST)) {
		f->fn = flags & HIST_FIELD_FL_CONST ? HIST_FN_CONST : HIST_FN_NOP;
		f->size = 8;
		type = "u64";
	} else if (flags & HIST_FIELD_FL_HITCOUNT) {
		f->fn = HIST_FN_COUNTER;
		f->size = 8;
		type = "u64";
		name = "hitcount";
	} else if (flags & HIST_FIELD_FL_STACKTRACE) {
		f->fn = HIST_FN_STACK;
		f->size = HIST_STACKTRACE_SIZE;
		type = "unsigned long[]";
		if (!name)
			name = "common_stacktrace";
	} else if (flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)) {
		unsigned long fl = flags & ~(HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET);

		f->fn = flags & HIST_FIELD_FL_LOG2 ? HIST_FN_LOG2 : HIST_FN_BUCKET;
		f->operands[0] = create_hist_field(field, fl, name);
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
		if (!strcmp(type, "char[16]") && strstr(field->name, "comm"))
			type = "char[TASK_COMM_LEN]";
	} else if (field) {
		if (field->size != 1 && field->size != 2 && field->size != 4 &&
		    field->size != 8)
			goto fail;
		f->fn = HIST_FN_NUM;
		f->size = field->size;
		f->is_signed = field->is_signed;
		type = field->type;
	}
	if (field && !name)
		name = field->name;
	f->field = field;
	f->flags = flags;
	f->name = strdup(name ? name : "");
	f->type = strdup(type ? type : "");
	if (!f->name || !f->type)
		goto fail;
	return f;
fail:
	destroy_hist_field(f);
	return NULL;
}

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
		else if (!strcmp(modifier, "stacktrace"))
			*flags |= HIST_FIELD_FL_STACKTRACE;
		else if (!strcmp(modifier, "log2"))
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
		} else if (*flags & HIST_FIELD_FL_STACKTRACE) {
			/* .stacktrace needs a long[] stack field (synthetic) */
			hist_err(ec, HIST_ERR_BAD_FIELD_MODIFIER,
				 hist_errpos(ec, field_name));
			ret = -EINVAL;
			goto out;
		}
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


static bool is_var_ref(const char *s)
{
	return s && strlen(s) >= 2 && s[0] == '$';
}

/* The kernel's parse_atom(): a constant, a variable reference or a field. */
static struct hist_field *parse_atom(struct parse_state *ps, char *str,
				     unsigned long *flags, int *errp)
{
	const struct tf_field *field = NULL;
	unsigned long buckets = 0;
	struct hist_field *f;
	char *name = NULL, *s;
	int ret;

	if (isdigit((unsigned char)str[0])) {
		unsigned long long c;

		if (hist_kstrtoull(str, &c)) {
			hist_err(ps->ec, HIST_ERR_EXPECT_NUMBER,
				 hist_errpos(ps->ec, str));
			*errp = -EINVAL;
			return NULL;
		}
		*flags |= HIST_FIELD_FL_CONST;
		f = create_hist_field(NULL, *flags, "");
		if (!f) {
			*errp = -ENOMEM;
			return NULL;
		}
		f->constant = c;
		return f;
	}

	/* sys.event.var: only the last part names something here */
	s = strchr(str, '.');
	if (s && strchr(s + 1, '.')) {
		strsep(&str, ".");
		strsep(&str, ".");
	}
	if (is_var_ref(str)) {
		/* no variables exist (yet): the kernel logs both errors */
		hist_err(ps->ec, HIST_ERR_VAR_NOT_FOUND,
			 hist_errpos(ps->ec, str + 1));
	}

	ret = parse_field(ps, str, flags, &buckets, &field, &name);
	if (ret) {
		*errp = ret;
		return NULL;
	}
	f = create_hist_field(field, *flags, name);
	free(name);
	if (!f) {
		*errp = -ENOMEM;
		return NULL;
	}
	f->buckets = buckets;
	return f;
}

enum { OP_NONE, OP_UMINUS, OP_MINUS, OP_PLUS, OP_DIV, OP_MULT };

static int contains_operator(char *str, char **sep)
{
	char *minus = strrchr(str, '-'), *plus, *div, *mult;
	int op = OP_NONE;

	if (minus) {
		if (minus == str) {
			op = OP_UMINUS;
			goto out;
		}
		op = OP_MINUS;
	}
	plus = strrchr(str, '+');
	if (plus || minus) {
		if (plus > minus)
			op = OP_PLUS;
		goto out;
	}
	div = strrchr(str, '/');
	if (div)
		op = OP_DIV;
	mult = strrchr(str, '*');
	if (mult > div)
		op = OP_MULT;
out:
	if (sep) {
		switch (op) {
		case OP_UMINUS:
		case OP_MINUS: *sep = minus; break;
		case OP_PLUS: *sep = plus; break;
		case OP_DIV: *sep = div; break;
		case OP_MULT: *sep = mult; break;
		default: *sep = NULL;
		}
	}
	return op;
}

/* The text the kernel gives an expression (expr_str). */
static void expr_operand_str(struct strbuf *sb, const struct hist_field *f)
{
	const char *fl;

	if (f->flags & HIST_FIELD_FL_CONST)
		sb_printf(sb, "%llu", (unsigned long long)f->constant);
	sb_puts(sb, hist_field_name(f));
	fl = f->flags ? hist_field_flags_str(f) : NULL;
	if (fl)
		sb_printf(sb, ".%s", fl);
}

static char *expr_str(const struct hist_field *e, int op)
{
	struct strbuf sb = STRBUF_INIT;
	static const char ops[] = { 0, 0, '-', '+', '/', '*' };

	if (op == OP_UMINUS) {
		sb_puts(&sb, "-(");
		if (e->operands[0]->operands[0])
			sb_puts(&sb, hist_field_name(e->operands[0]));
		else
			expr_operand_str(&sb, e->operands[0]);
		sb_puts(&sb, ")");
	} else if (!e->operands[0]) {
		expr_operand_str(&sb, e);
	} else {
		expr_operand_str(&sb, e->operands[0]);
		sb_putc(&sb, ops[op]);
		expr_operand_str(&sb, e->operands[1]);
	}
	if (sb_error(&sb)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static uint64_t eval_const(const struct hist_field *e);

static struct hist_field *parse_unary(struct parse_state *ps, char *str,
				      unsigned long flags,
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
	operand = parse_expr(ps, str, 0, n_subexprs, errp);
	if (!operand)
		return NULL;
	if (operand->flags & HIST_FIELD_FL_STRING) {
		hist_err(ps->ec, HIST_ERR_INVALID_STR_OPERAND,
			 hist_errpos(ps->ec, str));
		destroy_hist_field(operand);
		*errp = -EINVAL;
		return NULL;
	}
	expr = create_hist_field(NULL, flags | HIST_FIELD_FL_EXPR, "");
	if (!expr) {
		destroy_hist_field(operand);
		*errp = -ENOMEM;
		return NULL;
	}
	expr->flags |= operand->flags &
		(HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr->fn = HIST_FN_UMINUS;
	expr->operands[0] = operand;
	expr->size = operand->size;
	expr->is_signed = operand->is_signed;
	free(expr->name);
	expr->name = expr_str(expr, OP_UMINUS);
	free(expr->type);
	expr->type = strdup(operand->type);
	if (!expr->name || !expr->type) {
		destroy_hist_field(expr);
		*errp = -ENOMEM;
		return NULL;
	}
	return expr;
}

struct hist_field *parse_expr(struct parse_state *ps, char *str,
			      unsigned long flags, unsigned int *n_subexprs,
			      int *errp)
{
	struct hist_field *op1 = NULL, *op2 = NULL, *expr;
	char *sep, *op1_str;
	int op;

	if (*n_subexprs > 3) {
		hist_err(ps->ec, HIST_ERR_TOO_MANY_SUBEXPR, hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		return NULL;
	}
	op = contains_operator(str, &sep);
	if (op == OP_NONE)
		return parse_atom(ps, str, &flags, errp);
	if (op == OP_UMINUS)
		return parse_unary(ps, str, flags, n_subexprs, errp);

	++*n_subexprs;
	*sep = '\0';
	op1_str = str;
	str = sep + 1;
	if (!*op1_str || !*str) {
		*errp = -EINVAL;
		return NULL;
	}
	op1 = parse_expr(ps, op1_str, 0, n_subexprs, errp);
	if (!op1)
		return NULL;
	if (op1->flags & HIST_FIELD_FL_STRING) {
		hist_err(ps->ec, HIST_ERR_INVALID_STR_OPERAND,
			 hist_errpos(ps->ec, op1_str));
		*errp = -EINVAL;
		goto fail;
	}
	op2 = parse_expr(ps, str, 0, n_subexprs, errp);
	if (!op2)
		goto fail;
	if (op2->flags & HIST_FIELD_FL_STRING) {
		hist_err(ps->ec, HIST_ERR_INVALID_STR_OPERAND,
			 hist_errpos(ps->ec, str));
		*errp = -EINVAL;
		goto fail;
	}
	if ((op1->flags & HIST_FIELD_FL_TIMESTAMP_USECS) !=
	    (op2->flags & HIST_FIELD_FL_TIMESTAMP_USECS)) {
		hist_err(ps->ec, HIST_ERR_TIMESTAMP_MISMATCH, 0);
		*errp = -EINVAL;
		goto fail;
	}
	{
		bool combine = op1->flags & op2->flags & HIST_FIELD_FL_CONST;

		flags |= combine ? HIST_FIELD_FL_CONST : HIST_FIELD_FL_EXPR;
		flags |= op1->flags &
			(HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
		expr = create_hist_field(NULL, flags, "");
		if (!expr) {
			*errp = -ENOMEM;
			goto fail;
		}
		expr->operands[0] = op1;
		expr->operands[1] = op2;
		expr->fn = op == OP_MINUS ? HIST_FN_MINUS :
			   op == OP_PLUS ? HIST_FN_PLUS :
			   op == OP_DIV ? HIST_FN_DIV : HIST_FN_MULT;
		if (op == OP_DIV && (op2->flags & HIST_FIELD_FL_CONST) &&
		    !op2->constant) {
			hist_err(ps->ec, HIST_ERR_DIVISION_BY_ZERO,
				 hist_errpos(ps->ec, str));
			destroy_hist_field(expr);
			*errp = -EDOM;
			return NULL;
		}
		if (combine) {
			expr->constant = eval_const(expr);
			expr->fn = HIST_FN_CONST;
			expr->operands[0] = expr->operands[1] = NULL;
			destroy_hist_field(op1);
			destroy_hist_field(op2);
			/* a constant's name is "" (hist_field_name) */
		} else {
			expr->size = op1->size;
			expr->is_signed = op1->is_signed;
			free(expr->type);
			expr->type = strdup(op1->type);
			free(expr->name);
			expr->name = expr_str(expr, op);
		}
		if (!expr->name || !expr->type) {
			destroy_hist_field(expr);
			*errp = -ENOMEM;
			return NULL;
		}
		return expr;
	}
fail:
	destroy_hist_field(op1);
	destroy_hist_field(op2);
	return NULL;
}

/* Constant folding: the operators on constants (kernel arithmetic). */
static uint64_t eval_const(const struct hist_field *e)
{
	uint64_t a = e->operands[0]->constant, b = e->operands[1]->constant;

	switch (e->fn) {
	case HIST_FN_MINUS: return a - b;
	case HIST_FN_PLUS: return a + b;
	case HIST_FN_MULT: return a * b;
	case HIST_FN_DIV: return b ? a / b : (uint64_t)-1;
	default: return 0;
	}
}
