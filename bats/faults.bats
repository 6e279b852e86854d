#!/usr/bin/env bats
#
# faults.bats - what tracefuse does when something breaks under it: the
# host instance of the live source removed, a trace.dat truncated or
# corrupted mid-stream, an injection client killed inside a record,
# memory exhausted (ulimit -v).  Each time the daemon either goes on or
# exits cleanly with the mount released, and its log (stderr, run with
# -f) says what happened.
#
# Needs FUSE (/dev/fuse and fusermount3), a built ./tracefuse and
# ./tracefuse-inject; python3 for the generated trace.dat.

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject

# daemon_start LOG ARGS...: tracefuse -f ARGS on a fresh $TF_MNT, its
# stderr in LOG, its pid in $DPID; fails if it does not mount
daemon_start() {
	local log=$1
	shift
	TF_MNT=$(mktemp -d "$BATS_TEST_TMPDIR/mnt.XXXXXX")
	"$TF_BIN" -f "$@" "$TF_MNT" 2> "$log" &
	DPID=$!
	for _ in $(seq 100); do
		grep -q " $TF_MNT fuse.tracefuse " /proc/mounts && return 0
		kill -0 $DPID 2>/dev/null || break
		sleep 0.05
	done
	return 1
}

# daemon_stop: unmounts, and the daemon exits 0 with the mount gone
daemon_stop() {
	fusermount3 -u "$TF_MNT"
	wait $DPID
	! grep -q " $TF_MNT " /proc/mounts || false
	rmdir "$TF_MNT"
	TF_MNT=
}

teardown() {
	[ -z "${DPID:-}" ] || kill $DPID 2>/dev/null || true
	tf_umount
	[ -z "${HOSTFS:-}" ] || { umount "$HOSTFS"; rmdir "$HOSTFS"; }
	wait 2>/dev/null || true
}

@test "the live source's host instance: the kernel refuses to remove it while tracefuse streams from it, and tracefuse removes it at exit" {
	[ "$(id -u)" = 0 ] || skip "the live source needs root"
	HOSTFS=$(mktemp -d "$BATS_TEST_TMPDIR/host.XXXXXX")
	mount -t tracefs nodev "$HOSTFS" 2>/dev/null || {
		rmdir "$HOSTFS"; HOSTFS=
		skip "the host's tracefs cannot be mounted"
	}
	[ -d "$HOSTFS/instances" ] && [ -w "$HOSTFS/instances" ] ||
		skip "the host's tracefs has no writable instances/"
	daemon_start "$BATS_TEST_TMPDIR/log" --cpus 2 --source kernel ||
		skip "tracefuse --source kernel did not start: $(cat "$BATS_TEST_TMPDIR/log")"
	inst=$HOSTFS/instances/tracefuse-$DPID
	[ -d "$inst" ]
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"
	sleep 0.3
	before=$(grep -c sched_switch "$TF_MNT/trace")
	[ "$before" -gt 0 ]
	# removing it from under the daemon: refused (its buffers are open)
	run rmdir "$inst"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Device or resource busy"* ]]
	[ -d "$inst" ]
	# the daemon goes on streaming
	sleep 0.3
	[ "$(grep -c sched_switch "$TF_MNT/trace")" -gt "$before" ]
	kill -0 $DPID
	daemon_stop
	# and the instance goes with it
	[ ! -d "$inst" ]
}

@test "a trace.dat truncated or corrupted mid-stream: refused at start with a message, or replayed as far as it reads; never a crash" {
	command -v python3 > /dev/null || skip "python3 makes the trace.dat"
	d=$BATS_TEST_TMPDIR
	python3 "$TF_TOP/tests/fuzz/make-dat.py" "$TF_FORMATS_612" "$d/gen"
	# cut inside the second CPU's page; and the sample (zstd) cut in half
	head -c 14000 "$d/gen/all.dat" > "$d/cut.dat"
	head -c 1000000 "$TF_TOP/data/sample.dat" > "$d/sample-cut.dat"
	mkdir "$d/mnt-cut" "$d/mnt-sample-cut" "$d/mnt-x"
	for f in cut sample-cut; do
		run "$TF_BIN" -f --formats "$TF_FORMATS_612" --cpus 2 \
			--source "replay:$d/$f.dat" "$d/mnt-$f"
		[ "$status" -eq 1 ]
		[[ "$output" == *"replay:$d/$f.dat: not a trace.dat libtracecmd can read (truncated or corrupt)"* ]]
	done
	# libtracecmd 1.3 crashes opening this one (found by fuzz_replay)
	run "$TF_BIN" -f --formats "$TF_FORMATS_612" --cpus 2 \
		--source "replay:$TF_TOP/tests/replay-corrupt/open-fails.dat" "$d/mnt-x"
	[ "$status" -eq 1 ]
	[[ "$output" == *"(truncated or corrupt)"* ]]
	! grep -q "$d/mnt-" /proc/mounts || false
	# records scrambled in the middle of the first CPU's page: what
	# libtracecmd still reads is replayed, and the log counts it
	python3 - "$d/gen/all.dat" "$d/scrambled.dat" <<-'EOF'
	import random, sys
	d = bytearray(open(sys.argv[1], 'rb').read())
	r = random.Random(1)
	for i in range(12288 + 40, 12288 + 1500, 7):
	    d[i] = r.randrange(256)
	open(sys.argv[2], 'wb').write(d)
	EOF
	daemon_start "$d/log" --formats "$TF_FORMATS_612" --cpus 2 \
		--source "replay:$d/scrambled.dat,start=read"
	echo 1 > "$TF_MNT/events/enable"
	n=$(grep -vc '^#' "$TF_MNT/trace")
	[ "$n" -gt 0 ] && [ "$n" -lt 63 ]
	grep -q "^tracefuse: replay:$d/scrambled.dat: [0-9]* records dispatched, [0-9]* skipped$" "$d/log"
	# and through a running daemon: the client is told, the daemon goes on
	run "$INJECT" --replay "$d/cut.dat" "$TF_MNT"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Bad message"* ]]
	cat "$TF_MNT/tracing_on"
	daemon_stop
}

@test "an injection client killed inside a record: the cut line is dropped, the lines before it count, the log says so" {
	d=$BATS_TEST_TMPDIR
	daemon_start "$d/log" --formats "$TF_FORMATS_612" --cpus 1 --source none
	echo 'hist:keys=prev_pid:vals=hitcount' > "$TF_MNT/events/sched/sched_switch/trigger"
	mkfifo "$d/fifo"
	"$INJECT" "$TF_MNT" < "$d/fifo" > "$d/client" 2>&1 &
	ipid=$!
	exec 7> "$d/fifo"
	# the last line is cut: prev_pid=33 of what was to be 333
	printf 'sched:sched_switch prev_pid=1\nsched:sched_switch prev_pid=2\nsched:sched_switch prev_pid=33' >&7
	for _ in $(seq 100); do
		grep -q ' prev_pid: *2 }' "$TF_MNT/events/sched/sched_switch/hist" && break
		sleep 0.05
	done
	sleep 0.3	# the cut bytes reach the daemon
	kill -9 $ipid
	exec 7>&-
	wait $ipid || true
	for _ in $(seq 100); do
		grep -q "ended inside a line" "$d/log" && break
		sleep 0.05
	done
	grep -q "^tracefuse: an injection client ended inside a line (its 30 bytes dropped, 2 records dispatched): killed mid-record?$" "$d/log"
	hist=$(cat "$TF_MNT/events/sched/sched_switch/hist")
	[[ "$hist" == *"{ prev_pid:          1 } hitcount:          1"* ]]
	[[ "$hist" == *"{ prev_pid:          2 } hitcount:          1"* ]]
	[[ "$hist" != *"prev_pid:         33"* ]]
	[[ "$hist" == *"Hits: 2"* ]]
	# a client that ends normally, its last line without a newline, counts it
	printf 'sched:sched_switch prev_pid=44' | "$INJECT" "$TF_MNT"
	grep -q '{ prev_pid:         44 } hitcount:          1' "$TF_MNT/events/sched/sched_switch/hist"
	daemon_stop
}

@test "memory exhausted (ulimit -v): hist triggers and reads get ENOMEM, the daemon goes on and logs it, and unmounts cleanly" {
	d=$BATS_TEST_TMPDIR
	# the daemon's size once mounted and read, then a limit on that very
	# process (its thread stacks, which a loaded machine can make more
	# of at start, are counted in): room for one hist of 131072 entries
	# (about 60 MiB), not two.  One malloc arena: a FUSE thread that
	# first allocates after the limit is set would otherwise reserve an
	# arena of its own (64 MiB of address space), which fails or not by
	# which thread takes the write
	MALLOC_ARENA_MAX=1 daemon_start "$d/log" --formats "$TF_FORMATS_612" \
		--cpus 2 --source none
	cat "$TF_MNT/tracing_on" "$TF_MNT/events/sched/sched_switch/hist" > /dev/null
	base=$(awk '/^VmSize:/ { print $2 }' /proc/$DPID/status)
	prlimit --pid $DPID --as=$(((base + 90000) * 1024))
	big='hist:keys=common_pid,common_cpu:vals=hitcount:size=131072'
	echo "$big" > "$TF_MNT/events/sched/sched_switch/trigger"
	# one more such hist per event until memory runs out
	refused=
	for e in sched/sched_waking kmem/kmalloc raw_syscalls/sys_enter \
		 sched/sched_wakeup sched/sched_process_exec irq/irq_handler_entry; do
		r=$(w "$TF_MNT/events/$e/trigger" "$big")
		[ "$r" = OK ] && continue
		[ "$r" = "Cannot allocate memory" ]
		refused=$e
		break
	done
	[ -n "$refused" ]
	# the refused trigger left nothing behind
	[ "$(grep -vc '^#' "$TF_MNT/events/$refused/trigger")" = 0 ]
	grep -q '^tracefuse: out of memory: a write of trigger failed (ENOMEM); nothing changed$' "$d/log"
	# fill the map: every insert takes a preallocated entry or counts as
	# dropped (200000 keys, 131072 entries); the event path allocates
	# nothing
	awk 'BEGIN { for (i = 0; i < 200000; i++)
		printf "sched:sched_switch pid=%d cpu=%d\n", i, i % 2 }' > "$d/in"
	if ! "$INJECT" -q "$TF_MNT" < "$d/in" 2> "$d/inj.err"; then
		# the client's connection needs memory of its own (its
		# thread's stack, its buffers), which the limit may not leave:
		# refused as out of memory, the daemon going on; with room for
		# it, again
		cat "$d/inj.err"
		grep -q 'out of memory' "$d/inj.err"
		kill -0 $DPID
		prlimit --pid $DPID --as=$(((base + 90000 + 32768) * 1024))
		"$INJECT" -q "$TF_MNT" < "$d/in"
	fi
	# reading sorts a copy of 131072 entries: room or ENOMEM, never worse
	if cat "$TF_MNT/events/sched/sched_switch/hist" > "$d/hist" 2> "$d/err"; then
		grep -q '^    Hits: 131072$' "$d/hist"
		grep -q '^    Entries: 131072$' "$d/hist"
		grep -q '^    Dropped: 68928$' "$d/hist"
	else
		grep -q 'Cannot allocate memory' "$d/err"
		grep -q '^tracefuse: out of memory: a read of hist failed (ENOMEM)$' "$d/log"
	fi
	[ "$(cat "$TF_MNT/tracing_on")" = 1 ]
	kill -0 $DPID
	daemon_stop
}
