# SPDX-License-Identifier: GPL-2.0
# oracle: every event format of the oracle kernel, for tests/oracle/formats-6.12
# (split by scripts/split-oracle-formats.sh).  Each file is framed by a line
# "=== <path>" and ends with a line "=== end".
for f in events/header_page events/header_event available_events; do
  echo "=== $f"; cat "$f"; echo "=== end"
done
# the release the latency-format header names (KERNEL, as capture-formats.sh)
echo "=== KERNEL"; uname -r; echo "=== end"
for f in events/*/*/format; do
  echo "=== $f"; cat "$f"; echo "=== end"
done
