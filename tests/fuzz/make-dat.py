#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make-dat.py FORMATS_DIR OUT_DIR - writes small trace.dat files (version
6, uncompressed, little endian, 4096-byte pages) as seeds for
tests/fuzz/fuzz_replay.c: a few events' format texts from FORMATS_DIR
(a tests/oracle/formats-6.12 style directory, header_page and
header_event included) and a few pages of records in the kernel's ring
buffer layout.

The file layout is trace-cmd's trace-cmd.dat(5) version 6: magic,
version, endianness, long size, page size; header_page and header_event;
ftrace formats; event formats by system; kallsyms; printk formats; saved
cmdlines; CPU count; options; flyrecord (per CPU offset and size, then
the clock), then the pages, each aligned to the page size.  A page is a
u64 timestamp, a u64 commit (bytes of events), then events: a u32 header
(type_len in the low 5 bits, time delta in the other 27), type_len 1-28
meaning 4 * type_len bytes of data, 30 a time extend.
"""
import os
import struct
import sys

PAGE = 4096


def fmt(formats, path):
    with open(os.path.join(formats, path)) as f:
        return f.read()


def u32(v):
    return struct.pack('<I', v)


def u64(v):
    return struct.pack('<Q', v)


def common(ev_id, pid, flags=1, preempt=0):
    return struct.pack('<HBBi', ev_id, flags, preempt, pid)


def cstr(s, n):
    b = s.encode()[:n - 1]
    return b + b'\0' * (n - len(b))


class Page:
    def __init__(self, ts):
        self.ts = ts
        self.last = ts
        self.data = b''

    def add(self, ts, payload):
        delta = ts - self.last
        if delta >= 1 << 27:			# a time extend first
            self.data += u32(30 | ((delta & ((1 << 27) - 1)) << 5))
            self.data += u32(delta >> 27)
            delta = 0
        payload += b'\0' * (-len(payload) % 4)
        assert 4 <= len(payload) <= 112
        self.data += u32((len(payload) // 4) | (delta << 5)) + payload
        self.last = ts

    def bytes(self):
        body = u64(self.ts) + u64(len(self.data)) + self.data
        assert len(body) <= PAGE
        return body + b'\0' * (PAGE - len(body))


def trace_dat(formats, ftrace, systems, cpus, cmdlines, uname):
    """ftrace: [text]; systems: [(name, [text])]; cpus: [[Page]]"""
    out = b'\x17\x08\x44tracing' + b'6\0' + b'\0' + b'\x08' + u32(PAGE)
    for name in ('header_page', 'header_event'):
        text = fmt(formats, name).encode()
        out += name.encode() + b'\0' + u64(len(text)) + text
    out += u32(len(ftrace))
    for text in ftrace:
        out += u64(len(text)) + text.encode()
    out += u32(len(systems))
    for name, texts in systems:
        out += name.encode() + b'\0' + u32(len(texts))
        for text in texts:
            out += u64(len(text)) + text.encode()
    out += u32(0)				# kallsyms
    out += u32(0)				# printk formats
    lines = ''.join('%d %s\n' % c for c in cmdlines).encode()
    out += u64(len(lines)) + lines
    out += u32(len(cpus))
    name = uname.encode() + b'\0'
    out += b'options  \0' + struct.pack('<HI', 5, len(name)) + name
    out += struct.pack('<H', 0)
    out += b'flyrecord\0'
    clock = b'[local] global counter'
    start = len(out) + 16 * len(cpus) + 8 + len(clock)
    start += -start % PAGE
    at = start
    for pages in cpus:
        out += u64(at) + u64(PAGE * len(pages))
        at += PAGE * len(pages)
    out += u64(len(clock)) + clock
    out += b'\0' * (start - len(out))
    for pages in cpus:
        for p in pages:
            out += p.bytes()
    return out


def event_id(text):
    for line in text.splitlines():
        if line.startswith('ID: '):
            return int(line[4:])
    raise ValueError('no ID')


def sched_switch(ids, pid, prev, nxt, nxt_pid, state):
    return (common(ids['switch'], pid) + cstr(prev, 16) +
            struct.pack('<iiq', pid, 120, state) + cstr(nxt, 16) +
            struct.pack('<ii', nxt_pid, 120))


def print_rec(ids, pid, text):
    return common(ids['print'], pid) + u64(0xffffffff81000000) + \
        text.encode() + b'\0'


def waking(ids, pid, comm, target, cpu):
    return common(ids['waking'], pid) + cstr(comm, 16) + \
        struct.pack('<iii', target, 120, cpu)


def sys_enter(ids, pid, nr):
    return common(ids['sys_enter'], pid) + struct.pack('<q', nr) + \
        b''.join(u64(a) for a in (3, 0x7fff0000, 4096, 0, 0, 0))


def kmalloc(ids, pid, size):
    return common(ids['kmalloc'], pid) + \
        struct.pack('<QQQQIi', 0xffffffff81234567, 0xffff888000001000,
                    size, 1 << (size.bit_length()), 0xcc0, -1)


# an event no kernel has, with a __data_loc string: added to the tree
FUZZ_EV = """name: fuzz_ev
ID: 9999
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:int val;\toffset:8;\tsize:4;\tsigned:1;
\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;

print fmt: "val=%d name=%s", REC->val, __get_str(name)
"""

# sched_switch as another kernel might lay it out: other id, other
# offsets, a __data_loc prev_comm (translated by field name)
OTHER_SWITCH = """name: sched_switch
ID: 77
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:__data_loc char[] prev_comm;\toffset:8;\tsize:4;\tsigned:0;
\tfield:pid_t prev_pid;\toffset:12;\tsize:4;\tsigned:1;
\tfield:unsigned int prev_state;\toffset:16;\tsize:4;\tsigned:0;
\tfield:char next_comm[16];\toffset:20;\tsize:16;\tsigned:0;
\tfield:pid_t next_pid;\toffset:36;\tsize:4;\tsigned:1;

print fmt: "prev_comm=%s prev_pid=%d ==> next_comm=%s next_pid=%d", __get_str(prev_comm), REC->prev_pid, REC->next_comm, REC->next_pid
"""


def data_loc_rec(head, fixed, strings):
    """head: the common header; fixed: bytes after it, with one
    placeholder u32 per string, in order; returns the record"""
    off = len(head) + len(fixed)
    locs, tail = [], b''
    for s in strings:
        b = s.encode() + b'\0'
        locs.append((len(b) << 16) | (off + len(tail)))
        tail += b
    for loc in locs:
        fixed = fixed.replace(b'LOC!', u32(loc), 1)
    return head + fixed + tail


def main():
    formats, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    texts = {
        'switch': fmt(formats, 'sched/sched_switch/format'),
        'waking': fmt(formats, 'sched/sched_waking/format'),
        'print': fmt(formats, 'ftrace/print/format'),
        'sys_enter': fmt(formats, 'raw_syscalls/sys_enter/format'),
        'kmalloc': fmt(formats, 'kmem/kmalloc/format'),
    }
    ids = {k: event_id(v) for k, v in texts.items()}
    uname = 'Linux fuzz 6.12.0 x86_64'
    cmd = [(100, 'bash'), (200, 'cat'), (300, 'kworker/0:1')]

    # 1. every kind of record on two CPUs, a time extend included
    cpus = []
    for cpu in range(2):
        p = Page(1000000 + cpu)
        t = p.ts
        for i in range(6):
            t += 1000 + 37 * i
            p.add(t, sched_switch(ids, 100 + cpu * 100, 'bash', 'cat',
                                  200, i % 3))
            p.add(t + 5, waking(ids, 200, 'cat', 100, cpu))
            p.add(t + 9, print_rec(ids, 100, 'hello %d' % i))
            p.add(t + 11, sys_enter(ids, 200, i))
            p.add(t + 13, kmalloc(ids, 300, 64 << i))
        p.add(t + (1 << 28), print_rec(ids, 100, 'after a long pause'))
        cpus.append([p])
    systems = [('sched', [texts['switch'], texts['waking']]),
               ('raw_syscalls', [texts['sys_enter']]),
               ('kmem', [texts['kmalloc']])]
    with open(os.path.join(out, 'all.dat'), 'wb') as f:
        f.write(trace_dat(formats, [texts['print']], systems, cpus, cmd,
                          uname))

    # 2. another kernel's sched_switch layout: translated by name
    other_id = event_id(OTHER_SWITCH)
    p = Page(5000)
    for i in range(8):
        head = common(other_id, 100 + i)
        fixed = b'LOC!' + struct.pack('<iI', 100 + i, i % 2) + \
            cstr('next', 16) + struct.pack('<i', 200 + i)
        p.add(5000 + 10 * i, data_loc_rec(head, fixed, ['prev%d' % i]))
    with open(os.path.join(out, 'other-layout.dat'), 'wb') as f:
        f.write(trace_dat(formats, [], [('sched', [OTHER_SWITCH])], [[p]],
                          cmd, 'Linux other 5.10.0 x86_64'))

    # 3. an event the tree lacks (added from the file), one CPU with two
    #    pages, one of them empty
    p, empty = Page(7000), Page(9000)
    for i in range(10):
        p.add(7000 + i, data_loc_rec(common(9999, 100), struct.pack('<i', i)
                                     + b'LOC!', ['name%d' % i]))
    with open(os.path.join(out, 'added-event.dat'), 'wb') as f:
        f.write(trace_dat(formats, [], [('fuzzsys', [FUZZ_EV])],
                          [[p, empty]], cmd, uname))


if __name__ == '__main__':
    main()
