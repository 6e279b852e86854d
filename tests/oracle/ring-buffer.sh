# SPDX-License-Identifier: GPL-2.0
# oracle: ring-buffer
# The kernel's ring buffer pages, seen through trace_marker writes of
# known sizes on the unexpanded (2-page) buffer, then buffer expansion.
cd /sys/kernel/tracing
M() { printf '%s' "$(printf "$1%.0s" $(seq 1 $2))" > /tmp/m; dd if=/tmp/m of=trace_marker bs=1M 2>/dev/null; }
show() { echo "##### $1"; grep -v '^#' trace | sed -E 's/^.*: tracing_mark_write: //' | awk '{print length($0), substr($0,1,3)}'; grep entries-in trace; head -3 per_cpu/cpu0/stats; }
cat buffer_size_kb
echo > trace; M a 4054; M b 4054; M c 4054; show three-4054
echo > trace; M a 4054; M b 4054; M c 4054; M d 4054; show four-4054
echo > trace; M a 10; M b 4054; M c 4054; M d 10; show small-big-big-small
echo > trace; M a 2000; M b 2000; M c 2000; show three-2000
echo > trace; M a 3000; M b 3000; M c 3000; M d 3000; show four-3000
echo > trace; M a 4054; show one-4054
echo > trace; M a 4054; M b 84; show 4054-84
echo > trace; M a 4054; M b 4054; M c 84; show 4054-4054-84
echo "##### trace_pipe of four 3000"
echo > trace; M a 1000; M b 1000; M c 1000; M d 1000; M e 1000; M f 1000; M g 1000
timeout 1 cat trace_pipe | sed -E 's/^.*: tracing_mark_write: //' | awk '{print length($0), substr($0,1,3)}'
grep entries-in trace; sed -n '1,3p;7,8p' per_cpu/cpu0/stats
echo "##### trace_pipe lines past 4 KiB"
echo > trace; M a 3000; M b 3000; M c 3000; M d 3000
timeout 1 cat trace_pipe | sed -E 's/^.*: tracing_mark_write: //' | awk '{print length($0), substr($0,1,3)}'
echo "##### trigger does not expand"
echo 'traceon' > events/sched/sched_switch/trigger; cat buffer_size_kb; echo '!traceon' > events/sched/sched_switch/trigger
echo 7 > buffer_size_kb; cat buffer_size_kb; echo > trace
for i in $(seq 1 40); do M x 200; done; show small-buffer-40x200
echo 1 > buffer_size_kb; cat buffer_size_kb; echo > trace
for i in $(seq 1 40); do M y 200; done; show buffer1-40x200
echo 0 > options/overwrite; echo > trace
for i in $(seq 1 40); do M z 200; done; show nooverwrite-40x200
sed -n '7p' per_cpu/cpu0/stats
echo 1 > options/overwrite
echo "##### enable file expands"
echo 1408 > buffer_size_kb; cat buffer_size_kb
