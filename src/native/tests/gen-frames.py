#!/usr/bin/env python3
"""Random frame streams for the differential tests: the same seed gives the same lines.

--format times      intended_vsync,vsync,frame_completed,gpu_completed,frame_interval
--format frameinfo  the 23 FrameInfo fields of Android 12+ (what `gfxstats record --format
                    framestats` and `gfxstats-drive --frameinfo` read), complete frames only
                    (framestats readers skip frames still in flight: FrameCompleted not after
                    IntendedVsync, GpuCompleted 0)

The mix is meant to reach every branch of the rules: steady frames, stuffed (triple-buffered)
pipelines, late and very late frames (slow histogram buckets), GPU before or after the CPU,
missed vsyncs, frame intervals of 0 (the default), tiny intervals (thresholds of 0), intended
vsyncs of 0 or below, canvas and other flags, and SyncQueued-SyncStart stalls.

--scene-rate R puts a scene switch "@SINCE,NAME" before a frame with probability R (what
gfxstats-drive and tests/SceneDrive.java read), SINCE within 50 ms of the frame's intended vsync
(before or after the frames it cuts); --default-share F writes that share of the switches as
session default-scene switches "@@SINCE,NAME" (never to "" or "(other)"). The names are
--scene-names (separated by "|"; an empty one returns to the default scene) plus
s0..s(K-1) of --scene-numbered K. The switches have their own random sequence, so the frames are
the same with and without them. Every frame is kept, hours-long ones and sub-ms intervals too."""
import argparse
import random
import sys

MS = 1_000_000
INTERVALS = [16_666_667] * 12 + [0] * 3 + [8_333_333, 11_111_111, 33_333_333, 6_944_444, 1, 3, 7, 9, 41_666_667]


def uniform(r):
    """A uniform integer in [a, b] from one r.random(): several times faster than r.randint, and
    the generator draws a few dozen of them a frame (a million frames a test)."""
    rnd = r.random

    def ri(a, b):
        return a + int(rnd() * (b - a + 1))
    return rnd, ri


def times(r, n):
    rnd, ri = uniform(r)
    t = 10**12 + ri(0, 10**9)
    interval = 16_666_667
    for _ in range(n):
        if rnd() < 0.05:
            interval = INTERVALS[int(rnd() * len(INTERVALS))]
        step = interval if interval > 0 else 16_666_667
        intended = t
        if rnd() < 0.002:
            intended = 0 if rnd() < 0.5 else -ri(1, 10**9)
        k = int(rnd() * 9)  # vsync: on time 6 in 9, else a little late, late, or early
        vsync = intended + (0 if k < 6 else ri(1, 2 * MS) if k == 6 else ri(2 * MS, 40 * MS) if k == 7
                            else -ri(1, MS))
        # The frame's duration: mostly short, some late, a few very late, a few odd.
        x = rnd()
        if x < 0.70:
            d = ri(1 * MS, 18 * MS)
        elif x < 0.90:
            d = ri(18 * MS, 60 * MS)
        elif x < 0.97:
            d = ri(60 * MS, 800 * MS)
        elif x < 0.99:
            d = ri(800 * MS, 6000 * MS)
        else:
            k = int(rnd() * 3)
            d = 0 if k == 0 else -ri(1, 5 * MS) if k == 1 else ri(1, 999)
        completed = vsync + d
        g = rnd()
        if g < 0.3:
            gpu = completed
        elif g < 0.9:
            gpu = completed + ri(0, 30 * MS)
        elif g < 0.95:
            gpu = completed - ri(1, 5 * MS)
        elif g < 0.98:
            gpu = completed + ri(30 * MS, 3000 * MS)
        else:
            gpu = 0 if rnd() < 0.5 else -1
        yield f"{intended},{vsync},{completed},{gpu},{interval}\n"
        # Pipelines: mostly one interval on, sometimes less (stuffed) or a jump (idle).
        y = rnd()
        if y < 0.8:
            t += step
        elif y < 0.9:
            t += ri(0, step)
        elif y < 0.98:
            t += ri(step, 10 * step)
        else:
            t += ri(10**9, 20 * 10**9)


FLAGS = [0] * 20 + [1, 2, 4, 8, 4]


def frameinfo(r, n):
    rnd, ri = uniform(r)
    t = 10**12 + ri(0, 10**9)
    interval = 16_666_667
    for i in range(n):
        if rnd() < 0.05:
            interval = INTERVALS[int(rnd() * len(INTERVALS))]
        step = interval if interval > 0 else 16_666_667
        f = [0] * 23
        f[0] = FLAGS[int(rnd() * len(FLAGS))]
        f[1] = i + 1
        intended = t  # rows must be complete frames: framestats readers skip frames in flight
        f[2] = intended
        k = int(rnd() * 8)
        vsync = intended + (0 if k < 6 else ri(1, 2 * MS) if k == 6 else ri(2 * MS, 40 * MS))
        f[3] = vsync
        f[4] = 0 if rnd() < 0.5 else ri(1, 10**6)
        c = vsync
        for k in (5, 6, 7, 8):  # HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart
            c += ri(0, 3 * MS) if rnd() < 0.9 else ri(3 * MS, 30 * MS)
            f[k] = c if rnd() > 0.05 else 0
        f[9] = intended + interval + (interval if rnd() < 0.2 else 0)  # FrameDeadline
        f[10] = vsync  # FrameStartTime
        f[11] = interval
        c += ri(0, 2 * MS)
        f[12] = c if rnd() > 0.03 else 0  # SyncQueued
        c += ri(0, MS) if rnd() < 0.9 else ri(MS, 50 * MS)
        f[13] = c  # SyncStart
        c += ri(0, 4 * MS) if rnd() < 0.85 else ri(4 * MS, 60 * MS)
        f[14] = c  # IssueDrawCommandsStart
        c += ri(0, 6 * MS) if rnd() < 0.85 else ri(6 * MS, 400 * MS)
        f[15] = c  # SwapBuffers
        c += ri(0, 2 * MS)
        f[16] = c  # FrameCompleted
        f[17] = 0 if rnd() < 0.5 else ri(0, 3 * MS)
        f[18] = 0 if rnd() < 0.5 else ri(0, MS)
        g = rnd()
        f[19] = f[16] + ri(0, 20 * MS) if g < 0.8 else (f[16] if g < 0.9 else f[15] - ri(1, MS))
        k = int(rnd() * 3)
        f[20] = f[16] + (0 if k == 0 else ri(0, 2 * MS) if k == 1 else -ri(1, 2 * MS))
        f[21] = 0 if rnd() < 0.5 else f[16] + ri(0, 30 * MS)
        f[22] = 0 if rnd() < 0.5 else f[16]
        yield ",".join(map(str, f)) + "\n"
        y = rnd()
        if y < 0.8:
            t += step
        elif y < 0.9:
            t += ri(0, step)
        elif y < 0.98:
            t += ri(step, 10 * step)
        else:
            t += ri(10**9, 20 * 10**9)


class SceneSwitches:
    """Puts a scene switch line before each frame with probability rate."""

    def __init__(self, seed, column, rate, names, default_share):
        self.column, self.rate, self.names = column, rate, names
        self.r = random.Random(seed)
        self.default_share = default_share
        self.defaults = [n for n in names if n and n != "(other)"]

    def before(self, line, emit):
        x = self.r.random()
        if x < self.rate:
            at = int(line.split(",", self.column + 1)[self.column]) + self.r.randint(-50 * MS, 50 * MS)
            if x < self.rate * self.default_share:
                emit("@@%d,%s\n" % (at, self.r.choice(self.defaults)))
            else:
                emit("@%d,%s\n" % (at, self.r.choice(self.names)))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--format", choices=["times", "frameinfo"], default="times")
    p.add_argument("--scene-rate", type=float, default=0.0)
    p.add_argument("--scene-names", default="menu|level 1|")
    p.add_argument("--scene-numbered", type=int, default=0)
    p.add_argument("--default-share", type=float, default=0.0)
    a = p.parse_args()
    r = random.Random(a.seed)
    switches = None
    if a.scene_rate > 0:
        names = a.scene_names.split("|") + ["s%d" % i for i in range(a.scene_numbered)]
        column = 0 if a.format == "times" else 2  # the intended vsync
        switches = SceneSwitches(a.seed, column, a.scene_rate, names, a.default_share)
    lines = []
    emit = lines.append
    for line in (times if a.format == "times" else frameinfo)(r, a.count):
        if switches is not None:
            switches.before(line, emit)
        emit(line)
        if len(lines) >= 8192:
            sys.stdout.write("".join(lines))
            lines.clear()
    sys.stdout.write("".join(lines))


if __name__ == "__main__":
    main()
