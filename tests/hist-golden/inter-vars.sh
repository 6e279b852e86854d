# SPDX-License-Identifier: GPL-2.0
# variables, references and expressions across hist triggers of ftrace:print:
# read-back, the kernel's constant folding and division, read-once references
t=${TMPDIR:-/tmp}
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
W() { printf '%s' "$2" > $t/in; if dd if=$t/in bs=4M 2>$t/e >> "$1"; then echo "OK $2"; else echo "ERR $2: $(grep -v 'records\|bytes copied' $t/e | sed 's/.*: //')"; fi; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
m() { echo -n "$1" > trace_marker; }
P() { sed -E 's/pid: +[0-9]+/pid: P/g' "$@"; }
clr() { for f in "$@"; do for p in 1 2 3 4 5; do grep -v '^#' $f | sed -E 's/ \[(active|paused)\]$//' | tac | while IFS= read -r l; do printf '%s' "!$l" > $t/rm; dd if=$t/rm of=$f oflag=append conv=notrunc 2>/dev/null; done; done; done; echo > error_log; }
T=events/ftrace/print/trigger
echo "## a variable, a reference from another trigger, read once in expressions"
W $T 'hist:keys=common_pid:ts0=common_timestamp:clock=counter if buf == "start"'
W $T 'hist:keys=common_pid:x=$ts0,y=10,z=$ts0+5:vals=hitcount,$ts0:clock=counter if buf == "v"'
W $T 'hist:keys=common_pid:vals=$ts0:clock=counter if buf == "w"'
W $T 'hist:keys=common_pid:x=$ts0:clock=counter if buf == "w"'
C $T
m v; m start; m v; m w; m start; m w; m v
P events/ftrace/print/hist
W $T '!hist:keys=common_pid:ts0=common_timestamp:clock=counter if buf == "start"'
clr $T
C $T
echo "## constants, folding, division by constants"
W $T 'hist:keys=common_pid:k=100,j=7 if buf == "k"'
W $T 'hist:keys=common_pid:a=$k/$j,b=$k*3-1,c=-($k),d=$k/4,e=$k/3,f=1000000000/$j,g=$k+$j if buf == "q"'
W $T 'hist:keys=common_pid:x1=2000/3,x2=20/3,x3=1048577/3,x4=3000000/7,x5=1048576/3,x6=7/2 if buf == "q"'
W $T 'hist:keys=common_pid:vals=$a,$b if buf == "r"'
W $T 'hist:keys=common_pid:vals=$c,$d if buf == "r" && common_pid > 1'
W $T 'hist:keys=common_pid:vals=$e,$f if buf == "r" && common_pid > 2'
W $T 'hist:keys=common_pid:vals=$g,$x1 if buf == "r" && common_pid > 3'
W $T 'hist:keys=common_pid:vals=$x2,$x3 if buf == "r" && common_pid > 4'
W $T 'hist:keys=common_pid:vals=$x4,$x5 if buf == "r" && common_pid > 5'
W $T 'hist:keys=common_pid:vals=$x6 if buf == "r" && common_pid > 6'
W $T 'hist:keys=common_pid:vals=$c,$d if buf == "r"'
C $T
m k; m q; m r; m k; m q; m q; m r; m r
P events/ftrace/print/hist
clr $T
echo "## local variables in keys and references to them"
W $T 'hist:keys=common_pid:p=common_pid,al=$p,two=$p*2 if buf == "l"'
W $T 'hist:keys=$p:vals=hitcount if buf == "l"'
W $T 'hist:keys=common_pid:pp=common_pid:vals=$pp if buf == "l"'
C $T
clr $T
