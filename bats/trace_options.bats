#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# trace_options.bats - the output options (irq-info, record-tgid,
# context-info, latency-format, verbose) and trace_clock change what
# trace, trace_pipe and per_cpu trace print, as the kernel's do
# (tests/oracle/trace-options.sh compares the same with Linux 6.12; here
# injected records with known contents and timestamps).

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject

setup() { tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none; }
teardown() { tf_umount; }

SW='sched:sched_switch pid=12 comm=bash prev_comm=bash prev_pid=12 prev_prio=120 prev_state=1 next_comm=swapper/0 next_pid=0 next_prio=120'

inject() { "$INJECT" "$TF_MNT"; }

@test "irq-info, record-tgid and context-info change the header and the line" {
	cd "$TF_MNT"
	echo 1 > events/sched/sched_switch/enable
	echo "$SW ts=1000000 common_flags=1 common_preempt_count=2" | inject
	run bash -c '
		echo 0 > options/irq-info; tail -n 3 trace
		echo noirq-info > trace_options; echo 1 > options/record-tgid
		tail -n 3 trace
		echo irq-info > trace_options; tail -n 9 trace | head -n 1
		tail -n 3 trace
		echo 0 > options/context-info; cat trace
		echo 0 > options/record-tgid
		dd if=trace_pipe bs=64k count=1 status=none'
	assert_success
	assert_output "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION
#              | |         |         |         |
            bash-12      [000]      0.001000: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
#           TASK-PID       TGID    CPU#     TIMESTAMP  FUNCTION
#              | |           |       |         |         |
            bash-12      (-------) [000]      0.001000: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
#                                          _-----=> irqs-off/BH-disabled
#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION
#              | |           |       |   |||||     |         |
            bash-12      (-------) [000] d..2.     0.001000: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
# tracer: nop
#
sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
}

@test "record-tgid: a writer's tgid is saved while an event is enabled, and saved_tgids lists it" {
	cd "$TF_MNT"
	run bash -c '
		echo 1 > options/record-tgid
		echo before > trace_marker; grep -c "(-------) .*: before" trace
		wc -l < saved_tgids
		echo 1 > events/sched/sched_switch/enable
		echo after > trace_marker
		grep -c "($(printf "%7d" $$)) \[000\] .*: after" trace
		grep -c "^$$ $$\$" saved_tgids
		echo 0 > options/record-tgid; echo 1 > options/record-tgid
		grep -c "($(printf "%7d" $$)) \[000\] .*: before" trace'
	assert_success
	# the tgid is looked up when printed, as the kernel's tgid_map is
	assert_output "1
0
1
1
1"
}

@test "latency-format: the latency header and times from the last reset" {
	cd "$TF_MNT"
	echo 1 > events/sched/sched_switch/enable
	run bash -c '
		echo 1 > options/latency-format; cat trace; echo --
		echo counter > trace_clock; echo > trace
		printf "%s ts=1\n%s ts=2 common_flags=0x8\n" "$1" "$1" |
			"$2" "$PWD"
		cat trace; echo --
		dd if=trace_pipe bs=64k count=1 status=none; echo --
		echo 1 > options/verbose; echo "$1" | "$2" "$PWD"
		tail -n 1 trace' _ "$SW" "$INJECT"
	assert_success
	# counter: 1, 2 set the clock; 3 is the reset; the records 4 and 5
	assert_output "# tracer: nop
#
--
# tracer: nop
#
# nop latency trace v1.1.5 on 6.12.117+deb12-cloud-amd64
# --------------------------------------------------------------------
# latency: 0 us, #2/2, CPU#0 | (M:desktop VP:0, KP:0, SP:0 HP:0 #P:1)
#    -----------------
#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)
#    -----------------
#
#                    _------=> CPU#            
#                   / _-----=> irqs-off/BH-disabled
#                  | / _----=> need-resched    
#                  || / _---=> hardirq/softirq 
#                  ||| / _--=> preempt-depth   
#                  |||| / _-=> migrate-disable 
#                  ||||| /     delay           
#  cmd     pid     |||||| time  |   caller     
#     \\   /        ||||||  \\    |    /       
    bash-12        0.....    1: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
    bash-12        0..h..    2: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
--
    bash-12        0.....    1: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
    bash-12        0..h..    2: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
--
            bash      12   0 0 00000000 00000000 [0000000000000006] 3 (+0): sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
}

@test "latency-format names the host's release when the formats do not name theirs" {
	fmt=$BATS_FILE_TMPDIR/formats
	mkdir -p "$fmt/ftrace"
	cp -r "$TF_FORMATS_612"/header_page "$TF_FORMATS_612"/header_event "$fmt/"
	cp -r "$TF_FORMATS_612"/ftrace/print "$fmt/ftrace/"
	tf_umount
	tf_mount --formats "$fmt" --cpus 1 --source none
	cd "$TF_MNT"
	echo 1 > options/latency-format
	echo lat > trace_marker
	run grep -c "^# nop latency trace v1.1.5 on $(uname -r)\$" trace
	assert_output 1
}

@test "trace_clock: ns clocks keep a record's timestamp, counter stamps it as recorded" {
	cd "$TF_MNT"
	echo 1 > events/sched/sched_switch/enable
	mkdir instances/c
	echo 1 > instances/c/events/sched/sched_switch/enable
	run bash -c '
		for c in global mono boot tai; do
			echo $c > trace_clock; echo "$1 ts=1.000002" | "$2" "$PWD"
			grep -o "\] \.\.\.\.\. .*: sched" trace
		done
		echo > trace; echo counter > instances/c/trace_clock
		printf "%s ts=4000\n%s ts=5000\n" "$1" "$1" | "$2" "$PWD"
		grep -o "\] \.\.\.\.\. .*: sched" trace instances/c/trace
		cat instances/c/trace_clock trace_clock
		echo counter > trace_clock; echo "$1" | "$2" "$PWD"
		grep -o "\] \.\.\.\.\. .*: sched" trace instances/c/trace' \
		_ "$SW" "$INJECT"
	assert_success
	# the instance stamps in arrival order: 1 and 2 were its clock's
	# change; the counter is one for all trace arrays: 5 and 6 are the
	# top level's change, then the top level stamps first
	assert_output "] .....     1.000002: sched
] .....     1.000002: sched
] .....     1.000002: sched
] .....     1.000002: sched
trace:] .....     0.000004: sched
trace:] .....     0.000005: sched
instances/c/trace:] .....            3: sched
instances/c/trace:] .....            4: sched
local global [counter] uptime perf mono mono_raw boot tai x86-tsc
local global counter uptime perf mono mono_raw boot [tai] x86-tsc
trace:] .....            7: sched
instances/c/trace:] .....            3: sched
instances/c/trace:] .....            4: sched
instances/c/trace:] .....            8: sched"
}

@test "trace_clock uptime and x86-tsc print integer counts" {
	cd "$TF_MNT"
	run bash -c '
		echo uptime > trace_clock; echo u > trace_marker
		up=$(cut -d" " -f1 /proc/uptime | tr -d .)
		ts=$(grep -o "\.\.\.\.\. *[0-9]*: tracing_mark_write: u" trace |
			grep -o "[0-9]*:" | tr -d :)
		# USER_HZ ticks since boot (monotonic, so no more than uptime)
		[ "$ts" -gt 0 ] && [ "$ts" -le "$up" ] && echo uptime ok
		echo x86-tsc > trace_clock; echo t > trace_marker
		grep -cE "\.{5} +[0-9]+: tracing_mark_write: t" trace'
	assert_success
	assert_output "uptime ok
1"
}

@test "a hist's common_timestamp under the counter clock is the record's count" {
	cd "$TF_MNT"
	echo 1 > events/sched/sched_switch/enable
	echo 'hist:keys=common_timestamp:clock=counter' > events/sched/sched_switch/trigger
	printf '%s ts=1\n%s ts=1\n' "$SW" "$SW" | inject
	run bash -c "grep -E '^\\{' events/sched/sched_switch/hist | sort
		grep -oE ' +[0-9]+: sched' trace"
	assert_output "{ common_timestamp:          3 } hitcount:          1
{ common_timestamp:          4 } hitcount:          1
            3: sched
            4: sched"
}
