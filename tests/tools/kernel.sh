# Third-party tools' read-side commands on a tracing directory: Debian's
# perf-tools-unstable (tpoint, reset-ftrace, execsnoop) and trace-cmd
# (list, stat, show), unchanged.  Run on the kernel by tests/tools/
# oracle.sh (output: kernel.out) and under `tracefuse run` by
# bats/tools.bats, which compares the two section by section.
# In the oracle's guest the tools come from /work/tools (the host's
# binaries with their libraries); elsewhere from the installed packages.
if [ -d /work/tools ]; then
	PT=/work/tools
	trace-cmd() {
		/work/tools/lib/ld-linux-x86-64.so.2 \
			--library-path /work/tools/lib /work/tools/trace-cmd "$@"
	}
	[ -d /sys/kernel/debug/tracing ] ||
		mount -t debugfs nodev /sys/kernel/debug
	mkdir -p /var/tmp
else
	PT=/usr/sbin
fi
cd /sys/kernel/tracing
# pids and timestamps differ between runs
norm() { sed -E 's/-[0-9]+ +\[/-PID [/; s/[0-9]+\.[0-9]{6}:/TS:/'; }

echo '##### tpoint -l'
$PT/tpoint-perf -l; echo "rc=$?"
echo '##### tpoint -v sched:sched_switch'
$PT/tpoint-perf -v sched:sched_switch; echo "rc=$?"
echo '##### tpoint -v syscalls:sys_enter_lseek'
$PT/tpoint-perf -v syscalls:sys_enter_lseek; echo "rc=$?"
echo '##### tpoint: no such tracepoint'
$PT/tpoint-perf -d 1 sched:no_such_event 2>&1; echo "rc=$?"
echo '##### tpoint: a filter the kernel refuses'
$PT/tpoint-perf -d 1 syscalls:sys_enter_close 'nope == 1' 2>&1; echo "rc=$?"
cat events/syscalls/sys_enter_close/filter events/syscalls/sys_enter_close/enable
[ -e /var/tmp/.ftrace-lock ] && echo 'lock left' || echo 'no lock'
echo '##### tpoint: a filter on an event, one event matches'
# bash's `exec 99<&-` is close(99): the one event the filter lets by
# (with TF_INJECT set, the same event and one the filter drops are
# injected instead: a tree without a live source).  They come once the
# tool has cleared the buffer: when the marker written before it is gone.
close99() {
	while grep -q before-tpoint trace; do sleep 0.1; done
	if [ -n "${TF_INJECT:-}" ]; then
		printf '%s\n' "syscalls:sys_enter_close common_pid=$BASHPID comm=bash common_preempt_count=1 fd=98" \
			"syscalls:sys_enter_close common_pid=$BASHPID comm=bash common_preempt_count=1 fd=99" |
			$TF_INJECT
	else
		exec 98</dev/null 99</dev/null; exec 98<&- 99<&-
	fi
}
echo before-tpoint > trace_marker
close99 &
$PT/tpoint-perf -d 2 syscalls:sys_enter_close 'fd == 99' 2>&1 | norm; echo "rc=$?"
wait
cat events/syscalls/sys_enter_close/filter events/syscalls/sys_enter_close/enable
echo '##### execsnoop needs a kprobe'
$PT/execsnoop-perf -d 1 2>&1; echo "rc=$?"
cat kprobe_events; cat events/sched/sched_process_fork/enable
[ -e /var/tmp/.ftrace-lock ] && echo 'lock left' || echo 'no lock'

echo '##### set-up for trace-cmd'
echo 1 > events/sched/sched_switch/enable
echo 'prev_pid == 1' > events/sched/sched_switch/filter
echo 'hist:keys=pid' > events/sched/sched_wakeup/trigger
echo 'traceoff' > events/sched/sched_process_exit/trigger
echo 'stacktrace:3 if child_pid == 5' > events/sched/sched_process_fork/trigger
echo 1 > events/irq/enable
echo 123 > set_event_pid
echo 2048 > buffer_size_kb
echo mono > trace_clock
mkdir instances/foo
echo 1 > instances/foo/events/sched/sched_process_hang/enable
echo 'pid != 0' > instances/foo/events/sched/sched_process_hang/filter
echo foo > instances/foo/trace_marker
echo 0 > tracing_on
{ echo 'prev_pid == 5' > events/sched/filter; } 2>&1; echo "rc=$?"
{ echo 'nope ==' > events/irq/irq_handler_entry/filter; } 2>&1; echo "rc=$?"
echo '##### trace-cmd stat'
trace-cmd stat 2>&1 | sed -E 's/^\[ *[0-9.]+\] /[TS] /'; echo "rc=$?"
echo '##### trace-cmd stat -B foo'
trace-cmd stat -B foo 2>&1; echo "rc=$?"
echo '##### trace-cmd list -e sched'
trace-cmd list -e sched 2>&1; echo "rc=$?"
echo '##### trace-cmd list -e sched_switch -F'
trace-cmd list -e '^sched:sched_switch$' -F 2>&1; echo "rc=$?"
echo '##### trace-cmd list -e -l'
trace-cmd list -e 'irq:' -l 2>&1; echo "rc=$?"
echo '##### trace-cmd list -t'
trace-cmd list -t 2>&1; echo "rc=$?"
echo '##### trace-cmd list -o'
trace-cmd list -o 2>&1; echo "rc=$?"
echo '##### trace-cmd list -C'
trace-cmd list -C 2>&1; echo "rc=$?"
echo '##### trace-cmd list -B'
trace-cmd list -B 2>&1; echo "rc=$?"
echo '##### trace-cmd list -e (count)'
trace-cmd list -e | wc -l; echo "rc=$?"
echo '##### trace-cmd show'
echo 1 > tracing_on
echo hello > trace_marker
echo world > trace_marker
trace-cmd show 2>&1 | norm; echo "rc=$?"
echo '##### trace-cmd show -c 0'
trace-cmd show -c 0 2>&1 | norm; echo "rc=$?"
echo '##### trace-cmd show -B foo'
trace-cmd show -B foo 2>&1 | norm; echo "rc=$?"
echo '##### trace-cmd show -s'
echo 1 > snapshot
trace-cmd show -s 2>&1 | norm; echo "rc=$?"
echo '##### trace-cmd show -f'
trace-cmd show -f 2>&1 | head -1; echo "rc=$?"
echo '##### trace-cmd show, files'
for o in --tracing_on --current_tracer --buffer_size --buffer_total_size \
	 --ftrace_filter --ftrace_notrace --ftrace_pid --graph_function \
	 --graph_notrace --cpumask; do
	echo "$o:"; trace-cmd show $o 2>&1
done
echo '##### reset-ftrace'
$PT/reset-ftrace-perf 2>&1; echo "rc=$?"
cat events/sched/sched_switch/enable events/irq/enable tracing_on
echo '##### trace-cmd start, stop, reset'
# (sched_process_hang: an event that does not fire here)
trace-cmd start -e sched:sched_process_hang 2>&1; echo "rc=$?"
cat set_event tracing_on current_tracer events/sched/sched_process_hang/enable
trace-cmd stop 2>&1; echo "rc=$?"
cat tracing_on
trace-cmd reset 2>&1; echo "rc=$?"
cat set_event tracing_on buffer_size_kb events/enable trace_clock
ls instances
