# Edits to both outputs of kernel.sh (the kernel's and tracefuse's): lines
# trace-cmd takes from the machine it runs on, not from the tracing
# directory.  The stack tracer's status is /proc/sys/kernel/
# stack_tracer_enabled (the 6.12 guest has one it cannot read); tsc2nsec
# is listed when perf can read the TSC's conversion on that machine.
/^Error reading stack tracer status$/,/^$/d
/^Stack tracing is enabled$/,/^$/d
s/ tsc2nsec$//
