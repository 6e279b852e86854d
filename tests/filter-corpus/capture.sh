#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# capture.sh - records what a real kernel does with each filter string of
# filters.txt: the write's errno, the `filter` file's text, and the
# error_log entry (without its timestamp).  Writes golden.txt and copies
# the events' format files to formats/, so tests/test_filter.c checks
# tracefuse against exactly the kernel that produced the goldens.
#
# Usage (as root): tests/filter-corpus/capture.sh [TRACEFS]
# TRACEFS defaults to /sys/kernel/tracing, then /tmp/tfs (mounted if needed).
# Only events' filter files and error_log are touched; every filter is
# set back to 0 and error_log is cleared afterwards.
#
# filters.txt: "system/event<TAB>filter", the filter with \n, \t and \\
# escapes; '#' lines are comments.  golden.txt: one record per filter:
#   @ system/event<TAB>filter       (escaped as in filters.txt)
#   = OK | EINVAL | EPERM | ...     (errno name of the write)
#   > filter file text              (escaped)
#   ! error_log entry               (escaped; empty when nothing was logged)
set -u
here=$(cd "$(dirname "$0")" && pwd)
T=${1:-}
if [ -z "$T" ]; then
	if [ -w /sys/kernel/tracing/error_log ]; then T=/sys/kernel/tracing
	else
		T=/tmp/tfs; mkdir -p $T
		mountpoint -q $T || mount -t tracefs nodev $T || exit 1
	fi
fi

esc() {	# stdin -> one line with \\ \n \t escapes
	local s
	s=$(cat; printf x); s=${s%x}
	s=${s//\\/\\\\}; s=${s//$'\n'/\\n}; s=${s//$'\t'/\\t}
	printf '%s' "$s"
}

errname() {
	case "$1" in
	"") echo OK ;;
	*"Invalid argument"*) echo EINVAL ;;
	*"Operation not permitted"*) echo EPERM ;;
	*"No such file or directory"*) echo ENOENT ;;
	*"No such process"*) echo ESRCH ;;
	*"Cannot allocate memory"*) echo ENOMEM ;;
	*"Device or resource busy"*) echo EBUSY ;;
	*) echo "UNKNOWN($1)" ;;
	esac
}

out=$here/golden.txt.new
{
	echo "# captured by capture.sh from $(uname -r)"
	echo "# nr_cpu_ids $(( $(cut -d- -f2 /sys/devices/system/cpu/possible | cut -d, -f1) + 1 ))"
} > "$out"

echo > $T/error_log
events=
while IFS=$'\t' read -r ev f; do
	case "$ev" in ''|'#'*) continue ;; esac
	case " $events " in *" $ev "*) ;; *)
		events="$events $ev"
		mkdir -p "$here/formats/$ev"
		cp "$T/events/$ev/format" "$here/formats/$ev/format" ;;
	esac
	# one write(2) for the whole string, as a script's echo does
	err=$(printf '%b' "$f" | dd of="$T/events/$ev/filter" bs=65536 \
		iflag=fullblock status=none 2>&1)
	{
		printf '@ %s\t%s\n' "$ev" "$f"
		printf '= %s\n' "$(errname "$err")"
		printf '> %s\n' "$(esc < "$T/events/$ev/filter")"
		printf '! %s\n' "$(sed 's/^\[[ 0-9.]*\] //' $T/error_log | esc)"
	} >> "$out"
	echo > $T/error_log
	echo 0 > "$T/events/$ev/filter"
done < "$here/filters.txt"
mv "$out" "$here/golden.txt"
echo "captured $(grep -c '^@' "$here/golden.txt") filters into golden.txt"
