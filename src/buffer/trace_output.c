// SPDX-License-Identifier: GPL-2.0
/*
 * trace_output.c - trace text (see trace_output.h).
 *
 * The headers follow the kernel's trace_default_header(),
 * print_trace_header() and print_func_help_header(_irq)(); the context
 * part of a line (comm, pid, tgid, cpu, latency flags, timestamp) its
 * trace_print_context() and trace_print_lat_context(); the event's own
 * text comes from the kernel's own output function where it has one
 * (event_print.c), else from libtraceevent (tep_print_event, "INFO"),
 * which interprets the print fmt of the event's format file.
 */
#include <pthread.h>
#include <string.h>
#include <sys/utsname.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "buffer/saved_cmdlines.h"
#include "buffer/saved_tgids.h"
#include "buffer/event_print.h"
#include "buffer/trace_output.h"
#include "util/rcu.h"

/* The kernel's TRACE_FLAG_* bits in common_flags. */
enum {
	FLAG_IRQS_OFF		= 0x01,
	FLAG_IRQS_NOSUPPORT	= 0x02,
	FLAG_NEED_RESCHED	= 0x04,
	FLAG_HARDIRQ		= 0x08,
	FLAG_SOFTIRQ		= 0x10,
	FLAG_PREEMPT_RESCHED	= 0x20,
	FLAG_NMI		= 0x40,
	FLAG_BH_OFF		= 0x80,
};

/* print_event_info() */
static void event_info(const struct tf_trace_iter *it, struct strbuf *out,
		       uint64_t entries, uint64_t total)
{
	sb_printf(out, "# entries-in-buffer/entries-written: %llu/%llu   "
		  "#P:%d\n#\n", (unsigned long long)entries,
		  (unsigned long long)total, it->nr_cpus);
}

static void func_help_header(struct strbuf *out, bool tgid)
{
	sb_printf(out, "#           TASK-PID    %s CPU#     TIMESTAMP  "
		  "FUNCTION\n", tgid ? "   TGID   " : "");
	sb_printf(out, "#              | |      %s   |         |         |\n",
		  tgid ? "     |    " : "");
}

static void func_help_header_irq(struct strbuf *out, bool tgid)
{
	static const char space[] = "            ";
	int prec = tgid ? 12 : 2;

	sb_printf(out, "#                            %.*s  _-----=> "
		  "irqs-off/BH-disabled\n", prec, space);
	sb_printf(out, "#                            %.*s / _----=> "
		  "need-resched\n", prec, space);
	sb_printf(out, "#                            %.*s| / _---=> "
		  "hardirq/softirq\n", prec, space);
	sb_printf(out, "#                            %.*s|| / _--=> "
		  "preempt-depth\n", prec, space);
	sb_printf(out, "#                            %.*s||| / _-=> "
		  "migrate-disable\n", prec, space);
	sb_printf(out, "#                            %.*s|||| /     delay\n",
		  prec, space);
	sb_printf(out, "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  "
		  "FUNCTION\n", prec, "     TGID   ");
	sb_printf(out, "#              | |    %.*s   |   |||||     |         "
		  "|\n", prec, "       |    ");
}

/*
 * print_trace_header(): the nop tracer measures no latency and its
 * per-CPU data stays zero (no task, no critical section).  The release
 * and preemption model are the schemas' kernel's (daemon.c).
 */
static void latency_header(const struct tf_trace_iter *it,
			   struct strbuf *out, uint64_t entries,
			   uint64_t total)
{
	const char *release = it->reg ? it->reg->kernel_release : NULL;
	const char *model = it->reg ? it->reg->preempt_model : NULL;
	struct utsname u;

	if (!release)
		release = uname(&u) == 0 ? u.release : "";
	sb_printf(out, "# nop latency trace v1.1.5 on %s\n", release);
	sb_puts(out, "# -----------------------------------"
		"---------------------------------\n");
	sb_printf(out, "# latency: 0 us, #%llu/%llu, CPU#0 | (M:%s VP:0, KP:0, "
		  "SP:0 HP:0 #P:%d)\n", (unsigned long long)entries,
		  (unsigned long long)total, model ? model : "desktop",
		  it->nr_cpus);
	sb_puts(out, "#    -----------------\n"
		"#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)\n"
		"#    -----------------\n"
		"#\n");
}

/* print_lat_help_header(); its trailing blanks are the kernel's */
static const char lat_help_header[] =
	"#                    _------=> CPU#            \n"
	"#                   / _-----=> irqs-off/BH-disabled\n"
	"#                  | / _----=> need-resched    \n"
	"#                  || / _---=> hardirq/softirq \n"
	"#                  ||| / _--=> preempt-depth   \n"
	"#                  |||| / _-=> migrate-disable \n"
	"#                  ||||| /     delay           \n"
	"#  cmd     pid     |||||| time  |   caller     \n"
	"#     \\   /        ||||||  \\    |    /       \n";

void tf_trace_header(const struct tf_trace_iter *it, struct strbuf *out,
		     uint64_t entries, uint64_t total, bool empty)
{
	unsigned flags = it->trace_flags;

	sb_puts(out, "# tracer: nop\n#\n");
	if (!(flags & TF_TRACE_CONTEXT_INFO))
		return;
	if (it->lat_fmt) {
		if (empty)	/* "print nothing if the buffers are empty" */
			return;
		latency_header(it, out, entries, total);
		if (!(flags & TF_TRACE_VERBOSE))
			sb_puts(out, lat_help_header);
		return;
	}
	if (flags & TF_TRACE_VERBOSE)
		return;
	event_info(it, out, entries, total);
	if (flags & TF_TRACE_IRQ_INFO)
		func_help_header_irq(out, flags & TF_TRACE_RECORD_TGID);
	else
		func_help_header(out, flags & TF_TRACE_RECORD_TGID);
}

static void lat_fmt(struct strbuf *out, unsigned flags, unsigned pc)
{
	char irqs_off, need_resched, hardsoft;
	bool nmi = flags & FLAG_NMI, hard = flags & FLAG_HARDIRQ,
	     soft = flags & FLAG_SOFTIRQ, bh_off = flags & FLAG_BH_OFF;

	irqs_off = (flags & FLAG_IRQS_OFF) && bh_off ? 'D' :
		   (flags & FLAG_IRQS_OFF) ? 'd' :
		   bh_off ? 'b' :
		   (flags & FLAG_IRQS_NOSUPPORT) ? 'X' : '.';
	switch (flags & (FLAG_NEED_RESCHED | FLAG_PREEMPT_RESCHED)) {
	case FLAG_NEED_RESCHED | FLAG_PREEMPT_RESCHED: need_resched = 'N'; break;
	case FLAG_NEED_RESCHED: need_resched = 'n'; break;
	case FLAG_PREEMPT_RESCHED: need_resched = 'p'; break;
	default: need_resched = '.'; break;
	}
	hardsoft = (nmi && hard) ? 'Z' : nmi ? 'z' : (hard && soft) ? 'H' :
		   hard ? 'h' : soft ? 's' : '.';
	sb_putc(out, irqs_off);
	sb_putc(out, need_resched);
	sb_putc(out, hardsoft);
	sb_putc(out, (pc & 0xf) ? "0123456789abcdef"[pc & 0xf] : '.');
	sb_putc(out, (pc & 0xf0) ? "0123456789abcdef"[(pc >> 4) & 0xf] : '.');
}

static int32_t entry_pid(const struct tf_rb_entry *e)
{
	int32_t pid;

	memcpy(&pid, e->data + 4, 4);
	return pid;
}

static void find_comm(const struct tf_trace_iter *it, int pid,
		      char comm[TF_COMM_LEN])
{
	if (!tf_saved_cmdlines_find(it->cmdlines, pid, comm))
		strcpy(comm, "<...>");
}

/* the kernel's ns2usecs(): to the nearest microsecond */
static uint64_t ns2usecs(uint64_t ns)
{
	return (ns + 500) / 1000;
}

void tf_trace_print_time(const struct tf_trace_iter *it, struct strbuf *out,
			 uint64_t ts)
{
	if (it->time_in_ns)
		sb_printf(out, " %5llu.%06llu",
			  (unsigned long long)(ns2usecs(ts) / 1000000ull),
			  (unsigned long long)(ns2usecs(ts) % 1000000ull));
	else
		sb_printf(out, " %12llu", (unsigned long long)ts);
}

/* trace_print_context() */
static void print_context(const struct tf_trace_iter *it, struct strbuf *out,
			  const struct tf_rb_entry *e)
{
	char comm[TF_COMM_LEN];
	int pid = entry_pid(e);

	find_comm(it, pid, comm);
	sb_printf(out, "%16s-%-7d ", comm, pid);
	if (it->trace_flags & TF_TRACE_RECORD_TGID) {
		int tgid = tf_saved_tgids_find(it->tgids, pid);

		if (!tgid)
			sb_puts(out, "(-------) ");
		else
			sb_printf(out, "(%7d) ", tgid);
	}
	sb_printf(out, "[%03d] ", e->cpu);
	if (it->trace_flags & TF_TRACE_IRQ_INFO)
		lat_fmt(out, e->data[2], e->data[3]);
	tf_trace_print_time(it, out, e->ts);
	sb_puts(out, ": ");
}

/* trace_find_mark(): how long until the next entry, in ns */
static char find_mark(unsigned long long d)
{
	static const struct { unsigned long long val; char sym; } mark[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' },
		{ 10000000ULL, '*' }, { 1000000ULL, '#' },
		{ 100000ULL, '!' }, { 10000ULL, '+' },
	};

	for (unsigned i = 0; i < sizeof(mark) / sizeof(mark[0]); i++)
		if (d > mark[i].val)
			return mark[i].sym;
	return ' ';
}

/*
 * trace_print_lat_context(): times relative to the buffer's last reset
 * and to the next entry (trace_pipe finds the entry itself as its next:
 * it is not consumed until printed).
 */
static void print_lat_context(const struct tf_trace_iter *it,
			      struct strbuf *out, const struct tf_rb_entry *e,
			      const struct tf_rb_entry *next)
{
	uint64_t next_ts = next && !it->consume ? next->ts : e->ts;
	unsigned long long abs_ts = e->ts - it->time_start;
	unsigned long long rel_ts = next_ts - e->ts;
	bool verbose = it->trace_flags & TF_TRACE_VERBOSE;
	char comm[TF_COMM_LEN];
	int pid = entry_pid(e);

	find_comm(it, pid, comm);
	if (verbose) {
		sb_printf(out, "%16s %7d %3d %d %08x %08lx ", comm, pid,
			  e->cpu, e->data[2], e->data[3] & 0xf, it->idx);
	} else {
		sb_printf(out, "%8.8s-%-7d %3d", comm, pid, e->cpu);
		lat_fmt(out, e->data[2], e->data[3]);
	}
	if (it->time_in_ns) {
		abs_ts = ns2usecs(abs_ts);
		rel_ts = ns2usecs(rel_ts);
	}
	if (verbose && it->time_in_ns)
		sb_printf(out, "[%08llx] %lld.%03lldms (+%lld.%03lldms): ",
			  (unsigned long long)ns2usecs(e->ts),
			  (long long)(abs_ts / 1000), (long long)(abs_ts % 1000),
			  (long long)(rel_ts / 1000), (long long)(rel_ts % 1000));
	else if (verbose)
		sb_printf(out, "[%016llx] %lld (+%lld): ",
			  (unsigned long long)e->ts, (long long)abs_ts,
			  (long long)rel_ts);
	else if (it->time_in_ns)
		sb_printf(out, " %4lldus%c: ", (long long)abs_ts,
			  find_mark(rel_ts * 1000));
	else
		sb_printf(out, " %4lld: ", (long long)abs_ts);
}

void tf_trace_print_entry(struct tf_trace_iter *it, struct strbuf *out,
			  const struct tf_rb_entry *e,
			  const struct tf_rb_entry *next)
{
	struct tf_registry *reg = it->reg;
	const struct tf_event *ev;
	uint16_t type;
	struct tep_event *tev;
	struct trace_seq seq;
	struct tep_record rec;

	if (e->len < 8)
		return;
	memcpy(&type, e->data, 2);
	if (it->trace_flags & TF_TRACE_CONTEXT_INFO) {
		if (it->lat_fmt)
			print_lat_context(it, out, e, next);
		else
			print_context(it, out, e);
	}
	it->idx++;

	/* events with an output function of their own (synthetic) are
	 * not libtraceevent's: by id, as the kernel finds them; the read
	 * lock keeps a removed one until it is printed */
	it->text_at = out->len;
	tf_rcu_read_lock();
	ev = tf_registry_event_by_id(reg, type);
	if (ev && ev->print) {
		ev->print(ev, e->data, e->len, it->trace_flags, out);
		tf_rcu_read_unlock();
		return;
	}
	tf_rcu_read_unlock();

	memset(&rec, 0, sizeof(rec));
	rec.ts = e->ts;
	rec.cpu = e->cpu;
	rec.size = (int)e->len;
	rec.data = (void *)e->data;
	/* libtraceevent keeps caches in the tep handle, and events may be
	 * parsed into it while we print: one at a time */
	pthread_mutex_lock(&reg->tep_lock);
	tev = tep_find_event(reg->tep, type);
	if (!tev) {
		pthread_mutex_unlock(&reg->tep_lock);
		sb_printf(out, "Unknown type %u\n", type);
		return;
	}
	if (tf_event_print_own(it, out, tev, e)) {
		/* trace_raw_data() prints " %02x" a byte at a time */
		if (strcmp(tev->system, "ftrace") == 0 &&
		    strcmp(tev->name, "raw_data") == 0) {
			const char *b = memmem(out->buf + it->text_at,
					       out->len - it->text_at,
					       " buf:", 5);

			if (b)
				it->raw_pieces_at = (size_t)(b - out->buf) + 5;
		}
		pthread_mutex_unlock(&reg->tep_lock);
		return;
	}
	trace_seq_init(&seq);
	/* ftrace's events print no name (trace_output.c's functions) */
	if (strcmp(tev->system, "ftrace") != 0) {
		trace_seq_printf(&seq, "%s: ", tev->name);
		it->text_at += (size_t)seq.len;
	}
	tep_print_event(reg->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	pthread_mutex_unlock(&reg->tep_lock);
	size_t n = (size_t)seq.len;
	if (n && seq.buffer[n - 1] == '\n')	/* print's buf ends in one */
		n--;
	sb_add(out, seq.buffer, n);
	sb_putc(out, '\n');
	trace_seq_destroy(&seq);
}
