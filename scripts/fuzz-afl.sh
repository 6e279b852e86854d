#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz-afl.sh TARGET [SECONDS] [OUTDIR] - builds tests/fuzz/fuzz_TARGET.c
# with AFL++ (afl-clang-fast, its libFuzzer driver, ASan and UBSan) and
# runs afl-fuzz on it for SECONDS (default 600) from the seeds and with
# the dictionary scripts/fuzz.sh uses.  The AFL++ output (queue,
# crashes, fuzzer_stats) goes to OUTDIR (default: a fresh temporary
# directory, kept).  Prints the run's executions, coverage and crashes;
# exits 1 if any crashed.  Optional: needs Debian's afl++ package
# (apt-get install afl++), which the tests do not.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
t=${1:?usage: fuzz-afl.sh TARGET [SECONDS] [OUTDIR]}
secs=${2:-600}
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/tf-afl.XXXXXX")}
command -v afl-clang-fast > /dev/null || {
	echo "fuzz-afl.sh: AFL++ is needed (apt-get install afl++)" >&2
	exit 2
}
cd "$top"
[ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz-afl.sh: no target $t" >&2; exit 2; }
mkdir -p "$out"
FUZZ_SEEDS_ONLY=1 scripts/fuzz.sh 0 "$out" > /dev/null || exit 1
# shellcheck disable=SC2046
AFL_USE_ASAN=1 AFL_USE_UBSAN=1 AFL_QUIET=1 afl-clang-fast -g -O1 \
	-fsanitize=fuzzer -DTF_FUZZ_FORMATS=\""$top/tests/oracle/formats-6.12"\" \
	-DTF_DATADIR=\"/nonexistent\" -DTF_VERSION=\"fuzz\" \
	-DTF_SRCDATADIR=\""$top/data"\" -D_GNU_SOURCE -DURCU_INLINE_SMALL_FUNCTIONS \
	-I src -I include -I /usr/include/traceevent -I /usr/include/tracefs \
	-I /usr/include/trace-cmd -I /usr/include/fuse3 \
	$(ls src/*/*.c | grep -v "^src/cli/") "tests/fuzz/fuzz_$t.c" \
	-ltracecmd -ltracefs -ltraceevent -lurcu-memb -lurcu-common \
	-lurcu-cds -lfuse3 -lpthread -o "$out/fuzz_$t" || exit 1
dict=
[ -f "tests/fuzz/dict/$t.dict" ] && dict="-x tests/fuzz/dict/$t.dict"
LSAN_OPTIONS=suppressions=$top/tests/fuzz/lsan.supp:symbolize=0
export LSAN_OPTIONS
# no CPU binding on a shared machine; a core_pattern that pipes to a
# crash handler only delays the report
# shellcheck disable=SC2086
AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 \
AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	afl-fuzz -V "$secs" -m none -t 10000 $dict -i "$out/seeds/$t" \
	-o "$out/afl" -- "$out/fuzz_$t" > "$out/afl-$t.log" 2>&1
r=$?
stats=$out/afl/default/fuzzer_stats
if [ ! -f "$stats" ]; then
	echo "fuzz-afl.sh: afl-fuzz did not run (exit $r); see $out/afl-$t.log"
	tail -5 "$out/afl-$t.log"
	exit 1
fi
grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|saved_crashes|saved_hangs) ' "$stats"
n=$(sed -n 's/^saved_crashes *: *//p' "$stats")
if [ "${n:-0}" -ne 0 ]; then
	echo "fuzz_$t (AFL++): $n crashes in $out/afl/default/crashes"
	exit 1
fi
echo "fuzz_$t (AFL++): no crash; output in $out"
