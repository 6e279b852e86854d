#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# differential.bats - the host kernel's tracefs against tracefuse, write
# for write.  tests/differential/drive.sh writes the filter corpus (362
# strings), the trigger corpus's plain commands (143: no hist, no
# snapshot, which the host lacks), event filters on signal_generate
# (the host's records from real kill(2)s, injected into tracefuse with
# tracefuse-inject) and the trigger-filter match table (ftrace:print
# records from trace_marker), and single writes and path operations
# whose errnos matter (tests/differential/errnos.txt) to a private
# instance of the
# host's tracefs and to an instance of a tracefuse mounted with the
# host's own event formats; errno, read-back, error_log and which
# records match must be equal, except for tests/differential/
# known-differences.txt (each with its reason).  The host's top level
# is never touched.

load helpers

DIFF=$TF_TOP/tests/differential
TF_INJECT_BIN=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject

# host_tracefs: a host tracefs to write to, in HOST.  /sys/kernel/tracing
# when it is mounted and writable; else a private mount of tracefs on a
# fresh directory (HOST_MOUNTED), which teardown_file unmounts.  Another
# tracefs mount elsewhere on the machine belongs to someone else.
host_tracefs() {
	HOST= HOST_MOUNTED=
	if [ -d /sys/kernel/tracing/instances ] &&
	   [ -w /sys/kernel/tracing/instances ]; then
		HOST=/sys/kernel/tracing
		return 0
	fi
	HOST_MOUNTED=$(mktemp -d "${TMPDIR:-/tmp}/tfdiff.XXXXXX") || return 0
	if mount -t tracefs nodev "$HOST_MOUNTED" 2>/dev/null; then
		[ -w "$HOST_MOUNTED/instances" ] && HOST=$HOST_MOUNTED
	else
		rmdir "$HOST_MOUNTED"
		HOST_MOUNTED=
	fi
}

setup_file() {
	host_tracefs
	export HOST HOST_MOUNTED
	[ -n "$HOST" ] || return 0
	HOST_INST=$HOST/instances/tfdiff.$$
	export HOST_INST
	mkdir "$HOST_INST" || { HOST=; return 0; }
	SECTIONS="filters triggers match errnos"
	[ -x "$TF_INJECT_BIN" ] && SECTIONS="$SECTIONS sigmatch"
	export SECTIONS SIGMATCH_LINES=$BATS_FILE_TMPDIR/sig.inject
	SIDE=host bash "$DIFF/drive.sh" "$HOST_INST" "$BATS_FILE_TMPDIR/host.out"
	rmdir "$HOST_INST"
	# tracefuse with the host's formats and CPUs (CPUS{} lists are
	# checked against the CPUs a tree presents); no live source, so the
	# only records are the test's own trace_marker writes
	tf_mount --source none
	mkdir "$TF_MNT/instances/tfdiff"
	SIDE=tf TF_INJECT="$TF_INJECT_BIN $TF_MNT" \
		bash "$DIFF/drive.sh" "$TF_MNT/instances/tfdiff" "$BATS_FILE_TMPDIR/tf.out"
	rmdir "$TF_MNT/instances/tfdiff"
	tf_umount
	normalize "$BATS_FILE_TMPDIR/host.out" host > "$BATS_FILE_TMPDIR/host.norm"
	normalize "$BATS_FILE_TMPDIR/tf.out" tf > "$BATS_FILE_TMPDIR/tf.norm"
}

teardown_file() {
	[ -n "${HOST_INST:-}" ] && [ -d "$HOST_INST" ] && rmdir "$HOST_INST"
	tf_umount
	if [ -n "${HOST_MOUNTED:-}" ]; then
		umount "$HOST_MOUNTED" 2>/dev/null || umount -l "$HOST_MOUNTED"
		rmdir "$HOST_MOUNTED"
	fi
	true
}

# normalize FILE SIDE: applies known-differences.txt
normalize() {
	local sedf=$BATS_FILE_TMPDIR/kd.sed
	awk -F'\t' '$1 == "host-sed" { print $2 }' \
		"$DIFF/known-differences.txt" > "$sedf"
	[ "$2" = host ] || : > "$sedf"
	sed -f "$sedf" "$1" | awk -F'\t' -v kd="$DIFF/known-differences.txt" '
		BEGIN { while ((getline l < kd) > 0) {
				split(l, a, "\t")
				if (a[1] == "nomatch") skip["traceoff if " a[2]] = 1 } }
		/^@ / { cur = $2 }
		/^m / && (cur in skip) { print "m (known difference: not compared)"; next }
		{ print }'
}

section() { # NAME FILE: the lines of one section
	awk -v s="##### $1" '/^##### / { on = ($0 == s); next } on' "$2"
}

check() {
	[ -n "$HOST" ] || skip "no usable host tracefs (needs root and a kernel with tracefs)"
	section "$1" "$BATS_FILE_TMPDIR/host.norm" > "$BATS_FILE_TMPDIR/$1.host"
	section "$1" "$BATS_FILE_TMPDIR/tf.norm" > "$BATS_FILE_TMPDIR/$1.tf"
	n=$(grep -c '^@ ' "$BATS_FILE_TMPDIR/$1.host")
	echo "$1: $n writes"
	[ "$n" -ge "$2" ]
	run diff -u "$BATS_FILE_TMPDIR/$1.host" "$BATS_FILE_TMPDIR/$1.tf"
	echo "$output" | head -60
	assert_success
}

@test "filters: errno, read-back and error_log equal the host's (>= 300 strings)" {
	check filters 300
}

@test "triggers: errno, read-back and error_log equal the host's (>= 100 commands)" {
	check triggers 100
}

@test "event filters let the same signal_generate records through as the host's" {
	[ -x "$TF_INJECT_BIN" ] || skip "no tracefuse-inject to feed tracefuse the host's records"
	check sigmatch 30
	n=$(grep -c '^s' "$BATS_FILE_TMPDIR/sigmatch.host")
	echo "$n record sets compared"
	[ "$n" -ge 30 ]
	# the host did see every signal sent
	grep -qx 's (no filter): 1 2 3 10 12 13 14 15 17 18 20 21 22 23 28 29 30' \
		"$BATS_FILE_TMPDIR/sigmatch.host"
}

@test "trigger filters accept the same trace_marker records as the host's" {
	check match 30
	n=$(grep -c '^m [01]' "$BATS_FILE_TMPDIR/match.host")
	echo "$n match vectors compared"
	[ "$n" -ge 30 ]
}

@test "errnos of out-of-range numbers, NULs, pid lists, cpumasks and long names equal the host's" {
	check errnos 45
}
