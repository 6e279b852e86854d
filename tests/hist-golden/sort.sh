# SPDX-License-Identifier: GPL-2.0
# sort orders and ties (one and two sort keys), named histograms across events, instances
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
T=events/ftrace/print/trigger
H=events/ftrace/print/hist
mk() { ( for i in $(seq $1); do echo -n "$2" > trace_marker; done ); }
echo 'hist:keys=common_pid.buckets=4:vals=common_pid:sort=hitcount,common_pid.descending' >> $T
echo 'hist:keys=common_pid.buckets=4:vals=common_pid:sort=common_pid.descending,hitcount' >> $T
echo 'hist:keys=common_pid:vals=common_preempt_count:sort=common_preempt_count' >> $T
echo 'hist:keys=common_pid:vals=common_preempt_count:sort=common_preempt_count.descending' >> $T
echo 'hist:keys=common_pid:sort=hitcount.descending' >> $T
echo 'hist:keys=common_pid,common_flags:sort=common_flags,hitcount.descending' >> $T
echo 'hist:keys=common_pid.hex:vals=hitcount:sort=common_pid.descending' >> $T
echo 'hist:name=shared:keys=common_pid' >> $T
echo 'hist:name=shared:keys=common_pid' >> events/sched/sched_process_fork/trigger
for n in 3 1 4 1 5 9 2 6 5 3 5 8 9 7 9 3 2 3 8 4 6 2 6 4 3 3 8 3 2 7 9 5; do mk $n p; done
C $T
C $H
C events/sched/sched_process_fork/trigger
echo '--- fork hist pids only:'
grep -c common_pid events/sched/sched_process_fork/hist
echo '## instance'
mkdir instances/foo
echo 'hist:keys=common_pid:vals=hitcount' > instances/foo/events/ftrace/print/trigger
echo 'hist:name=shared:keys=common_pid' >> instances/foo/events/ftrace/print/trigger
echo 'hist:name=shared:keys=common_pid:vals=common_preempt_count' >> instances/foo/events/ftrace/print/trigger 2>&1
sed -E 's/^\[ *[0-9.]+\] //' instances/foo/error_log
mk 2 q
C instances/foo/events/ftrace/print/trigger
C instances/foo/events/ftrace/print/hist
echo > $T
echo '## after > on top-level print, the fork side of shared:'
C events/sched/sched_process_fork/trigger
echo 'hist:name=shared:keys=common_pid:clear' >> events/sched/sched_process_fork/trigger
C instances/foo/events/ftrace/print/hist
echo 'disable_hist:ftrace:print' >> events/sched/sched_process_exec/trigger
C events/sched/sched_process_exec/trigger
/bin/true
C instances/foo/events/ftrace/print/trigger
C events/sched/sched_process_fork/trigger
