# SPDX-License-Identifier: GPL-2.0
# snapshot trigger firing after `echo 0 > snapshot` freed the buffer (6.12)
PR=events/ftrace/print/trigger
echo 'snapshot if buf == "s"' >> $PR
echo 0 > snapshot
grep -E 'Snapshot is' snapshot
echo -n a > trace_marker
echo -n s > trace_marker; echo "rc=$?"
echo -n b > trace_marker; echo "rc=$?"
echo "tracing_on=$(cat tracing_on)"
grep -v '^#' trace | sed -E 's/^ *.{16}-[0-9]+ +\[[0-9]+\] ....\. +[0-9.]+: /    /'
cat $PR
echo '!snapshot' >> $PR
echo "## stacktrace in an instance, traceoff unconditional"
mkdir instances/x; cd instances/x
echo 'stacktrace' >> events/ftrace/print/trigger
echo -n hi > trace_marker
grep -v '^#' trace | sed -E 's/^ *.{16}-[0-9]+ +\[[0-9]+\] ....\. +[0-9.]+: /    /'
echo '!stacktrace' >> events/ftrace/print/trigger
echo 'traceoff' >> events/ftrace/print/trigger
echo -n t1 > trace_marker; echo -n t2 > trace_marker
grep -v '^#' trace | sed -E 's/^ *.{16}-[0-9]+ +\[[0-9]+\] ....\. +[0-9.]+: /    /'
cat events/ftrace/print/trigger
cd ../..; rmdir instances/x
