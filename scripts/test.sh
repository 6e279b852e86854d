#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test.sh - README command 2: set up, build, run every test: the C unit
# tests (make check) and the Bats suites under bats/.  Ends with the
# summary line "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

make -j"$(nproc)" check > "$log/check.out" 2>&1
check_rc=$?
grep -E '^(PASS|FAIL|ERROR|XFAIL|XPASS|SKIP):' "$log/check.out"
[ $check_rc -eq 0 ] || { echo "make check failed:"; tail -40 "$log/check.out";
	for f in tests/*.log; do grep -q '^FAIL\|failed' "$f" 2>/dev/null && tail -20 "$f"; done; }
c_pass=$(grep -c '^PASS:' "$log/check.out")
c_fail=$(grep -cE '^(FAIL|ERROR|XPASS):' "$log/check.out")
c_skip=$(grep -c '^SKIP:' "$log/check.out")
if [ $check_rc -ne 0 ] && [ "$c_fail" -eq 0 ]; then c_fail=1; fi

bats --tap bats/ > "$log/bats.out" 2>&1
cat "$log/bats.out"
b_skip=$(grep -cE '^ok .* # skip' "$log/bats.out")
b_pass=$(( $(grep -c '^ok ' "$log/bats.out") - b_skip ))
b_fail=$(grep -c '^not ok ' "$log/bats.out")
if ! grep -q '^1\.\.' "$log/bats.out"; then b_fail=$((b_fail + 1)); fi

passed=$((c_pass + b_pass)) failed=$((c_fail + b_fail)) skipped=$((c_skip + b_skip))
echo "unit tests: $c_pass passed, $c_fail failed; bats: $b_pass passed, $b_fail failed, $b_skip skipped"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
