#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# drive.sh ROOT OUT - writes the differential corpus to the trace array
# at ROOT (a host tracefs instance or a tracefuse one) and prints, for
# every write, the errno, the file's read-back and the error_log entries
# (timestamps stripped), in the format of tests/filter-corpus/golden.txt:
#   @ FILE<TAB>COMMAND   = ERRNO   > READ-BACK   ! ERROR_LOG   (escaped)
# bats/differential.bats runs it once on each side and diffs the outputs.
#
# Everything runs in this one bash process: writes are builtin printf
# (one write() for a string without a newline; dd otherwise), reads are
# builtin `read`, so a few thousand checks cost no fork.
#
# Sections:
#   filters   tests/filter-corpus/filters.txt, each string written to
#             events/SYS/EVENT/filter (then `0`)
#   triggers  tests/trigger-corpus/corpus.txt's commands without hist
#             and snapshot (the host has neither), `>` and `>>` as given
#   sigmatch  tests/differential/sigmatch.txt: which signal_generate
#             records an event filter lets into the trace.  SIDE=host
#             sends 17 signals to a process that ignores them (kill is a
#             builtin) and writes the records it saw, as injection lines,
#             to $SIGMATCH_LINES; SIDE=tf injects those same records with
#             tracefuse-inject (TF_INJECT="BIN MOUNTPOINT")
#   errnos    tests/differential/errnos.txt: single writes of bytes
#             (NULs too) to the files of the trace array, then path
#             operations: stat and rmdir of a 300-character name, mknod
#   match     tests/differential/match.txt: which trace_marker writes
#             (ftrace:print) a trigger filter accepts, seen through a
#             `traceoff if FILTER` trigger and the instance's tracing_on
set -u
R=$1 OUT=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
exec 3>"$OUT"

esc() {	# $1 -> ESC with \\ \n \t escapes
	local s=$1
	s=${s//\\/\\\\}; s=${s//$'\n'/\\n}; s=${s//$'\t'/\\t}
	ESC=$s
}
unesc() { printf -v UNESC '%b' "${1//%/%%}"; }	# \n \t \\ -> bytes

errname() {
	case "$1" in
	"") ERR=OK ;;
	*"Invalid argument"*) ERR=EINVAL ;;
	*"Operation not permitted"*) ERR=EPERM ;;
	*"No such file or directory"*) ERR=ENOENT ;;
	*"File exists"*) ERR=EEXIST ;;
	*"No such process"*) ERR=ESRCH ;;
	*"Cannot allocate memory"*) ERR=ENOMEM ;;
	*"Device or resource busy"*) ERR=EBUSY ;;
	*"Numerical result out of range"*) ERR=ERANGE ;;
	*"Value too large for defined data type"*) ERR=EOVERFLOW ;;
	*"File name too long"*) ERR=ENAMETOOLONG ;;
	*"Permission denied"*) ERR=EACCES ;;
	*"Bad file descriptor"*) ERR=EBADF ;;
	*) ERR="UNKNOWN($1)" ;;
	esac
}

slurp() { SLURP=; IFS= read -r -d '' SLURP < "$1" || true; }

# put MODE FILE DATA: one write() of DATA (MODE W: O_TRUNC, A: O_APPEND);
# sets ERR
put() {
	local mode=$1 f=$2 d=$3 msg
	if [[ $d == *$'\n'* ]]; then
		printf '%s' "$d" > "$tmp/in"
		if [ "$mode" = W ]; then
			dd if="$tmp/in" of="$f" bs=64k 2>"$tmp/e"
		else
			dd if="$tmp/in" of="$f" bs=64k oflag=append \
				conv=notrunc 2>"$tmp/e"
		fi
	elif [ "$mode" = W ]; then
		{ printf '%s' "$d" > "$f"; } 2>"$tmp/e"
	else
		{ printf '%s' "$d" >> "$f"; } 2>"$tmp/e"
	fi
	if [ $? -eq 0 ]; then ERR=OK; return; fi
	slurp "$tmp/e"; msg=${SLURP%%$'\n'*}
	errname "${msg##*: }"
}

# errlog: the error_log without timestamps, escaped, in ESC; clears it
errlog() {
	local l out=
	while IFS= read -r l; do
		[[ $l =~ ^\[\ *[0-9.]+\]\ (.*)$ ]] && l=${BASH_REMATCH[1]}
		out+=$l$'\n'
	done < "$R/error_log"
	: > "$R/error_log"
	esc "$out"
}

record() { # FILE CMD: write, read back, error_log
	local f=$1 mode=$2 cmd=$3
	put "$mode" "$R/$f" "$cmd"
	esc "$cmd"; printf '@ %s\t%s\n= %s\n' "$f" "$ESC" "$ERR" >&3
	slurp "$R/$f"; esc "$SLURP"; printf '> %s\n' "$ESC" >&3
	errlog; printf '! %s\n' "$ESC" >&3
}

: > "$R/error_log"

section=${SECTIONS:-filters triggers sigmatch match errnos}

if [[ " $section " == *" filters "* ]]; then
	echo "##### filters" >&3
	while IFS=$'\t' read -r ev f; do
		case "$ev" in ''|'#'*) continue ;; esac
		unesc "$f"
		record "events/$ev/filter" W "$UNESC"
		put W "$R/events/$ev/filter" 0
	done < "$top/tests/filter-corpus/filters.txt"
fi

if [[ " $section " == *" triggers "* ]]; then
	echo "##### triggers" >&3
	ev=
	while IFS= read -r l; do
		case "$l" in
		'@ '*) ev=${l#@ }
			put W "$R/events/$ev/trigger" '' ;;
		[AW]' '*)
			unesc "${l#? }"
			case "$UNESC" in *hist*|*snapshot*) continue ;; esac
			record "events/$ev/trigger" "${l%% *}" "$UNESC" ;;
		esac
	done < "$top/tests/trigger-corpus/corpus.txt"
	# leave no trigger behind: remove what is left, one by one
	slurp "$R/events/$ev/trigger"
	while IFS= read -r l; do
		case "$l" in '#'*|'') continue ;; esac
		put A "$R/events/$ev/trigger" "!${l%% if *}"
	done <<< "$SLURP"
fi

# sigrecords: the target's signal_generate records in the trace, as
# "sig1 sig2 ..." in SIGS and (host) as injection lines in LINES
sigrecords() {
	local l re='^ *(.*)-([0-9]+) +\[[0-9]+\] [^ ]+ +[0-9.]+: signal_generate: sig=([0-9]+) errno=(-?[0-9]+) code=(-?[0-9]+) comm=(.*) pid=([0-9]+) grp=([0-9]+) res=([0-9]+)$'
	SIGS= LINES=
	slurp "$R/trace"
	while IFS= read -r l; do
		[[ $l =~ $re ]] || continue
		[ "${BASH_REMATCH[7]}" = "$tpid" ] || continue
		SIGS+=" ${BASH_REMATCH[3]}"
		LINES+="signal:signal_generate common_pid=${BASH_REMATCH[2]}"
		LINES+=" sig=${BASH_REMATCH[3]} errno=${BASH_REMATCH[4]}"
		LINES+=" code=${BASH_REMATCH[5]} comm=\"${BASH_REMATCH[6]}\""
		LINES+=" pid=${BASH_REMATCH[7]} group=${BASH_REMATCH[8]}"
		LINES+=" result=${BASH_REMATCH[9]}"$'\n'
	done <<< "$SLURP"
	put W "$R/trace" ''
}

sigfire() {	# the records: real signals (host) or injected (tf)
	local s
	put W "$R/events/signal/signal_generate/enable" 1
	if [ "${SIDE:-host}" = host ]; then
		for s in "${sigs[@]}"; do kill -s "$s" "$tpid"; done
	else
		$TF_INJECT < "$SIGMATCH_LINES"
	fi
	put W "$R/events/signal/signal_generate/enable" 0
}

if [[ " $section " == *" sigmatch "* ]]; then
	echo "##### sigmatch" >&3
	sigs=(1 2 3 10 12 13 14 15 17 18 20 21 22 23 28 29 30)
	if [ "${SIDE:-host}" = host ]; then
		# a process that ignores every signal sent and has no
		# children (SIG_IGN survives exec; 17, 18, 23, 28 are
		# ignored by default), so each record is the same every time
		bash -c 'trap "" 1 2 3 10 12 13 14 15 20 21 22 23 29 30
			 exec sleep 1000' < /dev/null &
		tpid=$!
		sleep 0.3	# let it set its traps
	else
		tpid=$(sed -n '1s/.* pid=\([0-9]*\) .*/\1/p' "$SIGMATCH_LINES")
	fi
	put W "$R/trace" ''
	sigfire; sigrecords
	[ "${SIDE:-host}" = host ] && printf '%s' "$LINES" > "$SIGMATCH_LINES"
	printf 's (no filter):%s\n' "$SIGS" >&3
	while IFS= read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		record events/signal/signal_generate/filter W "$f"
		sigfire; sigrecords
		printf 's%s\n' "$SIGS" >&3
		put W "$R/events/signal/signal_generate/filter" 0
	done < "$here/sigmatch.txt"
	[ "${SIDE:-host}" = host ] && { kill -9 "$tpid"; wait "$tpid"; } 2>/dev/null
fi

if [[ " $section " == *" match "* ]]; then
	echo "##### match" >&3
	mapfile -t inputs < <(grep -v '^#' "$here/match-inputs.txt")
	T=$R/events/ftrace/print/trigger
	put W "$R/tracing_on" 1
	while IFS= read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		record events/ftrace/print/trigger A "traceoff if $f"
		[ "$ERR" = OK ] || continue
		res=
		for i in "${inputs[@]}"; do
			unesc "$i"
			put W "$R/trace_marker" "$UNESC"
			[ "$ERR" = OK ] || { res+="[$ERR]"; continue; }
			slurp "$R/tracing_on"
			if [ "${SLURP:0:1}" = 0 ]; then
				res+=1; put W "$R/tracing_on" 1
			else
				res+=0
			fi
		done
		printf 'm %s\n' "$res" >&3
		put A "$T" '!traceoff'
	done < "$here/match.txt"
	put W "$R/trace" ''
fi

# op WHAT CMD...: a path operation's errno
op() {
	local what=$1 msg
	shift
	if "$@" > /dev/null 2>"$tmp/e"; then ERR=OK; else
		slurp "$tmp/e"; msg=${SLURP%%$'\n'*}
		errname "${msg##*: }"
	fi
	printf '@ %s\n= %s\n' "$what" "$ERR" >&3
}

if [[ " $section " == *" errnos "* ]]; then
	echo "##### errnos" >&3
	while IFS=$'\t' read -r f mode d; do
		case "$f" in ''|'#'*) continue ;; esac
		# the bytes of d, escapes and NULs included, in one write
		printf '%b' "$d" > "$tmp/in"
		if [ "$mode" = W ]; then
			dd if="$tmp/in" of="$R/$f" bs=64k 2>"$tmp/e"
		else
			dd if="$tmp/in" of="$R/$f" bs=64k oflag=append \
				conv=notrunc 2>"$tmp/e"
		fi
		if [ $? -eq 0 ]; then ERR=OK; else
			slurp "$tmp/e"; msg=${SLURP%%$'\n'*}
			errname "${msg##*: }"
		fi
		printf '@ %s\t%s\n= %s\n' "$f" "$d" "$ERR" >&3
		slurp "$R/$f"; esc "$SLURP"; printf '> %s\n' "$ESC" >&3
		errlog; printf '! %s\n' "$ESC" >&3
	done < "$here/errnos.txt"
	put W "$R/set_event_pid" ''
	put W "$R/set_event_notrace_pid" ''
	long=$(printf 'a%.0s' $(seq 300))
	op "stat <300 characters>" stat "$R/$long"
	op "rmdir <300 characters>" rmdir "$R/$long"
	op "mkdir <300 characters>" mkdir "$R/$long"
	op "mknod p" mknod "$R/tfdiff-fifo" p
	op "mkdir d" mkdir "$R/tfdiff-dir"
	op "touch f" touch "$R/tfdiff-file"
	op "rm trace" rm -f "$R/trace"
fi
