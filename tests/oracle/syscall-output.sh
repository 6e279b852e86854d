# SPDX-License-Identifier: GPL-2.0
# oracle: syscall-output
# Syscall events print with the kernel's own output functions
# (print_syscall_enter/exit), not their print fmt, in trace, snapshot and
# trace_pipe; the verbose option adds each argument's type.  The values
# are chosen: bash's `read -u 99` lseeks fd 99 (0x63) to find out where
# it is, then back over what it read beyond the line; kill -0 of itself
# (returns 0) and of a pid that does not exist (-ESRCH).  Each round
# runs in a `bash -c` that names itself in set_event_pid, so the
# script's own reads of itself stay out.  syscall-output.out is Linux
# 6.12's (shared/oracle); syscall-output.host.out ran in an instance of
# a 6.18.44 host's tracefs (a kernel without snapshot), which prints
# values from 10 up in hex with "0x" and those below in decimal.
echo 0 > tracing_on
printf 'abcdefghi\nsecond line\n' > /tmp/f
for e in sys_enter_lseek sys_exit_lseek sys_enter_kill sys_exit_kill; do
	echo 1 > events/syscalls/$e/enable
done
round() {
	bash -c 'echo $$ > set_event_pid; echo 1 > tracing_on
		exec 99< /tmp/f; read -u 99 -r line; exec 99<&-
		kill -0 $$; kill -0 999999 2>/dev/null
		echo 0 > tracing_on; echo "line=$line pid=$$"'
}
strip() { grep -v '^#' | sed -E 's/^.{1,40}\[[0-9]+\] ..... +[0-9.]+: //'; }
round
echo "--- trace"
strip < trace
echo 1 > options/verbose
echo "--- trace, verbose"
strip < trace
echo 0 > options/verbose
echo "--- snapshot"
if [ -e snapshot ]; then echo 1 > snapshot; strip < snapshot; else echo "(no snapshot file)"; fi
echo > trace
round
echo "--- trace_pipe"
timeout 2 cat trace_pipe | strip
echo "--- end"
