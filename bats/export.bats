#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# export.bats - `tracefuse export --perfetto`: events injected with known
# timestamps, exported, and decoded by protoc (Debian's protobuf-compiler)
# against the .proto the exporter is built from (src/cli/
# perfetto_trace.proto: Perfetto's published field numbers); the decoded
# text is compared with goldens in tests/export/.  The read path is
# trace_pipe_raw (tests/test_raw_page.c checks its pages).
#
# Needs FUSE, a built ./tracefuse and protoc.

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject
GOLD=$TF_TOP/tests/export

setup() {
	command -v protoc >/dev/null || skip "protoc missing (apt-get install protobuf-compiler)"
	OUT=$BATS_TEST_TMPDIR/out.pftrace
}

teardown() {
	tf_umount
}

decode() {
	protoc --decode=perfetto.protos.Trace -I "$TF_TOP/src/cli" \
		"$TF_TOP/src/cli/perfetto_trace.proto" < "$1"
}

# The oracle kernel's formats plus a module's events that follow
# Perfetto's kernel track-event convention (tests/export/kte).
kte_formats() {
	KTE=$BATS_TEST_TMPDIR/formats
	cp -r "$TF_FORMATS_612" "$KTE"
	cp -r "$GOLD/kte" "$KTE/"
	printf 'kte:%s\n' slice cpu_slice counter proc_counter >> "$KTE/available_events"
}

@test "export: sched, print and other events, per CPU with their fields, decode with protoc as the golden" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 2 --source none
	echo 1 > "$TF_MNT/events/sched/enable"
	echo 1 > "$TF_MNT/events/raw_syscalls/enable"
	"$INJECT" "$TF_MNT" < "$GOLD/basic.txt"
	run "$TF_BIN" export --perfetto "$OUT" "$TF_MNT"
	[ "$status" -eq 0 ]
	[ "$output" = "tracefuse export: 8 events from 2 CPUs (0 lost before reading), 0 slice and 0 counter events on 0 tracks to $OUT" ]
	decode "$OUT" > "$BATS_TEST_TMPDIR/got"
	diff -u "$GOLD/basic.out" "$BATS_TEST_TMPDIR/got"
}

@test "export: track-event convention events become slices, instants and counters on the convention's tracks (golden)" {
	kte_formats
	tf_mount --formats "$KTE" --cpus 2 --source none
	echo 1 > "$TF_MNT/events/kte/enable"
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	"$INJECT" "$TF_MNT" < "$GOLD/convention.txt"
	run "$TF_BIN" export --perfetto "$OUT" "$TF_MNT"
	[ "$status" -eq 0 ]
	[ "$output" = "tracefuse export: 13 events from 2 CPUs (0 lost before reading), 7 slice and 4 counter events on 10 tracks (some track_event_type values were not B, E or I) to $OUT" ]
	decode "$OUT" > "$BATS_TEST_TMPDIR/got"
	diff -u "$GOLD/convention.out" "$BATS_TEST_TMPDIR/got"
}

@test "export: the events are consumed, as trace-cmd extract consumes them" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 2 --source none
	echo 1 > "$TF_MNT/events/sched/enable"
	"$INJECT" "$TF_MNT" < "$GOLD/basic.txt"
	"$TF_BIN" export --perfetto "$OUT" "$TF_MNT" 2>/dev/null
	run "$TF_BIN" export --perfetto "$OUT" "$TF_MNT"
	[ "$status" -eq 0 ]
	[ "$output" = "tracefuse export: 0 events from 2 CPUs (0 lost before reading), 0 slice and 0 counter events on 0 tracks to $OUT" ]
	run grep -vc '^#' "$TF_MNT/trace"
	[ "$output" = 0 ]
}

@test "export: --snapshot exports the snapshot buffer, --instance an instance's" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	echo 'sched:sched_switch ts=100 prev_pid=7 next_pid=8' | "$INJECT" "$TF_MNT"
	echo 1 > "$TF_MNT/snapshot"
	echo 'sched:sched_switch ts=200 prev_pid=9 next_pid=10' | "$INJECT" "$TF_MNT"
	mkdir "$TF_MNT/instances/foo"
	echo 1 > "$TF_MNT/instances/foo/events/sched/sched_switch/enable"
	echo 'sched:sched_switch ts=300 prev_pid=11 next_pid=12' | "$INJECT" "$TF_MNT"
	"$TF_BIN" export --perfetto "$OUT" --snapshot "$TF_MNT" 2>/dev/null
	run decode "$OUT"
	[ "$(echo "$output" | grep -c 'timestamp:')" -eq 1 ]
	echo "$output" | grep -q 'prev_pid: 7'
	"$TF_BIN" export --perfetto "$OUT" --instance foo "$TF_MNT" 2>/dev/null
	run decode "$OUT"
	[ "$(echo "$output" | grep -c 'timestamp:')" -eq 1 ]
	echo "$output" | grep -q 'prev_pid: 11'
	"$TF_BIN" export --perfetto "$OUT" "$TF_MNT" 2>/dev/null
	run decode "$OUT"
	[ "$(echo "$output" | grep -c 'timestamp:')" -eq 2 ]
	rmdir "$TF_MNT/instances/foo"
}

@test "export: events lost to overwriting are counted; bad usage and a non-tracefs directory fail" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	echo 8 > "$TF_MNT/buffer_size_kb"
	for i in $(seq 1 1000); do
		echo "sched:sched_switch ts=$i prev_pid=$i next_pid=0"
	done | "$INJECT" "$TF_MNT"
	run "$TF_BIN" export --perfetto "$OUT" "$TF_MNT"
	[ "$status" -eq 0 ]
	# a full page has no room for the count: flagged, not counted
	[ "$output" = "tracefuse export: 160 events from 1 CPUs (0 lost before reading, and an uncounted number before 1 pages), 0 slice and 0 counter events on 0 tracks to $OUT" ]
	run grep '^overrun:' "$TF_MNT/per_cpu/cpu0/stats"
	[ "$output" = "overrun: 840" ]
	run "$TF_BIN" export "$TF_MNT"
	[ "$status" -eq 2 ]
	run "$TF_BIN" export --perfetto "$OUT" "$BATS_TEST_TMPDIR"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot read the event formats"* ]]
}
