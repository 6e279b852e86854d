#!/usr/bin/env bats
#
# bats_helper.bats - the Bats helper library users load in their own
# suites (data/bats/tracefuse.bash, `tracefuse --bats-helper`): each
# helper and assertion, the exact failure messages of the assertions (a
# wrong expectation shows the file it was checked against), the example
# suite of docs/examples run as root and as a user on the user's own
# mounts, and a whole suite with a wrong expectation.

load helpers

TF_INJECT_BIN=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject
export TRACEFUSE=$TF_BIN TRACEFUSE_INJECT=$TF_INJECT_BIN
load "$TF_TOP/data/bats/tracefuse.bash"

H=events/sched/sched_switch/hist

# clean_bats [VAR=VALUE...] FILE: a Bats run of its own, without this
# run's BATS_* variables
clean_bats() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin \
		HOME=/ TRACEFUSE="$TF_BIN" TRACEFUSE_INJECT="$TF_INJECT_BIN" "$@"
}
TR=events/sched/sched_switch/trigger

setup() {
	tracefuse_setup --formats "$TF_FORMATS_612" --source none --cpus 1
}

teardown() {
	tracefuse_teardown
}

# two histograms on sched_switch and three events
two_hists() {
	echo 'hist:keys=next_pid,next_comm:vals=hitcount,prev_prio' > "$TRACEFS/$TR"
	echo 'hist:keys=stacktrace' >> "$TRACEFS/$TR"
	tracefuse_inject <<-'EOF'
	sched:sched_switch next_pid=42 next_comm=foo prev_prio=120 stack=0xffffffff81000000,0xffffffff81000010
	sched:sched_switch next_pid=42 next_comm=foo prev_prio=120
	sched:sched_switch next_pid=7 next_comm=bar prev_prio=100 prev_pid=5
	EOF
}

@test "tracefuse --bats-helper prints the helper of the tree it was built from; a missing one is an error" {
	run "$TF_BIN" --bats-helper
	[ "$status" -eq 0 ]
	[ "$output" = "$TF_TOP/data/bats/tracefuse.bash" ]
	TRACEFUSE_DATADIR=$BATS_TEST_TMPDIR run "$TF_BIN" --bats-helper
	[ "$status" -eq 1 ]
	[ "$output" = "tracefuse: no Bats helper at $BATS_TEST_TMPDIR/bats/tracefuse.bash" ]
}

@test "tracefuse_setup mounts a fresh tree that tracefuse_teardown removes with its daemon" {
	local dir=$TRACEFS pid=$TRACEFUSE_PID
	grep -q " $dir fuse.tracefuse " /proc/mounts
	[ "$(cat "$dir/events/sched/sched_switch/enable")" = 0 ]
	tracefuse_teardown
	! grep -q " $dir " /proc/mounts || false
	[ ! -e "$dir" ]
	! kill -0 "$pid" 2>/dev/null || false
	[ -z "$TRACEFS" ]
	tracefuse_teardown	# twice is harmless
}

@test "tracefuse_setup says why tracefuse did not start" {
	tracefuse_teardown
	run tracefuse_setup --formats "$BATS_TEST_TMPDIR/none" --source none
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "-- tracefuse did not start --" ]]
	[[ "${lines[1]}" == "command : $TF_BIN -f --formats $BATS_TEST_TMPDIR/none --source none $BATS_TEST_TMPDIR/tracefs."* ]]
	[ "${lines[2]}" = "status  : 1" ]
	[[ "${lines[3]}" == "output  : tracefuse: no event formats found"* ]]
	[ -z "$TRACEFS" ]
	[ -z "$(ls "$BATS_TEST_TMPDIR")" ]
}

@test "hist entries match whatever the padding, by every value given, in any or one histogram" {
	two_hists
	assert_hist_entry $H '{ next_pid: 42, next_comm: foo }' 'hitcount: 2' 'prev_prio: 240'
	assert_hist_entry $H '{next_pid:42,  next_comm:   foo}' 'hitcount: 2 prev_prio: 240'
	assert_hist_entry $H '{ next_pid: 7, next_comm: bar }'
	assert_hist_entry -n 1 $H '{ next_pid: 7, next_comm: bar }' 'prev_prio: 100'
	assert_hist_entry -n 2 $H '{ common_stacktrace: }' 'hitcount: 2'
	assert_hist_entry $H '{ common_stacktrace: tracing_mark_write+0x0/0x100
	                        tracing_mark_write+0x10/0x100 }' 'hitcount: 1'
	refute_hist_entry $H '{ next_pid: 43, next_comm: foo }'
	refute_hist_entry -n 2 $H '{ next_pid: 7, next_comm: bar }'
	assert_hist_totals $H 'Hits: 3' 'Entries: 2' 'Dropped: 0'
	assert_hist_totals -n 2 $H 'Entries: 2'
	[ "$(tracefuse_hist_value $H '{ next_pid: 7, next_comm: bar }' prev_prio)" = 100 ]
	[ "$(tracefuse_hist_value -n 2 $H '{ common_stacktrace: }' hitcount)" = 2 ]
	run tracefuse_hist_value $H '{ next_pid: 7, next_comm: bar }' nope
	[ "$status" -eq 1 ]
	run assert_hist_entry $H '{ next_pid: 42, next_comm: foo }' 'hitcount: 20'
	[ "$status" -eq 1 ]
	run assert_hist_entry $H '{ next_pid: 42, next_comm: foo }' 'hitcount:'
	[ "$status" -eq 1 ]
	run assert_hist_entry -n 2 $H '{ next_pid: 7, next_comm: bar }'
	[ "$status" -eq 1 ]
}

@test "a wrong value fails with the entry found and the whole hist" {
	echo 'hist:keys=next_pid' > "$TRACEFS/$TR"
	echo 'sched:sched_switch next_pid=42' | tracefuse_inject
	run assert_hist_entry $H '{ next_pid: 42 }' 'hitcount: 3'
	[ "$status" -eq 1 ]
	# the hist's lines follow, indented by two blanks
	diff -u - <(printf '%s\n' "$output" | sed 's/^  $//') <<-'EOF'

	-- hist entry differs --
	file     : events/sched/sched_switch/hist
	key      : { next_pid: 42 }
	expected : hitcount: 3
	actual   : { next_pid: 42 } hitcount: 1
	hist (11 lines):
	  # event histogram
	  #
	  # trigger info: hist:keys=next_pid:vals=hitcount:sort=hitcount:size=2048 [active]
	  #

	  { next_pid:         42 } hitcount:          1

	  Totals:
	      Hits: 1
	      Entries: 1
	      Dropped: 0
	--
	EOF
}

@test "a missing entry, an entry present, and wrong totals fail with the hist" {
	echo 'hist:keys=next_pid' > "$TRACEFS/$TR"
	echo 'sched:sched_switch next_pid=42' | tracefuse_inject
	hist=$(sed 's/^/  /' "$TRACEFS/$H")
	run assert_hist_entry $H '{ next_pid: 41 }'
	[ "$status" -eq 1 ]
	diff -u <(printf '\n%s\n%s\n%s\n%s\n%s\n--\n' '-- hist entry not found --' \
		'file : events/sched/sched_switch/hist' 'key  : { next_pid: 41 }' \
		'hist (11 lines):' "$hist") <(printf '%s\n' "$output")
	run refute_hist_entry $H '{ next_pid: 42 }'
	[ "$status" -eq 1 ]
	diff -u <(printf '\n%s\n%s\n%s\n%s\n%s\n%s\n--\n' '-- hist entry found --' \
		'file  : events/sched/sched_switch/hist' 'key   : { next_pid: 42 }' \
		'entry : { next_pid: 42 } hitcount: 1' \
		'hist (11 lines):' "$hist") <(printf '%s\n' "$output")
	run assert_hist_totals $H 'Hits: 2'
	[ "$status" -eq 1 ]
	diff -u <(printf '\n%s\n%s\n%s\n%s\n%s\n--\n' '-- hist totals differ --' \
		'file     : events/sched/sched_switch/hist' 'expected : Hits: 2' \
		'hist (11 lines):' "$hist") <(printf '%s\n' "$output")
	run assert_hist_entry events/sched/no_such/hist '{ next_pid: 42 }'
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "-- hist file not readable --" ]
	[ "${lines[1]}" = "file : $TRACEFS/events/sched/no_such/hist" ]
}

@test "trigger read-back: assert_trigger, refute_trigger, assert_no_trigger and their messages" {
	local line='hist:keys=next_pid:vals=hitcount:sort=hitcount:size=2048 [active]'
	assert_no_trigger $TR
	echo 'hist:keys=next_pid' > "$TRACEFS/$TR"
	assert_trigger $TR "$line"
	refute_trigger $TR 'traceoff'
	run assert_trigger $TR 'hist:keys=next_pid'
	[ "$status" -eq 1 ]
	diff -u <(printf '\n%s\n%s\n%s\n%s\n--\n' '-- trigger not found --' \
		'file     : events/sched/sched_switch/trigger' \
		'expected : hist:keys=next_pid' "triggers : $line") \
		<(printf '%s\n' "$output")
	run refute_trigger $TR "$line"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "-- trigger found --" ]
	[ "${lines[2]}" = "unexpected : $line" ]
	echo traceoff >> "$TRACEFS/$TR"
	run assert_no_trigger $TR
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "-- event has triggers --" ]
	[ "${lines[1]}" = "file : events/sched/sched_switch/trigger" ]
	[ "${lines[2]}" = "triggers (2 lines):" ]
	[ "${lines[3]}" = "  traceoff:unlimited" ]
	[ "${lines[4]}" = "  $line" ]
}

@test "error_log: assert_error_log_empty and assert_error_log_contains, in the top level and an instance" {
	assert_error_log_empty
	echo 'hist:keys=bogus' > "$TRACEFS/$TR" || true
	assert_error_log_contains "hist:sched:sched_switch: error: Couldn't find field" \
		'  Command: hist:keys=bogus'
	run assert_error_log_empty
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "-- error_log is not empty --" ]
	[ "${lines[1]}" = "file : error_log" ]
	[ "${lines[2]}" = "error_log (3 lines):" ]
	[[ "${lines[3]}" =~ ^\ \ \[\ *[0-9]+\.[0-9]{6}\]\ hist:sched:sched_switch:\ error:\ Couldn\'t\ find\ field$ ]]
	[ "${lines[4]}" = "    Command: hist:keys=bogus" ]
	run assert_error_log_contains 'Command: hist:keys=other'
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "-- error_log lacks an entry --" ]
	[ "${lines[2]}" = "expected : Command: hist:keys=other" ]
	mkdir "$TRACEFS/instances/foo"
	assert_error_log_empty instances/foo/error_log
	echo 'hist:keys=bogus2' > "$TRACEFS/instances/foo/$TR" || true
	assert_error_log_contains -f instances/foo/error_log 'Command: hist:keys=bogus2'
	run assert_error_log_contains 'Command: hist:keys=bogus2'
	[ "$status" -eq 1 ]
	rmdir "$TRACEFS/instances/foo"
}

@test "tracefuse_inject takes files too, and fails on a line tracefuse refuses" {
	echo 'hist:keys=next_pid' > "$TRACEFS/$TR"
	printf 'sched:sched_switch next_pid=3\n' > "$BATS_TEST_TMPDIR/a.txt"
	printf 'sched:sched_switch next_pid=3\n' > "$BATS_TEST_TMPDIR/b.txt"
	tracefuse_inject "$BATS_TEST_TMPDIR/a.txt" "$BATS_TEST_TMPDIR/b.txt"
	assert_hist_entry $H '{ next_pid: 3 }' 'hitcount: 2'
	run tracefuse_inject <<< 'sched:sched_switch nope=1'
	[ "$status" -ne 0 ]
	[[ "$output" == *'field "nope": no such field in sched:sched_switch'* ]]
}

@test "tracefuse_replay feeds a trace.dat: every sched_switch of the bundled sample is counted" {
	command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
	local n
	n=$(trace-cmd report -i "$TF_TOP/data/sample.dat" 2>/dev/null | grep -c ' sched_switch: ')
	[ "$n" -gt 0 ]
	echo 'hist:keys=common_cpu' > "$TRACEFS/$TR"
	tracefuse_replay "$TF_TOP/data/sample.dat"
	assert_hist_totals $H "Hits: $n"
}

@test "the example suite of docs/examples passes" {
	run clean_bats bats "$TF_TOP/docs/examples/wakeup-latency.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "1..5" ]
	[ "$(grep -c '^ok ' <<< "$output")" = 5 ]
}

@test "a suite with a wrong expectation fails, shows the hist, and leaves nothing mounted" {
	local suite=$BATS_TEST_TMPDIR/wrong.bats at=@
	# (Bats would take an @test line of this file's heredoc for its own)
	cat > "$suite" <<-EOF
	load "\$(\$TRACEFUSE --bats-helper)"
	setup() { tracefuse_setup --formats "$TF_FORMATS_612" --source none --cpus 1; }
	teardown() { tracefuse_teardown; }
	${at}test "wrong" {
		echo 'hist:keys=next_pid' > "\$TRACEFS/$TR"
		echo 'sched:sched_switch next_pid=42' | tracefuse_inject
		echo "mounted at \$TRACEFS"
		assert_hist_entry $H '{ next_pid: 42 }' 'hitcount: 2'
	}
	EOF
	run clean_bats bats "$suite"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "not ok 1 wrong" ]
	[[ "$output" == *"# -- hist entry differs --"* ]]
	[[ "$output" == *"# actual   : { next_pid: 42 } hitcount: 1"* ]]
	[[ "$output" == *"#   { next_pid:         42 } hitcount:          1"* ]]
	local dir=${output##*mounted at }; dir=${dir%%$'\n'*}
	! grep -q " $dir " /proc/mounts || false
	[ ! -e "$dir" ]
}

@test "the example suite passes as a user, on the user's own mounts" {
	[ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null || skip "needs root and useradd"
	local u=tfbats$$ dir rc=0
	# the user's copy of what it needs; /dev/fuse opened to users (as
	# Debian's 0666) in a mount namespace of the test's own, so the
	# machine's device keeps its mode
	dir=$(mktemp -d /tmp/tfbats.XXXXXX)
	chmod 755 "$dir"
	cp -r "$TF_TOP/data" "$TF_TOP/docs/examples" "$TF_BIN" "$TF_INJECT_BIN" "$dir/"
	useradd -M -d / -s /bin/bash "$u"
	run unshare -m sh -c 'mknod "$1/fuse" c 10 229 && chmod 666 "$1/fuse" &&
		mount --bind "$1/fuse" /dev/fuse &&
		su -s /bin/sh "$2" -c "env -i PATH=/usr/bin:/bin HOME=/ TRACEFUSE_DATADIR=$1/data TRACEFUSE=$1/tracefuse bats $1/examples/wakeup-latency.bats"' \
		sh "$dir" "$u"
	pkill -u "$u" 2>/dev/null || true
	# the user's daemons kept their sockets in /tmp/tracefuse-UID
	rm -rf "/tmp/tracefuse-$(id -u "$u")"
	userdel "$u" 2>/dev/null || rc=1
	rm -rf "$dir"
	echo "$output"
	[ "$rc" -eq 0 ]
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok ' <<< "$output")" = 5 ]
}
