#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# soak.sh [SECONDS] - a long run of everything at once against one
# mounted tracefuse, then exact counts and flat resources (not in CI;
# docs/fuzzing.md has the numbers of a 10-minute run).
#
# For SECONDS (default 600, or SOAK_SECONDS):
#   * 2 injection channels at full rate: two tracefuse-inject clients,
#     each sending the same block of lines over and over (sched_waking,
#     sched_switch, raw_syscalls:sys_enter; each channel its own pids
#     and CPU); each block is one tracefuse-inject run, so the number of
#     blocks each completed is exact;
#   * a synthetic event with an onmatch() pipeline: wakeup_latency made
#     by sched_switch from sched_waking's ts0, with a hist of its own;
#   * a fixed hist on sched_switch keyed by prev_pid;
#   * trigger and hist churn: hists added, paused, continued, cleared,
#     read and removed, filters set and cleared, traceoff triggers;
#   * instances created, given an enabled event and a hist, read and
#     removed;
#   * readers of the hists, of trace and of trace_pipe.
# Then the hists must equal the injector's ground truth key for key
# (blocks completed x the block's count per pid), and the daemon's RSS
# and open fds, sampled every 10 s, must be flat: the quiet RSS at the
# end within 10 % (plus 4 MiB) of the sample at one minute (the maps and
# buffers are full by then), the quiet fd count at the end equal to the
# one before the load began.
#
# Environment: TF_BIN (the daemon; e.g. a ThreadSanitizer build from
# scripts/sanitize-build.sh tsan), TF_INJECT (tracefuse-inject),
# SOAK_PAIRS (waking/switch pairs per block, default 20000), SOAK_OUT
# (where the samples, the log and the hists are kept; default a fresh
# temporary directory).  Prints the counts and samples; exits 1 if a
# count is off, resources grew or the daemon died.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-${SOAK_SECONDS:-600}}
bin=${TF_BIN:-$top/tracefuse}
inject=${TF_INJECT:-$top/tracefuse-inject}
pairs=${SOAK_PAIRS:-20000}
out=${SOAK_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tf-soak.XXXXXX")}
K=400				# pids per channel
mnt=$out/mnt
mkdir -p "$mnt"
fail=0
bad() { echo "soak: FAIL: $*"; fail=1; }

# -- the blocks and their ground truth --------------------------------------
for c in 0 1; do
	awk -v c="$c" -v n="$pairs" -v k="$K" -v truth="$out/truth$c" '
	BEGIN {
		base = 10000 + c * 1000
		for (i = 0; i < n; i++) {
			p = base + i % k
			q = base + 500 + (i * 7) % k
			printf "sched:sched_waking cpu=%d common_pid=%d comm=w%d pid=%d prio=120 target_cpu=%d\n", c, q, p, p, c
			printf "sched:sched_switch cpu=%d common_pid=%d prev_comm=q%d prev_pid=%d prev_prio=120 prev_state=1 next_comm=w%d next_pid=%d next_prio=120\n", c, q, q, q, p, p
			printf "raw_syscalls:sys_enter cpu=%d pid=%d id=%d args=1,2,3\n", c, q, i % 50
			nprev[q]++; nnext[p]++
		}
		for (q in nprev) print "prev", q, nprev[q] > truth
		for (p in nnext) print "next", p, nnext[p] > truth
	}' > "$out/block$c"
done

# -- mount ---------------------------------------------------------------
"$bin" -f --formats "$top/data/formats" --cpus 2 --source none "$mnt" \
	> "$out/daemon.log" 2>&1 &
dpid=$!
for _ in $(seq 100); do
	grep -q " $mnt fuse.tracefuse " /proc/mounts && break
	sleep 0.1
done
grep -q " $mnt fuse.tracefuse " /proc/mounts || {
	echo "soak: tracefuse did not mount"; cat "$out/daemon.log"; exit 1; }
cleanup() {
	touch "$out/stop"
	kill $(jobs -p) 2>/dev/null
	fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
	wait 2>/dev/null
	rmdir "$mnt" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

M=$mnt
echo 'wakeup_latency u64 lat; pid_t pid' >> $M/synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> $M/events/sched/sched_waking/trigger
echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($lat,next_pid)' \
	>> $M/events/sched/sched_switch/trigger
echo 'hist:keys=prev_pid:vals=hitcount:size=4096' >> $M/events/sched/sched_switch/trigger
echo 'hist:keys=pid:vals=hitcount,lat:size=4096' >> $M/events/synthetic/wakeup_latency/trigger
echo 1 > $M/events/sched/sched_switch/enable
echo 1 > $M/events/synthetic/wakeup_latency/enable

sample() {	# LABEL: seconds, RSS KiB, fds of the daemon
	local rss fds
	rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$dpid/status 2>/dev/null)
	fds=$(ls /proc/$dpid/fd 2>/dev/null | wc -l)
	echo "$1 ${rss:-0} $fds"
}
sample quiet-start > "$out/samples"
read -r _ rss0 fds0 < "$out/samples"

# -- load ----------------------------------------------------------------
start=$(date +%s)
deadline=$((start + secs))
for c in 0 1; do
	( n=0
	  while [ ! -e "$out/stop" ] && [ "$(date +%s)" -lt $deadline ]; do
		"$inject" -q "$M" < "$out/block$c" || { echo "inject $c failed" >> "$out/errors"; break; }
		n=$((n + 1))
		echo $n > "$out/blocks$c"
	  done ) &
done
# trigger and hist churn
( n=0
  W=$M/events/sched/sched_waking R=$M/events/raw_syscalls/sys_enter
  while [ ! -e "$out/stop" ]; do
	echo 'hist:keys=id:vals=hitcount' >> $R/trigger
	echo 'hist:keys=target_cpu:vals=hitcount,prio' >> $W/trigger
	echo 'hist:keys=target_cpu:vals=hitcount,prio:pause' >> $W/trigger
	echo 'id < 10' > $R/filter
	echo 'traceoff if prev_pid == 1' >> $M/events/sched/sched_switch/trigger
	cat $R/hist $W/hist > /dev/null
	echo 'hist:keys=target_cpu:vals=hitcount,prio:cont' >> $W/trigger
	echo 'hist:keys=target_cpu:vals=hitcount,prio:clear' >> $W/trigger
	echo 0 > $R/filter
	echo '!traceoff if prev_pid == 1' >> $M/events/sched/sched_switch/trigger
	echo '!hist:keys=target_cpu:vals=hitcount,prio' >> $W/trigger
	echo '!hist:keys=id:vals=hitcount' >> $R/trigger
	n=$((n + 1)); echo $n > "$out/churns"
  done ) 2>> "$out/errors" &
# instances
( n=0
  while [ ! -e "$out/stop" ]; do
	I=$M/instances/soak$((n % 3))
	mkdir $I
	echo 1 > $I/events/sched/sched_switch/enable
	echo 'hist:keys=next_pid' >> $I/events/sched/sched_switch/trigger
	sleep 0.2
	cat $I/events/sched/sched_switch/hist $I/trace > /dev/null
	echo '!hist:keys=next_pid' >> $I/events/sched/sched_switch/trigger
	rmdir $I
	n=$((n + 1)); echo $n > "$out/instances"
  done ) 2>> "$out/errors" &
# readers
( n=0
  while [ ! -e "$out/stop" ]; do
	cat $M/events/sched/sched_switch/hist $M/events/synthetic/wakeup_latency/hist > /dev/null
	cat $M/trace > /dev/null
	n=$((n + 1)); echo $n > "$out/reads"
  done ) 2>> "$out/errors" &
( while [ ! -e "$out/stop" ]; do
	timeout 3 cat $M/trace_pipe > /dev/null
  done ) 2>> "$out/errors" &
# samples every 10 s
while [ "$(date +%s)" -lt $deadline ]; do
	sleep 10
	kill -0 $dpid 2>/dev/null || { bad "the daemon died"; break; }
	sample "t=$(( $(date +%s) - start ))" >> "$out/samples"
done
touch "$out/stop"
# the injectors finish their block; the others their iteration
for j in $(jobs -p); do
	[ "$j" = $dpid ] || wait "$j" 2>/dev/null
done
sleep 1
sample quiet-end >> "$out/samples"

# -- exact counts ----------------------------------------------------------
b0=$(cat "$out/blocks0" 2>/dev/null || echo 0)
b1=$(cat "$out/blocks1" 2>/dev/null || echo 0)
cp $M/events/sched/sched_switch/hist "$out/switch.hist"
cp $M/events/synthetic/wakeup_latency/hist "$out/synth.hist"
# expected "KIND PID COUNT" lines, and the hists' "PID COUNT"
{ awk -v b="$b0" '{ print $1, $2, $3 * b }' "$out/truth0"
  awk -v b="$b1" '{ print $1, $2, $3 * b }' "$out/truth1"; } | sort > "$out/expected"
{ sed -n 's/^{ prev_pid: *\([0-9]*\) } hitcount: *\([0-9]*\)$/prev \1 \2/p' "$out/switch.hist"
  sed -n 's/^{ next_pid: *\([0-9]*\) } hitcount: *\([0-9]*\)$/next \1 \2/p' "$out/switch.hist"
  sed -n 's/^{ pid: *\([0-9]*\) } hitcount: *\([0-9]*\) .*$/synth \1 \2/p' "$out/synth.hist"
} | sort > "$out/actual"
sed 's/^next /synth /' "$out/expected" | grep '^synth' >> "$out/expected"
sort -o "$out/expected" "$out/expected"
events=$(( (b0 + b1) * pairs * 3 ))
echo "soak: ${secs}s: blocks $b0 + $b1 of $pairs pairs: $events events injected," \
	"$(cat "$out/churns" 2>/dev/null || echo 0) churn rounds," \
	"$(cat "$out/instances" 2>/dev/null || echo 0) instances," \
	"$(cat "$out/reads" 2>/dev/null || echo 0) reader rounds"
if [ "$b0" -eq 0 ] || [ "$b1" -eq 0 ] || [ ! -s "$out/expected" ]; then
	bad "an injector completed no block"
elif ! diff -q "$out/expected" "$out/actual" > /dev/null; then
	bad "hist counts differ from the injected ground truth:"
	diff "$out/expected" "$out/actual" | head -10
else
	echo "soak: every key exact: $(grep -c . "$out/expected") keys" \
		"(sched_switch by prev_pid and by next_pid, wakeup_latency by pid)"
fi
grep -q 'Dropped: 0$' "$out/switch.hist" || bad "sched_switch hist dropped entries"
if [ -s "$out/errors" ]; then
	echo "soak: errors of the load (first 5):"; head -5 "$out/errors"
fi

# -- resources -------------------------------------------------------------
echo "soak: samples (label, RSS KiB, fds):"
cat "$out/samples"
rss1=$(awk '$1 ~ /^t=/ { split($1, a, "="); if (a[2] >= 60) { print $2; exit } }' "$out/samples")
[ -n "$rss1" ] || rss1=$(awk '$1 ~ /^t=/ { v = $2 } END { print v }' "$out/samples")
read -r _ rss2 fds2 < <(tail -1 "$out/samples")
echo "soak: RSS quiet start ${rss0} KiB, at one minute ${rss1:-?} KiB, quiet end ${rss2} KiB; fds ${fds0} -> ${fds2}"
if [ -n "$rss1" ] && [ "$rss2" -gt $(( rss1 + rss1 / 10 + 4096 )) ]; then
	bad "RSS grew from ${rss1} to ${rss2} KiB"
fi
[ "$fds2" -eq "$fds0" ] || bad "open fds went from $fds0 to $fds2"
kill -0 $dpid 2>/dev/null || bad "the daemon is gone"
if grep -q 'ThreadSanitizer\|AddressSanitizer\|runtime error' "$out/daemon.log"; then
	bad "the sanitizer reported (see $out/daemon.log)"
	grep -m5 'WARNING\|ERROR\|runtime error' "$out/daemon.log"
fi
echo "soak: $( [ $fail -eq 0 ] && echo PASS || echo FAIL ) (details in $out)"
exit $fail
