#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ring.sh [bench_ring options]: mounts a private tracefuse (no source, the
# oracle kernel's formats) and runs bench/bench_ring against it.
# RING_PIN=1 puts the daemon on CPU 1 and the producers on CPU 0
# (taskset), so that the ring's lines always cross between two CPUs.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
mnt=$(mktemp -d "${TMPDIR:-/tmp}/tf-bench-ring.XXXXXX")
trap 'fusermount3 -u "$mnt" 2>/dev/null; rmdir "$mnt"' EXIT
daemon_cpu= bench_cpu=
if [ "${RING_PIN:-0}" = 1 ]; then
	daemon_cpu="taskset -c 1" bench_cpu="taskset -c 0"
fi
$daemon_cpu "$top/tracefuse" --source none --formats "$top/tests/oracle/formats-6.12" \
	--cpus 2 "$mnt"
TF_DAEMON_PID=$(pgrep -n -f -- " $mnt\$") \
LD_LIBRARY_PATH=$top/src/client/.libs $bench_cpu "$top/bench/bench_ring" "$@" "$mnt"
