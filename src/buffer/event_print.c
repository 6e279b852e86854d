// SPDX-License-Identifier: GPL-2.0
/*
 * event_print.c - the kernel's own output functions (see event_print.h).
 *
 * A syscall event's print fmt ("fd: 0x%08lx, ...") is what perf and
 * trace-cmd use; the kernel's `trace` never does: print_syscall_enter()
 * writes "sys_lseek(fd: 63, offset: a, whence: 1)" (6.12: every value in
 * hex without "0x"; 6.18: values below 10 in decimal, the others with
 * "0x"; the verbose option puts each argument's type before its name)
 * and print_syscall_exit() "sys_lseek -> 0x8".  The kernel finds the
 * syscall's metadata from the record's syscall number; here it comes
 * from the event (sys_enter_NAME and sys_exit_NAME belong to sys_NAME),
 * which is the same for every record a kernel writes.  The arguments are
 * the event's fields after __syscall_nr, one unsigned long each; fields
 * of a dynamic kind (later kernels' copies of user memory) are not.
 *
 * ftrace's internal events print as trace_output.c's functions do, with
 * the default symbol options (print-parent on, sym-offset and sym-addr
 * off).  Events whose output needs what tracefuse cannot have (bprint
 * and bputs read the kernel's format strings; hwlat, osnoise, timerlat,
 * mmiotrace, branch and the function graph belong to tracers tracefuse
 * lacks) keep their print fmt.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <traceevent/event-parse.h>

#include "buffer/event_print.h"
#include "buffer/saved_cmdlines.h"
#include "events/ksyms.h"
#include "events/schema.h"
#include "util/rcu.h"

/* FTRACE_TRAMPOLINE_MARKER: a stack slot the kernel names, not resolves */
#define TRAMPOLINE_MARKER ((uint64_t)0x7fffffff)

unsigned tf_kernel_version(const char *release)
{
	unsigned v[3] = { 0, 0, 0 };
	int n = release ? sscanf(release, "%u.%u.%u", &v[0], &v[1], &v[2]) : 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < 3; i++)
		if (v[i] > 255)
			v[i] = 255;
	return TF_KERNEL_VERSION(v[0], v[1], v[2]);
}

/*
 * The kernel that prints @tev: its schema's (a replayed file's, for the
 * events a replay added), else the tree's, else the host's.
 */
static unsigned emulated_version(const struct tf_trace_iter *it,
				 struct tep_event *tev)
{
	const char *release = it->reg ? it->reg->kernel_release : NULL;
	const struct tf_event *ev;
	struct utsname u;
	unsigned v = 0;

	if (it->reg) {
		/* the read lock keeps a removed event until we are done */
		tf_rcu_read_lock();
		ev = tf_registry_event_by_id(it->reg, tev->id);
		if (ev && ev->kernel_release)
			v = tf_kernel_version(ev->kernel_release);
		tf_rcu_read_unlock();
		if (v)
			return v;
	}
	if (!release && uname(&u) == 0)
		return tf_kernel_version(u.release);
	return tf_kernel_version(release);
}

static uint64_t read_field(const struct tep_format_field *f,
			   const struct tf_rb_entry *e)
{
	uint64_t v = 0;

	if ((unsigned)(f->offset + f->size) > e->len || f->size > 8 ||
	    f->size <= 0)
		return 0;
	memcpy(&v, e->data + f->offset, (size_t)f->size);	/* LE host */
	return v;
}

static uint64_t field_val(struct tep_event *tev, const char *name,
			  const struct tf_rb_entry *e)
{
	struct tep_format_field *f = tep_find_field(tev, name);

	return f ? read_field(f, e) : 0;
}

/*
 * seq_print_ip_sym() with the default flags: 0 for no address, else the
 * symbol's name, else the address (trace_seq_print_sym()).
 */
static void print_ip_sym(const struct tf_trace_iter *it, struct strbuf *out,
			 uint64_t ip)
{
	const char *name, *module;
	uint64_t start, size;

	if (!ip) {
		sb_putc(out, '0');
		return;
	}
	if (tf_ksyms_lookup(it->reg->ksyms, ip, &name, &start, &size, &module) && name &&
	    *name)
		sb_puts(out, name);
	else
		sb_printf(out, "0x%08llx", (unsigned long long)ip);
}

/* print_syscall_enter() */
static void sys_enter(const struct tf_trace_iter *it, struct strbuf *out,
		      struct tep_event *tev, const struct tf_rb_entry *e)
{
	bool typed = emulated_version(it, tev) >= TF_KERNEL_VERSION(6, 18, 0);
	bool verbose = it->trace_flags & TF_TRACE_VERBOSE;
	struct tep_format_field *f;
	int i = 0;

	sb_printf(out, "sys_%s(", tev->name + strlen("sys_enter_"));
	for (f = tev->format.fields; f; f = f->next) {
		uint64_t v;

		if (strcmp(f->name, "__syscall_nr") == 0 ||
		    (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)))
			continue;
		v = read_field(f, e);
		if (i++)
			sb_puts(out, ", ");
		if (verbose)
			sb_printf(out, "%s ", f->type);
		if (!typed)
			sb_printf(out, "%s: %llx", f->name,
				  (unsigned long long)v);
		else if (v < 10)
			sb_printf(out, "%s: %llu", f->name,
				  (unsigned long long)v);
		else
			sb_printf(out, "%s: 0x%llx", f->name,
				  (unsigned long long)v);
	}
	sb_puts(out, ")\n");
}

/* print_syscall_exit() */
static void sys_exit(struct strbuf *out, struct tep_event *tev,
		     const struct tf_rb_entry *e)
{
	sb_printf(out, "sys_%s -> 0x%llx\n", tev->name + strlen("sys_exit_"),
		  (unsigned long long)field_val(tev, "ret", e));
}

/* print_fn_trace(): the function, then " <-" and its caller */
static void fn_trace(const struct tf_trace_iter *it, struct strbuf *out,
		 struct tep_event *tev,
		     const struct tf_rb_entry *e)
{
	uint64_t parent = field_val(tev, "parent_ip", e);

	print_ip_sym(it, out, field_val(tev, "ip", e));
	if (parent) {
		sb_puts(out, " <-");
		print_ip_sym(it, out, parent);
	}
}

/* trace_func_repeats_print(): last_ts is the time of the last repeat */
static void func_repeats(const struct tf_trace_iter *it, struct strbuf *out,
			 struct tep_event *tev, const struct tf_rb_entry *e)
{
	uint64_t delta = field_val(tev, "top_delta_ts", e) << 32 |
			 field_val(tev, "bottom_delta_ts", e);

	fn_trace(it, out, tev, e);
	sb_printf(out, " (repeats: %u, last_ts:",
		  (unsigned)field_val(tev, "count", e));
	tf_trace_print_time(it, out, e->ts - delta);
	sb_puts(out, ")\n");
}

/* task_index_to_char() */
static char state_char(uint64_t index)
{
	static const char states[] = "RSDTtXZPI";

	return index < sizeof(states) - 1 ? states[index] : '?';
}

/* trace_ctxwake_print(): the next task's comm from saved_cmdlines */
static void ctxwake(const struct tf_trace_iter *it, struct strbuf *out,
		    struct tep_event *tev,
		    const struct tf_rb_entry *e, const char *delim)
{
	int next_pid = (int)field_val(tev, "next_pid", e);
	char comm[TF_COMM_LEN];

	if (!tf_saved_cmdlines_find(it->cmdlines, next_pid, comm))
		strcpy(comm, "<...>");
	sb_printf(out, " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s\n",
		  (int)field_val(tev, "prev_pid", e),
		  (int)field_val(tev, "prev_prio", e),
		  state_char(field_val(tev, "prev_state", e)), delim,
		  (int)field_val(tev, "next_cpu", e), next_pid,
		  (int)field_val(tev, "next_prio", e),
		  state_char(field_val(tev, "next_state", e)), comm);
}

/*
 * trace_stack_print(): the frames to the end of the record or the first
 * ULONG_MAX.  The kernel sizes the entry to the `size` frames it saved;
 * an injected entry may have fewer, so `size` bounds them too.
 */
static void kernel_stack(const struct tf_trace_iter *it, struct strbuf *out,
		 struct tep_event *tev,
			 const struct tf_rb_entry *e)
{
	struct tep_format_field *f = tep_find_field(tev, "caller");
	int32_t nr = (int32_t)field_val(tev, "size", e);

	sb_puts(out, "<stack trace>\n");
	if (!f)
		return;
	for (unsigned off = (unsigned)f->offset; off + 8 <= e->len && nr > 0;
	     off += 8, nr--) {
		uint64_t ip;

		memcpy(&ip, e->data + off, 8);
		if (ip == UINT64_MAX)
			break;
		sb_puts(out, " => ");
		if (ip == TRAMPOLINE_MARKER) {
			sb_puts(out, "[FTRACE TRAMPOLINE]\n");
			continue;
		}
		print_ip_sym(it, out, ip);
		sb_putc(out, '\n');
	}
}

/*
 * trace_user_stack_print() without sym-userobj: no task memory map to
 * name the object, so seq_print_user_ip() prints the bare address; the
 * frames end at the first 0.
 */
static void user_stack(struct strbuf *out, struct tep_event *tev,
		       const struct tf_rb_entry *e)
{
	struct tep_format_field *f = tep_find_field(tev, "caller");

	sb_puts(out, "<user stack trace>\n");
	if (!f)
		return;
	for (int i = 0; i < f->arraylen; i++) {
		unsigned off = (unsigned)f->offset + 8u * (unsigned)i;
		uint64_t ip;

		if (off + 8 > e->len)
			break;
		memcpy(&ip, e->data + off, 8);
		if (!ip)
			break;
		sb_printf(out, " =>  <%016llx>\n", (unsigned long long)ip);
	}
}

/*
 * trace_print_print(): the caller, then the text (trace_marker's ends in
 * a newline; one is added where it does not, as libtraceevent's line
 * would have been ended).
 */
static void print(const struct tf_trace_iter *it, struct strbuf *out,
		 struct tep_event *tev,
		  const struct tf_rb_entry *e)
{
	struct tep_format_field *f = tep_find_field(tev, "buf");
	unsigned start = f ? (unsigned)f->offset : 16, len = 0;
	const char *buf = (const char *)e->data + start;

	print_ip_sym(it, out, field_val(tev, "ip", e));
	sb_puts(out, ": ");
	if (start < e->len)
		len = (unsigned)strnlen(buf, e->len - start);
	if (len && buf[len - 1] == '\n')
		len--;
	sb_add(out, buf, len);
	sb_putc(out, '\n');
}

/* trace_raw_data(): the id, then every byte after it */
static void raw_data(struct strbuf *out, struct tep_event *tev,
		     const struct tf_rb_entry *e)
{
	struct tep_format_field *f = tep_find_field(tev, "buf");
	unsigned start = f ? (unsigned)f->offset : 12;

	sb_printf(out, "# %x buf:", (unsigned)field_val(tev, "id", e));
	for (unsigned i = start; i < e->len; i++)
		sb_printf(out, " %02x", e->data[i]);
	sb_putc(out, '\n');
}

static bool prefixed(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool tf_event_print_own(const struct tf_trace_iter *it, struct strbuf *out,
			struct tep_event *tev, const struct tf_rb_entry *e)
{
	const char *name = tev->name;

	if (strcmp(tev->system, "syscalls") == 0) {
		if (!tep_find_field(tev, "__syscall_nr"))
			return false;
		if (prefixed(name, "sys_enter_"))
			sys_enter(it, out, tev, e);
		else if (prefixed(name, "sys_exit_"))
			sys_exit(out, tev, e);
		else
			return false;
		return true;
	}
	if (strcmp(tev->system, "ftrace") != 0)
		return false;
	if (strcmp(name, "function") == 0) {
		fn_trace(it, out, tev, e);
		sb_putc(out, '\n');
	} else if (strcmp(name, "func_repeats") == 0) {
		func_repeats(it, out, tev, e);
	} else if (strcmp(name, "context_switch") == 0) {
		ctxwake(it, out, tev, e, "==>");
	} else if (strcmp(name, "wakeup") == 0) {
		ctxwake(it, out, tev, e, "  +");
	} else if (strcmp(name, "kernel_stack") == 0) {
		kernel_stack(it, out, tev, e);
	} else if (strcmp(name, "user_stack") == 0) {
		user_stack(out, tev, e);
	} else if (strcmp(name, "print") == 0) {
		print(it, out, tev, e);
	} else if (strcmp(name, "raw_data") == 0) {
		raw_data(out, tev, e);
	} else {
		return false;
	}
	return true;
}
