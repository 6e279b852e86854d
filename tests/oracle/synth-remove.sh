# SPDX-License-Identifier: GPL-2.0
# oracle: synth-remove
#  When a synthetic event can be removed (not while enabled in any trace
#  array, soft mode included), what its open files answer afterwards,
#  which removals reset which buffers, and what goes with it.
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
# data lines without comm, pid and time (the kernel saves comms at
# context switches, tracefuse when the marker is written)
D() { echo "--- $1 data lines:"; grep -v '^#' "$1" | sed -E 's/^ *([^ ].*)-[0-9]+ +\[([0-9]+)\] ([^ ]+) +[0-9]+\.[0-9]+: /COMM-PID [\2] \3 TS: /'; echo "--- end"; }
echo "##### enabled"
A synthetic_events 'a1 u64 x'
A synthetic_events 'a2 u64 x'
W events/synthetic/a1/enable 1
A synthetic_events '!a1'
A dynamic_events '-:a1'
W synthetic_events ''
W dynamic_events ''
C synthetic_events
W events/synthetic/a1/enable 0
A synthetic_events '!a1'
mkdir instances/r1
W instances/r1/events/synthetic/a2/enable 1
A synthetic_events '!a2'
W instances/r1/events/synthetic/a2/enable 0
W events/synthetic/enable 1
A dynamic_events '-:a2'
W events/synthetic/enable 0
A dynamic_events '-:a2'
C synthetic_events
echo "##### soft mode"
A synthetic_events 'b1 u64 x'
A synthetic_events 'b2 u64 x'
W events/ftrace/print/trigger 'enable_event:synthetic:b1'
C events/synthetic/b1/enable
A synthetic_events '!b1'
W instances/r1/events/ftrace/print/trigger 'disable_event:synthetic:b2'
C instances/r1/events/synthetic/b2/enable
A synthetic_events '!b2'
W events/ftrace/print/trigger '!enable_event:synthetic:b1'
W instances/r1/events/ftrace/print/trigger '!disable_event:synthetic:b2'
C events/synthetic/b1/enable
W events/synthetic/b1/trigger 'traceoff'
C events/synthetic/b1/enable
A synthetic_events '!b1'
W events/synthetic/b1/trigger '!traceoff'
W events/synthetic/b2/trigger 'enable_event:sched:sched_waking'
A synthetic_events '!b2'
W events/synthetic/b2/trigger '!enable_event:sched:sched_waking'
W events/synthetic/b1/filter 'x > 10'
C events/synthetic/b1/filter
A synthetic_events '!b1'
A synthetic_events '!b2'
C synthetic_events
echo "##### open files of a removed event"
A synthetic_events 'o1 u64 lat'
C events/synthetic/o1/id
exec 3< events/synthetic/o1/enable 4< events/synthetic/o1/format 5< events/synthetic/o1/id
exec 6< events/synthetic/o1/filter 7< events/synthetic/o1/trigger 8< events/synthetic/o1/hist
exec 9> events/synthetic/o1/enable
A synthetic_events '!o1'
RD() { echo "fd $1:"; dd bs=64k <&$1 2>/tmp/e || grep -v records /tmp/e | sed 's/.*: /read-error: /'; }
for fd in 3 4 5 6 7 8; do RD $fd; done
printf 1 >&9 2>/dev/null && echo "write: OK" || echo "write: failed"
A synthetic_events 'o1 u64 lat'
C events/synthetic/o1/id
printf 1 >&9 2>/dev/null && echo "write: OK" || echo "write: failed"
RD 3
C events/synthetic/o1/enable
exec 3<&- 4<&- 5<&- 6<&- 7<&- 8<&- 9>&-
ls -1 events/synthetic
(cd events/synthetic/o1 && A ../../../synthetic_events '!o1' && ls -1; C enable)
test -d events/synthetic && echo "synthetic/ still there" || echo "synthetic/ gone"
echo "##### buffer resets"
echo > trace
A synthetic_events 'c1 u64 x'
A synthetic_events 'c2 u64 x'
A synthetic_events 'c3 u64 x'
echo m1 > trace_marker
A synthetic_events '!c2'
D trace
W events/synthetic/c1/enable 1; W events/synthetic/c1/enable 0
echo m2 > trace_marker
A synthetic_events '!c1'
D trace
A dynamic_events '-:c3'
D trace
echo "-- a busy removal cancels the pending reset"
A synthetic_events 'c4 u64 x'
A synthetic_events 'c5 u64 x'
A synthetic_events 'c6 u64 x'
W events/synthetic/c4/enable 1; W events/synthetic/c4/enable 0
echo m3 > trace_marker
A synthetic_events '!c4'
W events/synthetic/c5/enable 1
A synthetic_events '!c5'
A dynamic_events '-:c6'
D trace
W events/synthetic/c5/enable 0
A dynamic_events '-:c5'
D trace
echo "-- an instance's"
A synthetic_events 'c7 u64 x'
A synthetic_events 'c8 u64 x'
W instances/r1/events/synthetic/c7/enable 1; W instances/r1/events/synthetic/c7/enable 0
echo m4 > trace_marker; echo i4 > instances/r1/trace_marker
A dynamic_events '-:c7'
D trace; D instances/r1/trace
echo "-- a release that finds nothing, and >"
W events/synthetic/c8/enable 1; W events/synthetic/c8/enable 0
echo m5 > trace_marker
A synthetic_events '!c8'
D trace
A dynamic_events '-:nosuch'
D trace
A synthetic_events 'c9 u64 x'
W events/synthetic/c9/enable 1; W events/synthetic/c9/enable 0
echo m6 > trace_marker
A synthetic_events '!c9'
W synthetic_events ''
D trace
echo "-- the snapshot buffer too"
A synthetic_events 'c10 u64 x'
echo m7 > trace_marker
W snapshot 1
echo m8 > trace_marker
W events/synthetic/c10/enable 1; W events/synthetic/c10/enable 0
A dynamic_events '-:c10'
D trace; D snapshot
W snapshot 0
echo "##### the system's own files"
A synthetic_events 's1 u64 x'
W events/synthetic/filter 'x == 1'
C events/synthetic/filter
C events/synthetic/s1/filter
A synthetic_events '!s1'
A synthetic_events 's1 u64 x'
C events/synthetic/filter
C events/synthetic/s1/filter
C events/synthetic/enable
W synthetic_events ''
rmdir instances/r1
