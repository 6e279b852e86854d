#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# perms.bats - who may do what: root, a user and a member of a group
# chowned onto the tree, on a tracefuse mounted by root with allow_other
# (tests/perms/matrix.sh, whose output on Linux 6.12 is
# tests/perms/matrix.out), with tracefs's uid=, gid= and mode= options,
# without allow_other, and on a user's own mount, where a trigger script
# and a hist read run as that user.
#
# Makes a user and a group (useradd, groupadd) and removes them at the
# end.  Where /dev/fuse is 0600, the tests of a user's own mount open it
# to users (0666, Debian's mode) for their duration.  Needs root.

load helpers

setup_file() {
	[ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null || return 0
	PU=tfperm$$u PG=tfperm$$g
	groupadd "$PG" &&
		useradd -M -U -G "$PG" -d / -s /bin/sh "$PU" || return 0
	export PU PG
	# every path down to the mounts must be searchable by the user
	PDIR=$(mktemp -d /tmp/tfperm.XXXXXX)
	chmod 755 "$PDIR"
	export PDIR
}

teardown_file() {
	[ -n "${PU:-}" ] || return 0
	# a daemon of the user's ends once its mount is gone
	for _ in $(seq 100); do
		pgrep -u "$PU" > /dev/null || break
		sleep 0.05
	done
	for p in $(pgrep -u "$PU"); do kill -9 "$p"; done
	# the user's daemons kept their sockets in /tmp/tracefuse-UID
	rm -rf "/tmp/tracefuse-$(id -u "$PU")"
	userdel "$PU" 2>/dev/null
	getent group "$PU" >/dev/null && groupdel "$PU"
	groupdel "$PG" 2>/dev/null
	rm -rf "$PDIR"
	true
}

setup() {
	[ -n "${PU:-}" ] || skip "needs root and useradd"
	MNT=$(mktemp -d "$PDIR/mnt.XXXXXX")
	chmod 755 "$MNT"
}

teardown() {
	cd /
	[ -z "${FUSE_MODE:-}" ] || chmod "$FUSE_MODE" /dev/fuse
	FUSE_MODE=
	if grep -q " $MNT fuse" /proc/mounts; then
		fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT"
	fi
	rmdir "$MNT" 2>/dev/null || true
}

as_user() { su -s /bin/sh "$PU" -c "$1"; }

# mount_root OPTS: tracefuse mounted by root
mount_root() {
	"$TF_BIN" --source none --formats "$TF_FORMATS_612" --cpus 1 "$@" "$MNT"
}

@test "with allow_other, root, a user and a group member may do what the kernel lets them (tests/perms/matrix.out)" {
	local opts
	for opts in allow_other allow_other,default_permissions; do
		mount_root -o "$opts"
		T=$MNT U=$PU G=$PG sh "$TF_TOP/tests/perms/matrix.sh" \
			> "$BATS_TEST_TMPDIR/matrix.$opts" 2>&1
		fusermount3 -u "$MNT"
		run diff -u "$TF_TOP/tests/perms/matrix.out" \
			"$BATS_TEST_TMPDIR/matrix.$opts"
		echo "-o $opts:"
		echo "$output"
		assert_success
	done
}

@test "without allow_other, no other user reaches the mount" {
	mount_root
	run as_user "ls $MNT"
	assert_failure
	assert_output --partial "Permission denied"
	run as_user "cat $MNT/tracing_on"
	assert_failure
	assert_output --partial "Permission denied"
	chmod 755 "$MNT"	# even where the modes would let them
	run as_user "stat $MNT/events"
	assert_failure
}

@test "uid=, gid= and mode= give the tree to a user and a group, as tracefs's options" {
	local u g
	u=$(id -u "$PU") g=$(getent group "$PG" | cut -d: -f3)
	mount_root -o "allow_other,uid=$u,gid=$g,mode=0711"
	# as on 6.12 (tests/perms/owners.out): the top has mode=, every
	# file and directory the owner and group
	run stat -c '%a %u %g %n' "$MNT" "$MNT/trace" \
		"$MNT/events/sched/enable" "$MNT/instances"
	assert_output "711 $u $g $MNT
640 $u $g $MNT/trace
640 $u $g $MNT/events/sched/enable
750 $u $g $MNT/instances"
	# the owner may write its files, make instances, chmod
	run as_user "echo 0 > $MNT/tracing_on && cat $MNT/tracing_on &&
		mkdir $MNT/instances/mine && ls $MNT/instances &&
		rmdir $MNT/instances/mine && chmod 0600 $MNT/trace_options &&
		stat -c %a $MNT/trace_options"
	assert_success
	assert_output "0
mine
600"
	# but not write what is read-only, nor give files away
	run as_user "echo x > $MNT/available_events"
	assert_failure
	assert_output --partial "Permission denied"
	run as_user "chown root $MNT/trace"
	assert_failure
	assert_output --partial "Operation not permitted"
	run "$TF_BIN" -o mode=99 "$MNT"
	assert_failure
	assert_output "tracefuse: -o mode=99: not a valid value"
}

# with_user_fuse: lets the user open /dev/fuse (fusermount3 opens it as
# the user) as Debian's 0666 device does; teardown puts the mode back
with_user_fuse() {
	FUSE_MODE=$(stat -c %a /dev/fuse)
	chmod 0666 /dev/fuse
}

@test "a user who may not open /dev/fuse is told why" {
	[ "$(stat -c %a /dev/fuse)" = 600 ] || skip "/dev/fuse is open to users here"
	chown "$PU" "$MNT"
	run as_user "'$TF_BIN' --source none '$MNT'"
	assert_failure
	assert_output --partial "tracefuse: cannot use /dev/fuse: Permission denied (a user's mount needs the device open to that user"
}

@test "a user's own mount is the user's: a trigger script and a hist read run as that user" {
	with_user_fuse
	chown "$PU" "$MNT"
	# the bundled sample trace is the default source of a user's mount
	run as_user "'$TF_BIN' '$MNT'"
	assert_success
	# (root cannot look: no allow_other)
	run as_user "stat -c '%U %G %a' $MNT $MNT/tracing_on $MNT/events/sched/enable"
	assert_output "$PU $PU 700
$PU $PU 640
$PU $PU 640"
	run as_user "cd $MNT && sh '$TF_TOP/scripts/example-trigger-script.sh'"
	echo "$output" | tail -20
	assert_success
	assert_output --partial "== events/raw_syscalls/sys_enter/hist (top 10):"
	assert_output --regexp "Hits: [1-9]"
	assert_output --partial "hello from the example script"
	# a hist on trace_marker records, read back
	run as_user "cd $MNT &&
		echo 'hist:keys=common_pid:vals=hitcount' > events/ftrace/print/trigger &&
		for i in 1 2 3; do echo hello > trace_marker; done &&
		grep -E '^ *(Hits|Entries):' events/ftrace/print/hist &&
		: > events/ftrace/print/trigger"
	assert_success
	assert_output "    Hits: 3
    Entries: 1"
	# what is read-only stays so for its owner, as on tracefs
	run as_user "echo x > $MNT/available_events"
	assert_failure
	assert_output --partial "Permission denied"
	run as_user "fusermount3 -u '$MNT'"
	assert_success
	! grep -q " $MNT fuse" /proc/mounts || false
	for _ in $(seq 100); do
		pgrep -u "$PU" > /dev/null || break
		sleep 0.05
	done
	! pgrep -u "$PU" || false
}

@test "as a user, the live kernel source says what it lacks" {
	with_user_fuse
	chown "$PU" "$MNT"
	run as_user "'$TF_BIN' -f --source kernel '$MNT'"
	assert_failure
	assert_output --partial "tracefuse: --source kernel needs privileges this user lacks"
	! grep -q " $MNT fuse" /proc/mounts || false
}
