#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare.sh GOLDEN ACTUAL [SKIPS] [SEDSCRIPT]
# Compares an oracle script's output on the kernel (GOLDEN) with its output
# on tracefuse (ACTUAL), section by section.  A section starts at a line
# beginning with "#####" or "=== ".  SKIPS lists sections not compared,
# one per line: an awk regex for the section header, a TAB, and the reason
# (a feature tracefuse does not have yet, or a difference of the test
# tools, not of tracefs).  SEDSCRIPT, if present, edits ACTUAL first: for
# what tracefuse has by design and the kernel has not (hist_debug files,
# present as if CONFIG_HIST_TRIGGERS_DEBUG were set).  Prints the
# differing sections; exit 1 if any.
set -u
golden=$1 actual=$2 skips=${3:-/dev/null} edits=${4:-}
[ -f "$skips" ] || skips=/dev/null
norm() {
	# Differences of the tools, not of tracefs: busybox vs coreutils dd
	# and bash's script name in messages; pid and timestamp widths in
	# trace lines (the goldens replace their digits with PID and TS):
	# before the CPU, the TGID and a latency-format line's CPU.
	sed -E -e '/^0 bytes copied/d' -e '/records (in|out)$/d' \
	    -e 's#^[^ ]*(/oracle/script|\.sh): line [0-9]+:#SCRIPT:#' \
	    -e 's/-PID +\[/-PID [/' -e 's/-PID +\(/-PID (/' \
	    -e 's/-PID +([0-9]+[^ ]{5} )/-PID \1/' -e 's/ +TS:/ TS:/' "$1"
}
split() { # file outdir
	mkdir -p "$2"
	norm "$1" | awk -v d="$2" '
		BEGIN { n = 0; f = d "/0000"; print "(start)" > (d "/0000.h");
			printf "" > f }
		/^(#####|=== )/ { n++; f = sprintf("%s/%04d", d, n);
				  print > (f ".h"); }
		{ print >> f }'
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -n "$edits" ] && [ -f "$edits" ]; then
	sed -E -f "$edits" "$actual" > "$tmp/actual"; actual=$tmp/actual
fi
split "$golden" "$tmp/g"; split "$actual" "$tmp/a"
fail=0 compared=0 skipped=0
for h in "$tmp"/g/*.h; do
	s=${h%.h}; name=$(cat "$h"); id=$(basename "$s")
	reason=$(awk -F'\t' -v n="$name" '$1 != "" && n ~ $1 { print $2; exit }' "$skips")
	if [ -n "$reason" ]; then skipped=$((skipped + 1)); continue; fi
	compared=$((compared + 1))
	if ! diff -u "$s" "$tmp/a/$id" > "$tmp/d" 2>&1; then
		fail=$((fail + 1))
		echo "--- section: $name"; head -40 "$tmp/d"
	fi
done
echo "sections: $compared compared, $skipped skipped, $fail differ"
[ "$fail" -eq 0 ]
