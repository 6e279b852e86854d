# oracle: cpumask-36 (run with --smp 36: kernel-oracle --smp 36 cpumask-36.sh)
# tracing_cpumask as the kernel prints it for 36 CPUs: 32-bit groups,
# most significant first, comma-separated, each zero-padded to the CPUs
# it holds; what it accepts and refuses.
cd /sys/kernel/tracing
echo "##### tracing_cpumask, 36 CPUs"
cat tracing_cpumask
for v in 1 80 1,00000000 f,0 0; do
	echo "$v" > tracing_cpumask 2>/dev/null; echo "W $v -> $?: $(cat tracing_cpumask)"
done
