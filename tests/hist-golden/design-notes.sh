# SPDX-License-Identifier: GPL-2.0
# every command sequence of Documentation/trace/histogram-design.rst
# (reference/histogram-design.txt), in its order, with the hist_debug
# files it shows (a kernel with CONFIG_HIST_TRIGGERS_DEBUG); the
# removals are the document's own (some name no trigger: as written)
t=${TMPDIR:-/tmp}
W() { printf '%s' "$2" > $t/in; if dd if=$t/in bs=4M 2>$t/e >> "$1"; then echo "OK $2"; else echo "ERR $2: $(grep -v 'records\|bytes copied' $t/e | sed 's/.*: //')"; fi; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
D() { echo "--- cat $1:"; cat "$1"; echo "--- end"; }
WK=events/sched/sched_waking
SW=events/sched/sched_switch
KM=events/kmem/kmalloc
echo "## basic"
W $WK/trigger 'hist:keys=pid'
D $WK/hist_debug
W $WK/trigger '!hist:keys=pid'
echo "## kmalloc"
W $KM/trigger 'hist:keys=common_pid,call_site.sym:values=bytes_req,bytes_alloc,hitcount'
D $KM/hist_debug
W $KM/trigger '!hist:keys=common_pid,call_site.sym:values=bytes_req,bytes_alloc,hitcount'
echo "## variables"
W $WK/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
W $SW/trigger 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0'
D $WK/hist_debug
D $SW/hist_debug
W $SW/trigger '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0'
W $WK/trigger '!hist:keys=pid:ts0=common_timestamp.usecs'
echo "## actions and handlers: onmatch() and trace()"
W synthetic_events 'wakeup_latency u64 lat; pid_t pid; char comm[16]'
W $WK/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
W $SW/trigger 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)'
D $WK/hist_debug
D $SW/hist_debug
W $SW/trigger '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)'
W $WK/trigger '!hist:keys=pid:ts0=common_timestamp.usecs'
W synthetic_events '!wakeup_latency u64 lat; pid_t pid; char comm[16]'
echo "## onmax() and save()"
W $WK/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
W $SW/trigger 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)'
D $WK/hist_debug
D $SW/hist_debug
W $SW/trigger '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)'
W $WK/trigger '!hist:keys=pid:ts0=common_timestamp.usecs'
echo "## a field variable from the matching event (prio)"
W synthetic_events 'wakeup_latency u64 lat; pid_t pid; int prio'
W $WK/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
W $SW/trigger 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio)'
D $WK/hist_debug
D $SW/hist_debug
W $SW/trigger '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio)'
W $WK/trigger '!hist:keys=pid:ts0=common_timestamp.usecs'
W synthetic_events '!wakeup_latency u64 lat; pid_t pid; int prio'
echo "## an alias"
W synthetic_events 'wakeup_latency u64 lat; pid_t pid; char comm[16]'
W $WK/trigger 'hist:keys=pid:waking_pid=pid:ts0=common_timestamp.usecs'
W $SW/trigger 'hist:keys=next_pid:woken_pid=$waking_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$woken_pid,next_comm)'
D $WK/hist_debug
D $SW/hist_debug
W $SW/trigger '!hist:keys=next_pid:woken_pid=$waking_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$woken_pid,next_comm)'
W $WK/trigger '!hist:keys=pid:ts0=common_timestamp.usecs'
W synthetic_events '!wakeup_latency u64 lat; pid_t pid; char comm[16]'
echo "## what is left"
D $WK/trigger
D $SW/trigger
D synthetic_events
W $WK/trigger '!hist:keys=pid:waking_pid=pid:ts0=common_timestamp.usecs'
W synthetic_events '!wakeup_latency u64 lat; pid_t pid; char comm[16]'
D $WK/trigger
D synthetic_events
