# oracle: raw-subbuf (one CPU)
# trace_pipe_raw pages against buffer_subbuf_size_kb: for each
# sub-buffer size, 300 trace_marker writes of 40 bytes, then reads of
# trace_pipe_raw (a new dd each, one read(2) of BS bytes) until one
# returns nothing; each prints the bytes it returned and the page's
# commit field (bytes 8-15: the data length, the missed-events flags).
# Then: a read that takes a page's events but not the padding after
# them (the next read gets the padding alone), reads too short for the
# page header or the first event, the stats' bytes and read counts
# through it all, and snapshot_raw of 8 KiB sub-buffers.
# The counter clock: no time extends, whatever the machine's speed.
cd /sys/kernel/tracing
echo counter > trace_clock
rd() {	# BS [FILE]
	{ timeout 2 dd if=per_cpu/cpu0/${2:-trace_pipe_raw} bs=$1 count=1 2>/dev/null > /tmp/raw; } 2>/dev/null
	n=$(wc -c < /tmp/raw)
	c=$(od -An -tx8 -j8 -N8 /tmp/raw 2>/dev/null | tr -d ' ')
	echo "bs=$1: $n bytes, commit ${c:-none}"
	[ "$n" -gt 0 ]
}
cat buffer_size_kb
for kb in 4 8 16; do
	for bs in 65536 4096 100; do
		echo "== buffer_subbuf_size_kb $kb, reads of $bs"
		echo $kb > buffer_subbuf_size_kb
		echo > trace
		for i in $(seq 300); do echo "0123456789012345678901234567890123456789" > trace_marker; done
		grep -E '^(entries|overrun|bytes)' per_cpu/cpu0/stats
		for i in $(seq 20); do rd $bs || break; done
	done
done
marks() { for i in $(seq $1); do echo "0123456789012345678901234567890123456789" > trace_marker; done; }
stats() { grep -E '^(entries|overrun|bytes|read events)' per_cpu/cpu0/stats | tr '\n' ' '; echo; }
echo "== the padding after a page's events"
echo 4 > buffer_subbuf_size_kb
echo > trace
marks 100
stats
for i in 1 2 3 4; do rd 4090; stats; done
echo "== reads too short"
echo > trace
marks 3
rd 16
rd 17
rd 80
rd 81
stats
rd 65536
echo "== snapshot_raw, 8 KiB sub-buffers"
echo 8 > buffer_subbuf_size_kb
echo > trace
marks 150
echo 1 > snapshot
for i in 1 2; do rd 65536 snapshot_raw; done
rd 4096 snapshot_raw
echo 0 > snapshot
