#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# concurrency.bats - many readers at once, as hostile but fair programs
# use a mount: several threads reading one descriptor (tests/pread_race.c,
# also against a daemon built with AddressSanitizer and UBSan by
# scripts/sanitize-build.sh), and many readers blocked on trace_pipe
# while the rest of the tree keeps answering.

load helpers

setup_file() {
	PREAD_RACE=$BATS_FILE_TMPDIR/pread_race
	cc -O2 -pthread -o "$PREAD_RACE" "$TF_TOP/tests/pread_race.c"
	export PREAD_RACE
}

# start_daemon BIN [OPTIONS]: tracefuse in the foreground on TF_MNT, so
# that a test that wedges it can still end it (TF_PID).
start_daemon() {
	local bin=$1
	shift
	TF_MNT=$(mktemp -d "$BATS_TEST_TMPDIR/mnt.XXXXXX")
	"$bin" -f --source none --cpus 2 --formats "$TF_FORMATS_612" "$@" \
		"$TF_MNT" 2> "$BATS_TEST_TMPDIR/daemon.log" &
	TF_PID=$!
	for _ in $(seq 200); do
		[ -e "$TF_MNT/trace_marker" ] && return 0
		sleep 0.05
	done
	return 1
}

stop_daemon() {
	[ -n "${TF_PID:-}" ] || return 0
	fusermount3 -u "$TF_MNT" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$TF_PID" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$TF_PID" 2>/dev/null; then
		kill -9 "$TF_PID"
		umount -l "$TF_MNT" 2>/dev/null || fusermount3 -uz "$TF_MNT"
	fi
	wait "$TF_PID" 2>/dev/null || true
	rmdir "$TF_MNT" 2>/dev/null || true
	TF_PID=
}

teardown() {
	cd /
	# readers left by a failed test, then the daemon
	[ -z "${READERS:-}" ] || kill -9 $READERS 2>/dev/null || true
	stop_daemon
}

# fill: 20,000 trace_marker lines, a snapshot of them, 5,000 more, and a
# hist on ftrace:print
fill() {
	cd "$TF_MNT"
	echo 2048 > buffer_size_kb
	echo 'hist:keys=common_pid' > events/ftrace/print/trigger
	exec 7> trace_marker
	for i in $(seq 20000); do echo "line $i" >&7; done
	echo 1 > snapshot
	for i in $(seq 5000); do echo "after $((i % 7))" >&7; done
	exec 7>&-
	cd /
}

RACE_FILES="trace snapshot per_cpu/cpu0/trace events/ftrace/print/hist
	available_events events/sched/sched_switch/format set_event README"

race() {
	local f files=
	for f in $RACE_FILES; do files="$files $TF_MNT/$f"; done
	run "$PREAD_RACE" 6 "$1" $files
	echo "$output"
	assert_success
	assert_output --regexp ' 0 bad$'
	kill -0 "$TF_PID"
}

@test "six threads reading one descriptor each of eight files get the file's text" {
	start_daemon "$TF_BIN"
	fill
	[ "$(wc -l < "$TF_MNT/trace")" -gt 5000 ]
	[ "$(wc -l < "$TF_MNT/snapshot")" -gt 19000 ]
	race 5
}

@test "the same under AddressSanitizer and UBSan: no report, no leak" {
	local bin
	bin=$("$TF_TOP/scripts/sanitize-build.sh" asan) ||
		fail "cannot build with -fsanitize=address,undefined"
	ASAN_OPTIONS=log_path=$BATS_TEST_TMPDIR/asan \
	UBSAN_OPTIONS=print_stacktrace=1:log_path=$BATS_TEST_TMPDIR/ubsan \
		start_daemon "$bin"
	fill
	race 10
	stop_daemon
	cat "$BATS_TEST_TMPDIR"/asan.* "$BATS_TEST_TMPDIR"/ubsan.* 2>/dev/null |
		head -60
	! ls "$BATS_TEST_TMPDIR"/asan.* "$BATS_TEST_TMPDIR"/ubsan.* 2>/dev/null
}
