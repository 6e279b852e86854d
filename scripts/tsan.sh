#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tsan.sh - builds the library and tests/test_filter_concurrency.c (and
# any other test named on the command line) with -fsanitize=thread in a
# private directory (the tree's objects are untouched) and runs them with
# tests/tsan.supp.  Usage: scripts/tsan.sh [tests/test_X.c ...]
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
out=${TSAN_BUILDDIR:-$(mktemp -d /tmp/tf-tsan.XXXXXX)}
tests=${*:-tests/test_filter_concurrency.c}
srcs=$(make -s -f - print <<'MK'
include Makefile
print:
	@echo $(libtracefuse_a_SOURCES)
MK
)
cflags="-g -O1 -fsanitize=thread -pthread -Wall -Wextra -Wno-unused-parameter
	-Wno-sign-compare -Isrc -Iinclude -I/usr/include/fuse3
	-I/usr/include/tracefs -I/usr/include/traceevent
	-D_GNU_SOURCE=1 -DURCU_INLINE_SMALL_FUNCTIONS -DTF_DATADIR=\"/nonexistent\" -DTF_VERSION=\"tsan\"
	-DTF_SRCDATADIR=\"$top/data\""
objs=
for s in $srcs; do
	case $s in *.c) ;; *) continue ;; esac
	o=$out/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
	gcc $cflags -c "$s" -o "$o" &
	objs="$objs $o"
done
wait
libs="-ltracecmd -ltracefs -ltraceevent -lurcu-memb -lurcu-common -lurcu-cds
	-lfuse3 -lpthread"
rc=0
for t in $tests; do
	b=$out/$(basename "$t" .c)
	gcc $cflags -DFORMATS_DIR=\"$top/tests/oracle/formats-6.12\" \
		"$t" $objs $libs -o "$b"
	echo "== $b (TSan)"
	TSAN_OPTIONS="suppressions=$top/tests/tsan.supp halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}" \
		"$b" || rc=$?
done
[ -n "${TSAN_BUILDDIR:-}" ] || rm -rf "$out"
exit $rc
