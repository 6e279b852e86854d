#!/bin/sh
# normalize.sh report|trace - turns `trace-cmd report -N` lines or the
# kernel-format `trace` lines into one comparable form:
#   COMM-PID [CPU] SECS.USECS: EVENT: INFO
# What differs and why it is removed: trace-cmd prefixes the buffer name
# ("tfsample:") and pads the event name to a column; the kernel's format
# has the latency-flags column, which `trace-cmd report` does not print
# without -l (and -l truncates comms).  Runs of spaces are collapsed.
case $1 in
report)
	sed -E -e 's/^[A-Za-z0-9_]+: +//' \
	    -e 's/^(.*-[0-9]+) +\[([0-9]+)\] +([0-9]+\.[0-9]+): ([a-z_0-9]+): +/\1 [\2] \3: \4: /' ;;
trace)
	grep -v '^#' |
	sed -E -e 's/^ +//' \
	    -e 's/^(.*-[0-9]+) +\[([0-9]+)\] [^ ]+ +([0-9]+\.[0-9]+): /\1 [\2] \3: /' ;;
esac | sed -E 's/  +/ /g; s/ +$//'
