# SPDX-License-Identifier: GPL-2.0
# trigger corpus: run in a tracefs directory (the oracle's cwd, or a host
# instance dir).  Every write is exactly one write() (dd).
# Usage on the oracle: kernel-oracle tests/trigger-corpus/capture.sh
# Output lines: "A <file> <cmd> -> OK|<errno text>" then the trigger file.
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log:"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo "--- end"; : > error_log; }
# T: append one command, then show the trigger file
T() { local f=$1; A "$@"; sed 's/^/  | /' "$f"; }
EN() { for e in "$@"; do printf '  enable %s = %s\n' "$e" "$(cat events/$e/enable)"; done; }
SW=events/sched/sched_process_hang/trigger
WK=events/sched/sched_kthread_stop/trigger
PR=events/ftrace/print/trigger
: > error_log
echo "##### 1 empty"
C $SW
echo "##### 2 plain commands"
T $SW traceon
T $SW traceon
T $SW traceoff
T $SW '!traceoff'
T $SW 'traceoff:1'
T $SW '!traceoff:7 if pid == 1'
T $SW 'stacktrace'
T $SW 'stacktrace:3'
T $SW 'snapshot'
T $SW 'snapshot:2'
T $SW 'traceon:5 if pid == 1'
EN sched/sched_process_hang
C set_event
T $SW '!stacktrace'
T $SW '!snapshot:99'
T $SW '!traceon'
T $SW '!traceon'
EN sched/sched_process_hang
echo "##### 3 count parsing"
for c in 'traceon:0' 'traceon:1' 'traceon:0x10' 'traceon:010' 'traceon:5:6' 'traceon:5:abc' 'traceon:18446744073709551615' 'traceon:18446744073709551616' 'traceon:9223372036854775807' 'traceon:9223372036854775808' 'traceon:+5' 'traceon:-1' 'traceon:abc' 'traceon:' 'traceon: ' 'traceon 5' 'traceon	7' 'traceon:5abc' 'traceon:5 ' '  traceon:3  ' 'traceon:3 junk' 'traceon:3 if' 'traceon:3 if ' 'traceon:3 iff pid==1' 'traceon:unlimited' 'traceon:count=3' 'traceon:3 if pid==1 ' 'traceon:4  if   pid  ==  1' 'traceon if pid==1' 'traceon  if pid==1' 'traceon:if pid==1' 'traceon::3' 'traceon: 3' 'traceon:3	if	pid==1' 'traceon:1 if pid==1 && pid==2' 'traceon:1 if (pid==1) || comm == "foo"' 'traceon:1 if comm ~ "ba*"'; do
	T $SW "$c"
	A $SW '!traceon' > /dev/null
done
echo "##### 4 bad commands"
for c in '' ' ' '!' '!!traceon' 'nosuch' 'TRACEON' 'traceon_' 'trace' 'hist_' 'enable_event' 'enable_event:' 'enable_event:sched' 'enable_event:sched:' 'enable_event:sched:nosuch' 'enable_event:nosuch:sched_wakeup' 'enable_event::sched_wakeup' 'enable_event:sched:sched_wakeup:' 'enable_event:sched:sched_wakeup:abc' 'enable_event:sched:sched_wakeup:1:2' 'enable_event:sched:sched_wakeup if pid==1' 'enable_event:sched:*' 'enable_event:sched:sched_wak*' 'enable_event:ftrace:print' 'disable_event' 'enable_hist' 'enable_hist:sched' 'disable_hist:sched:nosuch' 'stacktrace:x' 'snapshot if' 'traceoff if nosuch==1' 'traceoff if pid' 'traceoff if pid==' 'traceoff if (pid==1' 'traceoff if pid==1)' 'traceoff if comm=="abc' 'traceoff if pid=="abc"' 'traceoff if comm==1' 'traceoff if pid==1 &&' 'traceoff if pid==1 junk' 'traceoff if pid=1' '!traceon' '!nosuch' '!enable_event:sched:nosuch' '!enable_event:sched:sched_wakeup' '!traceon:abc' '!traceon if junk junk'; do
	T $SW "$c"
done
EL
C $SW
echo "##### 5 enable_event family"
T $SW 'enable_event:sched:sched_wakeup'
EN sched/sched_process_hang sched/sched_wakeup
T $SW 'enable_event:sched:sched_wakeup:3'
T $SW 'disable_event:sched:sched_wakeup'
T $SW 'enable_hist:sched:sched_wakeup'
T $SW 'disable_hist:sched:sched_wakeup'
T $SW 'enable_event:sched:sched_switch:2 if pid == 0'
T $SW 'disable_event:sched:sched_waking:0x3'
T $SW 'enable_event:sched:sched_process_fork if comm == "x"'
T $SW 'traceoff'
T $SW 'stacktrace:4'
EN sched/sched_process_hang sched/sched_wakeup sched/sched_waking sched/sched_process_fork
C set_event
T $SW '!disable_event:sched:sched_wakeup'
T $SW '!enable_hist:sched:sched_wakeup:5'
T $SW '!enable_hist:sched:sched_wakeup'
T $SW '!disable_hist:sched:sched_wakeup'
T $SW '!enable_event:sched:sched_switch'
T $SW '!enable_event:sched:sched_waking'
T $SW '!disable_event:sched:sched_waking if junk'
EN sched/sched_process_hang sched/sched_wakeup sched/sched_waking sched/sched_process_fork
echo "##### 6 truncation with >"
T $SW 'hist:keys=pid'
C $SW
W $SW 'traceon:9'
sed 's/^/  | /' $SW
EN sched/sched_process_hang sched/sched_wakeup sched/sched_process_fork
C set_event
W $SW ''
sed 's/^/  | /' $SW
EN sched/sched_process_hang sched/sched_wakeup sched/sched_process_fork
W $SW $'\n'
sed 's/^/  | /' $SW
for c in '!traceon' '!traceoff' '!stacktrace' '!enable_event:sched:sched_process_fork'; do A $SW "$c"; done
C $SW
EN sched/sched_process_hang sched/sched_wakeup sched/sched_process_fork
echo "##### 7 order"
T $WK 'hist:keys=pid'
T $WK 'traceon'
T $WK 'hist:keys=prio'
T $WK 'stacktrace'
T $WK 'enable_event:sched:sched_switch'
T $WK 'hist:keys=common_pid:vals=hitcount'
for c in '!hist:keys=pid' '!hist:keys=prio' '!hist:keys=common_pid:vals=hitcount' '!traceon' '!stacktrace' '!enable_event:sched:sched_switch'; do A $WK "$c"; done
C $WK
EN sched/sched_kthread_stop sched/sched_switch
echo "##### 8 firing via trace_marker (ftrace:print)"
echo 0 > events/enable
echo > trace
T $PR 'traceoff:1 if buf == "off"'
echo -n hello > trace_marker; echo -n off > trace_marker; echo -n after > trace_marker
echo "tracing_on=$(cat tracing_on)"
grep -v '^#' trace | sed -E 's/^.*: //'
C $PR
echo 1 > tracing_on
T $PR '!traceoff'
T $PR 'traceon:2'
echo 0 > tracing_on
echo -n m1 > trace_marker; echo "write rc=$?"; echo "tracing_on=$(cat tracing_on)"
C $PR
echo -n m2 > trace_marker; echo "tracing_on=$(cat tracing_on)"
C $PR
grep -v '^#' trace | sed -E 's/^.*: //'
A $PR '!traceon'
echo "## enable_event count"
echo > trace
T $PR 'enable_event:sched:sched_wakeup:2'
EN sched/sched_wakeup
echo -n e1 > trace_marker; EN sched/sched_wakeup; C $PR
echo -n e2 > trace_marker; EN sched/sched_wakeup; C $PR
T $PR 'disable_event:sched:sched_waking:2'
echo -n e3 > trace_marker; C $PR; EN sched/sched_waking
A $PR '!enable_event:sched:sched_wakeup'
A $PR '!disable_event:sched:sched_waking'
EN sched/sched_wakeup sched/sched_waking
echo 1 > events/sched/sched_waking/enable; EN sched/sched_waking
T $PR 'disable_event:sched:sched_waking:1'
echo -n d1 > trace_marker; C $PR; EN sched/sched_waking
echo -n d2 > trace_marker; C $PR; EN sched/sched_waking
A $PR '!disable_event:sched:sched_waking'
EN sched/sched_waking
echo 0 > events/sched/sched_waking/enable; EN sched/sched_waking
echo "## stacktrace"
echo > trace
T $PR 'stacktrace:1'
echo -n s1 > trace_marker; echo -n s2 > trace_marker
grep -v '^#' trace | sed -E 's/^ *[^ ]+ +\[[0-9]+\] ....\. +[0-9.]+: //' | head -30
C $PR
A $PR '!stacktrace'
echo "## snapshot"
C snapshot | head -3
T $PR 'snapshot:1'
C snapshot | head -3
W snapshot 0
C snapshot | head -3
echo > trace
echo -n before > trace_marker
echo -n snap > trace_marker
echo -n after > trace_marker
echo "trace:"; grep -v '^#' trace | sed -E 's/^.*: //'
echo "snapshot:"; grep -v '^#' snapshot | sed -E 's/^.*: //'
C $PR
A $PR '!snapshot'
W snapshot 0
C snapshot | head -3
echo "## enable_hist / disable_hist"
T $PR 'hist:keys=common_pid'
T $PR 'disable_hist:ftrace:print:1 if buf == "p"'
echo -n x > trace_marker; C $PR
echo -n p > trace_marker; C $PR
echo -n p > trace_marker; C $PR
T $PR 'enable_hist:ftrace:print if buf == "u"'
echo -n u > trace_marker; C $PR
grep -E 'Hits|common_pid' events/ftrace/print/hist | sed -E 's/[0-9]+ *$/N/'
echo "## soft mode of print"
C set_event
A $PR '!hist:keys=common_pid'
A $PR '!enable_hist:ftrace:print'
A $PR '!disable_hist:ftrace:print'
C $PR
C set_event
echo "##### 9 big write"
big=$(printf 'traceon if pid == %04d' 1; for i in $(seq 1 300); do printf ' || pid == %04d' $i; done)
echo "len=${#big}"
A $SW "$big" | sed 's/ -> /\n -> /' | tail -1
big2=$(printf 'traceon if pid == 1'; for i in $(seq 1 160); do printf ' || pid == %d' $i; done)
echo "len=${#big2}"
A $SW "$big2" | sed 's/ -> /\n -> /' | tail -1
wc -c $SW
A $SW '!traceon'
EL
echo "##### 10 filter error log"
for c in 'traceoff if nosuch==1' 'traceoff if pid==' 'traceoff:3 if   (pid==1' 'enable_event:sched:sched_wakeup if nosuch > 1' 'hist:keys=pid if nosuch==1'; do A $SW "$c"; EL; done
C events/sched/sched_process_hang/filter
echo done
