#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# synth.bats - synthetic events through the mount: what the kernel's
# caches and the daemon's memory make of events that come and go.
# (What the files answer is checked against the kernel by oracle.bats:
# synth-define.sh and synth-remove.sh.)

load helpers

setup() {
	TF_MNT=$(mktemp -d "$BATS_FILE_TMPDIR/mnt.XXXXXX")
	"$TF_BIN" -f --formats "$TF_FORMATS_612" --cpus 1 --source none \
		"$TF_MNT" > "$BATS_FILE_TMPDIR/fg.out" 2>&1 3>&- &
	TF_PID=$!
	local i=0
	until grep -q " $TF_MNT fuse.tracefuse " /proc/mounts; do
		i=$((i + 1))
		[ $i -lt 500 ] || { cat "$BATS_FILE_TMPDIR/fg.out"; return 1; }
		sleep 0.01
	done
}

teardown() {
	tf_umount
	if [ -n "${TF_PID:-}" ]; then
		kill -TERM "$TF_PID" 2>/dev/null
		wait "$TF_PID" 2>/dev/null || true
	fi
}

rss_kb() { awk '/^VmRSS:/ { print $2 }' /proc/"$1"/status; }

@test "10,000 create/remove cycles leave the daemon's memory as it was" {
	local script=$BATS_FILE_TMPDIR/cycles.py before after
	cat > "$script" <<'PY'
import os, sys
m, n = sys.argv[1], int(sys.argv[2])
fd = os.open(m + "/synthetic_events", os.O_WRONLY | os.O_APPEND)
d = b"cyc u64 lat; pid_t pid; char comm[16]; char s[]; unsigned long[] st"
for i in range(n):
    os.write(fd, d)          # one write, one command
    os.write(fd, b"!cyc")
os.close(fd)
assert not os.path.exists(m + "/events/synthetic")
PY
	python3 "$script" "$TF_MNT" 1000	# warm up: threads, caches
	before=$(rss_kb "$TF_PID")
	run python3 "$script" "$TF_MNT" 10000
	assert_success
	# removed events are freed after an RCU grace period, by liburcu's
	# thread: on a loaded machine give it up to 3 s to catch up (a
	# leak stays; 10,000 leaked events are megabytes)
	local tries=0
	after=$(rss_kb "$TF_PID")
	while [ "$after" -gt $((before + 256)) ] && [ $tries -lt 30 ]; do
		sleep 0.1
		tries=$((tries + 1))
		after=$(rss_kb "$TF_PID")
	done
	echo "daemon VmRSS: $before kB before, $after kB after 10000 cycles ($tries waits)" | tee "$BATS_FILE_TMPDIR/rss" >&3
	[ "$after" -le $((before + 256)) ]
	[ -z "$(cat "$TF_MNT/synthetic_events")" ]
}

@test "a removed event is gone from lookups and listings at once" {
	run python3 - "$TF_MNT" <<'PY'
import os, sys
m = sys.argv[1]
se = m + "/synthetic_events"
def cmd(c):
    fd = os.open(se, os.O_WRONLY | os.O_APPEND)
    os.write(fd, c)
    os.close(fd)
for i in range(100):
    cmd(b"gone u64 x")
    ev = m + "/events/synthetic/gone"
    # cached by the kernel: dentries and attributes
    assert os.path.isdir(ev) and os.path.isfile(ev + "/enable")
    os.stat(ev + "/format")
    cmd(b"!gone")
    assert not os.path.exists(ev + "/enable"), i
    assert not os.path.isdir(ev), i
    assert not os.path.isdir(m + "/events/synthetic"), i
    assert "synthetic" not in os.listdir(m + "/events"), i
    # and back again: a new event, found at once
    cmd(b"gone2 u64 x; u32 y")
    assert os.path.isdir(m + "/events/synthetic/gone2"), i
    cmd(b"!gone2")
PY
	echo "$output"
	assert_success
}

@test "an open file of a removed event answers ENODEV, not as the event that takes its place" {
	run python3 - "$TF_MNT" <<'PY'
import errno, os, sys
m = sys.argv[1]
se = m + "/synthetic_events"
def cmd(c):
    fd = os.open(se, os.O_WRONLY | os.O_APPEND)
    os.write(fd, c)
    os.close(fd)
cmd(b"old u64 x")
old = os.open(m + "/events/synthetic/old/enable", os.O_RDWR)
old_ino = os.fstat(old).st_ino
cmd(b"!old")
cmd(b"new u64 y")          # takes the removed event's index
new = m + "/events/synthetic/new/enable"
assert os.stat(new).st_ino != old_ino
for op in (lambda: os.pread(old, 64, 0), lambda: os.write(old, b"1")):
    try:
        op()
        assert False, "the old file still works"
    except OSError as e:
        assert e.errno == errno.ENODEV, e
os.fstat(old)               # its inode is still there for fstat
with open(new) as f:
    assert f.read() == "0\n"   # the write did not enable the new event
os.close(old)
cmd(b"!new")
PY
	echo "$output"
	assert_success
}
