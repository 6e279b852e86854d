# SPDX-License-Identifier: GPL-2.0
# hist basics on ftrace:print fed by trace_marker: formats, sort, modifiers, readback
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log:"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo "--- end"; echo > error_log; }
T=events/ftrace/print/trigger
H=events/ftrace/print/hist
# mk N MSG: N writes of MSG to trace_marker from one fresh subshell (a new pid)
mk() { ( for i in $(seq $1); do echo -n "$2" > trace_marker; done ); }
feed() { echo -n hello > trace_marker; echo -n hello > trace_marker; mk 3 a; mk 1 b; mk 3 c; mk 5 d; mk 1 e; mk 2 f; mk 7 g; mk 2 h; }
echo "## 1: simple key, multiple triggers, readback forms"
W $T 'hist:keys=common_pid'
A $T 'hist:key=common_pid:values=hitcount:sort=hitcount.descending'
A $T 'hist:keys=common_pid.hex:vals=common_preempt_count,common_flags.hex:sort=common_pid:size=100'
A $T 'hist:keys=common_pid.execname:sort=common_pid.descending:size=0x800'
A $T 'hist:keys=common_pid.log2:vals=hitcount.percent,hitcount.graph:size=4000'
A $T 'hist:keys=common_pid.buckets=100:val=common_pid:sort=hitcount.ascending,common_pid.descending'
A $T 'hist:keys=ip.sym-offset,common_type:vals=common_pid.percent,common_pid.graph:nohitcount'
A $T 'hist:keys=common_cpu,common_type.hex,common_flags:vals=common_pid.hex,common_pid:sort=common_flags,common_pid'
feed
C $T
C $H
echo "## 2: pause / cont / clear / name"
W $T 'hist:keys=common_pid:pause'
A $T 'hist:name=nm:keys=common_pid:vals=hitcount'
A $T 'hist:name=nm:keys=common_pid:vals=hitcount if buf == "hello"'
feed
C $T
C $H
A $T 'hist:keys=common_pid:cont'
A $T 'hist:name=nm:keys=common_pid:vals=hitcount:pause'
mk 4 x
C $T
C $H
A $T 'hist:name=nm:keys=common_pid:vals=hitcount:clear'
C $H
A $T 'hist:keys=common_pid:vals=hitcount:continue'
A $T 'hist:keys=common_pid:sort=hitcount:size=2048:clear'
mk 2 y
C $T
C $H
A $T '!hist:keys=common_pid:vals=hitcount'
A $T '!hist:name=nm:keys=common_pid:vals=hitcount'
A $T '!hist:keys=common_pid if buf == "hello"'
C $T
A $T '!hist:name=nm:keys=common_pid if buf == "hello"'
A $T '!hist:name=other:keys=common_pid if buf == "hello"'
C $T
A $T '!hist:keys=common_pid if buf == "hello"'
C $T
echo "## 3: errors"
W $T 'hist:keys=common_pid'
EL
A $T 'hist:keys=common_pid'
A $T 'hist:keys=common_pid:clear'
A $T 'hist:keys=common_pid:vals=hitcount:size=2048:pause'
A $T 'hist:keys=ip:cont'
A $T 'hist:keys=ip:clear'
A $T 'hist:keys=ip:sort='
A $T 'hist:keys='
A $T 'hist:vals=ip'
A $T 'hist:keys=ip,common_pid,common_type,common_flags'
A $T 'hist:keys=ip:vals=common_pid,common_type,common_flags'
A $T 'hist:keys=ip:sort=ip,common_pid,hitcount'
A $T 'hist:keys=ip:sort=ip.foo'
A $T 'hist:keys=ip:sort=,ip'
A $T 'hist:keys=ip:sort=.descending'
A $T 'hist:keys=ip:sort=common_pid'
A $T 'hist:keys=ip:size=64'
A $T 'hist:keys=ip:size=200000'
A $T 'hist:keys=ip:size=abc'
A $T 'hist:keys=ip:bogus'
A $T 'hist:keys=ip.foo'
A $T 'hist:keys=ip.percent'
A $T 'hist:keys=ip.graph'
A $T 'hist:keys=ip:vals=common_pid.log2'
A $T 'hist:keys=ip:vals=common_pid.sym'
A $T 'hist:keys=ip:vals=common_pid.buckets=10'
A $T 'hist:keys=ip:vals=common_pid.syscall'
A $T 'hist:keys=ip.buckets=0'
A $T 'hist:keys=ip.buckets=x'
A $T 'hist:keys=ip.execname'
A $T 'hist:keys=nosuch'
A $T 'hist:keys=ip:vals=nosuch'
A $T 'hist:keys=ip:nohitcount'
A $T 'hist:keys=ip:vals=hitcount:nohitcount'
A $T 'hist:keys=ip:vals=hitcount.percent:nohitcount'
A $T 'hist:keys=ip.hex.sym'
A $T 'if buf == "x"'
A $T 'hist:keys=ip if'
A $T 'hist:keys=ip if '
A $T 'hist:keys=ip if nosuch == 1'
A $T 'hist:keys=ip if buf == '
A $T 'hist:keys=ip:name=foo'
A $T 'hist:keys=common_pid:name=foo'
A $T 'hist:keys=ip:name=foo if buf == "x"'
A $T 'hist:keys=ip:clock=nosuch'
A $T 'hist:keys=ip,ip'
A $T 'hist:keys=common_pid.sym'
A $T 'hist:keys=common_pid.syscall'
A $T 'hist:keys=common_pid.stacktrace'
A $T 'hist:keys=common_pid.usecs'
A $T 'hist:keys=common_comm'
A $T 'hist:keys=common_timestamp.log2'
A $T 'hist:keys=ip:vals=ip:sort=ip.hex'
A $T 'hist:keys=hitcount'
A $T 'hist:keys=ip:vals=hitcount,hitcount'
A $T 'hist:keys=ip:vals=hitcount.hex'
A $T 'hist:keys=ip:size='
A $T 'hist:keys=ip:keys=common_pid'
A $T 'hist:keys=ip:sort=hitcount:sort=ip'
A $T 'hist:keys=ip:pause:cont'
A $T 'hist:keys=ip.sym-offset.hex'
A $T 'hist:keys=ip:vals=ip.hex,common_pid.execname'
A $T 'hist:keys=ip:vals=common_pid.usecs'
EL
C $T
W $T 'hist:keys=ip:sort=ip,common_pid,hitcount'
W $T 'hist:keys=nosuch'
W $T 'hist:keys=ip:vals=common_pid:sort=common_pid.descending,ip:name=zz'
EL
C $T
echo "## 4: special fields"
W $T 'hist:keys=common_stacktrace'
A $T 'hist:keys=stacktrace,common_pid'
A $T 'hist:keys=common_timestamp:vals=common_timestamp'
A $T 'hist:keys=common_pid:vals=common_timestamp.usecs'
A $T 'hist:keys=cpu,common_pid'
A $T 'hist:keys=CPU:vals=common_cpu'
EL
echo -n hello > trace_marker
C $T
C $H
W $T 'hist:keys=common_pid:vals=common_cpu.hex:sort=common_cpu'
A $T 'hist:keys=common_pid:clock=local:vals=common_timestamp'
EL
C $T
echo "## 5: strings and syscalls"
W events/sched/sched_process_fork/trigger 'hist:keys=parent_comm,child_comm:vals=hitcount'
A events/sched/sched_process_fork/trigger 'hist:keys=parent_comm.hex'
A events/sched/sched_process_exec/trigger 'hist:keys=filename:sort=filename'
A events/sched/sched_process_exec/trigger 'hist:keys=filename,common_pid.execname'
W events/raw_syscalls/sys_enter/trigger 'hist:keys=id.syscall:sort=id if id < 2 || id == 59'
A events/raw_syscalls/sys_enter/trigger 'hist:keys=id:vals=hitcount:sort=id if id == 59'
A events/raw_syscalls/sys_enter/trigger 'hist:keys=args:sort=id'
EL
/bin/true; /bin/true; (mk 1 z)
W events/raw_syscalls/sys_enter/trigger ''
C events/raw_syscalls/sys_enter/trigger
C events/sched/sched_process_fork/trigger
C events/sched/sched_process_fork/hist
C events/sched/sched_process_exec/trigger
C events/sched/sched_process_exec/hist
W events/sched/sched_process_fork/trigger ''
W events/sched/sched_process_exec/trigger ''
