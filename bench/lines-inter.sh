#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lines-inter.sh - what a waking+switch pair of bench_inter's pipeline
# costs in instructions and in lines brought in from memory, by
# callgrind's cache simulation (a 4 MiB last level, 48 KiB L1d): the
# same figures every run, whatever else the machine does.  Prefetches
# are not simulated: the lines are those fetched, ahead of use or not.
#
#   bench/lines-inter.sh [BIN] [pairs]     (default ./bench/bench_inter, 262144)
set -eu
bin=${1:-./bench/bench_inter}
pairs=${2:-262144}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --cache-sim=yes --LL=4194304,16,64 \
	--D1=49152,12,64 --callgrind-out-file="$out" \
	--toggle-collect=ingest_thread "$bin" -P -n "$pairs" -r 1 >/dev/null 2>&1
awk -v n="$pairs" '
	/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
	/^summary:/ { for (i = 2; i <= NF; i++) v[i - 1] = $i }
	END {
		printf "per pair: %.0f instructions, %.2f lines read, %.2f written (%.2f)\n",
		       v[col["Ir"]] / n, v[col["DLmr"]] / n, v[col["DLmw"]] / n,
		       (v[col["DLmr"]] + v[col["DLmw"]]) / n
	}' "$out"
