# SPDX-License-Identifier: GPL-2.0
# timestamps.sh: what a hist with common_timestamp or clock= does to
# timestamp_mode and trace_clock, and when it stops.
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
S() { echo "mode: $(cat timestamp_mode) clock: $(cat trace_clock)"; }
T=events/ftrace/print/trigger; H=events/ftrace/print/hist
S
A $T 'hist:keys=common_type'
S
A $T 'hist:keys=common_type:vals=common_timestamp'
S
for i in 1 2 3; do echo -n x > trace_marker; done
sed -n '/^Totals/,$p' $H | head -3
A $T '!hist:keys=common_type:vals=common_timestamp'
S
A $T 'hist:keys=common_timestamp.usecs'
S
for i in 1 2 3; do echo -n x > trace_marker; done
grep -c '^{ common_timestamp' $H
A $T 'hist:keys=common_cpu:clock=mono'
S
A $T 'hist:keys=common_pid:vals=common_timestamp:clock=global'
S
echo local > trace_clock; echo "set local rc=$?"
S
W $T ''
S
echo global > trace_clock
A $T 'hist:keys=common_type:clock=counter'
S
W $T ''
S
echo local > trace_clock
mkdir instances/ts
A instances/ts/events/ftrace/print/trigger 'hist:keys=common_type:vals=common_timestamp'
S
echo "inst: $(cat instances/ts/timestamp_mode) $(cat instances/ts/trace_clock)"
W instances/ts/events/ftrace/print/trigger ''
rmdir instances/ts
S
