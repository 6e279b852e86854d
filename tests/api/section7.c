// SPDX-License-Identifier: GPL-2.0
/*
 * section7.c - every example of the kernel's in-kernel trace event API
 * (Documentation/trace/events.rst, section 7), through libtracefuse,
 * with the same definitions and values, against the tracefuse mounted
 * at argv[1].  Prints each call's result, and the trace line of the
 * event it deletes before deleting it; schedtest carries a histogram
 * (so it outlives the program) that bats/api.bats reads with `trace`.
 *
 *   section7 MOUNTPOINT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include <tracefuse/tracefuse.h>

#define SHOW(call) printf("%-60s = %d\n", #call, (call))

static const char *mnt;

/* One write of @text to @file under the mount: 0 or -errno. */
static int write_file(const char *file, const char *text)
{
	char path[4096];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", mnt, file);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -errno;
	ret = write(fd, text, strlen(text)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

/* Prints the lines of `trace` that name @event, without their context
 * columns (task, CPU, time stamp). */
static void print_trace_of(const char *event)
{
	char path[4096], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", mnt);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, event);

		if (line[0] != '#' && p)
			printf("trace: %s", p);
	}
	fclose(f);
}

static struct tfuse_field_desc sched_fields[] = {
	{ .type = "pid_t",		.name = "next_pid_field" },
	{ .type = "char[16]",		.name = "next_comm_field" },
	{ .type = "u64",		.name = "ts_ns" },
	{ .type = "u64",		.name = "ts_ms" },
	{ .type = "unsigned int",	.name = "cpu" },
	{ .type = "char[64]",		.name = "my_string_field" },
	{ .type = "int",		.name = "my_int_field" },
};

int main(int argc, char **argv)
{
	struct tfuse *t;
	struct tfuse_event_file *file, *gen;
	struct tfuse_dynevent_cmd cmd;
	struct tfuse_synth_trace_state st;
	char buf[TFUSE_MAX_DYNEVENT_CMD_LEN];
	tfuse_u64 vals[7];
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: section7 MOUNTPOINT\n");
		return 2;
	}
	mnt = argv[1];
	t = tfuse_connect(mnt);
	if (!t) {
		perror("tfuse_connect");
		return 1;
	}

	/* 7.1, first method: all at once */
	SHOW(tfuse_synth_event_create(t, "schedtest", sched_fields, 7));
	SHOW(tfuse_synth_event_create(t, "schedtest", sched_fields, 7));

	/* 7.1, second method: a command built in steps */
	tfuse_synth_event_cmd_init(&cmd, t, buf, sizeof(buf));
	SHOW(tfuse_synth_event_gen_cmd_start(&cmd, "gen_synth_test",
					     "pid_t", "next_pid_field",
					     "u64", "ts_ns"));
	SHOW(tfuse_synth_event_add_field(&cmd, "int", "intfield"));
	SHOW(tfuse_synth_event_add_field(&cmd, NULL, "nofield"));
	SHOW(tfuse_synth_event_add_field_str(&cmd, "char my_comm[16]"));
	SHOW(tfuse_synth_event_add_fields(&cmd, sched_fields + 4, 3));
	printf("command: %s\n", buf);
	SHOW(tfuse_synth_event_gen_cmd_end(&cmd));

	file = tfuse_get_event_file(t, NULL, "synthetic", "schedtest");
	gen = tfuse_get_event_file(t, NULL, "synthetic", "gen_synth_test");
	if (!file || !gen) {
		perror("tfuse_get_event_file");
		return 1;
	}
	SHOW(write_file("events/synthetic/schedtest/trigger",
			"hist:keys=next_comm_field:vals=my_int_field,ts_ms"));
	SHOW(tfuse_set_clr_event(t, NULL, "synthetic", "schedtest", true));
	SHOW(tfuse_set_clr_event(t, NULL, "synthetic", "gen_synth_test",
				 true));

	/* 7.2.1: all at once */
	SHOW(tfuse_synth_event_trace(file, 7, /* number of values */
				     (tfuse_u64)444, /* next_pid_field */
				     (tfuse_u64)(uintptr_t)"clackers",
				     (tfuse_u64)1000000, /* ts_ns */
				     (tfuse_u64)1000, /* ts_ms */
				     (tfuse_u64)1, /* cpu */
				     (tfuse_u64)(uintptr_t)"Thneed",
				     (tfuse_u64)999)); /* my_int_field */
	vals[0] = 777;
	vals[1] = (uintptr_t)"tiddlywinks";
	vals[2] = 1000000;
	vals[3] = 1000;
	vals[4] = 1;
	vals[5] = (uintptr_t)"thneed";
	vals[6] = 398;
	SHOW(tfuse_synth_event_trace_array(file, vals, 7));
	SHOW(tfuse_synth_event_trace(gen, 7, (tfuse_u64)111,
				     (tfuse_u64)2000000, (tfuse_u64)-5,
				     (tfuse_u64)(uintptr_t)"gencomm",
				     (tfuse_u64)0,
				     (tfuse_u64)(uintptr_t)"genstring",
				     (tfuse_u64)7));

	/* 7.2.2: piecewise, one field after another */
	SHOW(tfuse_synth_event_trace_start(file, &st));
	SHOW(tfuse_synth_event_add_next_val(777, &st));
	SHOW(tfuse_synth_event_add_next_val((tfuse_u64)(uintptr_t)"slinky",
					    &st));
	SHOW(tfuse_synth_event_add_next_val(1000000, &st));
	SHOW(tfuse_synth_event_add_next_val(1000, &st));
	SHOW(tfuse_synth_event_add_next_val(1, &st));
	SHOW(tfuse_synth_event_add_next_val(
		(tfuse_u64)(uintptr_t)"thneed_2.01", &st));
	SHOW(tfuse_synth_event_add_next_val(395, &st));
	/* one too many; and the two ways do not mix */
	SHOW(tfuse_synth_event_add_next_val(1, &st));
	SHOW(tfuse_synth_event_add_val("ts_ns", 1, &st));
	SHOW(tfuse_synth_event_trace_end(&st));

	/* 7.2.2: piecewise, by name, in any order */
	SHOW(tfuse_synth_event_trace_start(file, &st));
	SHOW(tfuse_synth_event_add_val("next_pid_field", 777, &st));
	SHOW(tfuse_synth_event_add_val("next_comm_field",
				       (tfuse_u64)(uintptr_t)"silly putty",
				       &st));
	SHOW(tfuse_synth_event_add_val("ts_ns", 1000000, &st));
	SHOW(tfuse_synth_event_add_val("ts_ms", 1000, &st));
	SHOW(tfuse_synth_event_add_val("cpu", 1, &st));
	SHOW(tfuse_synth_event_add_val("my_string_field",
				       (tfuse_u64)(uintptr_t)"thneed_9",
				       &st));
	SHOW(tfuse_synth_event_add_val("my_int_field", 3999, &st));
	SHOW(tfuse_synth_event_add_val("no_such_field", 1, &st));
	SHOW(tfuse_synth_event_add_next_val(1, &st));
	SHOW(tfuse_synth_event_trace_end(&st));

	/* a wrong count: the kernel still commits the record it reserved */
	SHOW(tfuse_synth_event_trace(file, 2, (tfuse_u64)1, (tfuse_u64)2));

	SHOW(tfuse_sync(t));
	print_trace_of("gen_synth_test:");
	/* in use while enabled: the kernel refuses to delete it */
	SHOW(tfuse_synth_event_delete(t, "gen_synth_test"));
	SHOW(tfuse_set_clr_event(t, NULL, "synthetic", "gen_synth_test",
				 false));
	tfuse_put_event_file(gen);
	SHOW(tfuse_synth_event_delete(t, "gen_synth_test"));
	SHOW(tfuse_synth_event_delete(t, "gen_synth_test"));
	tfuse_put_event_file(file);
	ret = 0;
	{
		struct tfuse_stats s;

		SHOW(tfuse_get_stats(t, &s));
		printf("written %llu lost %llu delivered %llu malformed %llu\n",
		       (unsigned long long)s.written,
		       (unsigned long long)s.lost,
		       (unsigned long long)s.delivered,
		       (unsigned long long)s.malformed);
	}
	/* schedtest stays: its histogram uses it, so the session's end
	 * cannot delete it */
	tfuse_disconnect(t);
	return ret;
}
