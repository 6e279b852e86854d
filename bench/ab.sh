#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ab.sh - interleaved A/B of bench_hist on a shared, noisy machine: runs
# single repetitions of A and B alternately and prints, per case, the
# minimum, median and maximum of the one-thread CPU ns/event.
#
#   bench/ab.sh KEYS ROUNDS 'CMD_A' 'CMD_B'
#   e.g. bench/ab.sh 65536 10 '/tmp/old/bench/bench_hist -b' './bench/bench_hist -b'
#        bench/ab.sh 65536 12 './bench/bench_hist -b -a' './bench/bench_hist -b'
#
# Alternating single repetitions puts both sides under the same
# neighbours; compare medians over ten rounds or more.
set -eu
keys=$1 rounds=$2 a=$3 b=$4
for _ in $(seq "$rounds"); do
	for side in A B; do
		if [ $side = A ]; then cmd=$a; else cmd=$b; fi
		$cmd -r 1 -k "$keys" | awk -F'|' -v s=$side -v k="$keys" '
			$2 + 0 == k { split($6, x, " "); print s, $3, x[1] }'
	done
done | sort -k1,2 -k3n | awk '
	{ k = $1 " " $2; v[k] = v[k] " " $3; n[k]++ }
	END { for (k in v) { split(substr(v[k], 2), a, " ");
		printf "%s n=%d min=%s median=%s max=%s\n", k, n[k], a[1],
		       a[int((n[k] + 1) / 2)], a[n[k]] } }' | sort
