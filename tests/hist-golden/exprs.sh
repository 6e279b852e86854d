# SPDX-License-Identifier: GPL-2.0
# expressions, constants, unary minus and negative (signed) keys and values
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
T=events/ftrace/print/trigger
H=events/ftrace/print/hist
mk() { ( for i in $(seq $1); do echo -n "$2" > trace_marker; done ); }
for c in 'hist:keys=common_pid+1:vals=common_pid-1,-(common_pid):sort=common_pid+1' \
	'hist:keys=common_pid*2:vals=3*4,common_pid/2' 'hist:keys=common_pid/4:vals=common_pid/3' \
	'hist:keys=common_pid-(common_pid)' 'hist:keys=-(common_pid):vals=hitcount:sort=-(common_pid)' \
	'hist:keys=common_pid:vals=common_pid/0' 'hist:keys=common_pid:vals=1+2+3+4+5' 'hist:keys=common_pid.hex+1' \
	'hist:keys=common_timestamp.usecs-common_timestamp' 'hist:keys=common_pid:vals=0x10' 'hist:keys=common_pid:vals=1x' \
	'hist:keys=common_pid,common_type:vals=common_pid*common_type' 'hist:keys=common_pid:vals=common_pid.hex*2' \
	'hist:keys=common_pid:vals=-(common_pid+1)'; do
	printf '%s' "$c" > /tmp/in; dd if=/tmp/in bs=4M 2>/tmp/e >> $T && echo "OK $c" || echo "ERR $c: $(grep -v records /tmp/e | sed 's/.*: //')"
	sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log
done
mk 3 a; mk 1 b
C $T
C $H
echo > $T
echo '## negative keys and values on sys_exit'
S=events/raw_syscalls/sys_exit/trigger
echo 'hist:keys=ret:vals=ret:sort=ret if ret == -2 || ret == -25' >> $S
echo 'hist:keys=ret.hex:vals=ret.hex:sort=ret.hex.descending if ret == -2 || ret == -25' >> $S
echo 'hist:keys=ret.log2:sort=ret if ret == -2' >> $S
echo 'hist:keys=ret.buckets=10:vals=ret.percent:sort=ret if ret == -2' >> $S
cat /nonexistent 2>/dev/null; cat /nonexistent 2>/dev/null; ls -l /nonexistent 2>/dev/null
cat $S
cat events/raw_syscalls/sys_exit/hist | sed -E 's/hitcount: +[0-9]+/hitcount: N/; s/ret: +[0-9]+$/ret: N/; s/ret: +[0-9a-f]+$/ret: N/; s/ret \(%\): +[0-9.]+$/ret (%): N/; s/Hits: [0-9]+/Hits: N/'
echo > $S
