# SPDX-License-Identifier: GPL-2.0
# hist trigger errors: errno and error_log entry (text, command, caret) per write
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
T=events/ftrace/print/trigger
A $T 'hist:keys=common_pid'
for c in 'hist:keys=common_pid' 'hist:keys=ip:cont' 'hist:keys=ip:clear' 'hist:keys=ip:sort=' \
  'hist:keys=' 'hist:vals=ip' 'hist:keys=ip,common_pid,common_type,common_flags' \
  'hist:keys=ip:vals=common_pid,common_type,common_flags' 'hist:keys=ip:vals=common_pid,common_type,hitcount' \
  'hist:keys=ip:sort=ip,common_pid,hitcount' 'hist:keys=ip:sort=ip.foo' 'hist:keys=ip:sort=,ip' \
  'hist:keys=ip:sort=.descending' 'hist:keys=ip:sort=common_pid' 'hist:keys=ip:sort=ip,' 'hist:keys=ip:size=64' \
  'hist:keys=ip:size=200000' 'hist:keys=ip:size=abc' 'hist:keys=ip:bogus' 'hist:keys=ip.foo' \
  'hist:keys=ip.percent' 'hist:keys=ip.graph' 'hist:keys=ip:vals=common_pid.log2' \
  'hist:keys=ip:vals=common_pid.sym' 'hist:keys=ip:vals=common_pid.sym-offset' 'hist:keys=ip:vals=common_pid.buckets=10' \
  'hist:keys=ip:vals=common_pid.syscall' 'hist:keys=ip:vals=common_stacktrace' 'hist:keys=ip.buckets=0' 'hist:keys=ip.buckets=x' \
  'hist:keys=ip.bucket=5:sort=ip' 'hist:keys=ip.execname' 'hist:keys=nosuch' 'hist:keys=ip:vals=nosuch' \
  'hist:keys=ip:nohitcount' 'hist:keys=ip:vals=hitcount:nohitcount' 'hist:keys=ip:NOHC' \
  'hist:keys=ip.hex.sym' 'if buf == "x"' 'hist:keys=ip if' 'hist:keys=ip if ' 'hist:keys=ip if nosuch == 1' \
  'hist:keys=ip if buf == ' 'hist:keys=ip if common_pid == "x"' 'hist:keys=ip if (common_pid == 1' \
  'hist:keys=ip:name=foo' 'hist:keys=common_pid:name=foo' 'hist:keys=ip:vals=common_pid:name=foo' \
  'hist:keys=ip:name=foo:sort=ip' 'hist:name=foo:keys=ip:clear' \
  'hist:keys=common_timestamp:clock=nosuch' 'hist:keys=common_pid.stacktrace' 'hist:keys=buf' \
  'hist:keys=ip:vals=buf' 'hist:keys=ip:sort=hitcount.foo' 'hist:keys=ip:sort=common_pid.descending' \
  'hist:keys=ip:vals=common_pid:sort=common_pid.hex' 'hist:keys=ip:a=b' 'hist:keys=ip:onmax(x' \
  'hist:keys=ip:pause:name=bar' 'hist:keys=ip:foo:bar' 'hist:keys=common_pid.percent' 'hist:keys=ip.sym-offset:vals=ip.hex' \
  'hist:keys=common_pid.execname.hex' 'hist:keys=common_pid:vals=common_pid.execname' 'hist:keys=ip,common_type:sort=common_type,ip' \
  'hist:keys=ip if buf == "x"' 'hist:keys=ip if buf == "y"' '!hist:keys=ip if buf == "z"' '!hist:keys=nosuch' \
  'hist:keys=ip:vals=common_pid*2' 'hist:keys=ip:vals=-common_pid' 'hist:keys=common_pid+1' 'hist:keys=ip:vals=$x' \
  'hist:keys=ip:sort=hitcount,hitcount' 'hist:keys=ip :vals=common_pid' 'hist:keys=ip:vals=common_pid ' \
  'hist:keys=ip	if common_pid == 1' 'hist:keys=ip	if	common_pid == 1	' ; do
  A $T "$c"
done
echo '--- trigger:'; cat $T
