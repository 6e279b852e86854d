# SPDX-License-Identifier: GPL-2.0
# oracle: buffer-expand4 (snapshot)
cd /sys/kernel/tracing
echo "##### snapshot 2"; echo 2 > snapshot; cat buffer_size_kb
echo "##### snapshot 1"; echo 1 > snapshot; cat buffer_size_kb
