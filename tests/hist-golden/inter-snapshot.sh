# SPDX-License-Identifier: GPL-2.0
# onmax()/onchange() with snapshot(): when the buffers swap, the hist
# file's "Snapshot taken" block, snapshot writes refused meanwhile,
# one conditional snapshot per trace array
t=${TMPDIR:-/tmp}
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
W() { printf '%s' "$2" > $t/in; if dd if=$t/in bs=4M 2>$t/e >> "$1"; then echo "OK $2"; else echo "ERR $2: $(grep -v 'records\|bytes copied' $t/e | sed 's/.*: //')"; fi; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
m() { echo -n "$1" > trace_marker; }
mi() { echo -n "$1" > instances/x/trace_marker; }

P() { sed -E 's/(\[[0-9]{3}\] .)N/\1./; s/pid: +[0-9]+/pid: P/g; s/^ +[^ ]+-[0-9]+ +/TASK-PID /; s/\[ +[0-9]+\]/[PID]/g' "$@"; }
T=events/ftrace/print/trigger
echo "## F: snapshot"
W $T 'hist:keys=common_pid:ts1=common_timestamp:clock=counter if buf ~ "s*"'
W $T 'hist:keys=common_pid:d=common_timestamp-$ts1:clock=counter:onmax($d).snapshot() if buf ~ "e*"'
C $T
C snapshot
m s1; m x; m e1; m s2; m x; m x; m e2; m s3; m e3
P events/ftrace/print/hist
echo "--- snapshot:"; P snapshot
echo "--- trace:"; P trace
W snapshot 1
W snapshot 0
W snapshot 2
W $T 'hist:keys=common_pid:d2=common_timestamp-$ts1:clock=counter:onchange($d2).snapshot() if buf ~ "e*"'
mkdir instances/x
W instances/x/events/ftrace/print/trigger 'hist:keys=common_pid:t=common_timestamp:clock=counter if buf ~ "s*"'
W instances/x/events/ftrace/print/trigger 'hist:keys=common_pid:d=common_timestamp-$t:clock=counter:onchange($d).snapshot() if buf ~ "e*"'

mi s4; mi e4; mi s5; mi x; mi e5
echo "--- x snapshot:"; P instances/x/snapshot
P instances/x/events/ftrace/print/hist
W $T '!hist:keys=common_pid:d=common_timestamp-$ts1:clock=counter:onmax($d).snapshot() if buf ~ "e*"'
C snapshot | head -8
W snapshot 0
C snapshot | head -8
echo "## onmax snapshot with an execname key"
W $T 'hist:keys=common_pid.execname:d=common_timestamp-$ts1:clock=counter:onmax($d).snapshot() if buf ~ "e*"'
m s6; m x; m e6
P events/ftrace/print/hist
echo "## the instance keeps its own"
W instances/x/snapshot 1
W instances/x/events/ftrace/print/trigger '!hist:keys=common_pid:d=common_timestamp-$t:clock=counter:onchange($d).snapshot() if buf ~ "e*"'
W instances/x/events/ftrace/print/trigger '!hist:keys=common_pid:t=common_timestamp:clock=counter if buf ~ "s*"'
rmdir instances/x && echo rmdir-ok
clr() { for f in "$@"; do for p in 1 2 3 4 5; do grep -v '^#' $f | sed -E 's/ \[(active|paused)\]$//' | tac | while IFS= read -r l; do printf '%s' "!$l" > $t/rm; dd if=$t/rm of=$f oflag=append conv=notrunc 2>/dev/null; done; done; done; echo > error_log; }
clr $T
W snapshot 0
C $T
