package io.gfxstats.trace;

/**
 * How expected times (vsync {@code now}/{@code expectedEnd}, CLOCK_MONOTONIC on the device) are put
 * on the trace clock (spec 2.4): {@code auto} estimates the offset from the trace, {@code none} uses
 * them raw as trace_streamer does for text, a number adds that many nanoseconds.
 */
public record ClockOffset(Mode mode, long nanos) {
    public enum Mode { AUTO, NONE, FIXED }

    public static final ClockOffset AUTO = new ClockOffset(Mode.AUTO, 0);
    public static final ClockOffset NONE = new ClockOffset(Mode.NONE, 0);

    public static ClockOffset fixed(long nanos) {
        return new ClockOffset(Mode.FIXED, nanos);
    }

    /** {@code auto}, {@code none} or a whole number of nanoseconds (may be negative). */
    public static ClockOffset parse(String text) {
        String t = text.trim();
        if (t.equals("auto")) {
            return AUTO;
        }
        if (t.equals("none")) {
            return NONE;
        }
        try {
            return fixed(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--clock-offset takes auto, none or a whole number of nanoseconds, got '"
                    + text + "'");
        }
    }

    /** The offset used and where it came from. */
    public record Applied(long nanos, String source) {
        @Override
        public String toString() {
            return nanos + " ns (" + source + ")";
        }
    }
}
