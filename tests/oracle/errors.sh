# SPDX-License-Identifier: GPL-2.0
# oracle: errors
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
echo "##### writes to read-only files"
for f in available_events available_tracers README buffer_total_size_kb timestamp_mode events/sched/sched_switch/format events/sched/sched_switch/id events/sched/sched_switch/hist events/header_page events/header_event saved_cmdlines printk_formats trace_pipe per_cpu/cpu0/stats kprobe_profile enabled_functions; do W $f x; A $f x; done
echo "##### read write-only files"
for f in trace_marker trace_marker_raw free_buffer; do cat $f > /dev/null 2>/tmp/e; echo "cat $f: rc=$? $(sed 's/.*: //' /tmp/e)"; done
echo "##### chmod/chown/truncate/utime"
chmod 666 trace_options 2>/tmp/e; echo "chmod file rc=$? $(sed 's/.*: //' /tmp/e)"; stat -c '%a %n' trace_options
chmod 640 trace_options
chmod 777 instances 2>/tmp/e; echo "chmod dir rc=$? $(sed 's/.*: //' /tmp/e)"; stat -c '%a %n' instances; chmod 750 instances
chmod 600 events/sched/enable 2>/tmp/e; echo "chmod eventfs file rc=$? $(sed 's/.*: //' /tmp/e)"; stat -c '%a %n' events/sched/enable
chown 1:1 trace_options 2>/tmp/e; echo "chown rc=$? $(sed 's/.*: //' /tmp/e)"; stat -c '%u:%g %n' trace_options; chown 0:0 trace_options
chown 1:1 events/sched/enable 2>/tmp/e; echo "chown eventfs rc=$? $(sed 's/.*: //' /tmp/e)"; stat -c '%u:%g %n' events/sched/enable; chown 0:0 events/sched/enable
truncate -s 0 set_event 2>/tmp/e; echo "truncate -s0 set_event rc=$? $(sed 's/.*: //' /tmp/e)"
truncate -s 10 set_event 2>/tmp/e; echo "truncate -s10 set_event rc=$? $(sed 's/.*: //' /tmp/e)"
truncate -s 0 README 2>/tmp/e; echo "truncate README rc=$? $(sed 's/.*: //' /tmp/e)"
touch trace_options 2>/tmp/e; echo "touch existing rc=$? $(sed 's/.*: //' /tmp/e)"
stat -c '%X %Y %Z' trace_options | awk '{print ($1>0)?"atime>0":"atime0", ($2>0)?"mtime>0":"mtime0"}'
echo "##### current_tracer"
C current_tracer; C available_tracers
W current_tracer foo; C current_tracer
W current_tracer nop; C current_tracer
W current_tracer $'nop\n'; W current_tracer ' nop'; W current_tracer 'nop '; W current_tracer ''; C current_tracer
W current_tracer function; C current_tracer; W current_tracer nop
echo "##### create files/dirs"
touch newfile 2>/tmp/e; echo "touch newfile rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir newdir 2>/tmp/e; echo "mkdir newdir rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir events/newsys 2>/tmp/e; echo "mkdir events/newsys rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir events/sched/x 2>/tmp/e; echo "mkdir events/sched/x rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir options/x 2>/tmp/e; echo "mkdir options/x rc=$? $(sed 's/.*: //' /tmp/e)"
touch instances/file 2>/tmp/e; echo "touch instances/file rc=$? $(sed 's/.*: //' /tmp/e)"
touch events/sched/newfile 2>/tmp/e; echo "touch events/sched/newfile rc=$? $(sed 's/.*: //' /tmp/e)"
rm trace 2>/tmp/e; echo "rm trace rc=$? $(sed 's/.*: //' /tmp/e)"
rm events/sched/enable 2>/tmp/e; echo "rm events/sched/enable rc=$? $(sed 's/.*: //' /tmp/e)"
rmdir events/sched 2>/tmp/e; echo "rmdir events/sched rc=$? $(sed 's/.*: //' /tmp/e)"
rmdir options 2>/tmp/e; echo "rmdir options rc=$? $(sed 's/.*: //' /tmp/e)"
mv trace trace2 2>/tmp/e; echo "mv trace rc=$? $(sed 's/.*: //' /tmp/e)"
ln -s trace tlink 2>/tmp/e; echo "symlink rc=$? $(sed 's/.*: //' /tmp/e)"
ln trace thard 2>/tmp/e; echo "hardlink rc=$? $(sed 's/.*: //' /tmp/e)"
mknod fifo p 2>/tmp/e; echo "mknod rc=$? $(sed 's/.*: //' /tmp/e)"
echo "##### instances mkdir/rmdir"
mkdir instances/foo; echo "mkdir foo rc=$?"
mkdir instances/foo 2>/tmp/e; echo "mkdir foo again rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir instances/foo/b 2>/tmp/e; echo "mkdir foo/b rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir instances/a/b 2>/tmp/e; echo "mkdir a/b rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir -p instances/p/q 2>/tmp/e; echo "mkdir -p p/q rc=$? $(sed 's/.*: //' /tmp/e)"; ls -1 instances
rmdir instances/p 2>/dev/null
rmdir instances/nosuch 2>/tmp/e; echo "rmdir nosuch rc=$? $(sed 's/.*: //' /tmp/e)"
rm -f instances/foo/trace 2>/tmp/e; echo "rm foo/trace rc=$? $(sed 's/.*: //' /tmp/e)"
touch instances/foo/newf 2>/tmp/e; echo "touch foo/newf rc=$? $(sed 's/.*: //' /tmp/e)"
mkdir instances/foo/events/x 2>/tmp/e; echo "mkdir foo/events/x rc=$? $(sed 's/.*: //' /tmp/e)"
exec 3< instances/foo/trace
rmdir instances/foo 2>/tmp/e; echo "rmdir foo with trace open rc=$? $(sed 's/.*: //' /tmp/e)"
exec 3<&-
exec 3< instances/foo/events/sched/enable
rmdir instances/foo 2>/tmp/e; echo "rmdir foo with events/sched/enable open rc=$? $(sed 's/.*: //' /tmp/e)"
exec 3<&-
exec 3> instances/foo/trace_marker
rmdir instances/foo 2>/tmp/e; echo "rmdir foo with trace_marker open rc=$? $(sed 's/.*: //' /tmp/e)"
exec 3>&-
cd instances/foo; rmdir ../foo 2>/tmp/e; echo "rmdir foo while cwd inside rc=$? $(sed 's/.*: //' /tmp/e)"; cd /sys/kernel/tracing
ls -1 instances
echo 1 > instances/foo/events/sched/sched_switch/enable
rmdir instances/foo 2>/tmp/e; echo "rmdir foo with event enabled rc=$? $(sed 's/.*: //' /tmp/e)"
ls -1 instances
mkdir instances/foo; rmdir instances/foo; echo "mkdir+rmdir rc=$?"
for n in 'with space' '.hidden' 'a:b' "$(printf 'n%.0s' $(seq 1 255))" "$(printf 'n%.0s' $(seq 1 256))" 'UPPER' '-dash'; do mkdir "instances/$n" 2>/tmp/e; echo "mkdir instances/<${#n}:${n:0:12}> rc=$? $(sed 's/.*: //' /tmp/e)"; done
ls -1 instances | cut -c1-20
echo "##### rmdir non-empty-ish / rm -rf instance"
mkdir instances/bar; rm -rf instances/bar 2>&1 | head -3 | sed 's/.*: //'; ls instances | grep -c bar
echo "##### event files errnos"
W events/sched/sched_switch/filter 'bogus'; C events/sched/sched_switch/filter
W events/sched/sched_switch/trigger 'bogus'; C events/sched/sched_switch/trigger
EL
echo "##### nonexistent"
cat nosuchfile 2>&1 | sed 's/.*: //'
cat events/nosuch/enable 2>&1 | sed 's/.*: //'
ls -d events/sched/nosuch 2>&1 | sed 's/.*: //'
echo "##### seek/lseek on trace, dd skip"
dd if=README bs=1 skip=10 count=20 2>/dev/null; echo
dd if=set_event bs=1 count=5 2>/dev/null | od -c | head -2
echo "##### read with small buffers"
dd if=available_tracers bs=3 2>/dev/null; echo "[end]"
dd if=events/sched/sched_switch/format bs=7 2>/dev/null | md5sum; md5sum < events/sched/sched_switch/format
echo "##### stat sizes of files are 0"
stat -c '%s %b %B %n' README trace events/sched/sched_switch/format | head
echo "##### statfs"
stat -f -c 'type=%T bsize=%s blocks=%b' . 
