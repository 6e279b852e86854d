#!/usr/bin/env bats
#
# replay.bats - `--source replay:FILE`: the bundled sample trace
# (data/sample.dat, recorded on a real kernel into the buffer instance
# "tfsample") replayed through a mounted tracefuse.  The goldens in
# tests/replay-golden/ come from `trace-cmd report` of the same file
# (tests/replay-golden/make-golden.sh); normalize.sh removes only the
# differences between trace-cmd's layout and the kernel's trace format.
#
# Needs FUSE (/dev/fuse and fusermount3) and a built ./tracefuse.

load helpers

SAMPLE=$TF_TOP/data/sample.dat
GOLDEN=$TF_TOP/tests/replay-golden

teardown() {
	tf_umount
}

# the whole sample fits: 99498 records of about 60 bytes on 2 CPUs
big_buffer() { echo 100000 > "$TF_MNT/buffer_size_kb"; }

# "written" of the trace header: every record that reached the buffer
written() { sed -n 's/^# entries-in-buffer\/entries-written: [0-9]*\/\([0-9]*\) .*/\1/p' "$TF_MNT/trace"; }

@test "replaying the sample shows every record as trace-cmd report does, in the kernel's trace format" {
	tf_mount --formats "$TF_TOP/data/formats" --cpus 2 \
		--source "replay:$SAMPLE,start=read"
	big_buffer
	echo 1 > "$TF_MNT/events/enable"
	"$GOLDEN/normalize.sh" trace < "$TF_MNT/trace" > "$BATS_TEST_TMPDIR/trace"
	# the sched and lseek events line by line, for a readable diff
	grep -E '^.*-[0-9]+ \[[0-9]+\] [0-9.]+: (sched_[a-z_]+|sys_(enter|exit)_lseek): ' \
		"$BATS_TEST_TMPDIR/trace" | diff -u "$GOLDEN/sched.report" -
	# and every record of every event
	[ "$(wc -l < "$BATS_TEST_TMPDIR/trace")" = "$(cat "$GOLDEN/all.count")" ]
	[ "$(sha256sum < "$BATS_TEST_TMPDIR/trace" | cut -d' ' -f1)" = "$(cat "$GOLDEN/all.sha256")" ]
	# the kernel's line layout, comm from the file's saved cmdlines
	grep -m1 -q '^ record-sample.s-6272    \[000\] \.\.\.\.\.   253\.889994: sys_exit: NR 1 = 2$' "$TF_MNT/trace"
}

@test "records of another kernel's layout are translated by field name, and events the tree lacks are added" {
	command -v trace-cmd >/dev/null || skip "adding events needs trace-cmd (dump --events)"
	# this tree has only a made-up sched_switch (other offsets, sizes,
	# a __data_loc prev_comm, ID 5); every other event comes from the file
	tf_mount --formats "$GOLDEN/formats-other-kernel" --cpus 2 \
		--source "replay:$SAMPLE,start=read"
	[ "$(cat "$TF_MNT/events/sched/sched_switch/id")" = 5 ]
	[ -d "$TF_MNT/events/raw_syscalls/sys_enter" ]
	[ -d "$TF_MNT/events/kmem/kmalloc" ]
	big_buffer
	echo 1 > "$TF_MNT/events/enable"
	"$GOLDEN/normalize.sh" trace < "$TF_MNT/trace" > "$BATS_TEST_TMPDIR/trace"
	[ "$(sha256sum < "$BATS_TEST_TMPDIR/trace" | cut -d' ' -f1)" = "$(cat "$GOLDEN/all.sha256")" ]
}

@test "a hist trigger set before the replay counts sys_enter per pid as awk over trace-cmd report does" {
	tf_mount --formats "$TF_TOP/data/formats" --cpus 2 \
		--source "replay:$SAMPLE,start=read"
	echo 'hist:keys=common_pid.execname:vals=hitcount:sort=hitcount.descending' \
		> "$TF_MNT/events/raw_syscalls/sys_enter/trigger"
	cat "$TF_MNT/events/raw_syscalls/sys_enter/hist" > "$BATS_TEST_TMPDIR/hist"
	sed -n 's/^{ common_pid: .* \[ *\([0-9]*\)\] } hitcount: *\([0-9]*\)$/\2 \1/p' \
		"$BATS_TEST_TMPDIR/hist" | sort -k1,1nr -k2,2n |
		diff -u "$GOLDEN/hist.expected" -
	grep -q '^{ common_pid: record-sample.s \[      6279\] } hitcount:       2584$' "$BATS_TEST_TMPDIR/hist"
	grep -q '^    Hits: 22899$' "$BATS_TEST_TMPDIR/hist"
	grep -q '^    Entries: 146$' "$BATS_TEST_TMPDIR/hist"
	# the sorted column itself is descending
	sed -n 's/.*hitcount: *\([0-9]*\)$/\1/p' "$BATS_TEST_TMPDIR/hist" | sort -c -nr
}

@test "replay at mount with -e: the first read of trace already holds every record (read-your-events)" {
	tf_mount --formats "$TF_TOP/data/formats" --cpus 2 -e sched \
		--source "replay:$SAMPLE"
	n=$(grep -c ' sched_' "$GOLDEN/sched.report")
	[ "$(written)" = "$n" ]
	# the tree stays mounted and readable after the replay
	for i in 1 2 3; do [ "$(written)" = "$n" ]; done
	[ "$(cat "$TF_MNT/events/sched/sched_switch/enable")" = 1 ]
}

@test "loop=3 replays the file three times, later loops after the first in time" {
	tf_mount --formats "$TF_TOP/data/formats" --cpus 2 -e sched:sched_process_exec \
		--source "replay:$SAMPLE,loop=3"
	[ "$(written)" = $((3 * 133)) ]
	# timestamps keep increasing across loops
	grep -v '^#' "$TF_MNT/trace" | awk '{ print $4 }' | tr -d : | sort -c -n
}

@test "speed=1 replays in real time: a read sees what was due" {
	# the sample spans 1.6 s
	tf_mount --formats "$TF_TOP/data/formats" --cpus 2 -e sched \
		--source "replay:$SAMPLE,speed=1"
	n=$(grep -c ' sched_' "$GOLDEN/sched.report")
	first=$(written)
	[ "$first" -lt "$n" ]
	sleep 2
	[ "$(written)" = "$n" ]
}

@test "a missing or bad trace.dat is refused at start" {
	run "$TF_BIN" --source replay:/nonexistent.dat "$BATS_TEST_TMPDIR"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--source replay:/nonexistent.dat"* ]]
	run "$TF_BIN" --source "replay:$SAMPLE,loop=0" "$BATS_TEST_TMPDIR"
	[ "$status" -ne 0 ]
}
