#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The kernel's own answers: each tests/oracle/NAME.sh ran on Linux 6.12
# (shared/oracle) and its output is NAME.out.  Here the same script runs
# on a fresh tracefuse with the same kernel's event formats, and every
# section must match byte for byte, except those NAME.skip lists with a
# reason.

load helpers

setup() { tf_mount; }
teardown() { tf_umount; }

@test "enable files answer as the kernel's (oracle: enable.sh)" {
	run oracle_compare enable
	echo "$output"
	assert_success
}

@test "set_event answers as the kernel's (oracle: set_event.sh)" {
	run oracle_compare set_event
	echo "$output"
	assert_success
}

@test "set_event_pid answers as the kernel's (oracle: set_event_pid.sh)" {
	run oracle_compare set_event_pid
	echo "$output"
	assert_success
}

@test "trace and trace_marker answer as the kernel's (oracle: trace.sh)" {
	run oracle_compare trace
	echo "$output"
	assert_success
}

@test "output options and trace_clock print as the kernel's (oracle: trace-options.sh)" {
	run oracle_compare trace-options
	echo "$output"
	assert_success
}

@test "bad input gets the kernel's errno (oracle: errors.sh)" {
	run oracle_compare errors
	echo "$output"
	assert_success
}

@test "instances are separate trace arrays (oracle: instances.sh)" {
	run oracle_compare instances
	echo "$output"
	assert_success
}

@test "the tree has the kernel's files, modes and contents (oracle: layout.sh)" {
	run oracle_compare layout
	echo "$output"
	assert_success
}

@test "directories list in the kernel's readdir order (oracle: readdir.sh)" {
	run oracle_compare readdir
	echo "$output"
	assert_success
}

@test "subsystem filters answer as the kernel's (oracle: subsys-filter.sh)" {
	run oracle_compare subsys-filter
	echo "$output"
	assert_success
}

@test "the ring buffer keeps and drops pages as the kernel's (oracle: ring-buffer.sh)" {
	run oracle_compare ring-buffer
	echo "$output"
	assert_success
}

@test "the buffer expands on the kernel's writes only (oracle: buffer-expand*.sh)" {
	for s in buffer-expand buffer-expand2 buffer-expand3 buffer-expand4; do
		tf_umount; tf_mount
		run oracle_compare $s
		echo "$output"
		assert_success
	done
}

@test "synthetic_events and dynamic_events answer as the kernel's (oracle: synth-define.sh)" {
	run oracle_compare synth-define
	echo "$output"
	assert_success
}

@test "synthetic events go when and as the kernel's do (oracle: synth-remove.sh)" {
	run oracle_compare synth-remove
	echo "$output"
	assert_success
}

@test "synthetic events print in trace as the kernel's, after the record whose trigger made them (oracle: synth-trace.sh)" {
	run oracle_compare synth-trace
	echo "$output"
	assert_success
}

@test "a soft-disabled cause enabled on the way lands ahead of what it generated (oracle: synth-soft-enable.sh)" {
	run oracle_compare synth-soft-enable
	echo "$output"
	assert_success
}

@test "buffer_size_kb per CPU, X, ENOMEM for what the machine lacks (oracle: buffer-size.sh, 2 CPUs)" {
	tf_umount
	tf_mount --formats "$TF_FORMATS_612" --cpus 2
	run oracle_compare buffer-size
	echo "$output"
	assert_success
}

@test "tracing_cpumask prints and parses as the kernel's for 8 and 36 CPUs (oracle: cpumask-8.sh, cpumask-36.sh)" {
	for n in 8 36; do
		tf_umount
		tf_mount --formats "$TF_FORMATS_612" --cpus "$n"
		run oracle_compare "cpumask-$n"
		echo "$output"
		assert_success
	done
}

@test "buffer_subbuf_size_kb: rounding, limits, errnos, header_page, page fill, contents and counts, snapshot, instance (oracle: subbuf.sh)" {
	run oracle_compare subbuf
	echo "$output"
	assert_success
}

@test "trace_pipe reads fill the reader's buffer and cut lines as the kernel's (oracle: trace-pipe-read.sh)" {
	run oracle_compare trace-pipe-read
	echo "$output"
	assert_success
}

@test "a read of an empty trace_pipe_raw is the end of file; one of snapshot_raw waits for records (oracle: raw-pipe-wait.sh)" {
	run oracle_compare raw-pipe-wait
	echo "$output"
	assert_success
}

@test "trace_pipe_raw and snapshot_raw hand out pages of the sub-buffer size; short reads take what fits, padding included (oracle: raw-subbuf.sh)" {
	run oracle_compare raw-subbuf
	echo "$output"
	assert_success
}
