// SPDX-License-Identifier: GPL-2.0
/*
 * bench_live_pingpong.c - the load for bench_live.sh: two processes pass
 * one byte back and forth over a pair of pipes for SECONDS seconds (each
 * round trip is two context switches, two wakeups and four syscalls on
 * the host).  Prints the round trips.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5;
	int ab[2], ba[2];
	unsigned long n = 0;
	struct timespec t0, t;
	pid_t pid;
	char c = 0;

	if (pipe(ab) < 0 || pipe(ba) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1)
			if (write(ba[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
		if (++n % 1024 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((double)(t.tv_sec - t0.tv_sec) +
			    (t.tv_nsec - t0.tv_nsec) / 1e9 >= secs)
				break;
		}
	}
	close(ab[1]);
	close(ba[0]);
	waitpid(pid, NULL, 0);
	printf("%lu\n", n);
	return 0;
}
