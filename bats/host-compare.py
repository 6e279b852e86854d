#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""host-compare.py - tracefuse against the host kernel's tracefs, for
bats/host.bats.  One process per check, so that ~2000 events cost no forks.

  host-compare.py formats HOST TF      format and id of every event both
                                       have, header_page/header_event
  host-compare.py events HOST TF       available_events
  host-compare.py writes HOST_DIR TF_DIR
                                       a script of writes (set_event, enable
                                       files, filters) applied to both: the
                                       errno of every write and the read-back
                                       of the files it touches must match

HOST_DIR is a host *instance* (never the host's top level); TF_DIR the
tracefuse mount or one of its instances.  Prints every difference; exits 1
when there is one.
"""
import errno
import os
import sys


def read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as e:
        return 'ERR %s' % errno.errorcode.get(e.errno, e.errno)


def write(path, data, append):
    """data written as `echo -n data >> path` (or `>`) writes it."""
    flags = os.O_WRONLY | (os.O_APPEND if append else os.O_TRUNC)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        return 'open: %s' % errno.errorcode.get(e.errno, e.errno)
    try:
        # as a shell's echo: write(2) again with what the kernel did not
        # take (set_event takes one name per write(2))
        buf = data.encode()
        while buf:
            n = os.write(fd, buf)
            if n <= 0:
                return 'short write'
            buf = buf[n:]
        return 'OK'
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
    finally:
        os.close(fd)


def events_of(root):
    out = set()
    ev = os.path.join(root, 'events')
    for sys_name in os.listdir(ev):
        d = os.path.join(ev, sys_name)
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            if os.path.isdir(os.path.join(d, name)):
                out.add((sys_name, name))
    return out


def check_formats(host, tf):
    bad = 0
    h, t = events_of(host), events_of(tf)
    both = sorted(h & t)
    for s, e in both:
        for f in ('format', 'id'):
            a = read('%s/events/%s/%s/%s' % (host, s, e, f))
            b = read('%s/events/%s/%s/%s' % (tf, s, e, f))
            if a != b:
                bad += 1
                if bad <= 20:
                    print('differs: events/%s/%s/%s' % (s, e, f))
                    print('  host: %r' % a[:300])
                    print('  tf:   %r' % b[:300])
    for f in ('header_page', 'header_event'):
        if read('%s/events/%s' % (host, f)) != read('%s/events/%s' % (tf, f)):
            bad += 1
            print('differs: events/%s' % f)
    print('%d events compared (format and id); host only: %d, tracefuse '
          'only: %d; %d differences' % (len(both), len(h - t), len(t - h), bad))
    for s, e in sorted(h ^ t)[:10]:
        print('  only in %s: %s/%s' % ('host' if (s, e) in h else
                                        'tracefuse', s, e))
    return bad


def check_events(host, tf):
    a = read(host + '/available_events')
    b = read(tf + '/available_events')
    if a == b:
        print('available_events identical (%d lines)' % a.count(b'\n'))
        return 0
    al, bl = a.splitlines(), b.splitlines()
    print('available_events differ: host %d lines, tracefuse %d' %
          (len(al), len(bl)))
    print('  host only: %r' % sorted(set(al) - set(bl))[:10])
    print('  tf only:   %r' % sorted(set(bl) - set(al))[:10])
    if set(al) == set(bl):
        print('  (same lines, different order)')
    return 1


SS = 'events/sched/sched_switch/'
# (file, data, append); after each write, READBACK is read on both sides
WRITES = [
    # set_event: names, globs, negation, several per write, > versus >>
    ('set_event', 'sched:sched_switch', False),
    ('set_event', 'irq:*', True),
    ('set_event', '!sched_switch', True),
    ('set_event', 'sched_wakeup', True),
    ('set_event', 'sched:sched_switch irq:irq_handler_entry', False),
    ('set_event', 'signal:', True),
    ('set_event', '!signal:*', True),
    ('set_event', ':sched_waking', True),
    ('set_event', 'no_such_event', True),
    ('set_event', 'sched:no_such_event', True),
    ('set_event', 'no_such_system:*', True),
    ('set_event', '!no_such_event', True),
    ('set_event', 'sched:sched_switch\n', True),
    ('set_event', '', True),
    ('set_event', '', False),
    ('set_event', 'sched:*', False),
    ('set_event', '!sched:*', True),
    # enable files: event 0/1, subsystem and top-level 0/1/X
    (SS + 'enable', '1', False),
    (SS + 'enable', '1', False),
    (SS + 'enable', '0', False),
    (SS + 'enable', '2', False),
    (SS + 'enable', 'x', False),
    (SS + 'enable', '', False),
    (SS + 'enable', '1\n', False),
    ('events/sched/enable', '1', False),
    ('events/sched/sched_wakeup/enable', '0', False),
    ('events/sched/enable', '0', False),
    ('events/sched/enable', '3', False),
    ('events/irq/enable', '1', False),
    ('events/irq/enable', '0', False),
    # filters: read-back and errno
    (SS + 'filter', 'prev_pid == 1', False),
    (SS + 'filter', 'prev_comm ~ "bash*" && next_pid != 0', False),
    (SS + 'filter', '(prev_pid == 1 || next_pid == 2) && prev_prio > 3',
     False),
    (SS + 'filter', 'no_such_field == 1', False),
    (SS + 'filter', 'prev_pid == ', False),
    (SS + 'filter', 'prev_pid = 1', False),
    (SS + 'filter', '0', False),
    (SS + 'filter', 'common_pid != 0', False),
    ('events/sched/filter', 'common_pid == 42', False),
    ('events/sched/filter', 'prev_pid == 1', False),
    ('events/sched/filter', '0', False),
    (SS + 'filter', '0', False),
    ('set_event', '', False),
]
READBACK = ['set_event', 'events/enable', 'events/sched/enable',
            'events/irq/enable', 'events/signal/enable', SS + 'enable',
            'events/sched/sched_wakeup/enable', SS + 'filter',
            'events/sched/filter', 'events/sched/sched_wakeup/filter']


def check_writes(host, tf):
    bad = 0
    for f, data, append in WRITES:
        a = write(host + '/' + f, data, append)
        b = write(tf + '/' + f, data, append)
        what = 'echo -n %r %s %s' % (data, '>>' if append else '>', f)
        if a != b:
            bad += 1
            print('%s: host %s, tracefuse %s' % (what, a, b))
        for r in READBACK:
            x, y = read(host + '/' + r), read(tf + '/' + r)
            if x != y:
                bad += 1
                print('after %s: %s differs\n  host: %r\n  tf:   %r' %
                      (what, r, x, y))
    print('%d writes compared, %d read-backs each; %d differences' %
          (len(WRITES), len(READBACK), bad))
    return bad


def main():
    mode, host, tf = sys.argv[1:4]
    check = {'formats': check_formats, 'events': check_events,
             'writes': check_writes}[mode]
    return 1 if check(host, tf) else 0


if __name__ == '__main__':
    sys.exit(main())
