#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
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
INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject

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
	grep -E '^.*-[0-9]+ \[[0-9]+\] [0-9.]+: (sched_[a-z_]+: |sys_lseek[( ])' \
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

# formats_kernel DIR RELEASE: a copy of DIR's formats, its KERNEL
# saying RELEASE
formats_kernel() {
	local dir
	dir=$(mktemp -d "$BATS_TEST_TMPDIR/formats.XXXXXX")
	cp -r "$1"/. "$dir"
	echo "$2" > "$dir/KERNEL"
	echo "$dir"
}

@test "syscall events print as the kernel of their schema: the tree's, or for events a replay adds, the recording kernel's" {
	command -v trace-cmd >/dev/null || skip "adding events needs trace-cmd (dump --events)"
	# the tree's own sys_enter_lseek, on a tree that says 6.12
	tf_mount --formats "$(formats_kernel "$TF_TOP/data/formats" 6.12.0)" \
		--cpus 2 --source "replay:$SAMPLE,start=read"
	echo 1 > "$TF_MNT/events/syscalls/sys_enter_lseek/enable"
	grep -q ': sys_lseek(fd: 3, offset: ffffffffffffffc4, whence: 1)$' "$TF_MNT/trace"
	tf_umount
	# a tree without syscalls that says 6.12: the events come from the
	# file, recorded on 6.18, and print as 6.18 does
	tf_mount --formats "$(formats_kernel "$GOLDEN/formats-other-kernel" 6.12.0)" \
		--cpus 2 --source "replay:$SAMPLE,start=read"
	echo 1 > "$TF_MNT/events/syscalls/sys_enter_lseek/enable"
	grep -q ': sys_lseek(fd: 3, offset: 0xffffffffffffffc4, whence: 1)$' "$TF_MNT/trace"
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

# A formats directory like data/formats (the sample's kernel) without
# the kmem system and without sched:sched_process_exec: four of the
# sample's events, one of them in a system the tree has.
lacking_formats() {
	cp -r "$TF_TOP/data/formats" "$BATS_TEST_TMPDIR/formats"
	rm -r "$BATS_TEST_TMPDIR/formats/kmem" \
		"$BATS_TEST_TMPDIR/formats/sched/sched_process_exec"
	echo "$BATS_TEST_TMPDIR/formats"
}

ADDED="kmem/kmalloc kmem/kfree kmem/kmem_cache_alloc sched/sched_process_exec"

# report_per_pid EVENT: "COUNT PID" per pid of EVENT's records in the
# sample, as trace-cmd report shows them, most first
report_per_pid() {
	trace-cmd report "$SAMPLE" 2>/dev/null | awk -v ev="$1:" '
		{
			for (i = 3; i <= NF; i++)
				if ($(i - 1) ~ /^[0-9]+\.[0-9]+:$/)
					break
			if ($i != ev)
				next
			for (j = 2; j < i; j++)
				if ($j ~ /^\[[0-9]+\]$/)
					break
			match($(j - 1), /-[0-9]+$/)
			n[substr($(j - 1), RSTART + 1)]++
		}
		END { for (p in n) print n[p], p }' | sort -k1,1nr -k2,2n
}

# hist_per_pid FILE: the same from a hist keyed by common_pid
hist_per_pid() {
	sed -n 's/^{ common_pid: *\([0-9]*\) } hitcount: *\([0-9]*\)$/\2 \1/p' "$1" |
		sort -k1,1nr -k2,2n
}

@test "tracefuse-inject --replay adds the events the mounted tree lacks, in every instance, as a loaded module's" {
	command -v trace-cmd >/dev/null || skip "adding events needs trace-cmd (dump --events)"
	tf_mount --formats "$(lacking_formats)" --cpus 2 --source none
	mkdir "$TF_MNT/instances/before"
	[ ! -e "$TF_MNT/events/kmem" ]
	[ ! -e "$TF_MNT/events/sched/sched_process_exec" ]
	nr=$(grep -c . "$TF_MNT/available_events")
	first=$(head -1 "$TF_MNT/available_events")
	echo 1 > "$TF_MNT/events/sched/sched_switch/enable"

	run "$INJECT" --replay "$SAMPLE" "$TF_MNT"
	[ "$status" -eq 0 ]
	[ "$output" = "tracefuse-inject: 99498 records replayed, 0 skipped, 4 events added to the tree" ]

	mkdir "$TF_MNT/instances/after"
	for tr in "$TF_MNT" "$TF_MNT/instances/before" "$TF_MNT/instances/after"; do
		[ "$(ls "$tr/events/kmem" | tr '\n' ' ')" = "enable filter kfree kmalloc kmem_cache_alloc " ]
		for e in $ADDED; do
			[ "$(ls "$tr/events/$e" | tr '\n' ' ')" = "enable filter format hist hist_debug id trigger " ]
			# the recording kernel's format and id, byte for byte
			cmp "$tr/events/$e/format" "$TF_TOP/data/formats/$e/format"
			[ "$(cat "$tr/events/$e/id")" = "$(sed -n 's/^ID: //p' "$TF_TOP/data/formats/$e/format")" ]
			# disabled, no filter, no trigger: a module's new events
			[ "$(cat "$tr/events/$e/enable")" = 0 ]
			[ "$(cat "$tr/events/$e/filter")" = none ]
			[ "$(grep -vc '^#' "$tr/events/$e/trigger")" = 0 ]
		done
		[ "$(cat "$tr/events/kmem/enable")" = 0 ]
		# readdir: the new system and event come last, as eventfs
		# adds a directory at the tail of its parent's
		[ "$(ls -f "$tr/events" | tail -1)" = kmem ]
		[ "$(ls -f "$tr/events/sched" | tail -1)" = sched_process_exec ]
		# the events enabled before are as they were
		[ "$(cat "$tr/set_event")" = "$([ "$tr" = "$TF_MNT" ] && echo sched:sched_switch)" ]
	done
	# available_events: the added events first, newest first, as the
	# kernel adds a loaded module's events at the head of its list
	[ "$(grep -c . "$TF_MNT/available_events")" = $((nr + 4)) ]
	[ "$(head -4 "$TF_MNT/available_events" | sort | tr '\n' ' ')" = \
		"kmem:kfree kmem:kmalloc kmem:kmem_cache_alloc sched:sched_process_exec " ]
	[ "$(sed -n 5p "$TF_MNT/available_events")" = "$first" ]
	# set_event takes them, and lists them in the same order
	echo 'kmem:*' >> "$TF_MNT/set_event"
	echo sched_process_exec >> "$TF_MNT/set_event"
	[ "$(cat "$TF_MNT/events/kmem/kmalloc/enable")" = 1 ]
	diff <(grep -E '^(kmem|sched):' "$TF_MNT/available_events" |
		grep -E 'kmem|sched_switch|sched_process_exec') "$TF_MNT/set_event"
	echo '!kmem:kfree' >> "$TF_MNT/set_event"
	[ "$(cat "$TF_MNT/events/kmem/enable")" = X ]
	# an instance lists them first too, unless made after them: the
	# kernel builds a new instance's list from the whole event list
	for i in before after; do
		echo sched:sched_switch > "$TF_MNT/instances/$i/set_event"
		echo 'kmem:*' >> "$TF_MNT/instances/$i/set_event"
	done
	diff <(grep ^kmem: "$TF_MNT/available_events"; echo sched:sched_switch) \
		"$TF_MNT/instances/before/set_event"
	diff <(echo sched:sched_switch; grep ^kmem: "$TF_MNT/available_events" | tac) \
		"$TF_MNT/instances/after/set_event"
	# a subsystem filter on the new system (whose file, as on 6.12,
	# keeps its banner)
	echo 'bytes_alloc > 10' > "$TF_MNT/events/kmem/filter"
	[ "$(cat "$TF_MNT/events/kmem/kmalloc/filter")" = "bytes_alloc > 10" ]
	grep -q '^### global filter ###$' "$TF_MNT/events/kmem/filter"
	# the same inodes at every lookup
	ino=$(stat -c %i "$TF_MNT/events/kmem/kmalloc/hist")
	[ "$ino" = "$(stat -c %i "$TF_MNT/events/kmem/kmalloc/hist")" ]
	[ "$(stat -c %i "$TF_MNT/instances/after/events/kmem/kmalloc/hist")" != "$ino" ]
}

@test "after tracefuse-inject --replay added events, a hist on them counts a second replay as trace-cmd report does, with the file's symbols" {
	command -v trace-cmd >/dev/null || skip "adding events needs trace-cmd (dump --events)"
	tf_mount --formats "$(lacking_formats)" --cpus 2 --source none
	mkdir "$TF_MNT/instances/inst"
	"$INJECT" -q --replay "$SAMPLE" "$TF_MNT"
	ino=$(stat -c %i "$TF_MNT/events/kmem/kmalloc/hist")

	# triggers, a filter and enables on the added events, then replay again
	echo 'hist:keys=common_pid:vals=hitcount' > "$TF_MNT/events/kmem/kmalloc/trigger"
	echo 'hist:keys=call_site.sym' >> "$TF_MNT/events/kmem/kmalloc/trigger"
	echo 'hist:keys=common_pid' > "$TF_MNT/instances/inst/events/sched/sched_process_exec/trigger"
	echo 1 > "$TF_MNT/instances/inst/events/kmem/kmalloc/enable"
	echo 'bytes_req > 1024' > "$TF_MNT/instances/inst/events/kmem/kmalloc/filter"
	echo 100000 > "$TF_MNT/instances/inst/buffer_size_kb"
	run "$INJECT" --replay "$SAMPLE" "$TF_MNT"
	[ "$status" -eq 0 ]
	[ "$output" = "tracefuse-inject: 99498 records replayed, 0 skipped" ]

	cat "$TF_MNT/events/kmem/kmalloc/hist" > "$BATS_TEST_TMPDIR/kmalloc.hist"
	report_per_pid kmalloc > "$BATS_TEST_TMPDIR/kmalloc.report"
	[ -s "$BATS_TEST_TMPDIR/kmalloc.report" ]
	hist_per_pid "$BATS_TEST_TMPDIR/kmalloc.hist" | diff -u "$BATS_TEST_TMPDIR/kmalloc.report" -
	total=$(awk '{ s += $1 } END { print s }' "$BATS_TEST_TMPDIR/kmalloc.report")
	grep -q "^    Hits: $total\$" "$BATS_TEST_TMPDIR/kmalloc.hist"

	cat "$TF_MNT/instances/inst/events/sched/sched_process_exec/hist" > "$BATS_TEST_TMPDIR/exec.hist"
	report_per_pid sched_process_exec > "$BATS_TEST_TMPDIR/exec.report"
	hist_per_pid "$BATS_TEST_TMPDIR/exec.hist" | diff -u "$BATS_TEST_TMPDIR/exec.report" -
	grep -q "^    Hits: $(awk '{ s += $1 } END { print s }' "$BATS_TEST_TMPDIR/exec.report")\$" \
		"$BATS_TEST_TMPDIR/exec.hist"

	# the instance recorded the kmalloc records its filter lets through
	big=$(trace-cmd report "$SAMPLE" 2>/dev/null | grep ' kmalloc: ' |
		sed -n 's/.* bytes_req=\([0-9]*\) .*/\1/p' | awk '$1 > 1024' | wc -l)
	[ "$(sed -n 's/^# entries-in-buffer\/entries-written: [0-9]*\/\([0-9]*\) .*/\1/p' \
		"$TF_MNT/instances/inst/trace")" = "$big" ]
	grep -q ' kmalloc: call_site=' "$TF_MNT/instances/inst/trace"
	# the replayed file's symbols, though the replay came after mounting:
	# %pS as trace-cmd report prints it, and .sym keys by function
	sed -n 's/.* call_site=\([^ ]*\) ptr=\([^ ]*\) .*/\2 \1/p' \
		"$TF_MNT/instances/inst/trace" | sort > "$BATS_TEST_TMPDIR/sites.tf"
	trace-cmd report "$SAMPLE" 2>/dev/null | grep ' kmalloc: ' |
		sed -n 's/.* call_site=\([^ ]*\) ptr=\([^ ]*\) bytes_req=\([0-9]*\) .*/\3 \2 \1/p' |
		awk '$1 > 1024 { print $2, $3 }' | sort > "$BATS_TEST_TMPDIR/sites.report"
	[ -s "$BATS_TEST_TMPDIR/sites.tf" ]
	diff -u "$BATS_TEST_TMPDIR/sites.report" "$BATS_TEST_TMPDIR/sites.tf"
	awk '/call_site: \[/ { n[$4] += $NF } END { for (f in n) print f, n[f] }' \
		"$TF_MNT/events/kmem/kmalloc/hist" | sort > "$BATS_TEST_TMPDIR/sym.tf"
	trace-cmd report "$SAMPLE" 2>/dev/null | grep ' kmalloc: ' |
		sed -n 's/.* call_site=\([^+ ]*\)[+ ].*/\1/p' |
		awk '{ n[$1]++ } END { for (f in n) print f, n[f] }' | sort > "$BATS_TEST_TMPDIR/sym.report"
	[ -s "$BATS_TEST_TMPDIR/sym.tf" ]
	diff -u "$BATS_TEST_TMPDIR/sym.report" "$BATS_TEST_TMPDIR/sym.tf"
	# nothing else moved
	[ "$(stat -c %i "$TF_MNT/events/kmem/kmalloc/hist")" = "$ino" ]
}

@test "injection lines name the events a replay added, through the client and through a running inject:FIFO source" {
	command -v trace-cmd >/dev/null || skip "adding events needs trace-cmd (dump --events)"
	fifo=$BATS_TEST_TMPDIR/fifo
	mkfifo "$fifo"
	exec {fd}<>"$fifo"	# a writer, so that the daemon's open returns
	# the source's parser is made at start, before the events exist
	tf_mount --formats "$(lacking_formats)" --cpus 1 --source "inject:$fifo"
	run "$INJECT" "$TF_MNT" <<< "kmem:kmalloc bytes_req=7"
	[ "$status" -eq 1 ]
	[[ "$output" == *'line 1: unknown event "kmem:kmalloc"'* ]]
	"$INJECT" -q --replay "$SAMPLE" "$TF_MNT"
	echo 'hist:keys=bytes_req' > "$TF_MNT/events/kmem/kmalloc/trigger"
	run "$INJECT" "$TF_MNT" <<< "kmem:kmalloc bytes_req=7 pid=12"
	[ "$status" -eq 0 ]
	echo "kmem:kmalloc bytes_req=7 pid=13" >&"$fd"
	grep -q '^{ bytes_req:          7 } hitcount:          2$' "$TF_MNT/events/kmem/kmalloc/hist"
	exec {fd}>&-
}
