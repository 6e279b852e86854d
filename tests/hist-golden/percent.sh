# SPDX-License-Identifier: GPL-2.0
# percent.sh: .percent and .graph across entries, ties, execname keys and
# descending sorts, with pids masked (subshells write 1, 2, 3, 5, 8 and 8 times).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
T=events/ftrace/print/trigger; H=events/ftrace/print/hist
mk() { ( for i in $(seq $1); do echo -n "$2" > trace_marker; done ); }
mask() { sed -E 's/common_pid: *[0-9]+ /common_pid: PID /; s/\[ *[0-9]+\]/[PID]/'; }
W $T 'hist:keys=common_pid:vals=hitcount.percent,hitcount.graph:sort=hitcount'
A $T 'hist:keys=common_pid.execname:vals=hitcount,common_type.percent:sort=hitcount.descending'
A $T 'hist:keys=common_pid:vals=common_type.graph,common_preempt_count.percent:sort=common_type.descending'
A $T 'hist:keys=common_pid:vals=hitcount:sort=hitcount.descending:nohitcount'
A $T 'hist:keys=common_pid:vals=common_type.graph:sort=hitcount.descending:nohitcount'
mk 1 a; mk 2 b; mk 3 c; mk 5 d; mk 8 e; mk 8 f
cat $T
mask < $H
