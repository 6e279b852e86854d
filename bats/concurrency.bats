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

# start_asan_daemon: start_daemon with the ASan and UBSan build of
# scripts/sanitize-build.sh, its reports going to the test's directory
start_asan_daemon() {
	local bin
	bin=$("$TF_TOP/scripts/sanitize-build.sh" asan) ||
		fail "cannot build with -fsanitize=address,undefined"
	ASAN_OPTIONS=log_path=$BATS_TEST_TMPDIR/asan \
	UBSAN_OPTIONS=print_stacktrace=1:log_path=$BATS_TEST_TMPDIR/ubsan \
		start_daemon "$bin"
}

# no_sanitizer_report: after stop_daemon, shows each ASan or UBSan
# report the daemon wrote and fails if there is any
no_sanitizer_report() {
	local f found=0

	for f in "$BATS_TEST_TMPDIR"/asan.* "$BATS_TEST_TMPDIR"/ubsan.*; do
		[ -e "$f" ] || continue
		head -60 "$f"
		found=1
	done
	[ "$found" -eq 0 ]
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
	start_asan_daemon
	fill
	race 10
	stop_daemon
	no_sanitizer_report
}

# ms_to_read FILE: the milliseconds one open and read of FILE take (a
# builtin read: no fork in the measure), after a cat that must end
# within 5 s, so that a wedged mount fails rather than hangs the test
ms_to_read() {
	local t0 t1 x
	timeout 5 cat "$1" > /dev/null || return 1
	t0=$EPOCHREALTIME
	IFS= read -r -d '' x < "$1"
	t1=$EPOCHREALTIME
	echo $(( (${t1/./} - ${t0/./}) / 1000 ))
}

# all_gone PIDS: whether every PID exits within 3 s
all_gone() {
	for _ in $(seq 60); do
		kill -0 "$@" 2>/dev/null || return 0
		local alive=
		for p in "$@"; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
		[ -n "$alive" ] || return 0
		sleep 0.05
	done
	echo "still running:$alive"
	return 1
}

@test "a named hist kept by one instance after the instance that made it is removed: read under ASan, no report" {
	start_asan_daemon
	cd "$TF_MNT"
	mkdir instances/i1 instances/i2
	# i2 makes "shared", i1 uses it too; i2 goes (6.12 lets it)
	echo 'hist:name=shared:keys=common_type' > instances/i2/events/ftrace/print/trigger
	echo 'hist:name=shared:keys=common_type' >> instances/i1/events/ftrace/print/trigger
	echo -n a > instances/i1/trace_marker
	echo -n b > instances/i2/trace_marker
	rmdir instances/i2
	run cat instances/i1/events/ftrace/print/hist
	assert_output --partial 'Hits: 2'
	echo -n c > instances/i1/trace_marker
	run cat instances/i1/events/ftrace/print/hist
	assert_output --partial 'Hits: 3'
	echo '!hist:name=shared:keys=common_type' >> instances/i1/events/ftrace/print/trigger
	rmdir instances/i1
	cd /
	stop_daemon
	no_sanitizer_report
}

@test "64 readers blocked on trace_pipe: other requests answer within 100 ms, a record wakes one, signals end them" {
	local i f ms worst=0
	start_daemon "$TF_BIN"
	mkdir "$TF_MNT/instances/side" "$TF_MNT/instances/other"
	READERS=
	# the top's, an instance's and another's per-CPU trace_pipe (the
	# libfuse loop runs at most 16 worker threads); one open file each,
	# as the kernel lets one open trace_pipe read a CPU, shared by 16
	# readers
	exec 5< "$TF_MNT/trace_pipe" 6< "$TF_MNT/instances/side/trace_pipe" \
		7< "$TF_MNT/instances/other/per_cpu/cpu0/trace_pipe" \
		8< "$TF_MNT/instances/other/per_cpu/cpu1/trace_pipe"
	for i in $(seq 64); do
		cat <&$((5 + i % 4)) > "$BATS_TEST_TMPDIR/reader.$i" 2>&1 &
		READERS="$READERS $!"
	done
	exec 5<&- 6<&- 7<&- 8<&-
	sleep 1
	for f in tracing_on buffer_size_kb set_event events/sched/enable; do
		ms=$(ms_to_read "$TF_MNT/$f") || fail "cat $f hangs"
		echo "cat $f: $ms ms"
		[ "$ms" -le "$worst" ] || worst=$ms
	done
	timeout 5 sh -c "echo 1 > '$TF_MNT/events/sched/sched_switch/enable'" ||
		fail "a write hangs"
	[ "$worst" -lt 100 ]
	# a record still reaches a blocked reader of its buffer
	echo wake-up > "$TF_MNT/instances/side/trace_marker"
	for _ in $(seq 100); do
		grep -qs wake-up "$BATS_TEST_TMPDIR"/reader.* && break
		sleep 0.05
	done
	grep -l wake-up "$BATS_TEST_TMPDIR"/reader.*
	# SIGTERM ends every reader: its read is interrupted
	kill -TERM $READERS
	all_gone $READERS
	READERS=
	rmdir "$TF_MNT/instances/side" "$TF_MNT/instances/other"
}

@test "a blocked trace_pipe read answers a SIGKILLed reader, and a nonblocking read says EAGAIN" {
	start_daemon "$TF_BIN"
	cat "$TF_MNT/trace_pipe" > /dev/null &
	READERS=$!
	sleep 0.3
	kill -9 $READERS
	all_gone $READERS
	READERS=
	run python3 -c "
import os, errno
fd = os.open('$TF_MNT/trace_pipe', os.O_RDONLY | os.O_NONBLOCK)
try:
    os.read(fd, 4096)
except OSError as e:
    print(errno.errorcode[e.errno])
"
	assert_output EAGAIN
}
