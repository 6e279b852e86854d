# SPDX-License-Identifier: GPL-2.0
# oracle: instances
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
mkdir instances/foo
cd instances/foo
echo "##### set_event in instance"
W set_event sched:sched_switch; C set_event; C ../../set_event
C events/sched/sched_switch/enable; C ../../events/sched/sched_switch/enable
C events/sched/enable; C ../../events/sched/enable; C events/enable
W events/sched/enable 1; echo "instance count: $(wc -l < set_event) top count: $(wc -l < ../../set_event)"
W events/sched/enable 0; C set_event
W ../../set_event 'irq:*'; C set_event; echo "top count $(wc -l < ../../set_event)"; W ../../set_event ''
W set_event ''; echo > trace; echo > ../../trace
echo "##### trace_marker isolation"
echo inst-msg > trace_marker; echo top-msg > ../../trace_marker
echo "instance:"; grep -v '^#' trace | sed -E 's/^.*tracing_mark_write: //'
echo "top:"; grep -v '^#' ../../trace | sed -E 's/^.*tracing_mark_write: //'
echo "--- instance trace (pid/ts sanitized):"; cat trace | sed -E 's/-[0-9]+ /-PID /; s/[0-9]+\.[0-9]+:/TS:/'
echo "--- top trace (pid/ts sanitized):"; cat ../../trace | sed -E 's/-[0-9]+ /-PID /; s/[0-9]+\.[0-9]+:/TS:/'
echo "##### instance event enable -> events only in instance buffer"
echo > trace; W events/sched/sched_process_fork/enable 1; /bin/true; sh -c true; W events/sched/sched_process_fork/enable 0
if grep -q sched_process_fork trace; then echo "instance has fork events: yes"; else echo "instance has fork events: no"; fi; echo "top fork events: $(grep -c sched_process_fork ../../trace)"
echo "##### instance tracing_on"
echo > trace; W tracing_on 0; echo m2 > trace_marker; grep -vc "^#" trace; W tracing_on 1; C ../../tracing_on
echo "##### error_log per instance"
W events/sched/sched_switch/filter 'prev_pid == abc'; C events/sched/sched_switch/filter
echo "instance error_log:"; EL error_log
echo "top error_log:"; EL ../../error_log
W ../../events/sched/sched_switch/filter 'bogus_field == 1'
echo "instance error_log:"; EL error_log
echo "top error_log:"; EL ../../error_log
W events/sched/sched_switch/trigger 'hist:keys=nosuch'
echo "instance error_log:"; EL error_log
echo "clear error_log:"; W error_log ''; EL error_log; A error_log 'x'; W error_log 'x'; EL ../../error_log
echo "##### instance files"
C current_tracer; C available_tracers; C trace_clock; C buffer_size_kb; C tracing_cpumask
C set_event_pid; W set_event_pid 1; C set_event_pid; C ../../set_event_pid
echo "##### options differences"
ls ../../options | sort > /tmp/o1; ls options | sort > /tmp/o2; cat /tmp/o1 /tmp/o2 | sort | uniq -u
echo "##### set_event order equals available_events?"
cd ../..
W set_event '*:*' ; cat available_events > /tmp/ae; cat set_event > /tmp/se; if diff -q /tmp/ae /tmp/se >/dev/null; then echo "set_event(*:*) == available_events order"; else echo differs; diff /tmp/ae /tmp/se | head; fi
W set_event ''
echo "##### two instances listing order"
mkdir instances/zz instances/aa instances/mm; echo -n 'readdir order: '; find instances -mindepth 1 -maxdepth 1 | tr '\n' ' '; echo; echo -n 'ls order: '; ls instances | tr '\n' ' '; echo
echo "##### instance per_cpu trace header"
cat instances/aa/per_cpu/cpu0/trace
echo "##### events dir inside instance has no ftrace/print enable either"
ls -1 instances/aa/events/ftrace/print | grep -v hist_debug
