#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz-campaign.sh CPU_SECONDS OUTDIR TARGET [SLICE] - runs one target of
# scripts/fuzz.sh until the fuzzer has used CPU_SECONDS of CPU time
# (user + system, measured by /usr/bin/time, so a niced run on a busy
# machine gets the same amount of fuzzing as a quiet one).  It builds
# OUTDIR/fuzz_TARGET once, then runs it in slices of SLICE wall seconds
# (default 600), each continuing OUTDIR's corpus, and prints every
# slice's and the campaign's CPU seconds, executions and coverage; the
# totals are appended to OUTDIR/campaign.txt.  Stops at the first crash,
# leak or timeout (exit 1; the input and log stay in OUTDIR).
set -u
[ $# -ge 3 ] || { echo "usage: fuzz-campaign.sh CPU_SECONDS OUTDIR TARGET [SLICE]" >&2; exit 2; }
budget=$1 out=$2 t=$3 slice=${4:-600}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=0 execs=0 n=0 rc=0
# the build: fuzz.sh with a one-second run
"$top/scripts/fuzz.sh" 1 "$out" "$t" > "$out/build.log" 2>&1 || {
	cat "$out/build.log" >&2
	exit 1
}
while awk -v c="$cpu" -v b="$budget" 'BEGIN { exit !(c < b) }'; do
	n=$((n + 1))
	FUZZ_REUSE=1 /usr/bin/time -f '%U %S' -o "$out/slice.time" \
		"$top/scripts/fuzz.sh" "$slice" "$out" "$t" > "$out/slice.log" 2>&1
	rc=$?
	s=$(awk '{ print $1 + $2 }' "$out/slice.time" | tail -1)
	cpu=$(awk -v c="$cpu" -v s="$s" 'BEGIN { print c + s }')
	e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/slice.log")
	execs=$((execs + ${e:-0}))
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$out/fuzz_$t.log" | tail -1)
	echo "fuzz_$t slice $n: $s CPU s, ${e:-0} executions, $cov; campaign: $cpu CPU s, $execs executions"
	[ $rc -eq 0 ] || { grep -E 'FAILED|ERROR|SUMMARY' "$out/slice.log"; break; }
done
result=clean
[ $rc -eq 0 ] || result="stopped: see $out"
echo "$(date -u '+%m-%d %H:%M') commit $commit fuzz_$t: $cpu CPU s in $n slices, $execs executions, $cov, $result" |
	tee -a "$out/campaign.txt"
exit $rc
