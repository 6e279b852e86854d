#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh [SECONDS] [OUTDIR] [TARGET...] - builds the libFuzzer targets
# of tests/fuzz/ (fuzz_filter: the filter language; fuzz_hist: hist and
# the other trigger commands; fuzz_synth: synthetic_events and
# dynamic_events; fuzz_control: set_event, the pid lists and the
# injection text; fuzz_cpumask: tracing_cpumask; fuzz_replay: trace.dat
# files through the replay source; fuzz_ring: the producer rings'
# shared memory) with clang
# -fsanitize=fuzzer,address,undefined, and runs each, one after the
# other, for SECONDS (default 60; `make fuzz`) from seeds made of the
# test corpora, with the target's dictionary of its language's tokens
# (tests/fuzz/dict/TARGET.dict).  TARGETs (e.g. `replay cpumask`) pick
# some; default all.  Corpora and crashes go to OUTDIR (default: a
# fresh temporary directory, removed unless something crashed; give one
# to keep a corpus across runs).  Prints each target's executions,
# coverage and result; exits 1 if any crashed, leaked or timed out.
# Needs clang, libclang-rt-14-dev and python3 (the trace.dat seeds).
# scripts/fuzz-afl.sh runs the same targets under AFL++.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=${2:-}
[ $# -gt 2 ] && shift 2 || set --
keep=1
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/tf-fuzz.XXXXXX") || exit 1
	keep=0
fi
command -v clang > /dev/null || {
	echo "fuzz.sh: clang is needed (apt-get install clang libclang-rt-14-dev)" >&2
	exit 2
}
cd "$top"
# the engine and its sources; not the command-line tools of src/cli
srcs=$(ls src/*/*.c | grep -v '^src/cli/')
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
	-DTF_FUZZ_FORMATS=\"$top/tests/oracle/formats-6.12\"
	-DTF_DATADIR=\"/nonexistent\" -DTF_VERSION=\"fuzz\"
	-DTF_SRCDATADIR=\"$top/data\" -D_GNU_SOURCE -DURCU_INLINE_SMALL_FUNCTIONS
	-I src -I include -I /usr/include/traceevent -I /usr/include/tracefs
	-I /usr/include/trace-cmd -I /usr/include/fuse3"
libs="-ltracecmd -ltracefs -ltraceevent -lurcu-memb -lurcu-common -lurcu-cds
	-lfuse3 -lpthread"

rc=0
# leaks inside libtraceevent/libtracecmd are theirs (tests/fuzz/lsan.supp)
LSAN_OPTIONS=suppressions=$top/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
# a corrupt size asks libtracecmd for gigabytes: it must get NULL, as
# from malloc, not a report (-malloc_limit_mb above, for the same)
ASAN_OPTIONS=allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export LSAN_OPTIONS ASAN_OPTIONS
# seeds: one file per line of each corpus
seed() {	# DIR CTLBYTE FILE...: a file per line, CTLBYTE first
	d=$1 c=$2
	shift 2
	mkdir -p "$d"
	i=0
	cat "$@" | while IFS= read -r l; do
		i=$((i + 1))
		printf "\\$(printf %o "$c")%s" "$l" > "$d/s$i"
	done
}
seed "$out/seeds/filter" 1 tests/filter-corpus/filters.txt
grep -ho "'!\?hist:[^']*'" tests/hist-golden/*.sh | tr -d "'" > "$out/hist.txt"
seed "$out/seeds/hist" 56 "$out/hist.txt"
grep -h '^[AW] ' tests/trigger-corpus/corpus.txt | cut -c3- > "$out/trig.txt"
seed "$out/seeds/hist" 57 "$out/trig.txt"
printf '%s\n' 'sched:sched_switch' '*:*' 'irq:*' '!sched:*' ':mod:x' \
	'sched_switch' 'ftrace:print' > "$out/set_event.txt"
seed "$out/seeds/control" 0 "$out/set_event.txt"
printf '%s\n' '1 2 3' '0x10 010' '4294967296' '-1' '1 garbage' > "$out/pids.txt"
seed "$out/seeds/control" 2 "$out/pids.txt"
grep -vh '^#' tests/*.txt docs/inject.md 2>/dev/null | grep -E '^[a-z_]+:[a-z_]+ ' > "$out/inject.txt"
printf '%s\n' 'sched:sched_switch pid=5 comm=bash prev_comm=bash prev_pid=5 next_comm=x next_pid=7' \
	'ftrace:print buf="hello"' >> "$out/inject.txt"
seed "$out/seeds/control" 3 "$out/inject.txt"
grep -ho "[AW] \(synthetic\|dynamic\)_events '[^']*'" tests/oracle/synth-*.sh 2>/dev/null |
	sed "s/^[AW] [a-z_]* '//; s/'\$//" | sort -u > "$out/synth.txt"
seed "$out/seeds/synth" 4 "$out/synth.txt"
# cpumask: two bytes of CPU count (2, 8, 36, 64, 65, 4096), then a mask
i=0
{ awk -F'\t' '$1 == "tracing_cpumask" { print $3 }' tests/differential/errnos.txt
  printf '%s\n' 3 ff 01 '0,00000001' 'f,ffffffff' '1,00000000' 'ffffffff,ffffffff' \
	'1 2' '  3  ' '000000001' ''; } > "$out/cpumask.txt"
mkdir -p "$out/seeds/cpumask"
for n in 1 7 35 63 64 4095; do
	while IFS= read -r l; do
		i=$((i + 1))
		# the corpus spells newlines as \n
		printf "\\$(printf %o $((n >> 8)))\\$(printf %o $((n & 255)))$l" \
			> "$out/seeds/cpumask/s$i"
	done < "$out/cpumask.txt"
done
# replay: small trace.dat files
python3 tests/fuzz/make-dat.py tests/oracle/formats-6.12 "$out/seeds/replay" || rc=1
# ring: records as a producer writes them (fuzz_ring.c: mode 1), and a
# raw data area (mode 0)
python3 - "$out/seeds/ring" <<'PY' || rc=1
import os, struct, sys
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
def rec(ev_id, body):
    b = struct.pack('<HBBi', ev_id, 1, 0, 100) + body
    return struct.pack('<HH', len(b), 0x8000 | ev_id) + b
switch = rec(310, b'bash'.ljust(16, b'\0') + struct.pack('<iiq', 100, 120, 1)
             + b'cat'.ljust(16, b'\0') + struct.pack('<ii', 200, 120))
text = b'hello\0'
marker = rec(5, struct.pack('<Q', 0xffffffff81000000) + text)
for i, (ctl, body) in enumerate([(1, switch), (1, switch * 3 + marker),
                                  (3, (switch + marker) * 40),
                                  (0, struct.pack('<Q', 64) + bytes(56)),
                                  (2, struct.pack('<Q', 1 << 40) + bytes(200))]):
    open(os.path.join(d, 's%d' % i), 'wb').write(bytes([ctl]) + body)
PY
# FUZZ_SEEDS_ONLY=1: only the seeds, in OUTDIR/seeds/TARGET (fuzz-afl.sh);
# FUZZ_REUSE=1: run OUTDIR's fuzz_TARGET as built before (fuzz-campaign.sh);
# FUZZ_NO_TRACECMD=1: run the fuzzers without trace-cmd in PATH (fuzz_replay
# then skips the fork per input that adds a file's unknown events, and runs
# many times faster)
[ -z "${FUZZ_SEEDS_ONLY:-}" ] || exit $rc

targets=$*
[ -n "$targets" ] || targets=$(ls tests/fuzz/fuzz_*.c | sed 's#.*/fuzz_##; s#\.c$##')
for t in $targets; do
	[ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: no target $t" >&2; rc=1; continue; }
	dict=
	[ -f "tests/fuzz/dict/$t.dict" ] && dict=-dict=tests/fuzz/dict/$t.dict
	mkdir -p "$out/seeds/$t"
	bin=$out/fuzz_$t
	if [ -n "${FUZZ_REUSE:-}" ] && [ -x "$bin" ]; then
		echo "== fuzz_$t: reusing $bin"
	else
		echo "== fuzz_$t: build"
		# shellcheck disable=SC2086
		clang $flags $srcs "tests/fuzz/fuzz_$t.c" $libs -o "$bin" || { rc=1; continue; }
	fi
	mkdir -p "$out/corpus/$t"
	echo "== fuzz_$t: $secs s"
	# shellcheck disable=SC2086
	${FUZZ_NO_TRACECMD:+env PATH=/nonexistent} \
	"$bin" -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 $dict \
		-malloc_limit_mb=65536 \
		-print_final_stats=1 -artifact_prefix="$out/fuzz_$t-" \
		"$out/corpus/$t" "$out/seeds/$t" > "$out/fuzz_$t.log" 2>&1
	r=$?
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+[[:space:]]+DONE|^INFO: Loaded .* dictionary' \
		"$out/fuzz_$t.log"
	if [ $r -ne 0 ]; then
		echo "fuzz_$t: FAILED (exit $r); the input and log are in $out"
		grep -m3 -E 'ERROR|SUMMARY' "$out/fuzz_$t.log"
		rc=1 keep=1
	else
		echo "fuzz_$t: no crash, no leak"
	fi
done
[ $keep -eq 1 ] || rm -rf "$out"
exit $rc
