#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ab-inter.sh - interleaved A/B of bench_inter's pipeline on a shared,
# noisy machine: runs `-P -r 3` of A and B alternately and prints each
# round's medians side by side, then per side the median of the round
# medians and the fastest run.
#
#   bench/ab-inter.sh ROUNDS BIN_A BIN_B [extra bench_inter options]
#   e.g. bench/ab-inter.sh 10 /tmp/old/bench/bench_inter ./bench/bench_inter
#
# Copy the binaries first if a rebuild may replace them meanwhile; a
# build reads its formats from its own tree (keep it, or pass -f DIR).
set -eu
rounds=$1 a=$2 b=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
	for side in A B; do
		if [ $side = A ]; then bin=$a; else bin=$b; fi
		"$bin" -P -r 3 "$@" | awk -v s=$side '/pipeline, 1 thread/ {
			sub(/\(/, "", $5); split($5, m, "-"); print s, $4, m[1] }'
	done
done > "$out"
paste - - < "$out"
for side in A B; do
	grep "^$side" "$out" | sort -k2n | awk -v s=$side '
		{ v[NR] = $2; if (best == "" || $3 < best) best = $3 }
		END { printf "%s median of medians %s, fastest %s\n", s,
			     v[int((NR + 1) / 2)], best }'
done
