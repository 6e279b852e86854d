# SPDX-License-Identifier: GPL-2.0
# hist_debug of histograms with variables, references, field variables,
# aliases, expressions and actions (a kernel with CONFIG_HIST_TRIGGERS_DEBUG)
t=${TMPDIR:-/tmp}
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
W() { printf '%s' "$2" > $t/in; if dd if=$t/in bs=4M 2>$t/e >> "$1"; then echo "OK $2"; else echo "ERR $2: $(grep -v 'records\|bytes copied' $t/e | sed 's/.*: //')"; fi; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
D() { echo "--- cat $1:"; cat "$1"; echo "--- end"; }
clr() { for f in "$@"; do for p in 1 2 3 4 5; do grep -v '^#' $f | sed -E 's/ \[(active|paused)\]$//' | tac | while IFS= read -r l; do printf '%s' "!$l" > $t/rm; dd if=$t/rm of=$f oflag=append conv=notrunc 2>/dev/null; done; done; done; echo > error_log; }
T=events/ftrace/print/trigger
S1=events/synthetic/s1/trigger
W synthetic_events 's1 int pid; u64 val'
W synthetic_events 'ev2 u64 lat; u64 val; int pid'
W synthetic_events 'ev3 char comm[]; u64 x'
W $T 'hist:keys=common_pid:t0=common_timestamp.usecs,k=7,al=$t0:onmatch(ftrace.print).s1(common_pid,$t0) if buf == "a"'
W $S1 'hist:keys=pid:t1=common_timestamp.usecs'
W $T 'hist:keys=common_pid:l=common_timestamp.usecs-$t1:onmatch(synthetic.s1).ev2($l,val,common_pid) if buf == "e"'
W $T 'hist:keys=common_pid.execname:c=common_pid.execname:vals=hitcount,$k if buf == "g"'
W $T 'hist:keys=common_pid:d=common_timestamp.usecs-$t0,n=-($k),q=$k/3:onmax($d).save(ip,common_pid):onchange($d).ev3($c,$d) if buf == "f"'
W $T 'hist:keys=common_pid:e=common_timestamp.usecs-$t0:onchange($e).snapshot() if buf == "h"'
W events/synthetic/ev2/trigger 'hist:keys=pid,lat:vals=val:sort=lat'
D events/ftrace/print/hist_debug
D events/synthetic/s1/hist_debug
D events/synthetic/ev2/hist_debug
C $S1
clr events/synthetic/ev2/trigger $T $S1
W synthetic_events '!s1'
W synthetic_events '!ev2'
W synthetic_events '!ev3'
echo 0 > snapshot
