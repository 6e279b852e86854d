# SPDX-License-Identifier: GPL-2.0
# instances.sh: hist triggers in instances: a name= shared across trace arrays,
# each instance's own error_log, clear and ! through another instance, rmdir with
# a hist trigger in place.
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log $1:"; sed -E 's/^\[ *[0-9.]+\] //' $1; echo "--- end"; echo > $1; }
mkdir instances/i1 instances/i2
echo > error_log
T1=instances/i1/events/ftrace/print/trigger; H1=instances/i1/events/ftrace/print/hist
T2=instances/i2/events/ftrace/print/trigger; H2=instances/i2/events/ftrace/print/hist
T=events/ftrace/print/trigger; H=events/ftrace/print/hist
W $T1 'hist:keys=common_type:vals=hitcount'
W $T2 'hist:name=shared:keys=common_type:vals=hitcount'
W $T 'hist:name=shared:keys=common_type:vals=hitcount'
A $T1 'hist:name=shared:keys=common_type:vals=hitcount'
A $T1 'hist:name=shared:keys=common_cpu:vals=hitcount'
A $T1 'hist:keys=nosuch'
EL error_log
EL instances/i1/error_log
EL instances/i2/error_log
for i in 1 2 3; do echo -n a > instances/i1/trace_marker; done
for i in 1 2; do echo -n b > instances/i2/trace_marker; done
echo -n c > trace_marker
C $T1; C $H1; C $T2; C $H2; C $T; C $H
A $T2 'hist:name=shared:keys=common_type:vals=hitcount:clear'
C $H
A $T '!hist:name=shared:keys=common_type:vals=hitcount'
C $T; C $H2
rmdir instances/i2 2>/dev/null; echo "rmdir i2 rc=$?"
W $T2 '' 2>/dev/null
rmdir instances/i2 2>/dev/null; echo "rmdir i2 rc=$?"
C $H1
[ -e instances/i1/events/ftrace/print/enable ]; echo "print has enable: $?"
rmdir instances/i1 2>/dev/null; echo "rmdir i1 rc=$?"
ls instances
