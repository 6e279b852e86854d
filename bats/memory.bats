#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# memory.bats - the trace buffer takes its memory when it is sized, as
# the kernel's does, and a size the machine cannot hold is refused
# (tests/oracle/buffer-size.sh checks the texts and errnos on 6.12).

load helpers

setup() {
	TF_MNT=$(mktemp -d "$BATS_TEST_TMPDIR/mnt.XXXXXX")
	"$TF_BIN" -f --source none --cpus 2 --formats "$TF_FORMATS_612" \
		"$TF_MNT" 2> "$BATS_TEST_TMPDIR/daemon.log" &
	TF_PID=$!
	for _ in $(seq 200); do
		[ -e "$TF_MNT/trace_marker" ] && return 0
		sleep 0.05
	done
	return 1
}

teardown() {
	fusermount3 -u "$TF_MNT" 2>/dev/null || kill "$TF_PID"
	wait "$TF_PID" 2>/dev/null || true
	rmdir "$TF_MNT"
}

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$TF_PID/status"; }

@test "buffer_size_kb allocates the pages at once, and a smaller size gives them back" {
	local before after smaller
	before=$(rss_kb)
	echo 16384 > "$TF_MNT/buffer_size_kb"
	after=$(rss_kb)
	echo "RSS: $before kB, then $after kB with 2 x 16 MiB of buffer"
	# two CPUs of 16 MiB each, before a single event is written
	[ $((after - before)) -ge 32768 ]
	echo 100 > "$TF_MNT/buffer_size_kb"
	smaller=$(rss_kb)
	echo "RSS: $smaller kB at 100 kB per CPU"
	[ $((after - smaller)) -ge 32768 ]
}

@test "a size the machine's available memory cannot hold is ENOMEM, and nothing changes" {
	local avail
	avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	echo 2000 > "$TF_MNT/buffer_size_kb"
	run w "$TF_MNT/buffer_size_kb" "$avail"
	assert_output "Cannot allocate memory"
	run w "$TF_MNT/per_cpu/cpu1/buffer_size_kb" "$((avail * 2))"
	assert_output "Cannot allocate memory"
	[ "$(cat "$TF_MNT/buffer_size_kb")" = 2000 ]
	[ "$(cat "$TF_MNT/per_cpu/cpu1/buffer_size_kb")" = 2000 ]
	# the daemon did not grow by what it refused
	[ "$(rss_kb)" -lt $((2000 * 2 * 2 + 262144)) ]
}
