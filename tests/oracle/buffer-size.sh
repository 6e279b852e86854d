# SPDX-License-Identifier: GPL-2.0
# oracle: buffer-size (run with --smp 2: kernel-oracle --smp 2)
# buffer_size_kb of the top and of each CPU: a per_cpu write resizes its
# CPU only and the top then reads X; sizes the machine's available
# memory cannot hold are ENOMEM and change nothing (the sizes asked for
# are counted from MemAvailable, so that the test means the same on a
# small VM and on a big host); zero is EINVAL, past 2^64-1 ERANGE; the
# snapshot and an instance.
cd /sys/kernel/tracing
W() { local f=$1 d=$2 label=${3:-$2} r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %s -> %s\n' "$f" "$label" "$r"; }
show() { for f in buffer_size_kb buffer_total_size_kb per_cpu/cpu0/buffer_size_kb per_cpu/cpu1/buffer_size_kb; do echo "$f: $(cat $f)"; done; }
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
echo "##### unexpanded"
show
echo "##### one CPU"
W per_cpu/cpu0/buffer_size_kb 100
show
W per_cpu/cpu1/buffer_size_kb 100
show
W buffer_size_kb 2000
show
echo "##### more than the machine has"
W per_cpu/cpu1/buffer_size_kb $((avail * 2)) "(2 x MemAvailable)"
show
W buffer_size_kb $avail "(MemAvailable per CPU)"
show
echo "##### bad sizes"
W buffer_size_kb 0
W buffer_size_kb 18446744073709551616
W per_cpu/cpu0/buffer_size_kb 0
show
echo "##### with a snapshot"
echo 1 > snapshot
W per_cpu/cpu0/buffer_size_kb 300
show
W buffer_size_kb $avail "(MemAvailable per CPU)"
show
echo 0 > snapshot
echo "##### an instance"
mkdir instances/a
cd instances/a
show
W per_cpu/cpu1/buffer_size_kb 8
show
cd ../..
rmdir instances/a
