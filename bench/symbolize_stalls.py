#!/usr/bin/env python3
"""Symbolises a FOLIO_STALL_TRACE file (widgets/stallsampler.h) with addr2line and prints, per
stall (consecutive samples of one stall), the deepest Folio frames and the innermost frames, then the
functions seen most often across all samples.

    python3 bench/symbolize_stalls.py TRACE [--min-late MS] [--frames N]
"""
import argparse
import bisect
import collections
import subprocess


def read_trace(path):
    samples, maps = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith('#'):
                continue
            if parts[0] == 'sample':
                samples.append((float(parts[1]), float(parts[3]), [int(a, 16) for a in parts[4:]]))
            elif parts[0] == 'map' and len(parts) >= 7:
                lo, hi = (int(x, 16) for x in parts[1].split('-'))
                maps.append((lo, hi, int(parts[3], 16), parts[6]))
    maps.sort()
    return samples, maps


def symbolise(addresses, maps):
    starts = [m[0] for m in maps]
    by_file = collections.defaultdict(set)
    where = {}
    for a in addresses:
        i = bisect.bisect_right(starts, a) - 1
        if i < 0 or a >= maps[i][1]:
            where[a] = None
            continue
        lo, _, offset, path = maps[i]
        rel = a - lo + offset - 1  # a return address: the call is one byte before
        where[a] = (path, rel)
        by_file[path].add(rel)
    names = {}
    for path, rels in by_file.items():
        rels = sorted(rels)
        out = subprocess.run(['addr2line', '-f', '-C', '-e', path] + [hex(r) for r in rels],
                             capture_output=True, text=True).stdout.split('\n')
        for k, rel in enumerate(rels):
            fn = out[2 * k] if 2 * k < len(out) else '??'
            names[(path, rel)] = fn if fn != '??' else '%s+%x' % (path.rsplit('/', 1)[-1], rel)
    return {a: (names[w] if w else '?') for a, w in where.items()}


def main():
    p = argparse.ArgumentParser()
    p.add_argument('trace')
    p.add_argument('--min-late', type=float, default=0)
    p.add_argument('--frames', type=int, default=14)
    p.add_argument('--report', help='the FOLIO_STALL_REPORT file of the same run: names each stall\'s phase')
    p.add_argument('--phase', help='only stalls in phases starting with this')
    a = p.parse_args()
    samples, maps = read_trace(a.trace)
    phases = []
    if a.report:
        import json
        for e in json.load(open(a.report)).get('events', []):
            if e['event'].startswith('phase: '):
                phases.append((e['ms'], e['event'][7:]))

    def phase_at(ms):
        name = ''
        for at, p in phases:
            if at <= ms:
                name = p
        return name
    names = symbolise({x for s in samples for x in s[2]}, maps)
    counts = collections.Counter()
    previous_ms = None
    for ms, late, stack in samples:
        if late < a.min_late:
            continue
        if a.phase and not phase_at(ms - late).startswith(a.phase):
            continue
        if previous_ms is None or ms - previous_ms > 200:
            print('---- stall at %.0f ms (%s)' % (ms, phase_at(ms - late)))
        previous_ms = ms
        frames = [names[x] for x in stack[2:]]  # skip the handler and the signal trampoline
        for f in set(frames):
            counts[f] += 1
        print('  %.0f ms late: %s' % (late, ' <- '.join(frames[:a.frames])))
    print('\nmost frequent functions:')
    for f, n in counts.most_common(40):
        print('%5d  %s' % (n, f[:160]))


if __name__ == '__main__':
    main()
