// SPDX-License-Identifier: GPL-2.0
/*
 * hist_vars.c - where a variable is: the histograms of a trace array
 * that define or reference variables (the kernel's tr->hist_vars), the
 * lookups that resolve `$var`, `sys.event.$var` and the variables of an
 * onmatch() event (find_var, find_var_file, find_match_var,
 * find_event_var), and the check that keeps a referenced variable's
 * histogram from being removed (check_var_refs).
 *
 * Everything here runs under tracing->lock.
 */
#include <errno.h>
#include <string.h>

#include "hist/hist_internal.h"

static struct hist_data *trigger_hist(const struct tf_trigger *t)
{
	return ((struct hist_trigger *)t->private_data)->hist_data;
}

static bool is_hist(const struct tf_trigger *t)
{
	return t->cmd == &hist_command && t->private_data;
}

struct hist_field *find_var_field(struct hist_data *hd, const char *var_name)
{
	if (!hd || !var_name)
		return NULL;
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f && (f->flags & HIST_FIELD_FL_VAR) && f->var.name &&
		    strcmp(f->var.name, var_name) == 0)
			return f;
	}
	return NULL;
}

/* A variable of a hist trigger registered on @file. */
static struct hist_field *find_file_var(struct tf_event_file *file,
					const char *var_name)
{
	struct tf_trigger *t;

	cds_list_for_each_entry(t, &file->triggers, list) {
		struct hist_field *f;

		if (!is_hist(t))
			continue;
		f = find_var_field(trigger_hist(t), var_name);
		if (f)
			return f;
	}
	return NULL;
}

struct hist_field *find_var(struct hist_data *hd, struct tf_event_file *file,
			    const char *var_name)
{
	struct hist_field *f = find_var_field(hd, var_name);

	return f ? f : find_file_var(file, var_name);
}

/* The kernel's __find_event_file(): any event of @tr by name. */
struct tf_event_file *hist_event_file(struct tf_trace_array *tr,
				      const char *system, const char *event)
{
	struct tf_event *ev;

	if (!system || !event)
		return NULL;
	ev = tf_registry_find(tr->tracing->reg, system, event);
	return ev ? tf_tr_file(tr, ev->index) : NULL;
}

/*
 * The kernel's find_event_file(): the same, but not ftrace's own events,
 * which it cannot enable (TRACE_EVENT_FL_IGNORE_ENABLE).
 */
static struct tf_event_file *find_event_file(struct tf_trace_array *tr,
					     const char *system,
					     const char *event)
{
	if (system && strcmp(system, "ftrace") == 0)
		return NULL;
	return hist_event_file(tr, system, event);
}

/*
 * The kernel's find_var_file(): the event file that defines @var_name,
 * given as sys.event or, if not, unique among the trace array's
 * histograms with variables (else "Variable name not unique").
 */
static struct tf_event_file *find_var_file(struct hist_err_ctx *ec,
					   struct tf_trace_array *tr,
					   const char *system,
					   const char *event,
					   const char *var_name)
{
	struct tf_event_file *found = NULL;
	struct hist_data *vd;

	if (system)
		return find_event_file(tr, system, event);
	cds_list_for_each_entry(vd, &tr->hist_vars, vars_list) {
		struct tf_event_file *file = vd->file;

		if (file == found)
			continue;
		if (find_var_field(vd, var_name)) {
			if (found) {
				hist_err(ec, HIST_ERR_VAR_NOT_UNIQUE,
					 hist_errpos(ec, var_name));
				return NULL;
			}
			found = file;
		}
	}
	return found;
}

/* The kernel's find_match_var(): a variable of an onmatch() event. */
static struct hist_field *find_match_var(struct hist_err_ctx *ec,
					 struct hist_data *hd,
					 const char *var_name, bool *err)
{
	struct tf_trace_array *tr = hd->file->tr;
	struct hist_field *found = NULL;

	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *a = hd->actions[i];
		struct tf_event_file *file;
		struct hist_field *f;

		if (a->handler != HANDLER_ONMATCH)
			continue;
		file = find_var_file(ec, tr, a->match_event_system,
				     a->match_event, var_name);
		if (!file)
			continue;
		f = find_file_var(file, var_name);
		if (f) {
			if (found) {
				hist_err(ec, HIST_ERR_VAR_NOT_UNIQUE,
					 hist_errpos(ec, var_name));
				*err = true;
				return NULL;
			}
			found = f;
		}
	}
	return found;
}

struct hist_field *find_event_var(struct hist_err_ctx *ec,
				  struct hist_data *hd, const char *system,
				  const char *event, const char *var_name)
{
	struct tf_event_file *file;

	if (!system || !event) {
		bool err = false;
		struct hist_field *f = find_match_var(ec, hd, var_name, &err);

		if (err)
			return NULL;
		if (f)
			return f;
	}
	file = find_var_file(ec, hd->file->tr, system, event, var_name);
	return file ? find_file_var(file, var_name) : NULL;
}

/* The kernel's find_target_event_var(): a variable of @hd itself. */
struct hist_field *find_target_event_var(struct hist_data *hd,
					 const char *system, const char *event,
					 const char *var_name)
{
	const struct tf_event *ev = hd->file->event;

	if (system) {
		if (!event || strcmp(system, ev->system) != 0 ||
		    strcmp(event, ev->name) != 0)
			return NULL;
	}
	return find_var_field(hd, var_name);
}

/* ---- the trace array's histograms with variables -------------------------- */

static bool field_has_hist_vars(const struct hist_field *f, unsigned level)
{
	if (level > 3 || !f)
		return false;
	if (f->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_VAR_REF))
		return true;
	return field_has_hist_vars(f->operands[0], level + 1) ||
	       field_has_hist_vars(f->operands[1], level + 1);
}

bool hist_field_has_vars(const struct hist_field *f)
{
	return field_has_hist_vars(f, 0);
}

bool has_hist_vars(const struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_fields; i++)
		if (field_has_hist_vars(hd->fields[i], 0))
			return true;
	return false;
}

void save_hist_vars(struct hist_data *hd)
{
	if (hd->in_hist_vars)
		return;
	cds_list_add(&hd->vars_list, &hd->file->tr->hist_vars);
	hd->in_hist_vars = true;
}

void remove_hist_vars(struct hist_data *hd)
{
	if (!hd->in_hist_vars)
		return;
	cds_list_del(&hd->vars_list);
	hd->in_hist_vars = false;
}

/* Does @hd reference variable @idx of @var_data? (find_var_ref) */
static bool refs_var(const struct hist_data *hd,
		     const struct hist_data *var_data, unsigned int idx)
{
	for (unsigned int i = 0; i < hd->n_var_refs; i++)
		if (hd->var_refs[i]->var.idx == idx &&
		    hd->var_refs[i]->var.hist_data == var_data)
			return true;
	return false;
}

/*
 * The kernel's check_var_refs(): whether another histogram of the trace
 * array references one of @hd's variables (then @hd cannot go).
 */
bool check_var_refs(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		struct hist_data *other;

		if (!f || !(f->flags & HIST_FIELD_FL_VAR))
			continue;
		/* hd->file only now: a histogram with variables keeps its
		 * instance, one without may have outlived it (named) */
		cds_list_for_each_entry(other, &hd->file->tr->hist_vars,
					vars_list) {
			if (other == hd)
				continue;
			if (refs_var(other, hd, f->var.idx))
				return true;
		}
	}
	return false;
}

/* Whether a histogram of @file has a referenced variable. */
bool hist_file_check_refs(struct tf_event_file *file)
{
	struct tf_trigger *t;

	cds_list_for_each_entry(t, &file->triggers, list)
		if (is_hist(t) && check_var_refs(trigger_hist(t)))
			return true;
	return false;
}

bool tf_hist_tr_busy(struct tf_trace_array *tr)
{
	return !cds_list_empty(&tr->hist_vars);
}
