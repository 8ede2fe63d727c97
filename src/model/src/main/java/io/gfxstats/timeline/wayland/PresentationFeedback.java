package io.gfxstats.timeline.wayland;

/**
 * The values of Wayland's {@code wp_presentation_feedback.presented} event (presentation-time
 * protocol, spec 6.1) as the client receives them, turned into what the timeline needs. Static
 * and allocation-free: call from the event handler with the raw arguments (unsigned 32-bit
 * protocol values arrive in Java ints).
 */
public final class PresentationFeedback {
    /** The presentation was synchronised to vertical retrace: no tearing. */
    public static final int KIND_VSYNC = 0x1;
    /** The timestamp comes from a hardware clock. */
    public static final int KIND_HW_CLOCK = 0x2;
    /** Hardware signalled the completion of the flip. */
    public static final int KIND_HW_COMPLETION = 0x4;
    /** The client's buffer was scanned out directly (not composited on the GPU). */
    public static final int KIND_ZERO_COPY = 0x8;

    private PresentationFeedback() {
    }

    /**
     * The presentation time in nanoseconds of the presentation clock (compare only when the
     * {@code clock_id} event said CLOCK_MONOTONIC): {@code tv_sec} is the 64-bit value of
     * {@code tv_sec_hi:tv_sec_lo}.
     */
    public static long timestampNanos(int tvSecHi, int tvSecLo, int tvNsec) {
        long seconds = (Integer.toUnsignedLong(tvSecHi) << 32) | Integer.toUnsignedLong(tvSecLo);
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), Integer.toUnsignedLong(tvNsec));
    }

    /** The output's vertical retrace counter (MSC) of {@code seq_hi:seq_lo}; 0 when the output has none. */
    public static long sequence(int seqHi, int seqLo) {
        return (Integer.toUnsignedLong(seqHi) << 32) | Integer.toUnsignedLong(seqLo);
    }

    /** The refresh period in nanoseconds ({@code refresh}, unsigned; 0 when unknown or variable). */
    public static long refreshNanos(int refresh) {
        return Integer.toUnsignedLong(refresh);
    }

    /** Whether the timestamp is a measurement rather than an estimate (hardware clock or completion). */
    public static boolean isMeasured(int flags) {
        return (flags & (KIND_HW_CLOCK | KIND_HW_COMPLETION)) != 0;
    }

    /** Whether the frame was presented without tearing. */
    public static boolean isVsynced(int flags) {
        return (flags & KIND_VSYNC) != 0;
    }

    /** GPU composition as well as the protocol tells it: anything but a zero-copy scan-out. */
    public static boolean isGpuComposited(int flags) {
        return (flags & KIND_ZERO_COPY) == 0;
    }
}
