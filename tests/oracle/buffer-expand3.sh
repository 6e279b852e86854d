# SPDX-License-Identifier: GPL-2.0
# oracle: buffer-expand3 (set_event)
cd /sys/kernel/tracing
echo "##### set_event"; echo sched_switch > set_event; cat buffer_size_kb; echo > set_event
