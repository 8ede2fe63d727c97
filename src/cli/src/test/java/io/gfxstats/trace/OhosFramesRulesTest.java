package io.gfxstats.trace;

import static io.gfxstats.trace.TraceText.doComposition;
import static io.gfxstats.trace.TraceText.marsh;
import static io.gfxstats.trace.TraceText.marshAt;
import static io.gfxstats.trace.TraceText.onVsyncEvent;
import static io.gfxstats.trace.TraceText.processCommand;
import static io.gfxstats.trace.TraceText.receiveVsync;
import static io.gfxstats.trace.TraceText.rsReceiveVsync;
import static io.gfxstats.trace.TraceText.uiVsyncTask;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One synthetic trace per rule of spec 3.3, per row of 3.8 and per upstream scenario of 3.9, and the
 * worked example of 3.10 with its variants; expected rows written by hand from the rules. Rows read
 * "id ts dur vsync type flag src dst" (N = NULL, - = empty src), times in ns, clock offset none.
 * Times are trace_streamer's: the text as a double times 1e9, truncated, so some of these few-ns
 * times are 1 ns below their decimal text (0.000000014 s is 13 ns).
 */
class OhosFramesRulesTest {
    static final int APP = 4000;
    static final int WORKER = 4001;
    static final int RS = 1000;

    static Trace parse(TraceText t) throws Exception {
        return t.parse(ClockOffset.NONE);
    }

    static List<String> rows(TraceText t) throws Exception {
        return Rows.frames(parse(t).table());
    }

    /** The worked example of spec 3.10, built line by line; {@code variant} changes one thing. */
    static TraceText workedExample(String variant) {
        TraceText t = new TraceText();
        t.b(100_000_200_000L, APP, APP, receiveVsync(100_000_000_000L, 100_016_000_000L, 10));
        t.b(100_000_300_000L, APP, APP, onVsyncEvent(100_000_000_000L));
        if (!variant.equals("no-transaction")) {
            t.b(100_006_000_000L, APP, APP, marsh(APP, 7));
            t.e(100_006_100_000L, APP, APP);
        }
        boolean lateApp = variant.equals("late-app");
        if (!lateApp) {
            t.e(100_009_000_000L, APP, APP);
            t.e(100_009_100_000L, APP, APP);
        }
        long now = variant.equals("late-pickup") ? 100_032_000_000L
                : variant.equals("pickup-0.999ms") ? 100_016_999_999L
                : variant.equals("pickup-1ms") ? 100_017_000_000L : 100_016_000_000L;
        long shift = now - 100_016_000_000L;
        t.b(100_016_300_000L + shift, RS, RS, rsReceiveVsync(now, now + 27_000_000L, 11));
        t.b(100_016_400_000L + shift, RS, RS, doComposition(100_016_350_000L + shift));
        t.b(100_016_500_000L + shift, RS, RS, processCommand("[4000,7]"));
        t.e(100_016_600_000L + shift, RS, RS);
        if (lateApp) {
            t.e(100_017_000_000L, APP, APP);
            t.e(100_017_100_000L, APP, APP);
        }
        t.e(100_020_000_000L + shift, RS, RS);
        t.e(100_021_000_000L + shift, RS, RS);
        return t;
    }

    @Test
    void shouldReproduceTheWorkedExample() throws Exception {
        Trace trace = parse(workedExample(""));
        assertEquals(List.of(
                "0 100000200000 8800000 10 0 0 - 2",
                "1 100000000000 16000000 10 1 N - 3",
                "2 100016300000 4700000 11 0 0 0 N",
                "3 100016000000 27000000 11 1 N 1 N"), Rows.frames(trace.table()));
        assertEquals(List.of("0->2", "1->3"), Rows.maps(trace.table()));
        assertEquals(List.of(), Rows.gpu(trace.table()));
        TraceFrame app = TraceFrames.of(trace, 16_666_667L).stream().filter(p -> p.pid() == APP).findFirst()
                .orElseThrow().frames().get(0);
        assertEquals(100_000_200_000L, app.timelineStart());
        assertEquals(20_800_000L, app.frameTime(), "FrameTimeline actual [100000200000, +20800000]");
        assertEquals(43_000_000L, app.renderExpectedEnd() - app.expectedStart(), "expected [.., +43000000]");
        assertEquals(0, app.flag());
    }

    @Test
    void shouldFlagALateAppFrameJanky() throws Exception {
        Trace trace = parse(workedExample("late-app"));
        assertEquals(List.of(
                "0 100000200000 16800000 10 0 1 - 2",
                "1 100000000000 16000000 10 1 N - 3",
                "2 100016300000 4700000 11 0 0 0 N",
                "3 100016000000 27000000 11 1 N 1 N"), Rows.frames(trace.table()));
        TraceFrame app = TraceFrames.of(trace, 16_666_667L).stream().filter(p -> p.pid() == APP).findFirst()
                .orElseThrow().frames().get(0);
        assertEquals(1, app.flag(), "timeline jank 1");
        assertEquals("app-late", app.jankReason());
    }

    @Test
    void shouldFlagALatePickupOnTheRenderActualRow() throws Exception {
        assertEquals(List.of(
                "0 100000200000 8800000 10 0 0 - 2",
                "1 100000000000 16000000 10 1 N - 3",
                "2 100032300000 4700000 11 0 3 0 N",
                "3 100032000000 27000000 11 1 N 1 N"), rows(workedExample("late-pickup")));
    }

    @Test
    void shouldFlagPickupAtOneMillisecondButNotJustBelow() throws Exception {
        assertEquals("2 100017299999 4700000 11 0 0 0 N", rows(workedExample("pickup-0.999ms")).get(2));
        assertEquals("2 100017300000 4700000 11 0 3 0 N", rows(workedExample("pickup-1ms")).get(2));
    }

    @Test
    void shouldFlagAnAppFrameWithoutTransactionInvalidAtTheEnd() throws Exception {
        Trace trace = parse(workedExample("no-transaction"));
        assertEquals(List.of(
                "0 100000200000 8800000 10 0 2 - N",
                "1 100000000000 16000000 10 1 2 - N",
                "2 100016300000 4700000 11 0 0 - N",
                "3 100016000000 27000000 11 1 N - N"), Rows.frames(trace.table()));
        assertEquals(List.of(), Rows.maps(trace.table()));
    }

    // Rule 1 and 3.9 scenario 7: ReceiveVsync arguments.

    @Test
    void shouldParseTheOldestReceiveVsyncFormAndRejectZeros() throws Exception {
        TraceText t = new TraceText();
        t.b(211_306_800_000L, APP, APP, "H:ReceiveVsync dataCount:24bytes now:211306766162 expectedEnd:211323423844 vsyncId:3179");
        t.b(211_400_000_000L, APP, APP, "H:ReceiveVsync dataCount:24bytes now:0 expectedEnd:211323423844 vsyncId:3180");
        t.e(211_400_000_100L, APP, APP);
        t.b(211_500_000_000L, APP, APP, "H:ReceiveVsync dataCount:24bytes now:211306766162 expectedEnd:0 vsyncId:3181");
        t.b(211_600_000_000L, APP, APP, "H:ReceiveVsync dataCount:24bytes now:211306766162 expectedEnd:5 vsyncId:0");
        assertEquals(List.of("0 211306800000 N 3179 0 2 - N", "1 211306766162 16657682 3179 1 2 - N"), rows(t));
    }

    @Test
    void shouldKeepMissingReceiveVsyncValuesUnknown() throws Exception {
        TraceText t = new TraceText();
        t.b(1_000_000_000L, APP, APP, "H:ReceiveVsync name:WM dataCount: 24bytes now: 900000000 vsyncId: 5");
        t.b(1_000_000_100L, APP, APP, marsh(APP, 1));
        t.e(1_000_000_200L, APP, APP);
        t.e(1_900_000_000L, APP, APP);
        assertEquals(List.of("0 1000000000 900000000 5 0 0 - N", "1 900000000 N 5 1 N - N"), rows(t),
                "unknown expectedEnd: always on time, expected dur NULL");
    }

    @Test
    void shouldNotRecogniseAChainPrefixedName() throws Exception {
        TraceText t = new TraceText();
        t.b(1_000_000_000L, APP, APP, "H:[a1,b2,c3]#ReceiveVsync name:WM now: 9 expectedEnd: 10 vsyncId: 5");
        t.e(1_000_000_500L, APP, APP);
        assertEquals(List.of(), rows(t));
    }

    // 3.9 scenarios 1-3 (pid 156 on tid 248: ReceiveVsync frames are made on any thread, 3.8).

    @Test
    void shouldEndAnAppFrameWithoutTransactionAsInvalid() throws Exception {
        TraceText t = new TraceText();
        t.b(1, 156, 248, receiveVsync(5, 10, 1));
        t.e(10, 156, 248);
        assertEquals(List.of("0 1 9 1 0 2 - N", "1 5 5 1 1 2 - N"), rows(t));
    }

    @Test
    void shouldCloseAnAppFrameWithTransactionOnTimeAndRegisterItsIndex() throws Exception {
        TraceText t = new TraceText();
        t.b(1, 156, 248, receiveVsync(5, 10, 1));
        t.b(2, 156, 248, marsh(156, 1));
        t.e(3, 156, 248);
        t.e(10, 156, 248);
        t.b(11, RS, RS, rsReceiveVsync(10, 37, 2));
        t.b(12, RS, RS, doComposition(12));
        t.b(13, RS, RS, processCommand("[156,1]"));
        t.e(14, RS, RS);
        t.e(15, RS, RS);
        t.e(16, RS, RS);
        assertEquals(List.of("0 1 9 1 0 0 - 2", "1 5 5 1 1 N - 3", "2 11 5 2 0 0 0 N", "3 10 27 2 1 N 1 N"), rows(t));
    }

    @Test
    void shouldCloseARenderFrameWithoutSourcesAtItsEnd() throws Exception {
        TraceText t = new TraceText();
        t.b(1, RS, RS, rsReceiveVsync(5, 10, 1));
        t.b(2, RS, RS, doComposition(2));
        t.e(3, RS, RS);
        t.e(10, RS, RS);
        assertEquals(List.of("0 1 9 1 0 0 - N", "1 5 5 1 1 N - N"), rows(t));
    }

    // Rule 8 and 3.9 scenarios 4-5: GPU intervals.

    @Test
    void shouldEndARenderFrameAtItsFrameQueuedFinish() throws Exception {
        TraceText t = new TraceText();
        t.b(1, RS, RS, rsReceiveVsync(5, 10, 1));
        t.b(2, RS, RS, doComposition(2));
        t.s(3, RS, RS, TraceText.FRAME_QUEUED, 1);
        t.e(4, RS, RS);
        t.e(10, RS, RS);
        t.f(15, RS, RS, TraceText.FRAME_QUEUED, 1);
        Trace trace = parse(t);
        assertEquals(List.of("0 1 13 1 0 1 - N", "1 5 5 1 1 N - N"), Rows.frames(trace.table()));
        assertEquals(List.of("0:11"), Rows.gpu(trace.table()));
    }

    @Test
    void shouldAttachFrameQueuedToTheOldestOpenFrame() throws Exception {
        TraceText t = new TraceText();
        t.b(1, RS, RS, rsReceiveVsync(1, 20, 1));
        t.b(2, RS, RS, doComposition(2));
        t.s(3, RS, RS, TraceText.FRAME_QUEUED, 1);
        t.e(4, RS, RS);
        t.e(10, RS, RS);
        t.b(12, RS, RS, rsReceiveVsync(11, 40, 2));
        t.b(13, RS, RS, doComposition(13));
        t.e(14, RS, RS);
        t.f(15, RS, RS, TraceText.FRAME_QUEUED, 1);
        t.s(16, RS, RS, TraceText.FRAME_QUEUED, 2);
        t.e(18, RS, RS);
        t.f(20, RS, RS, TraceText.FRAME_QUEUED, 2);
        Trace trace = parse(t);
        assertEquals(List.of("0 1 13 1 0 0 - N", "1 1 19 1 1 N - N", "2 12 8 2 0 0 - N", "3 11 29 2 1 N - N"),
                Rows.frames(trace.table()));
        assertEquals(List.of("0:11", "2:4"), Rows.gpu(trace.table()));
    }

    @Test
    void shouldLetAStaleRenderServiceFrameSwallowTheNextFrameQueued() throws Exception {
        TraceText t = new TraceText();
        t.b(1_000_000, RS, RS, rsReceiveVsync(1_000_000, 28_000_000, 1));
        t.e(2_000_000, RS, RS);
        t.b(10_000_000, RS, RS, rsReceiveVsync(10_000_000, 37_000_000, 2));
        t.b(11_000_000, RS, RS, doComposition(11_000_000));
        t.s(12_000_000, RS, RS, TraceText.FRAME_QUEUED, 9);
        t.e(13_000_000, RS, RS);
        t.e(15_000_000, RS, RS);
        t.f(17_000_000, RS, RS, TraceText.FRAME_QUEUED, 9);
        Trace trace = parse(t);
        assertEquals(List.of(
                "0 1000000 16000000 1 0 0 - N",
                "1 1000000 27000000 1 1 N - N",
                "2 10000000 5000000 2 0 0 - N",
                "3 10000000 27000000 2 1 N - N"), Rows.frames(trace.table()));
        assertEquals(List.of("0:5000000"), Rows.gpu(trace.table()));
    }

    @Test
    void shouldReadAFrameQueuedWithAHiTraceChainPrefix() throws Exception {
        TraceText t = new TraceText();
        t.b(1, RS, RS, rsReceiveVsync(5, 10, 1));
        t.b(2, RS, RS, doComposition(2));
        t.s(3, RS, RS, "H:[8b00e96b2,2,1]#M: Frame queued", 1);
        t.e(4, RS, RS);
        t.e(10, RS, RS);
        t.f(15, RS, RS, "H:[8b00e96b2,2,1]#M: Frame queued", 1);
        Trace trace = parse(t);
        assertEquals("0 1 13 1 0 1 - N", Rows.frames(trace.table()).get(0), "async names lose the chain prefix upstream");
        assertEquals(List.of("0:11"), Rows.gpu(trace.table()));
    }

    @Test
    void shouldIgnoreAFrameQueuedFinishWhoseStartFoundNoFrame() throws Exception {
        TraceText t = new TraceText();
        t.s(1, RS, RS, TraceText.FRAME_QUEUED, 1);
        t.b(2, RS, RS, rsReceiveVsync(2, 10, 1));
        t.b(3, RS, RS, doComposition(3));
        t.e(4, RS, RS);
        t.f(5, RS, RS, TraceText.FRAME_QUEUED, 1);
        t.e(6, RS, RS);
        Trace trace = parse(t);
        assertEquals(List.of("0 2 4 1 0 0 - N", "1 2 8 1 1 N - N"), Rows.frames(trace.table()));
        assertEquals(List.of(), Rows.gpu(trace.table()));
    }

    // Rules 2, 3 and 3.9 scenario 6: parallel frames.

    static TraceText parallel(long workerStart, long workerEnd, boolean transaction) {
        TraceText t = new TraceText();
        t.b(0, 156, 156, receiveVsync(5, 10, 1));
        t.b(workerStart, 156, 248, onVsyncEvent(5));
        t.b(workerStart, 156, 248, uiVsyncTask(5, 1));
        t.e(workerStart, 156, 248);
        if (transaction) {
            t.b(workerStart, 156, 248, marsh(156, 3));
            t.e(workerStart, 156, 248);
        }
        t.e(workerEnd, 156, 248);
        return t;
    }

    @Test
    void shouldBorrowTheMainThreadsDeadlineForAParallelFrame() throws Exception {
        assertEquals(List.of("0 0 N 1 0 2 - N", "1 5 5 1 1 2 - N", "2 6 3 1 0 2 - N"), rows(parallel(6, 9, false)),
                "no transaction: open at the end, flag 2 (it was 0 before the end of the parse)");
        assertEquals(List.of("0 0 N 1 0 2 - N", "1 5 5 1 1 2 - N", "2 6 2 1 0 0 - N"), rows(parallel(6, 8, true)));
        assertEquals(List.of("0 0 N 1 0 2 - N", "1 5 5 1 1 2 - N", "2 7 4 1 0 1 - N"), rows(parallel(7, 11, true)));
    }

    @Test
    void shouldIgnoreUiVsyncTaskAndOnVsyncEventFramesOnTheMainThread() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, onVsyncEvent(90));
        t.b(102, APP, APP, uiVsyncTask(90, 77));
        t.e(103, APP, APP);
        t.b(104, APP, APP, marsh(APP, 1));
        t.e(105, APP, APP);
        t.e(150, APP, APP);
        t.e(160, APP, APP);
        assertEquals(List.of("0 100 50 4 0 0 - N", "1 90 110 4 1 N - N"), rows(t));
    }

    @Test
    void shouldNotStartFramesAtUvTrace() throws Exception {
        TraceText t = new TraceText();
        t.b(1, APP, WORKER, "H:UV_TRACE");
        t.e(2, APP, WORKER);
        assertEquals(List.of(), rows(t));
    }

    // Rule 4: transactions.

    @Test
    void shouldMatchAFormCTransactionByTimestampAfterItsFrameEnded() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, onVsyncEvent(90));
        t.e(150, APP, APP);
        t.e(151, APP, APP);
        t.b(160, APP, 4005, marshAt(APP, 9, APP, 90));
        t.e(161, APP, 4005);
        t.b(170, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(171, RS, RS, doComposition(171));
        t.b(172, RS, RS, processCommand("[4000,9]"));
        t.e(173, RS, RS);
        t.e(174, RS, RS);
        t.e(175, RS, RS);
        assertEquals(List.of("0 100 50 4 0 0 - 2", "1 90 110 4 1 N - 3", "2 170 5 5 0 0 0 N", "3 200 27 5 1 N 1 N"),
                rows(t));
    }

    @Test
    void shouldLinkTheDocumentedExampleLines() throws Exception {
        TraceText t = new TraceText();
        t.b(100, 32402, 32402, receiveVsync(90, 200, 4));
        t.b(101, 32402, 32402, "H:MarshRSTransactionData cmdCount:3 transactionFlag:[32402,146]");
        t.e(102, 32402, 32402);
        t.e(150, 32402, 32402);
        t.b(170, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(171, RS, RS, doComposition(171));
        t.b(172, RS, RS, "H:RSMainThread::ProcessCommandUni [7291,51] [32402,146]");
        t.e(173, RS, RS);
        t.e(174, RS, RS);
        t.e(175, RS, RS);
        assertEquals(List.of("0 100 50 4 0 0 - 2", "1 90 110 4 1 N - 3", "2 170 5 5 0 0 0 N", "3 200 27 5 1 N 1 N"),
                rows(t), "form (a), and a pair whose app frame is unknown (sent before the trace) is skipped");
    }

    @Test
    void shouldAppendTheSourcesOfASecondProcessCommandInOneFrame() throws Exception {
        TraceText t = twoAppFramesOneRender("[4000,8]", "[4000,9]");
        List<String> rows = rows(t);
        assertEquals("4 400 5 6 0 0 0,2 N", rows.get(4), "the spec's rule 6 (upstream code would keep only 2)");
        assertEquals("5 400 27 6 1 N 1,3 N", rows.get(5));
    }

    @Test
    void shouldUseTheSendersLastOpenFrameForFormsAAndB() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, onVsyncEvent(90));
        t.b(102, APP, APP, "H:MarshRSTransactionData cmdCount: 2, transactionFlag:[4000,3], timestamp:12345");
        t.e(103, APP, APP);
        t.e(150, APP, APP);
        t.e(151, APP, APP);
        t.b(170, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(171, RS, RS, doComposition(171));
        t.b(172, RS, RS, processCommand("[4000,3]"));
        t.e(173, RS, RS);
        t.e(174, RS, RS);
        t.e(175, RS, RS);
        assertEquals("0 100 50 4 0 0 - 2", rows(t).get(0), "form (b): the timestamp is not used");
    }

    @Test
    void shouldNotRegisterATransactionAfterItsFrameEnded() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, onVsyncEvent(90));
        t.e(150, APP, APP);
        t.b(152, APP, APP, marsh(APP, 7));
        t.e(153, APP, APP);
        t.e(154, APP, APP);
        t.b(170, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(171, RS, RS, doComposition(171));
        t.b(172, RS, RS, processCommand("[4000,7]"));
        t.e(173, RS, RS);
        t.e(174, RS, RS);
        t.e(175, RS, RS);
        assertEquals(List.of("0 100 50 4 0 2 - N", "1 90 110 4 1 2 - N", "2 170 5 5 0 0 - N", "3 200 27 5 1 N - N"),
                rows(t));
    }

    // Rule 6: links.

    static TraceText twoAppFramesOneRender(String pairs) {
        return twoAppFramesOneRender(pairs, null);
    }

    static TraceText twoAppFramesOneRender(String pairs, String secondPairs) {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, onVsyncEvent(90));
        t.b(102, APP, APP, marsh(APP, 8));
        t.e(103, APP, APP);
        t.e(150, APP, APP);
        t.e(151, APP, APP);
        t.b(300, APP, APP, receiveVsync(290, 400, 5));
        t.b(301, APP, APP, onVsyncEvent(290));
        t.b(302, APP, APP, marsh(APP, 9));
        t.e(303, APP, APP);
        t.e(350, APP, APP);
        t.e(351, APP, APP);
        t.b(400, RS, RS, rsReceiveVsync(400, 427, 6));
        t.b(401, RS, RS, doComposition(401));
        t.b(402, RS, RS, processCommand(pairs));
        t.e(403, RS, RS);
        if (secondPairs != null) {
            t.b(403, RS, RS, processCommand(secondPairs));
            t.e(403, RS, RS);
        }
        t.e(404, RS, RS);
        t.e(405, RS, RS);
        return t;
    }

    @Test
    void shouldLinkSkipToPairsButNotCachedOnes() throws Exception {
        Trace trace = parse(twoAppFramesOneRender("skip to[4000,8] cache (4000,9)"));
        assertEquals(List.of(
                "0 100 50 4 0 0 - 4",
                "1 90 110 4 1 N - 5",
                "2 300 50 5 0 0 - N",
                "3 290 110 5 1 N - N",
                "4 400 5 6 0 0 0 N",
                "5 400 27 6 1 N 1 N"), Rows.frames(trace.table()));
        assertEquals(List.of("0->4", "1->5"), Rows.maps(trace.table()));
    }

    @Test
    void shouldLinkManySourcesToOneRenderFrame() throws Exception {
        Trace trace = parse(twoAppFramesOneRender("[4000,8] [4000,9] [4000,77]"));
        assertEquals(List.of(
                "0 100 50 4 0 0 - 4",
                "1 90 110 4 1 N - 5",
                "2 300 50 5 0 0 - 4",
                "3 290 110 5 1 N - 5",
                "4 400 5 6 0 0 0,2 N",
                "5 400 27 6 1 N 1,3 N"), Rows.frames(trace.table()));
        assertEquals(List.of("0->4", "1->5", "2->4", "3->5"), Rows.maps(trace.table()));
    }

    @Test
    void shouldRelinkAnAppFrameThatWasLinkedBeforeItEnded() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, onVsyncEvent(90));
        t.b(102, APP, APP, marsh(APP, 8));
        t.e(103, APP, APP);
        t.b(110, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(111, RS, RS, doComposition(111));
        t.b(112, RS, RS, processCommand("[4000,8]"));
        t.e(113, RS, RS);
        t.e(114, RS, RS);
        t.e(115, RS, RS);
        t.e(150, APP, APP);
        t.e(151, APP, APP);
        t.b(210, RS, RS, rsReceiveVsync(300, 327, 6));
        t.b(211, RS, RS, doComposition(211));
        t.b(212, RS, RS, processCommand("skip to[4000,8]"));
        t.e(213, RS, RS);
        t.e(214, RS, RS);
        t.e(215, RS, RS);
        Trace trace = parse(t);
        assertEquals(List.of(
                "0 100 50 4 0 0 - 4",
                "1 90 110 4 1 N - 5",
                "2 110 5 5 0 0 0 N",
                "3 200 27 5 1 N 1 N",
                "4 210 5 6 0 0 0 N",
                "5 300 27 6 1 N 1 N"), Rows.frames(trace.table()));
        assertEquals(List.of("0->2", "1->3", "0->4", "1->5"), Rows.maps(trace.table()));
    }

    @Test
    void shouldLinkNothingAfterTheRenderFramesVsyncEnded() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, marsh(APP, 8));
        t.e(102, APP, APP);
        t.e(150, APP, APP);
        t.b(170, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(171, RS, RS, doComposition(171));
        t.e(172, RS, RS);
        t.e(175, RS, RS);
        t.b(176, RS, RS, processCommand("[4000,8]"));
        t.e(177, RS, RS);
        assertEquals(List.of("0 100 50 4 0 0 - N", "1 90 110 4 1 N - N", "2 170 5 5 0 0 - N", "3 200 27 5 1 N - N"),
                rows(t), "no OnVsyncEvent: the app frame ends at ReceiveVsync E; the late ProcessCommandUni links nothing");
    }

    @Test
    void shouldLinkAProcessCommandOutsideDoComposition() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, APP, receiveVsync(90, 200, 4));
        t.b(101, APP, APP, marsh(APP, 8));
        t.e(102, APP, APP);
        t.e(150, APP, APP);
        t.b(170, RS, RS, rsReceiveVsync(200, 227, 5));
        t.b(171, RS, RS, doComposition(171));
        t.e(172, RS, RS);
        t.b(173, RS, RS, processCommand("[4000,8]"));
        t.e(174, RS, RS);
        t.e(175, RS, RS);
        assertEquals("2 170 5 5 0 0 0 N", rows(t).get(2));
    }

    // Rule 9: the end of the parse.

    @Test
    void shouldStopTheEndOfParseWalkAtTheFirstRenderFrame() throws Exception {
        TraceText t = new TraceText();
        t.b(10, RS, RS, rsReceiveVsync(10, 37, 1));
        t.e(11, RS, RS);
        t.b(20, RS, RS, rsReceiveVsync(20, 47, 2));
        t.b(21, RS, RS, doComposition(21));
        t.e(22, RS, RS);
        t.b(30, RS, RS, rsReceiveVsync(30, 57, 3));
        t.e(31, RS, RS);
        assertEquals(List.of(
                "0 10 1 1 0 2 - N",
                "1 10 27 1 1 2 - N",
                "2 20 N 2 0 N - N",
                "3 20 27 2 1 N - N",
                "4 29 2 3 0 0 - N",
                "5 30 27 3 1 N - N"), rows(t), "the trace is cut inside frame 2: it keeps dur NULL and flag NULL");
    }

    @Test
    void shouldFlagReceiveVsyncFramesOfThreadsThatNeverSendTransactionsInvalid() throws Exception {
        TraceText t = new TraceText();
        t.b(100, APP, WORKER, receiveVsync(90, 200, 4));
        t.e(120, APP, WORKER);
        assertEquals(List.of("0 100 19 4 0 2 - N", "1 90 110 4 1 2 - N"), rows(t));
    }
}
