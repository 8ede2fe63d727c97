package io.gfxstats.replay;

import io.gfxstats.demo.Pacer;

/**
 * Spaces frames at a fixed rate on a drift-free schedule: frame {@code k} is due at
 * {@code start + k / fps} seconds, {@code start} being the moment frame 0 was asked for. Each
 * wait is computed from that schedule, never from the previous frame, so the time spent
 * recording (or a pause of the process) does not add up: a late frame is not waited for, and
 * the frames after it catch up until the schedule is met again. The waiting itself is
 * {@link Pacer}'s, the one clock-and-wait of the synthetic renderer as well.
 */
public final class FramePacer {
    /** The highest rate accepted: a microsecond per frame is already far below any display's. */
    public static final double MAX_RATE = 1_000_000;

    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private final double framesPerSecond;
    private final Pacer clock;
    private long start;
    private boolean started;

    private FramePacer(double framesPerSecond, Pacer clock) {
        this.framesPerSecond = framesPerSecond;
        this.clock = clock;
    }

    /** No pacing: every frame is due at once. */
    public static FramePacer unpaced() {
        return new FramePacer(0, Pacer.system());
    }

    /** {@code fps} frames per second on the system's monotonic clock. */
    public static FramePacer atRate(double fps) {
        return atRate(fps, Pacer.system());
    }

    /** {@code fps} frames per second on the given clock (tests pass one that only moves when waited on). */
    public static FramePacer atRate(double fps, Pacer clock) {
        requireValidRate(fps);
        return new FramePacer(fps, clock);
    }

    /** @throws IllegalArgumentException unless {@code 0 < fps <= MAX_RATE} */
    public static double requireValidRate(double fps) {
        if (!(fps > 0 && fps <= MAX_RATE)) {
            throw new IllegalArgumentException("rate must be a number of frames per second in (0, "
                    + (long) MAX_RATE + "], got " + fps);
        }
        return fps;
    }

    public boolean isPaced() {
        return framesPerSecond > 0;
    }

    /** Frames per second, 0 when unpaced. */
    public double framesPerSecond() {
        return framesPerSecond;
    }

    /** Schedule offset of frame {@code index} from the start, in nanoseconds. */
    public long offsetNanos(long index) {
        return isPaced() ? Math.round(index * NANOS_PER_SECOND / framesPerSecond) : 0;
    }

    /**
     * Returns when frame {@code index} (0-based, increasing) is due. Frame 0 starts the schedule
     * and is due at once.
     *
     * @throws InterruptedException when the thread is interrupted while waiting (or before)
     */
    public void awaitFrame(long index) throws InterruptedException {
        if (!isPaced()) {
            return;
        }
        if (!started) {
            start = clock.nanoTime();
            started = true;
        }
        clock.sleepUntil(start + offsetNanos(index));
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }
}
