#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# owners.sh - whom tracefs files belong to after chown of the top, an
# instance and events/, and with the uid=, gid= and mode= mount options.
# Run on the kernel oracle: kernel-oracle tests/perms/owners.sh > tests/perms/owners.out
# (src/fs/access.c follows it; docs/security.md says where it does not).
cd /sys/kernel/tracing
mkdir instances/a
s() { for f in "$@"; do stat -c "%a %u:%g %n" $f; done; }
chgrp 2000 .
chown 1000 .
echo "## top chowned 1000:2000"
s . buffer_size_kb per_cpu per_cpu/cpu0/trace options options/print-parent events events/sched events/sched/enable events/sched/sched_switch events/sched/sched_switch/format events/header_page instances instances/a instances/a/trace instances/a/events instances/a/events/sched/enable
echo "## instances/a chowned 3000:3000"
chown 3000:3000 instances/a
s instances/a instances/a/trace instances/a/events instances/a/events/sched/enable instances/a/per_cpu/cpu0/trace
echo "## events chowned 4000:4000"
chown 4000:4000 events
s events events/sched events/sched/enable events/sched/sched_switch/format events/header_page
chown 5000 events/sched
s events/sched events/sched/enable events/sched/sched_switch/format
mkdir instances/b
s instances/b instances/b/trace instances/b/events/sched/enable
echo "## mode on the top"
chmod 755 .; s .
mount -o remount,gid=6000 /sys/kernel/tracing; echo "remount gid rc=$?"
s . buffer_size_kb events events/sched/enable instances/a instances/a/trace instances/b/trace
mount -o remount,uid=7000,mode=0750 /sys/kernel/tracing; echo "remount uid,mode rc=$?"
s . buffer_size_kb events/sched/enable instances/b/trace
mount | grep tracefs
mkdir /t2; mount -t tracefs -o uid=8000,gid=8001,mode=0711 nodev /t2; echo "mount rc=$?"; s /t2 /t2/trace /t2/events/sched/enable; mount | grep tracefs
