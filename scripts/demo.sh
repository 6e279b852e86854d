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
./tracefuse --source "replay:$PWD/data/sample.dat,start=read" "$mnt"
trap 'fusermount3 -u "$mnt"' EXIT
echo "== mounted: $(grep " $mnt " /proc/mounts)"
(cd "$mnt" && sh "$OLDPWD/scripts/example-trigger-script.sh")
