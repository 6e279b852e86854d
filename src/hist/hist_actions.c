// SPDX-License-Identifier: GPL-2.0
/*
 * hist_actions.c - handlers and actions of hist triggers: onmatch(),
 * onmax() and onchange(), each running trace() (or the `<synthetic>()`
 * shortcut), save() or snapshot(); the field variables that pass event
 * fields to actions, including those taken from the onmatch() event
 * through an extra histogram on it (create_field_var_hist); what the
 * hist file and the trigger read-back show of them.
 *
 * Parsing and creation follow trace_events_hist.c step by step, for its
 * errors and their carets.  They run under tracing->lock.  The event
 * path (hist_trigger_actions, update_field_vars) allocates nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist_internal.h"
#include "synth/synth.h"

/* What a snapshot() action hands the trace array's snapshot update. */
struct snapshot_context {
	const struct tracing_map *map;
	struct tracing_map_elt *elt;
	const void *key;
};

/* What a snapshot() action keeps: the best value and its entry's key
 * (the kernel's track_data, the trace array's cond_snapshot data). */
struct track_data {
	uint64_t track_val;
	bool updated;
	unsigned int key_len;
	unsigned char key[HIST_KEY_SIZE_MAX];
	char comm[HIST_COMM_LEN];
	struct action_data *action_data;
	struct hist_data *hist_data;
};

/* The kernel's strstrip(). */
static char *strstrip(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- parsing ---------------------------------------------------------------- */

static int parse_action_params(struct hist_err_ctx *ec, char *params,
			       struct action_data *data)
{
	bool first = true;

	while (params) {
		char *param, *saved;

		if (data->n_params >= HIST_PARAMS_MAX) {
			hist_err(ec, HIST_ERR_TOO_MANY_PARAMS, 0);
			return -EINVAL;
		}
		param = strsep(&params, ",");
		param = strstrip(param);
		if (strlen(param) < 2) {
			hist_err(ec, HIST_ERR_INVALID_PARAM, hist_errpos(ec, param));
			return -EINVAL;
		}
		saved = strdup(param);
		if (!saved)
			return -ENOMEM;
		if (first && data->use_trace_keyword) {
			data->synth_event_name = saved;
			first = false;
			continue;
		}
		first = false;
		data->params[data->n_params++] = saved;
	}
	return 0;
}

/* The kernel's action_parse(): ".save(...)", ".snapshot()", ".trace(...)"
 * or ".<synthetic>(...)" after the handler. */
static int action_parse(struct hist_err_ctx *ec, char *str,
			struct action_data *data, enum handler_id handler)
{
	char *action_name, *params;
	int ret;

	strsep(&str, ".");
	if (!str) {
		hist_err(ec, HIST_ERR_ACTION_NOT_FOUND, 0);
		return -EINVAL;
	}
	action_name = strsep(&str, "(");
	if (!action_name || !str) {
		hist_err(ec, HIST_ERR_ACTION_NOT_FOUND, 0);
		return -EINVAL;
	}
	if (has_prefix(action_name, "save")) {
		params = strsep(&str, ")");
		if (!params) {
			hist_err(ec, HIST_ERR_NO_SAVE_PARAMS, 0);
			return -EINVAL;
		}
		ret = parse_action_params(ec, params, data);
		if (ret)
			return ret;
		if (handler == HANDLER_ONMATCH) {
			hist_err(ec, HIST_ERR_ACTION_MISMATCH,
				 hist_errpos(ec, action_name));
			return -EINVAL;
		}
		data->action = ACTION_SAVE;
	} else if (has_prefix(action_name, "snapshot")) {
		params = strsep(&str, ")");
		if (!str) {
			hist_err(ec, HIST_ERR_NO_CLOSING_PAREN,
				 hist_errpos(ec, params));
			return -EINVAL;
		}
		if (handler == HANDLER_ONMATCH) {
			hist_err(ec, HIST_ERR_ACTION_MISMATCH,
				 hist_errpos(ec, action_name));
			return -EINVAL;
		}
		data->action = ACTION_SNAPSHOT;
	} else {
		params = strsep(&str, ")");
		if (has_prefix(action_name, "trace"))
			data->use_trace_keyword = true;
		if (params) {
			ret = parse_action_params(ec, params, data);
			if (ret)
				return ret;
		}
		data->action = ACTION_TRACE;
	}
	data->action_name = strdup(action_name);
	if (!data->action_name)
		return -ENOMEM;
	data->handler = handler;
	return 0;
}

static void action_data_destroy(struct action_data *data)
{
	free(data->action_name);
	for (unsigned int i = 0; i < data->n_params; i++)
		free(data->params[i]);
	if (data->synth_event)
		data->synth_event->ref--;
	free(data->synth_event_name);
	free(data->match_event);
	free(data->match_event_system);
	free(data->var_str);
	destroy_hist_field(data->track_var);
	free(data);
}

static struct action_data *onmatch_parse(struct hist_err_ctx *ec,
					 struct tf_trace_array *tr, char *str,
					 int *errp)
{
	struct action_data *data = calloc(1, sizeof(*data));
	char *match_event, *match_system;

	*errp = -EINVAL;
	if (!data) {
		*errp = -ENOMEM;
		return NULL;
	}
	match_event = strsep(&str, ")");
	if (!match_event || !str) {
		hist_err(ec, HIST_ERR_NO_CLOSING_PAREN,
			 hist_errpos(ec, match_event));
		goto fail;
	}
	match_system = strsep(&match_event, ".");
	if (!match_event) {
		hist_err(ec, HIST_ERR_SUBSYS_NOT_FOUND,
			 hist_errpos(ec, match_system));
		goto fail;
	}
	if (!hist_event_file(tr, match_system, match_event)) {
		hist_err(ec, HIST_ERR_INVALID_SUBSYS_EVENT,
			 hist_errpos(ec, match_event));
		goto fail;
	}
	data->match_event = strdup(match_event);
	data->match_event_system = strdup(match_system);
	if (!data->match_event || !data->match_event_system) {
		*errp = -ENOMEM;
		goto fail;
	}
	*errp = action_parse(ec, str, data, HANDLER_ONMATCH);
	if (*errp)
		goto fail;
	return data;
fail:
	action_data_destroy(data);
	return NULL;
}

static struct action_data *track_data_parse(struct hist_err_ctx *ec, char *str,
					    enum handler_id handler, int *errp)
{
	struct action_data *data = calloc(1, sizeof(*data));
	char *var_str;

	if (!data) {
		*errp = -ENOMEM;
		return NULL;
	}
	*errp = -EINVAL;
	var_str = strsep(&str, ")");
	if (!var_str || !str)
		goto fail;
	data->var_str = strdup(var_str);
	if (!data->var_str) {
		*errp = -ENOMEM;
		goto fail;
	}
	*errp = action_parse(ec, str, data, handler);
	if (*errp)
		goto fail;
	return data;
fail:
	action_data_destroy(data);
	return NULL;
}

int parse_actions(struct hist_err_ctx *ec, struct hist_data *hd)
{
	struct tf_trace_array *tr = hd->file->tr;

	for (unsigned int i = 0; i < hd->attrs->n_actions; i++) {
		char *str = hd->attrs->action_str[i], *copy;
		struct action_data *data = NULL;
		int ret = -EINVAL;

		copy = strdup(str);
		if (!copy)
			return -ENOMEM;
		if (has_prefix(copy, "onmatch("))
			data = onmatch_parse(ec, tr, copy + 8, &ret);
		else if (has_prefix(copy, "onmax("))
			data = track_data_parse(ec, copy + 6, HANDLER_ONMAX, &ret);
		else if (has_prefix(copy, "onchange("))
			data = track_data_parse(ec, copy + 9, HANDLER_ONCHANGE,
						&ret);
		free(copy);
		if (!data)
			return ret;
		hd->actions[hd->n_actions++] = data;
	}
	return 0;
}

void destroy_actions(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *a = hd->actions[i];

		if (a->track) {
			struct tf_trace_array *tr = hd->file->tr;

			if (tf_trigger_snapshot_cond_data(tr) == a->track)
				tf_trigger_snapshot_cond_disable(tr);
			free(a->track);
		}
		action_data_destroy(a);
	}
	hd->n_actions = 0;
}

/* ---- variables for actions --------------------------------------------------- */

/*
 * The kernel's create_var(): a hidden variable of @hd (a field variable,
 * __max, __change), with the map's next variable slot.
 */
static struct hist_field *create_var(struct hist_data *hd,
				     struct tf_event_file *file,
				     const char *name, unsigned int size,
				     const char *type, int *errp)
{
	struct hist_field *var;

	if (find_var(hd, file, name) && !hd->remove) {
		*errp = -EINVAL;
		return NULL;
	}
	if (hd->n_map_vars >= TRACING_MAP_VARS_MAX) {
		*errp = -EINVAL;
		return NULL;
	}
	var = calloc(1, sizeof(*var));
	if (!var) {
		*errp = -ENOMEM;
		return NULL;
	}
	var->flags = HIST_FIELD_FL_VAR;
	var->var.idx = hd->n_map_vars++;
	var->var.hist_data = var->hist_data = hd;
	var->size = size;
	var->var.name = strdup(name);
	var->type = strdup(type ? type : "");
	if (!var->var.name || !var->type) {
		destroy_hist_field(var);
		*errp = -ENOMEM;
		return NULL;
	}
	return var;
}

static void destroy_field_var(struct field_var *fv)
{
	if (!fv)
		return;
	destroy_hist_field(fv->var);
	destroy_hist_field(fv->val);
	free(fv);
}

void destroy_field_vars(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_field_vars; i++)
		destroy_field_var(hd->field_vars[i]);
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		destroy_field_var(hd->save_vars[i]);
	hd->n_field_vars = hd->n_save_vars = 0;
}

/* The kernel's create_field_var(): field @field_name of @file's event
 * as a variable of @hd. */
static struct field_var *create_field_var(struct hist_err_ctx *ec,
					  struct hist_data *hd,
					  struct tf_event_file *file,
					  char *field_name, int *errp)
{
	unsigned long flags = HIST_FIELD_FL_VAR;
	struct parse_state ps = { ec, hd, file->event };
	struct hist_field *val, *var;
	struct field_var *fv;

	if (hd->n_field_vars >= HIST_PARAMS_MAX) {
		hist_err(ec, HIST_ERR_TOO_MANY_FIELD_VARS,
			 hist_errpos(ec, field_name));
		*errp = -EINVAL;
		return NULL;
	}
	val = parse_atom(&ps, field_name, &flags, NULL, errp);
	if (!val) {
		hist_err(ec, HIST_ERR_FIELD_VAR_PARSE_FAIL,
			 hist_errpos(ec, field_name));
		return NULL;
	}
	var = create_var(hd, file, field_name, val->size, val->type, errp);
	if (!var) {
		hist_err(ec, HIST_ERR_VAR_CREATE_FIND_FAIL,
			 hist_errpos(ec, field_name));
		destroy_hist_field(val);
		return NULL;
	}
	fv = calloc(1, sizeof(*fv));
	if (!fv) {
		destroy_hist_field(val);
		destroy_hist_field(var);
		*errp = -ENOMEM;
		return NULL;
	}
	var->flags |= val->flags & HIST_FIELD_FL_STACKTRACE;
	fv->var = var;
	fv->val = val;
	return fv;
}

/* The kernel's create_target_field_var(): on @hd's own event, if the
 * qualified name (when given) names it. */
static struct field_var *create_target_field_var(struct hist_err_ctx *ec,
						 struct hist_data *hd,
						 const char *system,
						 const char *event,
						 char *var_name, int *errp)
{
	const struct tf_event *ev = hd->file->event;

	*errp = 0;
	if (system) {
		if (!event || strcmp(system, ev->system) != 0 ||
		    strcmp(event, ev->name) != 0)
			return NULL;
	}
	return create_field_var(ec, hd, hd->file, var_name, errp);
}

static bool str_or_stack(const struct hist_field *f)
{
	return f->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE);
}

static void save_field_var(struct hist_data *hd, struct field_var *fv)
{
	hd->field_vars[hd->n_field_vars++] = fv;
	if (str_or_stack(fv->val))
		hd->n_field_var_str++;
}

/* ---- field variables on the onmatch() event ------------------------------- */

static bool compatible_keys(const struct hist_data *target,
			    const struct hist_data *hd, unsigned int n_keys)
{
	unsigned int i = hd->n_vals, j = target->n_vals;

	if (hd->n_fields - hd->n_vals != n_keys)
		return false;
	for (unsigned int n = 0; n < n_keys; n++) {
		const struct hist_field *a = hd->fields[i + n];
		const struct hist_field *b = target->fields[j + n];

		if (strcmp(a->type, b->type) != 0 || a->size != b->size ||
		    a->is_signed != b->is_signed)
			return false;
	}
	return true;
}

static struct tf_trigger *find_compatible_hist(const struct hist_data *target,
					       struct tf_event_file *file)
{
	unsigned int n_keys = target->n_fields - target->n_vals;
	struct tf_trigger *t;

	cds_list_for_each_entry(t, &file->triggers, list) {
		struct hist_trigger *ht = t->private_data;

		if (t->cmd == &hist_command && ht &&
		    compatible_keys(target, ht->hist_data, n_keys))
			return t;
	}
	return NULL;
}

static struct hist_field *find_synthetic_field_var(struct hist_err_ctx *ec,
						   struct hist_data *target,
						   const char *system,
						   const char *event,
						   const char *field_name)
{
	char name[MAX_FILTER_STR_VAL];

	if ((size_t)snprintf(name, sizeof(name), "synthetic_%s", field_name) >=
	    sizeof(name))
		return NULL;
	return find_event_var(ec, target, system, event, name);
}

/*
 * The kernel's create_field_var_hist(): field @field_name of another
 * event (the onmatch() one) is kept by a histogram made on that event
 * with the keys and filter of one already there, as the variable
 * synthetic_<field>; the action references that variable.
 */
static struct hist_field *create_field_var_hist(struct hist_err_ctx *ec,
						struct hist_data *target,
						const char *system,
						const char *event,
						const char *field_name,
						int *errp)
{
	struct tf_trace_array *tr = target->file->tr;
	struct field_var_hist *var_hist;
	struct tf_event_file *file;
	struct tf_trigger *compat;
	struct hist_data *hd;
	struct hist_field *event_var;
	struct strbuf cmd = STRBUF_INIT;
	bool first = true;
	int ret;

	*errp = -EINVAL;
	if (target->n_field_var_hists >= HIST_PARAMS_MAX) {
		hist_err(ec, HIST_ERR_TOO_MANY_FIELD_VARS,
			 hist_errpos(ec, field_name));
		return NULL;
	}
	file = hist_event_file(tr, system, event);
	if (!file) {
		hist_err(ec, HIST_ERR_EVENT_FILE_NOT_FOUND,
			 hist_errpos(ec, field_name));
		return NULL;
	}
	compat = find_compatible_hist(target, file);
	if (!compat) {
		hist_err(ec, HIST_ERR_HIST_NOT_FOUND, hist_errpos(ec, field_name));
		return NULL;
	}
	hd = ((struct hist_trigger *)compat->private_data)->hist_data;
	event_var = find_synthetic_field_var(ec, target, system, event,
					     field_name);
	if (event_var)
		return event_var;

	sb_puts(&cmd, "keys=");
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		if (!first)
			sb_putc(&cmd, ',');
		hist_expr_field_str(&cmd, hd->fields[i]);
		first = false;
	}
	sb_printf(&cmd, ":synthetic_%s=%s", field_name, field_name);
	if (compat->filter_str)
		sb_printf(&cmd, " if %s", compat->filter_str);
	if (sb_error(&cmd) || cmd.len >= MAX_FILTER_STR_VAL) {
		sb_release(&cmd);
		*errp = sb_error(&cmd) ? -ENOMEM : -E2BIG;
		return NULL;
	}
	var_hist = calloc(1, sizeof(*var_hist));
	if (!var_hist) {
		sb_release(&cmd);
		*errp = -ENOMEM;
		return NULL;
	}
	var_hist->cmd = sb_detach(&cmd);
	var_hist->file = file;
	ret = hist_parse_cmd(ec, file, "", var_hist->cmd);
	if (ret) {
		free(var_hist->cmd);
		free(var_hist);
		hist_err(ec, HIST_ERR_HIST_CREATE_FAIL, hist_errpos(ec, field_name));
		*errp = ret;
		return NULL;
	}
	target->field_var_hists[target->n_field_var_hists++] = var_hist;
	event_var = find_synthetic_field_var(ec, target, system, event,
					     field_name);
	if (!event_var) {
		hist_err(ec, HIST_ERR_SYNTH_VAR_NOT_FOUND,
			 hist_errpos(ec, field_name));
		return NULL;
	}
	return event_var;
}

/* The kernel's unregister_field_var_hists(): `!hist:` of each extra
 * histogram, as it was made. */
void unregister_field_var_hists(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_field_var_hists; i++) {
		struct field_var_hist *fvh = hd->field_var_hists[i];

		hist_parse_cmd(NULL, fvh->file, "!hist", fvh->cmd);
	}
}

void destroy_field_var_hists(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_field_var_hists; i++) {
		free(hd->field_var_hists[i]->cmd);
		free(hd->field_var_hists[i]);
	}
	hd->n_field_var_hists = 0;
}

/* ---- trace() ---------------------------------------------------------------- */

/* The kernel's check_synth_field(): can @f feed field @pos of @se? */
static int check_synth_field(const struct tf_synth_event *se,
			     const struct hist_field *f, unsigned int pos)
{
	const struct tf_synth_field *field;

	if (pos >= se->n_fields)
		return -EINVAL;
	field = &se->fields[pos];
	if (strstr(f->type, "char[") && field->is_string && field->is_dynamic)
		return 0;
	if (!!(f->flags & HIST_FIELD_FL_STACKTRACE) != field->is_stack)
		return -EINVAL;
	if (field->is_stack)
		return 0;
	if (strcmp(field->type, f->type) != 0) {
		if (field->size != f->size ||
		    (!field->is_string && field->is_signed != f->is_signed))
			return -EINVAL;
	}
	return 0;
}

static struct hist_field *trace_action_find_var(struct hist_err_ctx *ec,
						struct hist_data *hd,
						struct action_data *data,
						const char *system,
						const char *event,
						const char *var)
{
	struct hist_field *f;

	var++;		/* the '$' */
	f = find_target_event_var(hd, system, event, var);
	if (!f) {
		if (!system && data->handler == HANDLER_ONMATCH) {
			system = data->match_event_system;
			event = data->match_event;
		}
		f = find_event_var(ec, hd, system, event, var);
	}
	if (!f)
		hist_err(ec, HIST_ERR_PARAM_NOT_FOUND, hist_errpos(ec, var));
	return f;
}

static struct hist_field *trace_action_create_field_var(struct hist_err_ctx *ec,
							 struct hist_data *hd,
							 struct action_data *data,
							 const char *system,
							 const char *event,
							 char *var)
{
	struct field_var *fv;
	int err;

	fv = create_target_field_var(ec, hd, system, event, var, &err);
	if (fv) {
		save_field_var(hd, fv);
		return fv->var;
	}
	if (!system && data->handler == HANDLER_ONMATCH) {
		system = data->match_event_system;
		event = data->match_event;
	}
	if (!event)
		return NULL;
	return create_field_var_hist(ec, hd, system, event, var, &err);
}

static int trace_action_create(struct hist_err_ctx *ec, struct hist_data *hd,
			       struct action_data *data)
{
	struct tf_tracing *t = hd->file->tr->tracing;
	const char *name = data->use_trace_keyword ? data->synth_event_name
						   : data->action_name;
	struct tf_synth_event *se;
	unsigned int field_pos = 0;
	int ret = 0;

	se = name ? tf_synth_find(t, name) : NULL;
	if (!se) {
		hist_err(ec, HIST_ERR_SYNTH_EVENT_NOT_FOUND, hist_errpos(ec, name));
		return -EINVAL;
	}
	se->ref++;
	for (unsigned int i = 0; i < data->n_params; i++) {
		char *p = strdup(data->params[i]), *param = p;
		const char *system, *event = NULL;
		struct hist_field *f, *ref;
		int idx;

		if (!p) {
			ret = -ENOMEM;
			goto err;
		}
		system = strsep(&param, ".");
		if (!param) {
			param = (char *)system;
			system = NULL;
		} else {
			event = strsep(&param, ".");
			if (!param) {
				free(p);
				ret = -EINVAL;
				goto err;
			}
		}
		if (param[0] == '$')
			f = trace_action_find_var(ec, hd, data, system, event,
						  param);
		else
			f = trace_action_create_field_var(ec, hd, data, system,
							  event, param);
		if (!f) {
			free(p);
			ret = -EINVAL;
			goto err;
		}
		if (check_synth_field(se, f, field_pos) != 0) {
			hist_err(ec, HIST_ERR_SYNTH_TYPE_MISMATCH,
				 hist_errpos(ec, param));
			free(p);
			ret = -EINVAL;
			goto err;
		}
		ref = create_var_ref(hd, f, system, event);
		free(p);
		if (!ref) {
			ret = -ENOMEM;
			goto err;
		}
		idx = find_var_ref_idx(hd, ref);
		if (idx < 0) {
			ret = idx;
			goto err;
		}
		data->var_ref_idx[i] = (unsigned int)idx;
		field_pos++;
	}
	if (field_pos != se->n_fields) {
		hist_err(ec, HIST_ERR_SYNTH_COUNT_MISMATCH,
			 hist_errpos(ec, se->name));
		ret = -EINVAL;
		goto err;
	}
	data->synth_event = se;
	return 0;
err:
	se->ref--;
	return ret;
}

/* ---- save() and snapshot() ----------------------------------------------------- */

static bool check_track_val(const struct action_data *a, uint64_t track_val,
			    uint64_t var_val)
{
	if (a->handler == HANDLER_ONMAX)
		return var_val > track_val;
	return var_val != track_val;	/* onchange */
}

/* The kernel's cond_snapshot_update(): under the trace array's snapshot
 * lock, whether this value beats the best one; if so it becomes it. */
static bool cond_snapshot_update(void *cond_data, void *ctx)
{
	struct track_data *td = cond_data;
	const struct snapshot_context *c = ctx;
	uint64_t val;

	if (!td || !c)
		return false;
	val = tracing_map_read_var(c->elt, td->action_data->track_var->var.idx);
	if (!check_track_val(td->action_data, td->track_val, val))
		return false;
	td->track_val = val;
	memcpy(td->key, c->key, td->key_len);
	memcpy(td->comm, tracing_map_elt_comm(c->map, c->elt), HIST_COMM_LEN);
	td->updated = true;
	return true;
}

static int action_create(struct hist_err_ctx *ec, struct hist_data *hd,
			 struct action_data *data)
{
	struct tf_trace_array *tr = hd->file->tr;
	int ret = 0;

	if (data->action == ACTION_TRACE)
		return trace_action_create(ec, hd, data);
	if (data->action == ACTION_SNAPSHOT) {
		struct track_data *td = calloc(1, sizeof(*td));

		if (!td)
			return -ENOMEM;
		td->key_len = hd->key_size;
		td->action_data = data;
		td->hist_data = hd;
		ret = tf_trigger_snapshot_cond_enable(tr, td,
						      cond_snapshot_update);
		if (ret)
			free(td);
		else
			data->track = td;
		return ret;
	}
	/* save() */
	if (hd->n_save_vars) {
		hist_err(ec, HIST_ERR_TOO_MANY_SAVE_ACTIONS, 0);
		return -EEXIST;
	}
	for (unsigned int i = 0; i < data->n_params; i++) {
		char *param = strdup(data->params[i]);
		struct field_var *fv;

		if (!param)
			return -ENOMEM;
		fv = create_target_field_var(ec, hd, NULL, NULL, param, &ret);
		if (!fv) {
			hist_err(ec, HIST_ERR_FIELD_VAR_CREATE_FAIL,
				 hist_errpos(ec, param));
			free(param);
			return ret ? ret : -EINVAL;
		}
		hd->save_vars[hd->n_save_vars++] = fv;
		if (str_or_stack(fv->val))
			hd->n_save_var_str++;
		free(param);
	}
	return 0;
}

static int track_data_create(struct hist_err_ctx *ec, struct hist_data *hd,
			     struct action_data *data)
{
	const char *var_str = data->var_str;
	struct hist_field *var, *ref;
	int ret = 0;

	if (var_str[0] != '$') {
		hist_err(ec, HIST_ERR_ONX_NOT_VAR, hist_errpos(ec, var_str));
		return -EINVAL;
	}
	var_str++;
	var = find_target_event_var(hd, NULL, NULL, var_str);
	if (!var) {
		hist_err(ec, HIST_ERR_ONX_VAR_NOT_FOUND, hist_errpos(ec, var_str));
		return -EINVAL;
	}
	ref = create_var_ref(hd, var, NULL, NULL);
	if (!ref)
		return -ENOMEM;
	data->var_ref = ref;
	data->track_var = create_var(hd, hd->file,
				     data->handler == HANDLER_ONMAX ? "__max"
								    : "__change",
				     8, "u64", &ret);
	if (!data->track_var) {
		hist_err(ec, HIST_ERR_ONX_VAR_CREATE_FAIL, 0);
		return ret;
	}
	return action_create(ec, hd, data);
}

int create_actions(struct hist_err_ctx *ec, struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *a = hd->actions[i];
		int ret;

		if (a->handler == HANDLER_ONMATCH)
			ret = action_create(ec, hd, a);
		else
			ret = track_data_create(ec, hd, a);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- matching and read-back ------------------------------------------------ */

static const char *synth_name(const struct action_data *a)
{
	return a->use_trace_keyword ? a->synth_event_name : a->action_name;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool actions_match(const struct hist_data *hd, const struct hist_data *test)
{
	if (hd->n_actions != test->n_actions)
		return false;
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		const struct action_data *a = hd->actions[i];
		const struct action_data *b = test->actions[i];

		if (a->handler != b->handler || a->action != b->action ||
		    a->n_params != b->n_params)
			return false;
		for (unsigned int j = 0; j < a->n_params; j++)
			if (strcmp(a->params[j], b->params[j]) != 0)
				return false;
		if (!str_eq(synth_name(a), synth_name(b)))
			return false;
		if (a->handler == HANDLER_ONMATCH) {
			if (strcmp(a->match_event_system,
				   b->match_event_system) != 0 ||
			    strcmp(a->match_event, b->match_event) != 0)
				return false;
		} else if (strcmp(a->var_str, b->var_str) != 0) {
			return false;
		}
	}
	return true;
}

static void print_action_spec(struct strbuf *out, const struct hist_data *hd,
			      const struct action_data *a)
{
	if (a->action == ACTION_SAVE) {
		for (unsigned int i = 0; i < hd->n_save_vars; i++) {
			if (i)
				sb_putc(out, ',');
			sb_puts(out, hd->save_vars[i]->var->var.name);
		}
	} else if (a->action == ACTION_TRACE) {
		if (a->use_trace_keyword && a->synth_event_name)
			sb_puts(out, a->synth_event_name);
		for (unsigned int i = 0; i < a->n_params; i++) {
			if (i || a->use_trace_keyword)
				sb_putc(out, ',');
			sb_puts(out, a->params[i]);
		}
	}
}

void print_actions_spec(struct strbuf *out, const struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		const struct action_data *a = hd->actions[i];

		if (a->handler == HANDLER_ONMATCH)
			sb_printf(out, ":onmatch(%s.%s).", a->match_event_system,
				  a->match_event);
		else
			sb_printf(out, ":%s(%s).", a->handler == HANDLER_ONMAX ?
				  "onmax" : "onchange", a->var_str);
		sb_printf(out, "%s(", a->action_name);
		print_action_spec(out, hd, a);
		sb_putc(out, ')');
	}
}

/* After an entry of the hist file: onmax()/onchange() values, saved
 * fields (track_data_print). */
void print_actions(struct strbuf *out, const struct hist_data *hd,
		   struct tracing_map_elt *elt)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		const struct action_data *a = hd->actions[i];
		uint64_t val;

		if (a->action == ACTION_SNAPSHOT || a->handler == HANDLER_ONMATCH)
			continue;
		val = tracing_map_read_var(elt, a->track_var->var.idx);
		sb_printf(out, a->handler == HANDLER_ONMAX ? "\n\tmax: %10llu"
							   : "\n\tchanged: %10llu",
			  (unsigned long long)val);
		for (unsigned int j = 0; j < hd->n_save_vars; j++) {
			const struct field_var *fv = hd->save_vars[j];
			uint64_t v = tracing_map_read_var(elt, fv->var->var.idx);

			if (fv->val->flags & HIST_FIELD_FL_STRING)
				sb_printf(out, "  %s: %-32s", fv->var->var.name,
					  v ? (const char *)(uintptr_t)v : "");
			else
				sb_printf(out, "  %s: %10llu", fv->var->var.name,
					  (unsigned long long)v);
		}
	}
}

/* The "Snapshot taken" block of the hist file (track_data_snapshot_print). */
void track_data_snapshot_print(struct strbuf *out, const struct hist_data *hd)
{
	const struct action_data *a = NULL;
	struct track_data *td;

	for (unsigned int i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->action == ACTION_SNAPSHOT)
			a = hd->actions[i];
	/*
	 * Only then is hd->file looked at: a named histogram outlives the
	 * instance whose trigger made it (rmdir lets it go while another
	 * instance uses the name), and hd->file with it; one with a
	 * snapshot() has variables, which keep its instance (EBUSY).
	 */
	if (!a)
		return;
	td = tf_trigger_snapshot_cond_data(hd->file->tr);
	if (!td || !td->updated)
		return;
	sb_puts(out, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
	sb_printf(out, "\ttriggering value { %s(%s) }: %10llu",
		  a->handler == HANDLER_ONMAX ? "onmax" : "onchange",
		  a->var_str, (unsigned long long)td->track_val);
	sb_puts(out, "\ttriggered by event with key: ");
	hist_print_key(out, hd, td->key, td->comm);
	sb_putc(out, '\n');
}

/* ---- the event path ------------------------------------------------------------ */

/*
 * The kernel's __update_field_vars(): each field variable takes its
 * field's value; strings are copied into the entry's own strings
 * (from @str_start) and the variable points there.
 */
static void set_field_vars(const struct hist_ctx *cx,
			   struct tracing_map_elt *elt,
			   struct field_var *const *fvs, unsigned int n,
			   unsigned int str_start)
{
	unsigned int j = str_start;

	for (unsigned int i = 0; i < n; i++) {
		const struct field_var *fv = fvs[i];
		uint64_t v;

		if (fv->direct) {	/* read where it is used */
			j += str_or_stack(fv->val);
			continue;
		}
		/* an event's string is read where it is copied */
		v = fv->val->fn == HIST_FN_STRING ? 0 : hist_eval(cx, fv->val);
		if (str_or_stack(fv->val)) {
			char *str = tracing_map_elt_str(cx->map, elt, j++);

			if (fv->val->flags & HIST_FIELD_FL_STRING)
				hist_copy_str(str, fv->val, cx->rec, v);
			else
				hist_copy_stack(str, cx->rec);
			v = (uint64_t)(uintptr_t)str;
		}
		tracing_map_set_var(elt, fv->var->var.idx, v);
	}
}

void update_field_vars(const struct hist_ctx *cx, struct hist_data *hd,
		       struct tracing_map_elt *elt)
{
	set_field_vars(cx, elt, hd->field_vars, hd->n_field_vars, 0);
}

/*
 * A field variable made for an action's parameter holds a field of the
 * event for that action alone: nothing else can name it, and it is set
 * on every event before the action reads it.  One that is a number or a
 * char[N] of the record is then read from the record where the
 * reference to it is resolved, instead of stored in the entry and read
 * back (the same value: the same record, in the same event).
 */
void mark_direct_field_vars(struct hist_data *hd)
{
	unsigned int str_idx[HIST_PARAMS_MAX], n_str = 0;
	bool plain[HIST_PARAMS_MAX];	/* a number or a char[N] field */

	hd->n_direct_field_vars = 0;
	for (unsigned int i = 0; i < hd->n_field_vars; i++) {
		const struct hist_field *val = hd->field_vars[i]->val;

		hd->field_vars[i]->direct = false;
		str_idx[i] = str_or_stack(val) ? n_str++ : 0;
		plain[i] = val->fn == HIST_FN_NUM ||
			   (val->fn == HIST_FN_STRING && val->field &&
			    val->field->kind == TF_FIELD_STR_STATIC &&
			    val->field->size &&
			    !(val->flags & (HIST_FIELD_FL_STACKTRACE |
					    HIST_FIELD_FL_EXECNAME)));
	}
	for (unsigned int j = 0; j < hd->n_self_refs; j++) {
		struct hist_field *ref = hd->var_refs[hd->self_refs[j]];

		ref->direct = NULL;
		for (unsigned int i = 0; i < hd->n_field_vars; i++) {
			struct field_var *fv = hd->field_vars[i];

			if (fv->var->var.idx != ref->var.idx || !plain[i] ||
			    ref->read_once)
				continue;
			ref->direct = fv->val;
			ref->direct_str = str_idx[i];
			if (!fv->direct)
				hd->n_direct_field_vars++;
			fv->direct = true;
		}
	}
}

static void action_trace(const struct hist_ctx *cx, struct hist_data *hd,
			 const struct action_data *a, const uint64_t *vals)
{
	tf_synth_trace(hd->file->tr->tracing, a->synth_event, vals,
		       a->var_ref_idx, cx->rec);
}

/* onmax()/onchange(): the kernel's ontrack_action(). */
static void ontrack_action(const struct hist_ctx *cx, struct hist_data *hd,
			   struct tracing_map_elt *elt, const void *key,
			   const struct action_data *a, const uint64_t *vals)
{
	uint64_t var_val = vals[a->var_ref->var_ref_idx];
	uint64_t track_val = tracing_map_read_var(elt, a->track_var->var.idx);

	if (!check_track_val(a, track_val, var_val))
		return;
	tracing_map_set_var(elt, a->track_var->var.idx, var_val);
	switch (a->action) {
	case ACTION_SAVE:
		set_field_vars(cx, elt, hd->save_vars, hd->n_save_vars,
			       hd->n_field_var_str);
		break;
	case ACTION_SNAPSHOT: {
		struct snapshot_context c = { cx->map, elt, key };

		tf_trigger_snapshot_cond(hd->file->tr, &c, cx->rec);
		break;
	}
	case ACTION_TRACE:
		action_trace(cx, hd, a, vals);
		break;
	}
}

void hist_trigger_actions(const struct hist_ctx *cx, struct hist_data *hd,
			  struct tracing_map_elt *elt, const void *key,
			  const uint64_t *vals)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		const struct action_data *a = hd->actions[i];

		if (a->handler == HANDLER_ONMATCH)
			action_trace(cx, hd, a, vals);
		else
			ontrack_action(cx, hd, elt, key, a, vals);
	}
}

/* ---- hist_debug ------------------------------------------------------------------ */

static void field_var_debug(struct strbuf *out, const struct field_var *fv,
			    unsigned int i, bool save)
{
	const char *what = save ? "save_vars" : "field_vars";

	sb_printf(out, "\n    hist_data->%s[%u]:\n", what, i);
	sb_printf(out, "\n      %s[%u].var:\n", what, i);
	hist_debug_flags(out, fv->var->flags);
	sb_printf(out, "      var.name: %s\n", fv->var->var.name);
	sb_printf(out, "      var.idx (into tracing_map_elt.vars[]): %u\n",
		  fv->var->var.idx);
	sb_printf(out, "\n      %s[%u].val:\n", what, i);
	if (!fv->val->field && !hist_debug_generic_name(fv->val))
		return;
	sb_printf(out, "      ftrace_event_field name: %s\n",
		  fv->val->field ? fv->val->field->name
				 : hist_debug_generic_name(fv->val));
	sb_printf(out, "      type: %s\n", fv->val->type);
	sb_printf(out, "      size: %u\n", fv->val->size);
	sb_printf(out, "      is_signed: %u\n", fv->val->is_signed ? 1 : 0);
}

/* Returns false where the kernel's debug output stops with an error. */
bool hist_field_vars_debug(struct strbuf *out, const struct hist_data *hd)
{
	if (hd->n_field_vars)
		sb_puts(out, "\n  field variables:\n");
	for (unsigned int i = 0; i < hd->n_field_vars; i++) {
		field_var_debug(out, hd->field_vars[i], i, false);
		if (!hd->field_vars[i]->val->field &&
		    !hist_debug_generic_name(hd->field_vars[i]->val))
			return false;
	}
	return true;
}

void hist_actions_debug(struct strbuf *out, const struct hist_data *hd)
{
	if (hd->n_actions)
		sb_puts(out, "\n  action tracking variables (for onmax()/"
			"onchange()/onmatch()):\n");
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		const struct action_data *a = hd->actions[i];

		if (a->handler != HANDLER_ONMATCH) {
			sb_printf(out, "\n    hist_data->actions[%u].track_data."
				  "var_ref:\n", i);
			hist_debug_field(out, a->var_ref, HIST_FIELD_FL_VAR_REF);
			sb_printf(out, "\n    hist_data->actions[%u].track_data."
				  "track_var:\n", i);
			hist_debug_field(out, a->track_var, HIST_FIELD_FL_VAR);
		} else {
			sb_printf(out, "\n    hist_data->actions[%u].match_data."
				  "event_system: %s\n", i, a->match_event_system);
			sb_printf(out, "    hist_data->actions[%u].match_data."
				  "event: %s\n", i, a->match_event);
		}
	}
	if (hd->n_save_vars)
		sb_puts(out, "\n  save action variables (save() params):\n");
	for (unsigned int i = 0; i < hd->n_save_vars; i++) {
		field_var_debug(out, hd->save_vars[i], i, true);
		if (!hd->save_vars[i]->val->field &&
		    !hist_debug_generic_name(hd->save_vars[i]->val))
			return;
	}
}
