# SPDX-License-Identifier: GPL-2.0
# oracle: buffer-expand
# Which writes expand the top buffer from its boot-time minimum.
cd /sys/kernel/tracing
echo "##### boot"; cat buffer_size_kb; mkdir instances/foo; echo "instance: $(cat instances/foo/buffer_size_kb)"; rmdir instances/foo
echo "##### trigger"; echo traceon > events/sched/sched_switch/trigger; cat buffer_size_kb; echo '!traceon' > events/sched/sched_switch/trigger
echo "##### filter"; echo 'prev_pid == 1' > events/sched/sched_switch/filter; cat buffer_size_kb; echo 0 > events/sched/sched_switch/filter
echo "##### bad enable value"; echo 2 > events/sched/sched_switch/enable; echo "rc=$?"; cat buffer_size_kb
