// SPDX-License-Identifier: GPL-2.0
/*
 * filter_parse.c - compiles a filter string into a predicate program.
 *
 * A port of the kernel's parser (kernel/trace/trace_events_filter.c:
 * calc_stack, predicate_parse, parse_pred), kept close to the original so
 * that every error comes out with the kernel's text, caret and errno:
 *
 *  - calc_stack() pre-scans for quotes and parentheses.  Its failures have
 *    odd errnos, seen on 6.12 and 6.18: -EPERM for a ')' too many, -ENOENT
 *    for a '(' too many, -ESRCH for a missing quote.
 *  - predicate_parse() walks "( ! pred && || )" and builds the program;
 *    junk after a predicate is -EPERM, a predicate that does not start
 *    with a field name is -EPERM with no message ("Error: (0)").
 *  - parse_pred() reads "field[.ustring][.function] OP value".  Its caret
 *    positions are one past the kernel's own index (pos is ptr - str with
 *    ptr already advanced), which is what the kernel shows.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter/filter_internal.h"
#include "util/kstrto.h"

#define INVERT		1
#define PROCESS_AND	2
#define PROCESS_OR	4

static const char *const ops[] = { "~", "!=", "==", "<=", "<", ">=", ">",
				   "&", NULL };

static unsigned nr_cpus(const struct tf_filter_env *env)
{
	long n;

	if (env && env->nr_cpus)
		return env->nr_cpus;
	n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? (unsigned)n : 1;
}

/* What .function resolves with: none without an environment. */
static const struct tf_filter_symbols no_symbols;

struct parse_state {
	const struct tf_filter_symbols *symbols;
	const struct tf_event *ev;
	struct tf_filter *filter;
	struct tf_filter_error *pe;
};

static void parse_error(struct tf_filter_error *pe, int err, int pos)
{
	pe->err = err;
	pe->pos = pos;
}

/* ---- fields ---------------------------------------------------------- */

/* The generic fields every event has (trace_define_generic_fields). */
static const struct tf_field generic_fields[] = {
	{ "CPU", "int", 0, 0, true, false, TF_FIELD_NUM },
	{ "cpu", "int", 0, 0, true, false, TF_FIELD_NUM },
	{ "common_cpu", "int", 0, 0, true, false, TF_FIELD_NUM },
	{ "COMM", "char *", 0, 0, false, false, TF_FIELD_STR_PTR },
	{ "comm", "char *", 0, 0, false, false, TF_FIELD_STR_PTR },
	{ "stacktrace", "char *", 0, 0, false, false, TF_FIELD_NUM },
	{ "STACKTRACE", "char *", 0, 0, false, false, TF_FIELD_NUM },
};
static const enum tf_filter_type generic_types[] = {
	TF_FT_CPU, TF_FT_CPU, TF_FT_CPU, TF_FT_COMM, TF_FT_COMM,
	TF_FT_STACKTRACE, TF_FT_STACKTRACE,
};

/* filter_assign_type(), plus the schema's own idea of the field. */
static enum tf_filter_type field_filter_type(const struct tf_field *f)
{
	const char *t = f->type ? f->type : "";
	bool has_char = strstr(t, "char") != NULL;

	if (strstr(t, "__data_loc")) {
		if (has_char)
			return TF_FT_DYN_STRING;
		if (strstr(t, "cpumask_t"))
			return TF_FT_CPUMASK;
	}
	if (strstr(t, "__rel_loc") && has_char)
		return TF_FT_RDYN_STRING;
	if (strchr(t, '[') && has_char)
		return TF_FT_STATIC_STRING;
	if (strcmp(t, "char *") == 0 || strcmp(t, "const char *") == 0)
		return TF_FT_PTR_STRING;

	/* Schemas that keep the array size out of the type string. */
	switch (f->kind) {
	case TF_FIELD_STR_STATIC:
		return TF_FT_STATIC_STRING;
	case TF_FIELD_ARRAY:
		return has_char ? TF_FT_STATIC_STRING : TF_FT_OTHER;
	case TF_FIELD_STR_DYN:
		return strstr(t, "cpumask") ? TF_FT_CPUMASK : TF_FT_DYN_STRING;
	case TF_FIELD_STR_REL:
		return TF_FT_RDYN_STRING;
	case TF_FIELD_CPUMASK:
		return strstr(t, "__data_loc") || strstr(t, "cpumask_t") ?
			TF_FT_CPUMASK : TF_FT_OTHER;
	default:
		return TF_FT_OTHER;
	}
}

/*
 * trace_find_event_field(): the event's own fields, then the generic
 * ones, then the common ones.  So an event's real `comm` or `cpu` wins.
 */
static const struct tf_field *find_field(const struct tf_event *ev,
					 const char *name, size_t len,
					 enum tf_filter_type *type)
{
	unsigned i;

	for (int pass = 0; pass < 3; pass++) {
		if (pass == 1) {
			for (i = 0; i < sizeof(generic_fields) /
					sizeof(generic_fields[0]); i++) {
				const struct tf_field *g = &generic_fields[i];

				if (strlen(g->name) == len &&
				    memcmp(g->name, name, len) == 0) {
					*type = generic_types[i];
					return g;
				}
			}
			continue;
		}
		for (i = 0; ev && i < ev->nr_fields; i++) {
			const struct tf_field *f = &ev->fields[i];

			if (f->is_common != (pass == 2))
				continue;
			if (strlen(f->name) == len &&
			    memcmp(f->name, name, len) == 0) {
				*type = field_filter_type(f);
				return f;
			}
		}
	}
	return NULL;
}

static bool is_string_type(enum tf_filter_type t)
{
	return t == TF_FT_DYN_STRING || t == TF_FT_RDYN_STRING ||
	       t == TF_FT_STATIC_STRING || t == TF_FT_PTR_STRING ||
	       t == TF_FT_COMM;
}

/* ---- numbers --------------------------------------------------------- */

/* The kernel's kstrtoull(s, 0, res) on a NUL-terminated token. */
static int k_strtoull(const char *s, uint64_t *res)
{
	return tf_kstrtoull(s, 0, res);
}

static int k_strtoll(const char *s, int64_t *res)
{
	return tf_kstrtoll(s, 0, res);
}

/* ---- CPUS{} ---------------------------------------------------------- */

static bool end_of_str(char c) { return c == '\0' || c == '\n'; }
static bool end_of_region_(char c) { return isspace((unsigned char)c) || c == ','; }
static bool end_of_region(char c) { return end_of_region_(c) || end_of_str(c); }

/* bitmap_getnum(): NULL on error. */
static const char *getnum(const char *s, unsigned *num, unsigned lastbit)
{
	uint64_t n = 0;
	int len = 0;

	if (s[0] == 'N') {
		*num = lastbit;
		return s + 1;
	}
	while (isdigit((unsigned char)s[len])) {
		n = n * 10 + (unsigned)(s[len] - '0');
		if (n > 0xffffffffu)
			return NULL;
		len++;
	}
	if (!len)
		return NULL;
	*num = (unsigned)n;
	return s + len;
}

static void mask_set(uint64_t *mask, unsigned bit)
{
	mask[bit / 64] |= 1ULL << (bit % 64);
}

/* bitmap_parselist() over @nbits: 0 or -1. */
static int parse_cpulist(const char *s, uint64_t *mask, unsigned nbits)
{
	unsigned lastbit = nbits - 1;

	while (s) {
		unsigned start, end, off, group;

		while (end_of_region_(*s))
			s++;
		if (end_of_str(*s))
			return 0;
		if (strncasecmp(s, "all", 3) == 0) {
			start = 0;
			end = lastbit;
			s += 3;
			goto check_pattern;
		}
		s = getnum(s, &start, lastbit);
		if (!s)
			return -1;
		if (end_of_region(*s)) {
			end = start;
			goto no_pattern;
		}
		if (*s != '-')
			return -1;
		s = getnum(s + 1, &end, lastbit);
		if (!s)
			return -1;
check_pattern:
		if (end_of_region(*s))
			goto no_pattern;
		if (*s != ':')
			return -1;
		s = getnum(s + 1, &off, lastbit);
		if (!s || *s != '/')
			return -1;
		s = getnum(s + 1, &group, lastbit);
		if (!s)
			return -1;
		goto check;
no_pattern:
		off = end + 1;
		group = end + 1;
		s = end_of_str(*s) ? NULL : s;
check:
		if (start > end || group == 0 || off > group)
			return -1;
		if (end >= nbits)
			return -1;
		for (unsigned b = start; b <= end; b += group)
			for (unsigned k = 0; k < off && b + k <= end; k++)
				mask_set(mask, b + k);
	}
	return 0;
}

static unsigned mask_weight(const uint64_t *mask, unsigned nbits,
			    unsigned *first)
{
	unsigned w = 0;

	for (unsigned b = nbits; b-- > 0; )
		if (mask[b / 64] >> (b % 64) & 1) {
			w++;
			*first = b;
		}
	return w;
}

/* ---- predicates ------------------------------------------------------ */

/*
 * filter_parse_regex() + filter_build_regex(): a glob's fast paths.  A
 * leading '!' inverts; a pattern starting with a digit is matched whole.
 */
static void build_regex(struct tf_pred *pred)
{
	char *buff = pred->pattern;
	int len = pred->rlen, type = TF_MATCH_FULL, not = 0;
	char *search;

	if (pred->op != TF_OP_GLOB) {
		pred->match = TF_MATCH_FULL;
		return;
	}
	if (buff[0] == '!') {
		not = 1;
		buff++;
		len--;
	}
	search = buff;
	if (isdigit((unsigned char)buff[0]))
		goto done;	/* MATCH_INDEX, matched as FULL */
	for (int i = 0; i < len; i++) {
		if (buff[i] == '*') {
			if (!i) {
				type = TF_MATCH_END;
			} else if (i == len - 1) {
				type = type == TF_MATCH_END ? TF_MATCH_MIDDLE
							    : TF_MATCH_FRONT;
				buff[i] = 0;
				break;
			} else {
				type = TF_MATCH_GLOB;
				goto done;
			}
		} else if (strchr("[?\\", buff[i])) {
			type = TF_MATCH_GLOB;
			goto done;
		}
	}
	if (buff[0] == '*')
		search = buff + 1;
done:
	pred->rlen = (int)strlen(search);
	memmove(pred->pattern, search, pred->rlen + 1);
	pred->match = type;
	pred->not ^= not;
}

/* select_comparison_fn() */
static int comparison_fn(int op, unsigned size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return TF_FN_NOP;
	return op == TF_OP_EQ || op == TF_OP_NE ? TF_FN_NUM_EQ : TF_FN_NUM_CMP;
}

static bool is_alnum(char c) { return isalnum((unsigned char)c); }
static bool is_space(char c) { return isspace((unsigned char)c); }

/* .function's value: an address or a symbol, to [start, end). */
static int parse_function(const struct tf_filter_symbols *symbols,
			  const char *str, int *ip, int pos, int s,
			  struct tf_pred *pred, struct tf_filter_error *pe)
{
	char buf[TF_MAX_FILTER_STR_VAL * 16];
	uint64_t addr = 0, start, end;
	int i = *ip, len;

	if (isdigit((unsigned char)str[i])) {
		while (is_alnum(str[i]))
			i++;
		len = i - s;
		if (len >= 24) {
			parse_error(pe, TF_FILT_ERR_OPERAND_TOO_LONG, pos + i);
			return -EINVAL;
		}
		memcpy(buf, str + s, len);
		buf[len] = 0;
		if (k_strtoull(buf, &addr)) {
			parse_error(pe, TF_FILT_ERR_INVALID_VALUE, pos + i);
			return -EINVAL;
		}
	} else {
		s = i;
		while (str[i] && !is_space(str[i]))
			i++;
		len = i - s;
		if (symbols->lookup_name && len < (int)sizeof(buf)) {
			memcpy(buf, str + s, len);
			buf[len] = 0;
			addr = symbols->lookup_name(symbols->data, buf);
		}
		if (!addr) {
			parse_error(pe, TF_FILT_ERR_NO_FUNCTION, pos + i);
			return -EINVAL;
		}
	}
	if (!symbols->lookup_addr ||
	    !symbols->lookup_addr(symbols->data, addr, &start, &end)) {
		parse_error(pe, TF_FILT_ERR_NO_FUNCTION, pos + i);
		return -EINVAL;
	}
	pred->fn = TF_FN_FUNCTION;
	pred->val = start;
	pred->val2 = end;
	*ip = i;
	return 0;
}

static int parse_cpus(const char *str, int *ip, int pos,
		      const struct tf_field *field, enum tf_filter_type ftype,
		      struct tf_pred *pred, unsigned ncpus,
		      struct tf_filter_error *pe)
{
	int i = *ip, maskstart;
	unsigned first = 0, words = (ncpus + 63) / 64;
	bool single;
	char *tmp;

	switch (ftype) {
	case TF_FT_CPUMASK:
	case TF_FT_CPU:
	case TF_FT_OTHER:
		break;
	default:
		parse_error(pe, TF_FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
		return -EINVAL;
	}
	switch (pred->op) {
	case TF_OP_EQ:
	case TF_OP_NE:
	case TF_OP_BAND:
		break;
	default:
		parse_error(pe, TF_FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
		return -EINVAL;
	}
	i += 4;
	if (str[i++] != '{') {
		parse_error(pe, TF_FILT_ERR_MISSING_BRACE_OPEN, pos + i);
		return -EINVAL;
	}
	maskstart = i;
	while (str[i] && str[i] != '}')
		i++;
	if (str[i] != '}') {
		parse_error(pe, TF_FILT_ERR_MISSING_BRACE_CLOSE, pos + i);
		return -EINVAL;
	}
	if (maskstart == i) {
		parse_error(pe, TF_FILT_ERR_INVALID_CPULIST, pos + i);
		return -EINVAL;
	}
	pred->mask = calloc(words, sizeof(uint64_t));
	tmp = strndup(str + maskstart, i - maskstart);
	if (!pred->mask || !tmp) {
		free(tmp);
		return -ENOMEM;
	}
	if (parse_cpulist(tmp, pred->mask, ncpus)) {
		free(tmp);
		parse_error(pe, TF_FILT_ERR_INVALID_CPULIST, pos + i);
		return -EINVAL;
	}
	free(tmp);
	i++;

	single = mask_weight(pred->mask, ncpus, &first) == 1;
	if (single) {
		pred->val = first;
		free(pred->mask);
		pred->mask = NULL;
	}
	if (ftype == TF_FT_CPUMASK) {
		pred->fn = single ? TF_FN_CPUMASK_CPU : TF_FN_CPUMASK;
	} else if (ftype == TF_FT_CPU) {
		if (single) {
			if (pred->op == TF_OP_BAND)
				pred->op = TF_OP_EQ;
			pred->fn = TF_FN_CPU;
		} else {
			pred->fn = TF_FN_CPU_CPUMASK;
		}
	} else if (single) {
		if (pred->op == TF_OP_BAND)
			pred->op = TF_OP_EQ;
		pred->fn = comparison_fn(pred->op, field->size);
		if (pred->op == TF_OP_NE)
			pred->not = 1;
	} else {
		switch (field->size) {
		case 1: case 2: case 4: case 8:
			pred->fn = TF_FN_SCALAR_CPUMASK;
			break;
		default:
			parse_error(pe, TF_FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
			return -EINVAL;
		}
	}
	*ip = i;
	return 0;
}

/*
 * parse_pred(): one "field OP value" at @str; @pos is the kernel's base
 * for caret positions.  Returns the length consumed, -1 when @str does not
 * start with a field name (no message), or a negative errno.
 */
static int parse_pred(struct parse_state *ps, const char *str, int pos,
		      struct tf_pred *pred)
{
	struct tf_filter_error *pe = ps->pe;
	const struct tf_field *field;
	enum tf_filter_type ftype;
	bool ustring = false;
	int i = 0, s, len, op, ret;

	while (is_space(str[i]))
		i++;
	s = i;
	while (is_alnum(str[i]) || str[i] == '_')
		i++;
	len = i - s;
	if (!len)
		return -1;

	field = find_field(ps->ev, str + s, len, &ftype);
	if (!field) {
		parse_error(pe, TF_FILT_ERR_FIELD_NOT_FOUND, pos + i);
		return -EINVAL;
	}

	bool function = false;

	if (strncmp(str + i, ".ustring", 8) == 0) {
		ustring = true;
		i += 8;
	}
	if (strncmp(str + i, ".function", 9) == 0) {
		function = true;
		i += 9;
	}
	(void)ustring;	/* char * contents are not in the record either way */

	while (is_space(str[i]))
		i++;
	for (op = 0; ops[op]; op++)
		if (strncmp(str + i, ops[op], strlen(ops[op])) == 0)
			break;
	if (!ops[op]) {
		parse_error(pe, TF_FILT_ERR_INVALID_OP, pos + i);
		return -EINVAL;
	}
	i += (int)strlen(ops[op]);
	while (is_space(str[i]))
		i++;
	s = i;

	memset(pred, 0, sizeof(*pred));
	pred->offset = field->offset;
	pred->size = field->size;
	pred->is_signed = field->is_signed;
	pred->op = (uint8_t)op;

	if (function) {
		if (field->size != 8) {	/* sizeof(long) */
			parse_error(pe, TF_FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
			return -EINVAL;
		}
		if (op != TF_OP_EQ && op != TF_OP_NE) {
			parse_error(pe, TF_FILT_ERR_INVALID_OP, pos + i);
			return -EINVAL;
		}
		ret = parse_function(ps->symbols, str, &i, pos, s, pred, pe);
		if (ret)
			return ret;
	} else if (strncmp(str + i, "CPUS", 4) == 0) {
		ret = parse_cpus(str, &i, pos, field, ftype, pred,
				 ps->filter->nr_cpus, pe);
		if (ret)
			return ret;
	} else if (str[i] == '\'' || str[i] == '"') {
		char q = str[i];

		switch (op) {
		case TF_OP_NE:
			pred->not = 1;
			/* fall through */
		case TF_OP_GLOB:
		case TF_OP_EQ:
			break;
		default:
			parse_error(pe, TF_FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
			return -EINVAL;
		}
		if (!is_string_type(ftype)) {
			parse_error(pe, TF_FILT_ERR_EXPECT_DIGIT, pos + i);
			return -EINVAL;
		}
		for (i++; str[i]; i++)
			if (str[i] == q)
				break;
		if (!str[i]) {
			parse_error(pe, TF_FILT_ERR_MISSING_QUOTE, pos + i);
			return -EINVAL;
		}
		s++;
		len = i - s;
		if (len >= TF_MAX_FILTER_STR_VAL) {
			parse_error(pe, TF_FILT_ERR_OPERAND_TOO_LONG, pos + i);
			return -EINVAL;
		}
		memcpy(pred->pattern, str + s, len);
		pred->pattern[len] = 0;
		pred->rlen = len;
		build_regex(pred);

		switch (ftype) {
		case TF_FT_COMM:
			pred->fn = TF_FN_COMM;
			break;
		case TF_FT_STATIC_STRING:
			pred->fn = TF_FN_STRING;
			pred->field_len = (int)field->size;
			break;
		case TF_FT_DYN_STRING:
			pred->fn = TF_FN_STRLOC;
			break;
		case TF_FT_RDYN_STRING:
			pred->fn = TF_FN_STRRELLOC;
			break;
		default:
			pred->fn = TF_FN_PCHAR;
			break;
		}
		i++;
	} else if (isdigit((unsigned char)str[i]) || str[i] == '-') {
		char num_buf[24];
		uint64_t val;

		if (is_string_type(ftype)) {
			parse_error(pe, TF_FILT_ERR_EXPECT_STRING, pos + i);
			return -EINVAL;
		}
		if (op == TF_OP_GLOB) {
			parse_error(pe, TF_FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
			return -EINVAL;
		}
		if (str[i] == '-')
			i++;
		while (is_alnum(str[i]))
			i++;
		len = i - s;
		if (len >= (int)sizeof(num_buf)) {
			parse_error(pe, TF_FILT_ERR_OPERAND_TOO_LONG, pos + i);
			return -EINVAL;
		}
		memcpy(num_buf, str + s, len);
		num_buf[len] = 0;
		if (field->is_signed) {
			int64_t sv;

			ret = k_strtoll(num_buf, &sv);
			val = (uint64_t)sv;
		} else {
			ret = k_strtoull(num_buf, &val);
		}
		if (ret) {
			parse_error(pe, TF_FILT_ERR_ILLEGAL_INTVAL, pos + s);
			return -EINVAL;
		}
		pred->val = val;
		if (ftype == TF_FT_CPU) {
			pred->fn = TF_FN_CPU;
		} else {
			pred->fn = comparison_fn(op, field->size);
			if (op == TF_OP_NE)
				pred->not = 1;
		}
	} else {
		parse_error(pe, TF_FILT_ERR_INVALID_VALUE, pos + i);
		return -EINVAL;
	}
	return i;
}

/* ---- the expression -------------------------------------------------- */

/*
 * calc_stack(): counts predicates and parentheses, and catches unbalanced
 * parentheses and quotes before anything is parsed.
 */
static int calc_stack(const char *str, int *parens, int *preds,
		      struct tf_filter_error *pe)
{
	bool is_pred = false;
	int nr_preds = 0, open = 1, max_open = 1, last_quote = 0;
	char quote = 0;
	int i;

	*parens = 0;
	for (i = 0; str[i]; i++) {
		if (is_space(str[i]))
			continue;
		if (quote) {
			if (str[i] == quote)
				quote = 0;
			continue;
		}
		switch (str[i]) {
		case '\'':
		case '"':
			quote = str[i];
			last_quote = i;
			break;
		case '|':
		case '&':
			if (str[i + 1] != str[i])
				break;
			is_pred = false;
			continue;
		case '(':
			is_pred = false;
			open++;
			if (open > max_open)
				max_open = open;
			continue;
		case ')':
			is_pred = false;
			if (open == 1) {
				parse_error(pe, TF_FILT_ERR_TOO_MANY_CLOSE, i);
				return -EPERM;
			}
			open--;
			continue;
		}
		if (!is_pred) {
			nr_preds++;
			is_pred = true;
		}
	}
	if (quote) {
		parse_error(pe, TF_FILT_ERR_MISSING_QUOTE, last_quote);
		return -ESRCH;
	}
	if (open != 1) {
		int level = open;

		/* find the bad open */
		for (i--; i; i--) {
			if (quote) {
				if (str[i] == quote)
					quote = 0;
				continue;
			}
			switch (str[i]) {
			case '(':
				if (level == open) {
					parse_error(pe,
						TF_FILT_ERR_TOO_MANY_OPEN, i);
					return -ENOENT;
				}
				level--;
				break;
			case ')':
				level++;
				break;
			case '\'':
			case '"':
				quote = str[i];
				break;
			}
		}
		/* First character is the '(' with missing ')' */
		parse_error(pe, TF_FILT_ERR_TOO_MANY_OPEN, 0);
		return -ENOENT;
	}
	*parens = max_open;
	*preds = nr_preds;
	return 0;
}

static bool is_not(const char *str)
{
	return str[1] != '=' && str[1] != '~';
}

static void update_preds(struct tf_prog_entry *prog, int n, int invert)
{
	int t = prog[n].target, s = prog[t].target;

	prog[t].when_to_branch = invert;
	prog[t].target = n;
	prog[n].target = s;
}

/* predicate_parse(): the kernel's three passes (see its long comment). */
static int predicate_parse(struct parse_state *ps, const char *str,
			   int nr_parens, int nr_preds)
{
	struct tf_filter *filter = ps->filter;
	struct tf_filter_error *pe = ps->pe;
	struct tf_prog_entry *prog;
	const char *ptr = str;
	char *inverts = NULL;
	int *op_stack, *top;
	int invert = 0, ret = -ENOMEM, len, N = 0, i;
	/* calc_stack()'s count; a quote it skipped can hide predicates the
	 * parse finds (a cpulist keeps quotes): those are too many terms,
	 * as on 6.12, and never written past prog's TRUE and FALSE */
	const int counted = nr_preds;

	nr_preds += 2;	/* TRUE and FALSE */
	op_stack = calloc(nr_parens + 1, sizeof(*op_stack));
	prog = calloc(nr_preds + 1, sizeof(*prog));
	filter->preds = calloc(nr_preds, sizeof(*filter->preds));
	inverts = calloc(nr_preds, 1);
	filter->nr_alloc = filter->preds ? nr_preds : 0;
	filter->prog = prog;
	if (!op_stack || !prog || !filter->preds || !inverts)
		goto out_free;

	top = op_stack;
	*top = 0;

	while (*ptr) {
		const char *next = ptr++;

		if (is_space(*next))
			continue;
		switch (*next) {
		case '(':
			if (top - op_stack > nr_parens) {
				ret = -EINVAL;
				goto out_free;
			}
			*(++top) = invert;
			continue;
		case '!':
			if (!is_not(next))
				break;
			invert = !invert;
			continue;
		}
		if (N >= counted) {
			parse_error(pe, TF_FILT_ERR_TOO_MANY_PREDS,
				    (int)(next - str));
			goto out_free;
		}
		inverts[N] = (char)invert;
		prog[N].target = N - 1;

		len = parse_pred(ps, next, (int)(ptr - str),
				 &filter->preds[N]);
		if (len < 0) {
			ret = len;
			goto out_free;
		}
		prog[N].pred = &filter->preds[N];
		ptr = next + len;
		N++;

		ret = -1;
		while (1) {
			next = ptr++;
			if (is_space(*next))
				continue;
			switch (*next) {
			case ')':
			case '\0':
				break;
			case '&':
			case '|':
				if (next[1] == next[0]) {
					ptr++;
					break;
				}
				/* fall through */
			default:
				parse_error(pe, TF_FILT_ERR_TOO_MANY_PREDS,
					    (int)(next - str));
				goto out_free;
			}
			invert = *top & INVERT;
			if (*top & PROCESS_AND) {
				update_preds(prog, N - 1, invert);
				*top &= ~PROCESS_AND;
			}
			if (*next == '&') {
				*top |= PROCESS_AND;
				break;
			}
			if (*top & PROCESS_OR) {
				update_preds(prog, N - 1, !invert);
				*top &= ~PROCESS_OR;
			}
			if (*next == '|') {
				*top |= PROCESS_OR;
				break;
			}
			if (!*next)
				goto out;
			if (top == op_stack) {
				ret = -1;
				parse_error(pe, TF_FILT_ERR_TOO_MANY_CLOSE,
					    (int)(ptr - str));
				goto out_free;
			}
			top--;
		}
	}
	/* The string ended after an operator, '(' or '!'. */
	ret = -EINVAL;
	if (!N)
		parse_error(pe, TF_FILT_ERR_NO_FILTER, (int)(ptr - str));
	else
		parse_error(pe, TF_FILT_ERR_INVALID_FILTER, (int)(ptr - str));
	goto out_free;
out:
	if (top != op_stack) {
		parse_error(pe, TF_FILT_ERR_TOO_MANY_OPEN, (int)(ptr - str));
		goto out_free;
	}
	prog[N].pred = NULL;
	prog[N].target = 1;		/* TRUE */
	prog[N + 1].pred = NULL;
	prog[N + 1].target = 0;		/* FALSE */
	prog[N - 1].target = N;
	prog[N - 1].when_to_branch = false;

	/* Second pass: jump straight to where a chain of jumps ends. */
	for (i = N - 1; i--; ) {
		int target = prog[i].target;

		if (prog[i].when_to_branch == prog[target].when_to_branch)
			prog[i].target = prog[target].target;
	}
	/* Third pass: fold the inversions into the branch conditions. */
	for (i = 0; i < N; i++) {
		invert = inverts[i] ^ prog[i].when_to_branch;
		prog[i].when_to_branch = invert;
		if (prog[i].target <= i) {
			ret = -EINVAL;
			goto out_free;
		}
	}
	filter->n = N;
	free(op_stack);
	free(inverts);
	return 0;

out_free:
	/* the caller frees filter->prog/preds (and their masks) */
	filter->n = N;
	free(op_stack);
	free(inverts);
	return ret;
}

/* ---- public ---------------------------------------------------------- */

char *tf_filter_stored(const char *str)
{
	size_t n = strlen(str);

	while (n && is_space(str[n - 1]))
		n--;
	return strndup(str, n);
}

bool tf_filter_is_clear(const char *str)
{
	size_t n;

	while (is_space(*str))
		str++;
	n = strlen(str);
	while (n && is_space(str[n - 1]))
		n--;
	return n == 1 && str[0] == '0';
}

void tf_filter_free(struct tf_filter *f)
{
	if (!f)
		return;
	if (f->preds)
		for (int i = 0; i < f->nr_alloc; i++)
			free(f->preds[i].mask);
	free(f->preds);
	free(f->prog);
	free(f->string);
	free(f);
}

int tf_filter_compile(const struct tf_filter_env *env,
		      const struct tf_event *ev, const char *str,
		      struct tf_filter **out, struct tf_filter_error *err)
{
	struct tf_filter_error dummy;
	struct parse_state ps;
	struct tf_filter *f;
	int nr_parens, nr_preds, ret;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	*out = NULL;

	f = calloc(1, sizeof(*f));
	if (!f || !(f->string = tf_filter_stored(str))) {
		free(f);
		err->errnum = -ENOMEM;
		return -ENOMEM;
	}
	f->nr_cpus = nr_cpus(env);
	ps.symbols = env ? &env->symbols : &no_symbols;
	ps.ev = ev;
	ps.filter = f;
	ps.pe = err;

	ret = calc_stack(f->string, &nr_parens, &nr_preds, err);
	if (ret)
		goto fail;
	if (!nr_preds) {
		ret = -EINVAL;
		goto fail;
	}
	ret = predicate_parse(&ps, f->string, nr_parens, nr_preds);
	if (ret)
		goto fail;
	*out = f;
	return 0;
fail:
	err->errnum = ret;
	tf_filter_free(f);
	return ret;
}

bool tf_filter_lacks_field(const struct tf_filter_env *env,
			   const struct tf_event *ev, const char *str)
{
	struct tf_filter_error e;
	struct tf_filter *f;

	if (tf_filter_compile(env, ev, str, &f, &e) == 0) {
		tf_filter_free(f);
		return false;
	}
	return e.err == TF_FILT_ERR_FIELD_NOT_FOUND;
}
