# SPDX-License-Identifier: GPL-2.0
# oracle: set_event
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
R() { W set_event '' >/dev/null; }
show() { echo "--- set_event:"; cat set_event; echo "--- end"; }
for v in sched_switch sched:sched_switch 'sched:*' 'sched:' sched '*:sched_switch' ':sched_switch' '*:*' '*:' 'sched_*' 'sched:sched_sw*' '*' 'nosuch' 'sched:nosuch' 'nosuch:*' 'nosuch:' ':' '' ' ' $'\n' 'sched:sched_switch:mod:foo' ':mod:foo' 'sched_switch:mod:foo' 'sched:sched_switch ' ' sched:sched_switch' $'sched:sched_switch\n' $'\tsched:sched_switch\t' 'sched:sched_switch sched:sched_wakeup' $'sched:sched_switch\nsched:sched_wakeup' $'sched:sched_switch\n\nsched:sched_wakeup\n' 'sched:sched_switch nosuch sched:sched_wakeup' 'nosuch sched:sched_wakeup' 'SCHED:SCHED_SWITCH' 'sched/sched_switch' 'sched:sched_switch:' 'sched:sched_switch:x' 'ftrace:print' 'print' 'ftrace:*' 'ftrace:function' 'syscalls:sys_enter_read' 'raw_syscalls:*'; do
  echo "=== case $(printf '%q' "$v")"
  R; W set_event "$v"; C set_event; echo "count: $(wc -l < set_event)"
done
echo "=== ftrace:* contents (sorted)"; R; W set_event 'ftrace:*'; cat set_event | sort
echo "=== mod: forms, readback and clearing"
R; W set_event ':mod:foo'; show; A set_event 'sched:sched_switch:mod:bar'; show; A set_event 'sched_wakeup:mod:bar'; show
A set_event '*:*:mod:baz'; show
A set_event '!:mod:foo'; show
A set_event '!sched:sched_switch:mod:bar'; show
W set_event ''; show
echo "=== removal"
R; W set_event 'sched:*'; A set_event '!sched_switch'; echo "count: $(wc -l < set_event)"; grep -c sched_switch set_event
A set_event '!sched:*'; show
A set_event '!nosuch'; A set_event '!'; show
R; W set_event 'sched:sched_switch'; A set_event '!sched:sched_switch'; show
R; W set_event 'sched:sched_switch'; A set_event '!*:*'; show
R; W set_event 'sched:sched_switch'; A set_event '! sched:sched_switch'; show
echo "=== > vs >>"
R; W set_event sched:sched_switch; W set_event sched:sched_wakeup; show
A set_event sched:sched_waking; show
echo "open O_TRUNC without write:"; : > set_event; show
R; W set_event sched:sched_switch; echo "open O_APPEND without write:"; : >> set_event; show
echo "O_RDWR open (<>) without write:"; exec 4<>set_event; exec 4>&-; show
echo "echo > set_event (writes newline):"; echo > set_event; show
echo "=== order of set_event lines"
R; A set_event 'irq:*'; A set_event sched:sched_switch; A set_event 'timer:*'; show
R; A set_event 'timer:*'; A set_event sched:sched_switch; A set_event 'irq:*'; show
R; A set_event sched:sched_wakeup sched:sched_switch sched:sched_waking; show
echo "=== available_events order sample"; grep -n -E '^(sched:sched_switch|sched:sched_wakeup|sched:sched_waking|irq:irq_handler_entry|timer:timer_init|ftrace:print)$' available_events
head -3 available_events; tail -3 available_events
echo "=== big writes"
big=""; for i in $(seq 1 400); do big="$big sched:sched_switch"; done
R; WB W set_event "$big"; echo "count: $(wc -l < set_event)"
big2=""; for i in $(seq 1 250); do big2="$big2 sched:sched_wakeup sched:sched_switch"; done
R; WB W set_event "$big2"; echo "count: $(wc -l < set_event)"
long=$(printf 'x%.0s' $(seq 1 200)); R; W set_event "sched:$long"; show
long=$(printf 'x%.0s' $(seq 1 600)); R; WB W set_event "sched:$long"; show
long=$(printf 'x%.0s' $(seq 1 5000)); R; WB W set_event "$long"; show
R; WB W set_event "$(printf 'sched:sched_switch%.0s\n' $(seq 1 300))"; show
echo "=== same via bash printf big (multiple writes?)"
R; W set_event "$big" | cut -c1-60; echo "count: $(wc -l < set_event)"
echo "=== error_log after set_event errors"; EL
echo "=== enable files after set_event sched:*"; R; W set_event 'sched:*'; C events/sched/enable; C events/enable; C events/sched/sched_switch/enable
