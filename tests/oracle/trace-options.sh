# SPDX-License-Identifier: GPL-2.0
# oracle: trace-options - how the output options (irq-info, record-tgid,
# context-info, latency-format, verbose) and trace_clock change trace,
# trace_pipe, per_cpu trace and snapshot; saved_tgids.
# P sanitizes what varies: pids (and their padding), sec.usec timestamps,
# latency times (the mark after "us": kept when blank, else M), tgids
# (their width is checked apart).  trace_pipe is read through a pipe:
# bash reports a job that busybox's timeout killed, coreutils' not.
P() { sed -E -e 's/^( *[^ ].{0,15})-[0-9]+ +(\(|\[[0-9]{3}\])/\1-PID \2/' \
	-e 's/\( *[0-9]+\) /(TGID) /' -e 's/ +[0-9]+\.[0-9]{6}: / TS: /' \
	-e 's/^( *[^ ]+)-[0-9]+ +([0-9]+[^ ]{5}) +[0-9]+us(.): /\1-PID \2 Nus\3: /' \
	-e 's/ Nus[^ ]: / NusM: /' \
	-e 's/^( *[^ ]+)-[0-9]+ +([0-9]+[^ ]{5}) +([0-9]+): /\1-PID \2 \3: /' \
	-e 's/^( *[^ ]+) +[0-9]+ +([0-9]+ [0-9]+ [0-9a-f]{8} [0-9a-f]{8}) \[[0-9a-f]{8,}\] [0-9]+\.[0-9]{3}ms \(\+[0-9]+\.[0-9]{3}ms\): /\1 PID \2 [TS] N.NNNms (+N.NNNms): /' \
	-e 's/^\# +\| task: .*/#    | task: (per-cpu data)/'; }
M() { echo "$1" > trace_marker; }
{
echo "##### headers: irq-info x record-tgid"
for irq in 1 0; do for tgid in 0 1; do
	echo "=== irq-info=$irq record-tgid=$tgid"
	echo $irq > options/irq-info; echo $tgid > options/record-tgid
	echo > trace; M "irq$irq tgid$tgid"; P < trace
done; done
echo 1 > options/irq-info; echo 0 > options/record-tgid
echo "=== trace_options read back"
grep -E '^(no)?(irq-info|record-tgid|context-info|latency-format|verbose)$' trace_options | tr '\n' ' '; echo
echo "##### context-info off"
echo 0 > options/context-info
echo "=== plain"; echo > trace; M noctx1; cat trace
echo "=== with record-tgid, noirq-info"; echo 1 > options/record-tgid; echo 0 > options/irq-info
echo > trace; M noctx2; cat trace
echo 0 > options/record-tgid; echo 1 > options/irq-info
echo "=== with latency-format"; echo 1 > options/latency-format
echo > trace; M noctx3; cat trace; echo 0 > options/latency-format
echo "=== trace_pipe"; echo > trace; M noctx4; timeout 1 cat trace_pipe | cat
echo "=== empty"; echo > trace; cat trace
echo 1 > options/context-info
echo "##### latency-format"
echo 1 > options/latency-format
echo "=== empty buffer"; echo > trace; cat trace
echo "=== one entry"; echo > trace; M lat1; P < trace
echo "=== two entries, record-tgid and noirq-info ignored"
echo 1 > options/record-tgid; echo 0 > options/irq-info
echo > trace; M lat2; M lat3; P < trace
echo 0 > options/record-tgid; echo 1 > options/irq-info
echo "=== per_cpu/cpu0/trace"; P < per_cpu/cpu0/trace
echo "=== trace_pipe (the next entry is the entry itself)"; timeout 1 cat trace_pipe | cat | P
echo "=== trace_pipe verbose"; echo 1 > options/verbose; M lat4; M lat5; timeout 1 cat trace_pipe | cat | P; echo 0 > options/verbose
echo "=== snapshot (never latency-format)"
M snap1; echo 1 > snapshot; P < snapshot; echo 0 > snapshot
echo "=== verbose"; echo 1 > options/verbose
echo > trace; M verb1; P < trace
echo 0 > options/latency-format
echo "##### verbose"
echo "=== header and lines"; echo > trace; M verb2; P < trace
echo "=== noirq-info"; echo 0 > options/irq-info; P < trace; echo 1 > options/irq-info
echo 0 > options/verbose
echo "##### trace_clock counter"
echo counter > trace_clock; echo > trace; M c1; M c2; cat trace | P
echo "=== latency-format: counts from the reset"
echo 1 > options/latency-format; P < trace; echo 0 > options/latency-format
echo "=== per_cpu/cpu0/trace"; P < per_cpu/cpu0/trace
echo "=== instance: one counter for all"
mkdir instances/clk; echo counter > instances/clk/trace_clock
echo c3 > instances/clk/trace_marker; P < instances/clk/trace
M c4; grep -v '^#' trace | P
rmdir instances/clk
echo "=== snapshot reset by a clock change"
echo 1 > snapshot; echo counter > trace_clock; head -6 snapshot; echo 0 > snapshot
echo "=== hist clock= sets the clock and resets the buffer"
echo global > trace_clock; M before
echo 'hist:keys=common_timestamp:clock=counter' > events/ftrace/print/trigger
cat trace_clock; grep -vc '^#' trace
M h1; grep -v '^#' trace | P
grep -E '^\{' events/ftrace/print/hist
echo '!hist:keys=common_timestamp:clock=counter' > events/ftrace/print/trigger
echo "=== common_timestamp without clock= is global"
echo counter > trace_clock
echo 'hist:keys=common_timestamp' > events/ftrace/print/trigger; cat trace_clock
echo '!hist:keys=common_timestamp' > events/ftrace/print/trigger
echo "##### trace_clock uptime and x86-tsc"
for c in uptime x86-tsc; do
	echo $c > trace_clock; echo > trace; M $c
	echo "=== $c"; grep -v '^#' trace | sed -E 's/^.*\[000\] \.{5}( +[0-9]+): (.*)$/\1|\2/' | awk -F'|' '{ print "ts field of 13 chars or more:", (length($1) >= 13), "an integer:", ($1 ~ /^ +[0-9]+$/), "|", $2 }'
done
echo local > trace_clock
echo "##### saved_tgids and tgids"
echo "=== before: $(wc -l < saved_tgids) lines"
echo 1 > options/record-tgid; echo > trace; M t1
echo "=== no event enabled: $(grep -c '(-------)' trace) unknown, saved_tgids has me: $(grep -c "^$$ $$\$" saved_tgids)"
echo 1 > events/sched/sched_kthread_stop/enable
M t2; grep t2 trace | P
echo "=== with an event enabled: saved_tgids has me: $(grep -c "^$$ $$\$" saved_tgids); line: $(grep t2 trace | grep -c "($(printf '%7d' $$))")"
echo 0 > events/sched/sched_kthread_stop/enable
echo 0 > options/record-tgid
echo "=== after record-tgid off: $(grep -c "^$$ $$\$" saved_tgids)"
} 2>&1
