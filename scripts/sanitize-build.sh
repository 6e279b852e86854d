#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sanitize-build.sh MODE [OUTDIR] - builds the tracefuse daemon with
# sanitizers in OUTDIR (default build-MODE/ in the source tree; the
# tree's own objects are untouched) and prints the binary's path.
# MODE: asan (AddressSanitizer and UndefinedBehaviorSanitizer) or tsan
# (ThreadSanitizer).  Objects older than their source and than every
# header are kept, so a second run only relinks what changed.
# Run a tsan build with TSAN_OPTIONS=suppressions=tests/tsan.supp.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
mode=${1:?usage: sanitize-build.sh asan|tsan [OUTDIR]}
out=${2:-$top/build-$mode}
case $mode in
asan) san="-fsanitize=address,undefined -fno-omit-frame-pointer" ;;
tsan) san="-fsanitize=thread" ;;
*) echo "sanitize-build.sh: MODE is asan or tsan" >&2; exit 2 ;;
esac
mkdir -p "$out"
srcs=$(make -s -f - print <<'MK'
include Makefile
print:
	@echo $(libtracefuse_a_SOURCES) $(tracefuse_SOURCES) $(nodist_tracefuse_SOURCES)
MK
)
cflags="-g -O1 $san -pthread -Wall -Wextra -Wno-unused-parameter
	-Wno-sign-compare -Isrc -Iinclude -I/usr/include/fuse3
	-I/usr/include/tracefs -I/usr/include/traceevent
	-I/usr/include/trace-cmd -D_GNU_SOURCE=1
	-DURCU_INLINE_SMALL_FUNCTIONS -DTF_DATADIR=\"/nonexistent\"
	-DTF_VERSION=\"$mode\" -DTF_SRCDATADIR=\"$top/data\""
newest_h=$(ls -t src/*.h src/*/*.h | head -1)
objs= pids=
for s in $srcs; do
	case $s in *.c) ;; *) continue ;; esac
	o=$out/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
	objs="$objs $o"
	if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_h" -nt "$o" ]; then
		gcc $cflags -c "$s" -o "$o" &
		pids="$pids $!"
	fi
done
for p in $pids; do wait "$p"; done
gcc $san -pthread $objs -ltracecmd -ltracefs -ltraceevent -lurcu-memb \
	-lurcu-common -lurcu-cds -lfuse3 -lprotobuf-c -lmicrohttpd -ljson-c \
	-lpthread -o "$out/tracefuse"
echo "$out/tracefuse"
