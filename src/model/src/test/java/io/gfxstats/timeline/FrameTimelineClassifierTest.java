package io.gfxstats.timeline;

import static io.gfxstats.timeline.JankType.APP_DEADLINE_MISSED;
import static io.gfxstats.timeline.JankType.BUFFER_STUFFING;
import static io.gfxstats.timeline.JankType.DISPLAY_HAL;
import static io.gfxstats.timeline.JankType.DROPPED;
import static io.gfxstats.timeline.JankType.NONE;
import static io.gfxstats.timeline.JankType.PREDICTION_ERROR;
import static io.gfxstats.timeline.JankType.SF_CPU_DEADLINE_MISSED;
import static io.gfxstats.timeline.JankType.SF_GPU_DEADLINE_MISSED;
import static io.gfxstats.timeline.JankType.SF_SCHEDULING;
import static io.gfxstats.timeline.JankType.SF_STUFFING;
import static io.gfxstats.timeline.JankType.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The vectors of spec section 5.1 (SurfaceFlinger's FrameTimelineTest, Android 16), in ns with
 * thresholds 2 / 0 / 2 ns. D* are DisplayFrame vectors, S* SurfaceFrame vectors.
 */
class FrameTimelineClassifierTest {
    private static final Thresholds NS = new Thresholds(2, 0, 2);
    private final FrameTimelineClassifier classifier = new FrameTimelineClassifier(NS);

    private static DisplayFrame df(long ps, long pe, long pp, long as, long ae, long ap, long refresh, long render) {
        return new DisplayFrame().set(1, Prediction.VALID, ps, pe, pp, as, ae, ap, refresh, render);
    }

    private static SurfaceFrame sf(long ps, long pe, long pp, long ae) {
        return new SurfaceFrame().set(2, Prediction.VALID, ps, pe, pp, ps, ae, PresentState.PRESENTED, 0);
    }

    private void assertDisplay(DisplayFrame f, PresentMetadata present, FinishMetadata finish, int jank,
            Severity severity) {
        assertEquals(JankType.names(jank, "|"), JankType.names(f.jank(), "|"), "jank");
        assertEquals(present, f.present(), "present");
        assertEquals(finish, f.finish(), "finish");
        assertEquals(severity, f.severity(), "severity");
    }

    private static void assertSurface(SurfaceFrame f, int jank, Severity severity) {
        assertEquals(JankType.names(jank, "|"), JankType.names(f.jank(), "|"), "jank");
        assertEquals(severity, f.severity(), "severity");
    }

    @Test
    void shouldClassifyOnTimeFinishEarlyPresentDisplayFramesD1D2() {
        DisplayFrame d1 = df(22, 30, 40, 22, 26, 30, 11, 11);
        classifier.classify(d1, 0);
        assertDisplay(d1, PresentMetadata.EARLY, FinishMetadata.ON_TIME, SF_SCHEDULING, Severity.PARTIAL);
        DisplayFrame d2 = df(52, 60, 70, 52, 56, 65, 11, 11);
        classifier.classify(d2, 30);
        assertDisplay(d2, PresentMetadata.EARLY, FinishMetadata.ON_TIME, PREDICTION_ERROR, Severity.PARTIAL);
    }

    @Test
    void shouldClassifyOnTimeFinishLatePresentDisplayFramesD3D4() {
        DisplayFrame d3 = df(22, 30, 40, 22, 26, 50, 11, 11);
        classifier.classify(d3, 0);
        assertDisplay(d3, PresentMetadata.LATE, FinishMetadata.ON_TIME, DISPLAY_HAL, Severity.PARTIAL);
        DisplayFrame d4 = df(52, 60, 70, 52, 56, 75, 11, 11);
        classifier.classify(d4, 50);
        assertDisplay(d4, PresentMetadata.LATE, FinishMetadata.ON_TIME, PREDICTION_ERROR, Severity.PARTIAL);
    }

    @Test
    void shouldClassifyLateFinishEarlyPresentDisplayFrameD5() {
        DisplayFrame d5 = df(12, 18, 40, 12, 22, 28, 11, 11);
        classifier.classify(d5, 0);
        assertDisplay(d5, PresentMetadata.EARLY, FinishMetadata.LATE, SF_SCHEDULING, Severity.FULL);
    }

    @Test
    void shouldClassifyLateFinishLatePresentDisplayFramesD6ToD9() {
        DisplayFrame d6 = df(22, 26, 40, 12, 33, 52, 11, 11).gpuFence(36);
        classifier.classify(d6, 0);
        assertDisplay(d6, PresentMetadata.LATE, FinishMetadata.LATE, SF_GPU_DEADLINE_MISSED, Severity.FULL);
        assertEquals(StartMetadata.EARLY, d6.start());

        DisplayFrame d7 = df(52, 60, 60, 52, 56, 90, 30, 30).gpuFence(76);
        classifier.classify(d7, 52);
        assertDisplay(d7, PresentMetadata.LATE, FinishMetadata.LATE, SF_GPU_DEADLINE_MISSED, Severity.FULL);

        DisplayFrame d8 = df(82, 90, 90, 106, 112, 120, 30, 30).gpuFence(116);
        classifier.classify(d8, 90);
        assertDisplay(d8, PresentMetadata.LATE, FinishMetadata.LATE, SF_STUFFING, Severity.FULL);
        assertEquals(StartMetadata.LATE, d8.start());

        DisplayFrame d9 = df(112, 120, 120, 120, 140, 180, 30, 30).gpuFence(156);
        classifier.classify(d9, 120);
        assertDisplay(d9, PresentMetadata.LATE, FinishMetadata.LATE, SF_GPU_DEADLINE_MISSED, Severity.FULL);
    }

    @Test
    void shouldClassifyCpuDeadlineMissWithoutGpuFenceD10() {
        DisplayFrame d10 = df(52, 60, 60, 52, 66, 90, 30, 30);
        classifier.classify(d10, 0);
        assertDisplay(d10, PresentMetadata.LATE, FinishMetadata.LATE, SF_CPU_DEADLINE_MISSED, Severity.FULL);
    }

    @Test
    void shouldClassifyInvalidPresentAsUnknownDisplayHalD11() {
        DisplayFrame d11 = df(52, 60, 60, 52, 59, -1, 11, 11);
        classifier.classify(d11, 0);
        assertDisplay(d11, PresentMetadata.UNKNOWN, FinishMetadata.UNKNOWN, UNKNOWN | DISPLAY_HAL, Severity.UNKNOWN);
        assertEquals(59, d11.classifiedPresent());
        assertEquals(StartMetadata.UNKNOWN, d11.start());
    }

    @Test
    void shouldClassifyPresentFenceErrorsD12() {
        DisplayFrame f1 = df(22, 26, 40, 22, 26, -1, 11, 11);
        classifier.classify(f1, 0);
        assertDisplay(f1, PresentMetadata.UNKNOWN, FinishMetadata.UNKNOWN, UNKNOWN | DISPLAY_HAL, Severity.UNKNOWN);
        assertEquals(26, f1.classifiedPresent());
        DisplayFrame f2 = df(52, 60, 60, 52, 60, 2, 11, 11);
        classifier.classify(f2, -1);
        assertDisplay(f2, PresentMetadata.UNKNOWN, FinishMetadata.UNKNOWN, UNKNOWN | DISPLAY_HAL, Severity.UNKNOWN);
        assertEquals(60, f2.classifiedPresent());
        DisplayFrame f3 = df(72, 80, 80, 72, 80, 80, 11, 11);
        classifier.classify(f3, 2);
        assertDisplay(f3, PresentMetadata.ON_TIME, FinishMetadata.ON_TIME, NONE, Severity.NONE);
    }

    @Test
    void shouldClassifyExpiredDisplayPredictionAsUnknownD13() {
        DisplayFrame d13 = new DisplayFrame().set(1, Prediction.EXPIRED, 0, 0, 0, 52, 60, 70, 11, 11);
        classifier.classify(d13, 0);
        assertDisplay(d13, PresentMetadata.UNKNOWN, FinishMetadata.UNKNOWN, UNKNOWN, Severity.UNKNOWN);
        assertEquals(StartMetadata.UNKNOWN, d13.start());
    }

    /** S1-S3: the display frame's jank propagates; TimeStats deltas (display deadline, to vsync, app deadline). */
    @Test
    void shouldPropagateDisplayJankToOnTimeSurfaceFramesS1S2S3() {
        DisplayFrame d = df(52, 60, 60, 52, 62, 70, 11, 11);
        SurfaceFrame s = sf(10, 20, 60, 20);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, SF_CPU_DEADLINE_MISSED, Severity.PARTIAL);
        assertDeltas(d, s, 2, 10, 0);

        d = df(52, 60, 60, 52, 59, 70, 11, 11).gpuFence(64);
        s = sf(10, 20, 60, 20);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, SF_GPU_DEADLINE_MISSED, Severity.PARTIAL);
        assertDeltas(d, s, 4, 10, 0);

        d = df(52, 60, 60, 52, 56, 90, 30, 30);
        s = sf(10, 20, 60, 20);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, DISPLAY_HAL, Severity.FULL);
        assertDeltas(d, s, -4, 0, 0);
    }

    private static void assertDeltas(DisplayFrame d, SurfaceFrame s, long displayDeadline, long toVsync, long app) {
        assertEquals(displayDeadline, d.deadlineDelta(), "display deadline delta");
        assertEquals(toVsync, d.deltaToVsync(), "display delta to vsync");
        assertEquals(app, s.deadlineDelta(), "app deadline delta");
    }

    @Test
    void shouldReportAppMissWithSeverityFromTheDisplayRenderPeriodS4S5() {
        long period = 1_000_000_000L / 11;
        DisplayFrame d = df(82, 90, 90, 52, 86, 90, period, period);
        SurfaceFrame s = sf(10, 20, 60, 45);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, APP_DEADLINE_MISSED, Severity.PARTIAL);
        assertDeltas(d, s, -4, 0, 25);

        // The layer renders at 30 ns, but severity compares with the display frame's 11 ns.
        d = df(82, 90, 90, 52, 86, 90, 11, 11);
        s = sf(10, 20, 60, 45);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, APP_DEADLINE_MISSED, Severity.FULL);
    }

    @Test
    void shouldReportSfSchedulingAndPredictionErrorS6S7() {
        DisplayFrame d = df(52, 60, 60, 52, 56, 60, 32, 32);
        SurfaceFrame s = sf(40, 60, 92, 50);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertEquals(PresentMetadata.EARLY, s.present());
        assertSurface(s, SF_SCHEDULING, Severity.FULL);
        assertDeltas(d, s, -4, 0, -10);

        d = df(52, 60, 60, 52, 56, 65, 16, 16);
        s = sf(30, 40, 60, 40);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, PREDICTION_ERROR, Severity.PARTIAL);
        assertDeltas(d, s, -4, 5, 0);
    }

    @Test
    void shouldReportBufferStuffingAloneS8() {
        DisplayFrame d = df(82, 90, 90, 82, 86, 90, 32, 32);
        SurfaceFrame s = new SurfaceFrame().set(2, Prediction.VALID, 30, 40, 58, 30, 40, PresentState.PRESENTED, 56);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, BUFFER_STUFFING, Severity.FULL);
        assertEquals(FinishMetadata.ON_TIME, s.finish());
        assertDeltas(d, s, -4, 0, 0);
    }

    @Test
    void shouldGiveSurfacesUnderExpiredDisplayFrameUnknownS9() {
        DisplayFrame d = new DisplayFrame().set(1, Prediction.EXPIRED, 0, 0, 0, 52, 86, 90, 11, 11);
        SurfaceFrame s = sf(10, 20, 60, 45);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, UNKNOWN | APP_DEADLINE_MISSED, Severity.FULL);
    }

    @Test
    void shouldClassifyOnTimeFinishEarlyPresentSurfacesS10() {
        DisplayFrame d = df(22, 30, 40, 22, 27, 30, 11, 11);
        SurfaceFrame s = sf(5, 16, 40, 16);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertEquals(PresentMetadata.EARLY, s.present());
        assertSurface(s, SF_SCHEDULING, Severity.PARTIAL);

        DisplayFrame d2 = df(52, 60, 70, 52, 57, 65, 11, 11);
        SurfaceFrame s2 = sf(25, 36, 70, 36);
        classifier.classify(d2, 30);
        classifier.classify(s2, d2);
        assertEquals(PresentMetadata.EARLY, s2.present());
        assertSurface(s2, PREDICTION_ERROR, Severity.PARTIAL);
    }

    @Test
    void shouldClassifyOnTimeFinishLatePresentSurfacesS11() {
        DisplayFrame d = df(22, 30, 40, 22, 26, 50, 11, 11);
        SurfaceFrame s = sf(5, 16, 40, 16);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, DISPLAY_HAL, Severity.PARTIAL);

        DisplayFrame d2 = df(52, 60, 70, 52, 57, 86, 11, 11);
        SurfaceFrame s2 = sf(25, 36, 70, 36);
        classifier.classify(d2, 50);
        classifier.classify(s2, d2);
        assertSurface(s2, PREDICTION_ERROR, Severity.FULL);
    }

    @Test
    void shouldClassifyLateFinishEarlyPresentAsUnknownS12() {
        DisplayFrame d = df(42, 50, 50, 42, 46, 50, 11, 11);
        SurfaceFrame s = sf(5, 26, 60, 40);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertEquals(NONE, d.jank());
        assertEquals(PresentMetadata.EARLY, s.present());
        assertEquals(FinishMetadata.LATE, s.finish());
        assertSurface(s, UNKNOWN, Severity.PARTIAL);
    }

    @Test
    void shouldClassifyLateFinishLatePresentSurfacesS13() {
        DisplayFrame d = df(32, 40, 40, 32, 36, 40, 11, 11);
        SurfaceFrame s = sf(5, 16, 30, 26);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, APP_DEADLINE_MISSED, Severity.PARTIAL);

        DisplayFrame d2 = df(42, 50, 50, 43, 56, 60, 11, 11);
        SurfaceFrame s2 = sf(25, 36, 50, 40);
        classifier.classify(d2, 40);
        classifier.classify(s2, d2);
        assertSurface(s2, SF_CPU_DEADLINE_MISSED | APP_DEADLINE_MISSED, Severity.PARTIAL);
    }

    @Test
    void shouldCombineBufferStuffingAndAppDeadlineMissedS14S15() {
        DisplayFrame d = df(52, 60, 60, 52, 56, 60, 30, 30);
        SurfaceFrame s = sf(10, 20, 30, 50);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, APP_DEADLINE_MISSED, Severity.FULL);

        DisplayFrame d2 = df(112, 120, 120, 112, 116, 120, 30, 30);
        SurfaceFrame s2 = new SurfaceFrame().set(3, Prediction.VALID, 40, 50, 60, 40, 84, PresentState.PRESENTED, 54);
        classifier.classify(d2, 60);
        classifier.classify(s2, d2);
        assertSurface(s2, APP_DEADLINE_MISSED | BUFFER_STUFFING, Severity.FULL);

        // S15: finished before the adjusted deadline (54 + 30 > 80): stuffing only.
        DisplayFrame d3 = df(82, 90, 90, 82, 86, 90, 30, 30);
        SurfaceFrame s3 = new SurfaceFrame().set(3, Prediction.VALID, 40, 50, 60, 40, 80, PresentState.PRESENTED, 54);
        classifier.classify(d3, 60);
        classifier.classify(s3, d3);
        assertSurface(s3, BUFFER_STUFFING, Severity.FULL);
        assertEquals(FinishMetadata.ON_TIME, s3.finish());
    }

    @Test
    void shouldGiveSurfacesOfAnInvalidPresentUnknownS16() {
        DisplayFrame d = df(52, 60, 60, 52, 59, -1, 11, 11);
        SurfaceFrame s = sf(10, 20, 60, 20);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, UNKNOWN, Severity.UNKNOWN);
        assertEquals(-1, s.deadlineDelta());
        assertEquals(-1, s.actualPresent());
    }

    @Test
    void shouldCallExpiredPresentedSurfaceAnAppDeadlineMissS17() {
        DisplayFrame d = df(52, 60, 60, 52, 56, 60, 11, 11);
        SurfaceFrame s = new SurfaceFrame().set(2, Prediction.EXPIRED, 0, 0, 0, 0, 40, PresentState.PRESENTED, 0);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, APP_DEADLINE_MISSED, Severity.UNKNOWN);
        assertEquals(PresentMetadata.UNKNOWN, s.present());
        assertTrue(s.reported());

        SurfaceFrame dropped = new SurfaceFrame().set(2, Prediction.EXPIRED, 0, 0, 0, 0, 40, PresentState.DROPPED, 0);
        classifier.classify(dropped, d);
        assertSurface(dropped, DROPPED, Severity.UNKNOWN);
    }

    @Test
    void shouldClassifyASkippedCompositionAsNoneAndNotReportItS18() {
        DisplayFrame d = df(22, 30, 30, 22, 26, 45, 11, 11);
        SurfaceFrame s = sf(10, 20, 30, 20);
        classifier.classifyNotComposited(s, d);
        assertEquals(30, s.actualPresent());
        assertSurface(s, NONE, Severity.NONE);
        assertFalse(s.reported());
    }

    @Test
    void shouldMarkDroppedSurfacesDroppedWithNoPresentS19() {
        DisplayFrame d = df(22, 30, 30, 22, 26, 60, 11, 11);
        SurfaceFrame s = new SurfaceFrame().set(2, Prediction.VALID, 10, 20, 30, 10, 12, PresentState.DROPPED, 0);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, DROPPED, Severity.UNKNOWN);
        assertEquals(0, s.actualPresent());
    }

    @Test
    void shouldNotClassifyOnTimePresentsS20() {
        DisplayFrame d = df(22, 30, 30, 22, 26, 29, 11, 11);
        SurfaceFrame s = sf(10, 20, 30, 20);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertDisplay(d, PresentMetadata.ON_TIME, FinishMetadata.ON_TIME, NONE, Severity.NONE);
        assertSurface(s, NONE, Severity.NONE);
        assertEquals(PresentMetadata.ON_TIME, s.present());
    }

    @Test
    void shouldNotClassifySurfacesWithoutToken() {
        DisplayFrame d = df(22, 30, 30, 22, 26, 60, 11, 11);
        SurfaceFrame s = new SurfaceFrame().set(2, Prediction.NONE, 0, 0, 0, 10, 50, PresentState.PRESENTED, 0);
        classifier.classify(d, 0);
        classifier.classify(s, d);
        assertSurface(s, NONE, Severity.NONE);
        assertEquals(PresentMetadata.UNKNOWN, s.present());
        assertEquals(FinishMetadata.UNKNOWN, s.finish());
        assertFalse(s.reported());
    }

    @Test
    void shouldTreatADeltaOfExactlyTheThresholdAsOnTime() {
        DisplayFrame d = df(22, 30, 30, 22, 30, 32, 11, 11);
        classifier.classify(d, 0);
        assertEquals(PresentMetadata.ON_TIME, d.present());
        assertEquals(FinishMetadata.ON_TIME, d.finish());
        DisplayFrame late = df(22, 30, 30, 25, 31, 33, 11, 11);
        classifier.classify(late, 0);
        assertEquals(PresentMetadata.LATE, late.present());
        assertEquals(FinishMetadata.LATE, late.finish());
        assertEquals(StartMetadata.LATE, late.start());
    }

    @Test
    void shouldUseTheExtendedPresentThreshold() {
        FrameTimelineClassifier extended = new FrameTimelineClassifier(Thresholds.ANDROID_16_EXTENDED);
        FrameTimelineClassifier legacy = new FrameTimelineClassifier(Thresholds.ANDROID_16_LEGACY);
        long ms = 1_000_000;
        DisplayFrame d = df(0, 8 * ms, 8 * ms, 0, 5 * ms, 11 * ms, 16 * ms, 16 * ms);
        legacy.classify(d, 0);
        assertEquals(PresentMetadata.LATE, d.present());
        extended.classify(d, 0);
        assertEquals(PresentMetadata.ON_TIME, d.present());
    }

    @Test
    void shouldConvertJankBitsToAndFromPerfettoProto() {
        assertEquals(16 | 2, JankType.toProto(SF_CPU_DEADLINE_MISSED | SF_SCHEDULING));
        assertEquals(SF_CPU_DEADLINE_MISSED | SF_SCHEDULING, JankType.fromProto(16 | 2));
        assertEquals(NONE, JankType.fromProto(1));
        assertEquals(NONE, JankType.fromProto(0));
        assertEquals(-1, JankType.fromProto(1 << 20));
        assertEquals("DisplayHAL,AppDeadlineMissed,BufferStuffing",
                JankType.names(DISPLAY_HAL | APP_DEADLINE_MISSED | BUFFER_STUFFING, ","));
    }
}
