#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# matrix.sh - who may do what in a tracing directory: root, a user, a
# member of a group chowned onto the tree.  Runs as root in the tracing
# directory ($T, default the current directory); acts as user $U (member
# of group $G) with su.  On the kernel oracle it makes the user itself:
#   kernel-oracle tests/perms/matrix.sh > tests/perms/matrix.out
# bats/perms.bats runs it on tracefuse (mounted with allow_other) and
# compares with matrix.out.  Prints one line per action: what, and OK or
# the error's text.
T=${T:-$(pwd)}
U=${U:-u}
G=${G:-tracing}
if ! grep -q "^$U:" /etc/passwd; then	# the oracle's bare initramfs
	echo "$U:x:1000:1000::/:/bin/sh" >> /etc/passwd
	echo "$U:x:1000:" >> /etc/group
	echo "$G:x:2000:$U" >> /etc/group
fi
cd /

# as WHAT CMD: CMD run by the user; prints WHAT and the outcome
as() {
	out=$(su -s /bin/sh "$U" -c "$2" 2>&1 >/dev/null)
	if [ $? -eq 0 ]; then r=OK; else r=$(echo "$out" | tail -1 | sed 's/.*: //'); fi
	echo "user $1 -> $r"
}
# root WHAT CMD: the same as root
root() {
	out=$(sh -c "$2" 2>&1 >/dev/null)
	if [ $? -eq 0 ]; then r=OK; else r=$(echo "$out" | tail -1 | sed 's/.*: //'); fi
	echo "root $1 -> $r"
}
modes() {	# mode, owner and group, named: root, user, group (G), ugroup
	for f in "$@"; do
		stat -c "%a %u %g $f" "$T/$f" | awk -v u="$(id -u "$U")" \
			-v g="$(grep "^$G:" /etc/group | cut -d: -f3)" \
			-v ug="$(id -g "$U")" '{
			o = $2 == 0 ? "root" : $2 == u ? "user" : "uid?"
			gr = $3 == 0 ? "root" : $3 == g ? "group" : $3 == ug ? "ugroup" : "gid?"
			print $1, o, gr, $4 }'
	done
}

echo "## the default tree: the top is 0700 root's"
modes . tracing_on trace_marker instances events events/sched/enable
mkdir "$T/instances/r1"
as "ls top" "ls $T"
as "stat tracing_on" "stat $T/tracing_on"
as "cat tracing_on" "cat $T/tracing_on"
as "write tracing_on" "echo 1 > $T/tracing_on"
as "mkdir instances/u1" "mkdir $T/instances/u1"
as "rmdir instances/r1" "rmdir $T/instances/r1"
as "chmod tracing_on" "chmod 666 $T/tracing_on"
as "touch tracing_on" "touch $T/tracing_on"

echo "## the top and a few files given to the group"
root "chgrp top" "chgrp $G $T"
root "chmod top 0750" "chmod 0750 $T"
root "chgrp tracing_on trace_marker instances trace" \
	"chgrp $G $T/tracing_on $T/trace_marker $T/instances $T/trace"
root "chmod tracing_on g+w" "chmod g+w $T/tracing_on"
modes . tracing_on trace_marker instances trace
as "ls top" "ls $T"
as "stat tracing_on" "stat $T/tracing_on"
as "cat tracing_on" "cat $T/tracing_on"
as "write tracing_on" "echo 1 > $T/tracing_on"
as "write trace_marker" "echo hi > $T/trace_marker"
as "cat trace_marker" "cat $T/trace_marker"
as "cat trace" "cat $T/trace"
as "truncate trace (> trace)" "true > $T/trace"
as "cat buffer_size_kb (root's)" "cat $T/buffer_size_kb"
as "write buffer_size_kb (root's)" "echo 100 > $T/buffer_size_kb"
as "ls instances" "ls $T/instances"
as "mkdir instances/u1" "mkdir $T/instances/u1"
as "rmdir instances/r1" "rmdir $T/instances/r1"
as "ls events" "ls $T/events"
as "cat events/sched/sched_switch/format (root's 0440)" \
	"cat $T/events/sched/sched_switch/format"
as "chmod tracing_on" "chmod 666 $T/tracing_on"
as "chmod top" "chmod 777 $T"
as "chown tracing_on" "chown $U $T/tracing_on"
as "chgrp tracing_on (not its owner)" "chgrp $G $T/tracing_on"
as "touch tracing_on (writable)" "touch $T/tracing_on"
as "touch buffer_size_kb (not writable)" "touch $T/buffer_size_kb"
as "touch -d tracing_on (set a time)" "touch -d '2020-01-01 00:00' $T/tracing_on"
as "mknod top/p" "mkfifo $T/p"
as "create top/newfile" "echo > $T/newfile"

echo "## instances/ group-writable"
root "chmod instances g+w" "chmod g+w $T/instances"
as "mkdir instances/u1" "mkdir $T/instances/u1"
modes instances/u1
as "rmdir instances/u1" "rmdir $T/instances/u1"
as "rmdir instances/r1" "rmdir $T/instances/r1"
root "rmdir instances/u1" "rmdir $T/instances/u1"
root "rmdir instances/r1" "rmdir $T/instances/r1"

echo "## an events/ file given to the group"
root "chgrp events/sched/sched_switch/enable" \
	"chgrp $G $T/events/sched/sched_switch/enable"
root "chmod events/sched/sched_switch/enable 0660" \
	"chmod 0660 $T/events/sched/sched_switch/enable"
modes events/sched/sched_switch/enable
as "write events/sched/sched_switch/enable" \
	"echo 1 > $T/events/sched/sched_switch/enable"
as "cat events/sched/sched_switch/enable" \
	"cat $T/events/sched/sched_switch/enable"
root "write events/sched/sched_switch/enable" \
	"echo 0 > $T/events/sched/sched_switch/enable"

echo "## root: chmod and chown take effect, root passes every check"
root "chmod tracing_on 0" "chmod 0 $T/tracing_on"
as "cat tracing_on (mode 0)" "cat $T/tracing_on"
root "cat tracing_on (mode 0)" "cat $T/tracing_on"
root "chown tracing_on to the user" "chown $U $T/tracing_on"
root "chmod tracing_on 0600" "chmod 0600 $T/tracing_on"
modes tracing_on
as "cat tracing_on (its owner now)" "cat $T/tracing_on"
as "chmod tracing_on 0640 (its owner)" "chmod 0640 $T/tracing_on"
as "touch -d tracing_on (its owner)" "touch -d '2020-01-01 00:00' $T/tracing_on"
modes tracing_on
root "mknod top/p" "mkfifo $T/p"
root "create top/newfile" "echo > $T/newfile"

echo "## put back"
root "chown tracing_on" "chown 0:0 $T/tracing_on"
root "chmod tracing_on" "chmod 0640 $T/tracing_on"
root "chgrp back" "chgrp 0 $T $T/trace_marker $T/instances $T/trace $T/events/sched/sched_switch/enable"
root "chmod back" "chmod 0700 $T && chmod 0750 $T/instances && chmod 0640 $T/events/sched/sched_switch/enable"
modes . tracing_on trace_marker instances trace events/sched/sched_switch/enable
