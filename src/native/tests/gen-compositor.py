#!/usr/bin/env python3
"""A random FrameTimeline stream in compositor mode for tests/compositor.sh: a client's frames
(gfxstats-drive's timeline lines: C, N, Q, P, D, W, F; see its usage) presented on the outputs of a
simulated compositor, and that compositor's display frames (X lines) fed to the daemon, in
phases: each phase is client lines, then the display frames published after them, then "S" (the
drivers sync there: the feed is published and the C driver has counted its ring before the next
phase starts, so that C and Java see the same ring at every call). A "K" line (--kill) is where
the test SIGKILLs the daemon and starts a new one (a new, empty ring).

  X,OUTPUT,MSC,TOKEN,EXPIRED,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,
    ACTUAL_END,ACTUAL_PRESENT,GPU_FENCE,REFRESH,RENDER          (GPU_FENCE -1: no GPU composition)

The window moves between outputs 1 (60 Hz) and 2 (120 Hz) and, now and then, output 3, which the
compositor never reports. Display frames are published ahead of the client's feedback, a little
behind (joined later, at a later call), far behind (after the join wait: client-only), or never
(MSCs the compositor skips); some have late presents, late CPU work, GPU composition, expired
predictions or a present fence that never signalled, so that the daemon's DisplayFrame rules
give every display jank. Feedback also comes without an MSC (client-only), torn, as discarded,
for tokens never committed, twice, or never."""
import argparse
import random

MS = 1_000_000

p = argparse.ArgumentParser()
p.add_argument("--seed", type=int, required=True)
p.add_argument("--count", type=int, required=True)
p.add_argument("--kill", action="store_true", help="a K line halfway")
a = p.parse_args()
r = random.Random(a.seed)

PERIOD = {1: 16_666_667, 2: 8_333_333, 3: 16_666_667}
BASE = {1: 1_000_000_000, 2: 1_000_000_007, 3: 1_000_000_011}
fed_upto = {1: 0, 2: 0}        # the compositor has reported every MSC up to this one
display = {}                   # (output, msc) -> the display frame's actual present, once decided
skip = set()                   # MSCs the compositor never reports
out = []
due = {}                       # frame index -> feedback lines due then
token = 0
output = 1
msc_now = {1: 10, 2: 20, 3: 10}  # every output's MSC at the time `now`, one clock for all


def vsync(o, m):
    return BASE[o] + m * PERIOD[o]


def display_present(o, m):
    """The display frame's present, decided once (the client's feedback carries it too)."""
    if (o, m) not in display:
        k = r.random()
        t = vsync(o, m)
        if k < 0.70:
            d = t + r.randint(-100_000, 100_000)
        elif k < 0.80:
            d = t + PERIOD[o] + r.randint(-MS, MS)             # the flip was a refresh late
        elif k < 0.90:
            d = t + r.choice([-3 * MS, 3 * MS, 5 * MS])         # off the cadence
        elif k < 0.99:
            d = t + r.randint(2, 3) * PERIOD[o]                 # very late
        else:
            d = -1                                               # the present fence never signalled
        display[(o, m)] = d
    return display[(o, m)]


def display_line(o, m):
    period = PERIOD[o]
    t = vsync(o, m)
    present = display_present(o, m)
    start = t - period + r.randint(0, 2 * MS)
    k = r.random()
    work = r.randint(MS, period // 2) if k < 0.8 else r.randint(period - MS, 2 * period)  # late CPU work
    end = start + work
    gpu = end + r.randint(0, period) if r.random() < 0.2 else -1
    expired = 1 if r.random() < 0.02 else 0
    render = period if r.random() < 0.8 else 2 * period
    return "X,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d" % (
        o, m, o * 10_000_000 + m, expired, t - period, t - MS, t, start, end, present, gpu, period, render)


def feed(upto):
    """Display frames of each output up to the MSC given, in MSC order, skipping some."""
    lines = []
    for o in (1, 2):
        for m in range(fed_upto[o] + 1, upto[o] + 1):
            if (o, m) in skip or r.random() < 0.08:
                skip.add((o, m))
                continue
            lines.append(display_line(o, m))
        fed_upto[o] = max(fed_upto[o], upto[o])
    return lines


def later(i, line):
    due.setdefault(i, []).append(line)


WAIT = 100 * MS  # the join wait both drivers use (TimelineRecorder.DEFAULT_JOIN_WAIT_NANOS)
i = 0
killed = False
kill_after = False
n = r.randint(4, 48)
while i < a.count:
    for _ in range(n):
        if i >= a.count:
            break
        k = r.random()
        if k < 0.01:
            output = r.choice([1, 1, 1, 2, 2, 3])                # the window moved
        period = PERIOD[output]
        step = r.choice([0, 1, 1, 1, 1, 2])
        if step:
            t = vsync(output, msc_now[output] + step)
            for o in PERIOD:
                msc_now[o] = max(msc_now[o], (t - BASE[o]) // PERIOD[o])
        target = msc_now[output] + r.choice([1, 1, 2, 2, 3])
        token += 1 if r.random() < 0.98 else r.randint(2, 100)
        grid = vsync(output, msc_now[output])
        start = grid + r.randint(-MS, 2 * MS)
        w = r.random()
        work = r.randint(MS, period - MS) if w < 0.75 else r.randint(period, 3 * period) if w < 0.97 \
            else r.randint(3 * period, 20 * period)
        end = start + work
        if r.random() < 0.04:
            out.append("N,%d,%d,%d" % (token, start, end))
        else:
            out.append("C,%d,%d,%d,%d,%d,%d" % (token, grid, grid + period, vsync(output, target), start, end))
        f = r.random()
        delay = r.choice([0, 1, 1, 2, 2, 3, 4]) if r.random() < 0.98 else r.randint(17, 24)
        if f < 0.86:
            shown = target + r.choice([0, 0, 0, 0, 1, 1, 2, -1, 5])
            shown = max(shown, 1)
            present = display_present(output, shown) if output != 3 else vsync(output, shown)
            if present == -1 or r.random() < 0.05:
                present = vsync(output, shown) + r.randint(-MS, MS)  # the client saw its own time
            flags = r.choices([7, 1, 3, 0], weights=[90, 5, 3, 2])[0]
            g = r.random()
            if g < 0.90:
                line = "Q,%d,%d,%d,%d,%d,%d" % (token, present, period, flags, shown, output)
            elif g < 0.95:
                line = "Q,%d,%d,%d,%d,0,%d" % (token, present, period, flags, output)  # no MSC
            else:
                line = "P,%d,%d,%d,%d" % (token, present, period, flags)           # no output either
            later(i + delay, line)
            if r.random() < 0.01:
                later(i + delay + 1, line)                                          # answered twice
        elif f < 0.93:
            later(i + delay, "D,%d,%d" % (token, period))
        elif f < 0.94:
            later(i + delay, "Q,%d,%d,%d,7,%d,%d" % (token + 5_000_000, grid, period, target, output))
        # else: never answered
        lines = due.pop(i, [])
        r.shuffle(lines)
        out.extend(lines)
        if r.random() < 0.02:
            out.append("W,%d" % (vsync(output, msc_now[output]) + r.randint(0, 200 * MS)))
        if r.random() < 0.002:
            out.append("F")
        i += 1
    last = out[-1].split(",") if out else []
    if last[0:1] == ["Q"] and last[5] != "0" and r.random() < 0.3:
        # A poll exactly the join wait after the last present: that frame still waits.
        out.append("W,%d" % (int(last[2]) + WAIT))
    # What the compositor has reported by the next phase: ahead of all of its frames, of some,
    # of none (this phase's last frames join at the next phase's first call, if within the join
    # wait), or nothing new at all. Before the kill: nothing, then the frames waiting at the
    # end of the phase, so that the kill finds frames whose display frame is only in the old ring.
    n = r.randint(4, 48)
    k = r.random()
    if a.kill and not kill_after and not killed and i + n >= a.count // 2:
        kill_after = True
    elif kill_after:
        # Three frames presented on output 1 beyond what the compositor reported, whose display
        # frames then go into the old ring only: waiting when the daemon dies, they must be
        # joined from the old ring when the clients map the new one.
        base = fed_upto[1]
        for m in range(base + 1, base + 4):
            token += 1
            t = vsync(1, m)
            out.append("C,%d,%d,%d,%d,%d,%d" % (token, t - 2 * PERIOD[1], t - PERIOD[1], t, t - 2 * PERIOD[1],
                                                t - PERIOD[1] - MS))
            present = display_present(1, m)
            out.append("Q,%d,%d,%d,7,%d,1" % (token, present if present != -1 else t, PERIOD[1], m))
            for o in PERIOD:
                msc_now[o] = max(msc_now[o], (t - BASE[o]) // PERIOD[o])
        out.extend(feed({1: base + 3, 2: fed_upto[2]}))
    elif k < 0.6:
        out.extend(feed({o: msc_now[o] + 2 * n + 12 for o in (1, 2)}))
    elif k < 0.75:
        out.extend(feed({o: msc_now[o] + n for o in (1, 2)}))
    elif k < 0.9:
        out.extend(feed({o: msc_now[o] + 3 for o in (1, 2)}))
    out.append("S")
    if kill_after and not killed and i >= a.count // 2:
        out.append("K")
        killed = True
        kill_after = False
    if len(out) > 10000:
        print("\n".join(out))
        out.clear()
for j in sorted(due):
    out.extend(due[j])
out.append("W,%d" % (vsync(output, msc_now[output]) + 10_000 * MS))
out.append("F")
out.append("S")
print("\n".join(out))
