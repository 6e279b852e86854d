# SPDX-License-Identifier: GPL-2.0
# oracle: synth-trace
#  What `trace` prints for records of synthetic events (the kernel's
#  print_synth_event): every kind of field, the verbose option's type
#  prefixes, the flags column of an event generated inside another's
#  trigger, stacks, gfp flags, a chain of synthetic events, and a record
#  of a removed event.  The records come from hist onmatch() actions on
#  trace_marker writes and sched events.  "#####" sections print the
#  lines with comm, pid, times and latencies masked; "=== raw" sections
#  the same lines as they are, for tests/test_synth.c, which generates
#  the same records with tf_synth_trace() and compares the text.
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
S() { grep -v '^#' trace | sed -E 's/^ *([^ ].*)-[0-9]+ +\[([0-9]+)\] ([^ ]+) +[0-9]+\.[0-9]+: /COMM-PID [\2] \3 TS: /; s/(lat|l2)=[0-9]+/\1=LAT/g; s/(pid|child)=[0-9]+/\1=PID/g; s/ip=[0-9]+/ip=IP/g' | grep -v '^=> '; }
RAW() { echo "=== raw $1"; grep -v '^#' trace; }
P=events/ftrace/print/trigger
START='hist:keys=common_pid:ts0=common_timestamp.usecs if buf == "start"'
echo "##### a trace_marker cause"
A synthetic_events 'ev1 int pid; u64 lat; unsigned long ip'
W $P "$START"
A $P 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).ev1(common_pid,$lat,ip) if buf == "end"'
W events/synthetic/ev1/enable 1
echo > trace
echo -n start > trace_marker; echo -n end > trace_marker
S; RAW marker
W options/verbose 1
S; RAW marker-verbose
W options/verbose 0
A $P '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).ev1(common_pid,$lat,ip) if buf == "end"'
W events/synthetic/ev1/enable 0
echo "##### strings and a tracepoint cause"
A synthetic_events 'ev2 char comm[16]; char dcomm[]; pid_t child; u64 lat; char fname[]'
W events/sched/sched_process_fork/trigger 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).ev2(parent_comm,child_comm,child_pid,$lat,parent_comm)'
W events/synthetic/ev2/enable 1
echo > trace
echo -n start > trace_marker; /bin/true
S; RAW fork
W options/verbose 1
S; RAW fork-verbose
W options/verbose 0
W events/sched/sched_process_fork/trigger '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).ev2(parent_comm,child_comm,child_pid,$lat,parent_comm)'
W events/synthetic/ev2/enable 0
echo "##### stacks"
A synthetic_events 'ev4 unsigned long[] st; u64 lat'
A synthetic_events 'ev8 u64 lat; long[] st'
A $P 'hist:keys=common_pid:st0=common_stacktrace if buf == "sstart"'
A $P 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0,s=$st0:onmatch(ftrace.print).ev4($s,$lat) if buf == "send"'
A $P 'hist:keys=common_pid:l8=common_timestamp.usecs-$ts0,s8=$st0:onmatch(ftrace.print).ev8($l8,$s8) if buf == "s8"'
W events/synthetic/ev4/enable 1
W events/synthetic/ev8/enable 1
echo > trace
echo -n start > trace_marker; echo -n sstart > trace_marker
echo -n send > trace_marker
echo -n start > trace_marker; echo -n sstart > trace_marker
echo -n s8 > trace_marker
S | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+$/+OFF/'; RAW stacks
W options/verbose 1
S | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+$/+OFF/'; RAW stacks-verbose
W options/verbose 0
W events/synthetic/ev8/enable 0
A $P '!hist:keys=common_pid:l8=common_timestamp.usecs-$ts0,s8=$st0:onmatch(ftrace.print).ev8($l8,$s8) if buf == "s8"'
echo "##### a chain: a synthetic event's trigger generates another"
A synthetic_events 'ev9 u64 l2'
W events/synthetic/ev4/trigger 'hist:keys=common_pid:onmatch(ftrace.print).ev9(lat)'
W events/synthetic/ev9/enable 1
echo > trace
echo -n start > trace_marker; echo -n sstart > trace_marker; echo -n send > trace_marker
S | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+$/+OFF/'; RAW chain
W events/synthetic/ev4/enable 0
echo > trace
echo -n start > trace_marker; echo -n sstart > trace_marker; echo -n send > trace_marker
S; RAW chain-soft
W events/synthetic/ev4/trigger '!hist:keys=common_pid:onmatch(ftrace.print).ev9(lat)'
W events/synthetic/ev9/enable 0
A $P '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0,s=$st0:onmatch(ftrace.print).ev4($s,$lat) if buf == "send"'
echo "##### gfp flags: kmalloc's next to the same value in a synthetic event"
A synthetic_events 'ev6 unsigned long g; u64 lat'
W events/kmem/kmalloc/trigger 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).ev6(gfp_flags,$lat)'
W events/synthetic/ev6/enable 1
W events/kmem/kmalloc/enable 1
echo > trace
echo -n start > trace_marker; ls / > /dev/null
echo -n start > trace_marker; mkdir instances/g1
echo -n start > trace_marker; rmdir instances/g1
echo -n start > trace_marker; cat /proc/self/status > /dev/null
echo -n start > trace_marker; echo x > /tmp/gfp
echo -n start > trace_marker; /bin/true
echo -n start > trace_marker; exec 7< /proc/self/maps; exec 7<&-
W events/kmem/kmalloc/enable 0
W events/synthetic/ev6/enable 0
W events/kmem/kmalloc/trigger '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).ev6(gfp_flags,$lat)'
echo "=== raw gfp"
grep -v '^#' trace | grep -B1 ' ev6: ' | grep -o 'gfp_flags=[^ ]*\|g=[0-9]*' | paste - - | sort -u
echo "##### a removed event's records"
A synthetic_events 'r1 u64 lat'
A $P 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).r1($lat) if buf == "end"'
W events/synthetic/r1/enable 1
echo > trace
echo -n start > trace_marker; echo -n end > trace_marker
A $P '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(ftrace.print).r1($lat) if buf == "end"'
W events/synthetic/r1/enable 0
C events/synthetic/r1/id
A synthetic_events '!r1'
S | sed -E 's/Unknown type [0-9]+/Unknown type ID/'; RAW removed
A synthetic_events 'r3 u64 a; u64 b; u64 c'
C events/synthetic/r3/id
S | sed -E 's/ a=[0-9]+/ a=LAT/'; RAW reused
A dynamic_events '-:r3'
S
