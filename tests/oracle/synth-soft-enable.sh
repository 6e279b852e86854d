# SPDX-License-Identifier: GPL-2.0
# oracle: synth-soft-enable
#  The order of a generated record after its cause when the cause is
#  soft-disabled as its triggers start and enabled on the way: a
#  trace_marker write generates a_ev (not enabled, triggers only), whose
#  own trigger generates b_ev, whose trigger enables a_ev.  The kernel
#  reserved a_ev's slot before its triggers ran, so a_ev is recorded
#  ahead of b_ev; and a soft-disabled a_ev that nothing enables is not
#  recorded at all, b_ev still is.
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
S() { grep -v '^#' trace | sed -E 's/^ *([^ ].*)-[0-9]+ +\[([0-9]+)\] ([^ ]+) +[0-9]+\.[0-9]+: /COMM-PID [\2] \3 TS: /; s/(lat|l2)=[0-9]+/\1=LAT/g; s/(pid|child)=[0-9]+/\1=PID/g; s/ip=[0-9]+/ip=IP/g' | grep -v '^=> '; }
RAW() { echo "=== raw $1"; grep -v '^#' trace; }
M() { grep -v '^#' trace | sed -E 's/^ *([^ ].*)-[0-9]+ +\[([0-9]+)\] ([^ ]+) +[0-9]+\.[0-9]+: /COMM-PID [\2] \3 TS: /; s/v=[0-9]+/v=V/g'; }
A synthetic_events 'a_ev u64 v'
A synthetic_events 'b_ev u64 v'
W events/ftrace/print/trigger 'hist:keys=common_pid:t=common_timestamp.usecs:onchange($t).trace(a_ev,$t)'
W events/synthetic/a_ev/trigger 'hist:keys=common_pid:t=v:onchange($t).trace(b_ev,$t)'
W events/synthetic/b_ev/enable 1
echo "##### a_ev stays soft-disabled"
echo > trace
echo -n one > trace_marker
M
echo "##### b_ev's trigger enables a_ev"
W events/synthetic/b_ev/trigger 'enable_event:synthetic:a_ev:1'
C events/synthetic/a_ev/enable
echo > trace
echo -n two > trace_marker
M
C events/synthetic/a_ev/enable
echo -n three > trace_marker
echo "##### a_ev enabled: both, a_ev first"
M
