#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pushdown.sh - a filtered lseek workload through the live source
# (docs/performance.md, "Filters pushed down to the host").  Needs root
# and a usable host tracefs.  Usage: [TF_BIN=...] bench/pushdown.sh [N]
# Mounts tracefuse --source kernel, filters syscalls:sys_enter_lseek on
# `fd == 1000`, runs N lseek(2) on another fd, and reports the records
# read from the host (its instance's per_cpu stats, "read events"), the
# streaming thread's CPU time and what was recorded (nothing).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${TF_BIN:-$top/tracefuse}
n=${1:-200000}
tmp=$(mktemp -d)
mnt=$tmp/mnt host=$tmp/host
mkdir "$mnt" "$host"
mount -t tracefs nodev "$host"
"$bin" -f --source kernel "$mnt" 2>/dev/null & pid=$!
cleanup() { fusermount3 -u "$mnt" 2>/dev/null; wait "$pid" 2>/dev/null; umount "$host"; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 100); do grep -q " $mnt fuse.tracefuse" /proc/mounts && break; sleep 0.05; done
inst=$host/instances/tracefuse-$pid
echo 'fd == 1000' > "$mnt/events/syscalls/sys_enter_lseek/filter"
echo 1 > "$mnt/events/syscalls/sys_enter_lseek/enable"
ticks() { for t in /proc/$pid/task/*; do [ "$(cat $t/comm)" = tf-kernel ] && awk '{print $14 + $15}' $t/stat; done; }
read_ev() { cat "$inst"/per_cpu/cpu*/stats | awk '/^read events:/ {s += $3} END {print s}'; }
cat "$mnt/trace" > /dev/null
c0=$(ticks) r0=$(read_ev) t0=$(date +%s.%N)
python3 -c "
import os
fd = os.open('/etc/hostname', os.O_RDONLY)
for i in range($n): os.lseek(fd, 0, 0)
"
t1=$(date +%s.%N)
cat "$mnt/trace" > /dev/null
c1=$(ticks) r1=$(read_ev)
hz=$(getconf CLK_TCK)
echo "$n lseeks in $(echo "$t1 - $t0" | bc) s"
echo "records read from the host: $((r1 - r0))"
echo "tf-kernel CPU: $(( (c1 - c0) * 1000 / hz )) ms"
echo "recorded: $(grep -vc '^#' "$mnt/trace" || true)"
