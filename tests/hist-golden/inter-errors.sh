# SPDX-License-Identifier: GPL-2.0
# every error a variable, reference, handler or action can get:
# errno, error_log entries and carets
t=${TMPDIR:-/tmp}
C() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
W() { printf '%s' "$2" > $t/in; if dd if=$t/in bs=4M 2>$t/e >> "$1"; then echo "OK $2"; else echo "ERR $2: $(grep -v 'records\|bytes copied' $t/e | sed 's/.*: //')"; fi; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo > error_log; }
clr() { for f in "$@"; do for p in 1 2 3 4 5; do grep -v '^#' $f | sed -E 's/ \[(active|paused)\]$//' | tac | while IFS= read -r l; do printf '%s' "!$l" > $t/rm; dd if=$t/rm of=$f oflag=append conv=notrunc 2>/dev/null; done; done; done; echo > error_log; }
T=events/ftrace/print/trigger
S1=events/synthetic/s1/trigger
W synthetic_events 's1 int pid; u64 val'
echo "## errors"
W synthetic_events 'ev4 u64 a; int b'
W synthetic_events 'ev5 char s[16]; u64 a'
W $S1 'hist:keys=pid:t0=common_timestamp:x0=val'
for c in 'hist:keys=common_pid:a=$nope' 'hist:keys=common_pid:a=$t0,a=common_pid' 'hist:keys=common_pid:t0=common_pid' \
  'hist:keys=common_pid:a=common_pid:b' 'hist:keys=common_pid:b,a=common_pid' 'hist:keys=$t0' 'hist:keys=common_pid:v=synthetic.s1.$t0' \
  'hist:keys=common_pid:v=synthetic.s1.$nope' 'hist:keys=common_pid:onmatch(synthetic.s1' 'hist:keys=common_pid:onmatch(raw_data).ev4(1,2)' \
  'hist:keys=common_pid:onmatch(ftrace.nope).ev4($t0,common_pid)' 'hist:keys=common_pid:onmatch(synthetic.s1)' 'hist:keys=common_pid:onmatch(synthetic.s1).nope($t0,common_pid)' \
  'hist:keys=common_pid:onmatch(synthetic.s1).ev4($t0)' 'hist:keys=common_pid:onmatch(synthetic.s1).ev4($t0,common_pid,common_pid)' \
  'hist:keys=common_pid:onmatch(synthetic.s1).ev4(common_pid,common_pid)' 'hist:keys=common_pid:onmatch(synthetic.s1).ev4($t0,x)' \
  'hist:keys=common_pid:onmatch(synthetic.s1).ev4($t0,$x0)' 'hist:keys=common_pid:onmatch(synthetic.s1).ev4($t0,nope)' \
  'hist:keys=common_pid:onmatch(synthetic.s1).save(common_pid)' 'hist:keys=common_pid:onmatch(synthetic.s1).snapshot()' \
  'hist:keys=common_pid:z=common_pid:onmax(z).save(ip)' 'hist:keys=common_pid:z=common_pid:onmax($nope).save(ip)' \
  'hist:keys=common_pid:z=common_pid:onmax($z).save()' 'hist:keys=common_pid:z=common_pid:onmax($z).save' 'hist:keys=common_pid:z=common_pid:onmax($z).save(nope)' \
  'hist:keys=common_pid:z=common_pid:onmax($z).save(ip):onchange($z).save(ip)' 'hist:keys=common_pid:z=common_pid:onmax($z).snapshot(' \
  'hist:keys=common_pid:z=common_pid:onmax($z)' 'hist:keys=common_pid:z=common_pid:onmax($z).nope(1,2)' 'hist:keys=common_pid:z=common_pid:onmax($z' \
  'hist:keys=common_pid:z=buf' 'hist:keys=common_pid:z=common_pid+$t0' 'hist:keys=common_pid:z=common_timestamp.usecs-$t0' \
  'hist:keys=common_pid:onmatch(synthetic.s1).ev5(ip,$t0)' 'hist:keys=common_pid:onmatch(synthetic.s1).ev4(a,$t0)' \
  'hist:keys=common_pid:a=1,b=2,c=3,d=4,e=5,f=6,g=7,h=8,i=9,j=10,k=11,l=12,m=13,n=14,o=15,p=16,q=17' \
  'hist:keys=common_pid:z=$t0/0' 'hist:keys=common_pid:z=10/$t0' 'hist:keys=common_pid.execname:z=common_pid.execname:onmax($z).save(ip)'; do
	W $T "$c"
done
C $T
clr $T $S1
W synthetic_events '!ev4'
W synthetic_events '!ev5'
W synthetic_events '!s1'
C synthetic_events
