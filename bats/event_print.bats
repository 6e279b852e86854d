#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# event_print.bats - events the kernel prints with output functions of
# its own, not from their print fmt: syscall entries and exits (as the
# emulated kernel's release prints them) and ftrace's internal events.
#
# tests/oracle/syscall-output.sh ran on Linux 6.12 (syscall-output.out)
# and in an instance of a 6.18 host's tracefs (syscall-output.host.out).
# Here the same script runs on tracefuse with its rounds of syscalls
# replaced by injected records holding the values those kernels
# recorded; the live source's own text is checked against the host's in
# live.bats.

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject
GOLD=$TF_ORACLE/syscall-output

teardown() {
	tf_umount
}

# A formats directory: the 6.12 oracle's formats, but naming @release
# in KERNEL (syscall events have the same fields on 6.12 and 6.18).
formats_of() {
	local dir=$BATS_TEST_TMPDIR/formats-$1 f
	mkdir -p "$dir"
	for f in "$TF_FORMATS_612"/*; do
		[ "${f##*/}" = KERNEL ] || ln -s "$f" "$dir/"
	done
	echo "$1" > "$dir/KERNEL"
	echo "$dir"
}

# The oracle script, each `round` injecting what the kernel recorded in
# it: the pid is the one that round printed in @golden.
script_for() {
	local golden=$1
	echo "PIDS=($(sed -n 's/^line=.* pid=//p' "$golden" | tr '\n' ' ')) N=0"
	cat <<EOF
round() {
	local pid=\${PIDS[\$N]}; N=\$((N + 1))
	echo 1 > tracing_on
	"$INJECT" "$TF_MNT" <<EOT
syscalls:sys_enter_lseek common_pid=\$pid comm=bash __syscall_nr=8 fd=99 offset=0 whence=1
syscalls:sys_exit_lseek common_pid=\$pid comm=bash __syscall_nr=8 ret=0
syscalls:sys_enter_lseek common_pid=\$pid comm=bash __syscall_nr=8 fd=99 offset=0xfffffffffffffff4 whence=1
syscalls:sys_exit_lseek common_pid=\$pid comm=bash __syscall_nr=8 ret=10
syscalls:sys_enter_kill common_pid=\$pid comm=bash __syscall_nr=62 pid=\$pid sig=0
syscalls:sys_exit_kill common_pid=\$pid comm=bash __syscall_nr=62 ret=0
syscalls:sys_enter_kill common_pid=\$pid comm=bash __syscall_nr=62 pid=999999 sig=0
syscalls:sys_exit_kill common_pid=\$pid comm=bash __syscall_nr=62 ret=-3
EOT
	echo 0 > tracing_on
	echo "line=abcdefghi pid=\$pid"
}
EOF
	sed -e '/^round() {/,/^}/d' -e "s#/tmp/#$BATS_TEST_TMPDIR/#g" \
		"$TF_ORACLE/syscall-output.sh"
}

# run_script GOLDEN: the script against $TF_MNT, output in $output
run_script() {
	script_for "$1" > "$BATS_TEST_TMPDIR/script.sh"
	run bash -c "cd '$TF_MNT' && bash '$BATS_TEST_TMPDIR/script.sh' 2>&1"
}

@test "syscall events print as 6.12's print_syscall_enter/exit in trace, snapshot and trace_pipe (oracle: syscall-output.sh)" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	run_script "$GOLD.out"
	diff -u "$GOLD.out" - <<< "$output"
}

@test "a formats directory whose KERNEL is 6.18 prints syscall values as 6.18 does (host golden)" {
	tf_mount --formats "$(formats_of 6.18.44-fc-v1147)" --cpus 1 --source none
	run_script "$GOLD.host.out"
	# the host had no snapshot file: its section is the trace's here
	diff -u <(sed '/^--- snapshot/,/^line=/{/^line=/!d}' "$GOLD.host.out") \
		<(sed '/^--- snapshot/,/^line=/{/^line=/!d}' <<< "$output")
	diff -u <(sed -n '/^--- trace$/,/^--- trace,/p' <<< "$output" | sed '1d;$d') \
		<(sed -n '/^--- snapshot/,/^line=/p' <<< "$output" | sed '1d;$d')
}

@test "the version boundary: 6.17 prints as 6.12, 6.18 and 7.0 print typed values" {
	local v
	for v in 6.17.9 6.18 7.0.1; do
		tf_mount --formats "$(formats_of $v)" --cpus 1 --source none
		echo 1 > "$TF_MNT/events/syscalls/sys_enter_lseek/enable"
		"$INJECT" "$TF_MNT" <<< "syscalls:sys_enter_lseek common_pid=7 __syscall_nr=8 fd=99 offset=9 whence=10"
		run sed -n 's/.*: sys_lseek/sys_lseek/p' "$TF_MNT/trace"
		case $v in
		6.17*) [ "$output" = "sys_lseek(fd: 63, offset: 9, whence: a)" ] ;;
		*) [ "$output" = "sys_lseek(fd: 0x63, offset: 9, whence: 0xa)" ] ;;
		esac
		tf_umount
	done
}

@test "a syscall without arguments prints empty parentheses; the exit's value is unsigned hex" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	echo 1 > "$TF_MNT/events/syscalls/sys_enter_sync/enable"
	echo 1 > "$TF_MNT/events/syscalls/sys_exit_sync/enable"
	"$INJECT" "$TF_MNT" <<'EOF'
syscalls:sys_enter_sync common_pid=7 __syscall_nr=162
syscalls:sys_exit_sync common_pid=7 __syscall_nr=162 ret=-1
EOF
	run sed -n 's/.*[0-9]: sys_/sys_/p' "$TF_MNT/trace"
	[ "${lines[0]}" = "sys_sync()" ]
	[ "${lines[1]}" = "sys_sync -> 0xffffffffffffffff" ]
}

@test "ftrace's internal events print as the kernel's trace_output.c functions" {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	"$INJECT" "$TF_MNT" <<'EOF'
ftrace:function common_pid=7 comm=sh ip=0 parent_ip=0
ftrace:context_switch common_pid=7 comm=sh prev_pid=7 prev_prio=120 prev_state=1 next_pid=8 next_prio=100 next_state=0 next_cpu=1
ftrace:wakeup common_pid=7 comm=sh prev_pid=7 prev_prio=120 prev_state=0 next_pid=0 next_prio=120 next_state=8 next_cpu=0
ftrace:user_stack common_pid=7 comm=sh tgid=7 caller=0x7f0012345678,0x401000,0,0x5
ftrace:kernel_stack common_pid=7 comm=sh size=2 caller=0,0x7fffffff,0x1234
ftrace:print common_pid=7 comm=sh ip=0 buf="no newline"
ftrace:print common_pid=7 comm=sh ip=0 buf="one newline\n"
ftrace:raw_data common_pid=7 comm=sh id=0x2a buf="ab"
EOF
	run sed -n 's/^ *sh-7 .*[0-9]\.[0-9]\{6\}: //p' "$TF_MNT/trace"
	[ "${lines[0]}" = "0" ]
	[ "${lines[1]}" = "       7:120:S ==> [001]       8:100:R <...>" ]
	[ "${lines[2]}" = "       7:120:R   + [000]       0:120:I <idle>" ]
	[ "${lines[3]}" = "<user stack trace>" ]
	[ "${lines[4]}" = "<stack trace>" ]
	[ "${lines[5]}" = "0: no newline" ]
	[ "${lines[6]}" = "0: one newline" ]
	[ "${lines[7]}" = "# 2a buf: 61 62 00" ]
	run grep -A3 '<user stack trace>' "$TF_MNT/trace"
	[ "${lines[1]}" = " =>  <00007f0012345678>" ]
	[ "${lines[2]}" = " =>  <0000000000401000>" ]
	[[ "${lines[3]}" != " => "* ]]
	run grep -A3 '<stack trace>' "$TF_MNT/trace"
	[ "${lines[1]}" = " => 0" ]
	[ "${lines[2]}" = " => [FTRACE TRAMPOLINE]" ]
	[[ "${lines[3]}" != " => "* ]]
}
