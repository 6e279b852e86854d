/*
 * hist_parse.c - from a hist command's text to a hist_data: the
 * attributes (keys=, vals=, sort=, size=, name=, clock=, pause/cont/clear,
 * nohitcount), the lists of keys and values (each parsed by hist_field.c),
 * the sort keys, and the tracing_map that holds the entries.
 *
 * Follows trace_events_hist.c step by step, because the order of checks
 * decides which error a bad command gets, and where its caret goes: the
 * caret is the first occurrence of the offending token in the logged
 * command (err_pos), found with strstr even when that is another place.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist_internal.h"

const char *const hist_err_text[HIST_ERR_MAX] = {
	"No error",
	"Variable already defined",
	"Variable name not unique, need to use fully qualified name (subsys.event.var) for variable",
	"Too many variables defined",
	"Malformed assignment",
	"Named hist trigger doesn't match existing named trigger (includes variables)",
	"Hist trigger already exists",
	"Can't clear or continue a nonexistent hist trigger",
	"Couldn't set trace_clock",
	"Invalid field modifier",
	"Too many subexpressions (3 max)",
	"Timestamp units in expression don't match",
	"Too many field variables defined",
	"Event file not found",
	"Matching event histogram not found",
	"Couldn't create histogram for field",
	"Couldn't find synthetic variable",
	"Couldn't find synthetic event",
	"Param type doesn't match synthetic event field type",
	"Param count doesn't match synthetic event field count",
	"Couldn't parse field variable",
	"Couldn't create or find variable",
	"For onmax(x) or onchange(x), x must be a variable",
	"Couldn't find onmax or onchange variable",
	"Couldn't create onmax or onchange variable",
	"Couldn't create field variable",
	"Too many action params",
	"Couldn't find param",
	"Invalid action param",
	"No action found",
	"No params found for save()",
	"Can't have more than one save() action per hist",
	"Handler doesn't support action",
	"No closing paren found",
	"Missing subsystem",
	"Invalid subsystem or event name",
	"Using variable references in keys not supported",
	"Couldn't find variable",
	"Couldn't find field",
	"Empty assignment",
	"Invalid sort modifier",
	"Empty sort field",
	"Too many sort fields (Max = 2)",
	"Sort field must be a key or a val",
	"String type can not be an operand in expression",
	"Expecting numeric literal",
	"Unary minus not supported in sub-expressions",
	"Division by zero",
	"Non-hitcount value is required for 'nohitcount'",
};

/* ---- error_log ---------------------------------------------------------- */

unsigned int hist_errpos(struct hist_err_ctx *ec, const char *str)
{
	const char *found;

	if (!str || !ec->last_cmd)
		return 0;
	found = strstr(ec->last_cmd, str);
	return found ? (unsigned int)(found - ec->last_cmd) : 0;
}

void hist_err(struct hist_err_ctx *ec, int err_type, unsigned int pos)
{
	if (!ec->last_cmd || !ec->tr)
		return;
	tf_error_log_add(&ec->tr->error_log, ec->loc, ec->last_cmd, pos,
			 hist_err_text[err_type]);
}

/* ---- attributes ---------------------------------------------------------- */

void hist_attrs_free(struct hist_attrs *attrs)
{
	if (!attrs)
		return;
	free(attrs->keys_str);
	free(attrs->vals_str);
	free(attrs->sort_key_str);
	free(attrs->name);
	free(attrs->clock);
	for (unsigned int i = 0; i < attrs->n_assignments; i++)
		free(attrs->assignment_str[i]);
	free(attrs);
}

static int parse_map_size(const char *str)
{
	unsigned long long size;
	unsigned int bits;

	if (hist_kstrtoull(str, &size))
		return -EINVAL;
	bits = tracing_map_size_to_bits(size);
	if (size == 0 || bits < TRACING_MAP_BITS_MIN || bits > TRACING_MAP_BITS_MAX)
		return -EINVAL;
	return (int)bits;
}

static char *strstrip(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static int set_str(char **dst, const char *src)
{
	char *s = strdup(src);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

static int parse_assignment(struct hist_err_ctx *ec, char *str,
			    struct hist_attrs *attrs)
{
	if (!strncmp(str, "key=", 4))
		return set_str(&attrs->keys_str, str + 4);
	if (!strncmp(str, "keys=", 5))
		return set_str(&attrs->keys_str, str + 5);
	if (!strncmp(str, "val=", 4))
		return set_str(&attrs->vals_str, str + 4);
	if (!strncmp(str, "vals=", 5))
		return set_str(&attrs->vals_str, str + 5);
	if (!strncmp(str, "values=", 7))
		return set_str(&attrs->vals_str, str + 7);
	if (!strncmp(str, "sort=", 5))
		return set_str(&attrs->sort_key_str, str + 5);
	if (!strncmp(str, "name=", 5))
		return set_str(&attrs->name, str);
	if (!strncmp(str, "clock=", 6))
		return set_str(&attrs->clock, strstrip(str + 6));
	if (!strncmp(str, "size=", 5)) {
		int bits = parse_map_size(str + 5);

		if (bits < 0)
			return bits;
		attrs->map_bits = bits;
		return 0;
	}
	/*
	 * A variable definition.  Variables are not implemented yet: the
	 * definition is checked in hist_create_data (for the kernel's
	 * "Couldn't find field" on a bad expression) and then refused.
	 */
	if (attrs->n_assignments == TRACING_MAP_VARS_MAX) {
		hist_err(ec, HIST_ERR_TOO_MANY_VARS, hist_errpos(ec, str));
		return -EINVAL;
	}
	attrs->assignment_str[attrs->n_assignments] = strdup(str);
	if (!attrs->assignment_str[attrs->n_assignments])
		return -ENOMEM;
	attrs->n_assignments++;
	return 0;
}

int hist_parse_attrs(struct hist_err_ctx *ec, char *trigger_str,
		     struct hist_attrs **out)
{
	struct hist_attrs *attrs = calloc(1, sizeof(*attrs));
	int ret = 0;

	if (!attrs)
		return -ENOMEM;
	while (trigger_str) {
		char *str = strsep(&trigger_str, ":");
		char *rhs = strchr(str, '=');

		if (rhs) {
			if (!strlen(++rhs)) {
				hist_err(ec, HIST_ERR_EMPTY_ASSIGNMENT,
					 hist_errpos(ec, str));
				ret = -EINVAL;
				goto fail;
			}
			ret = parse_assignment(ec, str, attrs);
			if (ret)
				goto fail;
		} else if (!strcmp(str, "nohitcount") || !strcmp(str, "NOHC")) {
			attrs->no_hitcount = true;
		} else if (!strcmp(str, "pause")) {
			attrs->pause = true;
		} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
			attrs->cont = true;
		} else if (!strcmp(str, "clear")) {
			attrs->clear = true;
		} else if (!strncmp(str, "onmatch(", 8) || !strncmp(str, "onmax(", 6) ||
			   !strncmp(str, "onchange(", 9)) {
			/* handlers/actions: not implemented (refused later) */
			attrs->n_actions++;
		} else {
			ret = -EINVAL;
			goto fail;
		}
	}
	if (!attrs->keys_str) {
		ret = -EINVAL;
		goto fail;
	}
	if (!attrs->clock && set_str(&attrs->clock, "global")) {
		ret = -ENOMEM;
		goto fail;
	}
	*out = attrs;
	return 0;
fail:
	hist_attrs_free(attrs);
	return ret;
}

/* ---- the fields of a hist_data ------------------------------------------ */

static int create_val_field(struct parse_state *ps, unsigned int idx,
			    const char *field_str)
{
	struct hist_data *hd = ps->hd;
	char *s = strdup(field_str);
	unsigned int n_subexprs = 0;
	struct hist_field *f;
	int err = 0;

	if (!s)
		return -ENOMEM;
	f = parse_expr(ps, s, 0, &n_subexprs, &err);
	free(s);
	if (!f)
		return err ? err : -EINVAL;
	/* 6.12 accepts .percent and .graph on values (the oracle) */
	if (f->flags & (HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2 |
			HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET |
			HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_STACKTRACE)) {
		destroy_hist_field(f);
		hist_err(ps->ec, HIST_ERR_BAD_FIELD_MODIFIER,
			 hist_errpos(ps->ec, field_str));
		return -EINVAL;
	}
	hd->fields[idx] = f;
	hd->n_vals++;
	hd->n_fields++;
	return 0;
}

static int create_val_fields(struct parse_state *ps)
{
	struct hist_data *hd = ps->hd;
	unsigned int i, j = 1, n_hitcount = 0;
	char *fields_str, *copy = NULL, *field_str;
	int ret = 0;

	hd->fields[HITCOUNT_IDX] = create_hist_field(NULL, HIST_FIELD_FL_HITCOUNT,
						     NULL);
	if (!hd->fields[HITCOUNT_IDX])
		return -ENOMEM;
	hd->n_vals++;
	hd->n_fields++;

	if (!hd->attrs->vals_str)
		goto out;
	fields_str = copy = strdup(hd->attrs->vals_str);
	if (!copy)
		return -ENOMEM;
	for (i = 0; i < TRACING_MAP_VALS_MAX && j < TRACING_MAP_VALS_MAX; i++) {
		field_str = strsep(&fields_str, ",");
		if (!field_str)
			break;
		if (!strcmp(field_str, "hitcount") && !n_hitcount++)
			continue;
		ret = create_val_field(ps, j++, field_str);
		if (ret)
			goto out;
	}
	if (fields_str && strcmp(fields_str, "hitcount"))
		ret = -EINVAL;
out:
	free(copy);
	if (j == 1 && hd->attrs->no_hitcount) {
		hist_err(ps->ec, HIST_ERR_NEED_NOHC_VAL, 0);
		ret = -ENOENT;
	}
	return ret;
}

static int create_key_field(struct parse_state *ps, unsigned int idx,
			    unsigned int offset, const char *field_str)
{
	struct hist_data *hd = ps->hd;
	unsigned int key_size;
	struct hist_field *f;

	if (!strcmp(field_str, "stacktrace")) {
		f = create_hist_field(NULL, HIST_FIELD_FL_KEY |
				      HIST_FIELD_FL_STACKTRACE, NULL);
		if (!f)
			return -ENOMEM;
	} else {
		char *s = strdup(field_str);
		unsigned int n_subexprs = 0;
		int err = 0;

		if (!s)
			return -ENOMEM;
		f = parse_expr(ps, s, HIST_FIELD_FL_KEY, &n_subexprs, &err);
		free(s);
		if (!f)
			return err ? err : -EINVAL;
	}
	key_size = (f->size + 7) & ~7u;
	hd->fields[idx] = f;
	f->size = key_size;
	f->offset = offset;
	hd->key_size += key_size;
	if (hd->key_size > HIST_KEY_SIZE_MAX)
		return -EINVAL;
	hd->n_keys++;
	hd->n_fields++;
	return (int)key_size;
}

static int create_key_fields(struct parse_state *ps)
{
	struct hist_data *hd = ps->hd;
	unsigned int i, offset = 0, n_vals = hd->n_vals;
	char *copy = strdup(hd->attrs->keys_str), *fields_str = copy, *field_str;
	int ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	for (i = n_vals; i < n_vals + TRACING_MAP_KEYS_MAX; i++) {
		field_str = strsep(&fields_str, ",");
		if (!field_str)
			break;
		ret = create_key_field(ps, i, offset, field_str);
		if (ret < 0)
			goto out;
		offset += ret;
	}
	ret = fields_str ? -EINVAL : 0;
out:
	free(copy);
	return ret;
}

static int is_descending(struct hist_err_ctx *ec, const char *str)
{
	if (!str)
		return 0;
	if (!strcmp(str, "descending"))
		return 1;
	if (!strcmp(str, "ascending"))
		return 0;
	hist_err(ec, HIST_ERR_INVALID_SORT_MODIFIER, hist_errpos(ec, str));
	return -EINVAL;
}

static int create_sort_keys(struct parse_state *ps)
{
	struct hist_data *hd = ps->hd;
	struct hist_err_ctx *ec = ps->ec;
	char *copy, *fields_str;
	unsigned int i, j, k;
	int ret = 0, desc;

	hd->n_sort_keys = 1;	/* hitcount, ascending */
	if (!hd->attrs->sort_key_str)
		return 0;
	copy = fields_str = strdup(hd->attrs->sort_key_str);
	if (!copy)
		return -ENOMEM;
	for (i = 0; i < TRACING_MAP_SORT_KEYS_MAX; i++) {
		struct tracing_map_sort_key *sk = &hd->sort_keys[i];
		char *field_str = strsep(&fields_str, ","), *field_name;

		if (!field_str)
			break;
		if (!*field_str) {
			hist_err(ec, HIST_ERR_EMPTY_SORT_FIELD, hist_errpos(ec, "sort="));
			ret = -EINVAL;
			break;
		}
		if (i == TRACING_MAP_SORT_KEYS_MAX - 1 && fields_str) {
			hist_err(ec, HIST_ERR_TOO_MANY_SORT_FIELDS,
				 hist_errpos(ec, "sort="));
			ret = -EINVAL;
			break;
		}
		field_name = strsep(&field_str, ".");
		if (!field_name || !*field_name) {
			hist_err(ec, HIST_ERR_EMPTY_SORT_FIELD, hist_errpos(ec, "sort="));
			ret = -EINVAL;
			break;
		}
		if (!strcmp(field_name, "hitcount")) {
			desc = is_descending(ec, field_str);
			if (desc < 0) {
				ret = desc;
				break;
			}
			sk->field_idx = HITCOUNT_IDX;
			sk->descending = desc;
			continue;
		}
		for (j = 1, k = 1; j < hd->n_fields; j++) {
			unsigned int idx = k++;

			if (!strcmp(field_name, hist_field_name(hd->fields[j]))) {
				sk->field_idx = idx;
				desc = is_descending(ec, field_str);
				if (desc < 0) {
					ret = desc;
					goto out;
				}
				sk->descending = desc;
				break;
			}
		}
		if (j == hd->n_fields) {
			hist_err(ec, HIST_ERR_INVALID_SORT_FIELD,
				 hist_errpos(ec, field_name));
			ret = -EINVAL;
			break;
		}
	}
	if (!ret)
		hd->n_sort_keys = i;
out:
	free(copy);
	return ret;
}

/*
 * Variable definitions ("x=expr"): not implemented yet.  They are parsed
 * as the kernel does (parse_var_defs, create_var_fields), so that a bad
 * one gets the kernel's error; the caller then refuses the command.
 */
static int check_var_defs(struct parse_state *ps)
{
	struct hist_attrs *attrs = ps->hd->attrs;
	unsigned int i, n_vars = 0;
	int ret = 0;

	for (i = 0; i < attrs->n_assignments && !ret; i++) {
		char *copy = strdup(attrs->assignment_str[i]), *str = copy;
		char *field_str, *var_name;

		if (!copy)
			return -ENOMEM;
		while (!ret && (field_str = strsep(&str, ","))) {
			unsigned int n_subexprs = 0;
			struct hist_field *f;
			int err = 0;

			var_name = strsep(&field_str, "=");
			if (!var_name || !field_str) {
				hist_err(ps->ec, HIST_ERR_MALFORMED_ASSIGNMENT,
					 hist_errpos(ps->ec, var_name));
				ret = -EINVAL;
				break;
			}
			if (n_vars++ == TRACING_MAP_VARS_MAX) {
				hist_err(ps->ec, HIST_ERR_TOO_MANY_VARS,
					 hist_errpos(ps->ec, var_name));
				ret = -EINVAL;
				break;
			}
			f = parse_expr(ps, field_str, HIST_FIELD_FL_VAR,
				       &n_subexprs, &err);
			if (!f)
				ret = err ? err : -EINVAL;
			destroy_hist_field(f);
		}
		free(copy);
	}
	return ret;
}

static tracing_map_cmp_fn_t key_cmp_fn(const struct hist_field *f)
{
	if (f->flags & HIST_FIELD_FL_STACKTRACE)
		return tracing_map_cmp_none;
	if (f->flags & HIST_FIELD_FL_STRING)
		return tracing_map_cmp_string;
	if (!f->field || (f->flags & HIST_FIELD_FL_CPU))
		return tracing_map_cmp_num(f->size, f->is_signed);
	return tracing_map_cmp_num(f->field->size, f->field->is_signed);
}

/*
 * Ingest slots of a map: one per thread that may feed it at once (the
 * per-CPU ingest threads and FUSE's workers), but no more than 64 MB of
 * per-slot sums for one histogram (a size=131072 map has 3 MB a slot).
 * Threads beyond the slots share one (see hist_slot()).
 */
static unsigned int hist_map_slots(unsigned int nr_cpus, unsigned int bits,
				   unsigned int n_vals)
{
	uint64_t per_slot = ((uint64_t)1 << bits) * n_vals * 8;
	uint64_t cap = ((uint64_t)64 << 20) / per_slot;
	unsigned int n = HIST_MAP_SLOTS(nr_cpus);

	if (cap < 4)
		cap = 4;
	return n > cap ? (unsigned int)cap : n;
}

static uint64_t next_hist_id(void)
{
	static uint64_t counter;
	uint64_t z = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) *
		     0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	/* the kernel prints a hashed 32-bit pointer: 00000000xxxxxxxx */
	return z & 0xffffffffull;
}

void hist_data_free(struct hist_data *hd)
{
	unsigned int i;

	if (!hd)
		return;
	for (i = 0; i < HIST_FIELDS_MAX; i++)
		destroy_hist_field(hd->fields[i]);
	hist_attrs_free(hd->attrs);
	if (hd->map)
		tracing_map_destroy(hd->map);
	free(hd);
}

int hist_create_data(struct hist_err_ctx *ec, struct hist_attrs *attrs,
		     struct tf_event_file *file, bool remove,
		     struct hist_data **out)
{
	struct hist_data *hd = calloc(1, sizeof(*hd));
	struct parse_state ps = { ec, hd, file->event };
	unsigned int i, bits, nr_cpus;
	int ret;

	if (!hd)
		return -ENOMEM;
	hd->attrs = attrs;
	hd->remove = remove;
	hd->file = file;

	if (attrs->n_actions) {		/* handlers: not implemented */
		ret = -EINVAL;
		goto fail;
	}
	ret = create_val_fields(&ps);
	if (ret)
		goto fail;
	if (attrs->n_assignments) {	/* variables: not implemented */
		ret = check_var_defs(&ps);
		if (!ret)
			ret = -EINVAL;
		goto fail;
	}
	ret = create_key_fields(&ps);
	if (ret)
		goto fail;
	ret = create_sort_keys(&ps);
	if (ret)
		goto fail;

	bits = attrs->map_bits ? attrs->map_bits : TRACING_MAP_BITS_DEFAULT;
	nr_cpus = file->tr && file->tr->tracing ? (unsigned)file->tr->tracing->nr_cpus : 1;
	ret = tracing_map_create(bits, hd->key_size, hd->n_vals, 0,
				 hist_map_slots(nr_cpus, bits, hd->n_vals), &hd->map);
	if (ret) {
		hd->map = NULL;
		goto fail;
	}
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		int idx = tracing_map_add_key_field(hd->map, hd->fields[i]->offset,
						    key_cmp_fn(hd->fields[i]));

		if (idx < 0) {
			ret = idx;
			goto fail;
		}
	}
	for (i = 0; i < hd->n_fields; i++)
		if (hd->fields[i]->flags & HIST_FIELD_FL_EXECNAME)
			hd->need_comm = true;
	/* the event path skips clearing a key that its fields overwrite */
	hd->key_filled = hd->key_size == 8 * hd->n_keys;
	/* the event path's fast case: one event field as the key, sums of
	 * hitcount and event fields (hist_trigger.c hist_update_simple) */
	hd->simple = hd->n_keys == 1 && hd->key_size == 8 && !hd->need_comm &&
		     hd->fields[hd->n_vals]->fn == HIST_FN_NUM &&
		     !(hd->fields[hd->n_vals]->flags & HIST_FIELD_FL_STRING);
	for (i = 0; i < hd->n_vals; i++)
		if ((hd->fields[i]->fn != HIST_FN_NUM &&
		     hd->fields[i]->fn != HIST_FN_COUNTER) ||
		    (hd->fields[i]->flags & HIST_FIELD_FL_STRING))
			hd->simple = false;
	for (i = hd->n_vals; i < hd->n_fields; i++)
		if (hd->fields[i]->flags &
		    (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE))
			hd->key_filled = false;
	hd->id = next_hist_id();
	hd->refs = 1;
	*out = hd;
	return 0;
fail:
	hd->attrs = NULL;	/* the caller still owns attrs */
	hist_data_free(hd);
	return ret;
}
