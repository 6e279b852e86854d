# SPDX-License-Identifier: GPL-2.0
# layout: directory listings, modes, and contents of small files
lsdir() { echo "=== ls -la $1 ==="; ls -la "$1" | awk '{print $1, $2, $5, $NF}'; echo "=== stat $1 ==="; (cd "$1" && find . -maxdepth 1 | sort | while read -r n; do stat -c '%a %s %F %n' "$n"; done); }
lsdir .
lsdir events
lsdir events/sched
lsdir events/sched/sched_switch
lsdir events/ftrace
lsdir events/ftrace/print
lsdir options
lsdir per_cpu
lsdir per_cpu/cpu0
lsdir instances
echo "=== options contents ==="
for f in options/*; do echo "$f: $(cat $f)"; done
mkdir instances/foo
lsdir instances
lsdir instances/foo
lsdir instances/foo/events
lsdir instances/foo/events/sched/sched_switch
lsdir instances/foo/per_cpu/cpu0
lsdir instances/foo/options
echo "=== instance options contents ==="
for f in instances/foo/options/*; do echo "$f: $(cat $f)"; done
echo "=== stat -c of dirs (nlink) ==="
stat -c '%a %h %n' . events events/sched events/sched/sched_switch options per_cpu per_cpu/cpu0 instances instances/foo instances/foo/events
for f in README current_tracer available_tracers buffer_size_kb buffer_total_size_kb trace_clock tracing_on trace_options tracing_cpumask tracing_thresh saved_cmdlines_size set_event set_event_pid set_event_notrace_pid set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid set_graph_function set_graph_notrace max_graph_depth timestamp_mode buffer_percent buffer_subbuf_size_kb dynamic_events kprobe_events kprobe_profile uprobe_events uprobe_profile synthetic_events error_log stack_max_size stack_trace stack_trace_filter tracing_max_latency function_profile_enabled enabled_functions touched_functions trace_stat/function0 snapshot printk_formats saved_tgids trace_marker trace_marker_raw free_buffer osnoise/cpus hwlat_detector/width hwlat_detector/window events/enable events/sched/enable events/sched/filter events/sched/sched_switch/enable events/sched/sched_switch/filter events/sched/sched_switch/trigger events/sched/sched_switch/format events/ftrace/enable events/ftrace/filter events/ftrace/print/format events/ftrace/print/trigger events/header_page events/header_event per_cpu/cpu0/buffer_size_kb per_cpu/cpu0/stats per_cpu/cpu0/snapshot per_cpu/cpu0/trace instances/foo/current_tracer instances/foo/available_tracers instances/foo/trace_options instances/foo/README; do
  echo "== $f =="
  if [ -e "$f" ]; then
    case $f in snapshot|per_cpu/cpu0/snapshot|per_cpu/cpu0/trace|printk_formats) head -c 3000 "$f" 2>&1 | head -40;; trace_marker|trace_marker_raw|free_buffer) cat "$f" 2>&1 | sed 's/.*: //';; per_cpu/cpu0/stats) sed -E 's/^(now ts|oldest event ts): *[0-9.]+$/\1: <TS>/' "$f";; *) cat "$f" 2>&1;; esac
    echo "[rc=$?]"
  else echo "(absent)"; fi
done
echo "== trace (empty) =="
cat trace
echo "== instances/foo/trace (empty) =="
cat instances/foo/trace
echo "== available_events count / head =="
wc -l < available_events; head -5 available_events; grep -c '^sched:' available_events
echo "== events/ subsystem dir list =="
ls events | tr '\n' ' '; echo
echo "== events/sched list =="
ls events/sched | tr '\n' ' '; echo
echo "== events/sched/sched_switch/id stat =="
stat -c '%a %s %n' events/sched/sched_switch/* events/sched/enable events/sched/filter events/enable events/header_page events/header_event
