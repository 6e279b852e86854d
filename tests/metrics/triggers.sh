# Hist triggers for bats/metrics.bats, run in the mount: every key
# modifier the parser reads back, values in hex, percent and graph,
# an onmax() with save(), an instance's histogram.
set -e
echo 'hist:keys=next_pid,next_comm:vals=hitcount,next_prio' > events/sched/sched_switch/trigger
echo 'hist:keys=common_pid.execname:vals=hitcount,prev_prio.hex:sort=common_pid' >> events/sched/sched_switch/trigger
echo 'hist:keys=prev_pid.log2:vals=hitcount,prev_prio.percent,prev_prio.graph' >> events/sched/sched_switch/trigger
echo 'hist:keys=prev_prio.buckets=50,prev_state.hex:vals=hitcount' >> events/sched/sched_switch/trigger
echo 'hist:keys=common_stacktrace:vals=hitcount' > events/sched/sched_waking/trigger
echo 'hist:keys=common_pid:vals=hitcount:t=common_timestamp:onmax($t).save(prio,pid)' >> events/sched/sched_waking/trigger
mkdir instances/foo
echo 'hist:keys=target_cpu:vals=hitcount,prio' > instances/foo/events/sched/sched_waking/trigger
echo 1 > instances/foo/events/sched/sched_waking/enable
