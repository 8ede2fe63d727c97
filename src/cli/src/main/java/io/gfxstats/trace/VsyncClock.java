package io.gfxstats.trace;

/**
 * The evidence for the offset between the vsync clock ({@code now}, CLOCK_MONOTONIC on the device)
 * and the trace clock (spec 2.4), gathered during the pass, and the offset it gives. The minimum of
 * (line ts - now) is taken because each line is logged just after its vsync, never before it.
 */
final class VsyncClock {
    private long minVsyncLineOffset = Long.MAX_VALUE;
    private long vsyncNowLines;
    private long minRsReceiveVsyncOffset = Long.MAX_VALUE;
    private long rsReceiveVsyncs;

    /** An {@code H:VSync now:<now>} line at {@code ts}. */
    void vsyncNow(long ts, long now) {
        vsyncNowLines++;
        minVsyncLineOffset = Math.min(minVsyncLineOffset, ts - now);
    }

    /** A RenderService ({@code name:rs}) ReceiveVsync at {@code ts}. */
    void renderServiceReceiveVsync(long ts, long now) {
        rsReceiveVsyncs++;
        minRsReceiveVsyncOffset = Math.min(minRsReceiveVsyncOffset, ts - now);
    }

    /** The offset {@code clock} asks for; {@code ohos} gives the last resort of {@code auto}. */
    ClockOffset.Applied applied(ClockOffset clock, OhosFrames ohos) {
        return switch (clock.mode()) {
            case NONE -> new ClockOffset.Applied(0, "none: raw now/expectedEnd, as trace_streamer reads text");
            case FIXED -> new ClockOffset.Applied(clock.nanos(), "given");
            case AUTO -> estimate(ohos);
        };
    }

    /** The best evidence first: VSync lines, then RenderService's ReceiveVsync, then its frames. */
    private ClockOffset.Applied estimate(OhosFrames ohos) {
        if (vsyncNowLines > 0) {
            return new ClockOffset.Applied(minVsyncLineOffset,
                    "auto: min(line ts - now) over " + vsyncNowLines + " 'H:VSync now:' lines");
        }
        if (rsReceiveVsyncs > 0) {
            return new ClockOffset.Applied(minRsReceiveVsyncOffset,
                    "auto: min(ReceiveVsync ts - now) over " + rsReceiveVsyncs + " 'name:rs' ReceiveVsync lines");
        }
        long fallback = ohos.minRenderStartMinusNow();
        if (fallback != Long.MAX_VALUE) {
            return new ClockOffset.Applied(fallback, "auto: min(ReceiveVsync ts - now) over the ReceiveVsyncs of composing threads");
        }
        return new ClockOffset.Applied(0, "auto: no vsync clock in the trace, raw");
    }
}
