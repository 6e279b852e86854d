# SPDX-License-Identifier: GPL-2.0
# onmatch() and its trace() actions: synthetic events fired from
# ftrace:print markers, chained through a synthetic event, fields of the
# matching event kept by the histogram an action adds there, onmax() and
# onchange() tracing, removal order (counter clock: exact latencies)
t=${TMPDIR:-/tmp}
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
W() { printf '%s' "$2" > $t/in; if dd if=$t/in bs=4M 2>$t/e >> "$1"; then echo "OK $2"; else echo "ERR $2: $(grep -v 'records\|bytes copied' $t/e | sed 's/.*: //')"; fi; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
m() { echo -n "$1" > trace_marker; }
P() { sed -E 's/(\[[0-9]{3}\] .)N/\1./; s/pid: +[0-9]+/pid: P/g; s/pid=[0-9]+/pid=P/g; s/^ +[^ ]+-[0-9]+ +/TASK-PID /' "$@"; }
clr() { for f in "$@"; do for p in 1 2 3 4 5; do grep -v '^#' $f | sed -E 's/ \[(active|paused)\]$//' | tac | while IFS= read -r l; do printf '%s' "!$l" > $t/rm; dd if=$t/rm of=$f oflag=append conv=notrunc 2>/dev/null; done; done; done; echo > error_log; }
T=events/ftrace/print/trigger
S1=events/synthetic/s1/trigger
echo > trace
echo "## a latency from start to end markers"
W synthetic_events 'lat_ev u64 lat; int pid'
W $T 'hist:keys=common_pid:ts0=common_timestamp:clock=counter if buf == "start"'
W $T 'hist:keys=common_pid:lat=common_timestamp-$ts0:clock=counter:onmatch(ftrace.print).lat_ev($lat,common_pid) if buf == "end"'
W events/synthetic/lat_ev/trigger 'hist:keys=pid,lat:sort=lat'
echo 1 > events/synthetic/lat_ev/enable
m start; m x; m end; m end; m start; m end
C $T
P events/synthetic/lat_ev/hist
C events/synthetic/lat_ev/format
P trace | grep -v '^#'
echo "## removal is refused while in use"
W $T '!hist:keys=common_pid:ts0=common_timestamp:clock=counter if buf == "start"'
W synthetic_events '!lat_ev'
W synthetic_events '!lat_ev u64 lat; int pid'
echo 0 > events/synthetic/lat_ev/enable
clr events/synthetic/lat_ev/trigger $T
W synthetic_events '!lat_ev'
C synthetic_events
echo > trace
echo "## chained through a synthetic event; a field of the matching event"
W synthetic_events 's1 int pid; u64 val'
W synthetic_events 'ev2 u64 lat; u64 val'
W $T 'hist:keys=common_pid:t0=common_timestamp:clock=counter:onmatch(ftrace.print).s1(common_pid,$t0) if buf == "a"'
W $S1 'hist:keys=pid:t1=common_timestamp:clock=counter'
W $T 'hist:keys=common_pid:l=common_timestamp-$t1:clock=counter:onmatch(synthetic.s1).ev2($l,val) if buf == "e"'
C $S1
C $T
W events/synthetic/ev2/trigger 'hist:keys=lat,val:sort=val'
m a; m x; m e; m a; m e; m a; m x; m x; m e; m e
C events/synthetic/ev2/hist
P events/synthetic/s1/hist
echo "## trace() with qualified fields"
W synthetic_events 'ev3 u64 lat; u64 val; int pid'
W $T 'hist:keys=common_pid:l2=common_timestamp-$t1:clock=counter:onmatch(synthetic.s1).trace(ev3,$l2,synthetic.s1.val,ftrace.print.common_pid) if buf == "f"'
C $S1
C $T
W events/synthetic/ev3/trigger 'hist:keys=lat,val:sort=val'
m a; m x; m f
C events/synthetic/ev3/hist
echo "## removing: the added histogram goes with the trigger that made it"
W $S1 '!hist:keys=pid:vals=hitcount:synthetic_val=val:sort=hitcount:size=2048'
W $T '!hist:keys=common_pid:l=common_timestamp-$t1:clock=counter:onmatch(synthetic.s1).ev2($l,val) if buf == "e"'
C $S1
clr events/synthetic/ev2/trigger events/synthetic/ev3/trigger $T $S1
C $S1
C $T
echo "## onmax() and onchange() tracing"
W synthetic_events 'mx u64 m; int pid'
W $T 'hist:keys=common_pid:ts1=common_timestamp:clock=counter if buf == "s"'
W $T 'hist:keys=common_pid:d=common_timestamp-$ts1:clock=counter:onmax($d).mx($d,common_pid):onchange($d).trace(mx,$d,common_pid) if buf == "e"'
C $T
W events/synthetic/mx/trigger 'hist:keys=m:sort=m'
m s; m x; m e; m s; m e; m s; m x; m x; m e; m s; m x; m x; m e
C events/synthetic/mx/hist
P events/ftrace/print/hist
clr events/synthetic/mx/trigger $T
W synthetic_events '!mx'
echo "## onmax() and onchange() saving fields"
W $T 'hist:keys=common_pid:ts1=common_timestamp:clock=counter if buf ~ "s*"'
W $T 'hist:keys=common_pid:d=common_timestamp-$ts1:clock=counter:onmax($d).save(common_type,common_pid) if buf ~ "e*"'
W $T 'hist:keys=common_pid:c=common_timestamp-$ts1:clock=counter:onchange($c).save(common_type) if buf ~ "f*"'
m s; m x; m x; m e; m s; m e; m s; m x; m x; m x; m e; m s; m f; m s; m f
C $T
P events/ftrace/print/hist
clr $T
W synthetic_events '!s1'
W synthetic_events '!ev2'
W synthetic_events '!ev3'
C synthetic_events
echo > trace
