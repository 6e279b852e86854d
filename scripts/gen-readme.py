#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Regenerates src/fs/readme_text.c from the kernel's README text.

Usage: scripts/gen-readme.py tests/oracle/kernel-README.txt > src/fs/readme_text.c
The text comes from `cat README` on the oracle kernel (tests/oracle/readme.sh).
"""
import sys

text = open(sys.argv[1]).read()
sys.stdout.write(
    "/*\n * readme_text.c - the top-level README: the kernel's mini-HOWTO, as\n"
    " * Linux 6.12 prints it (captured with shared/oracle; regenerate with\n"
    " * scripts/gen-readme.py).  Clients such as libtracefs read it to learn\n"
    " * which syntax the tracing directory accepts.\n */\n"
    "const char tf_readme_text[] =\n")
for line in text.splitlines(keepends=True):
    esc = (line.replace("\\", "\\\\").replace('"', '\\"')
           .replace("\t", "\\t").replace("\n", "\\n"))
    sys.stdout.write('\t"%s"\n' % esc)
sys.stdout.write(";\n")
