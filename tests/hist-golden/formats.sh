# SPDX-License-Identifier: GPL-2.0
# hist output formats: .sym/.syscall on plain numbers, hitcount key, percent/graph scaling, log2, buckets, drops
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
T=events/ftrace/print/trigger
H=events/ftrace/print/hist
mk() { ( for i in $(seq $1); do echo -n "$2" > trace_marker; done ); }
echo 'hist:keys=common_pid.sym:vals=hitcount' >> $T
echo 'hist:keys=common_pid.sym-offset' >> $T
echo 'hist:keys=common_pid.syscall:sort=common_pid' >> $T
echo 'hist:keys=hitcount,common_pid:sort=common_pid' >> $T
echo 'hist:keys=common_pid:vals=hitcount.hex,common_pid.hex,common_pid.percent:sort=common_pid' >> $T
echo 'hist:keys=common_pid.log2:vals=common_pid.graph,hitcount.graph' >> $T
echo 'hist:keys=common_pid.buckets=7,common_flags:vals=common_pid.percent:sort=common_pid.descending,hitcount' >> $T
echo 'hist:keys=common_pid:vals=common_preempt_count.percent,common_preempt_count.graph:sort=common_pid' >> $T
echo 'hist:keys=common_pid:vals=hitcount,common_pid*2,common_pid:sort=common_pid' >> $T
echo 'hist:keys=common_type.execname:vals=common_pid.usecs' >> $T
echo 'hist:keys=common_pid.execname,common_type:sort=hitcount.descending,common_pid' >> $T
mk 1 a; mk 2 b; mk 3 c; mk 1 d; mk 5 e; mk 3 f; mk 2 g; mk 1 h; mk 4 i; mk 3 j
C $T
C $H
echo '> '$T; echo > $T
echo 'hist:keys=common_pid:size=128' >> $T
echo 'hist:keys=common_pid.log2:sort=common_pid' >> $T
echo 'hist:keys=common_pid.buckets=50:sort=common_pid' >> $T
for i in $(seq 140); do (echo -n x > trace_marker); done
C $H
echo > $T
echo '## execname of the idle task and a sched key'
echo 'hist:keys=prev_pid.execname,next_pid:vals=hitcount:sort=prev_pid,next_pid if prev_pid == 0' >> events/sched/sched_switch/trigger
echo 'hist:keys=common_pid.execname:sort=common_pid if prev_pid == 0 && common_pid == 0' >> events/sched/sched_switch/trigger
sleep 0.2
C events/sched/sched_switch/trigger
cat events/sched/sched_switch/hist | head -12
echo > events/sched/sched_switch/trigger
