// SPDX-License-Identifier: GPL-2.0
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

#define C(a, b) b,
const char *const hist_err_text[HIST_ERR_MAX] = { HIST_ERRORS };
#undef C

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

static void free_var_defs(struct hist_attrs *attrs);

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
	for (unsigned int i = 0; i < attrs->n_actions; i++)
		free(attrs->action_str[i]);
	free_var_defs(attrs);
	free(attrs);
}

static void free_var_defs(struct hist_attrs *attrs)
{
	for (unsigned int i = 0; i < attrs->n_vars; i++) {
		free(attrs->var_name[i]);
		free(attrs->var_expr[i]);
	}
	attrs->n_vars = 0;
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
	/* variable definitions, split by parse_var_defs() */
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
		} else if (attrs->n_actions < HIST_ACTIONS_MAX &&
			   (!strncmp(str, "onmatch(", 8) ||
			    !strncmp(str, "onmax(", 6) ||
			    !strncmp(str, "onchange(", 9))) {
			attrs->action_str[attrs->n_actions] = strdup(str);
			if (!attrs->action_str[attrs->n_actions]) {
				ret = -ENOMEM;
				goto fail;
			}
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

/* The kernel's __create_val_field(): a value or (@var_name) a variable. */
static int create_val_field(struct parse_state *ps, unsigned int idx,
			    const char *var_name, const char *field_str,
			    unsigned long flags)
{
	struct hist_data *hd = ps->hd;
	char *s = strdup(field_str);
	unsigned int n_subexprs = 0;
	struct hist_field *f;
	unsigned long bad;
	int err = 0;

	if (!s)
		return -ENOMEM;
	f = parse_expr(ps, s, flags, var_name, &n_subexprs, &err);
	free(s);
	if (!f)
		return err ? err : -EINVAL;
	/* 6.12 accepts .percent and .graph on values (the oracle) */
	if (f->flags & HIST_FIELD_FL_VAR)
		bad = HIST_FIELD_FL_GRAPH | HIST_FIELD_FL_PERCENT |
		      HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2;
	else
		bad = HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2 |
		      HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET |
		      HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_STACKTRACE;
	if (f->flags & bad) {
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

	hd->fields[HITCOUNT_IDX] = create_hist_field(hd, NULL,
						     HIST_FIELD_FL_HITCOUNT,
						     NULL, NULL);
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
		ret = create_val_field(ps, j++, NULL, field_str, 0);
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
		f = create_hist_field(hd, NULL, HIST_FIELD_FL_KEY |
				      HIST_FIELD_FL_STACKTRACE, NULL, NULL);
		if (!f)
			return -ENOMEM;
	} else {
		char *s = strdup(field_str);
		unsigned int n_subexprs = 0;
		int err = 0;

		if (!s)
			return -ENOMEM;
		f = parse_expr(ps, s, HIST_FIELD_FL_KEY, NULL, &n_subexprs,
			       &err);
		free(s);
		if (!f)
			return err ? err : -EINVAL;
		if (hist_field_has_vars(f)) {
			hist_err(ps->ec, HIST_ERR_INVALID_REF_KEY,
				 hist_errpos(ps->ec, field_str));
			destroy_hist_field(f);
			return -EINVAL;
		}
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
			unsigned int idx;

			if (hd->fields[j]->flags & HIST_FIELD_FL_VAR)
				continue;
			idx = k++;
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

/* The kernel's parse_var_defs(): "a=x,b=y" assignments into names and
 * expressions. */
static int parse_var_defs(struct parse_state *ps)
{
	struct hist_attrs *attrs = ps->hd->attrs;
	unsigned int n_vars = 0;

	for (unsigned int i = 0; i < attrs->n_assignments; i++) {
		char *copy = strdup(attrs->assignment_str[i]), *str = copy;

		if (!copy)
			goto nomem;
		for (unsigned int j = 0; j < TRACING_MAP_VARS_MAX; j++) {
			char *field_str = strsep(&str, ","), *var_name;

			if (!field_str)
				break;
			var_name = strsep(&field_str, "=");
			if (!var_name || !field_str) {
				hist_err(ps->ec, HIST_ERR_MALFORMED_ASSIGNMENT,
					 hist_errpos(ps->ec, var_name));
				free(copy);
				free_var_defs(attrs);
				return -EINVAL;
			}
			if (n_vars == TRACING_MAP_VARS_MAX) {
				hist_err(ps->ec, HIST_ERR_TOO_MANY_VARS,
					 hist_errpos(ps->ec, var_name));
				free(copy);
				free_var_defs(attrs);
				return -EINVAL;
			}
			attrs->var_name[n_vars] = strdup(var_name);
			attrs->var_expr[n_vars] = strdup(field_str);
			if (!attrs->var_name[n_vars] || !attrs->var_expr[n_vars]) {
				free(attrs->var_name[n_vars]);
				free(attrs->var_expr[n_vars]);
				free(copy);
				goto nomem;
			}
			attrs->n_vars = ++n_vars;
		}
		free(copy);
	}
	return 0;
nomem:
	free_var_defs(attrs);
	return -ENOMEM;
}

/* A variable of common_pid.execname holds the comm (update_var_execname). */
static int var_execname(struct hist_field *f)
{
	char *type = strdup("char[]");

	if (!type)
		return -ENOMEM;
	f->flags = HIST_FIELD_FL_STRING | HIST_FIELD_FL_VAR |
		   HIST_FIELD_FL_EXECNAME;
	f->size = MAX_FILTER_STR_VAL;
	f->is_signed = false;
	free(f->type);
	f->type = type;
	f->fn = HIST_FN_EXECNAME;
	return 0;
}

/* The kernel's create_var_fields(): variables after the values. */
static int create_var_fields(struct parse_state *ps)
{
	struct hist_data *hd = ps->hd;
	struct hist_attrs *attrs = hd->attrs;
	unsigned int j = hd->n_vals;

	for (unsigned int i = 0; i < attrs->n_vars; i++, j++) {
		const char *name = attrs->var_name[i];
		struct hist_field *f;
		int ret;

		if (find_var(hd, hd->file, name) && !hd->remove) {
			hist_err(ps->ec, HIST_ERR_DUPLICATE_VAR,
				 hist_errpos(ps->ec, name));
			return -EINVAL;
		}
		hd->n_vars++;
		ret = create_val_field(ps, j, name, attrs->var_expr[i],
				       HIST_FIELD_FL_VAR);
		if (ret)
			return ret;
		f = hd->fields[j];
		if ((f->flags & HIST_FIELD_FL_EXECNAME) && (ret = var_execname(f)))
			return ret;
		if (!(f->flags & HIST_FIELD_FL_ALIAS) &&
		    (f->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE)))
			f->var_str_idx = hd->n_var_str++;
	}
	return 0;
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

/* A stand-in for the hist_data pointer hist_debug prints: the tree's
 * next number, mixed (splitmix64) so that ids look like the kernel's. */
static uint64_t next_hist_id(struct tf_hist_state *st)
{
	uint64_t z = __atomic_add_fetch(&st->next_id, 1, __ATOMIC_RELAXED) *
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
	remove_hist_vars(hd);
	hist_attrs_free(hd->attrs);
	for (i = 0; i < HIST_FIELDS_MAX; i++)
		destroy_hist_field(hd->fields[i]);
	for (i = 0; i < hd->n_var_refs; i++)
		destroy_var_ref(hd->var_refs[i]);
	if (hd->map)
		tracing_map_destroy(hd->map);
	destroy_actions(hd);
	destroy_field_vars(hd);
	destroy_field_var_hists(hd);
	free(hd);
}

/*
 * The kernel's create_hist_data(): actions parsed, fields and sort keys
 * made, the variables given their slots (create_tracing_map_fields).
 * The map itself comes with hist_create_map(), once the actions have
 * made their variables.  On error @attrs stays the caller's.
 */
int hist_create_data(struct hist_err_ctx *ec, struct hist_attrs *attrs,
		     struct tf_event_file *file, bool remove,
		     struct hist_data **out)
{
	struct hist_data *hd = calloc(1, sizeof(*hd));
	struct parse_state ps = { ec, hd, file->event };
	unsigned int i;
	int ret;

	if (!hd)
		return -ENOMEM;
	hd->attrs = attrs;
	hd->remove = remove;
	hd->file = file;
	hd->tracing = file->tr->tracing;
	hd->map_bits = attrs->map_bits ? attrs->map_bits
				       : TRACING_MAP_BITS_DEFAULT;
	ret = parse_actions(ec, hd);
	if (ret)
		goto fail;
	ret = parse_var_defs(&ps);
	if (ret)
		goto fail;
	ret = create_val_fields(&ps);
	if (!ret)
		ret = create_var_fields(&ps);
	if (!ret)
		ret = create_key_fields(&ps);
	free_var_defs(attrs);
	if (ret)
		goto fail;
	ret = create_sort_keys(&ps);
	if (ret)
		goto fail;
	for (i = 0; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_VAR) {
			f->var.idx = hd->n_map_vars++;
			f->var.hist_data = hd;
		}
		if (f->flags & HIST_FIELD_FL_EXECNAME)
			hd->need_comm = true;
	}
	/* the event path skips clearing a key that its fields overwrite */
	hd->key_filled = hd->key_size == 8 * hd->n_keys;
	/* the event path's fast case: event fields as the keys, sums of
	 * hitcount and event fields (hist_trigger.c hist_update_simple) */
	hd->simple = hd->n_keys >= 1 && hd->key_filled && !hd->need_comm &&
		     !hd->n_actions && !hd->n_var_refs && !hd->n_vars;
	for (i = hd->n_vals; i < hd->n_fields; i++)
		if (hd->fields[i]->fn != HIST_FN_NUM ||
		    (hd->fields[i]->flags & (HIST_FIELD_FL_STRING |
					     HIST_FIELD_FL_STACKTRACE)))
			hd->simple = false;
	for (i = 0; i < hd->n_vals; i++)
		if ((hd->fields[i]->fn != HIST_FN_NUM &&
		     hd->fields[i]->fn != HIST_FN_COUNTER) ||
		    (hd->fields[i]->flags & HIST_FIELD_FL_STRING))
			hd->simple = false;
	for (i = hd->n_vals; i < hd->n_fields; i++)
		if (hd->fields[i]->flags &
		    (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE))
			hd->key_filled = false;
	/* numeric keys that fill the key's words in order: read without a
	 * check each from a record of keys_end bytes (0: not so) */
	for (i = hd->n_vals; hd->key_filled && i < hd->n_fields; i++) {
		const struct hist_field *k = hd->fields[i];

		if (k->fn != HIST_FN_NUM || k->offset != 8 * (i - hd->n_vals)) {
			hd->keys_end = 0;
			break;
		}
		if (k->rd_end > hd->keys_end)
			hd->keys_end = k->rd_end;
	}
	/* a simple histogram's keys are those; the record size that holds
	 * all its fields */
	if (!hd->keys_end)
		hd->simple = false;
	hd->simple_end = hd->keys_end;
	for (i = 0; hd->simple && i < hd->n_vals; i++)
		if (hd->fields[i]->fn == HIST_FN_NUM &&
		    hd->fields[i]->rd_end > hd->simple_end)
			hd->simple_end = hd->fields[i]->rd_end;
	hd->id = next_hist_id(hd->tracing->hist);
	hd->refs = 1;
	*out = hd;
	return 0;
fail:
	hd->attrs = NULL;	/* the caller still owns attrs */
	hist_data_free(hd);
	return ret;
}

/*
 * The bytes a string or stack variable of @f's value needs in an entry
 * (0: none): a string at most its size (the copy keeps size - 1 bytes and
 * a NUL), a comm 16, a stack its count and frames.
 */
/* The map, with the key fields and every variable the actions made
 * (the kernel's tracing_map_create + tracing_map_init). */
int hist_create_map(struct hist_data *hd)
{
	unsigned int nr_cpus, n_sums = hd->n_vals - hd->n_vars;
	unsigned int n_strs = hd->n_field_var_str + hd->n_save_var_str +
			      hd->n_var_str;
	unsigned int str_sizes[HIST_PARAMS_MAX], n = 0;
	int ret;

	if (n_strs > HIST_PARAMS_MAX)
		return -EINVAL;
	/* the entry's strings, in the order the event path uses them */
	for (unsigned int i = 0; i < hd->n_field_vars; i++)
		if (hist_str_size(hd->field_vars[i]->val))
			str_sizes[n++] = hist_str_size(hd->field_vars[i]->val);
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		if (hist_str_size(hd->save_vars[i]->val))
			str_sizes[n++] = hist_str_size(hd->save_vars[i]->val);
	for (unsigned int i = 0; i < hd->n_vals; i++) {
		const struct hist_field *f = hd->fields[i];

		if ((f->flags & HIST_FIELD_FL_VAR) &&
		    !(f->flags & HIST_FIELD_FL_ALIAS) && hist_str_size(f))
			str_sizes[n + f->var_str_idx] = hist_str_size(f);
	}
	nr_cpus = hd->file->tr && hd->file->tr->tracing ?
		  (unsigned)hd->file->tr->tracing->nr_cpus : 1;
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		if (hd->var_refs[i]->var.hist_data == hd)
			hd->self_refs[hd->n_self_refs++] = (unsigned char)i;
		else
			hd->other_refs[hd->n_other_refs++] = (unsigned char)i;
	}
	mark_direct_field_vars(hd);
	/* a lookup in a referenced histogram reads its key's length of
	 * this event's key: zero what ours does not write */
	hd->clear_key_size = hd->key_filled ? 0 : hd->key_size;
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		const struct hist_data *vd = hd->var_refs[i]->var.hist_data;

		if (vd && vd != hd && vd->key_size > hd->key_size)
			hd->clear_key_size = vd->key_size;
	}
	if (hd->clear_key_size && hd->clear_key_size < hd->key_size)
		hd->clear_key_size = hd->key_size;
	hd->vars_only = !hd->simple && hd->keys_end && hd->key_filled &&
			!hd->clear_key_size && !hd->n_var_refs &&
			!hd->need_comm && !hd->n_actions && !hd->n_field_vars;
	for (unsigned int i = 0; i < hd->n_vals; i++)
		if (hd->fields[i]->flags & (HIST_FIELD_FL_STRING |
					    HIST_FIELD_FL_STACKTRACE |
					    HIST_FIELD_FL_ALIAS))
			hd->vars_only = false;
	ret = tracing_map_create_strs(hd->map_bits, hd->key_size, n_sums,
				      hd->n_map_vars, n_strs, str_sizes,
				      hist_map_slots(nr_cpus, hd->map_bits,
						     n_sums), &hd->map);
	if (ret) {
		hd->map = NULL;
		return ret;
	}
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		int idx = tracing_map_add_key_field(hd->map, hd->fields[i]->offset,
						    key_cmp_fn(hd->fields[i]));

		if (idx < 0)
			return idx;
	}
	return 0;
}
