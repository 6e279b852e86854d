// SPDX-License-Identifier: GPL-2.0
/*
 * test_replay_corrupt.c - replaying a corrupt trace.dat fails with
 * -EBADMSG and changes nothing; it does not crash the process.
 * tests/replay-corrupt/open-fails.dat is the input with which
 * tests/fuzz/fuzz_replay.c found libtracecmd 1.3 dereferencing NULL in
 * tracecmd_open_fd(); short-field-count.dat the one with which it found
 * an event format whose fields libtraceevent counted short, which
 * overran the field array tracefuse sized by the count; no-page-size.dat
 * the one with which it found a record read past its page; endless.dat
 * one libtracecmd reads without end; the other files are
 * data/sample.dat cut short.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <event-parse.h>

#include "check.h"
#include "events/registry.h"
#include "trace/trace_array.h"
#include "source/replay.h"
#include "source/replay_probe.h"

static void on_alarm(int sig)
{
	(void)sig;
}

static char *cut_copy(const char *src, const char *dir, off_t len)
{
	static char path[4200];
	char buf[65536];
	int in = open(src, O_RDONLY), out;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/cut.dat", dir);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	while (in >= 0 && out >= 0 && len > 0 &&
	       (n = read(in, buf, len < (off_t)sizeof(buf) ?
			 (size_t)len : sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)n) != n)
			break;
		len -= n;
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return path;
}

int main(void)
{
	struct tf_replay_opts opts = { 0 };
	struct tf_registry *reg;
	struct tf_tracing t;
	unsigned long n = 7;
	char dir[] = "/tmp/tf-test-replay.XXXXXX";
	unsigned nr;
	int fd;

	fd = open(FORMATS_DIR, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "test") < 0 ||
	    tf_tracing_init(&t, reg, 2) < 0 || !mkdtemp(dir)) {
		fprintf(stderr, "test_replay_corrupt: set-up failed\n");
		return 99;
	}
	close(fd);
	nr = reg->nr_events;

	/* the fuzzer's crash: refused, nothing dispatched, no event added */
	CHECK_INT(tf_replay_probe(SRCDIR "/tests/replay-corrupt/open-fails.dat"),
		  -EBADMSG);
	CHECK_INT(tf_replay_run(&t, SRCDIR "/tests/replay-corrupt/open-fails.dat",
				&opts, &n, NULL, NULL), -EBADMSG);
	CHECK_INT(n, 7);
	CHECK_INT(reg->nr_events, nr);

	/* a file libtracecmd reads without end: the probe's child gives up
	 * at its alarm, even where the process handles SIGALRM itself (as
	 * libFuzzer does, with which fuzz_replay found it waiting for ever) */
	signal(SIGALRM, on_alarm);
	CHECK_INT(tf_replay_probe(SRCDIR "/tests/replay-corrupt/endless.dat"),
		  -EBADMSG);
	signal(SIGALRM, SIG_DFL);

	/* a file that gives its pages no size, whose one record claims 32
	 * KiB: libtracecmd hands the record over as it is, and copying it
	 * read past the page; such a file is refused */
	n = 7;
	CHECK_INT(tf_replay_run(&t, SRCDIR
				"/tests/replay-corrupt/no-page-size.dat",
				&opts, &n, NULL, NULL), -EBADMSG);
	CHECK_INT(n, 7);
	CHECK_INT(reg->nr_events, nr);

	/* a format whose field lists outnumber libtraceevent's counts: its
	 * event gets every field of the lists (no write past the array) */
	CHECK_INT(tf_replay_run(&t, SRCDIR
				"/tests/replay-corrupt/short-field-count.dat",
				&opts, NULL, NULL, NULL), 0);
	CHECK_INT(reg->nr_events, nr + 1);
	if (reg->nr_events == nr + 1) {
		const struct tf_event *ev = tf_registry_event(reg, nr);

		struct tep_event *tev = tep_find_event_by_name(reg->tep,
							       "sched", "schedzswitch");

		CHECK_STR(ev->name, "schedzswitch");
		CHECK_INT(ev->nr_fields, 2);
		/* the case this file is for: the counts fall short of the
		 * lists (the array sized by the counts was overrun) */
		CHECK(tev && tev->format.nr_common + tev->format.nr_fields <
			     (int)ev->nr_fields);
	}
	nr = reg->nr_events;

	/* the sample cut inside its headers and inside its records */
	for (off_t len = 4096; len <= 1500000; len *= 19) {
		char *p = cut_copy(SRCDIR "/data/sample.dat", dir, len);

		CHECK_INT(tf_replay_run(&t, p, &opts, NULL, NULL, NULL),
			  -EBADMSG);
		unlink(p);
	}
	CHECK_INT(reg->nr_events, nr);

	/* a missing file is still ENOENT */
	CHECK_INT(tf_replay_probe("/nonexistent/x.dat"), -ENOENT);

	/* and the whole sample still replays */
	CHECK_INT(tf_replay_run(&t, SRCDIR "/data/sample.dat", &opts, &n,
				NULL, NULL), 0);
	CHECK_INT(n, 99498);
	rmdir(dir);
	tf_tracing_destroy(&t);
	return check_done("test_replay_corrupt");
}
