#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz-synth.sh [SECONDS] [OUTDIR] - build tests/fuzz/fuzz_synth.c
# (libFuzzer, ASan, UBSan) and run it for SECONDS (default 600) from seeds
# made of the synthetic_events and dynamic_events commands of
# tests/oracle/synth-*.sh.  Crashes land in OUTDIR (default
# /tmp/fuzz-synth).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
out=${2:-/tmp/fuzz-synth}
mkdir -p "$out/seeds" "$out/corpus"
cd "$top"
clang -g -O1 -fsanitize=fuzzer,address,undefined \
	-DTF_FUZZ_FORMATS=\""$top/tests/oracle/formats-6.12"\" \
	-DTF_DATADIR=\"/nonexistent\" -DTF_VERSION=\"fuzz\" \
	-DTF_SRCDATADIR=\""$top/data"\" -D_GNU_SOURCE -DURCU_INLINE_SMALL_FUNCTIONS \
	-I src -I include -I /usr/include/traceevent -I /usr/include/tracefs \
	-I /usr/include/trace-cmd -I /usr/include/fuse3 \
	$(ls src/*/*.c | grep -v '^src/main\.c$') tests/fuzz/fuzz_synth.c \
	-ltracecmd -ltracefs -ltraceevent -lurcu-memb -lurcu-common \
	-lurcu-cds -lfuse3 -lpthread -o "$out/fuzz_synth"
# seeds: every quoted command written to synthetic_events or
# dynamic_events by the oracle scripts, with control bytes that fire
# records (0x04) and alternate the files (0x02)
i=0
grep -ho "[AW] \(synthetic\|dynamic\)_events '[^']*'" tests/oracle/synth-*.sh |
sed "s/^[AW] [a-z_]* '//; s/'\$//" | sort -u |
while IFS= read -r cmd; do
	i=$((i + 1))
	printf '\004%s' "$cmd" > "$out/seeds/s$i"
	printf '\006%s\377s:%s' "$cmd" "$cmd" > "$out/seeds/d$i"
done
exec "$out/fuzz_synth" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
	-print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "$out/seeds"
