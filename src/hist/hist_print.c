// SPDX-License-Identifier: GPL-2.0
/*
 * hist_print.c - what hist triggers show: the trigger file's read-back
 * line (event_hist_trigger_print), the `hist` file (hist_show: a header
 * per trigger, the sorted entries with per-modifier widths, Totals) and
 * the `hist_debug` file (hist_debug_show), byte for byte as the kernel.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/urcu-memb.h>

#include "hist/hist_internal.h"
#include "util/rcu.h"

/* ---- read-back ----------------------------------------------------------- */

static void hist_field_print(struct strbuf *out, const struct hist_field *f)
{
	const char *fl;

	if (f->var.name)
		sb_printf(out, "%s=", f->var.name);
	if (f->flags & HIST_FIELD_FL_CPU) {
		sb_puts(out, "common_cpu");
	} else if (f->flags & HIST_FIELD_FL_CONST) {
		sb_printf(out, "%llu", (unsigned long long)f->constant);
	} else {
		if ((f->flags & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) &&
		    !f->system)
			sb_putc(out, '$');
		sb_puts(out, hist_field_name(f));
	}
	if (f->flags && !(f->flags & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_EXPR |
				      HIST_FIELD_FL_STACKTRACE))) {
		fl = hist_field_flags_str(f);
		if (fl)
			sb_printf(out, ".%s", fl);
	}
	if (f->buckets)
		sb_printf(out, "=%lu", f->buckets);
}

void hist_trigger_print(struct tf_trigger *data, struct strbuf *out)
{
	struct hist_trigger *ht = data->private_data;
	struct hist_data *hd = ht->hist_data;
	bool show_val = false, have_var = false;
	unsigned int i, n;

	sb_puts(out, HIST_PREFIX);
	if (ht->name)
		sb_printf(out, "%s:", ht->name);
	sb_puts(out, "keys=");
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		const struct hist_field *f = hd->fields[i];

		if (i > hd->n_vals)
			sb_putc(out, ',');
		if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			if (f->field)
				sb_printf(out, "%s.stacktrace", f->field->name);
			else
				sb_puts(out, "common_stacktrace");
		} else {
			hist_field_print(out, f);
		}
	}
	sb_puts(out, ":vals=");
	for (i = 0; i < hd->n_vals; i++) {
		if (hd->fields[i]->flags & HIST_FIELD_FL_VAR) {
			have_var = true;
			continue;
		}
		if (i == HITCOUNT_IDX) {
			if (hd->attrs->no_hitcount)
				continue;
			sb_puts(out, "hitcount");
		} else {
			if (show_val)
				sb_putc(out, ',');
			hist_field_print(out, hd->fields[i]);
		}
		show_val = true;
	}
	if (have_var) {
		sb_putc(out, ':');
		for (i = 0, n = 0; i < hd->n_vals; i++) {
			if (!(hd->fields[i]->flags & HIST_FIELD_FL_VAR))
				continue;
			if (n++)
				sb_putc(out, ',');
			hist_field_print(out, hd->fields[i]);
		}
	}
	sb_puts(out, ":sort=");
	for (i = 0; i < hd->n_sort_keys; i++) {
		unsigned int idx = hd->sort_keys[i].field_idx;

		if (i > 0)
			sb_putc(out, ',');
		if (idx == HITCOUNT_IDX) {
			sb_puts(out, "hitcount");
		} else {
			/* sort indices skip the variables */
			if (idx >= hd->n_vals - hd->n_vars)
				idx += hd->n_vars;
			hist_field_print(out, hd->fields[idx]);
		}
		if (hd->sort_keys[i].descending)
			sb_puts(out, ".descending");
	}
	sb_printf(out, ":size=%u", 1u << hd->map_bits);
	if (hd->enable_timestamps)
		sb_printf(out, ":clock=%s", hd->attrs->clock);
	if (hd->attrs->no_hitcount)
		sb_puts(out, ":nohitcount");
	print_actions_spec(out, hd);
	if (data->filter_str)
		sb_printf(out, " if %s", data->filter_str);
	sb_puts(out, __atomic_load_n(&data->paused, __ATOMIC_RELAXED) ?
		     " [paused]" : " [active]");
	sb_putc(out, '\n');
}

/* ---- the hist file -------------------------------------------------------- */

static uint64_t key_u64(const void *key, const struct hist_field *f)
{
	uint64_t v;

	memcpy(&v, (const char *)key + f->offset, 8);
	return v;
}

static void print_stacktrace(struct strbuf *out, const void *key,
			     const struct hist_field *f)
{
	for (unsigned int i = 0; i < HIST_STACKTRACE_DEPTH; i++) {
		uint64_t addr;

		memcpy(&addr, (const char *)key + f->offset + i * 8, 8);
		if (!addr)
			return;
		sb_printf(out, "%*c", 9, ' ');
		tf_hist_format_sym(f->hist_data->tracing, out, addr, true);
		sb_putc(out, '\n');
	}
}

/*
 * printf's "%*llu" and "%*llx" without printf: `cat hist` prints a few
 * numbers per entry, and vsnprintf (twice per sb_printf) dominated the
 * rendering of large histograms.
 */
static void sb_num(struct strbuf *out, uint64_t v, int width, bool hex)
{
	char buf[32], *p = buf + sizeof(buf);
	int n;

	do {
		*--p = hex ? "0123456789abcdef"[v & 15] : (char)('0' + v % 10);
		v = hex ? v >> 4 : v / 10;
	} while (v);
	n = (int)(buf + sizeof(buf) - p);
	while (n < width && p > buf) {
		*--p = ' ';
		n++;
	}
	sb_add(out, p, (size_t)n);
}

/* "<name>: " */
static void sb_name(struct strbuf *out, const char *name)
{
	sb_puts(out, name);
	sb_add(out, ": ", 2);
}

/* %-Ns of a generated string: pad it to width w */
static void sb_pad(struct strbuf *out, size_t start, size_t w)
{
	while (out->len - start < w)
		sb_putc(out, ' ');
}

void hist_print_key(struct strbuf *out, const struct hist_data *hd,
		    const void *key, const char *comm)
{
	bool multiline = false;
	unsigned int i;

	sb_puts(out, "{ ");
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		const struct hist_field *f = hd->fields[i];
		const char *name = hist_field_name(f);
		uint64_t v;
		size_t start;

		if (i > hd->n_vals)
			sb_puts(out, ", ");
		if (f->flags & HIST_FIELD_FL_HEX) {
			sb_name(out, name);
			sb_num(out, key_u64(key, f), 0, true);
		} else if (f->flags & (HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET)) {
			bool off = f->flags & HIST_FIELD_FL_SYM_OFFSET;

			v = key_u64(key, f);
			sb_printf(out, "%s: [%llx] ", name, (unsigned long long)v);
			start = out->len;
			tf_hist_format_sym(f->hist_data->tracing, out, v, off);
			sb_pad(out, start, off ? 55 : 45);
		} else if (f->flags & HIST_FIELD_FL_EXECNAME) {
			sb_printf(out, "%s: %-16s[%10llu]", name, comm,
				  (unsigned long long)key_u64(key, f));
		} else if (f->flags & HIST_FIELD_FL_SYSCALL) {
			const char *sc;

			v = key_u64(key, f);
			sc = tf_hist_syscall_name(v);
			sb_printf(out, "%s: %-30s[%3llu]", name,
				  sc ? sc : "unknown_syscall",
				  (unsigned long long)v);
		} else if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			if (f->field)
				sb_printf(out, "%s.stacktrace", f->field->name);
			else
				sb_puts(out, "common_stacktrace:\n");
			print_stacktrace(out, key, f);
			multiline = true;
		} else if (f->flags & HIST_FIELD_FL_LOG2) {
			sb_printf(out, "%s: ~ 2^%-2llu", name,
				  (unsigned long long)key_u64(key, f));
		} else if (f->flags & HIST_FIELD_FL_BUCKET) {
			v = key_u64(key, f);
			sb_printf(out, "%s: ~ %llu-%llu", name,
				  (unsigned long long)v,
				  (unsigned long long)(v + f->buckets - 1));
		} else if (f->flags & HIST_FIELD_FL_STRING) {
			char s[HIST_KEY_SIZE_MAX + 1];

			memcpy(s, (const char *)key + f->offset, f->size);
			s[f->size] = '\0';
			sb_printf(out, "%s: %-50s", name, s);
		} else {
			sb_name(out, name);
			sb_num(out, key_u64(key, f), 10, false);
		}
	}
	if (!multiline)
		sb_putc(out, ' ');
	sb_putc(out, '}');
}

struct val_stat {
	uint64_t max, total;
};

/* 100 times the percentage of @val in @total; UINT_MAX for x/0. */
static unsigned int get_percentage(uint64_t val, uint64_t total)
{
	if (!total)
		goto div0;
	if (val < UINT64_MAX / 10000)
		return (unsigned int)(val * 10000 / total);
	total /= 10000;
	if (!total)
		goto div0;
	return (unsigned int)(val / total);
div0:
	return val ? UINT_MAX : 0;
}

static const char *fill_bar(char *buf, int size, uint64_t val, uint64_t max)
{
	unsigned int len = get_percentage(val, max);
	int i;

	if (len == UINT_MAX) {
		strcpy(buf, "[ERROR]");
		return buf;
	}
	len = (unsigned int)((uint64_t)len * size / 10000);
	for (i = 0; i < (int)len && i < size; i++)
		buf[i] = '#';
	while (i < size)
		buf[i++] = ' ';
	buf[size] = '\0';
	return buf;
}

static void print_val(struct strbuf *out, const char *name, unsigned long flags,
		      uint64_t val, const struct val_stat *st)
{
	if (flags & HIST_FIELD_FL_PERCENT) {
		unsigned int pc = get_percentage(val, st->total);

		if (pc == UINT_MAX)
			sb_printf(out, " %s (%%):[ERROR]", name);
		else
			sb_printf(out, " %s (%%): %3u.%02u", name, pc / 100,
				  pc % 100);
	} else if (flags & HIST_FIELD_FL_GRAPH) {
		char bar[21];

		sb_printf(out, " %s: %20s", name, fill_bar(bar, 20, val, st->max));
	} else {
		sb_putc(out, ' ');
		sb_name(out, name);
		sb_num(out, val, 10, flags & HIST_FIELD_FL_HEX);
	}
}

static int print_entries(struct strbuf *out, const struct hist_data *hd,
			 struct tracing_map *map)
{
	struct tracing_map_sort_entry **ents = NULL;
	struct val_stat stats[TRACING_MAP_VALS_MAX];
	int n, i;
	unsigned int j;

	n = tracing_map_sort_entries(map, hd->sort_keys, hd->n_sort_keys, &ents);
	if (n < 0)
		return n;
	memset(stats, 0, sizeof(stats));
	for (j = 0; j < hd->n_vals; j++) {
		if (!(hd->fields[j]->flags & (HIST_FIELD_FL_PERCENT |
					      HIST_FIELD_FL_GRAPH)))
			continue;
		for (i = 0; i < n; i++) {
			uint64_t v = ents[i]->sums[j];

			stats[j].total += v;
			if (stats[j].max < v)
				stats[j].max = v;
		}
	}
	for (i = 0; i < n; i++) {
		/* sorted order is random in memory: fetch ahead, the entry
		 * 8 rows on and the key (in the map's element) 4 rows on */
		if (i + 8 < n)
			__builtin_prefetch(ents[i + 8]);
		if (i + 4 < n)
			__builtin_prefetch(ents[i + 4]->key);
		hist_print_key(out, hd, ents[i]->key,
			       tracing_map_elt_comm(map, ents[i]->elt));
		if (!hd->attrs->no_hitcount)
			print_val(out, "hitcount", 0, ents[i]->sums[0], &stats[0]);
		for (j = 1; j < hd->n_vals; j++) {
			const struct hist_field *f = hd->fields[j];

			if (f->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXPR))
				continue;
			sb_putc(out, ' ');
			print_val(out, hist_field_name(f), f->flags,
				  ents[i]->sums[j], &stats[j]);
		}
		if (hd->n_actions)
			print_actions(out, hd, ents[i]->elt);
		sb_putc(out, '\n');
	}
	if (ents)
		tracing_map_destroy_sort_entries(ents, (unsigned int)n);
	return n;
}

static void hist_trigger_show(struct strbuf *out, struct tf_trigger *data,
			      int n)
{
	struct hist_trigger *ht = data->private_data;
	struct hist_data *hd = ht->hist_data;
	struct tracing_map *map = rcu_dereference(hd->map);
	struct tracing_map_totals totals;
	int n_entries;

	if (n > 0)
		sb_puts(out, "\n\n");
	sb_puts(out, "# event histogram\n#\n# trigger info: ");
	data->ops->print(data, out);
	sb_puts(out, "#\n\n");
	n_entries = print_entries(out, hd, map);
	if (n_entries < 0)
		n_entries = 0;
	track_data_snapshot_print(out, hd);
	tracing_map_read_totals(map, &totals);
	sb_printf(out, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		  (unsigned long long)totals.hits, (unsigned int)n_entries,
		  (unsigned long long)totals.drops);
}

void tf_hist_show(struct tf_event_file *file, struct strbuf *out)
{
	struct tf_trigger *data;
	int n = 0;

	tf_rcu_read_lock();
	cds_list_for_each_entry_rcu(data, &file->triggers, list)
		if (data->cmd == &hist_command)
			hist_trigger_show(out, data, n++);
	tf_rcu_read_unlock();
}

uint64_t tf_hist_hit_count(struct tf_event_file *file)
{
	struct tf_trigger *data;
	uint64_t n = 0;

	tf_rcu_read_lock();
	cds_list_for_each_entry_rcu(data, &file->triggers, list)
		if (data->cmd == &hist_command) {
			struct hist_data *hd = ((struct hist_trigger *)
						data->private_data)->hist_data;
			struct tracing_map_totals t;

			tracing_map_read_totals(rcu_dereference(hd->map), &t);
			n += t.hits;
		}
	tf_rcu_read_unlock();
	return n;
}

/* ---- hist_debug ----------------------------------------------------------- */

void hist_debug_flags(struct strbuf *out, unsigned long flags)
{
	sb_puts(out, "      flags:\n");
	if (flags & HIST_FIELD_FL_KEY)
		sb_puts(out, "        HIST_FIELD_FL_KEY\n");
	else if (flags & HIST_FIELD_FL_HITCOUNT)
		sb_puts(out, "        VAL: HIST_FIELD_FL_HITCOUNT\n");
	else if (flags & HIST_FIELD_FL_VAR)
		sb_puts(out, "        HIST_FIELD_FL_VAR\n");
	else if (flags & HIST_FIELD_FL_VAR_REF)
		sb_puts(out, "        HIST_FIELD_FL_VAR_REF\n");
	else
		sb_puts(out, "        VAL: normal u64 value\n");
	if (flags & HIST_FIELD_FL_ALIAS)
		sb_puts(out, "        HIST_FIELD_FL_ALIAS\n");
	else if (flags & HIST_FIELD_FL_CONST)
		sb_puts(out, "        HIST_FIELD_FL_CONST\n");
}

/* cpu, CPU, comm, COMM: the kernel's generic event fields, which it
 * shows as the field of the hist_field; NULL for others. */
const char *hist_debug_generic_name(const struct hist_field *f)
{
	if (!f->field && (f->flags & (HIST_FIELD_FL_CPU | HIST_FIELD_FL_COMM)) &&
	    f->name && strncmp(f->name, "common_", 7))
		return f->name;
	return NULL;
}

/* The kernel's hist_field_debug_show(); false: it stopped (bad flags). */
bool hist_debug_field(struct strbuf *out, const struct hist_field *f,
		      unsigned long need)
{
	const char *generic = hist_debug_generic_name(f);

	if ((f->flags & need) != need) {
		sb_printf(out, "ERROR: bad flags - %lx\n", need);
		return false;
	}
	hist_debug_flags(out, f->flags);
	if (f->field)
		sb_printf(out, "      ftrace_event_field name: %s\n", f->field->name);
	else if (generic)
		sb_printf(out, "      ftrace_event_field name: %s\n", generic);
	if (f->flags & HIST_FIELD_FL_VAR) {
		sb_printf(out, "      var.name: %s\n", f->var.name);
		sb_printf(out, "      var.idx (into tracing_map_elt.vars[]): %u\n",
			  f->var.idx);
	}
	if (f->flags & HIST_FIELD_FL_CONST)
		sb_printf(out, "      constant: %llu\n",
			  (unsigned long long)f->constant);
	if (f->flags & HIST_FIELD_FL_ALIAS)
		sb_printf(out, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			  f->var_ref_idx);
	if (f->flags & HIST_FIELD_FL_VAR_REF) {
		sb_printf(out, "      name: %s\n", f->name ? f->name : "");
		sb_printf(out, "      var.idx (into tracing_map_elt.vars[]): %u\n",
			  f->var.idx);
		sb_printf(out, "      var.hist_data: %016llx\n",
			  (unsigned long long)(f->var.hist_data ?
					       f->var.hist_data->id : 0));
		sb_printf(out, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			  f->var_ref_idx);
		if (f->system)
			sb_printf(out, "      system: %s\n", f->system);
		if (f->event_name)
			sb_printf(out, "      event_name: %s\n", f->event_name);
	}
	sb_printf(out, "      type: %s\n", f->type ? f->type : "");
	sb_printf(out, "      size: %u\n", f->size);
	sb_printf(out, "      is_signed: %u\n", f->is_signed ? 1 : 0);
	return true;
}

static void hist_trigger_debug_show(struct strbuf *out, struct tf_trigger *data,
				    int n)
{
	struct hist_data *hd = ((struct hist_trigger *)data->private_data)
			       ->hist_data;
	unsigned int i;

	if (n > 0)
		sb_puts(out, "\n\n");
	sb_puts(out, "# event histogram\n#\n# trigger info: ");
	data->ops->print(data, out);
	sb_puts(out, "#\n\n");
	sb_printf(out, "hist_data: %016llx\n\n", (unsigned long long)hd->id);
	sb_printf(out, "  n_vals: %u\n", hd->n_vals);
	sb_printf(out, "  n_keys: %u\n", hd->n_keys);
	sb_printf(out, "  n_fields: %u\n", hd->n_fields);
	sb_puts(out, "\n  val fields:\n\n");
	sb_puts(out, "    hist_data->fields[0]:\n");
	if (!hist_debug_field(out, hd->fields[0], HIST_FIELD_FL_HITCOUNT))
		return;
	for (i = 1; i < hd->n_vals; i++) {
		sb_printf(out, "\n    hist_data->fields[%u]:\n", i);
		if (!hist_debug_field(out, hd->fields[i], 0))
			return;
	}
	sb_puts(out, "\n  key fields:\n");
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		sb_printf(out, "\n    hist_data->fields[%u]:\n", i);
		if (!hist_debug_field(out, hd->fields[i], HIST_FIELD_FL_KEY))
			return;
	}
	if (hd->n_var_refs)
		sb_puts(out, "\n  variable reference fields:\n");
	for (i = 0; i < hd->n_var_refs; i++) {
		sb_printf(out, "\n    hist_data->var_refs[%u]:\n", i);
		if (!hist_debug_field(out, hd->var_refs[i], HIST_FIELD_FL_VAR_REF))
			return;
	}
	if (!hist_field_vars_debug(out, hd))
		return;
	hist_actions_debug(out, hd);
}

void tf_hist_debug_show(struct tf_event_file *file, struct strbuf *out)
{
	struct tf_trigger *data;
	int n = 0;

	tf_rcu_read_lock();
	cds_list_for_each_entry_rcu(data, &file->triggers, list)
		if (data->cmd == &hist_command)
			hist_trigger_debug_show(out, data, n++);
	tf_rcu_read_unlock();
}
