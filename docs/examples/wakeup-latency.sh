#!/bin/sh
# wakeup-latency.sh TRACING_DIR [COMM]: the time from a task's wakeup to
# its running, per pid, as a histogram of a synthetic event (the
# kernel's Documentation/trace/histogram.rst example).  With COMM, only
# tasks of that name.  An example of a user's trigger script: its tests
# are wakeup-latency.bats, beside it.
set -eu
T=${1:?usage: wakeup-latency.sh TRACING_DIR [COMM]}
filter=${2:+ if comm == \"$2\"}

echo 'wakeup_latency u64 lat; pid_t pid' >> "$T/synthetic_events"
echo "hist:keys=pid:ts0=common_timestamp.usecs$filter" \
	>> "$T/events/sched/sched_waking/trigger"
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid)' \
	>> "$T/events/sched/sched_switch/trigger"
echo 'hist:keys=pid,lat:sort=pid,lat' \
	>> "$T/events/synthetic/wakeup_latency/trigger"
