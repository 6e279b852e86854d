// SPDX-License-Identifier: GPL-2.0
/*
 * bench_inject.c - text injection in process: lines/s of the parser and
 * packer (src/source/inject_parse.c), and of the whole path to the trace
 * buffer (parse + pack + tf_dispatch + ring buffer write), on one core.
 *
 * The input is pre-generated in memory (a mix of sched_switch,
 * sched_waking, sched_process_exec with a __data_loc string and
 * raw_syscalls:sys_enter with an array) and fed in 64 KiB chunks, as the
 * inject:FILE source and the socket server read it.  Cases:
 *   split      - the floor: finding the newlines only (memchr)
 *   parse      - parse + pack, no dispatch
 *   disabled   - parse + pack + tf_dispatch, events not enabled
 *   enabled    - parse + pack + tf_dispatch into the trace buffer
 * Time is the thread's CPU time; median (min-max) of the repetitions.
 *
 * usage: bench_inject [-n lines] [-r repetitions] [-f formats_dir]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dispatch/dispatch.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "source/inject.h"
#include "bench_common.h"

static char *generate(unsigned long n, size_t *len)
{
	static const char *comms[] = { "bash", "kworker/0:1", "sshd",
				       "swapper/0", "make", "cc1" };
	size_t cap = n * 200 + 4096, off = 0;
	char *buf = malloc(cap);
	unsigned seed = 1;

	for (unsigned long i = 0; i < n && buf; i++) {
		unsigned r = (seed = seed * 1103515245u + 12345u) >> 8;
		int a = (int)(r % 6), b = (int)((r >> 3) % 6);
		unsigned long ts = 1000000 + i * 137;

		switch (i % 8) {
		case 0: case 1: case 2: case 3:
			off += (size_t)sprintf(buf + off, "sched:sched_switch "
				"ts=%lu cpu=%lu pid=%d comm=%s prev_comm=%s "
				"prev_pid=%d prev_prio=120 prev_state=%u "
				"next_comm=%s next_pid=%d next_prio=120\n",
				ts, i & 1, 100 + a, comms[a], comms[a], 100 + a,
				r & 1, comms[b], 100 + b);
			break;
		case 4: case 5:
			/* sched_waking's own pid and comm: the waker's
			 * are common_pid and common_comm */
			off += (size_t)sprintf(buf + off, "sched:sched_waking "
				"ts=%lu cpu=%lu common_pid=%d common_comm=%s "
				"comm=%s pid=%d prio=120 target_cpu=1\n", ts,
				i & 1, 100 + a, comms[a], comms[b], 100 + b);
			break;
		case 6:
			off += (size_t)sprintf(buf + off,
				"sched:sched_process_exec ts=%lu cpu=0 "
				"common_pid=%d filename=\"/usr/bin/%s\" pid=%d "
				"old_pid=%d\n", ts, 100 + a, comms[a], 100 + a,
				100 + a);
			break;
		case 7:
			off += (size_t)sprintf(buf + off,
				"raw_syscalls:sys_enter ts=%lu cpu=1 pid=%d "
				"id=%u args=3,0x7ffd12345678,4096,0,0,0\n", ts,
				100 + a, r % 300);
			break;
		}
	}
	*len = off;
	return buf;
}

static unsigned long errors;

static void on_error(void *arg, const char *msg)
{
	(void)arg;
	if (errors++ < 3)
		fprintf(stderr, "bench_inject: %s\n", msg);
}

/* One pass over @buf; returns ns of CPU time. */
static double run(struct tf_inject *p, struct tf_tracing *t, const char *buf,
		  size_t len, int split_only, unsigned long *records)
{
	struct tf_inject_stream st;
	double t0 = cpu_ns();
	const size_t chunk = 1 << 16;

	if (split_only) {
		unsigned long n = 0;

		for (const char *s = buf, *end = buf + len, *nl; s < end;
		     s = nl + 1) {
			nl = memchr(s, '\n', (size_t)(end - s));
			if (!nl)
				break;
			n++;
		}
		*records = n;
		return cpu_ns() - t0;
	}
	tf_inject_stream_init(&st, p, t, on_error, NULL);
	for (size_t off = 0; off < len; off += chunk)
		tf_inject_stream_feed(&st, buf + off,
				      len - off < chunk ? len - off : chunk);
	tf_inject_stream_finish(&st);
	tf_inject_stream_release(&st);
	*records = st.records;
	return cpu_ns() - t0;
}

static void enable(struct tf_tracing *t, const char *sys, const char *name)
{
	struct tf_event *ev = tf_registry_find(t->reg, sys, name);

	pthread_mutex_lock(&t->lock);
	tf_event_enable_disable(tf_tr_file(t->top, ev->index), 1, false);
	pthread_mutex_unlock(&t->lock);
}

int main(int argc, char **argv)
{
	const char *formats = "tests/oracle/formats-6.12";
	unsigned long n = 2000000, records = 0;
	int reps = 5, c, fd;
	struct tf_registry *reg;
	struct tf_tracing t;
	struct tf_inject *p;
	static const char *names[] = { "split", "parse", "disabled",
				       "enabled" };
	size_t len;
	char *buf;

	while ((c = getopt(argc, argv, "n:r:f:")) != -1) {
		switch (c) {
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 'r': reps = atoi(optarg); break;
		case 'f': formats = optarg; break;
		default:
			fprintf(stderr, "usage: bench_inject [-n lines] "
				"[-r reps] [-f formats_dir]\n");
			return 2;
		}
	}
	fd = open(formats, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "bench") < 0) {
		fprintf(stderr, "bench_inject: cannot load %s\n", formats);
		return 1;
	}
	if (tf_tracing_init(&t, reg, 2) < 0 || !(p = tf_inject_new(reg)))
		return 1;
	buf = generate(n, &len);
	if (!buf)
		return 1;
	printf("%lu lines, %.1f MB, %.0f bytes/line, %d repetitions\n\n", n,
	       len / 1e6, (double)len / n, reps);
	printf("| case | ns/line | M lines/s | MB/s |\n|---|---|---|---|\n");
	for (int k = 0; k < 4; k++) {
		double ns[64];

		if (k == 3) {
			enable(&t, "sched", "sched_switch");
			enable(&t, "sched", "sched_waking");
			enable(&t, "sched", "sched_process_exec");
			enable(&t, "raw_syscalls", "sys_enter");
		}
		for (int r = 0; r < reps && r < 64; r++)
			ns[r] = run(p, k >= 2 ? &t : NULL, buf, len, k == 0,
				    &records);
		qsort(ns, (size_t)reps, sizeof(double), cmp_double);
		if (records != n || errors) {
			fprintf(stderr, "bench_inject: %lu records of %lu "
				"lines, %lu errors\n", records, n, errors);
			return 1;
		}
		printf("| %s | %.0f (%.0f-%.0f) | %.2f (%.2f-%.2f) | %.0f |\n",
		       names[k], ns[reps / 2] / n, ns[0] / n,
		       ns[reps - 1] / n, n / ns[reps / 2] * 1e3,
		       n / ns[reps - 1] * 1e3, n / ns[0] * 1e3,
		       len / ns[reps / 2] * 1e3);
	}
	tf_inject_free(p);
	tf_tracing_destroy(&t);
	tf_registry_free(reg);
	free(buf);
	return 0;
}
