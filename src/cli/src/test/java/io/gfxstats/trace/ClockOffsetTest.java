package io.gfxstats.trace;

import static io.gfxstats.trace.TraceText.doComposition;
import static io.gfxstats.trace.TraceText.marsh;
import static io.gfxstats.trace.TraceText.onVsyncEvent;
import static io.gfxstats.trace.TraceText.processCommand;
import static io.gfxstats.trace.TraceText.receiveVsync;
import static io.gfxstats.trace.TraceText.rsReceiveVsync;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec 2.4: a trace taken after the device slept, whose trace clock is 4756.467 s ahead of {@code now}. */
class ClockOffsetTest {
    static final long AHEAD = 4_756_467_000_425L;
    static final long PERIOD = 16_000_000L;

    /** One app frame and its RS frame, with "now" values on a clock {@code ahead} behind the trace clock. */
    static TraceText slept(boolean vsyncLines) {
        long now = 50_000_000_000L;
        long ts = now + AHEAD;
        TraceText t = new TraceText();
        if (vsyncLines) {
            t.b(ts + 49_000, 1000, 1900, TraceText.vsyncNow(now, PERIOD));
            t.e(ts + 50_000, 1000, 1900);
            t.b(ts + PERIOD + 60_000, 1000, 1900, TraceText.vsyncNow(now + PERIOD, PERIOD));
            t.e(ts + PERIOD + 70_000, 1000, 1900);
        }
        t.b(ts + 200_000, 4000, 4000, receiveVsync(now, now + PERIOD, 10));
        t.b(ts + 300_000, 4000, 4000, onVsyncEvent(now));
        t.b(ts + 6_000_000, 4000, 4000, marsh(4000, 7));
        t.e(ts + 6_100_000, 4000, 4000);
        t.e(ts + 9_000_000, 4000, 4000);
        t.e(ts + 9_100_000, 4000, 4000);
        t.b(ts + PERIOD + 300_000, 1000, 1000, rsReceiveVsync(now + PERIOD, now + 3 * PERIOD - 5_000_000, 11));
        t.b(ts + PERIOD + 400_000, 1000, 1000, doComposition(ts));
        t.b(ts + PERIOD + 500_000, 1000, 1000, processCommand("[4000,7]"));
        t.e(ts + PERIOD + 600_000, 1000, 1000);
        t.e(ts + PERIOD + 4_000_000, 1000, 1000);
        t.e(ts + PERIOD + 5_000_000, 1000, 1000);
        return t;
    }

    static List<Integer> flags(Trace trace) {
        return List.of(trace.table().flag(0), trace.table().flag(2));
    }

    @Test
    void shouldFlagEveryFrameJankyWithRawClocksAsTraceStreamerDoes() throws Exception {
        Trace trace = slept(true).parse(ClockOffset.NONE);
        assertEquals(0, trace.clockOffset().nanos());
        assertEquals(List.of(1, 1), flags(trace));
        assertEquals(50_000_000_000L, trace.table().ts(1));
    }

    @Test
    void shouldPutNowOnTheTraceClockFromVsyncGeneratorLines() throws Exception {
        Trace trace = slept(true).parse(ClockOffset.AUTO);
        assertEquals(AHEAD + 49_000, trace.clockOffset().nanos());
        assertEquals(List.of(0, 0), flags(trace));
        assertEquals(50_000_000_000L + AHEAD + 49_000, trace.table().ts(1));
        assertEquals(PERIOD, trace.table().dur(1), "durations of expected rows do not change");
    }

    @Test
    void shouldFallBackToRenderServiceReceiveVsync() throws Exception {
        Trace trace = slept(false).parse(ClockOffset.AUTO);
        assertEquals(AHEAD + 300_000, trace.clockOffset().nanos(), "min(ReceiveVsync B ts - now) over name:rs");
        assertEquals("auto: min(ReceiveVsync ts - now) over 1 'name:rs' ReceiveVsync lines", trace.clockOffset().source());
        assertEquals(List.of(0, 0), flags(trace));
    }

    @Test
    void shouldFallBackToRenderFramesWhenReceiversPrintNoName() throws Exception {
        String text = slept(false).text().replace("H:ReceiveVsync name:rs ", "H:ReceiveVsync ");
        Trace trace = TraceParser.parse(new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                "t", ClockOffset.AUTO, null);
        assertEquals(AHEAD + 300_000, trace.clockOffset().nanos(), "min(ReceiveVsync B ts - now) over DoComposition frames");
        assertEquals("auto: min(ReceiveVsync ts - now) over the ReceiveVsyncs of composing threads",
                trace.clockOffset().source());
    }

    @Test
    void shouldTakeEveryReceiveVsyncOfAComposingThreadAsAClockSample() throws Exception {
        // RenderService's thread also receives an unnamed vsync it does not compose for, logged only
        // 120 us after its vsync: a closer bound than the composed frame's 300 us.
        long now = 50_000_000_000L + 3 * PERIOD;
        TraceText extra = new TraceText();
        extra.b(now + AHEAD + 120_000, 1000, 1000, receiveVsync(now, now + PERIOD, 12).replace("name:WM ", ""));
        extra.e(now + AHEAD + 200_000, 1000, 1000);
        String text = slept(false).text().replace("H:ReceiveVsync name:rs ", "H:ReceiveVsync ") + extra.text();
        Trace trace = TraceParser.parse(new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                "t", ClockOffset.AUTO, null);
        assertEquals(AHEAD + 120_000, trace.clockOffset().nanos());
    }

    @Test
    void shouldTakeAGivenOffset() throws Exception {
        Trace trace = slept(false).parse(ClockOffset.fixed(AHEAD));
        assertEquals(AHEAD, trace.clockOffset().nanos());
        assertEquals(List.of(0, 0), flags(trace));
        assertEquals(List.of(1, 1), flags(slept(false).parse(ClockOffset.fixed(AHEAD - 30_000_000))));
    }

    @Test
    void shouldLeaveFlagThreeAloneWhateverTheOffset() throws Exception {
        for (ClockOffset c : List.of(ClockOffset.NONE, ClockOffset.AUTO, ClockOffset.fixed(-123_456_789))) {
            TraceText t = OhosFramesRulesTest.workedExample("late-pickup");
            assertEquals(3, t.parse(c).table().flag(2), c.toString());
        }
    }

    @Test
    void shouldParseTheOption() {
        assertEquals(ClockOffset.AUTO, ClockOffset.parse("auto"));
        assertEquals(ClockOffset.NONE, ClockOffset.parse("none"));
        assertEquals(ClockOffset.fixed(-5), ClockOffset.parse("-5"));
        assertThrows(IllegalArgumentException.class, () -> ClockOffset.parse("soon"));
    }
}
