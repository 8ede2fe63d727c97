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


def duration(r):
    x = r.random()
    if x < 0.70:
        return r.randint(1 * MS, 18 * MS)
    if x < 0.90:
        return r.randint(18 * MS, 60 * MS)
    if x < 0.97:
        return r.randint(60 * MS, 800 * MS)
    if x < 0.99:
        return r.randint(800 * MS, 6000 * MS)
    return r.choice([0, -r.randint(1, 5 * MS), r.randint(1, 999)])


def times(r, n, out):
    t = 10**12 + r.randint(0, 10**9)
    interval = 16_666_667
    for _ in range(n):
        if r.random() < 0.05:
            interval = r.choice(INTERVALS)
        step = interval if interval > 0 else 16_666_667
        intended = t
        x = r.random()
        if x < 0.002:
            intended = r.choice([0, -r.randint(1, 10**9)])
        vsync = intended + r.choice([0] * 6 + [r.randint(1, 2 * MS), r.randint(2 * MS, 40 * MS), -r.randint(1, MS)])
        completed = vsync + duration(r)
        g = r.random()
        if g < 0.3:
            gpu = completed
        elif g < 0.9:
            gpu = completed + r.randint(0, 30 * MS)
        elif g < 0.95:
            gpu = completed - r.randint(1, 5 * MS)
        elif g < 0.98:
            gpu = completed + r.randint(30 * MS, 3000 * MS)
        else:
            gpu = r.choice([0, -1])
        out.write(f"{intended},{vsync},{completed},{gpu},{interval}\n")
        # Pipelines: mostly one interval on, sometimes less (stuffed) or a jump (idle).
        y = r.random()
        if y < 0.8:
            t += step
        elif y < 0.9:
            t += r.randint(0, step)
        elif y < 0.98:
            t += r.randint(step, 10 * step)
        else:
            t += r.randint(10**9, 20 * 10**9)


def frameinfo(r, n, out):
    t = 10**12 + r.randint(0, 10**9)
    interval = 16_666_667
    for i in range(n):
        if r.random() < 0.05:
            interval = r.choice(INTERVALS)
        step = interval if interval > 0 else 16_666_667
        f = [0] * 23
        f[0] = r.choice([0] * 20 + [1, 2, 4, 8, 4])
        f[1] = i + 1
        intended = t  # rows must be complete frames: framestats readers skip frames in flight
        f[2] = intended
        vsync = intended + r.choice([0] * 6 + [r.randint(1, 2 * MS), r.randint(2 * MS, 40 * MS)])
        f[3] = vsync
        f[4] = r.choice([0, r.randint(1, 10**6)])
        c = vsync
        for k in (5, 6, 7, 8):  # HandleInputStart, AnimationStart, PerformTraversalsStart, DrawStart
            c += r.randint(0, 3 * MS) if r.random() < 0.9 else r.randint(3 * MS, 30 * MS)
            f[k] = c if r.random() > 0.05 else 0
        f[9] = intended + interval + (interval if r.random() < 0.2 else 0)  # FrameDeadline
        f[10] = vsync  # FrameStartTime
        f[11] = interval
        c += r.randint(0, 2 * MS)
        f[12] = c if r.random() > 0.03 else 0  # SyncQueued
        c += r.randint(0, MS) if r.random() < 0.9 else r.randint(MS, 50 * MS)
        f[13] = c  # SyncStart
        c += r.randint(0, 4 * MS) if r.random() < 0.85 else r.randint(4 * MS, 60 * MS)
        f[14] = c  # IssueDrawCommandsStart
        c += r.randint(0, 6 * MS) if r.random() < 0.85 else r.randint(6 * MS, 400 * MS)
        f[15] = c  # SwapBuffers
        c += r.randint(0, 2 * MS)
        f[16] = c  # FrameCompleted
        f[17] = r.choice([0, r.randint(0, 3 * MS)])
        f[18] = r.choice([0, r.randint(0, MS)])
        g = r.random()
        f[19] = f[16] + r.randint(0, 20 * MS) if g < 0.8 else (f[16] if g < 0.9 else f[15] - r.randint(1, MS))
        f[20] = f[16] + r.choice([0, r.randint(0, 2 * MS), -r.randint(1, 2 * MS)])
        f[21] = r.choice([0, f[16] + r.randint(0, 30 * MS)])
        f[22] = r.choice([0, f[16]])
        out.write(",".join(str(v) for v in f) + "\n")
        y = r.random()
        if y < 0.8:
            t += step
        elif y < 0.9:
            t += r.randint(0, step)
        elif y < 0.98:
            t += r.randint(step, 10 * step)
        else:
            t += r.randint(10**9, 20 * 10**9)


class SceneSwitches:
    """Writes the frames, each after a scene switch line with probability rate."""

    def __init__(self, out, seed, column, rate, names, default_share):
        self.out, self.column, self.rate, self.names = out, column, rate, names
        self.r = random.Random(seed)
        self.default_share = default_share
        self.defaults = [n for n in names if n and n != "(other)"]

    def write(self, line):
        x = self.r.random()
        if x < self.rate:
            at = int(line.split(",", self.column + 1)[self.column]) + self.r.randint(-50 * MS, 50 * MS)
            if x < self.rate * self.default_share:
                self.out.write("@@%d,%s\n" % (at, self.r.choice(self.defaults)))
            else:
                self.out.write("@%d,%s\n" % (at, self.r.choice(self.names)))
        self.out.write(line)


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
    out = sys.stdout
    if a.scene_rate > 0:
        names = a.scene_names.split("|") + ["s%d" % i for i in range(a.scene_numbered)]
        column = 0 if a.format == "times" else 2  # the intended vsync
        out = SceneSwitches(out, a.seed, column, a.scene_rate, names, a.default_share)
    (times if a.format == "times" else frameinfo)(r, a.count, out)


if __name__ == "__main__":
    main()
