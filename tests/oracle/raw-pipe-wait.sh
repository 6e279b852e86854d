# oracle: raw-pipe-wait (one CPU)
# When a read(2) of trace_pipe_raw and of snapshot_raw waits: dd
# (busybox) reads with read(2); each read is given 2 s (timeout), and
# how many bytes it returned and whether a read waited (killed by timeout)
# are printed.  trace_pipe_raw: empty, with events, with tracing off;
# snapshot_raw: not allocated, allocated and empty, with a snapshot
# (its page, then empty again), freed.
cd /sys/kernel/tracing
rd() {
	{ timeout 2 dd if=$1 bs=4096 2>/dev/null > /tmp/raw; } 2>/dev/null
	r=$?
	w=returned; [ $r -ne 0 ] && w=waited
	echo "$2: $(wc -c < /tmp/raw) bytes, $w"
}
echo > trace
rd per_cpu/cpu0/trace_pipe_raw "pipe_raw empty"
for i in 1 2 3 4 5 6 7 8; do echo hello > trace_marker; done
rd per_cpu/cpu0/trace_pipe_raw "pipe_raw 8 markers"
for i in 1 2 3 4 5 6 7 8; do echo hello > trace_marker; done
echo 0 > tracing_on
rd per_cpu/cpu0/trace_pipe_raw "pipe_raw 8 markers, tracing off"
rd per_cpu/cpu0/trace_pipe_raw "pipe_raw empty, tracing off"
echo 1 > tracing_on
rd per_cpu/cpu0/snapshot_raw "snapshot_raw not allocated"
echo 1 > snapshot
rd per_cpu/cpu0/snapshot_raw "snapshot_raw allocated, empty"
for i in 1 2 3 4 5 6 7 8; do echo hello > trace_marker; done
echo 1 > snapshot
rd per_cpu/cpu0/snapshot_raw "snapshot_raw 8 markers"
echo 0 > snapshot
rd per_cpu/cpu0/snapshot_raw "snapshot_raw freed"
