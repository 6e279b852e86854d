#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# inject.bats - text injection (docs/inject.md): the tracefuse-inject
# client over the daemon's socket, and the inject:FILE source; the text
# of `trace`, a filter and a hist trigger over injected events, and the
# per-line errors (a refused line records nothing).
#
# Needs FUSE (/dev/fuse and fusermount3) and a built ./tracefuse.

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject

mount_none() {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none "$@"
}

teardown() {
	tf_umount
}

# The trace without its 12 header lines.
trace_body() {
	tail -n +13 "$TF_MNT/trace"
}

EVENTS='sched:sched_waking ts=1000400 cpu=0 common_pid=12 common_comm=bash comm=kworker/0:1 pid=40 prio=120 target_cpu=0
# a comment, then a blank line

sched:sched_switch ts=1001000 cpu=0 pid=12 comm=bash prev_comm=bash prev_pid=12 prev_prio=120 prev_state=1 next_comm=kworker/0:1 next_pid=40 next_prio=120
sched:sched_switch ts=1.002000250 cpu=0 pid=40 comm=kworker/0:1 prev_comm=kworker/0:1 prev_pid=40 prev_prio=120 prev_state=0x80 next_comm=swapper/0 next_pid=0 next_prio=120
sched:sched_process_exec ts=1003000 common_pid=41 common_comm=true filename="/usr/bin/true" pid=41 old_pid=41 common_flags=1 common_preempt_count=1
raw_syscalls:sys_enter ts=1004000 pid=41 comm=true id=0 args=3,0x7ffd1000,4096
ftrace:print ts=1005000 pid=41 ip=0 buf="hello \"world\"\n"'

EXPECTED='            bash-12      [000] .....     0.001000: sched_waking: comm=kworker/0:1 pid=40 prio=120 target_cpu=000
            bash-12      [000] .....     0.001001: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=kworker/0:1 next_pid=40 next_prio=120
            true-41      [000] d..1.     0.001003: sched_process_exec: filename=/usr/bin/true pid=41 old_pid=41
            true-41      [000] .....     0.001004: sys_enter: NR 0 (3, 7ffd1000, 1000, 0, 0, 0)
            true-41      [000] .....     0.001005: 0: hello "world"
     kworker/0:1-40      [000] .....     1.002000: sched_switch: prev_comm=kworker/0:1 prev_pid=40 prev_prio=120 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120'

@test "tracefuse-inject: injected events read back in the kernel's trace text" {
	mount_none
	echo 1 > "$TF_MNT/events/enable"
	run "$INJECT" "$TF_MNT" <<< "$EVENTS"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run trace_body
	[ "$output" = "$EXPECTED" ]
	run head -3 "$TF_MNT/trace"
	[ "${lines[2]}" = "# entries-in-buffer/entries-written: 6/6   #P:1" ]
}

@test "tracefuse-inject: events not enabled are not recorded; set_event_pid applies" {
	mount_none
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	echo 40 > "$TF_MNT/set_event_pid"
	"$INJECT" "$TF_MNT" <<< "$EVENTS"
	run trace_body
	# ftrace:print has no enable file and no pid filter, as trace_marker;
	# the comm of pid 41 was never recorded; a switch to pid 40 passes
	# (the kernel keeps sched_switch when either task is listed)
	[ "$output" = '            bash-12      [000] .....     0.001001: sched_switch: prev_comm=bash prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=kworker/0:1 next_pid=40 next_prio=120
           <...>-41      [000] .....     0.001005: 0: hello "world"
     kworker/0:1-40      [000] .....     1.002000: sched_switch: prev_comm=kworker/0:1 prev_pid=40 prev_prio=120 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120' ]
}

@test "tracefuse-inject: a filter over injected events" {
	mount_none
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	echo 'next_pid >= 200 && prev_comm ~ "b*"' > \
		"$TF_MNT/events/sched/sched_switch/filter"
	for i in 1 2 3 4 5 6; do
		echo "sched:sched_switch ts=$i cpu=0 pid=$i prev_comm=$([ $i -le 3 ] && echo bash || echo sh) prev_pid=$i next_comm=w$i next_pid=$((i * 100))"
	done | "$INJECT" "$TF_MNT"
	run bash -c "tail -n +13 '$TF_MNT/trace' | cut -c26-"
	[ "$output" = "[000] .....     0.000000: sched_switch: prev_comm=bash prev_pid=2 prev_prio=0 prev_state=R ==> next_comm=w2 next_pid=200 next_prio=0
[000] .....     0.000000: sched_switch: prev_comm=bash prev_pid=3 prev_prio=0 prev_state=R ==> next_comm=w3 next_pid=300 next_prio=0" ]
}

@test "tracefuse-inject: a hist trigger over injected events" {
	mount_none
	echo 'hist:keys=next_comm:vals=hitcount,prev_prio:sort=next_comm' > \
		"$TF_MNT/events/sched/sched_switch/trigger"
	{
		for i in 1 2 3; do echo "sched:sched_switch next_comm=alpha prev_prio=$i"; done
		echo "sched:sched_switch next_comm=beta prev_prio=-7"
		echo "sched:sched_switch next_comm=\"two words\" prev_prio=100"
	} | "$INJECT" "$TF_MNT"
	run cat "$TF_MNT/events/sched/sched_switch/hist"
	[ "$output" = "# event histogram
#
# trigger info: hist:keys=next_comm:vals=hitcount,prev_prio:sort=next_comm:size=2048 [active]
#

{ next_comm: alpha                                              } hitcount:          3  prev_prio:          6
{ next_comm: beta                                               } hitcount:          1  prev_prio: 18446744073709551609
{ next_comm: two words                                          } hitcount:          1  prev_prio:        100

Totals:
    Hits: 5
    Entries: 3
    Dropped: 0" ]
}

@test "tracefuse-inject: a large synthetic hist (updates put off within a batch) counts every pair" {
	mount_none
	cd "$TF_MNT"
	echo 'wakeup_latency u64 lat; pid_t pid' >> synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs:size=8192' >> \
		events/sched/sched_waking/trigger
	echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($lat,next_pid):size=8192' >> \
		events/sched/sched_switch/trigger
	echo 'hist:keys=pid,lat:sort=pid,lat:size=16384' >> \
		events/synthetic/wakeup_latency/trigger
	# 3,000 pids in a scattered order, pid p waits (p % 50) + 1 us
	local expected="" p i
	for ((i = 0; i < 3000; i++)); do
		p=$((1000 + (i * 1237) % 3000))
		echo "sched:sched_waking ts=$((i * 100000)) pid=$p"
		echo "sched:sched_switch ts=$((i * 100000 + (p % 50 + 1) * 1000)) next_pid=$p"
	done > "$BATS_TEST_TMPDIR/pairs"
	"$INJECT" "$TF_MNT" < "$BATS_TEST_TMPDIR/pairs"
	for ((p = 1000; p < 4000; p++)); do
		printf -v expected '%s{ pid: %10d, lat: %10d } hitcount: %10d\n' \
			"$expected" "$p" $((p % 50 + 1)) 1
	done
	run cat events/synthetic/wakeup_latency/hist
	[ "$output" = "# event histogram
#
# trigger info: hist:keys=pid,lat:vals=hitcount:sort=pid,lat:size=16384 [active]
#

${expected}
Totals:
    Hits: 3000
    Entries: 3000
    Dropped: 0" ]
}

@test "tracefuse-inject: per-line errors on stderr, exit 1, nothing partial recorded" {
	mount_none
	echo 1 > "$TF_MNT/events/sched/enable"
	cat > "$BATS_TEST_TMPDIR/bad.txt" <<'EOF'
sched:sched_switch ts=1 prev_pid=1 next_comm=ok1
sched:no_such_event ts=2
sched:sched_switch ts=3 prev_pid=1 nope=4
sched:sched_switch ts=4 prev_pid=12x next_comm=bad
sched:sched_switch ts=5 next_comm=0123456789abcdef
sched:sched_switch ts=6 prev_pid=-1 prev_prio=4294967296
sched:sched_wakeup ts=7 target_cpu=-2147483649
sched:sched_switch ts=8 prev_comm="unterminated
sched_switch ts=9
sched:sched_switch ts=10 prev_pid=3 prev_pid=4
sched:sched_switch ts=11 next_comm
sched:sched_switch ts=12 prev_pid=2 next_comm=ok2
EOF
	run bash -c "'$INJECT' '$TF_MNT' < '$BATS_TEST_TMPDIR/bad.txt' 2>&1 >/dev/null"
	[ "$status" -eq 1 ]
	[ "$output" = 'tracefuse-inject: line 2: unknown event "sched:no_such_event"
tracefuse-inject: line 3: field "nope": no such field in sched:sched_switch
tracefuse-inject: line 4: field "prev_pid": invalid number "12x"
tracefuse-inject: line 5: field "next_comm": string of 16 bytes too long for char[16] (at most 15)
tracefuse-inject: line 6: field "prev_prio": number out of range "4294967296"
tracefuse-inject: line 7: field "target_cpu": number out of range "-2147483649"
tracefuse-inject: line 8: field "prev_comm": unterminated quoted string
tracefuse-inject: line 9: "sched_switch": expected SYSTEM:EVENT
tracefuse-inject: line 10: field "prev_pid": given twice
tracefuse-inject: line 11: "next_comm": expected NAME=VALUE
tracefuse-inject: 2 records injected, 10 lines refused' ]
	run bash -c "tail -n +13 '$TF_MNT/trace' | grep -o 'next_comm=[^ ]*'"
	[ "$output" = "next_comm=ok1
next_comm=ok2" ]
	run head -3 "$TF_MNT/trace"
	[ "${lines[2]}" = "# entries-in-buffer/entries-written: 2/2   #P:1" ]
}

@test "tracefuse-inject: a last line without a newline, many lines, several clients" {
	mount_none
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	printf 'sched:sched_switch ts=1 next_pid=7' | "$INJECT" "$TF_MNT"
	for c in 1 2 3; do
		seq 1 5000 | sed "s/.*/sched:sched_switch ts=& next_pid=$c/" |
			"$INJECT" "$TF_MNT" &
	done
	wait
	run grep -c 'next_pid=[1237]' "$TF_MNT/trace"
	[ "$output" = 15001 ]
}

@test "tracefuse-inject: refuses without a daemon, and the socket is the user's alone" {
	mount_none
	run "$INJECT" "$BATS_TEST_TMPDIR" < /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == "tracefuse-inject: no tracefuse serves $BATS_TEST_TMPDIR "* ]]
	sock=$(find /run/tracefuse "${XDG_RUNTIME_DIR:-/nonexistent}/tracefuse" \
		"/tmp/tracefuse-$(id -u)" -name "*.sock" 2>/dev/null | grep -F "$(basename "$TF_MNT")" | head -1)
	[ -S "$sock" ]
	[ "$(stat -c %a "$sock")" = 600 ]
	[ "$(stat -c %a "$(dirname "$sock")")" = 700 ]
	tf_umount
	# the daemon removes it as it exits, just after the unmount
	for i in $(seq 50); do [ -e "$sock" ] || break; sleep 0.1; done
	[ ! -e "$sock" ]
}

@test "--source inject:FILE: the file's events are in trace at the first read" {
	cat > "$BATS_TEST_TMPDIR/ev.txt" <<< "$EVENTS
sched:bogus_event ts=1"
	mount_none --source "inject:$BATS_TEST_TMPDIR/ev.txt" -e sched -e raw_syscalls
	run trace_body
	[ "$output" = "$EXPECTED" ]
	run head -3 "$TF_MNT/trace"
	[ "${lines[2]}" = "# entries-in-buffer/entries-written: 6/6   #P:1" ]
}

@test "--source inject:- reads standard input" {
	mount_none --source inject:- -e sched:sched_switch <<< "$EVENTS"
	run bash -c "tail -n +13 '$TF_MNT/trace' | grep -c sched_switch"
	[ "$output" = 2 ]
}

@test "--source inject:FILE: a missing file is an error at start" {
	TF_MNT=$(mktemp -d "$BATS_TEST_TMPDIR/mnt.XXXXXX")
	run "$TF_BIN" --formats "$TF_FORMATS_612" --source inject:/nonexistent/ev.txt "$TF_MNT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"inject:/nonexistent/ev.txt: No such file or directory"* ]]
	rmdir "$TF_MNT"
	TF_MNT=
}

@test "tracefuse-inject --replay: replays a trace.dat and returns when done" {
	sample=$TF_TOP/data/sample.dat
	[ -f "$sample" ] || skip "no data/sample.dat"
	mount_none
	echo 1 > "$TF_MNT/events/enable"
	run "$INJECT" --replay "$sample" "$TF_MNT"
	if [[ "$output" == *"built without trace.dat replay"* ]]; then
		skip "replay not built"
	fi
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^tracefuse-inject:\ ([0-9]+)\ records\ replayed ]]
	n=${BASH_REMATCH[1]}
	[ "$n" -gt 0 ]
	run head -3 "$TF_MNT/trace"
	[[ "${lines[2]}" == "# entries-in-buffer/entries-written: "*"/$n   #P:1" ]]
}

@test "--source inject:FIFO: each line written is in trace at the next read (200 times)" {
	fifo=$BATS_TEST_TMPDIR/fifo
	mkfifo "$fifo"
	exec {fd}<>"$fifo"	# a writer, so that the daemon's open returns
	mount_none --source "inject:$fifo" -e sched:sched_switch
	for i in $(seq 1 200); do
		echo "sched:sched_switch ts=$i next_pid=$i" >&"$fd"
		mapfile -t lines < "$TF_MNT/trace"	# no fork: fast
		n=$(( ${#lines[@]} - 12 ))
		[ "$n" = "$i" ] || { echo "after $i lines: $n in trace"; return 1; }
	done
	exec {fd}>&-
}
