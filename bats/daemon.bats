#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# daemon.bats - daemon hygiene (issue 2, item 8): --help/--version, clear
# errors and exit status 1 for bad mount points and a missing /dev/fuse,
# clean unmount on SIGTERM/SIGINT, the /proc/mounts line, FUSE -o options,
# and no descriptor, thread, mount or process left behind.

load helpers

setup_file() {
	# a small schema set: starting is then cheap enough for 200 cycles
	TF_MINI=$BATS_FILE_TMPDIR/formats
	mkdir -p "$TF_MINI"
	cp "$TF_FORMATS_612"/header_page "$TF_FORMATS_612"/header_event \
		"$TF_MINI"/
	cp -r "$TF_FORMATS_612"/sched "$TF_FORMATS_612"/ftrace "$TF_MINI"/
	export TF_MINI
}

teardown() {
	if [ -n "${TF_PID:-}" ]; then
		kill -TERM "$TF_PID" 2>/dev/null
		wait "$TF_PID" 2>/dev/null
	fi
	tf_umount
}

# mount_fg [options]: tracefuse -f in the background on a fresh TF_MNT;
# TF_PID is the daemon.  Waits until the mount is there.
mount_fg() {
	local i=0

	TF_MNT=$(mktemp -d "$BATS_FILE_TMPDIR/mnt.XXXXXX")
	"$TF_BIN" -f --formats "$TF_MINI" --source none "$@" "$TF_MNT" \
		> "$BATS_FILE_TMPDIR/fg.out" 2>&1 3>&- &
	TF_PID=$!
	until grep -q " $TF_MNT fuse.tracefuse " /proc/mounts; do
		i=$((i + 1))
		[ $i -lt 500 ] || { cat "$BATS_FILE_TMPDIR/fg.out"; return 1; }
		kill -0 "$TF_PID" 2>/dev/null || {
			cat "$BATS_FILE_TMPDIR/fg.out"; return 1; }
		sleep 0.01
	done
}

@test "--help and --version print their text and exit 0" {
	run "$TF_BIN" --help
	assert_success
	assert_line --partial "Usage: tracefuse"
	assert_line --partial "allow_other"
	run "$TF_BIN" -h
	assert_success
	assert_line --partial "Usage: tracefuse"
	run "$TF_BIN" --version
	assert_success
	assert_output --regexp '^tracefuse [0-9]+\.[0-9]+'
	run "$TF_BIN" -V
	assert_success
	assert_output --regexp '^tracefuse [0-9]+\.[0-9]+'
	run "$TF_BIN" --no-such-option "$BATS_FILE_TMPDIR"
	assert_failure 1
	run "$TF_BIN"
	assert_failure 1
	assert_line "tracefuse: missing MOUNTPOINT"
}

@test "bad mount points: a clear error and exit status 1" {
	run "$TF_BIN" --source none "$BATS_FILE_TMPDIR/does-not-exist"
	assert_failure 1
	assert_output "tracefuse: mount point $BATS_FILE_TMPDIR/does-not-exist: No such file or directory"

	touch "$BATS_FILE_TMPDIR/plain-file"
	run "$TF_BIN" --source none "$BATS_FILE_TMPDIR/plain-file"
	assert_failure 1
	assert_output "tracefuse: mount point $BATS_FILE_TMPDIR/plain-file: Not a directory"

	tf_mount --formats "$TF_MINI" --source none
	run "$TF_BIN" --formats "$TF_MINI" --source none "$TF_MNT"
	assert_failure 1
	assert_output "tracefuse: mount point $TF_MNT: Device or resource busy (tracefuse is already mounted there)"
	# the first mount is unharmed
	[ "$(grep -c " $TF_MNT fuse.tracefuse " /proc/mounts)" -eq 1 ]
	[ "$(cat "$TF_MNT/tracing_on")" = 1 ]
}

@test "a missing or wrong /dev/fuse: a clear error and exit status 1" {
	command -v unshare > /dev/null ||
		skip "unshare(1) is not installed"
	unshare -m true 2> /dev/null ||
		skip "cannot make a private mount namespace here (needs root)"
	local mnt=$BATS_FILE_TMPDIR/nofuse
	mkdir -p "$mnt"
	# only inside a private mount namespace: the machine's /dev is untouched
	run unshare -m sh -c "mount -t tmpfs none /dev &&
		exec '$TF_BIN' --source none '$mnt'"
	assert_failure 1
	assert_output --partial "tracefuse: cannot use /dev/fuse: No such file or directory"
	run unshare -m sh -c "mount --bind /dev/null /dev/fuse &&
		exec '$TF_BIN' --source none '$mnt'"
	assert_failure 1
	assert_output --partial "tracefuse: cannot use /dev/fuse: not the FUSE device"
	! grep -q " $mnt " /proc/mounts || false
}

@test "the mount line reads 'tracefs MNT fuse.tracefuse'; -o options are accepted" {
	tf_mount --formats "$TF_MINI" --source none
	run grep " $TF_MNT " /proc/mounts
	assert_output --regexp "^tracefs $TF_MNT fuse\\.tracefuse rw,"
	# the selftests' runner finds it this way (first match only if ours
	# is the first tracefs line, so look for ours among them)
	grep tracefs /proc/mounts | cut -f2 -d' ' | grep -qx "$TF_MNT"
	tf_umount

	tf_mount --formats "$TF_MINI" --source none -o allow_other,default_permissions
	run grep " $TF_MNT " /proc/mounts
	assert_output --regexp "^tracefs $TF_MNT fuse\\.tracefuse .*default_permissions"
	assert_output --partial "allow_other"
	[ "$(cat "$TF_MNT/tracing_on")" = 1 ]
	tf_umount

	tf_mount --formats "$TF_MINI" --source none -o allow_other -o default_permissions
	run grep " $TF_MNT " /proc/mounts
	assert_output --partial "allow_other"
}

@test "SIGTERM and SIGINT unmount cleanly and exit 0" {
	local sig st i
	for sig in TERM INT; do
		mount_fg
		[ "$(cat "$TF_MNT/events/sched/sched_switch/enable")" = 0 ]
		kill -s "$sig" "$TF_PID"
		# never hang the suite: a daemon that ignores the signal fails
		for i in $(seq 300); do
			kill -0 "$TF_PID" 2>/dev/null || break
			sleep 0.01
		done
		if kill -0 "$TF_PID" 2>/dev/null; then
			echo "SIG$sig did not stop the daemon"
			return 1
		fi
		st=0
		wait "$TF_PID" || st=$?
		TF_PID=
		echo "SIG$sig: exit status $st"
		[ "$st" -eq 0 ]
		! grep -q " $TF_MNT " /proc/mounts || false
		# a plain directory again
		[ -z "$(ls -A "$TF_MNT")" ]
		rmdir "$TF_MNT"
		TF_MNT=
	done
}

# fds and threads of the daemon, as "FDS THREADS"
daemon_counts() {
	echo "$(ls /proc/"$1"/fd | wc -l) $(ls /proc/"$1"/task | wc -l)"
}

@test "no descriptor or thread leak in the daemon across 200 rounds of work" {
	mount_fg
	local script=$BATS_FILE_TMPDIR/churn.py
	cat > "$script" <<'EOF'
import errno, os, sys, time
m, rounds = sys.argv[1], int(sys.argv[2])
ev = m + "/events/sched/sched_switch/"
def rd(p):
    fd = os.open(p, os.O_RDONLY)
    try:
        while os.read(fd, 65536):
            pass
    finally:
        os.close(fd)
def wr(p, data, flags=os.O_TRUNC):
    fd = os.open(p, os.O_WRONLY | flags)
    try:
        os.write(fd, data)
    except OSError:
        pass
    finally:
        os.close(fd)
for i in range(rounds):
    inst = m + "/instances/leak%d" % (i % 3)
    os.mkdir(inst)
    rd(inst + "/events/sched/sched_switch/enable")
    wr(inst + "/set_event", b"sched:sched_switch", os.O_APPEND)
    if i % 20 == 0:    # a file held open: rmdir fails (after 50 ms)
        fd = os.open(inst + "/trace", os.O_RDONLY)
        try:
            os.rmdir(inst)
            assert False, "rmdir of a busy instance succeeded"
        except OSError as e:
            assert e.errno == errno.EBUSY, e
        os.close(fd)
    rd(inst + "/trace")
    # right after close(), as the kernel allows (FUSE's RELEASE is late)
    os.rmdir(inst)
    rd(ev + "enable"); rd(ev + "format"); rd(ev + "trigger")
    rd(m + "/tracing_on"); rd(m + "/available_events"); rd(m + "/set_event")
    wr(ev + "trigger", b"traceon", os.O_APPEND)
    wr(ev + "trigger", b"!traceon", os.O_APPEND)
    wr(ev + "enable", b"1"); wr(ev + "enable", b"0")
    wr(ev + "filter", b"prev_pid == %d" % i); wr(ev + "filter", b"0")
    wr(ev + "filter", b"no_such_field == 1")       # EINVAL
    wr(m + "/trace_marker", b"round %d" % i)
    rd(m + "/trace"); wr(m + "/trace", b"")
    os.listdir(m); os.listdir(ev)
    try:
        os.open(m + "/no_such_file", os.O_RDONLY)
    except OSError as e:
        assert e.errno == errno.ENOENT
EOF
	python3 "$script" "$TF_MNT" 3	# warm up: threads the loop needs
	local before after
	before=$(daemon_counts "$TF_PID")
	run python3 "$script" "$TF_MNT" 200
	assert_success
	sleep 0.2
	after=$(daemon_counts "$TF_PID")
	echo "fds threads: before $before, after $after"
	# descriptors: exactly as many; threads: libfuse keeps up to 4 idle
	# workers, so a few more may stay, never one per request
	[ "${after% *}" -eq "${before% *}" ]
	[ "${after#* }" -le $(( ${before#* } + 4 )) ]
	[ -z "$(ls "$TF_MNT/instances")" ]
}

@test "200 mount/unmount cycles leave no mount and no process behind" {
	local base=$BATS_FILE_TMPDIR/cycles i mnt n
	mkdir -p "$base"
	for i in $(seq 200); do
		mnt=$base/m$((i % 4))
		mkdir -p "$mnt"
		"$TF_BIN" --formats "$TF_MINI" --source none "$mnt" ||
			{ echo "mount $i failed"; return 1; }
		[ "$(< "$mnt/tracing_on")" = 1 ] ||
			{ echo "mount $i: tracing_on unreadable"; return 1; }
		fusermount3 -u "$mnt" ||
			{ echo "unmount $i failed"; return 1; }
	done
	# the daemons exit after the unmount: give the last ones a moment
	for i in $(seq 100); do
		pgrep -f -- "--source none $base/" > /dev/null || break
		sleep 0.05
	done
	run pgrep -af -- "--source none $base/"
	assert_failure
	run grep " $base/" /proc/mounts
	assert_failure
	rm -r "$base"
}
