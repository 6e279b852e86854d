# SPDX-License-Identifier: GPL-2.0
#
# tracefuse.bash - Bats helpers for testing trigger scripts on tracefuse.
#
#   load "$(tracefuse --bats-helper)"
#   setup()    { tracefuse_setup --source none; }   # a fresh mount at $TRACEFS
#   teardown() { tracefuse_teardown; }
#   @test "..." {
#       ./my-trigger-script.sh "$TRACEFS"
#       tracefuse_inject <<'EOF'
#   sched:sched_switch next_pid=42
#   EOF
#       assert_hist_entry events/sched/sched_switch/hist '{ next_pid: 42 }' 'hitcount: 1'
#       assert_error_log_empty
#   }
#
# Mounting: tracefuse_setup [TRACEFUSE OPTIONS...], tracefuse_teardown.
# Events:   tracefuse_inject [FILE...], tracefuse_replay FILE [--speed X].
# Reading:  tracefuse_hist_value [-n N] FILE KEY NAME.
# Asserting (bats-assert style: on failure, a message showing the file):
#   assert_hist_entry [-n N] FILE KEY [NAME: VALUE]...
#   refute_hist_entry [-n N] FILE KEY
#   assert_hist_totals [-n N] FILE [Hits: N] [Entries: N] [Dropped: N]
#   assert_trigger FILE LINE, refute_trigger FILE LINE, assert_no_trigger FILE
#   assert_error_log_empty [FILE], assert_error_log_contains [-f FILE] TEXT...
# FILE names are relative to $TRACEFS unless absolute.  -n N picks the Nth
# histogram of a hist file (several hist triggers on one event); without
# it any histogram of the file may match.
#
# Environment: TRACEFUSE (the daemon; default: tracefuse on $PATH) and
# TRACEFUSE_INJECT (default: tracefuse-inject beside $TRACEFUSE, else on
# $PATH).  Works as root or as a user allowed to mount FUSE filesystems.
# Needs bats-support (Debian: bats-support), loaded here if it is not.

if ! declare -F batslib_print_kv_single_or_multi > /dev/null; then
	if declare -F bats_load_library > /dev/null; then
		bats_load_library bats-support
	else
		load /usr/lib/bats/bats-support/load
	fi
fi

# --- mounting --------------------------------------------------------------

_tracefuse_bin() {
	echo "${TRACEFUSE:-tracefuse}"
}

_tracefuse_inject_bin() {
	local bin
	if [ -n "${TRACEFUSE_INJECT:-}" ]; then
		echo "$TRACEFUSE_INJECT"
		return
	fi
	bin=$(_tracefuse_bin)
	if [[ "$bin" == */* ]] && [ -x "${bin%/*}/tracefuse-inject" ]; then
		echo "${bin%/*}/tracefuse-inject"
	else
		echo tracefuse-inject
	fi
}

# tracefuse_setup [OPTIONS...]: mounts a new tracefuse, with tracefuse's
# OPTIONS (--source, --formats, --cpus, -e, -o ...), on a new directory
# and exports its path as TRACEFS.  Returns once the tree answers; fails
# with the daemon's messages if it does not start.
tracefuse_setup() {
	local bin i status=0
	bin=$(_tracefuse_bin)
	TRACEFS=$(mktemp -d "${BATS_TEST_TMPDIR:-${BATS_FILE_TMPDIR:-${TMPDIR:-/tmp}}}/tracefs.XXXXXX") ||
		return 1
	TRACEFUSE_LOG=$TRACEFS.log
	export TRACEFS TRACEFUSE_LOG
	# -f: the daemon stays our child, so that teardown can wait for it;
	# fd 3 is closed or Bats would wait for the daemon to end the test
	"$bin" -f "$@" "$TRACEFS" < /dev/null > "$TRACEFUSE_LOG" 2>&1 3>&- &
	TRACEFUSE_PID=$!
	for ((i = 0; i < 1000; i++)); do
		[ -e "$TRACEFS/trace" ] && return 0
		if ! kill -0 "$TRACEFUSE_PID" 2> /dev/null; then
			wait "$TRACEFUSE_PID" || status=$?
			_tracefuse_fail 'tracefuse did not start' \
				command "$bin -f $* $TRACEFS" \
				status "$status" \
				output "$(cat "$TRACEFUSE_LOG")"
			rmdir "$TRACEFS" || true
			rm -f "$TRACEFUSE_LOG"
			TRACEFUSE_PID= TRACEFS=
			return 1
		fi
		sleep 0.01
	done
	echo "tracefuse_setup: $TRACEFS did not answer within 10 s" | fail
	tracefuse_teardown
	return 1
}

# tracefuse_teardown: unmounts, waits for the daemon to exit, removes the
# directory.  Safe to call when nothing is mounted.
tracefuse_teardown() {
	local i
	[ -n "${TRACEFS:-}" ] || return 0
	case "$PWD/" in "$TRACEFS"/*) cd / ;; esac
	if [ -e "$TRACEFS/trace" ]; then
		fusermount3 -u "$TRACEFS" 2> /dev/null ||
			umount "$TRACEFS" 2> /dev/null ||
			fusermount3 -u -z "$TRACEFS" 2> /dev/null ||
			umount -l "$TRACEFS" 2> /dev/null || true
	fi
	if [ -n "${TRACEFUSE_PID:-}" ]; then
		for ((i = 0; i < 500; i++)); do
			kill -0 "$TRACEFUSE_PID" 2> /dev/null || break
			sleep 0.01
		done
		kill "$TRACEFUSE_PID" 2> /dev/null || true
		wait "$TRACEFUSE_PID" 2> /dev/null || true
	fi
	rmdir "$TRACEFS" 2> /dev/null || true
	rm -f "$TRACEFUSE_LOG"
	TRACEFS= TRACEFUSE_PID= TRACEFUSE_LOG=
	return 0
}

# --- events ----------------------------------------------------------------

# tracefuse_inject [FILE...]: text events (tracefuse's injection format,
# one per line) from the FILEs or standard input into $TRACEFS; returns
# once every event is dispatched, non-zero if a line was refused.
tracefuse_inject() {
	local inject
	inject=$(_tracefuse_inject_bin)
	if [ $# -gt 0 ]; then
		cat -- "$@" | "$inject" "$TRACEFS"
	else
		"$inject" "$TRACEFS"
	fi
}

# tracefuse_replay FILE [--speed X] [--loop N]: replays a trace.dat
# (trace-cmd's) into $TRACEFS; returns once every record is processed.
tracefuse_replay() {
	local file=$1
	shift
	"$(_tracefuse_inject_bin)" --replay "$file" "$@" "$TRACEFS"
}

# --- reading hist files ----------------------------------------------------

_tracefuse_path() {
	case "$1" in
	/*) echo "$1" ;;
	*) echo "$TRACEFS/$1" ;;
	esac
}

# A hist key as the hist file prints it, with the blanks that pad its
# columns squeezed: '{pid:42,  comm: bash}' and '{ pid:     42, comm: bash
# }' are both '{ pid: 42, comm: bash }'.
_tracefuse_norm() {
	printf '%s\n' "$*" | tr -s ' \t\n' '   ' | sed -E \
		-e 's/^ +//' -e 's/ +$//' \
		-e 's/([{,]) *([A-Za-z_][A-Za-z0-9_.]*) *: */\1 \2: /g' \
		-e 's/ +,/,/g' -e 's/ *}$/ }/'
}

# Values as the hist file prints them, squeezed: 'hitcount:3  bytes: 64'
# is 'hitcount: 3 bytes: 64'.
_tracefuse_norm_vals() {
	printf '%s\n' "$*" | tr -s ' \t\n' '   ' | sed -E \
		-e 's/^ +//' -e 's/ +$//' \
		-e 's/(^| )([A-Za-z_][A-Za-z0-9_.$]*( \(%\))?) *: */\1\2: /g'
}

# _tracefuse_hist_entries FILE: one line per entry of each histogram,
# "N<TAB>KEY<TAB>VALUES", and "N<TAB>Totals<TAB>Hits: .. Entries: ..
# Dropped: .." for each; keys spanning lines (stacktraces) are joined.
_tracefuse_hist_entries() {
	awk '
	function norm(s) {
		gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
		gsub(/ ,/, ",", s); return s
	}
	/^# event histogram/ { n++; next }
	/^#/ { next }
	key != "" {
		if ($0 ~ /^}/) {
			vals = $0; sub(/^}/, "", vals)
			print n "\t" norm(key " }") "\t" norm(vals)
			key = ""
		} else {
			key = key " " $0
		}
		next
	}
	/^{/ {
		if (n == 0) n = 1
		i = index($0, "} ")
		if (i == 0 && $0 ~ /}$/) i = length($0)
		if (i > 0) {
			print n "\t" norm(substr($0, 1, i)) "\t" norm(substr($0, i + 1))
		} else {
			key = $0
		}
		next
	}
	/^Totals:/ { totals = 1; tot = ""; next }
	totals && /^ +[A-Za-z]+: / { tot = tot " " norm($0); next }
	totals { print n "\tTotals\t" norm(tot); totals = 0 }
	END { if (totals) print n "\tTotals\t" norm(tot) }
	' "$1"
}

# _tracefuse_has_values VALUES EXPECTED...: every "NAME: VALUE" pair of
# EXPECTED is one of VALUES's pairs.
_tracefuse_has_values() {
	local have=" $1 " want pair
	shift
	for want in "$@"; do
		want=$(_tracefuse_norm_vals "$want")
		while [[ "$want" =~ ^([^ :]+( \(%\))?: [^ ]*)( (.*))?$ ]]; do
			pair=${BASH_REMATCH[1]}
			want=${BASH_REMATCH[4]}
			[[ "$have" == *" $pair "* ]] || return 1
		done
		[ -z "$want" ] || return 1
	done
	return 0
}

# _tracefuse_parse_n "$@": sets _tf_n (the -n argument, or empty) and
# _tf_shift (how many arguments it took).
_tracefuse_parse_n() {
	_tf_n= _tf_shift=0
	if [ "${1:-}" = -n ]; then
		_tf_n=$2 _tf_shift=2
	fi
}

# _tracefuse_fail TITLE KEY VALUE...: a bats-assert style failure: the
# one-line values as "key : value", then the files, indented, with their
# line counts.
_tracefuse_fail() {
	local title=$1 width=0 i
	local -a pairs
	shift
	pairs=("$@")
	for ((i = 0; i < ${#pairs[@]}; i += 2)); do
		if batslib_is_single_line "${pairs[i+1]}" &&
		   ((${#pairs[i]} > width)); then
			width=${#pairs[i]}
		fi
	done
	for ((i = 0; i < ${#pairs[@]}; i += 2)); do
		if batslib_is_single_line "${pairs[i+1]}"; then
			batslib_print_kv_single "$width" "${pairs[i]}" "${pairs[i+1]}"
		else
			batslib_print_kv_multi "${pairs[i]}" \
				"$(printf '%s\n' "${pairs[i+1]}" | batslib_prefix)"
		fi
	done | batslib_decorate "$title" | fail
}

# tracefuse_hist_value [-n N] FILE KEY NAME: prints NAME's value in the
# entry KEY ('hitcount', a value field, a variable); fails if none.
tracefuse_hist_value() {
	local path key name line vals
	_tracefuse_parse_n "$@"
	shift "$_tf_shift"
	path=$(_tracefuse_path "$1")
	key=$(_tracefuse_norm "$2")
	name=$3
	while IFS=$'\t' read -r h k vals; do
		[ -z "$_tf_n" ] || [ "$h" = "$_tf_n" ] || continue
		[ "$k" = "$key" ] || continue
		if [[ " $vals " =~ \ $name:\ ([^ ]*)\  ]]; then
			echo "${BASH_REMATCH[1]}"
			return 0
		fi
	done < <(_tracefuse_hist_entries "$path")
	return 1
}

# --- assertions ------------------------------------------------------------

# assert_hist_entry [-n N] FILE KEY [NAME: VALUE]...: the histogram has
# an entry KEY (e.g. '{ next_pid: 42 }', blanks as you like; a
# stacktrace's frames separated by blanks) whose values include every
# NAME: VALUE given (e.g. 'hitcount: 3', 'bytes_req: 64 hitcount: 2').
assert_hist_entry() {
	local path key h k vals found=
	_tracefuse_parse_n "$@"
	shift "$_tf_shift"
	path=$(_tracefuse_path "$1")
	key=$(_tracefuse_norm "$2")
	shift 2
	if [ ! -r "$path" ]; then
		_tracefuse_fail 'hist file not readable' file "$path"
		return
	fi
	while IFS=$'\t' read -r h k vals; do
		[ -z "$_tf_n" ] || [ "$h" = "$_tf_n" ] || continue
		[ "$k" = "$key" ] || continue
		if _tracefuse_has_values "$vals" "$@"; then
			return 0
		fi
		found+="${found:+$'\n'}$key $vals"
	done < <(_tracefuse_hist_entries "$path")
	if [ -z "$found" ]; then
		_tracefuse_fail 'hist entry not found' \
			file "${path#"$TRACEFS"/}${_tf_n:+ (histogram $_tf_n)}" \
			key "$key" \
			hist "$(cat -- "$path")"
	else
		_tracefuse_fail 'hist entry differs' \
			file "${path#"$TRACEFS"/}${_tf_n:+ (histogram $_tf_n)}" \
			key "$key" \
			expected "$*" \
			actual "$found" \
			hist "$(cat -- "$path")"
	fi
}

# refute_hist_entry [-n N] FILE KEY: no entry KEY.
refute_hist_entry() {
	local path key h k vals
	_tracefuse_parse_n "$@"
	shift "$_tf_shift"
	path=$(_tracefuse_path "$1")
	key=$(_tracefuse_norm "$2")
	while IFS=$'\t' read -r h k vals; do
		[ -z "$_tf_n" ] || [ "$h" = "$_tf_n" ] || continue
		if [ "$k" = "$key" ]; then
			_tracefuse_fail 'hist entry found' \
				file "${path#"$TRACEFS"/}${_tf_n:+ (histogram $_tf_n)}" \
				key "$key" \
				entry "$k $vals" \
				hist "$(cat -- "$path")"
			return
		fi
	done < <(_tracefuse_hist_entries "$path")
	return 0
}

# assert_hist_totals [-n N] FILE [Hits: N] [Entries: N] [Dropped: N]:
# a histogram's Totals block holds the values given.
assert_hist_totals() {
	local path h k vals
	_tracefuse_parse_n "$@"
	shift "$_tf_shift"
	path=$(_tracefuse_path "$1")
	shift
	while IFS=$'\t' read -r h k vals; do
		[ -z "$_tf_n" ] || [ "$h" = "$_tf_n" ] || continue
		[ "$k" = Totals ] || continue
		_tracefuse_has_values "$vals" "$@" && return 0
	done < <(_tracefuse_hist_entries "$path")
	_tracefuse_fail 'hist totals differ' \
		file "${path#"$TRACEFS"/}${_tf_n:+ (histogram $_tf_n)}" \
		expected "$*" \
		hist "$(cat -- "$path" 2>&1)"
}

# _tracefuse_triggers FILE: the trigger file's lines but its comments.
_tracefuse_triggers() {
	grep -v '^#' -- "$1"
}

# assert_trigger FILE LINE: the trigger file reads back LINE (exactly,
# e.g. 'hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]').
assert_trigger() {
	local path
	path=$(_tracefuse_path "$1")
	_tracefuse_triggers "$path" | grep -qxF -- "$2" && return 0
	_tracefuse_fail 'trigger not found' \
		file "${path#"$TRACEFS"/}" \
		expected "$2" \
		triggers "$(cat -- "$path" 2>&1)"
}

# refute_trigger FILE LINE: the trigger file does not read back LINE.
refute_trigger() {
	local path
	path=$(_tracefuse_path "$1")
	_tracefuse_triggers "$path" | grep -qxF -- "$2" || return 0
	_tracefuse_fail 'trigger found' \
		file "${path#"$TRACEFS"/}" \
		unexpected "$2" \
		triggers "$(cat -- "$path" 2>&1)"
}

# assert_no_trigger FILE: no trigger on the event.
assert_no_trigger() {
	local path
	path=$(_tracefuse_path "$1")
	[ -n "$(_tracefuse_triggers "$path")" ] || return 0
	_tracefuse_fail 'event has triggers' \
		file "${path#"$TRACEFS"/}" \
		triggers "$(cat -- "$path" 2>&1)"
}

# assert_error_log_empty [FILE]: nothing logged (FILE: error_log, or an
# instance's instances/NAME/error_log).
assert_error_log_empty() {
	local path
	path=$(_tracefuse_path "${1:-error_log}")
	[ -n "$(cat -- "$path")" ] || return 0
	_tracefuse_fail 'error_log is not empty' \
		file "${path#"$TRACEFS"/}" \
		error_log "$(cat -- "$path")"
}

# assert_error_log_contains [-f FILE] TEXT...: each TEXT is part of the
# error log (e.g. "error: Couldn't find field", '  Command: hist:keys=x').
assert_error_log_contains() {
	local path=error_log text
	if [ "${1:-}" = -f ]; then
		path=$2
		shift 2
	fi
	path=$(_tracefuse_path "$path")
	for text in "$@"; do
		grep -qF -- "$text" "$path" && continue
		_tracefuse_fail 'error_log lacks an entry' \
			file "${path#"$TRACEFS"/}" \
			expected "$text" \
			error_log "$(cat -- "$path")"
		return
	done
}
