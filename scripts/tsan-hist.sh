#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tsan-hist.sh [OUTDIR] - build tests/test_hist_concurrency.c and all of
# src/ (but main.c) with ThreadSanitizer and run it with the suppressions
# of tests/tsan.supp (liburcu is not instrumented: see that file).
# TF_CONC_LOOPS sets the control loops (default 40).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/tsan-hist}
mkdir -p "$out"
cd "$top"
clang -g -O1 -fsanitize=thread -D_GNU_SOURCE -DURCU_INLINE_SMALL_FUNCTIONS \
	-DTF_DATADIR=\"/nonexistent\" -DTF_VERSION=\"tsan\" \
	-DTF_SRCDATADIR=\""$top/data"\" \
	-I src -I include -I /usr/include/traceevent -I /usr/include/tracefs \
	-I /usr/include/trace-cmd -I /usr/include/fuse3 \
	$(ls src/*/*.c | grep -v '^src/main\.c$') tests/test_hist_concurrency.c \
	-ltracecmd -ltracefs -ltraceevent -lurcu-memb -lurcu-common \
	-lurcu-cds -lfuse3 -lprotobuf-c -lmicrohttpd -ljson-c -lpthread \
	-o "$out/test_hist_concurrency"
TSAN_OPTIONS="suppressions=$top/tests/tsan.supp halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
	srcdir="$top" exec "$out/test_hist_concurrency"
