#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench_live.sh - the live kernel source under a pipe ping-pong load
# (docs/performance.md, "Live source").  Needs root and a usable host
# tracefs.  Usage: [PAIRS=N] bench/bench_live.sh [SECONDS] [EVENTS...]
# Mounts tracefuse --source kernel, enables EVENTS (default: sched_switch,
# sched_waking, sched_wakeup and raw_syscalls), runs the ping-pong, and
# reports the events that reached tracefuse's trace buffer per second,
# the daemon's CPU time (utime+stime from /proc/PID/stat) as a share of
# one core, and the events the host buffer lost before tracefuse read
# them (per_cpu/cpuN/stats "dropped events").
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${TF_BIN:-$top/tracefuse}
secs=${1:-5}; shift || true
pairs=${PAIRS:-1}	# ping-pong pairs run at once
events=${*:-sched:sched_switch sched:sched_waking sched:sched_wakeup raw_syscalls:sys_enter raw_syscalls:sys_exit}
tmp=$(mktemp -d)
mnt=$tmp/mnt; mkdir "$mnt"
cc -O2 -o "$tmp/pingpong" "$top/bench/bench_live_pingpong.c"
"$bin" -f --source kernel "$mnt" 2> "$tmp/log" &
pid=$!
cleanup() { fusermount3 -u "$mnt" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 100); do grep -q " $mnt fuse.tracefuse" /proc/mounts && break; sleep 0.1; done
echo 16384 > "$mnt/buffer_size_kb"	# tracefuse's own buffer: count, don't wrap
for e in $events; do echo "$e" >> "$mnt/set_event"; done
written() {	# entries + overrun of tracefuse's buffer, all CPUs
	cat "$mnt"/per_cpu/cpu*/stats | awk '/^entries:|^overrun:/ {s += $2} END {print s}'
}
lost() { cat "$mnt"/per_cpu/cpu*/stats | awk '/^dropped events:/ {s += $3} END {print s}'; }
# the streaming thread (tf-kernel): the source's cost, not the readers'
ticks() { for t in /proc/$pid/task/*; do [ "$(cat $t/comm)" = tf-kernel ] && awk '{print $14 + $15}' $t/stat; done; }
drain() { cat "$mnt/events/sched/sched_switch/hist" > /dev/null; }	# read-your-events, cheap
drain
w0=$(written) l0=$(lost) c0=$(ticks) t0=$(date +%s.%N)
pp=()
for i in $(seq "$pairs"); do "$tmp/pingpong" "$secs" > "$tmp/rt.$i" & pp+=($!); done
wait "${pp[@]}"
rt=$(cat "$tmp"/rt.* | awk '{s += $1} END {print s}')
drain
sleep 1.1	# the source's once-a-second look at the host's stats
w1=$(written) l1=$(lost) c1=$(ticks) t1=$(date +%s.%N)
hz=$(getconf CLK_TCK)
awk -v w="$((w1 - w0))" -v l="$((l1 - l0))" -v c="$((c1 - c0))" -v hz="$hz" \
    -v t0="$t0" -v t1="$t1" -v s="$secs" -v rt="$rt" 'BEGIN {
	el = t1 - t0
	printf "round trips: %d (%.0f/s)\n", rt, rt / s
	printf "events: %d, %.0f/s over the load (%.0f/s over %.1f s)\n", w, w / s, w / el, el
	printf "host-side lost: %d\n", l
	printf "tracefuse CPU: %.2f s = %.1f%% of one core over the load\n", c / hz, 100 * c / hz / s
}'
grep "lost in the host" "$tmp/log" || true
