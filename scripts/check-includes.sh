#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-includes.sh [TOPDIR] - fails (exit 1) when a module of src/
# includes a module above it in the order of docs/design.md ("Modules"),
# naming the file, the line and the edge.  A file's module is its
# directory under src/ (src/*.c and src/*.h are "main", the program);
# only `#include "dir/..."` lines count.  An unknown directory fails
# too: a new module must be given its place here and in docs/design.md.
# Run by `make` (all-local) and `make check` (TESTS).
set -u
top=${1:-${srcdir:-$(dirname "$0")/..}}
cd "$top" || exit 2

# lowest first: each module may include itself and those before it
ORDER="util events buffer filter trace trigger dispatch synth hist source
client fs cli main"

rank() {
	i=0
	for m in $ORDER; do
		if [ "$m" = "$1" ]; then
			echo $i
			return
		fi
		i=$((i + 1))
	done
	echo -1
}

bad=0
for f in $(find src -name '*.[ch]' | LC_ALL=C sort); do
	case $f in
	src/*/*) mod=${f#src/}; mod=${mod%%/*} ;;
	*) mod=main ;;
	esac
	mine=$(rank "$mod")
	if [ "$mine" -lt 0 ]; then
		echo "$f: module '$mod' has no place in the order" >&2
		bad=1
		continue
	fi
	# "N:dir" for each #include "dir/..."
	for hit in $(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$f" |
		     sed 's/^\([0-9]*\):[^"]*"\([a-z_]*\)\/.*/\1:\2/'); do
		line=${hit%%:*}
		dep=${hit#*:}
		theirs=$(rank "$dep")
		if [ "$theirs" -lt 0 ]; then
			echo "$f:$line: includes '$dep/', which is not a module" >&2
			bad=1
		elif [ "$theirs" -gt "$mine" ]; then
			echo "$f:$line: $mod -> $dep: $dep is above $mod" \
			     "(order: $(echo $ORDER))" >&2
			bad=1
		fi
	done
done
[ $bad -eq 0 ] || { echo "check-includes: module order violated (docs/design.md, Modules)" >&2; exit 1; }
exit 0
