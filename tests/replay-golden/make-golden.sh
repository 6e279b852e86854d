#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make-golden.sh - regenerates the goldens of bats/replay.bats from
# data/sample.dat with trace-cmd (3.1.6 made the committed ones):
#
#   sched.report   `trace-cmd report -N` of the sched and syscalls
#                  (lseek) events, normalized by normalize.sh
#   all.sha256     sha256 of the normalized report of every event
#   all.count      its number of lines
#   hist.expected  raw_syscalls:sys_enter counts per pid, computed with
#                  awk from the same report (what the hist test expects)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dat=${1:-$here/../../data/sample.dat}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
trace-cmd report -N "$dat" 2>/dev/null | grep -v '^cpus=' |
	"$here/normalize.sh" report > "$tmp"
grep -E '^.*-[0-9]+ \[[0-9]+\] [0-9.]+: (sched_[a-z_]+: |sys_lseek[( ])' \
	"$tmp" > "$here/sched.report"
sha256sum < "$tmp" | cut -d' ' -f1 > "$here/all.sha256"
wc -l < "$tmp" > "$here/all.count"
# hitcount of raw_syscalls:sys_enter per pid, descending; ties by pid
awk '$4 == "sys_enter:" { n = split($1, a, "-"); c[a[n]]++ }
     END { for (p in c) print c[p], p }' "$tmp" |
	sort -k1,1nr -k2,2n > "$here/hist.expected"
