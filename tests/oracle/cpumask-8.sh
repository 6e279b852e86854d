# oracle: cpumask-8 (run with --smp 8: kernel-oracle --smp 8 cpumask-8.sh)
# tracing_cpumask as the kernel prints it for 8 CPUs: 32-bit groups,
# most significant first, comma-separated, each zero-padded to the CPUs
# it holds; what it accepts and refuses.
cd /sys/kernel/tracing
echo "##### tracing_cpumask, 8 CPUs"
cat tracing_cpumask
for v in 1 80 1,00000000 f,0 0; do
	echo "$v" > tracing_cpumask 2>/dev/null; echo "W $v -> $?: $(cat tracing_cpumask)"
done
