package io.gfxstats.replay;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Spaces frames at a fixed rate on a drift-free schedule: frame {@code k} is due at
 * {@code start + k / fps} seconds, {@code start} being the moment frame 0 was asked for. Each
 * wait is computed from that schedule, never from the previous frame, so the time spent
 * recording (or a pause of the process) does not add up: a late frame is not waited for, and
 * the frames after it catch up until the schedule is met again.
 */
public final class FramePacer {
    /** Parks the calling thread; injectable so the schedule can be tested without sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    /** The highest rate accepted: a microsecond per frame is already far below any display's. */
    public static final double MAX_RATE = 1_000_000;

    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private final double framesPerSecond;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private long start;
    private boolean started;

    private FramePacer(double framesPerSecond, LongSupplier nanoClock, Sleeper sleeper) {
        this.framesPerSecond = framesPerSecond;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    /** No pacing: every frame is due at once. */
    public static FramePacer unpaced() {
        return new FramePacer(0, System::nanoTime, FramePacer::park);
    }

    /** {@code fps} frames per second on the system's monotonic clock. */
    public static FramePacer atRate(double fps) {
        return atRate(fps, System::nanoTime, FramePacer::park);
    }

    /** {@code fps} frames per second on the given monotonic nanosecond clock and sleeper. */
    public static FramePacer atRate(double fps, LongSupplier nanoClock, Sleeper sleeper) {
        requireValidRate(fps);
        return new FramePacer(fps, nanoClock, sleeper);
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
     */
    public void awaitFrame(long index) throws InterruptedException {
        if (!isPaced()) {
            return;
        }
        if (!started) {
            start = nanoClock.getAsLong();
            started = true;
        }
        long due = start + offsetNanos(index);
        for (long left = due - nanoClock.getAsLong(); left > 0; left = due - nanoClock.getAsLong()) {
            sleeper.sleepNanos(left);
        }
    }

    private static void park(long nanos) throws InterruptedException {
        LockSupport.parkNanos(nanos);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }
}
