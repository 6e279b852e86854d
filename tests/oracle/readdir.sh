# SPDX-License-Identifier: GPL-2.0
# oracle: raw readdir order (unsorted, busybox find) of tracefs/eventfs dirs
for d in . options per_cpu per_cpu/cpu0 instances events events/sched events/sched/sched_switch events/ftrace events/ftrace/print; do
  echo "=== $d"; find $d -mindepth 1 -maxdepth 1 | sed "s|^$d/||" | tr '\n' ' '; echo
done
mkdir instances/foo
for d in instances/foo instances/foo/options instances/foo/per_cpu/cpu0 instances/foo/events/sched/sched_switch; do
  echo "=== $d"; find $d -mindepth 1 -maxdepth 1 | sed "s|^$d/||" | tr '\n' ' '; echo
done
echo "=== instances/foo/events (first 10)"; find instances/foo/events -mindepth 1 -maxdepth 1 | sed "s|^instances/foo/events/||" | head -10 | tr '\n' ' '; echo
echo "=== inode numbers stable? (events/sched/sched_switch)"; ls -i events/sched/sched_switch | head -3 | awk '{print ($1>0)?"ino>0":"ino0", $2}'
echo "=== nlink of files"; stat -c '%h %n' trace README events/sched/enable events/sched/sched_switch/id
echo "=== timestamps equal? (mtime of trace vs README)"; stat -c '%Y' trace README | uniq | wc -l
echo "=== gid/uid"; stat -c '%u %g %n' . trace events events/sched/sched_switch/enable instances/foo instances/foo/trace
