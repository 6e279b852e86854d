# SPDX-License-Identifier: GPL-2.0
# oracle: event-fork
# options/event-fork: children of a listed task join set_event_pid and
# set_event_notrace_pid when they fork and leave when they are freed.
# Pids are printed relative to the script's ($$ = P).
rel() { while read -r p; do if [ "$p" = $$ ]; then echo P; else echo "P+$((p - $$))"; fi; done; }
echo "event-fork: $(cat options/event-fork)"
echo $$ > set_event_pid
echo $$ > set_event_notrace_pid
echo "--- without event-fork, a child:"
( sleep 0.2 ) & c=$!
echo "child P+$((c - $$))"; rel < set_event_pid; wait
echo 1 > options/event-fork
echo "--- with event-fork, a child and a grandchild alive:"
( ( sleep 0.5 ) & sleep 0.5 ) & c=$!
sleep 0.2
echo "child P+$((c - $$))"
echo "set_event_pid:"; rel < set_event_pid
echo "set_event_notrace_pid:"; rel < set_event_notrace_pid
wait; sleep 0.3
echo "--- after they exit:"
echo "set_event_pid:"; rel < set_event_pid
echo "set_event_notrace_pid:"; rel < set_event_notrace_pid
echo "--- a child of an unlisted task does not join:"
echo > set_event_pid
echo 1 > set_event_pid
( sleep 0.2 ) & wait
cat set_event_pid
echo "--- the last listed task freed: the list stays, empty"
echo > set_event_pid
( echo $BASHPID > /tmp/c; exec sleep 0.3 ) &
sleep 0.1; echo $(cat /tmp/c) > set_event_pid; echo "listed: $(cat set_event_pid | rel)"
wait; sleep 0.3
echo "set_event_pid now: [$(cat set_event_pid)]"
echo 1 > events/sched/sched_process_exec/enable
echo > trace
/bin/true
echo "exec lines recorded: $(grep -c sched_process_exec trace)"
echo 0 > options/event-fork
echo > set_event_pid
echo > set_event_notrace_pid
echo "--- sched_switch and wakeups with set_event_pid = a sleeper S"
echo > trace
sleep 0.3 & s=$!
echo $s > set_event_pid
echo 1 > events/sched/sched_switch/enable
echo 1 > events/sched/sched_wakeup/enable
echo 1 > events/sched/sched_waking/enable
wait
echo 0 > events/enable
echo "switches from S: $(grep -c "sched_switch: prev_comm=sleep prev_pid=$s " trace)"
echo "switches to S: $(grep -c "sched_switch: .* next_pid=$s " trace)"
echo "wakeups of S by others: $(grep -v "^ *sleep-$s " trace | grep -c -E "sched_wak(ing|eup): comm=sleep pid=$s ")"
echo "lines not about S: $(grep -v '^#' trace | grep -v -E "(pid=$s |-$s )" | wc -l)"
echo "--- notrace: the same sleeper in set_event_notrace_pid"
echo > set_event_pid
echo > trace
sleep 0.3 & s=$!
echo $s > set_event_notrace_pid
echo 1 > events/sched/sched_switch/enable
echo 1 > events/sched/sched_waking/enable
wait
echo 0 > events/enable
echo "switches from S: $(grep -c "sched_switch: prev_comm=sleep prev_pid=$s " trace)"
echo "switches to S: $(grep -c "sched_switch: .* next_pid=$s " trace)"
echo "lines by S: $(grep -c "^ *sleep-$s " trace)"
