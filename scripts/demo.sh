#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo.sh - README command 1: set up, build, mount tracefuse on
# /mnt/tracing (or $1), run an example trigger script there, unmount.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
mnt=${1:-/mnt/tracing}
mkdir -p "$mnt"
# The bundled sample trace (recorded on a real kernel), replayed when
# the script first reads hist or trace: the same output on every machine.
# In the foreground of a background job, so that the script can wait
# for the daemon's exit after the unmount and leave nothing running.
# Its messages go to a log, shown if it fails to mount.
log=$(mktemp)
./tracefuse -f --source "replay:$PWD/data/sample.dat,start=read" "$mnt" \
	> "$log" 2>&1 &
pid=$!
trap 'fusermount3 -u "$mnt" 2>/dev/null || true; wait "$pid" || true; rm -f "$log"' EXIT
i=0
until grep -q " $mnt fuse.tracefuse " /proc/mounts; do
	i=$((i + 1))
	if ! kill -0 "$pid" 2>/dev/null || [ $i -ge 1000 ]; then
		echo "demo: tracefuse did not mount $mnt:" >&2
		cat "$log" >&2
		exit 1
	fi
	sleep 0.01
done
echo "== mounted: $(grep " $mnt " /proc/mounts)"
(cd "$mnt" && sh "$OLDPWD/scripts/example-trigger-script.sh")
