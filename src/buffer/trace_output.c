/*
 * trace_output.c - trace text (see trace_output.h).
 *
 * The context part (comm, pid, cpu, latency flags, timestamp) follows the
 * kernel's trace_print_context() and trace_print_lat_fmt(); the event's
 * own text comes from libtraceevent (tep_print_event, "INFO"), which
 * interprets the print fmt of the event's format file.
 */
#include <pthread.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "buffer/saved_cmdlines.h"
#include "buffer/trace_output.h"
#include "hist/hist.h"	/* the symbol resolver */

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

void tf_trace_header(struct strbuf *out, uint64_t entries, uint64_t written,
		     int nr_cpus)
{
	sb_puts(out, "# tracer: nop\n#\n");
	sb_printf(out, "# entries-in-buffer/entries-written: %llu/%llu   "
		  "#P:%d\n", (unsigned long long)entries,
		  (unsigned long long)written, nr_cpus);
	sb_puts(out,
		"#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n");
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

/*
 * The kernel's trace_stack_print(): "<stack trace>", then " => symbol"
 * per frame (size frames, up to the first ULONG_MAX).
 */
static void print_kernel_stack(struct strbuf *out,
			       const struct tf_rb_entry *e)
{
	int32_t size;
	unsigned max = (e->len - 16) / 8;

	memcpy(&size, e->data + 8, 4);
	sb_puts(out, "<stack trace>\n");
	for (unsigned i = 0; i < max && (int)i < size; i++) {
		uint64_t ip;

		memcpy(&ip, e->data + 16 + 8 * i, 8);
		if (ip == UINT64_MAX)
			break;
		sb_puts(out, " => ");
		tf_hist_format_sym(out, ip, false);
		sb_putc(out, '\n');
	}
}

void tf_trace_print_entry(struct tf_registry *reg, struct strbuf *out,
			  const struct tf_rb_entry *e)
{
	char comm[TF_COMM_LEN];
	uint16_t type;
	int32_t pid;
	struct tep_event *tev;
	struct trace_seq seq;
	struct tep_record rec;

	if (e->len < 8)
		return;
	memcpy(&type, e->data, 2);
	memcpy(&pid, e->data + 4, 4);
	if (!tf_saved_cmdlines_find(pid, comm))
		strcpy(comm, "<...>");
	sb_printf(out, "%16s-%-7d [%03d] ", comm, pid, e->cpu);
	lat_fmt(out, e->data[2], e->data[3]);
	/* the kernel's ns2usecs() rounds to the nearest microsecond */
	sb_printf(out, " %5llu.%06llu: ",
		  (unsigned long long)((e->ts + 500) / 1000 / 1000000ull),
		  (unsigned long long)((e->ts + 500) / 1000 % 1000000ull));

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
	if (strcmp(tev->system, "ftrace") == 0 &&
	    strcmp(tev->name, "raw_data") == 0 && e->len >= 12) {
		/* the kernel's trace_raw_data(): id, then every byte */
		uint32_t id;

		pthread_mutex_unlock(&reg->tep_lock);
		memcpy(&id, e->data + 8, 4);
		sb_printf(out, "# %x buf:", id);
		for (unsigned i = 12; i < e->len; i++)
			sb_printf(out, " %02x", e->data[i]);
		sb_putc(out, '\n');
		return;
	}
	if (strcmp(tev->system, "ftrace") == 0 &&
	    strcmp(tev->name, "kernel_stack") == 0 && e->len >= 16) {
		pthread_mutex_unlock(&reg->tep_lock);
		print_kernel_stack(out, e);
		return;
	}
	trace_seq_init(&seq);
	/* ftrace:print shows its text after the caller's symbol, no name */
	if (strcmp(tev->system, "ftrace") != 0)
		trace_seq_printf(&seq, "%s: ", tev->name);
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
