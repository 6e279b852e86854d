# SPDX-License-Identifier: GPL-2.0
# mixed.sh: hist triggers among other trigger kinds on one event: read-back
# order, removal, and what each does to the same trace_marker records.
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
T=events/ftrace/print/trigger; H=events/ftrace/print/hist
A $T 'traceoff:2 if buf == "off"'
A $T 'hist:keys=common_type:vals=hitcount'
A $T 'stacktrace:1 if buf == "st"'
A $T 'hist:keys=common_cpu:vals=hitcount if buf != "off"'
A $T 'snapshot:1 if buf == "snap"'
A $T 'hist:name=mx:keys=common_type'
A $T 'traceon'
C $T
for m in a off b off c snap d; do { echo -n $m > trace_marker; } 2>/dev/null || echo "marker $m: write failed"; done
cat tracing_on
C $T
C $H
A $T '!traceoff'
A $T '!traceoff:2 if buf == "off"'
A $T '!hist:keys=common_cpu:vals=hitcount'
A $T '!hist:keys=common_cpu:vals=hitcount if buf != "off"'
A $T '!snapshot:1 if buf == "snap"'
C $T
echo 1 > tracing_on
W $T ''
C $T
cat snapshot | grep -c tracing_mark_write
echo 0 > snapshot
