#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# control.sh - control path speed: mounts tracefuse and bench/bare_fs on
# temporary directories, runs bench/bench_control against both in the
# same run, unmounts.  Run from the build directory (or set TF_BUILDDIR).
#   bench/control.sh [ITERATIONS] [tracefuse options...]
# ROUNDS=N (default 3) repeats the measurement on the same two mounts.
# Default tracefuse options: the oracle's 6.12 formats, --source none (the
# control path alone, no ingest thread competing for the CPU).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${TF_BUILDDIR:-$top}
iters=${1:-5000}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- --formats "$top/tests/oracle/formats-6.12" --source none
tmp=$(mktemp -d)
mkdir "$tmp/tf" "$tmp/bare"
cleanup() {
	[ -n "${tf_pid:-}" ] && kill "$tf_pid" 2>/dev/null && wait "$tf_pid"
	[ -n "${bare_pid:-}" ] && kill "$bare_pid" 2>/dev/null && wait "$bare_pid"
	rmdir "$tmp/tf" "$tmp/bare" "$tmp"
}
trap cleanup EXIT
# Both daemons in the foreground, children of this shell: a daemonized
# tracefuse calls setsid(), and with sched_autogroup_enabled=1 a new
# session is a scheduling group of its own, which alone made its round
# trips 1.3-1.5x the bare one's (see docs/performance.md).
"$build/tracefuse" -f "$@" "$tmp/tf" 2>/dev/null & tf_pid=$!
"$build/bench/bare_fs" "$tmp/bare" & bare_pid=$!
i=0
until grep -q " $tmp/bare fuse.bare_fs " /proc/mounts &&
      grep -q " $tmp/tf fuse.tracefuse " /proc/mounts; do
	i=$((i + 1)); [ $i -lt 500 ] || { echo "a daemon did not mount" >&2; exit 1; }
	sleep 0.01
done
echo "machine: $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# the daemons' own CPU time (user+system, all threads, in clock ticks):
# unlike wall time, hardly disturbed by other load on the machine
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
tf0=$(cpu "$tf_pid") bare0=$(cpu "$bare_pid")
rc=0
rounds=${ROUNDS:-3}
for r in $(seq "$rounds"); do
	echo "round $r:"
	"$build/bench/bench_control" "$tmp/tf" "$tmp/bare" "$iters" || rc=$?
done
tf1=$(cpu "$tf_pid") bare1=$(cpu "$bare_pid")
hz=$(getconf CLK_TCK)
awk -v t=$((tf1 - tf0)) -v b=$((bare1 - bare0)) -v hz="$hz" \
    -v n=$((rounds * 4 * (iters + 200))) 'BEGIN {
	printf "daemon CPU per operation: tracefuse %.1f us, bare %.1f us", \
		t * 1e6 / hz / n, b * 1e6 / hz / n
	if (b > 0) printf " (%.2fx)", t / b
	printf "\n" }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
