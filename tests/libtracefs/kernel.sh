# SPDX-License-Identifier: GPL-2.0
# The commands tests/tracefs_client.c has libtracefs 1.6.4 write (its
# tracefs_hist, tracefs_synth and tracefs_sql calls print them), the same
# trace_marker writes and the same reads, on the kernel.  Its output is
# what the client must print on tracefuse (bats/libtracefs.bats; the
# variable names libtracefs makes up hold its pid: they are normalised).
S() { echo "--- cat $1:"; cat "$1" 2>&1; echo "--- end"; }
m() { echo -n "$1" > trace_marker; }
T=events/ftrace/print/trigger
echo 'hist:keys=common_pid' > $T
echo 's:mark_lat s32 pid; u64 delta;' >> dynamic_events
echo 'hist:keys=common_pid:__arg_1_1=common_timestamp.usecs if buf == "start"' >> $T
echo 'hist:keys=common_pid:pid=common_pid,__delta_1_2=common_timestamp.usecs-$__arg_1_1:onmatch(ftrace.print).trace(mark_lat,$pid,$__delta_1_2) if buf == "end"' >> $T
echo 's:sql_lat s32 pid; u64 lat;' >> dynamic_events
echo 'hist:keys=common_pid:__arg_2_2=common_pid,__arg_2_3=common_timestamp.usecs if buf == "a"' >> $T
echo 'hist:keys=common_pid:__pid_2_1=$__arg_2_2,__lat_2_4=common_timestamp.usecs-$__arg_2_3:onmatch(ftrace.print).trace(sql_lat,$__pid_2_1,$__lat_2_4) if buf == "b"' >> $T
echo 'hist:keys=pid' >> events/synthetic/mark_lat/trigger
m start; m end; m end; m a; m b; m start; m end
S synthetic_events
S dynamic_events
S events/ftrace/print/trigger
S events/synthetic/mark_lat/trigger
S events/synthetic/mark_lat/format
S events/synthetic/sql_lat/format
S events/synthetic/mark_lat/hist
S events/ftrace/print/hist
# tracefs_hist_destroy and tracefs_synth_destroy
echo '!hist:keys=pid' >> events/synthetic/mark_lat/trigger
echo '!hist:keys=common_pid:__pid_2_1=$__arg_2_2,__lat_2_4=common_timestamp.usecs-$__arg_2_3:onmatch(ftrace.print).trace(sql_lat,$__pid_2_1,$__lat_2_4) if buf == "b"' >> $T
echo '!hist:keys=common_pid:__arg_2_2=common_pid,__arg_2_3=common_timestamp.usecs if buf == "a"' >> $T
echo '-:synthetic/sql_lat' >> dynamic_events
echo '!hist:keys=common_pid:pid=common_pid,__delta_1_2=common_timestamp.usecs-$__arg_1_1:onmatch(ftrace.print).trace(mark_lat,$pid,$__delta_1_2) if buf == "end"' >> $T
echo '!hist:keys=common_pid:__arg_1_1=common_timestamp.usecs if buf == "start"' >> $T
echo '-:synthetic/mark_lat' >> dynamic_events
echo '!hist:keys=common_pid' >> $T
S synthetic_events
S events/ftrace/print/trigger
