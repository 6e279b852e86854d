#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record-sample.sh [OUT_FILE]
#
# Record a small, real trace of this host into OUT_FILE (default
# data/sample.dat) with trace-cmd, for tracefuse to embed as its replay
# sample.  `trace-cmd record` is not used because on some hosts the kernel
# refuses writes to /proc/sys/kernel/ftrace_enabled and set_ftrace_filter;
# instead a private tracefs instance is driven directly and then extracted
# with `trace-cmd extract -B`.  The top-level buffer is never touched.
#
# Environment:
#   TRACEFS      tracefs mount (default: /sys/kernel/tracing, /tmp/tfs, or
#                /sys/kernel/debug/tracing, whichever is mounted)
#   DURATION     seconds of workload (default 2)
#   BUFFER_KB    per-CPU buffer size of the instance (default 8192)
#   FOLLOW_PIDS  1 = record only the workload and its children (default 0:
#                system wide)
#   REPORT_HEAD  file for the first 200 lines of `trace-cmd report`
#                (default: OUT_FILE with .dat replaced by .report.head)
set -eu

OUT=${1:-data/sample.dat}
DURATION=${DURATION:-2}
BUFFER_KB=${BUFFER_KB:-8192}
FOLLOW_PIDS=${FOLLOW_PIDS:-0}
REPORT_HEAD=${REPORT_HEAD:-${OUT%.dat}.report.head}
INSTANCE=tfsample

EVENTS="sched:sched_switch sched:sched_waking sched:sched_wakeup
sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit
raw_syscalls:sys_enter raw_syscalls:sys_exit
kmem:kmalloc kmem:kfree kmem:kmem_cache_alloc
syscalls:sys_enter_lseek syscalls:sys_exit_lseek"

die() { echo "record-sample: $*" >&2; exit 1; }

if ! command -v trace-cmd >/dev/null 2>&1; then
	if command -v apt-get >/dev/null 2>&1; then
		apt-get install -y trace-cmd >/dev/null || die "cannot install trace-cmd"
	else
		die "trace-cmd not found"
	fi
fi

if [ -z "${TRACEFS:-}" ]; then
	for d in /sys/kernel/tracing /tmp/tfs /sys/kernel/debug/tracing; do
		if [ -r "$d/events/header_page" ]; then TRACEFS=$d; break; fi
	done
fi
[ -n "${TRACEFS:-}" ] && [ -d "$TRACEFS/instances" ] ||
	die "no tracefs mount found (mount -t tracefs nodev /sys/kernel/tracing)"

INST=$TRACEFS/instances/$INSTANCE
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfsample.XXXXXX")
PEER=

cleanup() {
	set +e
	[ -n "$PEER" ] && kill "$PEER" 2>/dev/null
	if [ -d "$INST" ]; then
		echo 0 > "$INST/tracing_on"
		echo > "$INST/set_event"
		echo > "$INST/set_event_pid" 2>/dev/null
		rmdir "$INST"
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -d "$INST" ] && rmdir "$INST"
mkdir "$INST" || die "cannot create instance $INST"

echo 0 > "$INST/tracing_on"
echo "$BUFFER_KB" > "$INST/buffer_size_kb"
echo > "$INST/trace"
echo > "$INST/set_event"
for ev in $EVENTS; do
	sys=${ev%%:*} name=${ev#*:}
	if [ -d "$INST/events/$sys/$name" ]; then
		echo 1 > "$INST/events/$sys/$name/enable"
	else
		echo "record-sample: event $ev not available, skipped" >&2
	fi
done

# --- workload ---------------------------------------------------------------
# Input files: a text to sort and a small binary file for dd skip= (lseek).
seq 1 5000 | awk '{ print ($1 * 7919) % 10007, "line", $1 }' > "$WORK/text"
dd if=/dev/urandom of="$WORK/blob" bs=4096 count=16 2>/dev/null
mkfifo "$WORK/ping" "$WORK/pong"

workload() {
	# pipe ping-pong peer
	( exec 3<>"$WORK/ping" 4<>"$WORK/pong"
	  while read -r x <&3; do
		[ "$x" = quit ] && break
		echo "$x" >&4
	  done ) &
	PEER=$!
	exec 5<>"$WORK/ping" 6<>"$WORK/pong"
	end=$(( $(date +%s) + DURATION ))
	i=0
	while [ "$(date +%s)" -lt "$end" ]; do
		i=$((i + 1))
		/bin/true
		ls "$WORK" > /dev/null
		dd if="$WORK/blob" of=/dev/null bs=512 skip=$((i % 100)) count=4 2>/dev/null
		sort -n "$WORK/text" | head -n 3 > /dev/null
		for j in 1 2 3 4 5; do
			echo "$i.$j" >&5
			read -r y <&6
		done
		sleep 0.05
	done
	echo quit >&5
	wait "$PEER"
	PEER=
	echo "$i"
}

if [ "$FOLLOW_PIDS" = 1 ]; then
	echo $$ > "$INST/set_event_pid"
	echo 1 > "$INST/options/event-fork"
fi

echo 1 > "$INST/tracing_on"
iterations=$(workload)
echo 0 > "$INST/tracing_on"
echo > "$INST/set_event"

# --- extract ----------------------------------------------------------------
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
trace-cmd extract -B "$INSTANCE" -o "$OUT" >/dev/null ||
	die "trace-cmd extract failed"
[ -s "$OUT" ] || die "empty $OUT"

trace-cmd report "$OUT" 2>/dev/null | head -n 200 > "$REPORT_HEAD" || true

echo "record-sample: $iterations workload iterations in ${DURATION}s," \
	"$(wc -c < "$OUT") bytes written to $OUT"
