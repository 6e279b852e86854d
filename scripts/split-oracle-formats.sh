#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Splits the output of tests/oracle/formats.sh (run on the oracle kernel)
# into a directory laid out like tracefs's events/, for `tracefuse --formats`.
# Usage: scripts/split-oracle-formats.sh formats.out OUT_DIR
set -eu
in=$1 out=$2
rm -rf "$out"; mkdir -p "$out"
awk -v out="$out" '
  /^=== end$/ { if (f) close(f); f = ""; next }
  /^=== / {
    p = substr($0, 5); sub(/^events\//, "", p)
    f = out "/" p; d = f; sub(/\/[^\/]*$/, "", d)
    system("mkdir -p \"" d "\""); printf "" > f; next
  }
  f { print >> f }
' "$in"
