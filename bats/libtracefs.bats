#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# libtracefs.bats - a program written against libtracefs 1.6.4
# (tests/tracefs_client.c: tracefs_hist, tracefs_synth, tracefs_sql) run
# unchanged under `tracefuse run`: libtracefs finds tracefuse where it
# looks for tracefs, creates its histograms and synthetic events there,
# and reads back what the kernel shows for the same commands
# (tests/libtracefs/kernel.sh and its output on Linux 6.12).

ROOT="$BATS_TEST_DIRNAME/.."

# libtracefs names its variables after its pid (__arg_1234_1), pids vary
norm() {
	sed -E 's/_[0-9]+_([0-9])/_N_\1/g; s/(pid:) +[0-9]+/\1 P/'
}

@test "a libtracefs program builds hists, synthetic events and SQL pipelines on tracefuse as on the kernel" {
	[ -x "$ROOT/tests/tracefs_client" ] || skip "tests/tracefs_client not built (make check builds it)"
	run "$ROOT/tracefuse" run --formats "$ROOT/tests/oracle/formats-6.12" \
		--source none --cpus 1 -- "$ROOT/tests/tracefs_client"
	echo "$output"
	[ "$status" -eq 0 ]
	# the commands libtracefs wrote, then the files as the kernel shows them
	[[ "$output" == *"echo 's:mark_lat s32 pid; u64 delta;' >> /sys/kernel/debug/tracing/dynamic_events"* ]]
	got=$(printf '%s\n' "$output" | sed -n '/^--- cat/,$p' | norm)
	want=$(grep -v '^rc=' "$ROOT/tests/libtracefs/kernel.out" | norm)
	diff <(echo "$want") <(echo "$got")
}

@test "under tracefuse run a command cannot mount the host's tracefs over tracefuse, and debugfs leads to it" {
	run "$ROOT/tracefuse" run --formats "$ROOT/tests/oracle/formats-6.12" \
		--source none --cpus 1 -- sh -c 'mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && echo mounted; awk "\$2 ~ /^\/sys\/kernel\/(debug\/)?tracing\$/ || \$3 == \"debugfs\" { print \$2, \$3 }" /proc/self/mounts; cat /sys/kernel/debug/tracing/events/ftrace/print/id'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "/sys/kernel/tracing fuse.tracefuse" ]
	[[ "$output" == *"/sys/kernel/debug debugfs"* ]]
	[[ "$output" == *"/sys/kernel/debug/tracing fuse.tracefuse"* ]]
	[[ "$output" != *mounted* ]]
	[ "${lines[-1]}" = 5 ]
	! grep -q ' /sys/kernel/tracing fuse.tracefuse' /proc/mounts || false
}
