package io.gfxstats.timeline.perfetto;

/**
 * A Perfetto trace of a 60 Hz game for the report's pictures and checks: 600 app frames of varied
 * durations on one layer and SurfaceFlinger's display frames, with app misses, SurfaceFlinger CPU
 * misses, buffer stuffing, prediction errors and dropped frames at known places.
 */
public final class GameFrameTimeline {
    public static final int FRAMES = 600;
    public static final int APP_PID = 4242;
    public static final int SF_PID = 666;
    private static final long PERIOD = 16_666_667;
    private static final int NONE = 1;
    private static final int APP = 64;
    private static final int SF_CPU = 16;
    private static final int STUFFING = 128;
    private static final int PREDICTION = 4;
    private static final int DROPPED = 1024;

    /** The trace, and how many of its actual SurfaceFrames carry a jank type. */
    public record Trace(byte[] bytes, int jankySurfaces) {
    }

    private GameFrameTimeline() {
    }

    public static Trace write() {
        TraceBuilder b = new TraceBuilder().process(APP_PID, 1, "com.example.game").process(SF_PID, 1,
                "/system/bin/surfaceflinger");
        long cookie = 1;
        int janky = 0;
        for (int i = 0; i < FRAMES; i++) {
            long t0 = 1_000_000_000L + i * PERIOD;
            long display = 2L * i + 1;
            long surface = 2L * i + 2;
            // A calm 6-11 ms, a busier stretch in the middle, and the occasional long frame.
            long dur = 6_000_000 + (i * 7919L % 5_000_000) + (i > 250 && i < 350 ? 4_000_000 : 0);
            int surfaceJank = NONE;
            int displayJank = NONE;
            int present = 1;
            if (i % 37 == 5) {
                dur = 22_000_000 + (i % 5) * 4_000_000;
                surfaceJank = APP;
                present = 2;
            } else if (i % 53 == 11) {
                displayJank = SF_CPU;
                surfaceJank = SF_CPU;
                present = 2;
            } else if (i % 71 == 17) {
                surfaceJank = STUFFING;
                present = 2;
            } else if (i % 97 == 23) {
                surfaceJank = PREDICTION;
                present = 2;
            } else if (i % 89 == 31) {
                surfaceJank = DROPPED;
                present = 4;
            }
            janky += surfaceJank != NONE ? 1 : 0;
            long ed = cookie++;
            long ad = cookie++;
            long es = cookie++;
            long as = cookie++;
            String layer = "SurfaceView[com.example.game]#0";
            b.expectedSurfaceStart(t0 - PERIOD, es, surface, display, APP_PID, layer)
                    .actualSurfaceStart(t0 - PERIOD + 50_000, as, surface, display, APP_PID, layer, present,
                            surfaceJank == NONE, false, surfaceJank, 1, TraceBuilder.NO_SEVERITY)
                    .expectedDisplayStart(t0, ed, display, SF_PID)
                    .actualDisplayStart(t0 + 100_000, ad, display, SF_PID, displayJank == NONE ? 1 : 2,
                            displayJank == NONE, false, displayJank, 1, TraceBuilder.NO_SEVERITY)
                    .frameEnd(t0, es)
                    .frameEnd(t0 - PERIOD + 50_000 + dur, as)
                    .frameEnd(t0 + PERIOD, ed)
                    .frameEnd(t0 + 100_000 + (displayJank == NONE ? 9_000_000 : 21_000_000), ad);
        }
        return new Trace(b.zstd(), janky);
    }
}
