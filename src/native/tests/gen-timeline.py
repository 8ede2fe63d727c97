#!/usr/bin/env python3
"""A random FrameTimeline stream for tests/timeline.sh, in gfxstats-drive's timeline lines (see
its usage): frames committed on a vsync grid (some without a prediction, some targeting the same
vsync as the frame before, so queues stuff), work that is short, late or very late, and feedback
that comes 0-4 frames later in random order, early, on time, late by periods, exactly at the
present threshold, without vsync or with an estimated timestamp, with an unknown refresh, as a
present fence that never signalled, as "discarded", twice, for tokens never committed, too late
(after 16 newer frames gave the frame up) or never. About half the frames are also recorded
(frame lines), so the package has Android counters as well."""
import argparse
import random

MS = 1_000_000

p = argparse.ArgumentParser()
p.add_argument("--seed", type=int, required=True)
p.add_argument("--count", type=int, required=True)
a = p.parse_args()
r = random.Random(a.seed)
out = []
due = {}  # frame index -> feedback lines due then
period = 16_666_667
grid = 1_000_000_000
token = 0


def later(i, line):
    due.setdefault(i, []).append(line)


def present_offset(period):
    k = r.random()
    if k < 0.35:
        return r.randint(-MS, MS)                      # on time
    if k < 0.45:
        return r.choice([-2 * MS, 2 * MS, 2 * MS + 1, -2 * MS - 1])  # at and just past the threshold
    if k < 0.70:
        return r.randint(1, 4) * period + r.randint(-3 * MS, 3 * MS)  # late by periods, on or off cadence
    if k < 0.80:
        return -r.randint(1, 2) * period + r.randint(-3 * MS, 3 * MS)  # early
    if k < 0.97:
        return r.randint(-40 * MS, 300 * MS)            # anywhere
    return r.randint(300 * MS, 2_000 * MS)              # very late


for i in range(a.count):
    if r.random() < 0.001:
        period = r.choice([16_666_667, 8_333_333, 11_111_111, 6_944_444, 33_333_333])
    # The grid moves on by 0 (a second frame for the same vsync), 1 or 2 periods.
    grid += period * r.choice([0, 1, 1, 1, 1, 1, 2])
    token += 1 if r.random() < 0.98 else r.randint(2, 1000)
    tok = token if r.random() < 0.995 else token - r.randint(1, 5)  # a token reused while pending
    start = grid + r.randint(-2 * MS, 3 * MS)
    w = r.random()
    work = r.randint(MS, period - MS) if w < 0.75 else r.randint(period, 3 * period) if w < 0.97 \
        else r.randint(3 * period, 40 * period)
    end = start + work
    expected_present = grid + period * r.choice([1, 2, 2, 3])
    if r.random() < 0.05:
        out.append("N,%d,%d,%d" % (tok, start, end))
    else:
        out.append("C,%d,%d,%d,%d,%d,%d" % (tok, grid, grid + period, expected_present, start, end))
    if r.random() < 0.5:
        out.append("%d,%d,%d,%d,%d" % (grid, grid + r.randint(0, MS), end, end + r.randint(0, 2 * MS), period))
    f = r.random()
    delay = r.choice([0, 1, 1, 2, 2, 3, 4]) if r.random() < 0.97 else r.randint(17, 30)
    if f < 0.80:
        refresh = period if r.random() < 0.95 else 0
        flags = r.choices([7, 1, 3, 5, 15, 0, 6], weights=[80, 6, 3, 3, 3, 3, 2])[0]
        present = expected_present + present_offset(period) if r.random() < 0.998 else -1
        later(i + delay, "P,%d,%d,%d,%d" % (tok, present, refresh, flags))
        if r.random() < 0.01:
            later(i + delay + 1, "P,%d,%d,%d,%d" % (tok, present + period, refresh, flags))  # answered twice
    elif f < 0.88:
        later(i + delay, "D,%d,%d" % (tok, period))
    elif f < 0.89:
        later(i + delay, "P,%d,%d,%d,7" % (token + 10_000_000, expected_present, period))  # never committed
    # else: never answered (given up when its slot is needed)
    lines = due.pop(i, [])
    r.shuffle(lines)
    out.extend(lines)
    if len(out) > 10000:
        print("\n".join(out))
        out.clear()
for i in sorted(due):
    out.extend(due[i])
if out:
    print("\n".join(out))
