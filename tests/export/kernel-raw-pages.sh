# trace_pipe_raw and snapshot_raw on Linux 6.12 (shared/oracle kernel-oracle):
# a read of an empty buffer returns 0; one page (4096 bytes, zero-filled)
# per read; a full page flags missed events without room for the count.
cd /sys/kernel/tracing
echo "== empty nonblock read"
timeout 1 dd if=per_cpu/cpu0/trace_pipe_raw of=/dev/null bs=4096 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /dev/null 2>/dev/null)"
echo hello > trace_marker
echo world > trace_marker
echo "== read page"
timeout 1 dd if=per_cpu/cpu0/trace_pipe_raw of=/tmp/p bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/p 2>/dev/null)"
od -A d -t x1 /tmp/p | head -8
echo "== second read"
timeout 1 dd if=per_cpu/cpu0/trace_pipe_raw of=/tmp/p2 bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/p2 2>/dev/null)"
echo "== trace after"
cat trace | grep -v '^#'
echo "== small read"
echo abc > trace_marker
timeout 1 dd if=per_cpu/cpu0/trace_pipe_raw of=/tmp/p3 bs=100 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/p3 2>/dev/null)"
timeout 1 dd if=per_cpu/cpu0/trace_pipe_raw of=/tmp/p4 bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/p4 2>/dev/null)"
echo "== snapshot_raw, not allocated"
timeout 1 dd if=per_cpu/cpu0/snapshot_raw of=/tmp/s bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/s 2>/dev/null)"
echo x > trace_marker
echo 1 > snapshot
timeout 1 dd if=per_cpu/cpu0/snapshot_raw of=/tmp/s bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/s 2>/dev/null)"
od -A d -t x1 /tmp/s | head -4
timeout 1 dd if=per_cpu/cpu0/snapshot_raw of=/tmp/s bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/s 2>/dev/null)"
cat snapshot | grep -v '^#'
cat events/header_page
echo "== lost"
echo 0 > snapshot
echo 8 > buffer_size_kb
for i in $(seq 1 400); do echo msg$i > trace_marker; done
timeout 1 dd if=per_cpu/cpu0/trace_pipe_raw of=/tmp/l bs=65536 count=1 2>&1 | tail -1; echo "rc=$? size=$(wc -c < /tmp/l 2>/dev/null)"
od -A d -t x1 /tmp/l | head -2
