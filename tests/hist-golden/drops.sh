# SPDX-License-Identifier: GPL-2.0
# drops.sh: a full map (size=128) and 200 distinct keys: Hits, Entries and
# Dropped as the kernel counts them (pids differ between runs, counts do not).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
T=events/ftrace/print/trigger; H=events/ftrace/print/hist
W $T 'hist:keys=common_pid:vals=hitcount:size=100'
for i in $(seq 1 200); do ( echo -n a > trace_marker; echo -n b > trace_marker ); done
echo -n c > trace_marker
sed -n '/^# trigger info/p; /^Totals/,$p' $H
grep -c '^{ common_pid' $H
awk '/^[{] common_pid/ {s += $6} END {print "sum of hitcounts", s}' $H
W $T 'hist:keys=common_pid:vals=hitcount:size=100:clear'
sed -n '/^Totals/,$p' $H
