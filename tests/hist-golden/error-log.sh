# SPDX-License-Identifier: GPL-2.0
# error-log.sh: error_log limits as hist errors fill it: how many entries stay,
# long commands, carets far right, and a write to error_log that is not a clear.
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %.60q -> %s\n' "$f" "$d" "$r"; }
EL() { echo "--- error_log:"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo "--- end"; }
T=events/ftrace/print/trigger
echo > error_log
for i in $(seq 1 20); do A $T "hist:keys=nosuch$i"; done
EL
echo > error_log
long=$(printf 'common_type,%.0s' $(seq 1 40))
A $T "hist:keys=common_type:vals=${long}nosuch"
A $T "hist:keys=common_type:sort=hitcount if $(printf 'common_type == 1 || %.0s' $(seq 1 60))nosuch == 1"
A $T "hist:keys=common_type:vals=hitcount:$(printf 'x%.0s' $(seq 1 300))"
EL
printf x > error_log; echo "write x rc=$?"
printf '' > error_log; echo "empty rc=$?"
EL
