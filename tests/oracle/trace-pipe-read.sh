# oracle: trace-pipe-read (one CPU)
# What one read(2) of trace_pipe returns: dd (busybox) reads with
# read(2), bs bytes at a time, count reads on one open file.  Each read
# prints its byte count and its bytes (pids and timestamps masked, runs
# of 8 or more equal characters as c{N}); then what the buffer still
# holds.  Top level, per_cpu, an instance; a line longer than the read,
# a read larger than a page, lost events, a record whose line does not
# fit the kernel's trace_seq, blocking and end of file; one open
# trace_pipe per CPU (EBUSY).
cd /sys/kernel/tracing
M() { printf '%s' "$(printf "$1%.0s" $(seq 1 $2))" > /tmp/m; dd if=/tmp/m of=${3:-trace_marker} bs=1M 2>/dev/null; }
# markers "NN:" + n-3 copies of a letter, for i in FROM..TO
MS() { local i; for i in $(seq $1 $2); do printf '%02d:%s' $i "$(printf "$3%.0s" $(seq 1 $(($4 - 3))))" > /tmp/m; dd if=/tmp/m of=${5:-trace_marker} bs=1M 2>/dev/null; done; }
mask() {
	sed -E -e 's/-[0-9]+( +)\[/-PID\1[/g' -e 's/-[0-9]+$/-PID/' -e 's/\] (.....) +[0-9]+: /] \1 TS: /g' "$1" | awk '
	function rl(s,   out, i, j, n, c) {
		out = ""; n = length(s); i = 1
		while (i <= n) {
			c = substr(s, i, 1); j = i
			while (j <= n && substr(s, j, 1) == c) j++
			if (j - i >= 8) out = out c "{" (j - i) "}"; else out = out substr(s, i, j - i)
			i = j
		}
		return out
	}
	{ print rl($0) }'
	[ -s "$1" ] && [ -n "$(tail -c 1 "$1")" ] && echo "(no newline at the end)"
	return 0
}
# R FILE BS COUNT [SECS]: one open, COUNT reads of BS bytes (or fewer: a
# read that blocks is ended after SECS, 2 by default)
R() {
	(timeout ${4:-2} dd if=$1 bs=$2 count=$3 2>/dev/null > /tmp/r; true) 2>/dev/null
	echo "--- dd if=$1 bs=$2 count=$3: $(wc -c < /tmp/r) bytes"
	mask /tmp/r
}
left() { echo "--- left in $1: $(grep -vc '^#' $1) lines; $(sed -n '1p;8p' ${2:-per_cpu/cpu0/stats} | tr '\n' ' ')"; }
# the counter clock: lines of fixed width on every machine
echo counter > trace_clock; echo 1408 > buffer_size_kb
echo "##### one read per open, 10 lines of 100"
for bs in 1 10 51 100 150 1000 1024 4096 8192 65536; do
	echo > trace; MS 1 10 a 100
	R trace_pipe $bs 1; left trace
done
echo "##### reads on one open, 10 lines of 100"
for bs in 1 7 60 100 333 1000 4096; do
	echo > trace; MS 1 10 b 100
	R trace_pipe $bs 40; left trace
done
echo "##### a read larger than a page, 100 lines of 100"
for bs in 4096 8000 8154 8155 8156 8192 16384 131072; do
	echo > trace; MS 1 100 c 100
	R trace_pipe $bs 1; left trace
done
echo > trace; MS 1 100 d 100
R trace_pipe 65536 3; left trace
echo "##### lines of 1000"
echo > trace; MS 1 10 e 1000
R trace_pipe 65536 1; left trace
R trace_pipe 4096 1; left trace
echo > trace; MS 1 10 e 1000
R trace_pipe 5000 2; left trace
echo "##### a line longer than the read"
echo > trace; M f 4054; MS 1 2 g 20
R trace_pipe 100 1; left trace
echo > trace; M f 4054; MS 1 2 g 20
R trace_pipe 100 50; left trace
echo > trace; M f 4054; M h 4054; MS 1 2 g 20
R trace_pipe 4096 1; left trace
R trace_pipe 4096 3; left trace
echo "##### lines of 1 to 3 bytes, empty messages"
echo > trace; printf '\n' > trace_marker; printf 'x' > trace_marker; printf 'two\nlines\n' > trace_marker; printf 'end\n' > trace_marker
R trace_pipe 30 1; left trace
echo > trace; printf '\n' > trace_marker; printf 'x' > trace_marker; printf 'two\nlines\n' > trace_marker; printf 'end\n' > trace_marker
R trace_pipe 71 10; left trace
echo "##### lost events"
echo 7 > buffer_size_kb; echo > trace; MS 1 60 i 200
R trace_pipe 20 1; left trace
R trace_pipe 20 1; left trace
echo > trace; MS 1 60 j 200
R trace_pipe 8192 1; left trace
echo 1408 > buffer_size_kb
echo "##### a record whose line does not fit"
echo > trace; M k 100; M 'abcd' 1000 trace_marker_raw; M l 100
R trace_pipe 8192 1; left trace
R trace_pipe 8192 1; left trace
R trace_pipe 8192 1; left trace
echo > trace; M 'abcd' 1000 trace_marker_raw; M m 100
R trace_pipe 100 1; left trace
R trace_pipe 100 1; left trace
echo "##### per_cpu trace_pipe"
echo > trace; MS 1 10 n 100
R per_cpu/cpu0/trace_pipe 150 1; left trace
R per_cpu/cpu0/trace_pipe 8192 1; left trace
echo > trace; MS 1 100 o 100
R per_cpu/cpu0/trace_pipe 65536 1; left trace
echo "##### an instance"
mkdir instances/a; echo counter > instances/a/trace_clock
echo > instances/a/trace; MS 1 10 p 100 instances/a/trace_marker
R instances/a/trace_pipe 150 1; left instances/a/trace instances/a/per_cpu/cpu0/stats
R instances/a/per_cpu/cpu0/trace_pipe 1000 2; left instances/a/trace instances/a/per_cpu/cpu0/stats
MS 1 100 q 100 instances/a/trace_marker
R instances/a/trace_pipe 65536 1; left instances/a/trace instances/a/per_cpu/cpu0/stats
rmdir instances/a
echo "##### blocking and end of file"
echo > trace
(sleep 1; printf 'late' > trace_marker) &
R trace_pipe 4096 1 5
wait
echo > trace; M r 10
exec 3< trace_pipe
dd bs=4096 count=1 <&3 2>/dev/null > /tmp/r; echo "first read: $(wc -c < /tmp/r) bytes"
echo 0 > tracing_on
(timeout 3 dd bs=4096 count=1 <&3 2>/dev/null > /tmp/r; r=$?; exit $r) 2>/dev/null && rc=returned || rc=blocked
echo "tracing off, empty, after a read: $rc, $(wc -c < /tmp/r) bytes"
exec 3<&-
sleep 1.5	# busybox timeout's watcher holds fd 3 a moment longer
exec 3< trace_pipe
(timeout 3 dd bs=4096 count=1 <&3 2>/dev/null > /tmp/r; r=$?; exit $r) 2>/dev/null && rc=returned || rc=blocked
echo "tracing off, empty, nothing read yet: $rc, $(wc -c < /tmp/r) bytes"
exec 3<&-
sleep 1.5
echo 1 > tracing_on
echo "##### reads to the end"
echo > trace; MS 1 8 t 1000
(timeout 2 dd if=trace_pipe bs=131072 2>/dev/null > /tmp/r; true) 2>/dev/null; echo "--- dd bs=131072 to EOF: $(wc -c < /tmp/r) bytes"; mask /tmp/r
echo "##### one open trace_pipe per CPU"
O() { (exec 5< "$1") 2>/tmp/e && echo "open $1: OK" || echo "open $1: $(sed 's/.*: //' /tmp/e)"; }
mkdir instances/b
exec 4< trace_pipe
O trace_pipe; O per_cpu/cpu0/trace_pipe; O instances/b/trace_pipe; O trace
exec 4<&-
O trace_pipe
exec 4< per_cpu/cpu0/trace_pipe
O trace_pipe; O per_cpu/cpu0/trace_pipe; O instances/b/per_cpu/cpu0/trace_pipe
exec 4<&-
O per_cpu/cpu0/trace_pipe
rmdir instances/b
