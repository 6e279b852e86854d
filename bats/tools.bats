#!/usr/bin/env bats
#
# tools.bats - third-party tracing tools, unchanged, under `tracefuse run`:
# Debian's perf-tools-unstable (Brendan Gregg's ftrace scripts, which
# hard-code /sys/kernel/debug/tracing) and trace-cmd's read-side commands
# (libtracefs, which finds the tracing directory through /proc/mounts).
# docs/third-party-tools.md says which tools work and why the others
# cannot.
#
# The first tests compare with Linux 6.12: tests/tools/kernel.sh ran there
# (tests/tools/oracle.sh, output kernel.out) and runs here on the same
# kernel's formats, its events injected.  The live tests run the tools on
# the host's own tracepoints (the live source) and skip where the host's
# tracefs cannot serve one.  perf-tools keep a lock file in /var/tmp; each
# test gets a private /var/tmp (a tmpfs in a mount namespace of its own),
# so suites running side by side do not see each other's lock.

load helpers

setup_file() {
	TOOLS_SKIP=
	if ! command -v tpoint-perf >/dev/null || ! command -v trace-cmd >/dev/null; then
		TOOLS_SKIP="perf-tools-unstable or trace-cmd not installed (scripts/setup.sh installs them)"
	elif [ "$(id -u)" != 0 ]; then
		TOOLS_SKIP="tracefuse run needs root (CAP_SYS_ADMIN)"
	fi
	export TOOLS_SKIP
	HOST_SKIP=$TOOLS_SKIP
	if [ -z "$HOST_SKIP" ]; then
		local host="$BATS_FILE_TMPDIR/host"
		mkdir -p "$host"
		if ! mount -t tracefs nodev "$host" 2>/dev/null; then
			HOST_SKIP="the host tracefs cannot be mounted here"
		elif [ ! -e "$host/events/syscalls/sys_enter_close/enable" ] ||
		     [ ! -e "$host/events/syscalls/sys_enter_kill/enable" ]; then
			HOST_SKIP="the host kernel has no syscall tracepoints"
		elif ! mkdir "$host/instances/tracefuse-tools-probe" 2>/dev/null; then
			HOST_SKIP="cannot create instances on the host tracefs"
		else
			rmdir "$host/instances/tracefuse-tools-probe"
		fi
		umount "$host" 2>/dev/null
		rmdir "$host"
	fi
	export HOST_SKIP
}

setup() {
	[ -z "$TOOLS_SKIP" ] || skip "$TOOLS_SKIP"
}

# sq TEXT: TEXT with runs of blanks squeezed and no trailing blank
sq() { echo "$1" | tr -s ' ' | sed 's/ $//'; }

# in_run [tracefuse options] -- COMMAND...: tracefuse run with a private /var/tmp
in_run() {
	unshare -m sh -c 'mount -t tmpfs tmpfs /var/tmp && exec "$@"' sh \
		"$TF_BIN" run "$@"
}

@test "tpoint, execsnoop, reset-ftrace and trace-cmd list, stat, show, start, stop and reset print what they print on Linux 6.12" {
	local out=$BATS_TEST_TMPDIR/tools.tf gold=$BATS_TEST_TMPDIR/tools.kernel
	local cpumask=
	TF_INJECT="${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject /sys/kernel/tracing" \
		in_run --formats "$TF_FORMATS_612" --source none --cpus 1 -- \
		bash "$TF_TOP/tests/tools/kernel.sh" > "$out" 2>&1 < /dev/null
	# the guest ran the scripts from /work/tools
	sed -i 's#/usr/sbin/\([a-z-]*-perf\)#/work/tools/\1#' "$out"
	# trace-cmd stat names tracing_cpumask when it lacks one of the CPUs
	# this machine has (getconf); the guest had one CPU, as this tree
	[ "$(getconf _NPROCESSORS_CONF)" = 1 ] || cpumask='/^CPU mask: 1$/,/^$/d'
	sed -i -f "$TF_TOP/tests/tools/host.sed" -f "$TF_TOP/tests/tools/kernel.sed" \
		${cpumask:+-e "$cpumask"} "$out"
	sed -f "$TF_TOP/tests/tools/host.sed" "$TF_TOP/tests/tools/kernel.out" > "$gold"
	run "$TF_ORACLE/compare.sh" "$gold" "$out" "$TF_TOP/tests/tools/kernel.skip"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"sections: 26 compared, 1 skipped, 0 differ"* ]]
}

@test "under tracefuse run, ftrace_enabled is a private copy of the host's: writes to it stay there" {
	local f=/proc/sys/kernel/ftrace_enabled before
	[ -e $f ] || skip "this kernel has no $f"
	before=$(cat $f)
	run in_run --formats "$TF_FORMATS_612" --source none --cpus 1 -- \
		sh -c "cat $f; echo \$((1 - $before)) > $f && cat $f"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$before" ]
	[ "${lines[1]}" = "$((1 - before))" ]
	[ "$(cat $f)" = "$before" ]
}

@test "killsnoop reports kill() calls, parsed from the 6.12 text, and cleans up" {
	# The tool clears the buffer after enabling its events; the kills
	# are injected once the marker written before it is gone.
	cat > "$BATS_TEST_TMPDIR/kill.sh" <<-'EOF'
	cd /sys/kernel/tracing
	echo before-killsnoop > trace_marker
	( while grep -q before-killsnoop trace; do sleep 0.05; done
	  $TF_INJECT <<-END
		syscalls:sys_enter_kill common_pid=4100 comm=killer pid=4660 sig=9
		syscalls:sys_exit_kill common_pid=4100 comm=killer ret=0
		syscalls:sys_enter_kill common_pid=4101 comm=other pid=1 sig=15
		syscalls:sys_exit_kill common_pid=4101 comm=other ret=-3
		syscalls:sys_enter_lseek common_pid=4100 comm=killer fd=3
	END
	) &
	killsnoop-perf -s -d 2; echo "rc=$?"
	wait
	cat set_event events/syscalls/sys_enter_kill/enable
	[ -e /var/tmp/.ftrace-lock ] && echo 'lock left' || echo 'no lock'
	EOF
	TF_INJECT="${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject /sys/kernel/tracing" \
		run in_run --formats "$TF_FORMATS_612" --source none --cpus 1 -- \
		bash "$BATS_TEST_TMPDIR/kill.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Tracing kill()s for 2 seconds (buffered)..." ]
	[ "$(sq "${lines[1]}")" = "COMM PID TPID SIGNAL RETURN" ]
	[ "$(sq "${lines[2]}")" = "killer 4100 4660 SIGKILL 0" ]
	# a failed kill() returns -3; 6.12 prints `sys_kill -> 0xfffffffffffffffd`,
	# which the tool's awk reads as 2^64 - 3, on the kernel as here
	[ "$(sq "${lines[3]}")" = "other 4101 1 SIGTERM 1.84467e+19" ]
	[ "${lines[4]}" = "Ending tracing..." ]
	[ "${lines[5]}" = "rc=0" ]
	[ "${lines[6]}" = "0" ]
	[ "${lines[7]}" = "no lock" ]
	[ "${#lines[@]}" -eq 8 ]
}

@test "tools that need kprobes, uprobes or the function tracer stop with their own error and leave the tree as they found it" {
	cat > "$BATS_TEST_TMPDIR/cannot.sh" <<-'EOF'
	cd /sys/kernel/tracing
	for t in "execsnoop-perf -d 1" "opensnoop-perf -d 1" \
		 "kprobe-perf -d 1 p:do_sys_open" "funccount-perf -d 1 vfs_read" \
		 "funcgraph-perf -d 1 vfs_read" "funcslower-perf -d 1 vfs_read 10" \
		 "functrace-perf -d 1 vfs_read" "cachestat-perf 1 1" \
		 "tcpretrans-perf"; do
		out=$(timeout 20 $t 2>&1); rc=$?
		echo "$t: rc=$rc $(echo "$out" | grep -m1 ERROR)"
		echo "state: $(cat current_tracer) [$(cat set_event kprobe_events uprobe_events)] $(cat set_ftrace_filter) $(ls /var/tmp | wc -l)"
	done
	EOF
	run in_run --formats "$TF_FORMATS_612" --source none --cpus 1 -- \
		bash "$BATS_TEST_TMPDIR/cannot.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 18 ]
	for ((i = 0; i < 18; i += 2)); do
		[[ "${lines[i]}" == *": rc="[1-9]*" ERROR"* ]]
		[ "${lines[i+1]}" = "state: nop [] #### all functions enabled #### 0" ]
	done
	[[ "${lines[0]}" == "execsnoop-perf -d 1: rc=1 ERROR: adding a kprobe for execve. Exiting." ]]
	[[ "${lines[2]}" == "opensnoop-perf -d 1: rc=1 ERROR: adding a kprobe for getname(). Exiting." ]]
}

@test "tpoint with a filter, on the host's live tracepoints, prints the one close() it lets by" {
	[ -z "$HOST_SKIP" ] || skip "$HOST_SKIP"
	# a task that closes fd 98 and 99 when told; the filter names it
	cat > "$BATS_TEST_TMPDIR/live.sh" <<-'EOF'
	cd /sys/kernel/tracing
	fifo=$(mktemp -u "$TMPDIR/go.XXXXXX"); mkfifo "$fifo"
	( exec 98</dev/null 99</dev/null; read -r _ < "$fifo"; exec 98<&- 99<&-; sleep 0.2; : ) &
	closer=$!
	echo before-tpoint > trace_marker
	( while grep -q before-tpoint trace; do sleep 0.05; done; echo go > "$fifo" ) &
	tpoint-perf -d 2 syscalls:sys_enter_close "fd == 99 && common_pid == $closer"
	echo "rc=$? closer=$closer"
	wait; rm -f "$fifo"
	cat events/syscalls/sys_enter_close/filter events/syscalls/sys_enter_close/enable
	EOF
	TMPDIR=$BATS_TEST_TMPDIR run in_run --source kernel -- bash "$BATS_TEST_TMPDIR/live.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	local closer=${output##*closer=}; closer=${closer%%$'\n'*}
	[ "${lines[0]}" = "Tracing syscalls:sys_enter_close for 2 seconds (buffered)..." ]
	# the host's release prints fd 99 as 63 (before 6.18) or 0x63
	[[ "${lines[1]}" =~ ^\ +bash-$closer\ +\[[0-9]{3}\]\ [^\ ]{5}\ +[0-9]+\.[0-9]{6}:\ sys_close\(fd:\ (0x)?63\)$ ]]
	[ "${lines[2]}" = "Ending tracing..." ]
	[ "${lines[4]}" = none ]
	[ "${lines[5]}" = 0 ]
}

@test "killsnoop on the host's live tracepoints sees a kill() of a known task" {
	[ -z "$HOST_SKIP" ] || skip "$HOST_SKIP"
	# kill -0 1: pid 1 and signal 0 print alike in every release's text
	cat > "$BATS_TEST_TMPDIR/live.sh" <<-'EOF'
	cd /sys/kernel/tracing
	echo before-killsnoop > trace_marker
	( while grep -q before-killsnoop trace; do sleep 0.05; done
	  bash -c 'echo "killer=$$"; kill -0 1' ) &
	killsnoop-perf -d 2
	wait
	EOF
	run in_run --source kernel -- bash "$BATS_TEST_TMPDIR/live.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	local killer=${output##*killer=}; killer=${killer%%$'\n'*}
	[ -n "$killer" ]
	# the comm is the host's saved_cmdlines entry of the killer, which
	# exited at once: on a busy machine other tasks can take its slot
	# first, and the kernel's own trace then prints <...> too
	echo "$output" | tr -s ' ' | sed 's/ $//' |
		grep -qxE "(bash|<\.\.\.>) $killer 1 0 0"
}

@test "trace-cmd list, stat and show on the host's live tracepoints" {
	[ -z "$HOST_SKIP" ] || skip "$HOST_SKIP"
	cat > "$BATS_TEST_TMPDIR/live.sh" <<-'EOF'
	cd /sys/kernel/tracing
	echo "events=$(trace-cmd list -e | wc -l) available=$(wc -l < available_events)"
	echo 1 > events/syscalls/sys_enter_close/enable
	echo "fd == 97 && common_pid == $$" > events/syscalls/sys_enter_close/filter
	exec 97</dev/null; exec 97<&-
	trace-cmd stat | sed -n '/^Events:/,/^$/p;/^Filters:/,/^$/p'
	trace-cmd show | grep -c "bash-$$ .*sys_close(fd: \(0x\)\?61)"
	echo 0 > events/syscalls/sys_enter_close/enable
	trace-cmd stat | sed -n '/^Events:/,/^$/p'
	EOF
	run in_run --source kernel -- bash "$BATS_TEST_TMPDIR/live.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^events=([0-9]+)\ available=([0-9]+)$ ]]
	[ "${BASH_REMATCH[1]}" -gt 100 ]
	[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
	[ "${lines[1]}" = "Events:" ]
	[ "${lines[2]}" = " Individual events:" ]
	[ "${lines[3]}" = "    syscalls" ]
	[ "${lines[4]}" = "        sys_enter_close" ]
	[ "${lines[5]}" = "Filters:" ]
	[[ "${lines[6]}" =~ ^\ \ syscalls:sys_enter_close\ \"fd\ ==\ 97\ \&\&\ common_pid\ ==\ [0-9]+\"$ ]]
	[ "${lines[7]}" = 1 ]
	[ "${lines[8]}" = "Events:" ]
	[ "${lines[9]}" = " All disabled" ]
}

@test "trace-cmd record and extract read the per-CPU raw pages, of any sub-buffer size: report shows what was written" {
	local d=$BATS_TEST_TMPDIR
	cat > "$d/rec.sh" <<-EOF
	cd /sys/kernel/tracing
	echo 8 > buffer_subbuf_size_kb
	trace-cmd record -o "$d/rec.dat" -e sched_switch \
		sh -c 'for i in 1 2 3; do echo rec\$i > /sys/kernel/tracing/trace_marker; done' > "$d/rec.log" 2>&1
	for i in 1 2; do echo ext\$i > trace_marker; done
	trace-cmd extract -o "$d/ext.dat" > "$d/ext.log" 2>&1
	echo "left: \$(cat per_cpu/cpu*/stats | awk '/^entries:/ { n += \$2 } END { print n }')"
	EOF
	# trace-cmd opens a per_cpu directory for each of the machine's CPUs
	run in_run --formats "$TF_FORMATS_612" --source none \
		--cpus "$(getconf _NPROCESSORS_CONF)" -- bash "$d/rec.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "left: 0" ]
	run sh -c "trace-cmd report -i '$d/rec.dat' | sed -n 's/.* print: *//p'"
	echo "$output"
	# the records' caller is tracing_mark_write, as the kernel's, where
	# the host's symbols can be read (root, no kptr_restrict)
	local caller='[a-z_]*'
	grep -q '^ffffffff[0-9a-f]*[1-9a-f][0-9a-f]* [tT] tracing_mark_write$' /proc/kallsyms &&
		caller=tracing_mark_write
	[[ "$output" =~ ^$caller:\ rec1.$caller:\ rec2.$caller:\ rec3$ ]]
	run sh -c "trace-cmd report -i '$d/ext.dat' | sed -n 's/.* print: *//p'"
	[[ "$output" =~ ^$caller:\ ext1.$caller:\ ext2$ ]]
}
