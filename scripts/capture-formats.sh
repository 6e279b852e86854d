#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# capture-formats.sh [TRACEFS_DIR] [OUT_DIR]
#
# Copy, byte for byte, the event schemas that tracefuse bundles from a live
# kernel tracefs into OUT_DIR:
#   OUT_DIR/header_page, OUT_DIR/header_event
#   OUT_DIR/<sys>/<event>/format        (the format file contains the ID)
#   OUT_DIR/KERNEL                      (`uname -r` of the capturing machine)
# Events whose format cannot be read are reported on stderr and listed in
# OUT_DIR/MISSING (which is removed when everything was captured).
set -u

TRACEFS=${1:-/sys/kernel/tracing}
OUT=${2:-data/formats}

# Systems bundled whole.
WHOLE_SYSTEMS="sched irq signal timer workqueue kmem block raw_syscalls ftrace"
# Syscalls bundled from the syscalls system (sys_enter_X and sys_exit_X).
SYSCALLS="read write openat close lseek mmap futex nanosleep clone execve clock_nanosleep"
# Syscalls that are optional (silently skipped when absent).
OPTIONAL_SYSCALLS="clock_nanosleep"

if [ ! -r "$TRACEFS/events/header_page" ]; then
	echo "capture-formats: $TRACEFS does not look like a tracefs mount" >&2
	exit 1
fi

mkdir -p "$OUT" || exit 1
missing=""
count=0

# copy SRC DST: byte-exact copy; tracefs files report st_size 0, so read
# through cat rather than relying on the size.
copy() {
	mkdir -p "$(dirname "$2")" || return 1
	if cat "$1" > "$2.tmp" 2>/dev/null && [ -s "$2.tmp" ]; then
		mv "$2.tmp" "$2"
	else
		rm -f "$2.tmp"
		return 1
	fi
}

note_missing() {
	echo "capture-formats: cannot read $1" >&2
	missing="$missing $1"
}

for f in header_page header_event; do
	copy "$TRACEFS/events/$f" "$OUT/$f" || note_missing "$f"
done

capture_event() { # sys event
	if copy "$TRACEFS/events/$1/$2/format" "$OUT/$1/$2/format"; then
		count=$((count + 1))
	else
		note_missing "$1/$2"
	fi
}

for sys in $WHOLE_SYSTEMS; do
	if [ ! -d "$TRACEFS/events/$sys" ]; then
		note_missing "$sys"
		continue
	fi
	for d in "$TRACEFS/events/$sys"/*/; do
		[ -d "$d" ] || continue
		ev=$(basename "$d")
		capture_event "$sys" "$ev"
	done
done

for sc in $SYSCALLS; do
	for dir in enter exit; do
		ev="sys_${dir}_$sc"
		if [ ! -d "$TRACEFS/events/syscalls/$ev" ]; then
			case " $OPTIONAL_SYSCALLS " in
			*" $sc "*) continue ;;
			esac
			note_missing "syscalls/$ev"
			continue
		fi
		capture_event syscalls "$ev"
	done
done

uname -r > "$OUT/KERNEL"

if [ -n "$missing" ]; then
	printf '%s\n' $missing > "$OUT/MISSING"
else
	rm -f "$OUT/MISSING"
fi

echo "capture-formats: captured $count event formats from $TRACEFS into $OUT (kernel $(cat "$OUT/KERNEL"))"
[ -z "$missing" ] || echo "capture-formats: missing:$missing" >&2
exit 0
