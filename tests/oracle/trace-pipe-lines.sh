# SPDX-License-Identifier: GPL-2.0
# oracle: trace-pipe-lines (reference only: not compared, see FINDINGS.md)
cd /sys/kernel/tracing
echo 1 > events/sched/sched_process_free/enable; echo 0 > events/sched/sched_process_free/enable
M() { printf '%s' "$(printf "$1%.0s" $(seq 1 $2))" > /tmp/m; dd if=/tmp/m of=trace_marker bs=1M 2>/dev/null; }
L() { sed -E 's/^.*: tracing_mark_write: //' | awk '{print length($0), substr($0,1,3)}'; }
echo "##### one line too big"
echo > trace; M a 4054; M b 10; timeout 1 cat trace_pipe | L
echo "##### cat: lines crossing 4096"
echo > trace; for c in a b c d e f g h; do M $c 1000; done; timeout 1 cat trace_pipe | L
echo "##### raw bytes of the first read"
echo > trace; for c in a b c d e; do M $c 1000; done; timeout 1 dd if=trace_pipe bs=65536 count=1 2>/dev/null | wc -c
echo "##### dd bs=100"
echo > trace; for c in a b c d e f; do M $c 1000; done; timeout 2 dd if=trace_pipe bs=100 2>/dev/null | L
echo "##### dd bs=5000"
echo > trace; for c in a b c d e f; do M $c 1000; done; timeout 2 dd if=trace_pipe bs=5000 2>/dev/null | L
echo "##### dd bs=4096 count=1 then cat"
echo > trace; for c in a b c d e f; do M $c 1000; done; timeout 1 dd if=trace_pipe bs=4096 count=1 2>/dev/null | wc -c; timeout 1 cat trace_pipe | L
