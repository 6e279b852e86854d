// SPDX-License-Identifier: GPL-2.0
/*
 * bench_replay.c - events/s of the replay source (src/source/replay.c)
 * through the whole path: record -> tf_dispatch -> trace buffer, on one
 * thread, with every event of the sample enabled.
 *
 * tf_replay_run() first loads the file (libtracecmd: open, decode every
 * buffer, translate into the arena), then dispatches the arena `loop`
 * times.  Running it with loop=1 and loop=L and subtracting separates
 * the two: dispatch ns/event = (T(L) - T(1)) / ((L - 1) * records).
 * Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), median of
 * the repetitions.  See docs/performance.md, "Replay".
 *
 * usage: bench_replay [-f formats_dir] [-l loops] [-r reps] [FILE]
 *   defaults: data/formats, 50 loops, 5 repetitions, data/sample.dat
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "events/registry.h"
#include "trace/trace_array.h"
#include "source/replay.h"
#include "buffer/ring_buffer.h"
#include "bench_common.h"

static double run(struct tf_tracing *t, const char *file, unsigned loops,
		  unsigned long *n)
{
	struct tf_replay_opts o = { .speed = 0, .loops = loops };
	unsigned long skipped = 0;
	double t0 = cpu_ns();

	if (tf_replay_run(t, file, &o, n, &skipped, NULL) < 0) {
		fprintf(stderr, "bench_replay: cannot replay %s\n", file);
		exit(1);
	}
	return cpu_ns() - t0;
}

int main(int argc, char **argv)
{
	const char *formats = "data/formats", *file = "data/sample.dat";
	unsigned loops = 50;
	int reps = 5, c;
	struct tf_registry *reg;
	struct tf_tracing t;
	double *one, *many;
	unsigned long n1 = 0, nl = 0;

	while ((c = getopt(argc, argv, "f:l:r:")) != -1) {
		switch (c) {
		case 'f': formats = optarg; break;
		case 'l': loops = (unsigned)atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench_replay [-f formats_dir] "
				"[-l loops] [-r reps] [FILE]\n");
			return 2;
		}
	}
	if (optind < argc)
		file = argv[optind];
	if (loops < 2 || reps < 1 ||
	    tf_registry_load(&reg, open(formats, O_RDONLY | O_DIRECTORY),
			     NULL, formats) < 0 ||
	    tf_tracing_init(&t, reg, 2) < 0) {
		fprintf(stderr, "bench_replay: bad options or formats\n");
		return 1;
	}
	pthread_mutex_lock(&t.lock);
	tf_system_enable_set(t.top, NULL, 1);	/* every event */
	pthread_mutex_unlock(&t.lock);
	one = calloc((size_t)reps, sizeof(*one));
	many = calloc((size_t)reps, sizeof(*many));
	for (int i = 0; i < reps; i++) {
		one[i] = run(&t, file, 1, &n1);
		many[i] = run(&t, file, loops, &nl);
	}
	qsort(one, (size_t)reps, sizeof(*one), cmp_double);
	qsort(many, (size_t)reps, sizeof(*many), cmp_double);
	double load = one[reps / 2], all = many[reps / 2];
	double per = (all - load) / ((double)(nl - n1));

	printf("| file | records | load (open + decode + translate) | "
	       "dispatch into trace buffer | events/s |\n");
	printf("|---|---|---|---|---|\n");
	printf("| %s | %lu | %.0f ms (%.0f ns/record) | %.1f ns/event | "
	       "%.2fM |\n", file, n1, load / 1e6, load / (double)n1, per,
	       1e3 / per);
	printf("(loop=%u: %lu events in %.0f ms CPU, %.2fM events/s "
	       "including one load)\n", loops, nl, all / 1e6,
	       (double)nl / all * 1e3);
	/* proof that the events reached the buffer */
	uint64_t written = 0;
	for (int cpu = 0; cpu < 2; cpu++) {
		struct tf_rb_stats st;

		tf_ring_buffer_stats(t.top->buffer, cpu, &st);
		written += st.written;
	}
	printf("(trace buffer: %llu records written in all runs, expected "
	       "%lu)\n", (unsigned long long)written,
	       (unsigned long)reps * (n1 + nl));
	tf_tracing_destroy(&t);
	tf_registry_free(reg);
	free(one);
	free(many);
	return 0;
}
