#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkcorpus.py - turns the oracle's capture output (capture.6.12.out, from
capture.sh) into corpus.txt, which tests/test_trigger.c replays.

corpus.txt, one record per line:
  @ SYS/EVENT          the trigger file the next commands go to
  A CMD / W CMD        a write (W: opened with O_TRUNC), CMD C-escaped
  = RESULT             OK or the errno name
  | LINE               one line of the trigger file read back after it
  . (end of read-back)
  L LINE / L.          error_log lines (timestamps stripped); then cleared
Only sections 1-5 and 10 are kept (no hist commands, no firing).
"""
import re, sys

ERR = {'OK': 'OK', 'File exists': 'EEXIST', 'Invalid argument': 'EINVAL',
       'No such file or directory': 'ENOENT', 'Operation not permitted': 'EPERM',
       'No such process': 'ESRCH', 'Numerical result out of range': 'ERANGE'}

def unq(s):
    """Undo bash printf %q."""
    if s == "''":
        return ''
    if s.startswith("$'") and s.endswith("'"):
        return bytes(s[2:-1], 'latin1').decode('unicode_escape')
    out, i = [], 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            out.append(s[i + 1]); i += 2
        else:
            out.append(s[i]); i += 1
    return ''.join(out)

def esc(s):
    return s.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')

lines = open(sys.argv[1]).read().split('\n')
out, section, cur, i, skipped = [], 0, None, 0, False
keep = {1, 2, 3, 4, 5, 10}
while i < len(lines):
    l = lines[i]
    m = re.match(r'^##### (\d+)', l)
    if m:
        section = int(m.group(1)); i += 1; continue
    if section not in keep:
        i += 1; continue
    m = re.match(r'^([AW]) events/(\S+)/trigger (.*) -> (.*)$', l)
    if m:
        mode, ev, cmd, res = m.groups()
        cmd = unq(cmd)
        if re.match(r'^!?hist:', cmd.strip()):
            skipped = True
            i += 1; continue
        skipped = False
        if ev != cur:
            out.append('@ ' + ev); cur = ev
        out.append('%s %s' % (mode, esc(cmd)))
        out.append('= ' + ERR[res])
        i += 1
        if i < len(lines) and lines[i].startswith('  | '):
            while i < len(lines) and lines[i].startswith('  | '):
                out.append('| ' + lines[i][4:]); i += 1
            out.append('.')
        if section == 3:   # capture.sh removes it silently
            out += ['A !traceon', '= OK']
        continue
    if l == '--- error_log:':
        i += 1
        block = []
        while lines[i] != '--- end':
            block.append('L ' + lines[i]); i += 1
        if not skipped:
            out += block + ['L.']
    i += 1
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
