# SPDX-License-Identifier: GPL-2.0
# oracle: buffer-expand2 (enable file)
cd /sys/kernel/tracing
echo "##### enable file"; echo 1 > events/sched/sched_switch/enable; cat buffer_size_kb; echo 0 > events/sched/sched_switch/enable
