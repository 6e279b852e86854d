#!/bin/sh
# oracle.sh - runs kernel.sh on the Linux 6.12 oracle with this machine's
# trace-cmd (and its libraries) and perf-tools-unstable scripts copied into
# the guest; prints its output (kept as kernel.out).  From the project's
# root: tests/tools/oracle.sh > tests/tools/kernel.out
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tools/lib"
cp /usr/bin/trace-cmd /usr/sbin/tpoint-perf /usr/sbin/execsnoop-perf \
	/usr/sbin/reset-ftrace-perf "$tmp/tools/"
ldd /usr/bin/trace-cmd | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do cp -L "$lib" "$tmp/tools/lib/"; done
exec "${ORACLE:-$here/../../../shared/oracle/kernel-oracle}" -t 240 \
	"$here/kernel.sh" "$tmp/tools"
