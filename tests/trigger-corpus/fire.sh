# SPDX-License-Identifier: GPL-2.0
# trigger firing: what triggers do when their event fires (oracle, 6.12).
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
T() { local f=$1; A "$@"; sed 's/^/  | /' "$f"; }
EN() { for e in "$@"; do printf '  enable %s = %s\n' "$e" "$(cat events/$e/enable)"; done; }
M() { printf '%s' "$1" > trace_marker 2>/tmp/e || echo "  marker $1: $(sed 's/.*: //' /tmp/e)"; }
TR() { echo "  trace:"; grep -v '^#' ${1:-trace} | sed -E 's/^ *.{16}-[0-9]+ +\[[0-9]+\] ....\. +[0-9.]+: /    /'; }
SNAP() { echo "  snapshot state: $(grep -E 'Snapshot is|^# \* ' snapshot | head -1)"; }
PR=events/ftrace/print/trigger
FK=events/sched/sched_process_fork/trigger
echo "##### traceoff is a post trigger"
echo > trace
T $PR 'traceoff:1 if buf == "off"'
M hello; M off; M after
echo "tracing_on=$(cat tracing_on)"; TR
C $PR
A $PR '!traceoff'
echo 1 > tracing_on
echo "##### traceon with tracing off (marker)"
T $PR 'traceon:2'
echo 0 > tracing_on
M m1; echo "tracing_on=$(cat tracing_on)"; C $PR
echo 1 > tracing_on
M m2; C $PR
A $PR '!traceon'
echo "##### traceon on fork with tracing off"
echo > trace
T $FK 'traceon:3'
EN sched/sched_process_fork
echo 0 > tracing_on
/bin/true
echo "tracing_on=$(cat tracing_on)"; C $FK
/bin/true
C $FK
echo 0 > tracing_on; /bin/true; echo "tracing_on=$(cat tracing_on)"; C $FK
A $FK '!traceon'
T $FK 'traceon if child_pid > 0'
echo 0 > tracing_on; /bin/true; echo "tracing_on=$(cat tracing_on)"
A $FK '!traceon'
echo 1 > tracing_on
TR
echo "##### traceoff unlimited vs count when already off"
T $PR 'traceoff:2 if buf == "x"'
M a; M x; echo "tracing_on=$(cat tracing_on)"; C $PR
echo 1 > tracing_on; M x; C $PR
echo 1 > tracing_on; M x; C $PR
echo "tracing_on=$(cat tracing_on)"
echo 1 > tracing_on
A $PR '!traceoff'
echo "##### enable_event counts"
echo > trace
T $PR 'enable_event:sched:sched_wakeup:2'
EN sched/sched_wakeup
M e1; EN sched/sched_wakeup; C $PR
M e2; EN sched/sched_wakeup; C $PR
T $PR 'disable_event:sched:sched_waking:2'
M e3; C $PR; EN sched/sched_waking
A $PR '!enable_event:sched:sched_wakeup'
A $PR '!disable_event:sched:sched_waking'
EN sched/sched_wakeup sched/sched_waking
echo 1 > events/sched/sched_waking/enable; EN sched/sched_waking
T $PR 'disable_event:sched:sched_waking:1'
EN sched/sched_waking
M d1; C $PR; EN sched/sched_waking
M d2; C $PR; EN sched/sched_waking
A $PR '!disable_event:sched:sched_waking'
EN sched/sched_waking
echo 0 > events/sched/sched_waking/enable; EN sched/sched_waking
echo "## enable_event then disable_event on the same target from two events"
T $PR 'enable_event:sched:sched_process_exec:1 if buf == "on"'
T $FK 'disable_event:sched:sched_process_exec'
M on; EN sched/sched_process_exec; C $PR
/bin/true; EN sched/sched_process_exec; C $FK
A $PR '!enable_event:sched:sched_process_exec'; EN sched/sched_process_exec
A $FK '!disable_event:sched:sched_process_exec'; EN sched/sched_process_exec
echo "## enable_event fired then trigger removed"
T $PR 'enable_event:sched:sched_process_exec'
M z; EN sched/sched_process_exec
A $PR '!enable_event:sched:sched_process_exec'; EN sched/sched_process_exec
C set_event
echo 0 > events/sched/sched_process_exec/enable; EN sched/sched_process_exec
echo "##### stacktrace"
echo > trace
T $PR 'stacktrace:1'
M s1; M s2
TR | head -40
C $PR
A $PR '!stacktrace'
echo > trace
T $PR 'stacktrace if buf == "s"'
M q; M s
TR | sed -n 1,3p
A $PR '!stacktrace'
echo "##### snapshot"
SNAP
T $PR 'snapshot:1 if buf == "snap"'
SNAP
echo > trace
M before; M snap; M after
echo "trace:"; TR
echo "snapshot:"; TR snapshot
C $PR
W snapshot 0
SNAP
M snap2
W snapshot 1
A $PR '!snapshot'
SNAP
W snapshot 0
SNAP
echo "## snapshot trigger with the snapshot freed"
T $PR 'snapshot'
SNAP
A $PR '!snapshot'
SNAP
echo "##### enable_hist / disable_hist"
KS=events/sched/sched_kthread_stop/trigger
T $KS 'hist:keys=pid'
T $KS 'hist:keys=comm'
T $PR 'disable_hist:sched:sched_kthread_stop:1 if buf == "p"'
EN sched/sched_kthread_stop
M x; C $PR; C $KS
M p; C $PR; C $KS
M p; C $PR
T $PR 'enable_hist:sched:sched_kthread_stop:2 if buf == "u"'
M u; C $PR; C $KS
M u; C $PR; C $KS
M u; C $PR
A $PR '!enable_hist:sched:sched_kthread_stop'
A $PR '!disable_hist:sched:sched_kthread_stop'
W $KS 'traceon'
C $KS
A $KS '!traceon'
EN sched/sched_kthread_stop
C set_event
echo "##### self-targeting enable_event"
echo > trace
T $FK 'enable_event:sched:sched_process_fork:1'
/bin/true; /bin/true
EN sched/sched_process_fork
TR | sed -E 's/[0-9]+/N/g' | sort | uniq -c
A $FK '!enable_event:sched:sched_process_fork'
EN sched/sched_process_fork
echo 0 > events/sched/sched_process_fork/enable
echo "##### instance"
mkdir instances/ti
I=instances/ti/events/ftrace/print/trigger
C $I
T $I 'traceoff if buf == "io"'
C $PR
printf io > instances/ti/trace_marker
echo "top tracing_on=$(cat tracing_on) inst tracing_on=$(cat instances/ti/tracing_on)"
T instances/ti/events/sched/sched_process_fork/trigger 'enable_event:sched:sched_wakeup'
echo "inst: $(cat instances/ti/events/sched/sched_wakeup/enable) top: $(cat events/sched/sched_wakeup/enable)"
T instances/ti/events/sched/sched_process_fork/trigger 'snapshot'
rmdir instances/ti; echo "rmdir rc=$?"
echo "top wakeup: $(cat events/sched/sched_wakeup/enable)"
echo done
