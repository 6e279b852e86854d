#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# triggers.bats - event triggers through the mounted filesystem, as a
# shell script sees them.  Every write is one write() (dd), like the
# oracle captures in tests/trigger-corpus/.

setup() {
	ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
	MNT="$(mktemp -d)"
	"$ROOT/tracefuse" -f --source none --cpus 1 \
		--formats "$ROOT/data/formats" "$MNT" 2>"$MNT.log" &
	PID=$!
	for _ in $(seq 100); do
		[ -e "$MNT/events/sched/sched_process_hang/trigger" ] && break
		sleep 0.05
	done
	cd "$MNT"
	HANG=events/sched/sched_process_hang/trigger
	PR=events/ftrace/print/trigger
}

teardown() {
	cd /
	fusermount3 -u "$MNT" 2>/dev/null || kill "$PID"
	wait "$PID" 2>/dev/null || true
	rmdir "$MNT"
	rm -f "$MNT.log"
}

# A FILE DATA: append DATA with one write(); prints OK or the errno text
A() {
	printf '%s' "$2" > "$BATS_TEST_TMPDIR/in"
	if dd if="$BATS_TEST_TMPDIR/in" bs=4M 2>"$BATS_TEST_TMPDIR/e" >> "$1"
	then echo OK
	else grep -v records "$BATS_TEST_TMPDIR/e" | sed 's/.*: //' | head -1
	fi
}

# W FILE DATA: the same with O_TRUNC (`>`)
W() {
	printf '%s' "$2" > "$BATS_TEST_TMPDIR/in"
	if dd if="$BATS_TEST_TMPDIR/in" bs=4M 2>"$BATS_TEST_TMPDIR/e" > "$1"
	then echo OK
	else grep -v records "$BATS_TEST_TMPDIR/e" | sed 's/.*: //' | head -1
	fi
}

# D MODE FILE: writes $BATS_TEST_TMPDIR/in as is (MODE A: >>, W: >)
D() {
	local r
	if [ "$1" = W ]; then
		dd if="$BATS_TEST_TMPDIR/in" bs=4M 2>"$BATS_TEST_TMPDIR/e" > "$2"
	else
		dd if="$BATS_TEST_TMPDIR/in" bs=4M 2>"$BATS_TEST_TMPDIR/e" >> "$2"
	fi && { echo OK; return; }
	grep -v records "$BATS_TEST_TMPDIR/e" | sed 's/.*: //' | head -1
}

AVAILABLE='# Available triggers:
# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist'

@test "an event without triggers lists the available ones" {
	[ "$(cat $HANG)" = "$AVAILABLE" ]
}

@test "one traceon/traceoff per event; ! removes either, filter ignored" {
	[ "$(A $HANG 'traceon:5 if pid == 1')" = OK ]
	[ "$(cat $HANG)" = "traceon:count=5 if pid == 1" ]
	[ "$(A $HANG traceon)" = "File exists" ]
	[ "$(A $HANG traceoff)" = "File exists" ]
	[ "$(A $HANG '!traceoff:7 if junk')" = OK ]
	[ "$(cat $HANG)" = "$AVAILABLE" ]
}

@test "new triggers are listed first" {
	[ "$(A $HANG stacktrace)" = OK ]
	[ "$(A $HANG snapshot:0x10)" = OK ]
	[ "$(A $HANG 'enable_event:sched:sched_wakeup:3 if comm == "x"')" = OK ]
	[ "$(cat $HANG)" = 'enable_event:sched:sched_wakeup:count=3 if comm == "x"
snapshot:count=16
stacktrace:unlimited' ]
}

@test "bad commands and counts: EINVAL, ERANGE" {
	[ "$(A $HANG nosuch)" = "Invalid argument" ]
	[ "$(A $HANG 'traceon:abc')" = "Invalid argument" ]
	[ "$(A $HANG 'traceon:3 junk')" = "Invalid argument" ]
	[ "$(A $HANG 'traceon:18446744073709551616')" = "Numerical result out of range" ]
	[ "$(A $HANG 'enable_event:sched:nosuch')" = "Invalid argument" ]
	[ "$(A $HANG 'enable_event:ftrace:print')" = "Invalid argument" ]
	[ "$(cat $HANG)" = "$AVAILABLE" ]
}

@test "a bad trigger filter returns the filter's errno and logs it" {
	: > error_log
	[ "$(A $HANG 'traceoff if (pid==1')" = "No such file or directory" ]
	[ "$(A $HANG 'traceoff if nosuch==1')" = "Invalid argument" ]
	run sed -E 's/^\[ *[0-9.]+\] //' error_log
	[ "$output" = "event filter parse error: error: Too many '('
  Command: (pid==1
           ^
event filter parse error: error: Field not found
  Command: nosuch==1
                  ^" ]
}

@test "triggers put their event and enable_event's target in soft mode" {
	[ "$(cat events/sched/sched_process_hang/enable)" = 0 ]
	[ "$(A $HANG 'enable_event:sched:sched_wakeup')" = OK ]
	[ "$(cat events/sched/sched_process_hang/enable)" = '0*' ]
	[ "$(cat events/sched/sched_wakeup/enable)" = '0*' ]
	[ "$(A $HANG '!disable_event:sched:sched_wakeup')" = OK ]
	[ "$(cat events/sched/sched_process_hang/enable)" = 0 ]
	[ "$(cat events/sched/sched_wakeup/enable)" = 0 ]
}

@test "> on the trigger file keeps the non-hist triggers (6.12)" {
	[ "$(A $HANG traceoff)" = OK ]
	[ "$(W $HANG stacktrace)" = OK ]
	[ "$(cat $HANG)" = "stacktrace:unlimited
traceoff:unlimited" ]
	[ "$(W $HANG traceon)" = "File exists" ]
}

@test "traceoff is a post trigger: the record that stops tracing is kept" {
	[ "$(A $PR 'traceoff:1 if buf == "off"')" = OK ]
	printf hello > trace_marker
	printf off > trace_marker
	printf after > trace_marker 2>/dev/null || true
	[ "$(cat tracing_on)" = 0 ]
	[ "$(cat $PR)" = 'traceoff:count=0 if buf == "off"' ]
	run sh -c "grep -v '^#' trace | sed 's/.*: //'"
	[ "$output" = "hello
off" ]
}

@test "enable_event counts only real changes" {
	[ "$(A $PR 'enable_event:sched:sched_wakeup:2')" = OK ]
	printf e1 > trace_marker
	[ "$(cat events/sched/sched_wakeup/enable)" = '1*' ]
	printf e2 > trace_marker
	[ "$(cat $PR)" = 'enable_event:sched:sched_wakeup:count=1' ]
}

@test "a snapshot trigger allocates the snapshot and swaps on its event" {
	grep -q 'Snapshot is freed' snapshot
	[ "$(A $PR 'snapshot:1 if buf == "snap"')" = OK ]
	grep -q 'Snapshot is allocated' snapshot
	printf before > trace_marker
	printf snap > trace_marker
	printf after > trace_marker
	run sh -c "grep -v '^#' snapshot | sed 's/.*: //'"
	[ "$output" = "before
snap" ]
	run sh -c "grep -v '^#' trace | sed 's/.*: //'"
	[ "$output" = "after" ]
	[ "$(cat $PR)" = 'snapshot:count=0 if buf == "snap"' ]
}

@test "the kernel's answers to 156 trigger commands (trigger-corpus)" {
	local f= got want= line
	while IFS= read -r line; do
		case "$line" in
		'@ '*) f="events/${line#@ }/trigger" ;;
		[AW]' '*)
			cmd=${line#? }
			printf '%b' "$cmd" > "$BATS_TEST_TMPDIR/in"
			got=$(D "${line%% *}" "$f") ;;
		'= '*)
			local e=${line#= }
			case "$got" in
			OK) got=OK ;; "File exists") got=EEXIST ;;
			"Invalid argument") got=EINVAL ;;
			"No such file or directory") got=ENOENT ;;
			"Operation not permitted") got=EPERM ;;
			"No such process") got=ESRCH ;;
			"Numerical result out of range") got=ERANGE ;;
			esac
			[ "$got" = "$e" ] || { echo "'$cmd' -> $got, want $e"; return 1; } ;;
		'| '*) want+="${line#| }"$'\n' ;;
		'.')
			[ "$(cat "$f")"$'\n' = "$want" ] ||
				{ echo "after '$cmd':"; cat "$f"; echo "want:"; echo "$want"; return 1; }
			want= ;;
		L*) ;;
		esac
	done < "$ROOT/tests/trigger-corpus/corpus.txt"
}
