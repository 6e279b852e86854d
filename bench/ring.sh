#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ring.sh [bench_ring options]: mounts a private tracefuse (no source, the
# oracle kernel's formats) and runs bench/bench_ring against it.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
mnt=$(mktemp -d "${TMPDIR:-/tmp}/tf-bench-ring.XXXXXX")
trap 'fusermount3 -u "$mnt" 2>/dev/null; rmdir "$mnt"' EXIT
"$top/tracefuse" --source none --formats "$top/tests/oracle/formats-6.12" \
	--cpus 2 "$mnt"
TF_DAEMON_PID=$(pgrep -n -f -- " $mnt\$") \
LD_LIBRARY_PATH=$top/src/client/.libs "$top/bench/bench_ring" "$@" "$mnt"
