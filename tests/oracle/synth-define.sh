# SPDX-License-Identifier: GPL-2.0
# oracle: synth-define
#  synthetic_events and dynamic_events: definitions of every type, their
#  read-back and format, every error with its error_log entry and caret,
#  lines and comments in one write, removal, ids, the synthetic/
#  directory, available_events and set_event order, O_TRUNC.
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
TYPES='s64 a; u64 b; s32 c; u32 d; s16 e; u16 f; s8 g; u8 h; char i; unsigned char j; int k; unsigned int l; long m; unsigned long n; bool o; pid_t p; gfp_t q; char r[16]; char s[]; long[] t; unsigned long[] u; char v[256]; char w[0]; char[8] x; long y[3]; char z[010]; unsigned long[] uu'
echo "##### files"
stat -c '%A %h %s %n' synthetic_events dynamic_events
C synthetic_events; C dynamic_events
echo "##### every type"
A synthetic_events "types $TYPES"
C synthetic_events; C dynamic_events
C events/synthetic/types/format
C events/synthetic/types/id
echo "##### spellings"
A synthetic_events 'q1 char x[0x1]'
A synthetic_events 'q2 long[3 x'
A synthetic_events 'q3 unsigned char x[4]; unsigned long[] s'
A synthetic_events 'q4 u64 x;;  ; u32 y;'
A synthetic_events 'q5  u64  x '
A synthetic_events '  q6 u64 x'
A synthetic_events $'q7\tu64\tx;\tu32 y'
A synthetic_events 'q8 u64 x u32 y'
A synthetic_events 'q9 unsigned int x; unsigned char y'
A synthetic_events 'q10 char x[256]'
A synthetic_events 'q11 char[16] x; xchar[4] y; u8 z'
A synthetic_events 'q12 char x[+16]'
C synthetic_events
for e in q1 q2 q3 q11 q12; do C events/synthetic/$e/format; done
echo "##### errors"
echo > error_log
for c in '1abc u64 x' 'e u64 1x' 'foo' 'foo u64' 'foo u64 a b' 'foo u64 a; unsigned' \
	'foo unsigned x' 'foo bogus x' 'foo char x[300]' 'foo char x[abc]' \
	'foo char x[1000]' 'foo u64 x[4]' 'foo u64 x u32' 'q1 u64 x' \
	'foo char x[257]' 'foo char x[256]y' 'foo char x[16] y' \
	'foo unsigned u64 x' 'foo u64 x; char y[' 'foo char y]' 'foo u64 [3]' \
	'foo ; u64 x' 'foo;bar u64 x' $'foo\vu64\vx' 'foo u64 x; u32 1y' \
	'foo u64 x; unsigned long' 'fo-o u64 x' '_ok u64 _x'; do
	A synthetic_events "$c"
done
many="big"; for i in $(seq 1 65); do many="$many u64 f$i;"; done
A synthetic_events "$many"
EL
A synthetic_events "${many% u64 f65;}"
C events/synthetic/big/format
echo > error_log
echo "##### lines and comments"
A synthetic_events $'x1 u64 a\nx2 u64 b # comment\n# only a comment\n\n   \nx3 bogus c\nx4 u64 d\n'
A synthetic_events $'x5 u64 a # x6 u64 b\nx7 u64 c'
A synthetic_events $'x8 u64 a\n'
A synthetic_events '#x9 u64 a'
A synthetic_events ''
C synthetic_events
EL
echo > error_log
echo "##### long lines"
long="ll"; for i in $(seq 1 500); do long="$long u64 f$i;"; done
A synthetic_events "$long"
WB A synthetic_events "x10 u64 a
$long"
C synthetic_events
EL
echo "##### removal"
A synthetic_events '!nosuch'
A synthetic_events '!'
A synthetic_events '!x1 u32 nothing like it'
A synthetic_events '  !x2'
A synthetic_events $'!x4\n!x5'
A synthetic_events '! x7'
A synthetic_events '!q2;'
C synthetic_events
EL
echo "##### ids"
W synthetic_events ''
for e in i1 i2 i3; do A synthetic_events "$e u64 x"; done
for e in i1 i2 i3; do C events/synthetic/$e/id; done
A synthetic_events '!i2'
A synthetic_events 'i4 u64 x'
A synthetic_events 'i5 u64 x'
C events/synthetic/i4/id; C events/synthetic/i5/id
A synthetic_events '!i1'
A synthetic_events '!i3'
A synthetic_events 'i6 u64 x'
C events/synthetic/i6/id
echo "##### directories"
ls -1 events/synthetic
find events/synthetic | grep -v hist_debug | head -20
W synthetic_events ''
test -d events/synthetic && echo "synthetic/ still there" || echo "synthetic/ gone"
ls events | grep -c '^synthetic$'
C events/synthetic/enable
A synthetic_events 'd1 u64 x'
test -d events/synthetic/d1 && echo "d1 there"
ls -1 events/synthetic
A synthetic_events '!d1'
test -d events/synthetic/d1 && echo "d1 still there" || echo "d1 gone"
test -d events/synthetic && echo "synthetic/ still there" || echo "synthetic/ gone"
echo "##### lists"
A synthetic_events 'l1 u64 x'
A synthetic_events 'l2 u64 x'
mkdir instances/li1
A synthetic_events 'l3 u64 x'
A synthetic_events 'l4 u64 x'
A synthetic_events '!l2'
A synthetic_events 'l5 u64 x'
head -5 available_events
W set_event 'synthetic:*'; C set_event
W instances/li1/set_event 'synthetic:*'; C instances/li1/set_event
A set_event 'sched:sched_switch'
A instances/li1/set_event 'sched:sched_switch'
C set_event; C instances/li1/set_event
W instances/li1/set_event ''
mkdir instances/li2
W instances/li2/set_event '*:*'
tail -5 instances/li2/set_event
W instances/li2/set_event ''
W set_event ''
rmdir instances/li1 instances/li2
W synthetic_events ''
echo "##### dynamic_events"
echo > error_log
for c in 's:d1 u64 x' 's:synthetic/d2 u64 x; char s[]' 's:other/d3 u64 x' 's:d4' \
	's:d5 u64' 's: d6 u64 x' 's:synthetic/ u64 x' 's:d7 u64 a/b' 'x:foo' '' \
	'  -:d1' 's:1bad u64 x' 's:d8 bogus x' '  s:d9 u64 x # comment' \
	$'s:d10\tu64 x' 's:synthetic/d1 u64 y' 'd11 u64 x'; do
	A dynamic_events "$c"
done
EL
C dynamic_events; C synthetic_events
for c in '-:d2' '-:synthetic/d9' '-:other/d10' '-:nosuch' '-d10' '!d10' '!:nosuch' \
	'!s:synthetic/d10' '-:' '-:synthetic/' '-:d1 extra args'; do
	A dynamic_events "$c"
done
C dynamic_events; C synthetic_events
A dynamic_events $'s:e1 u64 x\ns:e2 u64 y\n-:e1\n'
C dynamic_events
W dynamic_events 's:e3 u32 z'
C dynamic_events
W dynamic_events ''
C dynamic_events
EL
echo "##### truncate"
A synthetic_events 'z1 u64 x'
W synthetic_events 'z2 u64 x'
C synthetic_events
W events/synthetic/z2/enable 1
A synthetic_events 'z3 u64 x'
W synthetic_events 'z4 u64 x'
C synthetic_events
W events/synthetic/z2/enable 0
A synthetic_events 'z5 u64 x'
W events/synthetic/z3/enable 1
W synthetic_events ''
C synthetic_events
W dynamic_events ''
C synthetic_events
W events/synthetic/z3/enable 0
W dynamic_events ''
C synthetic_events
