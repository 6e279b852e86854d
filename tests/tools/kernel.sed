# Edits to tracefuse's output of kernel.sh for what differs by design:
# libtracefs takes a mount of type "tracefs" from /proc/mounts, or else
# debugfs's tracing directory; a FUSE mount's type is fuse.tracefuse, so
# under `tracefuse run` libtracefs (trace-cmd) works in
# /sys/kernel/debug/tracing, which is the same tracefuse.
s#^/sys/kernel/debug/tracing/#/sys/kernel/tracing/#
