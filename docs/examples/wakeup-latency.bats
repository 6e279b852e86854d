#!/usr/bin/env bats
#
# wakeup-latency.bats - a user's regression tests for a trigger script
# (wakeup-latency.sh, beside it), on a fresh tracefuse per test: known
# events in, the histogram checked.  Run it with `bats wakeup-latency.bats`
# (TRACEFUSE=/path/to/tracefuse to test a build that is not on $PATH).

load "$("${TRACEFUSE:-tracefuse}" --bats-helper)"

setup() {
	tracefuse_setup --source none	# no live events: only those injected
	SCRIPT=$BATS_TEST_DIRNAME/wakeup-latency.sh
}

teardown() {
	tracefuse_teardown
}

# one wakeup and switch per line pair; times in seconds, as trace prints them
events() {
	tracefuse_inject <<-'EOF'
	sched:sched_waking ts=1.000000 pid=42 comm=worker
	sched:sched_switch ts=1.000150 next_pid=42 next_comm=worker
	sched:sched_waking ts=2.000000 pid=42 comm=worker
	sched:sched_switch ts=2.000150 next_pid=42 next_comm=worker
	sched:sched_waking ts=3.000000 pid=7 comm=other
	sched:sched_switch ts=3.002000 next_pid=7 next_comm=other
	EOF
}

@test "latencies are keyed by pid, in microseconds" {
	"$SCRIPT" "$TRACEFS"
	events
	assert_hist_entry events/synthetic/wakeup_latency/hist '{ pid: 42, lat: 150 }' 'hitcount: 2'
	assert_hist_entry events/synthetic/wakeup_latency/hist '{ pid: 7, lat: 2000 }' 'hitcount: 1'
	assert_hist_totals events/synthetic/wakeup_latency/hist 'Hits: 3' 'Entries: 2' 'Dropped: 0'
	assert_error_log_empty
}

@test "a switch without a wakeup before it makes no latency" {
	"$SCRIPT" "$TRACEFS"
	tracefuse_inject <<-'EOF'
	sched:sched_switch ts=1.000150 next_pid=42 next_comm=worker
	EOF
	assert_hist_totals events/synthetic/wakeup_latency/hist 'Hits: 0' 'Entries: 0'
	# the switch's own histogram drops it too: $ts0 has no value for pid 42
	refute_hist_entry events/sched/sched_switch/hist '{ next_pid: 42 }'
}

@test "with a comm, only that task's latencies are kept" {
	"$SCRIPT" "$TRACEFS" worker
	events
	assert_hist_entry events/synthetic/wakeup_latency/hist '{ pid: 42, lat: 150 }' 'hitcount: 2'
	refute_hist_entry events/synthetic/wakeup_latency/hist '{ pid: 7, lat: 2000 }'
}

@test "the triggers read back as the kernel shows them" {
	"$SCRIPT" "$TRACEFS"
	assert_trigger events/sched/sched_waking/trigger \
		'hist:keys=pid:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:size=2048:clock=global [active]'
	assert_trigger events/synthetic/wakeup_latency/trigger \
		'hist:keys=pid,lat:vals=hitcount:sort=pid,lat:size=2048 [active]'
	assert_no_trigger events/sched/sched_wakeup/trigger
}

@test "running the script twice fails, and the kernel says why" {
	"$SCRIPT" "$TRACEFS"
	run "$SCRIPT" "$TRACEFS"
	[ "$status" -ne 0 ]
	assert_error_log_contains 'synthetic_events: error: Event already exists' \
		'  Command: wakeup_latency u64 lat; pid_t pid'
}
