// SPDX-License-Identifier: GPL-2.0
/*
 * overrun.c - a ring overrun on purpose: with the daemon stopped
 * (SIGSTOP), N events go into a ring of 4096 bytes, which takes a few
 * dozen; the rest are dropped and counted.  After SIGCONT every event is
 * either delivered or lost: delivered + lost == produced, and each count
 * agrees between the producer's return codes, libtracefuse's statistics
 * and the daemon's.
 *
 *   overrun MOUNTPOINT DAEMON_PID N
 *
 * Creates synthetic/ovr (u64 n) with a hist trigger on it, so that the
 * event stays and the histogram counts what was delivered.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefuse/tracefuse.h>

int main(int argc, char **argv)
{
	static const struct tfuse_field_desc fields[] = { { "u64", "n" } };
	struct tfuse_event_file *file;
	struct tfuse_stats st;
	unsigned long n, ok = 0, full = 0, other = 0;
	char path[4096];
	struct tfuse *t;
	pid_t daemon;
	int fd, ret;

	if (argc != 4) {
		fprintf(stderr, "usage: overrun MOUNTPOINT DAEMON_PID N\n");
		return 2;
	}
	daemon = (pid_t)atoi(argv[2]);
	n = strtoul(argv[3], NULL, 10);
	t = tfuse_connect(argv[1]);
	if (!t || tfuse_set_ring_size(t, 4096) ||
	    tfuse_synth_event_create(t, "ovr", fields, 1)) {
		perror("overrun: set-up");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events/synthetic/ovr/trigger",
		 argv[1]);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, "hist:keys=common_pid", 20) != 20) {
		perror("overrun: hist trigger");
		return 1;
	}
	close(fd);
	file = tfuse_get_event_file(t, NULL, "synthetic", "ovr");
	if (!file)
		return 1;
	/* the thread's ring exists before the daemon stops */
	if (tfuse_synth_event_trace(file, 1, (tfuse_u64)0) == 0)
		ok++;
	tfuse_sync(t);
	if (kill(daemon, SIGSTOP) < 0) {
		perror("overrun: SIGSTOP");
		return 1;
	}
	for (unsigned long i = 1; i < n; i++) {
		ret = tfuse_synth_event_trace(file, 1, (tfuse_u64)i);
		if (ret == 0)
			ok++;
		else if (ret == -ENOSPC)
			full++;
		else
			other++;
	}
	kill(daemon, SIGCONT);
	tfuse_sync(t);
	/* the LOST record goes in with the next event that fits */
	if (tfuse_synth_event_trace(file, 1, (tfuse_u64)n) == 0)
		ok++;
	else
		full++;
	tfuse_sync(t);
	if (tfuse_get_stats(t, &st) < 0)
		return 1;
	printf("produced %lu accepted %lu refused %lu other %lu\n", n + 1, ok,
	       full, other);
	printf("written %llu lost %llu delivered %llu malformed %llu\n",
	       (unsigned long long)st.written, (unsigned long long)st.lost,
	       (unsigned long long)st.delivered,
	       (unsigned long long)st.malformed);
	tfuse_put_event_file(file);
	tfuse_disconnect(t);
	return st.written == ok && st.lost == full && other == 0 &&
	       st.delivered == ok && st.delivered + st.lost == n + 1 &&
	       full > 0 ? 0 : 1;
}
