#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# trace, trace_pipe and stack entries as a reader of the kernel's sees them
# (an address without a symbol prints as trace_seq_print_sym()'s 0x%08lx).

load helpers

setup() { tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none; }
teardown() { tf_umount; }

@test "a stacktrace trigger writes the kernel's <stack trace> entry" {
	cd "$TF_MNT"
	echo stacktrace > events/sched/sched_switch/trigger
	echo 1 > events/sched/sched_switch/enable
	printf '%s\n' \
	  'sched:sched_switch pid=5 comm=bash prev_comm=bash prev_pid=5 next_comm=swapper/0 next_pid=0 stack=0x10,0x20' \
	  'sched:sched_switch pid=5 comm=bash prev_comm=bash prev_pid=5 next_comm=x next_pid=7' |
		"${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject" "$TF_MNT"
	run sh -c "grep -v '^#' trace | sed -E 's/ +[0-9]+\.[0-9]+: / TS: /'"
	assert_output "            bash-5       [000] ..... TS: sched_switch: prev_comm=bash prev_pid=5 prev_prio=0 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=0
            bash-5       [000] ..... TS: <stack trace>
 => 0x00000010
 => 0x00000020
            bash-5       [000] ..... TS: sched_switch: prev_comm=bash prev_pid=5 prev_prio=0 prev_state=R ==> next_comm=x next_pid=7 next_prio=0
            bash-5       [000] ..... TS: <stack trace>"
}

@test "poll on trace_pipe wakes when a record arrives; reading consumes" {
	run python3 - "$TF_MNT" <<'PY'
import os, select, sys, threading, time
mnt = sys.argv[1]
fd = os.open(mnt + '/trace_pipe', os.O_RDONLY | os.O_NONBLOCK)
p = select.poll(); p.register(fd, select.POLLIN)
assert p.poll(100) == [], "empty trace_pipe must not be readable"
def write():
    time.sleep(0.3)
    with open(mnt + '/trace_marker', 'w') as f: f.write('wake')
threading.Thread(target=write).start()
ev = p.poll(3000)
assert ev and ev[0][1] & select.POLLIN, "no wake-up: %r" % ev
line = os.read(fd, 4096).decode()
assert line.rstrip().endswith('tracing_mark_write: wake'), line
assert p.poll(100) == [], "consumed record still readable"
try:
    os.read(fd, 4096); assert False, "read of an empty pipe must not block"
except BlockingIOError:
    pass
print("ok")
PY
	assert_success
	assert_output "ok"
}

@test ".function in a filter takes the host's kallsyms: in the function matches, outside does not" {
	addr=$(grep -m1 ' [Tt] schedule$' /proc/kallsyms | cut -d' ' -f1)
	[ -n "$addr" ] && [ "$addr" != 0000000000000000 ] ||
		skip "/proc/kallsyms hides addresses here"
	cd "$TF_MNT/events/kmem/kmalloc"
	assert_equal "$(w filter 'call_site.function == no_such_function')" \
		"Invalid argument"
	run cat filter
	assert_line --index 2 "parse_error: Function not found"
	assert_equal "$(w filter 'call_site.function == schedule')" OK
	echo 1 > enable
	printf 'kmem:kmalloc pid=1 call_site=0x%x bytes_req=1\nkmem:kmalloc pid=1 call_site=0x10 bytes_req=2\n' \
		$((0x$addr + 4)) | "${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject" "$TF_MNT"
	run sh -c "grep -v '^#' '$TF_MNT/trace' | grep -o 'bytes_req=[0-9]*'"
	assert_output "bytes_req=1"
}

@test "trace_pipe opened again right after it was closed is never busy; while open, a second open of it or its CPU is EBUSY" {
	cd "$TF_MNT"
	run bash -c '
		busy=0
		for i in $(seq 300); do
			dd if=trace_pipe iflag=nonblock bs=4096 count=1 2>&1 |
				grep -q "resource busy" && busy=$((busy + 1))
		done
		echo "busy after close: $busy"
		exec 4< trace_pipe
		(exec 5< trace_pipe) 2>&1 | sed "s/.*: //"
		(exec 5< per_cpu/cpu0/trace_pipe) 2>&1 | sed "s/.*: //"
		(exec 5< trace) 2>&1 && echo "trace: OK"'
	assert_output "busy after close: 0
Device or resource busy
Device or resource busy
trace: OK"
}
