// SPDX-License-Identifier: GPL-2.0
/*
 * files_options.c - trace_options and options/<name>: the kernel's trace
 * flags.  The ones tracefuse applies (context-info, irq-info,
 * record-tgid, latency-format, verbose: how `trace` prints; overwrite;
 * event-fork: pid lists follow forks) live in the
 * trace array's trace_flags; the others are kept as written (scripts
 * save and restore them).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "buffer/saved_tgids.h"
#include "fs/files.h"

struct option_def {
	const char *name;
	bool on;		/* default at the top level */
	bool core;		/* listed in trace_options */
	bool top_only;
	bool instance_on;	/* default in an instance, if it differs */
	unsigned flag;		/* TF_TRACE_* it is kept in, or 0 */
};

/* In the kernel's options/ readdir order. */
static const struct option_def options[] = {
	{ "blk_cgname", 0, 0, 1, 0, 0 },
	{ "blk_cgroup", 0, 0, 1, 0, 0 },
	{ "blk_classic", 0, 0, 1, 0, 0 },
	{ "test_nop_refuse", 0, 1, 0, 0, 0 },
	{ "test_nop_accept", 0, 1, 0, 0, 0 },
	{ "func-no-repeats", 0, 0, 0, 0, 0 },
	{ "func_stack_trace", 0, 0, 0, 0, 0 },
	{ "sleep-time", 1, 0, 0, 1, 0 },
	{ "funcgraph-tail", 0, 0, 0, 0, 0 },
	{ "funcgraph-irqs", 1, 0, 0, 1, 0 },
	{ "funcgraph-abstime", 0, 0, 0, 0, 0 },
	{ "funcgraph-duration", 1, 0, 0, 1, 0 },
	{ "funcgraph-proc", 0, 0, 0, 0, 0 },
	{ "funcgraph-overhead", 1, 0, 0, 1, 0 },
	{ "funcgraph-cpu", 1, 0, 0, 1, 0 },
	{ "funcgraph-overrun", 0, 0, 0, 0, 0 },
	{ "stacktrace", 0, 1, 0, 0, 0 },
	{ "display-graph", 0, 1, 0, 0, 0 },
	{ "function-fork", 0, 1, 0, 0, 0 },
	{ "function-trace", 1, 1, 0, 1, 0 },
	{ "hash-ptr", 1, 1, 0, 1, 0 },
	{ "pause-on-trace", 0, 1, 0, 0, 0 },
	{ "trace_printk_dest", 1, 1, 0, 0, 0 },
	{ "event-fork", 0, 1, 0, 0, TF_TRACE_EVENT_FORK },
	{ "markers", 1, 1, 0, 1, 0 },
	{ "irq-info", 1, 1, 0, 1, TF_TRACE_IRQ_INFO },
	{ "disable_on_free", 0, 1, 0, 0, 0 },
	{ "overwrite", 1, 1, 0, 1, TF_TRACE_OVERWRITE },
	{ "record-tgid", 0, 1, 0, 0, TF_TRACE_RECORD_TGID },
	{ "record-cmd", 1, 1, 1, 1, 0 },
	{ "latency-format", 0, 1, 0, 0, TF_TRACE_LATENCY_FMT },
	{ "context-info", 1, 1, 0, 1, TF_TRACE_CONTEXT_INFO },
	{ "printk-msg-only", 0, 1, 1, 0, 0 },
	{ "sym-userobj", 0, 1, 0, 0, 0 },
	{ "userstacktrace", 0, 1, 0, 0, 0 },
	{ "annotate", 1, 1, 0, 1, 0 },
	{ "trace_printk", 1, 1, 1, 1, 0 },
	{ "fields", 0, 1, 0, 0, 0 },
	{ "block", 0, 1, 0, 0, 0 },
	{ "bin", 0, 1, 0, 0, 0 },
	{ "hex", 0, 1, 0, 0, 0 },
	{ "raw", 0, 1, 0, 0, 0 },
	{ "verbose", 0, 1, 0, 0, TF_TRACE_VERBOSE },
	{ "sym-addr", 0, 1, 0, 0, 0 },
	{ "sym-offset", 0, 1, 0, 0, 0 },
	{ "print-parent", 1, 1, 0, 1, 0 },
};
#define NR_OPTIONS (sizeof(options) / sizeof(options[0]))

unsigned tf_nr_options(void)
{
	return NR_OPTIONS;
}

const char *tf_option_name(unsigned i)
{
	return options[i].name;
}

bool tf_option_in_instance(unsigned i)
{
	return !options[i].top_only;
}

static bool option_on(const struct tf_trace_array *tr, unsigned i)
{
	bool dflt = tr->id ? options[i].instance_on : options[i].on;

	if (options[i].flag)	/* starts as TF_TRACE_DEFAULT_FLAGS */
		return atomic_load(&tr->trace_flags) & options[i].flag;

	/* tr->options stores the flips from the default */
	return dflt != !!(tr->options & (1ull << i));
}

bool tf_option_enabled(const struct tf_trace_array *tr, const char *name)
{
	for (unsigned i = 0; i < NR_OPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return option_on(tr, i);
	return false;
}

/* set_tracer_flag(); callers hold tracing->lock. */
static int option_set(struct tf_trace_array *tr, unsigned i, bool on)
{
	unsigned flag = options[i].flag;

	if (!flag) {
		if (option_on(tr, i) != on)
			tr->options ^= 1ull << i;
		return 0;
	}
	/* the kernel allocates its tgid_map when record-tgid is first set */
	if (flag == TF_TRACE_RECORD_TGID && on && 
	    tf_saved_tgids_alloc(&tr->tracing->tgids) < 0)
		return -ENOMEM;
	if (on)
		atomic_fetch_or(&tr->trace_flags, flag);
	else
		atomic_fetch_and(&tr->trace_flags, ~flag);
	if (flag == TF_TRACE_RECORD_TGID)
		tf_tracing_update_tgid_record(tr->tracing);
	if (flag == TF_TRACE_OVERWRITE)
		tf_trace_array_apply_overwrite(tr);
	if (flag == TF_TRACE_EVENT_FORK)
		tf_tracing_update_event_fork(tr->tracing);
	return 0;
}

int tf_trace_options_show(struct tf_open *o, struct strbuf *out)
{
	/* trace_options lists the core flags in the kernel's bit order,
	 * which is the reverse of the options/ directory order */
	for (unsigned k = NR_OPTIONS; k-- > 0;) {
		if (!options[k].core)
			continue;
		if (o->node.tr->id && options[k].top_only)
			continue;
		sb_printf(out, "%s%s\n", option_on(o->node.tr, k) ? "" : "no",
			  options[k].name);
	}
	return 0;
}

long tf_trace_options_write(struct tf_open *o, const char *buf, size_t len)
{
	const char *p = buf;
	size_t n = len;
	bool on = true;

	while (n && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n > 2 && memcmp(p, "no", 2) == 0) {
		/* "no" prefixes an option, unless the option starts so */
		on = false;
		p += 2;
		n -= 2;
	}
	for (unsigned i = 0; i < NR_OPTIONS; i++) {
		if (o->node.tr->id && options[i].top_only)
			continue;
		if (strlen(options[i].name) == n &&
		    memcmp(options[i].name, p, n) == 0) {
			int ret = option_set(o->node.tr, i, on);

			return ret < 0 ? ret : (long)len;
		}
	}
	return -EINVAL;
}

static int option_show(struct tf_open *o, struct strbuf *out)
{
	sb_printf(out, "%d\n", option_on(o->node.tr, o->node.idx) ? 1 : 0);
	return 0;
}

static long option_write(struct tf_open *o, const char *buf, size_t len)
{
	unsigned long v;

	int ret;

	ret = (int)tf_parse_ulong(buf, len, &v);
	if (ret < 0)
		return ret;
	if (v > 1)
		return -EINVAL;
	ret = option_set(o->node.tr, o->node.idx, v == 1);
	return ret < 0 ? ret : (long)len;
}

const struct tf_file_def tf_option_file = {
	"option", 0640, 0, NULL, option_show, option_write, NULL
};
