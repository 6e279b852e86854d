#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# example-trigger-script.sh - what a user's script does in a tracing
# directory; run by demo.sh inside the tracefuse mount.
set -eu
echo "== $(wc -l < available_events) events, e.g.:"; head -3 available_events
echo "== events/sched/sched_switch/format:"; head -12 events/sched/sched_switch/format
echo 1 > events/sched/sched_switch/enable
echo 'irq:*' >> set_event
echo '!irq:softirq_raise' >> set_event
echo "== set_event:"; cat set_event
echo "== events/sched/enable: $(cat events/sched/enable)  events/irq/enable: $(cat events/irq/enable)"
echo 'prev_pid == 1 || next_comm ~ "kworker*"' > events/sched/sched_switch/filter
echo "== filter: $(cat events/sched/sched_switch/filter)"
if ! echo 'prev_pid == 1 ||' > events/sched/sched_switch/filter 2>/dev/null; then
	echo "== a bad filter is refused; the file and error_log say why:"
	cat events/sched/sched_switch/filter; cat error_log
fi
echo $$ > set_event_pid; echo 123 244 1 >> set_event_pid
echo "== set_event_pid:"; cat set_event_pid
echo > set_event_pid
# A histogram over real events: syscalls per process.  With demo.sh's
# replay of the bundled sample (start=read), the replay runs at the first
# read of hist or trace, so the trigger set here sees every record.
echo 'hist:keys=common_pid.execname:vals=hitcount:sort=hitcount.descending' \
	> events/raw_syscalls/sys_enter/trigger
echo "== events/raw_syscalls/sys_enter/trigger: $(cat events/raw_syscalls/sys_enter/trigger)"
echo "== events/raw_syscalls/sys_enter/hist (top 10):"
head -n 15 events/raw_syscalls/sys_enter/hist
echo "..."; tail -n 5 events/raw_syscalls/sys_enter/hist
echo "hello from the example script" > trace_marker
echo "== trace (sched_switch filtered, and the marker):"; head -n 24 trace
echo "..."; tail -n 3 trace
echo > set_event
echo '!hist:keys=common_pid.execname:vals=hitcount:sort=hitcount.descending' \
	>> events/raw_syscalls/sys_enter/trigger
