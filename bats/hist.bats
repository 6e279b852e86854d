#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# hist.bats - hist triggers through a mounted tracefuse, as a script sees
# them.  The expected text is the real kernel's (tests/hist-golden/*.out,
# captured with shared/oracle/kernel-oracle on Linux 6.12); the scripts
# run here unchanged where their output does not depend on pids.
#
# Needs FUSE (/dev/fuse and fusermount3) and a built ./tracefuse.

load helpers

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
w() { printf '%s' "$2" > "$BATS_TEST_TMPDIR/in"; dd if="$BATS_TEST_TMPDIR/in" bs=4M 2>/dev/null >> "$1"; }

# golden NAME: runs tests/hist-golden/NAME.sh in the mount; its output
# must equal the kernel's NAME.out exactly (the oracle's rc= line aside).
# Its scratch files (/tmp/in, /tmp/e) go to the test's own directory.
golden() {
	local script
	script=$(private_script "$GOLDEN/$1.sh")
	cd "$MNT"
	run bash "$script"
	expected=$(grep -v '^rc=' "$GOLDEN/$1.out")
}

@test "errors.sh: errno and error_log of each bad hist command match the kernel" {
	golden errors
	[ "$output" = "$expected" ]
}

@test "edge.sh: repeated, empty and limit attributes, special fields and widths match the kernel" {
	golden edge
	[ "$output" = "$expected" ]
}

@test "instances.sh: a named hist shared across instances, their error_logs and rmdir match the kernel" {
	rmdir "$MNT"/instances/i1 "$MNT"/instances/i2 2>/dev/null || true
	golden instances
	rmdir instances/i1 instances/i2 2>/dev/null || true
	[ "$output" = "$expected" ]
}

@test "filters.sh: hist triggers with if filters count the same records and log the same errors as the kernel" {
	golden filters
	[ "$output" = "$expected" ]
}

@test "error-log.sh: error_log keeps the kernel's last 8 hist errors and its long-command form" {
	golden error-log
	[ "$output" = "$expected" ]
}

@test "drops.sh: a full map counts Hits, Entries and Dropped as the kernel" {
	golden drops
	[ "$output" = "$expected" ]
}

@test "mixed.sh: hist among traceoff, stacktrace and snapshot triggers: order, effects and removal as the kernel" {
	golden mixed
	# as on the kernel, a '>' open of trigger removes every trigger but
	# the stacktrace one (no unreg_all): remove it for the next tests
	w events/ftrace/print/trigger '!stacktrace'
	echo 1 > tracing_on
	[ "$(cat events/ftrace/print/trigger)" = "# Available triggers:
# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist" ]
	[ "$output" = "$expected" ]
}

@test "percent.sh: .percent and .graph over several entries, execname keys and nohitcount as the kernel (pids masked)" {
	golden percent
	[ "$output" = "$expected" ]
}

@test "matching.sh: which hist a pause, cont, clear or ! names, and duplicates, as the kernel" {
	golden matching
	[ "$output" = "$expected" ]
}

@test "timestamps.sh: common_timestamp and clock= change trace_clock and timestamp_mode as the kernel" {
	rmdir "$MNT"/instances/ts 2>/dev/null || true
	# earlier tests' timestamps made the clock global
	echo local > "$MNT"/trace_clock
	golden timestamps
	echo local > trace_clock
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

# poll() on hist, as the kernel since 6.13 (event_hist_poll): POLLIN while
# the histogram differs from what this open file last read, POLLPRI once
# per change; an event wakes a waiting poll (the notifier checks every 20 ms).
@test "poll on hist wakes with POLLIN|POLLPRI when an event changes the histogram" {
	command -v python3 >/dev/null || skip "needs python3"
	cd "$MNT"
	w events/ftrace/print/trigger 'hist:keys=common_pid'
	run python3 - <<'PY'
import os, select, time
H = "events/ftrace/print/hist"
def ev(r):
    m = r[0][1] if r else 0
    return ",".join(n for n, b in (("IN", select.POLLIN), ("PRI", select.POLLPRI)) if m & b) or "none"
fd = os.open(H, os.O_RDONLY)
p = select.poll()
p.register(fd, select.POLLIN | select.POLLPRI)
print("empty:", ev(p.poll(200)))
pid = os.fork()
if pid == 0:
    time.sleep(0.3)
    with open("trace_marker", "w") as f:
        f.write("x")
    os._exit(0)
t = time.time()
r = p.poll(5000)
dt = time.time() - t
os.waitpid(pid, 0)
print("event:", ev(r), 0.2 < dt < 3)
print("again:", ev(p.poll(0)))
while os.read(fd, 65536):
    pass
print("read:", ev(p.poll(100)))
fd2 = os.open(H, os.O_RDONLY)
p2 = select.poll()
p2.register(fd2, select.POLLIN | select.POLLPRI)
print("reopened:", ev(p2.poll(100)))
PY
	[ "$status" -eq 0 ]
	[ "$output" = "empty: none
event: IN,PRI True
again: IN
read: none
reopened: IN" ]
}

# hist_debug as the kernel prints it with CONFIG_HIST_TRIGGERS_DEBUG
# (tests/hist-golden/hist-debug.out, a custom 6.12 kernel).  The
# "hist_data:" value is a hashed pointer there: ids are renamed in order of
# appearance (ID1, ID2, ...), so histograms sharing one (name=) must still
# show the same id.
hist_debug_norm() {
	awk '/^hist_data: [0-9a-f]+$/ { if (!($2 in id)) id[$2] = "ID" (++n); $2 = id[$2] } { print }'
}

@test "hist-debug.sh: hist_debug matches the kernel's CONFIG_HIST_TRIGGERS_DEBUG output" {
	cd "$MNT"
	: > events/sched/sched_process_fork/trigger
	: > events/sched/sched_process_exec/trigger
	: > events/raw_syscalls/sys_enter/trigger
	run bash -c "sh '$GOLDEN/hist-debug.sh' 2>&1 | awk '/^hist_data: [0-9a-f]+\$/ { if (!(\$2 in id)) id[\$2] = \"ID\" (++n); \$2 = id[\$2] } { print }'"
	expected=$(grep -v '^rc=' "$GOLDEN/hist-debug.out" | hist_debug_norm)
	: > events/sched/sched_process_fork/trigger
	: > events/sched/sched_process_exec/trigger
	[ "$output" = "$expected" ]
}

# The inter-event goldens (tests/hist-golden/inter-*.sh): variables,
# references, expressions, onmatch/onmax/onchange and their actions on
# ftrace:print markers and synthetic events, with the counter clock so
# that latencies are exact on the kernel and here alike.
inter_golden() {
	inter_mount
	TMPDIR="$BATS_TEST_TMPDIR" run bash "$GOLDEN/$1.sh"
	expected=$(grep -v '^rc=' "$GOLDEN/$1.out")
	inter_umount
}

# A fresh mount per script: the counter clock's values are the mount's.
inter_mount() {
	IMNT="$BATS_TEST_TMPDIR/imnt"
	mkdir -p "$IMNT"
	"$ROOT/tracefuse" --formats "$ROOT/tests/oracle/formats-6.12" \
		--source none --cpus 1 "$IMNT"
	cd "$IMNT"
}

inter_umount() {
	cd /
	fusermount3 -u "$IMNT" 2>/dev/null || umount -l "$IMNT"
}

@test "inter-vars.sh: variables, read-once references, folding and division by constants as the kernel" {
	inter_golden inter-vars
	[ "$output" = "$expected" ]
}

@test "inter-snapshot.sh: onmax/onchange snapshot() swaps, reports and refuses as the kernel" {
	inter_golden inter-snapshot
	[ "$output" = "$expected" ]
}

@test "inter-onmatch.sh: onmatch/onmax/onchange trace() and save(), field variables, removal order as the kernel" {
	inter_golden inter-onmatch
	[ "$output" = "$expected" ]
}

@test "inter-errors.sh: every variable, handler and action error with its caret as the kernel" {
	inter_golden inter-errors
	[ "$output" = "$expected" ]
}

# hist_debug with CONFIG_HIST_TRIGGERS_DEBUG (a custom 6.12 kernel):
# hashed hist_data pointers, var.hist_data included, are renamed in order
# of appearance, so a reference must name the histogram that holds it.
@test "inter-debug.sh: hist_debug of variables, references, field variables and actions as the kernel" {
	inter_mount
	TMPDIR="$BATS_TEST_TMPDIR" run bash -c "bash '$GOLDEN/inter-debug.sh' 2>&1 | awk '/hist_data: [0-9a-f]+\$/ { if (!(\$NF in id)) id[\$NF] = \"ID\" (++n); \$NF = id[\$NF] } { print }'"
	inter_umount
	expected=$(grep -v '^rc=' "$GOLDEN/inter-debug.out" | awk '/hist_data: [0-9a-f]+$/ { if (!($NF in id)) id[$NF] = "ID" (++n); $NF = id[$NF] } { print }')
	[ "$output" = "$expected" ]
}

# Every command sequence of histogram-design.txt with the hist_debug files
# it shows, against the custom 6.12 kernel (CONFIG_HIST_TRIGGERS_DEBUG).
# The kernel reuses a freed hist_data's address for the next one, so ids
# are renamed in order of appearance within each "## " section.
@test "design-notes.sh: every command sequence of histogram-design.txt gives the kernel's hist_debug" {
	inter_mount
	TMPDIR="$BATS_TEST_TMPDIR" run bash "$GOLDEN/design-notes.sh"
	inter_umount
	norm='/^## / { delete id; n = 0 } /hist_data: [0-9a-f]+$/ { if (!($NF in id)) id[$NF] = "ID" (++n); $NF = id[$NF] } { print }'
	output=$(printf '%s\n' "$output" | awk "$norm")
	expected=$(grep -v '^rc=' "$GOLDEN/design-notes.out" | awk "$norm")
	[ "$output" = "$expected" ]
}
