// SPDX-License-Identifier: GPL-2.0
/*
 * dies.c - a producer that is killed: it creates two synthetic events,
 * puts a histogram on one (in use) and writes an event of each, then
 * kills itself with SIGKILL, so that the daemon sees the connection end
 * without a goodbye.  bats/api.bats checks what is left.
 *
 *   dies MOUNTPOINT
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <tracefuse/tracefuse.h>

int main(int argc, char **argv)
{
	static const struct tfuse_field_desc f[] = { { "u64", "a" } };
	struct tfuse_event_file *used, *unused;
	char path[4096];
	struct tfuse *t;
	int fd;

	if (argc != 2)
		return 2;
	t = tfuse_connect(argv[1]);
	if (!t || tfuse_synth_event_create(t, "dies_unused", f, 1) ||
	    tfuse_synth_event_create(t, "dies_used", f, 1))
		return 1;
	snprintf(path, sizeof(path), "%s/events/synthetic/dies_used/trigger",
		 argv[1]);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, "hist:keys=a", 11) != 11)
		return 1;
	close(fd);
	used = tfuse_get_event_file(t, NULL, "synthetic", "dies_used");
	unused = tfuse_get_event_file(t, NULL, "synthetic", "dies_unused");
	if (!used || !unused)
		return 1;
	tfuse_synth_event_trace(used, 1, (tfuse_u64)42);
	tfuse_synth_event_trace(unused, 1, (tfuse_u64)43);
	/* no sync, no disconnect: the ring still holds the events */
	raise(SIGKILL);
	return 1;
}
