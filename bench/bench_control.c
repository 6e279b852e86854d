// SPDX-License-Identifier: GPL-2.0
/*
 * bench_control.c - control path speed: tracefuse against a bare libfuse
 * filesystem (bench/bare_fs.c) in the same run.
 *
 *   bench_control TRACEFUSE_MNT BARE_MNT [ITERATIONS]
 *
 * Four operations, each timed one by one with CLOCK_MONOTONIC:
 *   read-enable   open+read+close events/sched/sched_switch/enable
 *   read-tracing_on  open+read+close tracing_on
 *   append-trigger   open(O_WRONLY|O_APPEND)+write+close of
 *                    events/sched/sched_switch/trigger, alternately
 *                    "traceon" and "!traceon" (`echo ... >> trigger`)
 *   write-enable     open(O_WRONLY|O_TRUNC)+write+close of the enable
 *                    file, alternately "1" and "0" (`echo 1 > enable`)
 * The two filesystems alternate operation by operation, so that drift in
 * the machine's load hits both alike.  Prints median, p10 and p90 in
 * microseconds and the ratio of the medians; exits 1 when an operation
 * fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"

enum op { READ_ENABLE, READ_TRACING_ON, APPEND_TRIGGER, WRITE_ENABLE, NR_OPS };

static const char *const op_names[NR_OPS] = {
	"read enable", "read tracing_on", "append trigger", "write enable",
};

static const char *const op_paths[NR_OPS] = {
	"events/sched/sched_switch/enable", "tracing_on",
	"events/sched/sched_switch/trigger", "events/sched/sched_switch/enable",
};

static double now_us(void)
{
	return now_ns() / 1e3;
}

/* One operation on @dirfd's file; returns its duration or -1. */
static double run_op(int dirfd, enum op op, unsigned long i)
{
	static const char *const trig[] = { "traceon\n", "!traceon\n" };
	static const char *const en[] = { "1\n", "0\n" };
	char buf[4096];
	const char *data;
	double t0 = now_us();
	int fd, ok;

	switch (op) {
	case READ_ENABLE:
	case READ_TRACING_ON:
		fd = openat(dirfd, op_paths[op], O_RDONLY);
		if (fd < 0)
			return -1;
		ok = read(fd, buf, sizeof(buf)) > 0;
		break;
	default:
		data = op == APPEND_TRIGGER ? trig[i & 1] : en[i & 1];
		fd = openat(dirfd, op_paths[op], O_WRONLY |
			    (op == APPEND_TRIGGER ? O_APPEND : O_TRUNC));
		if (fd < 0)
			return -1;
		ok = write(fd, data, strlen(data)) == (ssize_t)strlen(data);
		break;
	}
	if (close(fd) < 0 || !ok)
		return -1;
	return now_us() - t0;
}

static double pct(const double *v, size_t n, double p)
{
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

int main(int argc, char **argv)
{
	unsigned long iters = argc > 3 ? strtoul(argv[3], NULL, 10) : 5000;
	double *t[2];
	int dirfd[2], worst = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_control TRACEFUSE_MNT BARE_MNT "
			"[ITERATIONS]\n");
		return 2;
	}
	if (iters < 10)
		iters = 10;
	for (int fs = 0; fs < 2; fs++) {
		dirfd[fs] = open(argv[1 + fs], O_RDONLY | O_DIRECTORY);
		t[fs] = calloc(iters, sizeof(double));
		if (dirfd[fs] < 0 || !t[fs]) {
			perror(argv[1 + fs]);
			return 1;
		}
	}
	printf("%-16s %10s %10s %10s   %10s %10s %10s   %6s\n", "operation",
	       "tf median", "p10", "p90", "bare med", "p10", "p90", "ratio");
	for (int op = 0; op < NR_OPS; op++) {
		double med[2];

		/* warm up both: dentries, threads */
		for (int fs = 0; fs < 2; fs++)
			for (int i = 0; i < 200; i++)
				if (run_op(dirfd[fs], op, i) < 0) {
					fprintf(stderr, "%s on %s: %s\n",
						op_names[op], argv[1 + fs],
						strerror(errno));
					return 1;
				}
		for (size_t i = 0; i < iters; i++)
			for (int k = 0; k < 2; k++) {
				int fs = (int)(i + k) & 1;	/* ABBA... */

				t[fs][i] = run_op(dirfd[fs], op, i);
				if (t[fs][i] < 0) {
					perror(op_names[op]);
					return 1;
				}
			}
		for (int fs = 0; fs < 2; fs++) {
			qsort(t[fs], iters, sizeof(double), cmp_double);
			med[fs] = pct(t[fs], iters, 0.5);
		}
		printf("%-16s %10.1f %10.1f %10.1f   %10.1f %10.1f %10.1f   "
		       "%5.2fx\n", op_names[op], med[0], pct(t[0], iters, 0.1),
		       pct(t[0], iters, 0.9), med[1], pct(t[1], iters, 0.1),
		       pct(t[1], iters, 0.9), med[0] / med[1]);
		if (med[0] > 1.25 * med[1])
			worst = 1;
	}
	printf("(%lu iterations per operation and filesystem; microseconds)\n",
	       iters);
	return worst ? 3 : 0;
}
