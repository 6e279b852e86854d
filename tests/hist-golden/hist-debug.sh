# SPDX-License-Identifier: GPL-2.0
# hist_debug for histograms without variables (run with: kernel-oracle -k custom,
# a 6.12 kernel with CONFIG_HIST_TRIGGERS_DEBUG).  hist_data: is the kernel's
# hashed pointer (%p): compare it up to renaming (bats/hist.bats).
T=events/ftrace/print/trigger
echo 'hist:keys=common_pid' >> $T
echo 'hist:keys=common_pid.execname,ip.sym-offset:vals=common_preempt_count,hitcount.percent:sort=ip' >> $T
echo 'hist:keys=common_stacktrace,common_cpu:vals=common_timestamp.usecs' >> $T
echo 'hist:keys=common_pid.log2,common_flags.buckets=4:vals=common_pid*2,common_pid.graph:nohitcount' >> $T
echo 'hist:keys=common_pid+1:vals=-(common_pid)' >> $T
echo 'hist:keys=common_pid:vals=3*4' >> $T
echo 'hist:name=dbg:keys=common_pid' >> $T
echo 'hist:name=dbg:keys=common_pid if common_pid > 1' >> $T
echo 'hist:keys=parent_comm,child_pid' >> events/sched/sched_process_fork/trigger
echo 'hist:keys=filename' >> events/sched/sched_process_exec/trigger
echo 'hist:keys=id.syscall:vals=args' >> events/raw_syscalls/sys_enter/trigger 2>&1
echo '==== print'
cat events/ftrace/print/hist_debug
echo '==== fork'
cat events/sched/sched_process_fork/hist_debug
echo '==== exec'
cat events/sched/sched_process_exec/hist_debug
echo '==== sys_enter'
cat events/raw_syscalls/sys_enter/trigger
