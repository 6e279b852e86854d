// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs_client.c - a libtracefs program, as users write them, run
 * against tracefuse by bats/libtracefs.bats under `tracefuse run` (which
 * puts tracefuse at /sys/kernel/tracing, where libtracefs looks).  It
 * builds a histogram with the tracefs_hist API, a synthetic event with
 * the tracefs_synth API and another with tracefs_sql(), prints the
 * commands libtracefs writes for them, fires trace_marker events, prints
 * what the files then say, and removes everything again.
 *
 * The commands it prints are replayed on the kernel oracle
 * (tests/libtracefs/kernel.sh): its output must be the kernel's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

static const char *dir;

static void show(const char *file)
{
	char path[512], buf[8192];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	printf("--- cat %s:\n", file);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("(%s)\n", strerror(errno));
	} else {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
		close(fd);
	}
	printf("--- end\n");
	fflush(stdout);
}

static void marker(const char *text)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		printf("trace_marker: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void echo_synth(const char *what, struct tracefs_synth *synth)
{
	struct trace_seq seq;

	trace_seq_init(&seq);
	tracefs_synth_echo_cmd(&seq, synth);
	trace_seq_terminate(&seq);
	printf("## %s\n%s", what, seq.buffer);
	trace_seq_destroy(&seq);
}

static int fail(const char *what)
{
	printf("FAILED: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	struct tracefs_synth *synth, *sql;
	struct tracefs_hist *hist, *shist;
	struct tep_handle *tep;
	struct trace_seq seq;
	char *err = NULL;

	dir = tracefs_tracing_dir();
	if (!dir)
		return fail("tracefs_tracing_dir");
	tep = tracefs_local_events(NULL);
	if (!tep)
		return fail("tracefs_local_events");

	/* a histogram */
	hist = tracefs_hist_alloc(tep, "ftrace", "print", "common_pid",
				  TRACEFS_HIST_KEY_NORMAL);
	if (!hist)
		return fail("tracefs_hist_alloc");
	trace_seq_init(&seq);
	tracefs_hist_echo_cmd(&seq, NULL, hist, TRACEFS_HIST_CMD_START);
	trace_seq_terminate(&seq);
	printf("## tracefs_hist\n%s", seq.buffer);
	trace_seq_destroy(&seq);
	if (tracefs_hist_start(NULL, hist) < 0)
		return fail("tracefs_hist_start");

	/* a synthetic event: marker "start" to marker "end" of a task */
	synth = tracefs_synth_alloc(tep, "mark_lat", "ftrace", "print",
				    "ftrace", "print", "common_pid",
				    "common_pid", "pid");
	if (!synth)
		return fail("tracefs_synth_alloc");
	if (tracefs_synth_add_compare_field(synth, TRACEFS_TIMESTAMP_USECS,
					    TRACEFS_TIMESTAMP_USECS,
					    TRACEFS_SYNTH_DELTA_END, "delta") ||
	    tracefs_synth_append_start_filter(synth, TRACEFS_FILTER_COMPARE,
					      "buf", TRACEFS_COMPARE_EQ,
					      "\"start\"") ||
	    tracefs_synth_append_end_filter(synth, TRACEFS_FILTER_COMPARE,
					    "buf", TRACEFS_COMPARE_EQ,
					    "\"end\""))
		return fail("tracefs_synth fields");
	echo_synth("tracefs_synth", synth);
	if (tracefs_synth_create(synth) < 0)
		return fail("tracefs_synth_create");

	/* the same kind of event from SQL */
	sql = tracefs_sql(tep, "sql_lat",
			  "SELECT start.common_pid AS pid, "
			  "(end.common_timestamp.usecs - start.common_timestamp.usecs) AS lat "
			  "FROM ftrace.print AS start JOIN ftrace.print AS end "
			  "ON start.common_pid = end.common_pid "
			  "WHERE start.buf == \"a\" && end.buf == \"b\"", &err);
	if (!sql) {
		printf("tracefs_sql: %s\n", err ? err : "?");
		return 1;
	}
	echo_synth("tracefs_sql", sql);
	if (tracefs_synth_create(sql) < 0)
		return fail("tracefs_synth_create (sql)");

	/* a histogram on a synthetic event, through the synth's own tep */
	tep_free(tep);
	tep = tracefs_local_events(NULL);
	if (!tep || !tracefs_synth_get_event(tep, synth))
		return fail("tracefs_synth_get_event");
	shist = tracefs_hist_alloc(tep, "synthetic", "mark_lat", "pid",
				   TRACEFS_HIST_KEY_NORMAL);
	if (!shist || tracefs_hist_start(NULL, shist) < 0)
		return fail("synthetic hist");

	marker("start");
	marker("end");
	marker("end");
	marker("a");
	marker("b");
	marker("start");
	marker("end");

	show("synthetic_events");
	show("dynamic_events");
	show("events/ftrace/print/trigger");
	show("events/synthetic/mark_lat/trigger");
	show("events/synthetic/mark_lat/format");
	show("events/synthetic/sql_lat/format");
	show("events/synthetic/mark_lat/hist");
	show("events/ftrace/print/hist");

	if (tracefs_hist_destroy(NULL, shist) < 0 ||
	    tracefs_synth_destroy(sql) < 0 || tracefs_synth_destroy(synth) < 0 ||
	    tracefs_hist_destroy(NULL, hist) < 0)
		return fail("destroy");
	show("synthetic_events");
	show("events/ftrace/print/trigger");
	tracefs_hist_free(shist);
	tracefs_hist_free(hist);
	tracefs_synth_free(sql);
	tracefs_synth_free(synth);
	tep_free(tep);
	free(err);
	return 0;
}
