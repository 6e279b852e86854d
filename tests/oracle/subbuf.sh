# oracle: subbuf (one CPU)
# buffer_subbuf_size_kb: what each write reads back as, its errnos, what
# events/header_page and buffer_size_kb say after it, what becomes of
# the buffer's contents and counts, the largest trace_marker record and
# how pages fill and overwrite with bigger sub-buffers; with a snapshot,
# with tracing off, per_cpu, and in an instance.
cd /sys/kernel/tracing
W() { local f=$1 d=$2 label=${3:-$2} r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$label" "$r"; }
# one marker of $2 copies of $1 (dd writes the rest again after a short write)
M() { printf '%s' "$(printf "$1%.0s" $(seq 1 $2))" > /tmp/m; dd if=/tmp/m of=trace_marker bs=1M 2>/dev/null; }
sizes() { echo "subbuf $(cat buffer_subbuf_size_kb) | size $(cat buffer_size_kb) | total $(cat buffer_total_size_kb) | cpu0 $(cat per_cpu/cpu0/buffer_size_kb) | $(grep 'char data' events/header_page | tr '\t' ' ')"; }
lines() { grep -v '^#' trace | sed -E 's/^.*: tracing_mark_write: //' | awk '{ print length($0), substr($0, 1, 3) }' | uniq -c; }
counts() { grep entries-in trace | sed 's/^# *//'; sed -n '1,3p;7,8p' per_cpu/cpu0/stats | tr '\n' ' '; echo; }
echo "##### boot"
sizes
echo "##### writes"
for v in 1 2 3 4 5 8 9 16 32 64 128 256 512 513 1024 2048 4096 8; do
	W buffer_subbuf_size_kb "$v"; sizes
done
for v in 0 abc -1 ' 8' '8 ' 0x8 +16 $'16\n' $'4\n\n' 18446744073709551615 18446744073709551616 17179869185 18014398509481985 ''; do
	W buffer_subbuf_size_kb "$v"; sizes
done
W buffer_subbuf_size_kb 4; sizes
echo "##### the unexpanded buffer at 8K, then expanded"
W buffer_subbuf_size_kb 8; sizes
echo 1 > events/sched/sched_process_free/enable; echo 0 > events/sched/sched_process_free/enable
sizes
W buffer_subbuf_size_kb 4; sizes
W buffer_subbuf_size_kb 16; sizes
echo "##### buffer_size_kb at 8K"
W buffer_subbuf_size_kb 8
for v in 1 7 8 100 1408 2000 7; do W buffer_size_kb $v; sizes; done
W per_cpu/cpu0/buffer_size_kb 100; sizes
W buffer_subbuf_size_kb 4; sizes
W buffer_size_kb 7; sizes
echo "##### contents on a change"
W buffer_subbuf_size_kb 4; echo > trace
M a 100; M b 100; M c 100
lines; counts
W buffer_subbuf_size_kb 4
lines; counts
W buffer_subbuf_size_kb 8
lines; counts
M d 100
lines; counts
echo > trace; lines; counts
echo "##### markers larger than a 4K sub-buffer"
W buffer_subbuf_size_kb 4; W buffer_size_kb 64; echo > trace
M e 4096; M f 5000; M g 8000
lines; counts
W buffer_subbuf_size_kb 8; echo > trace
M e 4096; M f 5000; M g 8000
lines; counts
W buffer_subbuf_size_kb 64; echo > trace
M h 4054; M i 4055; M j 6000
lines; counts
echo "##### pages fill and overwrite by sub-buffer"
for sb in 4 8 16; do
	W buffer_subbuf_size_kb $sb; W buffer_size_kb 7; echo > trace; sizes
	for i in $(seq 1 100); do M x 200; done
	echo "subbuf $sb, 100 x 200:"; lines; counts
	echo 0 > options/overwrite; echo > trace
	for i in $(seq 1 100); do M y 200; done
	echo "subbuf $sb, no overwrite, 100 x 200:"; lines; counts
	echo 1 > options/overwrite
done
echo "##### with tracing off"
W buffer_subbuf_size_kb 4; echo > trace; M k 10
echo 0 > tracing_on
W buffer_subbuf_size_kb 8; sizes; cat tracing_on; lines; counts
echo 1 > tracing_on; M l 10; lines; counts
echo "##### with a snapshot allocated"
W buffer_subbuf_size_kb 4; W buffer_size_kb 7; echo > trace
M m 100; echo 1 > snapshot; M n 100
echo "snapshot:"; grep -v '^#' snapshot | sed -E 's/^.*: tracing_mark_write: //' | awk '{ print length($0), substr($0, 1, 3) }'
W buffer_subbuf_size_kb 8; sizes
echo "after 8K, snapshot:"; grep -v '^#' snapshot | sed -E 's/^.*: tracing_mark_write: //' | awk '{ print length($0), substr($0, 1, 3) }'
grep -c 'Snapshot is allocated' snapshot
echo "trace:"; lines; counts
M o 100; echo 1 > snapshot
echo "after a swap, snapshot:"; grep -v '^#' snapshot | sed -E 's/^.*: tracing_mark_write: //' | awk '{ print length($0), substr($0, 1, 3) }'
echo > trace; for i in $(seq 1 100); do M p 200; done
echo "the swapped-in buffer, 100 x 200:"; lines; counts
echo 0 > snapshot; echo 1 > snapshot; echo 0 > snapshot
W buffer_subbuf_size_kb 4; sizes
echo "##### per_cpu"
W buffer_subbuf_size_kb 8
W per_cpu/cpu0/buffer_size_kb 2000; sizes
W buffer_subbuf_size_kb 4; sizes
W per_cpu/cpu0/buffer_size_kb 7; sizes
echo "##### an instance"
mkdir instances/a
cd instances/a
sizes
W buffer_subbuf_size_kb 8; sizes
cd ../..
sizes
cd instances/a
M q 100; M r 5000; lines; counts
W buffer_subbuf_size_kb 32; sizes; lines; counts
W buffer_subbuf_size_kb 0; sizes
cd ../..
rmdir instances/a
mkdir instances/a; echo "again: $(cat instances/a/buffer_subbuf_size_kb)"; rmdir instances/a
