#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# normalize.sh report|trace - turns `trace-cmd report -N` lines or the
# kernel-format `trace` lines into one comparable form:
#   COMM-PID [CPU] SECS.USECS: EVENT: INFO
# What differs and why it is removed: trace-cmd prefixes the buffer name
# ("tfsample:") and pads the event name to a column; the kernel's format
# has the latency-flags column, which `trace-cmd report` does not print
# without -l (and -l truncates comms).  Runs of spaces are collapsed.
# trace-cmd prints syscall events from their print fmt ("sys_enter_lseek:
# fd: 0x00000003, ...", "sys_exit_lseek: 0x36"); the kernel's trace uses
# its own output functions, which on the sample's kernel (6.18) print
# "sys_lseek(fd: 3, offset: 0xffffffffffffffc4, whence: 1)" (values
# below 10 in decimal, the others in hex with 0x) and "sys_lseek -> 0x36".
case $1 in
report)
	sed -E -e 's/^[A-Za-z0-9_]+: +//' \
	    -e 's/^(.*-[0-9]+) +\[([0-9]+)\] +([0-9]+\.[0-9]+): ([a-z_0-9]+): +/\1 [\2] \3: \4: /' \
	    -e '/: sys_enter_[a-z0-9_]+: /{
		s/: sys_enter_([a-z0-9_]+): (.*)$/: sys_\1(\2)/
		s/: 0x0*([0-9a-f])/: 0x\1/g
		s/: 0x([0-9])([,)])/: \1\2/g
	    }' \
	    -e 's/: sys_exit_([a-z0-9_]+): +(0x[0-9a-f]+)$/: sys_\1 -> \2/' ;;
trace)
	grep -v '^#' |
	sed -E -e 's/^ +//' \
	    -e 's/^(.*-[0-9]+) +\[([0-9]+)\] [^ ]+ +([0-9]+\.[0-9]+): /\1 [\2] \3: /' ;;
esac | sed -E 's/  +/ /g; s/ +$//'
