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

# short_raw_reads N: N reads of 20 bytes from each CPU's trace_pipe_raw,
# too short for any record: each must read nothing
short_raw_reads() {
	python3 - "$TF_MNT" "$1" <<-'EOF'
		import os, sys
		for cpu in (0, 1):
		    fd = os.open(f"{sys.argv[1]}/per_cpu/cpu{cpu}/trace_pipe_raw", os.O_RDONLY)
		    for _ in range(int(sys.argv[2])):
		        assert os.read(fd, 20) == b""
		    os.close(fd)
	EOF
}

@test "trace_pipe_raw reads too short for the first event keep no memory: 5,000 of them" {
	local before after
	for cpu in 0 1; do
		taskset -c "$cpu" sh -c "echo 'a record on cpu $cpu' > '$TF_MNT/trace_marker'"
	done
	short_raw_reads 100	# warm up
	before=$(rss_kb)
	short_raw_reads 2500
	after=$(rss_kb)
	echo "RSS: $before kB before, $after kB after"
	[ $((after - before)) -lt 4096 ]
	# the records are still there for a read with room
	[ "$(grep -c 'a record on cpu' "$TF_MNT/trace")" = 2 ]
}
