# SPDX-License-Identifier: GPL-2.0
# triggers vs set_event_pid and the event filter (6.12)
FK=events/sched/sched_process_fork/trigger
echo 1 > set_event_pid
echo 'traceon:5' >> $FK
echo 0 > tracing_on; /bin/true; echo "no COND, pid filtered: tracing_on=$(cat tracing_on) $(cat $FK)"
echo '!traceon' >> $FK
echo 'traceon:5 if child_pid > 0' >> $FK
echo 0 > tracing_on; /bin/true; echo "COND, pid filtered: tracing_on=$(cat tracing_on) $(cat $FK)"
echo '!traceon' >> $FK
echo > set_event_pid
echo 'child_pid == 0' > events/sched/sched_process_fork/filter
echo 'traceon:5 if child_pid > 0' >> $FK
echo 0 > tracing_on; /bin/true; echo "COND, event filter rejects: tracing_on=$(cat tracing_on) $(cat $FK)"
echo '!traceon' >> $FK
echo 'traceon:5' >> $FK
echo 0 > tracing_on; /bin/true; echo "no COND, event filter rejects: tracing_on=$(cat tracing_on) $(cat $FK)"
echo '!traceon' >> $FK
echo 0 > events/sched/sched_process_fork/filter
echo "## traceon unconditional: is the fork recorded when the event is enabled?"
echo 1 > events/sched/sched_process_fork/enable
echo > trace
echo 'traceon:1' >> $FK
echo 0 > tracing_on; /bin/true; echo "tracing_on=$(cat tracing_on)"; grep -c sched_process_fork trace
echo '!traceon' >> $FK
echo 'traceon:1 if child_pid > 0' >> $FK
echo > trace
echo 0 > tracing_on; /bin/true; echo "tracing_on=$(cat tracing_on)"; grep -c sched_process_fork trace
echo '!traceon' >> $FK
echo 0 > events/sched/sched_process_fork/enable
