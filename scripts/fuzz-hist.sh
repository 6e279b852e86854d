#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz-hist.sh [SECONDS] [OUTDIR] - build tests/fuzz/fuzz_hist.c (libFuzzer,
# ASan, UBSan) and run it for SECONDS (default 600) from seeds made of the
# hist commands in tests/hist-golden/*.sh.  Crashes land in OUTDIR
# (default /tmp/fuzz-hist).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
out=${2:-/tmp/fuzz-hist}
mkdir -p "$out/seeds" "$out/corpus"
cd "$top"
clang -g -O1 -fsanitize=fuzzer,address,undefined \
	-DTF_FUZZ_FORMATS=\""$top/tests/oracle/formats-6.12"\" \
	-DTF_DATADIR=\"/nonexistent\" -DTF_VERSION=\"fuzz\" \
	-DTF_SRCDATADIR=\""$top/data"\" -D_GNU_SOURCE -DURCU_INLINE_SMALL_FUNCTIONS \
	-I src -I include -I /usr/include/traceevent -I /usr/include/tracefs \
	-I /usr/include/trace-cmd -I /usr/include/fuse3 \
	$(ls src/*/*.c | grep -v '^src/main\.c$') tests/fuzz/fuzz_hist.c \
	-ltracecmd -ltracefs -ltraceevent -lurcu-memb -lurcu-common \
	-lurcu-cds -lfuse3 -lpthread -o "$out/fuzz_hist"
# seeds: every quoted 'hist:...' / '!hist:...' of the golden scripts, one
# per file, with a control byte that fires records (0x30 | event)
i=0
grep -ho "'!\?hist:[^']*'" tests/hist-golden/*.sh | tr -d "'" | sort -u |
while IFS= read -r cmd; do
	i=$((i + 1))
	for ev in 0 1 3; do
		printf "\\$(printf %o $((0x38 + ev)))%s" "$cmd" > "$out/seeds/s$i-$ev"
	done
done
# and one seed per inter-event golden script: its trigger writes in order,
# each routed to its event's file by a digit (see fuzz_hist.c)
for g in tests/hist-golden/inter-*.sh tests/hist-golden/design-notes.sh; do
	i=$((i + 1))
	sed -n "s/^W \$\([A-Z0-9]*\)\(\/trigger\)\? '\(.*\)'\$/\1 \3/p" "$g" |
	sed -e 's/^T /0 /' -e 's/^SW /2 /' -e 's/^WK /5 /' -e 's/^KM /1 /' \
	    -e 's/^S1 /6 /' | grep '^[0-9] ' | head -16 > "$out/seeds/inter-$i.txt"
	{ printf '\070'; cat "$out/seeds/inter-$i.txt"; } > "$out/seeds/inter-$i"
	{ printf '\060'; cat "$out/seeds/inter-$i.txt"; } > "$out/seeds/inter-$i-fire"
	rm -f "$out/seeds/inter-$i.txt"
done
exec "$out/fuzz_hist" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
	-print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "$out/seeds"
