#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# pid_filter.bats - set_event_pid and set_event_notrace_pid as the
# kernel applies them (trace_events.c): sched_switch is kept when the
# previous or the next task passes, a wakeup when the waking or the
# woken task does; options/event-fork makes the lists follow forks and
# frees.  tests/oracle/event-fork.sh shows it on Linux 6.12 with real
# tasks (event-fork.out); here injected records of known pids check
# each rule, and live.bats runs real tasks through the live source.

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject

setup() {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	cd "$TF_MNT"
}

teardown() {
	cd /
	tf_umount
}

inject() { "$INJECT" "$TF_MNT"; }
fork() { echo "sched:sched_process_fork common_pid=$1 parent_pid=$1 parent_comm=sh child_pid=$2 child_comm=sh"; }
free() { echo "sched:sched_process_free common_pid=9 pid=$1 comm=sh"; }
pids() { tr '\n' ' ' < "$1"; }

@test "without event-fork a fork adds nothing" {
	echo 100 > set_event_pid
	fork 100 101 | inject
	[ "$(pids set_event_pid)" = "100 " ]
}

@test "event-fork: children of listed tasks join both lists, freed tasks leave them" {
	echo 100 > set_event_pid
	echo 300 > set_event_notrace_pid
	echo 1 > options/event-fork
	{ fork 100 102; fork 200 201; fork 300 301; fork 102 99; } | inject
	[ "$(pids set_event_pid)" = "99 100 102 " ]
	[ "$(pids set_event_notrace_pid)" = "300 301 " ]
	{ free 100; free 301; free 555; } | inject
	[ "$(pids set_event_pid)" = "99 102 " ]
	[ "$(pids set_event_notrace_pid)" = "300 " ]
	# off again: forks are not followed
	echo 0 > options/event-fork
	fork 300 302 | inject
	[ "$(pids set_event_notrace_pid)" = "300 " ]
}

@test "event-fork: a fork is filtered by its parent, and its child's events pass after it" {
	echo 100 > set_event_pid
	echo 1 > options/event-fork
	echo 1 > events/sched/sched_process_fork/enable
	{ fork 100 101; fork 101 102; fork 200 201; } | inject
	run sed -n 's/.*sched_process_fork: .* child_pid=//p' trace
	[ "$(echo $output)" = "101 102" ]
}

@test "event-fork: once its last task is freed, set_event_pid stays, empty, and lets nothing pass" {
	echo 100 > set_event_pid
	echo 1 > options/event-fork
	echo 1 > events/sched/sched_process_exec/enable
	free 100 | inject
	[ "$(cat set_event_pid)" = "" ]
	echo "sched:sched_process_exec common_pid=5 filename=/bin/true pid=5 old_pid=5" | inject
	run grep -c sched_process_exec trace
	[ "$output" = 0 ]
	# emptied by a write, the list goes: everything passes again
	echo > set_event_pid
	echo "sched:sched_process_exec common_pid=5 filename=/bin/true pid=5 old_pid=5" | inject
	run grep -c sched_process_exec trace
	[ "$output" = 1 ]
}

@test "sched_switch passes set_event_pid when the previous or the next task is listed" {
	echo 100 > set_event_pid
	echo 1 > events/sched/sched_switch/enable
	for s in "5 100" "100 6" "5 6" "100 100"; do
		set -- $s
		echo "sched:sched_switch common_pid=$1 prev_pid=$1 prev_comm=a next_pid=$2 next_comm=b"
	done | inject
	run sed -n 's/.*sched_switch: .*prev_pid=\([0-9]*\) .*next_pid=\([0-9]*\) .*/\1>\2/p' trace
	[ "$(echo $output)" = "5>100 100>6 100>100" ]
}

@test "sched_switch is dropped by set_event_notrace_pid only when both tasks are listed" {
	echo 7 > set_event_notrace_pid
	echo 1 > events/sched/sched_switch/enable
	for s in "7 8" "8 7" "7 7"; do
		set -- $s
		echo "sched:sched_switch common_pid=$1 prev_pid=$1 prev_comm=a next_pid=$2 next_comm=b"
	done | inject
	run sed -n 's/.*sched_switch: .*prev_pid=\([0-9]*\) .*next_pid=\([0-9]*\) .*/\1>\2/p' trace
	[ "$(echo $output)" = "7>8 8>7" ]
}

@test "both lists: a switch needs a listed task and one not in notrace" {
	echo 100 > set_event_pid
	echo 100 > set_event_notrace_pid
	echo 1 > events/sched/sched_switch/enable
	for s in "100 5" "100 100" "5 6"; do
		set -- $s
		echo "sched:sched_switch common_pid=$1 prev_pid=$1 prev_comm=a next_pid=$2 next_comm=b"
	done | inject
	run sed -n 's/.*sched_switch: .*prev_pid=\([0-9]*\) .*next_pid=\([0-9]*\) .*/\1>\2/p' trace
	[ "$(echo $output)" = "100>5" ]
}

@test "a wakeup passes when the waking or the woken task does (sched_wakeup, _new, sched_waking)" {
	echo 100 > set_event_pid
	echo 1 > events/sched/sched_wakeup/enable
	echo 1 > events/sched/sched_wakeup_new/enable
	echo 1 > events/sched/sched_waking/enable
	echo 1 > events/sched/sched_process_exec/enable
	for e in sched_wakeup sched_wakeup_new sched_waking; do
		echo "sched:$e common_pid=5 pid=100 comm=x"	# woken listed
		echo "sched:$e common_pid=100 pid=6 comm=y"	# waker listed
		echo "sched:$e common_pid=5 pid=6 comm=z"	# neither
	done | inject
	# any other event: only its own task counts
	echo "sched:sched_process_exec common_pid=5 filename=/x pid=100 old_pid=100" | inject
	run grep -c -E 'sched_wak(eup|eup_new|ing): comm=[xy] ' trace
	[ "$output" = 6 ]
	run grep -c -E 'comm=z |sched_process_exec' trace
	[ "$output" = 0 ]
}

@test "a waking by a task in set_event_notrace_pid is kept when the woken task is not listed" {
	echo 7 > set_event_notrace_pid
	echo 1 > events/sched/sched_waking/enable
	{
		echo "sched:sched_waking common_pid=7 pid=8 comm=kept"
		echo "sched:sched_waking common_pid=7 pid=7 comm=dropped"
	} | inject
	run grep -c 'comm=kept ' trace
	[ "$output" = 1 ]
	run grep -c 'comm=dropped ' trace
	[ "$output" = 0 ]
}
