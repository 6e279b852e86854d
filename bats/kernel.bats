#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kernel.bats - the live kernel source (--source kernel) and
# `tracefuse run`.  Every test needs root and a usable host tracefs
# (mountable, with instances/); without one they skip and say why.

setup_file() {
	ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
	export ROOT
	HOST="$BATS_FILE_TMPDIR/host"	# the real tracefs, to look at
	export HOST
	mkdir -p "$HOST"
	HOST_SKIP=
	if [ "$(id -u)" != 0 ]; then
		HOST_SKIP="needs root (the live source writes the host tracefs)"
	elif ! mount -t tracefs nodev "$HOST" 2>/dev/null; then
		HOST_SKIP="the host tracefs cannot be mounted here"
	elif [ ! -d "$HOST/instances" ] || [ ! -e "$HOST/events/sched/sched_process_exec/enable" ]; then
		HOST_SKIP="the host tracefs has no instances/ or no sched events"
	elif ! mkdir "$HOST/instances/tracefuse-bats-probe" 2>/dev/null; then
		HOST_SKIP="cannot create instances on the host tracefs"
	else
		rmdir "$HOST/instances/tracefuse-bats-probe"
	fi
	export HOST_SKIP
}

teardown_file() {
	umount "$HOST" 2>/dev/null || true
}

setup() {
	[ -z "$HOST_SKIP" ] || skip "$HOST_SKIP"
	MNT="$(mktemp -d)"
	LOG="$MNT.log"
}

teardown() {
	cd /
	[ -n "${MNT:-}" ] || return 0
	if [ -n "${PID:-}" ]; then
		fusermount3 -u "$MNT" 2>/dev/null || kill "$PID" 2>/dev/null
		wait "$PID" 2>/dev/null || true
	fi
	rmdir "$MNT" 2>/dev/null || true
	rm -f "$LOG"
}

# start [options]: tracefuse --source kernel in the foreground, on $MNT
start() {
	"$ROOT/tracefuse" -f --source kernel "$@" "$MNT" 2>"$LOG" &
	PID=$!
	for _ in $(seq 200); do
		[ -e "$MNT/events/sched/sched_process_exec/enable" ] && break
		sleep 0.05
	done
	[ -e "$MNT/events/sched/sched_process_exec/enable" ]
	INST="$HOST/instances/tracefuse-$PID"
}

# host_events: what the private host instance has enabled, sorted
host_events() { sort "$INST/set_event"; }

@test "the exec of /bin/true is in trace when it is read: 200 iterations" {
	# a copy of our own: the live source sees every exec on the host,
	# and another test run may exec /bin/true meanwhile
	local t=$BATS_TEST_TMPDIR/tftrue
	cp /bin/true "$t"
	start
	echo 1 > "$MNT/events/sched/sched_process_exec/enable"
	local fail=0 i n
	for i in $(seq 200); do
		"$t"
		n=$(grep -c "tftrue-[0-9]*  *\[[0-9]*\] .* sched_process_exec: filename=$t pid=" "$MNT/trace")
		if [ "$n" -ne "$i" ]; then
			echo "iteration $i: $n exec lines of /bin/true" >&2
			fail=$((fail + 1))
		fi
	done
	[ "$fail" -eq 0 ]
}

@test "the host instance enables exactly what the tree needs, and goes on unmount" {
	start
	[ -d "$INST" ]
	[ -z "$(host_events)" ]
	echo 1 > "$MNT/events/sched/sched_process_exec/enable"
	[ "$(host_events)" = "sched:sched_process_exec" ]
	# an instance of the tree needs its events too
	mkdir "$MNT/instances/foo"
	echo 1 > "$MNT/instances/foo/events/sched/sched_switch/enable"
	[ "$(host_events | tr '\n' ' ')" = "sched:sched_process_exec sched:sched_switch " ]
	echo 0 > "$MNT/events/sched/sched_process_exec/enable"
	[ "$(host_events)" = "sched:sched_switch" ]
	rmdir "$MNT/instances/foo"
	[ -z "$(host_events)" ]
	# nothing outside the instance is touched
	[ "$(cat "$HOST/events/sched/sched_switch/enable")" = 0 ]
	fusermount3 -u "$MNT"
	wait "$PID"
	PID=
	[ ! -e "$INST" ]
}

@test "an event a trigger enables (soft mode) is enabled on the host" {
	start
	echo 'enable_event:sched:sched_process_fork' > "$MNT/events/sched/sched_process_exec/trigger"
	# (an exec may already have fired it: then 1*)
	[[ "$(cat "$MNT/events/sched/sched_process_fork/enable")" == [01]"*" ]]
	host_events | grep -qx "sched:sched_process_fork"
	host_events | grep -qx "sched:sched_process_exec"
	# without the trigger, the fork event stays enabled if an exec fired
	# it meanwhile (the kernel's rule): the host follows the tree
	echo '!enable_event:sched:sched_process_fork' > "$MNT/events/sched/sched_process_exec/trigger"
	if [ "$(cat "$MNT/events/sched/sched_process_fork/enable")" = 1 ]; then
		[ "$(host_events)" = "sched:sched_process_fork" ]
	else
		[ -z "$(host_events)" ]
	fi
	echo 0 > "$MNT/events/sched/sched_process_fork/enable"
	[ -z "$(host_events)" ]
}

@test "a stacktrace trigger on a live event records the kernel stack the host gives" {
	start
	cd "$MNT"
	echo stacktrace > events/sched/sched_process_exec/trigger
	echo 1 > events/sched/sched_process_exec/enable
	# the host instance writes kernel_stack records after each event
	[ "$(cat "$INST/options/stacktrace")" = 1 ]
	/bin/true
	run grep -A12 'filename=/bin/true ' trace
	[ "$status" -eq 0 ]
	echo "$output"
	[[ "$output" == *": <stack trace>"* ]]
	[[ "$output" == *" => bprm_execve"* ]]
	echo '!stacktrace' >> events/sched/sched_process_exec/trigger
	for _ in $(seq 40); do
		[ "$(cat "$INST/options/stacktrace")" = 0 ] && break
		sleep 0.05
	done
	[ "$(cat "$INST/options/stacktrace")" = 0 ]
}

@test "an instance left by a dead tracefuse is removed at start" {
	sh -c 'exit 0' &
	local dead=$!
	wait "$dead"
	mkdir "$HOST/instances/tracefuse-$dead"
	start
	[ ! -e "$HOST/instances/tracefuse-$dead" ]
	grep -q "removed the host instance tracefuse-$dead" "$LOG"
}

@test "tracefuse does not see its own threads (sched_switch, sched_waking)" {
	start
	echo 1 > "$MNT/events/sched/sched_switch/enable"
	echo 1 > "$MNT/events/sched/sched_waking/enable"
	for _ in $(seq 20); do cat "$MNT/trace" > /dev/null; sleep 0.05; done
	local tids
	tids=$(ls /proc/$PID/task | tr '\n' '|')
	tids=${tids%|}
	run grep -cE "^ *[^ ]+-($tids) |next_pid=($tids) |comm=[^ ]+ pid=($tids) " "$MNT/trace"
	[ "$output" = 0 ] || { echo "tids $tids"; grep -E "^ *[^ ]+-($tids) |next_pid=($tids) |comm=[^ ]+ pid=($tids) " "$MNT/trace" | head; false; }
	# the others' are there
	grep -q "sched_switch:" "$MNT/trace"
}

@test "events the host buffer lost show in per_cpu stats and in the log" {
	start
	echo 8 > "$INST/buffer_size_kb"		# a tiny host buffer
	echo 1 > "$MNT/events/raw_syscalls/enable"
	dd if=/dev/zero of=/dev/null bs=1 count=300000 2>/dev/null
	sleep 1.5
	local lost
	lost=$(cat "$MNT"/per_cpu/cpu*/stats | awk '/^dropped events:/ {s += $3} END {print s}')
	[ "$lost" -gt 0 ]
	grep -q "kernel source: cpu[0-9]*: [0-9]* events lost in the host buffer" "$LOG"
}

@test "the live source's records print as the kernel's (comm of an exec)" {
	start
	echo 1 > "$MNT/events/sched/sched_process_exec/enable"
	echo 1 > "$MNT/events/sched/sched_process_exit/enable"
	sh -c 'exec /bin/sleep 0'
	grep -qE "^ +sleep-[0-9]+ +\[[0-9]{3}\] [.a-zA-Z0-9]{5} +[0-9]+\.[0-9]{6}: sched_process_exec: filename=/bin/sleep pid=[0-9]+ old_pid=[0-9]+$" "$MNT/trace"
	grep -qE "sleep-[0-9]+ .* sched_process_exit: comm=sleep pid=" "$MNT/trace"
}

@test "tracefuse run: COMMAND sees tracefuse at /sys/kernel/tracing; its status is returned" {
	local before after
	before=$(ls "$HOST/instances" | grep "^tracefuse-" | sort)
	run "$ROOT/tracefuse" run -e sched:sched_process_exec -- sh -c '
		/bin/true
		grep -c "sched_process_exec: filename=/bin/true" /sys/kernel/tracing/trace
		# the first tracefs line of /proc/mounts: tracefuse
		grep -m1 tracefs /proc/mounts | cut -d" " -f2,3
		exit 7'
	[ "$status" -eq 7 ]
	[ "${lines[0]}" = 1 ]
	[ "${lines[1]}" = "/sys/kernel/tracing fuse.tracefuse" ]
	# outside, nothing changed, and the instance is gone
	! grep -q " /sys/kernel/tracing fuse.tracefuse" /proc/mounts || false
	after=$(ls "$HOST/instances" | grep "^tracefuse-" | sort)
	[ -z "$(comm -13 <(echo "$before") <(echo "$after"))" ]
}

@test "tracefuse run: a script hard-coding /sys/kernel/tracing runs unchanged" {
	run "$ROOT/tracefuse" run -- sh -c '
		cd /sys/kernel/tracing || exit 1
		echo sched:sched_process_exec > set_event
		echo > trace
		/bin/true
		grep -c "true-.*sched_process_exec" trace
		cat set_event'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 1 ]
	[ "${lines[1]}" = "sched:sched_process_exec" ]
}

@test "tracefuse run without a command prints its usage" {
	run "$ROOT/tracefuse" run
	[ "$status" -eq 2 ]
	[[ "$output" == *"Usage: tracefuse run"* ]]
}
