#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# live.bats - the live kernel source answering as the kernel does: every
# file operation ordered after the events before it, pid following,
# the kernel's own text for syscall events.  Each shell sequence of the
# kernel-exactness issue is a test here, looped where timing could hide
# a miss.  Needs root and a usable host tracefs (mountable, with
# instances/); without one every test skips and says why.
#
# Reads use the shell's `read` (no fork): a `$(cat ...)` would fork,
# and a fork is an event of its own that the tests count or trigger on.

load helpers

setup_file() {
	HOST="$BATS_FILE_TMPDIR/host"	# the real tracefs
	export HOST
	mkdir -p "$HOST"
	HOST_SKIP=
	if [ "$(id -u)" != 0 ]; then
		HOST_SKIP="needs root (the live source writes the host tracefs)"
	elif ! mount -t tracefs nodev "$HOST" 2>/dev/null; then
		HOST_SKIP="the host tracefs cannot be mounted here"
	elif [ ! -d "$HOST/instances" ] || [ ! -e "$HOST/events/sched/sched_process_fork/enable" ] ||
	     [ ! -e "$HOST/events/syscalls/sys_enter_lseek/enable" ]; then
		HOST_SKIP="the host tracefs has no instances/, sched or syscall events"
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
	MNT=$(mktemp -d "$BATS_FILE_TMPDIR/mnt.XXXXXX")
	LOG="$MNT.log"
	HINST=
}

teardown() {
	cd /
	if [ -n "${HINST:-}" ]; then
		echo 0 > "$HINST/events/enable" 2>/dev/null
		rmdir "$HINST" 2>/dev/null || true
	fi
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
	"$TF_BIN" -f --source kernel "$@" "$MNT" 2>"$LOG" &
	PID=$!
	for _ in $(seq 200); do
		[ -e "$MNT/events/sched/sched_process_fork/enable" ] && break
		sleep 0.05
	done
	[ -e "$MNT/events/sched/sched_process_fork/enable" ]
	cd "$MNT"
}

# rd FILE: the first line of FILE, without forking
rd() { local v; read -r v < "$1"; echo "$v"; }

# The triggers fire on this shell's forks only: the machine's other
# processes fork too, and would fire them on time by chance.

@test "a traceoff trigger fired by a fork is seen by the next read of tracing_on: 200 iterations" {
	start
	local fail=0 i v
	for i in $(seq 200); do
		echo 1 > tracing_on
		echo "traceoff if common_pid == $BASHPID" > events/sched/sched_process_fork/trigger
		( : )
		read -r v < tracing_on
		[ "$v" = 0 ] || { echo "iteration $i: tracing_on $v" >&2; fail=$((fail + 1)); }
		echo '!traceoff' > events/sched/sched_process_fork/trigger
	done
	[ "$fail" -eq 0 ]
}

@test "an enable_event trigger fired by a fork is seen by the next read of enable: 200 iterations" {
	start
	local fail=0 i v
	for i in $(seq 200); do
		echo "enable_event:sched:sched_switch if common_pid == $BASHPID" > events/sched/sched_process_fork/trigger
		( : )
		read -r v < events/sched/sched_switch/enable
		[ "$v" = "1*" ] || { echo "iteration $i: enable $v" >&2; fail=$((fail + 1)); }
		echo '!enable_event:sched:sched_switch' > events/sched/sched_process_fork/trigger
		echo 0 > events/sched/sched_switch/enable
		read -r v < events/sched/sched_switch/enable
		[ "$v" = 0 ] || { echo "iteration $i: after, enable $v" >&2; fail=$((fail + 1)); }
	done
	[ "$fail" -eq 0 ]
}

@test "events before tracing_on is cleared are in trace: every kill of 200 iterations" {
	start
	echo $BASHPID > set_event_pid
	echo 1 > events/syscalls/sys_enter_kill/enable
	local fail=0 i n
	for i in $(seq 200); do
		echo > trace
		echo 1 > tracing_on
		kill -0 $$; kill -0 $$; kill -0 $$
		echo 0 > tracing_on
		kill -0 $$	# after: never recorded
		n=$(grep -c ": sys_kill(pid: " trace)
		[ "$n" -eq 3 ] || { echo "iteration $i: $n kills" >&2; fail=$((fail + 1)); }
	done
	[ "$fail" -eq 0 ]
}

@test "the issue's kmem_cache_free sequence records all that ls freed, as a host instance did: 100 iterations" {
	start
	HINST=$HOST/instances/tracefuse-bats-$$
	mkdir "$HINST"
	echo 1 > "$HINST/events/kmem/kmem_cache_free/enable"
	echo 1 > events/kmem/kmem_cache_free/enable
	local fail=0 i ls n host
	for i in $(seq 100); do
		echo > trace
		echo > "$HINST/trace"
		echo 1 > tracing_on; ls / >/dev/null & ls=$!; wait $ls
		echo 0 > tracing_on
		n=$(grep -c -- "-$ls *\[.*: kmem_cache_free: " trace)
		host=$(grep -c -- "-$ls *\[.*: kmem_cache_free: " "$HINST/trace")
		if [ "$n" -ne "$host" ] || [ "$n" -eq 0 ]; then
			echo "iteration $i: $n frees by ls, the host's $host" >&2
			fail=$((fail + 1))
		fi
	done
	[ "$fail" -eq 0 ]
}

@test "a hist paused after some lseeks has counted every one of them: 100 iterations" {
	start
	printf 'one\ntwo\nthree\n' > "$BATS_TEST_TMPDIR/f"
	echo 1 > events/syscalls/sys_enter_lseek/enable
	local fail=0 i me hits seen
	for i in $(seq 100); do
		echo > trace
		echo 'hist:keys=common_pid' > events/syscalls/sys_enter_lseek/trigger
		exec 7< "$BATS_TEST_TMPDIR/f"
		read -r -u 7 _; read -r -u 7 _
		exec 7<&-
		echo 'hist:keys=common_pid:pause' >> events/syscalls/sys_enter_lseek/trigger
		me=$BASHPID
		hits=$(sed -n "s/^{ common_pid: *$me } hitcount: *\([0-9]*\)$/\1/p" events/syscalls/sys_enter_lseek/hist)
		seen=$(grep -c "^ *[^ ]*-$me .*: sys_lseek(fd: 7," trace)
		if [ "${hits:-0}" -ne "$seen" ] || [ "$seen" -lt 2 ]; then
			echo "iteration $i: hist ${hits:-0}, trace $seen" >&2
			fail=$((fail + 1))
		fi
		echo '!hist:keys=common_pid' > events/syscalls/sys_enter_lseek/trigger
	done
	[ "$fail" -eq 0 ]
}

@test "a snapshot trigger armed after a fork keeps that fork in the snapshot: 100 iterations" {
	start
	echo 1 > events/sched/sched_process_fork/enable
	local fail=0 i first second n
	for i in $(seq 100); do
		echo 0 > snapshot
		echo > trace
		( echo $BASHPID > "$BATS_TEST_TMPDIR/first" )
		echo "snapshot:1 if common_pid == $BASHPID" > events/sched/sched_process_fork/trigger
		( echo $BASHPID > "$BATS_TEST_TMPDIR/second" )
		read -r first < "$BATS_TEST_TMPDIR/first"
		read -r second < "$BATS_TEST_TMPDIR/second"
		# the second fork fired it: both are in (a trigger with a
		# filter moves the event that fires it into the snapshot)
		n=$(grep -c -E "sched_process_fork: .* child_pid=($first|$second)$" snapshot)
		if [ "$n" -ne 2 ]; then
			echo "iteration $i: $n of the forks $first $second in snapshot" >&2
			grep -v '^#' snapshot | grep fork >&2
			echo "trace:" >&2; grep fork trace >&2
			fail=$((fail + 1))
		fi
		echo '!snapshot' > events/sched/sched_process_fork/trigger
	done
	[ "$fail" -eq 0 ]
}

@test "events are processed in time order across CPUs: a traceoff fired on one CPU stops the next event on another: 200 iterations" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	command -v python3 >/dev/null || skip "needs python3 (to move between CPUs at once)"
	start
	echo 1 > events/syscalls/sys_enter_kill/enable
	local fail=0 i n a b
	for i in $(seq 200); do
		a=$((i % 2)) b=$(((i + 1) % 2))
		echo > trace
		echo 1 > tracing_on
		echo 'traceoff if pid == 1' > events/syscalls/sys_enter_kill/trigger
		# kill(1, 0) on CPU a, then kill(2, 0) on CPU b, microseconds
		# apart: both wait in the host buffers for the same sweep
		python3 -c "import os
os.sched_setaffinity(0, {$a}); os.kill(1, 0)
os.sched_setaffinity(0, {$b}); os.kill(2, 0)"
		n=$(grep -c -E ": sys_kill\(pid: 2, sig: 0\)$" trace || true)
		[ "$n" -eq 0 ] || { echo "iteration $i: the kill after traceoff is in trace" >&2; fail=$((fail + 1)); }
		echo '!traceoff' > events/syscalls/sys_enter_kill/trigger
	done
	[ "$fail" -eq 0 ]
}

@test "options/event-fork: a child of a listed task is in set_event_pid as soon as it is forked, gone once freed: 100 iterations" {
	start
	echo $BASHPID > set_event_pid
	echo 1 > options/event-fork
	local fail=0 i c list
	for i in $(seq 100); do
		# a child that lives until it is checked: one that had ended
		# and been reaped (bash reaps in its SIGCHLD handler) before
		# the read would be gone on the kernel too
		sleep 60 & c=$!
		mapfile -t list < set_event_pid
		[[ " ${list[*]} " == *" $c "* ]] || { echo "iteration $i: $c not in ${list[*]}" >&2; fail=$((fail + 1)); }
		kill -KILL $c	# not TERM: a child not yet exec()ed runs bats' trap
		wait $c || true
	done
	[ "$fail" -eq 0 ]
	# freed after an RCU grace period: within a second
	for i in $(seq 50); do
		mapfile -t list < set_event_pid
		[[ " ${list[*]} " != *" $c "* ]] && break
		sleep 0.02
	done
	[[ " ${list[*]} " != *" $c "* ]]
	[[ " ${list[*]} " == *" $BASHPID "* ]]
	# followed, not traced: the fork and free events are not enabled
	run grep -c -E 'sched_process_(fork|free)' trace
	[ "$output" = 0 ]
}

@test "set_event_pid keeps the switches to a listed task and the wakeups of it, as the host kernel's does" {
	start
	HINST=$HOST/instances/tracefuse-bats-$$
	mkdir "$HINST"
	local s d
	sleep 0.3 & s=$!
	for d in "$HINST" .; do
		echo $s > $d/set_event_pid
		echo 1 > $d/events/sched/sched_switch/enable
		echo 1 > $d/events/sched/sched_waking/enable
	done
	wait $s
	for d in . "$HINST"; do
		echo 0 > $d/events/enable
		# from the sleeper's wakeup on: both were set up by then
		grep -v '^#' $d/trace | sed -n "/sched_waking: comm=sleep pid=$s /,\$ p" |
			sed -E 's/^ *.{1,16}-[0-9]+ +\[[0-9]+\] ..... +[0-9.]+: //' |
			# tracefuse leaves out its own threads (docs/sources.md)
			grep -v -E 'comm=(tf-kernel|tracefuse) ' \
			> "$BATS_TEST_TMPDIR/$([ $d = . ] && echo tf || echo host)" || true
	done
	# its waking is another task's, the switch to it the previous task's
	# (either may be a tracefuse thread's, and left out)
	grep -q -E "^sched_(waking: comm=sleep pid=$s |switch: .* next_pid=$s )" \
		"$BATS_TEST_TMPDIR/tf"
	diff "$BATS_TEST_TMPDIR/host" "$BATS_TEST_TMPDIR/tf"
}

# syscall-output.sh's output with its pids as PID and without the
# snapshot section (this host's kernel may lack the snapshot file)
syscall_norm() {
	local f=$1 p h
	for p in $(sed -n 's/^line=.* pid=//p' "$f"); do
		h=$(printf '%x' "$p")
		sed -i -E "s/pid: (0x)?$h, /pid: PID, /; s/ pid=$p\$/ pid=PID/" "$f"
	done
	sed -i '/^--- snapshot/,/^line=/{/^line=/!d}' "$f"
}

@test "syscall events of the live source print as the host kernel's own trace does (tests/oracle/syscall-output.sh)" {
	start
	HINST=$HOST/instances/tracefuse-bats-$$
	mkdir "$HINST"
	local script=$BATS_TEST_TMPDIR/syscall-output.sh
	sed "s#/tmp/#$BATS_TEST_TMPDIR/#g" "$TF_ORACLE/syscall-output.sh" > "$script"
	(cd "$HINST" && bash "$script") > "$BATS_TEST_TMPDIR/host" 2>&1
	(cd "$MNT" && bash "$script") > "$BATS_TEST_TMPDIR/tf" 2>&1
	syscall_norm "$BATS_TEST_TMPDIR/host"
	syscall_norm "$BATS_TEST_TMPDIR/tf"
	cat "$BATS_TEST_TMPDIR/tf"
	grep -q '^sys_lseek(fd: ' "$BATS_TEST_TMPDIR/tf"
	diff -u "$BATS_TEST_TMPDIR/host" "$BATS_TEST_TMPDIR/tf"
}

# the live source's own instance on the host
tf_inst() { echo "$HOST/instances/tracefuse-$PID"; }

@test "a .ustring filter matches on the live source as on the kernel: pushed down to the host, read back as written" {
	start
	local name=$BATS_TEST_TMPDIR/tf-pushdown-me
	echo 'filename.ustring ~ "*tf-pushdown-me*"' > events/syscalls/sys_enter_openat/filter
	echo 1 > events/syscalls/sys_enter_openat/enable
	[ "$(rd events/syscalls/sys_enter_openat/filter)" = 'filename.ustring ~ "*tf-pushdown-me*"' ]
	[ "$(rd "$(tf_inst)/events/syscalls/sys_enter_openat/filter")" = 'filename.ustring ~ "*tf-pushdown-me*"' ]
	local i n
	for i in $(seq 20); do
		: > "$name"		# the shell's own openat of it
		: > "$BATS_TEST_TMPDIR/other"
	done
	n=$(grep -c ': sys_openat(' trace)
	[ "$n" -eq 20 ]
}

@test "the host filter follows the tree: a trigger takes it away, different filters go as their union, user strings only alone" {
	start
	local f=events/syscalls/sys_enter_lseek/filter host
	host=$(tf_inst)/$f
	echo 'fd == 3' > $f
	echo 1 > events/syscalls/sys_enter_lseek/enable
	[ "$(rd "$host")" = 'fd == 3' ]
	# a trigger sees what the filter drops: nothing may be dropped
	echo traceon > events/syscalls/sys_enter_lseek/trigger
	[ "$(rd "$host")" = none ]
	echo '!traceon' > events/syscalls/sys_enter_lseek/trigger
	[ "$(rd "$host")" = 'fd == 3' ]
	# two trace arrays: the union, each filtering again
	mkdir instances/a
	echo 'fd == 4' > instances/a/$f
	echo 1 > instances/a/events/syscalls/sys_enter_lseek/enable
	[ "$(rd "$host")" = '(fd == 3) || (fd == 4)' ]
	exec 7< /etc/hostname; read -r -u 7 _ ; exec 7<&-
	run grep -c ': sys_lseek(fd: 7,' trace instances/a/trace
	[ "${lines[0]##*:}" = 0 ] && [ "${lines[1]##*:}" = 0 ]
	# an unfiltered trace array: nothing is pushed
	echo 0 > instances/a/$f
	[ "$(rd "$host")" = none ]
	rmdir instances/a
	[ "$(rd "$host")" = 'fd == 3' ]
	# user strings can only be pushed as they are
	echo 'filename.ustring ~ "*a*"' > events/syscalls/sys_enter_openat/filter
	echo 1 > events/syscalls/sys_enter_openat/enable
	mkdir instances/b
	echo 'dfd == 3' > instances/b/events/syscalls/sys_enter_openat/filter
	echo 1 > instances/b/events/syscalls/sys_enter_openat/enable
	[ "$(rd "$(tf_inst)/events/syscalls/sys_enter_openat/filter")" = none ]
}
