# SPDX-License-Identifier: GPL-2.0
# oracle: set_event_pid
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
for F in set_event_pid set_event_notrace_pid set_ftrace_pid; do
echo "########## $F"
C $F
W $F 5; C $F
A $F '123 244 1'; C $F
A $F '5'; C $F
A $F '7 7 7'; C $F
W $F '300 2 100'; C $F
A $F $'9\n8'; C $F
A $F $'  42  \n'; C $F
echo "echo > (newline write):"; echo > $F; C $F
W $F 5; echo "open O_TRUNC no write:"; : > $F; C $F
W $F 5; A $F ''; echo "(append no write)"; C $F
for v in abc -1 '1,2' 99999999 4194304 4194303 4194305 0 ' ' '1 abc' '12abc' 0x10 '+3' '010' $'1\t2' '2147483648' '18446744073709551616'; do
  W $F 6 >/dev/null; A $F "$v"; C $F
done
echo "mixed truncating write with error:"; W $F '11 abc 12'; C $F
echo "big list:"; W $F "$(seq 1 50 | tr '\n' ' ')"; C $F | tr '\n' ' '; echo
WB W $F "$(seq 1000 2000 | tr '\n' ' ')"; echo "count: $(wc -l < $F)"; head -3 $F; tail -2 $F
W $F ''
done
echo "########## pid_max"; cat /proc/sys/kernel/pid_max
echo "########## error_log"; EL
