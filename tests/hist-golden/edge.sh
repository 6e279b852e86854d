# SPDX-License-Identifier: GPL-2.0
# edge.sh: attribute edge cases (repeats, empties, limits, special fields) with their
# read-back and error_log, and numeric widths, on ftrace:print fed by trace_marker.
# pid-independent; common_comm (a 6.16 field tracefuse has, 6.12 not) is left out.
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log:"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo "--- end"; echo > error_log; }
T=events/ftrace/print/trigger
H=events/ftrace/print/hist
feed() { for m in hello hello a bb ccc hello h hx; do echo -n "$m" > trace_marker; done; }
echo > error_log
echo "## 2 attribute edge cases"
W $T ''
for c in 'hist:keys=common_type:vals=hitcount,hitcount' 'hist:keys=common_type,common_type' \
	'hist:keys=common_type:sort=hitcount:sort=common_type' 'hist:keys=common_type:keys=common_cpu' \
	'hist:keys=common_type:size=2048:size=4096' 'hist:keys=common_type:name=' 'hist:keys=common_type:clock=' \
	'hist:keys=common_type:vals=' 'hist:keys=common_type:sort=hitcount.descending.ascending' \
	'hist:keys=common_type.usecs' 'hist:keys=common_type:vals=common_type.percent.graph' \
	'hist:keys=common_type:nohitcount:vals=common_type' 'hist:keys=common_cpu.execname' \
	'hist:keys=buf.hex' 'hist:keys=buf.log2' 'hist:keys=buf:vals=buf' 'hist:keys=common_type:size=1' \
	'hist:keys=common_type:size=131072' 'hist:keys=common_type:size=131073' 'hist:keys=common_type:size=0' \
	'hist:keys=common_type:size=-1' 'hist:keys=common_type:size=0x20000' 'hist:keys=common_type:vals=hitcount:sort=hitcount:clock=local' \
	'hist:keys=common_type:values=common_type:sort=common_type' 'hist:keys=common_type:val=hitcount' \
	'hist:keys=common_type:clock=global:clock=mono' 'hist:keys=common_type:pause:cont' \
	'hist:keys=common_type:clear:pause' 'hist:keys=buf,buf' 'hist:keys=common_type:sort=buf' \
	'hist:key=common_type:sort=key' 'hist:keys=common_type.descending' 'hist:keys=common_timestamp.usecs:vals=hitcount:sort=hitcount' \
	'hist:keys=common_stacktrace:vals=hitcount' 'hist:keys=stacktrace:vals=hitcount' \
	'hist:keys=common_type:vals=common_cpu' 'hist:keys=common_type:vals=common_timestamp' ; do
	W $T "$c"
	C $T
	EL
done
echo "## 3 numeric sort widths"
W $T 'hist:keys=common_type.log2:vals=hitcount.percent'
A $T 'hist:keys=common_type.buckets=3:vals=hitcount.graph,common_type.percent'
A $T 'hist:keys=common_type.hex:vals=common_type.hex'
A $T 'hist:keys=common_cpu:vals=hitcount:sort=common_cpu.descending'
feed
C $H
