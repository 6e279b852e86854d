#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# host.bats - tracefuse against the host kernel's own tracefs (issue 2,
# items 3, 4 and 11): with the host's schemas (the default: no --formats),
# format and id of every event both have are byte-identical,
# available_events is identical, and the same writes to set_event, enable
# files and filters give the same errno and read-back as on a host
# instance.  Only a private instance of the host (instances/tfhosttest) is
# written to, never its top level; it is removed afterwards.  Skips where
# the host's tracefs cannot be mounted.

load helpers

HOST_INST=tfhosttest

setup_file() {
	TF_HOST=$BATS_FILE_TMPDIR/host
	mkdir -p "$TF_HOST"
	if ! mount -t tracefs nodev "$TF_HOST" 2> /dev/null; then
		rmdir "$TF_HOST"
		skip "the host's tracefs cannot be mounted here (needs root and CONFIG_TRACING)"
	fi
	export TF_HOST
}

teardown_file() {
	[ -n "${TF_HOST:-}" ] || return 0
	if [ -d "$TF_HOST/instances/$HOST_INST" ]; then
		echo > "$TF_HOST/instances/$HOST_INST/set_event" 2> /dev/null
		rmdir "$TF_HOST/instances/$HOST_INST"
	fi
	umount "$TF_HOST" && rmdir "$TF_HOST"
}

setup() {
	[ -r "$TF_HOST/available_events" ] ||
		skip "the host's tracefs has no available_events"
	# the host's schemas (the default), and no live source: the host is
	# only read
	tf_mount --source none
}

teardown() {
	tf_umount
}

compare() {
	python3 "$BATS_TEST_DIRNAME/host-compare.py" "$@"
}

@test "host: format and id of every event are byte-identical" {
	run compare formats "$TF_HOST" "$TF_MNT"
	echo "$output"
	assert_success
	assert_line --regexp '^[1-9][0-9]* events compared'
}

@test "host: available_events is identical" {
	run compare events "$TF_HOST" "$TF_MNT"
	echo "$output"
	assert_success
}

@test "host: set_event, enable and filter writes: same errno, same read-back" {
	[ ! -e "$TF_HOST/instances/$HOST_INST" ] ||
		rmdir "$TF_HOST/instances/$HOST_INST"
	mkdir "$TF_HOST/instances/$HOST_INST" ||
		skip "cannot make an instance on the host's tracefs"
	run compare writes "$TF_HOST/instances/$HOST_INST" "$TF_MNT"
	echo "$output"
	echo > "$TF_HOST/instances/$HOST_INST/set_event"
	rmdir "$TF_HOST/instances/$HOST_INST"
	assert_success
	# and in a tracefuse instance, against a fresh host instance
	mkdir "$TF_HOST/instances/$HOST_INST" "$TF_MNT/instances/$HOST_INST"
	run compare writes "$TF_HOST/instances/$HOST_INST" \
		"$TF_MNT/instances/$HOST_INST"
	echo "$output"
	echo > "$TF_HOST/instances/$HOST_INST/set_event"
	rmdir "$TF_HOST/instances/$HOST_INST"
	assert_success
}
