# SPDX-License-Identifier: GPL-2.0
# matching.sh: which existing hist a pause/cont/clear or '!' command names:
# differing size, sort, vals order, filter, name, and modifiers.
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log:"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo "--- end"; echo > error_log; }
T=events/ftrace/print/trigger
echo > error_log
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:size=256'
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:size=512:pause'
C $T
A $T 'hist:keys=common_type:vals=common_flags,common_preempt_count:pause'
C $T
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:sort=common_flags:pause'
C $T
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:pause if common_cpu == 0'
C $T
A $T 'hist:keys=common_type.hex:vals=common_preempt_count,common_flags:pause'
C $T
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:pause'
C $T
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:cont:size=4096'
C $T
A $T 'hist:keys=common_type:vals=common_preempt_count.hex,common_flags:clear'
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:nohitcount:pause'
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags:clock=mono:pause'
C $T
A $T '!hist:keys=common_type:vals=common_preempt_count,common_flags:size=64'
C $T
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags if common_cpu == 0'
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags if common_cpu==0'
A $T 'hist:keys=common_type:vals=common_preempt_count,common_flags if common_cpu == 1'
C $T
A $T '!hist:keys=common_type:vals=common_preempt_count,common_flags if common_cpu ==  0'
A $T '!hist:keys=common_type:vals=common_preempt_count,common_flags if common_cpu == 0'
C $T
EL
A $T 'hist:name=m:keys=common_type:vals=common_preempt_count,common_flags'
A $T 'hist:name=m:keys=common_type:vals=common_preempt_count,common_flags:size=8192'
A $T 'hist:name=m:keys=common_type:vals=common_preempt_count,common_flags:sort=common_flags'
A $T 'hist:name=m:keys=common_type:vals=common_preempt_count:pause'
C $T
EL
A $T 'hist:keys=common_type'
A $T 'hist:keys=common_type:vals=hitcount'
A $T 'hist:key=common_type:val=hitcount:sort=hitcount'
A $T 'hist:keys=common_type:sort=hitcount.ascending'
C $T
EL
