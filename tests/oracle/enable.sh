# SPDX-License-Identifier: GPL-2.0
# oracle: enable
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
echo "##### per-event enable"
E=events/sched/sched_switch/enable
C $E
for v in 1 0 2 abc ' 1' $'1\n' $'0\n' 0x1 01 '1 ' $'1\n\n' -1 10 '+1' 00 '' ; do W $E "$v"; C $E; W $E 0 >/dev/null; done
echo "append:"; A $E 1; C $E; A $E 0; C $E
echo "echo 1 (with newline):"; echo 1 > $E; echo "rc=$?"; C $E; echo 0 > $E
echo "##### subsystem enable"
S=events/sched/enable
C $S
W events/sched/sched_switch/enable 1; C $S; C set_event
W $S 1; C $S; C events/sched/sched_switch/enable; echo "set_event count sched: $(grep -c '^sched:' set_event)"; C set_event
W $S 0; C $S; C set_event
for v in 2 abc X '?' ' 1' 0x1 $'1\n'; do W $S "$v"; C $S; done
W $S 0 >/dev/null
echo "##### top-level events/enable"
C events/enable
W events/sched/sched_switch/enable 1; C events/enable
W events/sched/sched_switch/enable 0
W events/enable 1; C events/enable; echo "set_event lines: $(wc -l < set_event)"; echo "available_events lines: $(wc -l < available_events)"
C events/sched/enable; C events/ftrace/print/enable 2>&1
echo "set_event ftrace lines:"; grep '^ftrace:' set_event
W events/enable 0; C events/enable; C set_event
for v in 2 abc X; do W events/enable "$v"; C events/enable; done
echo "##### ftrace system"
ls -1 events/ftrace/print | grep -v hist_debug; ls -la events/ftrace | grep -E ' (enable|filter)$' || echo "no enable/filter in events/ftrace"
C events/ftrace/enable
ls -1 events/ftrace/function | grep -v hist_debug
echo "##### soft enable via trigger (enable_event)"
W events/sched/sched_wakeup/trigger 'enable_event:sched:sched_switch'
C events/sched/sched_switch/enable; C events/sched/sched_wakeup/enable; C events/sched/enable; C set_event; C events/sched/sched_wakeup/trigger
W events/sched/sched_switch/enable 1; C events/sched/sched_switch/enable; C set_event
W events/sched/sched_switch/enable 0; C events/sched/sched_switch/enable; C set_event
W events/sched/sched_wakeup/trigger '!enable_event:sched:sched_switch'
C events/sched/sched_switch/enable; C set_event
echo "##### trigger on print makes it appear in set_event"
W events/ftrace/print/trigger 'traceon'; C set_event; C events/enable
W events/ftrace/print/trigger '!traceon'; C set_event
echo "##### irq system enable with set_event partial"
W set_event 'irq:irq_handler_entry'; C events/irq/enable; C events/enable
W set_event ''; C events/irq/enable
echo "##### soft mode on an event that never fires (0*)"
W events/sched/sched_process_hang/trigger 'enable_event:sched:sched_wait_task'
C events/sched/sched_wait_task/enable; C events/sched/sched_process_hang/enable; C set_event; C events/sched/enable
W events/sched/sched_wait_task/enable 1; C events/sched/sched_wait_task/enable; C set_event
W events/sched/sched_wait_task/enable 0; C events/sched/sched_wait_task/enable; C set_event
W set_event 'sched:sched_wait_task'; C events/sched/sched_wait_task/enable
W set_event ''; C events/sched/sched_wait_task/enable; C set_event
W events/sched/sched_process_hang/trigger '!enable_event:sched:sched_wait_task'
C events/sched/sched_wait_task/enable; C events/sched/sched_process_hang/enable; C set_event
echo "##### disable_event trigger soft mode"
W events/sched/sched_process_hang/trigger 'disable_event:sched:sched_wait_task'
C events/sched/sched_wait_task/enable; C set_event
W events/sched/sched_process_hang/trigger '!disable_event:sched:sched_wait_task'
C events/sched/sched_wait_task/enable; C set_event
echo "##### plain trigger (traceoff) on never-firing event"
W events/sched/sched_process_hang/trigger 'traceoff'; C events/sched/sched_process_hang/enable; C set_event
W events/sched/enable 0; C events/sched/sched_process_hang/enable; C set_event
W events/sched/sched_process_hang/trigger '!traceoff'; C events/sched/sched_process_hang/enable; C set_event
echo "##### event name in set_event matching: sys_enter alone"
W set_event sys_enter; C set_event; W set_event ''
