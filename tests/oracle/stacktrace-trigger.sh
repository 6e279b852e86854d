# SPDX-License-Identifier: GPL-2.0
# oracle: what a stacktrace trigger on a real event writes to trace (6.12)
echo stacktrace > events/sched/sched_process_exec/trigger
echo 1 > events/sched/sched_process_exec/enable
/bin/true
grep -v '^#' trace | sed -E 's/-[0-9]+ +\[/-PID [/; s/ +[0-9]+\.[0-9]+: / TS: /' | head -20
