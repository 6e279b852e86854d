# SPDX-License-Identifier: GPL-2.0
# oracle: trace-sample
# helpers (inlined into each script)
# NOTE: bash builtins (echo/printf) are line-buffered: they issue one write() per '\n'-terminated line.
# W/A therefore use dd, which issues exactly ONE write() of the whole data (none if data is empty).
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
A() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e >> "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'A %s %q -> %s\n' "$f" "$d" "$r"; }
# big single write via dd (one write() syscall)
WB() { local mode=$1 f=$2 d=$3; printf '%s' "$d" > /tmp/big; local r; if [ "$mode" = A ]; then dd if=/tmp/big bs=1M 2>/tmp/e >> "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); else dd if=/tmp/big bs=1M 2>/tmp/e > "$f" && r=OK || r=$(grep -v records /tmp/e | sed 's/.*: //'); fi; echo "$mode(dd) $f <${#d} bytes> -> $r"; }
C() { echo "--- cat $1:"; cat "$1" 2>&1 | sed 's/^cat: [^:]*: /cat-error: /'; echo "--- end"; }
EL() { echo "--- error_log ${1:-error_log}:"; sed -E 's/^\[ *[0-9.]+\] //' "${1:-error_log}"; echo "--- end"; }
# UNSANITIZED copy of trace.sh (pids/timestamps vary run to run): one as-is sample.
echo "##### empty trace (raw)"; cat trace
echo "##### marker default"
echo hello > trace_marker; echo "rc=$?"
echo "--- raw trace:"; cat trace; echo "--- end raw"
S() { sed -E 's/^( *)(.{1,16})-([0-9]+)( +)\[([0-9]+)\] (.....) +([0-9]+\.[0-9]+):/\1COMM-PID\4[CPU] FLAGS TS:/' "${1:-trace}"; }
echo "--- sanitized (data lines only):"; grep -v '^#' trace | sed -E 's/^ *([^ ].*)-[0-9]+ +\[[0-9]+\] ([^ ]+) +[0-9]+\.[0-9]+: /<\1>-PID [CPU] <\2> TS: /'
echo "##### tracing_on"
C tracing_on
W tracing_on 0; C tracing_on
echo off-marker > trace_marker; echo "marker while off rc=$?"; grep -c off-marker trace
grep '^#' trace | head -12
W tracing_on 1; C tracing_on
for v in 2 abc -1 ' 1' $'1\n' 0x1 10 '' 01; do W tracing_on "$v"; C tracing_on; W tracing_on 1 >/dev/null; done
echo "##### clear"
W trace ''; echo "(open O_TRUNC, no write)"; grep -vc '^#' trace
echo x > trace_marker; echo "before clear: $(grep -vc '^#' trace)"; echo > trace; echo "after echo > trace: $(grep -vc '^#' trace)"
echo x > trace_marker; A trace 'foo'; echo "after append 'foo': $(grep -vc '^#' trace)"
echo x > trace_marker; W trace 'foo'; echo "after W 'foo': $(grep -vc '^#' trace)"
echo "##### marker variants"
echo > trace
W trace_marker 'nonl'
W trace_marker $'two\nlines\n'
W trace_marker ''; echo "(empty: open only, no write)"
W trace_marker $'\n'
W trace_marker $'trail  \n\n'
W trace_marker $'tab\there\n'
W trace_marker $'ctl\001\033x\n'
W trace_marker $'a\r\n'
echo "bash builtin printf (line-buffered -> one write per line):"; printf 'bi1\nbi2\n' > trace_marker
echo "--- data lines (sanitized):"; cat trace | cat -A
echo "##### big marker"
echo > trace
big=$(printf 'a%.0s' $(seq 1 5000)); WB W trace_marker "$big"
grep -v '^#' trace | sed -E 's/^ *([^ ].*)-[0-9]+ +\[[0-9]+\] ([^ ]+) +[0-9]+\.[0-9]+: /<\1>-PID [CPU] <\2> TS: /' | awk '{print length($0), substr($0,1,60), substr($0,length($0)-20)}'
echo > trace
for n in 1000 4000 4090 4095 4096 4097 8192; do echo > trace; WB W trace_marker "$(printf 'b%.0s' $(seq 1 $n))"; grep -v '^#' trace | sed -E 's/^.*: tracing_mark_write: //' | awk '{print "len", length($0), substr($0,length($0)-5)}' | cat -A; done
echo "##### read trace_marker"
cat trace_marker 2>&1 | sed 's/.*: //'
exec 5<trace_marker 2>/tmp/e && echo "open O_RDONLY ok" || sed 's/.*: //' /tmp/e
echo "##### trace_marker_raw"
echo > trace
W trace_marker_raw 'ab'
W trace_marker_raw $'\001\001\001\001hello'
W trace_marker_raw $'\001\001\001\001'
grep -v '^#' trace | sed -E 's/^ *([^ ].*)-[0-9]+ +\[[0-9]+\] ([^ ]+) +[0-9]+\.[0-9]+: /<\1>-PID [CPU] <\2> TS: /'
echo "##### buffer_size_kb"
C buffer_size_kb; C buffer_total_size_kb; C per_cpu/cpu0/buffer_size_kb
W buffer_size_kb 2048; C buffer_size_kb; C buffer_total_size_kb
for v in 0 abc -1 ' 100' $'100\n' 1 3 0x10; do W buffer_size_kb "$v"; C buffer_size_kb; done
W per_cpu/cpu0/buffer_size_kb 500; C per_cpu/cpu0/buffer_size_kb; C buffer_size_kb; C buffer_total_size_kb
W buffer_size_kb 1408; C buffer_size_kb
echo "free_buffer:"; W free_buffer 1; C buffer_size_kb; C buffer_total_size_kb
echo "##### buffer_subbuf_size_kb / buffer_percent"
C buffer_subbuf_size_kb; for v in 8 3 0 abc 4; do W buffer_subbuf_size_kb "$v"; C buffer_subbuf_size_kb; done
C buffer_percent; for v in 100 101 0 abc 50; do W buffer_percent "$v"; C buffer_percent; done
echo "##### trace_clock"
C trace_clock
for v in global bogus $'local\n' ' counter' 'x86-tsc' 'uptime' 'perf' 'mono' 'mono_raw' 'boot' 'tai' '' 'LOCAL' 'local'; do W trace_clock "$v"; C trace_clock; done
echo "##### trace header with counter clock"
W trace_clock counter; echo > trace; echo m > trace_marker; cat trace | sed -E 's/-[0-9]+ /-PID /'
W trace_clock local
echo "##### trace header after events enabled (entries counts vary)"
echo > trace; echo 1 > events/sched/sched_switch/enable; sleep 0.2; echo 0 > events/sched/sched_switch/enable
head -12 trace | sed -E 's/[0-9]+\/[0-9]+/N\/N/; s/#P:[0-9]+/#P:N/'
echo "--- sample sched_switch line (as-is):"; grep -m2 sched_switch trace
echo "##### latency-format header"
echo > trace; echo 1 > options/latency-format; echo lat > trace_marker; cat trace; echo 0 > options/latency-format
echo "##### options toggles affect output"
echo > trace; echo 0 > options/irq-info; echo irqoff > trace_marker; cat trace; echo 1 > options/irq-info
echo > trace; echo 1 > options/record-tgid; echo tgid > trace_marker; cat trace; echo 0 > options/record-tgid
echo > trace; echo 0 > options/context-info; echo noctx > trace_marker; cat trace; echo 1 > options/context-info
echo "##### trace_options file"
C trace_options
for v in nooverwrite overwrite bogus noirq-info irq-info ' markers' 'nomarkers' 'markers'; do W trace_options "$v"; grep -E '^(no)?(overwrite|irq-info|markers)$' trace_options | tr '\n' ' '; echo; done
echo "##### options/* writes"
for v in 1 0 2 abc $'1\n'; do W options/overwrite "$v"; C options/overwrite; done
W options/overwrite 1
echo "##### marker when markers off"
echo 0 > options/markers; echo > trace; printf 'hidden' > trace_marker 2>/tmp/e; echo "rc=$? $(sed 's/.*: //' /tmp/e)"; grep -vc '^#' trace; echo 1 > options/markers
echo "##### tracing_thresh / saved_cmdlines_size / max_graph_depth / tracing_cpumask"
for F in tracing_thresh saved_cmdlines_size max_graph_depth tracing_cpumask tracing_max_latency stack_max_size; do C $F; for v in 100 abc 0 -1; do W $F "$v"; C $F; done; done
echo "##### snapshot"
head -20 snapshot
echo 1 > snapshot; echo "rc=$?"; head -12 snapshot | sed -E 's/[0-9]+\/[0-9]+/N\/N/'
echo 2 > snapshot; echo 0 > snapshot; head -5 snapshot

