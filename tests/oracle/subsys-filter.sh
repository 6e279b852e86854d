# SPDX-License-Identifier: GPL-2.0
# oracle: subsystem filters (events.txt 5.4): errno, the system's filter
# text, each event's filter, error_log entries, and `0`.  signal has two
# events: signal_generate (sig errno code comm pid group result) and
# signal_deliver (sig errno code sa_handler sa_flags).
# helpers (inlined into each script)
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
S() { C events/signal/filter; C events/signal/signal_generate/filter; C events/signal/signal_deliver/filter; EL; : > error_log; }
sub() { echo "##### $1"; W events/signal/filter "$1"; S; }
echo "##### initial"; S
sub 'sig == 9'
sub 'result == 0'
sub 'sa_flags == 0'
sub 'nosuch == 1'
sub 'sig =='
sub '(sig == 1'
sub 'comm == "bash"'
sub 'comm == 1'
sub 'pid > 3 && sa_handler == 0'
sub 'common_pid == 0'
sub 'sig == 99999999999999999999'
echo "##### preset event filters, then a field only one event has"
W events/signal/signal_deliver/filter 'sig == 7'
W events/signal/signal_generate/filter 'sig == 8'
sub 'result == 1'
echo "##### preset, then a field no event has"
W events/signal/signal_deliver/filter 'sig == 7'
W events/signal/signal_generate/filter 'sig == 8'
sub 'nosuch == 1'
echo "##### preset, then a good filter, then 0"
W events/signal/signal_deliver/filter 'sig == 7'
sub 'sig == 2'
sub '0'
echo "##### 0 with whitespace, empty, append"
W events/signal/signal_generate/filter 'sig == 8'
sub ' 0 '
W events/signal/signal_generate/filter 'sig == 8'
A events/signal/filter 'sig == 3'; S
W events/signal/filter ''; S
printf 'sig == 4\n' > /tmp/in; dd if=/tmp/in of=events/signal/filter 2>/dev/null; echo "newline rc=$?"; S
echo "##### system with filter-less events (ftrace)"
ls events/ftrace/ | head -3; C events/ftrace/filter
W events/ftrace/filter 'common_pid == 1'; C events/ftrace/filter; EL
echo "##### a different system: sched (many events)"
W events/sched/filter 'prev_pid == 1'
C events/sched/filter; C events/sched/sched_switch/filter; C events/sched/sched_wakeup/filter
echo "error_log entries: $(wc -l < error_log)"; EL | head -8; : > error_log
W events/sched/filter 0; C events/sched/sched_switch/filter; C events/sched/sched_wakeup/filter
echo "##### instance"
mkdir instances/sf
W instances/sf/events/signal/filter 'result == 0'
C instances/sf/events/signal/filter; C instances/sf/events/signal/signal_generate/filter; C instances/sf/events/signal/signal_deliver/filter
EL instances/sf/error_log; EL
C events/signal/signal_deliver/filter
rmdir instances/sf
echo "##### matching after a subsystem filter (trace)"
W events/signal/filter 'sig == 18'
echo 1 > events/signal/signal_generate/enable
sleep 0.2 & p=$!; kill -s CONT $p; kill -s TERM $p 2>/dev/null; wait $p 2>/dev/null
echo 0 > events/signal/signal_generate/enable
grep -c signal_generate trace; grep -o 'sig=[0-9]*' trace | sort | uniq -c
