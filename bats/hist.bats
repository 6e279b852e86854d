#!/usr/bin/env bats
#
# hist.bats - hist triggers through a mounted tracefuse, as a script sees
# them.  The expected text is the real kernel's (tests/hist-golden/*.out,
# captured with shared/oracle/kernel-oracle on Linux 6.12); the scripts
# run here unchanged where their output does not depend on pids.
#
# Needs FUSE (/dev/fuse and fusermount3) and a built ./tracefuse.

ROOT="$BATS_TEST_DIRNAME/.."
GOLDEN="$ROOT/tests/hist-golden"

setup_file() {
	export MNT="$BATS_FILE_TMPDIR/mnt"
	mkdir -p "$MNT"
	"$ROOT/tracefuse" --formats "$ROOT/tests/oracle/formats-6.12" \
		--source none --cpus 1 "$MNT"
}

teardown_file() {
	fusermount3 -u "$MNT" 2>/dev/null || fusermount -u "$MNT" 2>/dev/null || true
}

setup() {
	[ -e "$MNT/events/ftrace/print/hist" ]
	: > "$MNT/events/ftrace/print/trigger"
	echo > "$MNT/error_log"
}

# One write(2) of "$2" to file $1 (bash's echo splits at newlines).
w() { printf '%s' "$2" > /tmp/tf-hist-in.$$; dd if=/tmp/tf-hist-in.$$ bs=4M 2>/dev/null >> "$1"; }

@test "errors.sh: errno and error_log of each bad hist command match the kernel" {
	cd "$MNT"
	run bash "$GOLDEN/errors.sh"
	expected=$(grep -v '^rc=' "$GOLDEN/errors.out")
	[ "$output" = "$expected" ]
}

@test "writing hist:keys=common_type makes hist show one entry per trace_marker write" {
	cd "$MNT"
	w events/ftrace/print/trigger 'hist:keys=common_type:vals=hitcount.percent,hitcount.graph:sort=common_type'
	for i in 1 2 3; do printf x > trace_marker; done
	run cat events/ftrace/print/hist
	[ "$output" = "# event histogram
#
# trigger info: hist:keys=common_type:vals=hitcount,hitcount.percent,hitcount.graph:sort=common_type:size=2048 [active]
#

{ common_type:          5 } hitcount:          3  hitcount (%): 100.00  hitcount: ####################

Totals:
    Hits: 3
    Entries: 1
    Dropped: 0" ]
}

@test "! removes only the matching trigger, > removes them all" {
	cd "$MNT"
	w events/ftrace/print/trigger 'hist:keys=common_type'
	w events/ftrace/print/trigger 'hist:keys=common_type if common_pid > 0'
	w events/ftrace/print/trigger '!hist:keys=common_type'
	run cat events/ftrace/print/trigger
	[ "$output" = 'hist:keys=common_type:vals=hitcount:sort=hitcount:size=2048 if common_pid > 0 [active]' ]
	: > events/ftrace/print/trigger
	run cat events/ftrace/print/hist
	[ "$output" = "" ]
}

@test "a duplicate hist trigger fails with EEXIST and logs 'Hist trigger already exists'" {
	cd "$MNT"
	w events/ftrace/print/trigger 'hist:keys=common_type'
	run w events/ftrace/print/trigger 'hist:keys=common_type'
	[ "$status" -ne 0 ]
	run sed -E 's/^\[ *[0-9.]+\] //' error_log
	[ "$output" = "hist:ftrace:print: error: Hist trigger already exists
  Command: hist:keys=common_type
           ^" ]
}
