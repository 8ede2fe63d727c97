package io.gfxstats.frame;

import java.util.SplittableRandom;

/**
 * Seeded random frame sequences in the modern field order: mostly plausible pipelines (on time,
 * late in one stage or another, stuffed behind a late frame, paused, surface-canvas, very long
 * and stalled frames), with occasional zero or garbage fields, at intervals that change between
 * 8.3, 11.1 and 16.6 ms.
 */
final class RandomFrames {
    static final long[] INTERVALS = {8_333_333L, 11_111_111L, 16_666_667L};
    private static final long MS = 1_000_000L;
    /** The fields the trackers read, favoured when a field is broken on purpose. */
    private static final int[] TIMED = {
        ReferenceJankModel.INTENDED_VSYNC, ReferenceJankModel.VSYNC, ReferenceJankModel.FRAME_DEADLINE,
        ReferenceJankModel.FRAME_INTERVAL, ReferenceJankModel.SYNC_QUEUED, ReferenceJankModel.SYNC_START,
        ReferenceJankModel.ISSUE_DRAW_COMMANDS_START, ReferenceJankModel.SWAP_BUFFERS,
        ReferenceJankModel.FRAME_COMPLETED, ReferenceJankModel.GPU_COMPLETED, ReferenceJankModel.SWAP_BUFFERS_COMPLETED,
    };

    private final SplittableRandom random;
    private long interval;
    private long vsync;

    RandomFrames(long seed) {
        this.random = new SplittableRandom(seed);
        this.interval = INTERVALS[random.nextInt(INTERVALS.length)];
        this.vsync = 1_000_000_000_000L + random.nextLong(1_000_000_000L);
    }

    long[] next() {
        if (random.nextInt(300) == 0) {
            interval = INTERVALS[random.nextInt(INTERVALS.length)];
        }
        // Usually the next vsync; sometimes skipped vsyncs or a pause of seconds.
        int roll = random.nextInt(100);
        if (roll < 3) {
            vsync += random.nextLong(100 * MS, 5_000 * MS);
        } else if (roll < 15) {
            vsync += interval * (1 + random.nextInt(4));
        } else {
            vsync += interval;
        }
        long[] f = new long[ReferenceJankModel.FIELDS];
        long intended = vsync;
        f[1] = random.nextLong(1, 10_000_000);
        f[ReferenceJankModel.INTENDED_VSYNC] = intended;
        long vsyncActual = random.nextInt(10) == 0 ? intended + interval * random.nextInt(1, 4) : intended;
        f[ReferenceJankModel.VSYNC] = vsyncActual;
        f[5] = vsyncActual + stage(0.05);
        f[6] = f[5] + stage(0.05);
        f[7] = f[6] + stage(0.1);
        f[8] = f[7] + stage(0.15);
        f[ReferenceJankModel.FRAME_DEADLINE] = intended + interval * (random.nextInt(4) == 0 ? 2 : 1);
        f[10] = f[5] - random.nextLong(MS);
        f[ReferenceJankModel.FRAME_INTERVAL] = interval;
        f[ReferenceJankModel.SYNC_QUEUED] = f[8] + stage(0.2);
        // Stall waiting for the render thread, charged to the previous frame.
        f[ReferenceJankModel.SYNC_START] = f[ReferenceJankModel.SYNC_QUEUED]
                + (random.nextInt(5) == 0 ? stage(0.8) : random.nextLong(200_000));
        f[ReferenceJankModel.ISSUE_DRAW_COMMANDS_START] = f[ReferenceJankModel.SYNC_START]
                + stage(random.nextInt(15) == 0 ? 0.6 : 0.15);
        f[ReferenceJankModel.SWAP_BUFFERS] = f[ReferenceJankModel.ISSUE_DRAW_COMMANDS_START]
                + stage(random.nextInt(15) == 0 ? 1.2 : 0.4);
        f[ReferenceJankModel.FRAME_COMPLETED] = f[ReferenceJankModel.SWAP_BUFFERS] + stage(0.2);
        f[17] = random.nextLong(2 * MS);
        f[18] = random.nextLong(2 * MS);
        int gpuRoll = random.nextInt(20);
        if (gpuRoll == 0) {
            f[ReferenceJankModel.GPU_COMPLETED] = 0;
        } else if (gpuRoll == 1) {
            f[ReferenceJankModel.GPU_COMPLETED] = f[ReferenceJankModel.SWAP_BUFFERS];
        } else if (gpuRoll == 2) {
            f[ReferenceJankModel.GPU_COMPLETED] = f[ReferenceJankModel.SWAP_BUFFERS] - random.nextLong(1, 2 * MS);
        } else {
            f[ReferenceJankModel.GPU_COMPLETED] = f[ReferenceJankModel.SWAP_BUFFERS] + stage(random.nextInt(10) == 0 ? 2.5 : 0.4);
        }
        f[ReferenceJankModel.SWAP_BUFFERS_COMPLETED] = f[ReferenceJankModel.SWAP_BUFFERS] + random.nextLong(3 * MS)
                + (random.nextInt(8) == 0 ? stage(1.5) : 0);
        f[21] = random.nextInt(3) == 0 ? 0 : f[ReferenceJankModel.GPU_COMPLETED] + interval;
        f[22] = f[ReferenceJankModel.SWAP_BUFFERS];

        int kind = random.nextInt(1000);
        if (kind < 50) {
            f[ReferenceJankModel.FLAGS] |= ReferenceJankModel.SURFACE_CANVAS;
        } else if (kind < 60) {
            f[ReferenceJankModel.FLAGS] = random.nextLong(16);
        }
        if (kind >= 100 && kind < 110) {
            // A very long frame, sometimes a stall past the 10 s cap in one stage.
            long extra = switch (random.nextInt(3)) {
                case 0 -> random.nextLong(100 * MS, 300 * MS);
                case 1 -> random.nextLong(600 * MS, 5_500 * MS);
                default -> random.nextLong(9_000 * MS, 12_000 * MS);
            };
            int from = random.nextInt(4);
            int[] stages = {ReferenceJankModel.VSYNC, ReferenceJankModel.SYNC_QUEUED,
                ReferenceJankModel.ISSUE_DRAW_COMMANDS_START, ReferenceJankModel.FRAME_COMPLETED};
            for (int i = stages[from]; i < ReferenceJankModel.FIELDS; i++) {
                if (i != 17 && i != 18 && i != ReferenceJankModel.FRAME_INTERVAL && f[i] > 0) {
                    f[i] += extra;
                }
            }
        }
        if (kind >= 200 && kind < 240) {
            // Zero or garbage in a random field (in-flight rows, broken producers).
            int field = random.nextBoolean() ? random.nextInt(ReferenceJankModel.FIELDS) : TIMED[random.nextInt(TIMED.length)];
            f[field] = switch (random.nextInt(5)) {
                case 0 -> 0;
                case 1 -> (1L << 56) + random.nextLong(1L << 58);
                case 2 -> -random.nextLong(1, 1_000_000_000L);
                case 3 -> random.nextLong(50 * MS);
                default -> f[field] + random.nextLong(-40 * MS, 40 * MS);
            };
        }
        return f;
    }

    /** A stage duration: mostly a fraction of the interval, with a heavy tail. */
    private long stage(double typicalFraction) {
        double base = typicalFraction * interval * random.nextDouble(0.2, 1.2);
        if (random.nextInt(12) == 0) {
            base *= random.nextDouble(1.5, 6);
        }
        return (long) base;
    }

    static FrameInfo toFrameInfo(long[] fields, FrameInfo into) {
        for (int i = 0; i < fields.length; i++) {
            into.set(i, fields[i]);
        }
        return into;
    }
}
