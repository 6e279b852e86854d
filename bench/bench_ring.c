// SPDX-License-Identifier: GPL-2.0
/*
 * bench_ring.c - libtracefuse's producer path against a mounted
 * tracefuse (bench/ring.sh mounts one and runs this):
 *
 *  - producer: CPU ns per tfuse_event_file_write() of a sched_switch
 *    record (64 bytes) while the daemon drains the ring, measured in the
 *    producer thread's own CPU time;
 *  - end to end: events per second, wall time from the first write to
 *    tfuse_sync() returning, into a single-key histogram
 *    (hist:keys=next_pid on sched_switch, 1024 distinct pids), with 1
 *    and 2 producer threads; the histogram's Hits must equal the events
 *    delivered, and delivered + lost the events written;
 *  - the daemon's CPU time per event delivered (user + system, from
 *    /proc/PID/stat of TF_DAEMON_PID, which bench/ring.sh sets);
 *  - the floor: producer CPU ns per write that lands in the ring while
 *    no reader runs (the daemon stopped with SIGSTOP, the ring's pages
 *    already touched, each round writing less than the ring holds and
 *    the daemon let go to drain it between rounds); needs TF_DAEMON_PID.
 *
 * Rings of 1 MiB by default (-s BYTES): events a producer outrunning
 * the daemon loses are reported.
 *
 * usage: bench_ring [-n events_per_thread] [-r repetitions] [-s ring]
 *                   MOUNTPOINT
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefuse/tracefuse.h>

#include "bench_common.h"

static const char *mnt;
static int daemon_pid;

/* The daemon's CPU time in ns (utime + stime), 0 when unknown. */
static double daemon_cpu(void)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;

	if (!daemon_pid)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", daemon_pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')))
		return 0;
	/* after the comm: state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		   &ut, &st) != 2)
		return 0;
	return (double)(ut + st) * 1e9 / (double)sysconf(_SC_CLK_TCK);
}
static struct tfuse *t;
static struct tfuse_event_file *sw;
static unsigned long n_events = 2000000;

struct prod {
	pthread_barrier_t *start;
	unsigned long n, full;
	double cpu;
};

static void *produce(void *arg)
{
	struct prod *p = arg;
	unsigned char rec[64] = { 0 };
	double t0;

	/* the ring exists before the clock starts */
	tfuse_event_file_write(sw, rec, sizeof(rec));
	pthread_barrier_wait(p->start);
	t0 = cpu_ns();
	for (unsigned long i = 0; i < p->n; i++) {
		uint32_t pid = (uint32_t)(i & 1023);

		memcpy(rec + 56, &pid, 4);	/* next_pid */
		if (tfuse_event_file_write(sw, rec, sizeof(rec)) == -ENOSPC)
			p->full++;
	}
	p->cpu = cpu_ns() - t0;
	tfuse_thread_done(t);
	return NULL;
}

static int write_file(const char *rel, const char *text, int flags)
{
	char path[4096];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", mnt, rel);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -1;
	ret = write(fd, text, strlen(text)) < 0 ? -1 : 0;
	close(fd);
	return ret;
}

static unsigned long hist_hits(void)
{
	char path[4096], line[512];
	unsigned long hits = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/hist", mnt);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " Hits: %lu", &hits) == 1)
			break;
	fclose(f);
	return hits;
}

/* One run of @threads producers; events/s end to end, producer ns. */
static void run(unsigned threads, double *rate, double *prod_ns,
		double *daemon_ns, unsigned long *lost_out)
{
	double d0, d1;
	pthread_barrier_t start;
	pthread_t th[2];
	struct prod p[2];
	struct tfuse_stats before, after;
	double w0, w1;
	unsigned long hits0, hits1;

	tfuse_sync(t);
	tfuse_get_stats(t, &before);
	hits0 = hist_hits();
	pthread_barrier_init(&start, NULL, threads + 1);
	for (unsigned i = 0; i < threads; i++) {
		p[i] = (struct prod){ .start = &start, .n = n_events };
		pthread_create(&th[i], NULL, produce, &p[i]);
	}
	d0 = daemon_cpu();
	pthread_barrier_wait(&start);
	w0 = now_ns();
	for (unsigned i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	tfuse_sync(t);
	w1 = now_ns();
	d1 = daemon_cpu();
	tfuse_get_stats(t, &after);
	hits1 = hist_hits();
	*rate = (double)(after.delivered - before.delivered) /
		((w1 - w0) / 1e9);
	*prod_ns = 0;
	for (unsigned i = 0; i < threads; i++)
		*prod_ns += p[i].cpu / (double)p[i].n / threads;
	*lost_out = after.lost - before.lost;
	*daemon_ns = after.delivered > before.delivered ?
		     (d1 - d0) / (double)(after.delivered - before.delivered) :
		     0;
	if (hits1 - hits0 != after.delivered - before.delivered ||
	    after.delivered - before.delivered + *lost_out !=
		    threads * (n_events + 1))
		fprintf(stderr, "bench_ring: counts disagree: hits %lu, "
			"delivered %llu, lost %lu, written %lu\n",
			hits1 - hits0,
			(unsigned long long)(after.delivered -
					     before.delivered),
			*lost_out, threads * (n_events + 1));
	pthread_barrier_destroy(&start);
}

/*
 * Producer CPU ns per write with no reader running: rounds of writes
 * that all fit, the daemon stopped during each and let go between them.
 * 0 when the daemon is not known.
 */
static double floor_ns(size_t ring)
{
	unsigned char rec[64] = { 0 };
	unsigned long per_round = ring / 2 / (24 + sizeof(rec)), done = 0;
	double cpu = 0;

	if (!daemon_pid)
		return 0;
	tfuse_event_file_write(sw, rec, sizeof(rec));	/* the ring exists */
	for (unsigned long i = 0; i < 2 * per_round; i++)	/* its pages too */
		tfuse_event_file_write(sw, rec, sizeof(rec));
	while (done < n_events) {
		double t0;

		tfuse_sync(t);
		if (kill(daemon_pid, SIGSTOP) < 0)
			return 0;
		t0 = cpu_ns();
		for (unsigned long i = 0; i < per_round; i++) {
			uint32_t pid = (uint32_t)(i & 1023);

			memcpy(rec + 56, &pid, 4);
			if (tfuse_event_file_write(sw, rec, sizeof(rec)) < 0) {
				kill(daemon_pid, SIGCONT);
				fprintf(stderr, "bench_ring: a floor write did "
					"not fit\n");
				return 0;
			}
		}
		cpu += cpu_ns() - t0;
		kill(daemon_pid, SIGCONT);
		done += per_round;
	}
	tfuse_sync(t);
	tfuse_thread_done(t);
	return cpu / (double)done;
}

int main(int argc, char **argv)
{
	unsigned reps = 5;
	size_t ring = 1u << 20;
	double r1[16], r2[16], p1[16], p2[16], c1[16], c2[16], f1[16];
	const char *pid = getenv("TF_DAEMON_PID");
	unsigned long lost1 = 0, lost2 = 0, l;
	struct stat3 s;
	int opt;

	while ((opt = getopt(argc, argv, "n:r:s:")) != -1) {
		switch (opt) {
		case 's': ring = strtoul(optarg, NULL, 0); break;
		case 'n': n_events = strtoul(optarg, NULL, 10); break;
		case 'r': reps = (unsigned)atoi(optarg); break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || reps < 1 || reps > 16)
		goto usage;
	mnt = argv[optind];
	daemon_pid = pid ? atoi(pid) : 0;
	t = tfuse_connect(mnt);
	if (!t || tfuse_set_ring_size(t, ring) < 0) {
		perror("bench_ring: tfuse_connect");
		return 1;
	}
	sw = tfuse_get_event_file(t, NULL, "sched", "sched_switch");
	if (!sw || write_file("events/sched/sched_switch/trigger",
			      "hist:keys=next_pid", O_APPEND) < 0) {
		perror("bench_ring: set-up");
		return 1;
	}
	for (unsigned r = 0; r < reps; r++)
		f1[r] = floor_ns(ring);
	for (unsigned r = 0; r < reps; r++) {
		run(1, &r1[r], &p1[r], &c1[r], &l);
		lost1 += l;
		run(2, &r2[r], &p2[r], &c2[r], &l);
		lost2 += l;
	}
	printf("bench_ring: %lu events per thread, %u repetitions, rings of "
	       "%zu bytes, median (min-max)\n\n", n_events, reps, ring);
	printf("| producers | producer CPU ns/event | daemon CPU ns/event | end to end, M events/s | lost |\n");
	printf("|---|---|---|---|---|\n");
	for (int k = 0; k < 2; k++) {
		double *pv = k ? p2 : p1, *cv = k ? c2 : c1, *rv = k ? r2 : r1;

		s = stats(pv, reps);
		printf("| %d | %.1f (%.1f-%.1f) ", k + 1, s.med, s.min, s.max);
		s = stats(cv, reps);
		printf("| %.1f (%.1f-%.1f) ", s.med, s.min, s.max);
		s = stats(rv, reps);
		printf("| %.2f (%.2f-%.2f) | %lu |\n", s.med / 1e6,
		       s.min / 1e6, s.max / 1e6, k ? lost2 : lost1);
	}
	s = stats(f1, reps);
	if (s.med > 0)
		printf("\nfloor: producer CPU ns per write landing in the ring "
		       "with no reader running: %.1f (%.1f-%.1f)\n", s.med,
		       s.min, s.max);
	write_file("events/sched/sched_switch/trigger", "!hist:keys=next_pid",
		   O_APPEND);
	tfuse_put_event_file(sw);
	tfuse_disconnect(t);
	return 0;
usage:
	fprintf(stderr, "usage: bench_ring [-n events] [-r reps] MOUNTPOINT\n");
	return 2;
}
