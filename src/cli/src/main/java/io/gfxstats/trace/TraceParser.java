package io.gfxstats.trace;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * One pass over a trace: every marker line names its thread and process ({@link Threads}), goes
 * through the slice stacks ({@link SliceStacks}), and B lines are offered to the frame rules -
 * OpenHarmony's ({@link OhosDispatch}, spec 3.1) and Android's doFrame/DrawFrames
 * ({@link AndroidFrames}) - while {@link VsyncClock} gathers the clock-offset evidence of spec 2.4.
 */
public final class TraceParser implements MarkerSink {
    private static final byte[] H_PREFIX = MarkerLine.ascii("H:");
    private static final byte[] DO_FRAME = MarkerLine.ascii(AndroidFrames.DO_FRAME);
    private static final byte[] DRAW_FRAMES = MarkerLine.ascii(AndroidFrames.DRAW_FRAMES);
    private static final byte[] ON_VSYNC = MarkerLine.ascii(AndroidFrames.ON_VSYNC);
    private static final byte[] VSYNC_APP = MarkerLine.ascii(AndroidFrames.VSYNC_APP);

    private final OhosFrames ohos = new OhosFrames();
    private final AndroidFrames android = new AndroidFrames();
    private final Threads threads = new Threads();
    private final VsyncClock vsyncClock = new VsyncClock();
    private final Scheduling scheduling = new Scheduling();
    private final SliceStacks stacks = new SliceStacks(ohos, threads);
    private final OhosDispatch ohosDispatch = new OhosDispatch(ohos, threads, vsyncClock);
    /** The slices that may have opened a frame, by slice id; pruned to those frames use at the end. */
    private final Map<Long, CallSlice> callSlices = new HashMap<>();
    /**
     * Whether to keep {@link #callSlices}: only the SQLite output has a callstack table, and a slice
     * kept per frame would take the memory a long trace must not.
     */
    private final boolean keepCallSlices;

    TraceParser(boolean keepCallSlices) {
        this.keepCallSlices = keepCallSlices;
    }

    /** Parses a whole trace; see {@link TraceReader#read}. */
    public static Trace parse(InputStream in, String source, ClockOffset clock, LongConsumer progress)
            throws IOException, TraceFormatException {
        return parse(in, source, clock, progress, TraceReader.SORT_WINDOW);
    }

    /** As {@link #parse(InputStream, String, ClockOffset, LongConsumer)}, sorting in a window of {@code sortWindow} lines. */
    public static Trace parse(InputStream in, String source, ClockOffset clock, LongConsumer progress, int sortWindow)
            throws IOException, TraceFormatException {
        return parse(in, source, clock, progress, sortWindow, false);
    }

    /**
     * As {@link #parse(InputStream, String, ClockOffset, LongConsumer, int)}; with {@code callSlices}
     * the trace also keeps the slices its frames began with ({@link Trace#callSlices()}, for the
     * SQLite output's callstack table), one object per frame.
     */
    public static Trace parse(InputStream in, String source, ClockOffset clock, LongConsumer progress, int sortWindow,
                              boolean callSlices) throws IOException, TraceFormatException {
        TraceParser parser = new TraceParser(callSlices);
        TraceReader.Stats stats = TraceReader.read(in, source, parser, progress, sortWindow);
        if (!stats.hasEvents()) {
            throw new TraceFormatException(source + ": no ftrace event lines"
                    + " ('<task>-<tid> (<tgid>) [<cpu>] <flags> <sec>.<frac>: <event>: ...'): not a text trace");
        }
        return parser.finish(stats, clock);
    }

    @Override
    public void marker(MarkerLine line) {
        ThreadInfo t = threads.thread(line.tid());
        ProcessInfo p = threads.process(line.pid());
        threads.seen(line, t, p);
        switch (line.phase()) {
            case 'B' -> begin(line, t, p);
            case 'E' -> stacks.end(line, t);
            case 'S' -> stacks.asyncStart(line);
            case 'F' -> stacks.asyncFinish(line);
            case 'C' -> {
                p.counters = true;
                if (line.nameEquals(VSYNC_APP)) {
                    android.vsyncApp(line.ts());
                }
            }
            default -> {
                // counters and track-async markers carry nothing frames use
            }
        }
    }

    @Override
    public void kernel(MarkerLine line) {
        scheduling.event(line);
    }

    /** A B line: a new slice, tagged with the Android frame slice it is, if any, for its E. */
    private void begin(MarkerLine line, ThreadInfo t, ProcessInfo p) {
        long id = stacks.nextId();
        Object tag = null;
        if (line.nameStartsWith(H_PREFIX)) {
            for (byte[] prefix : OhosDispatch.PREFIXES) {
                if (line.nameStartsWith(prefix)) {
                    if (keepCallSlices) {
                        CallSlice slice = new CallSlice(id, line.ts(), t.itid, line.name(), t.depth,
                                t.depth > 0 ? t.stackIds[t.depth - 1] : -1);
                        callSlices.put(id, slice);
                        tag = slice;
                    }
                    ohosDispatch.frameBegin(line, t, p, id);
                    break;
                }
            }
        } else if (line.nameStartsWith(DO_FRAME)) {
            long vsyncId = AndroidFrames.idAfter(line.name(), AndroidFrames.DO_FRAME);
            if (vsyncId >= 0) {
                tag = android.doFrame(p.pid, t.tid, vsyncId, line.ts());
            }
        } else if (line.nameStartsWith(ON_VSYNC)) {
            long vsyncId = AndroidFrames.idAfter(line.name(), AndroidFrames.ON_VSYNC);
            if (vsyncId >= 0) {
                android.onVsync(p.pid, vsyncId, line.ts());
            }
        } else if (line.nameStartsWith(DRAW_FRAMES)) {
            long vsyncId = AndroidFrames.idAfter(line.name(), AndroidFrames.DRAW_FRAMES);
            if (vsyncId >= 0) {
                tag = android.drawFrames(p.pid, t.tid, vsyncId, line.ts());
            }
        }
        stacks.push(t, id, tag);
    }

    private Trace finish(TraceReader.Stats stats, ClockOffset clock) {
        ClockOffset.Applied applied = vsyncClock.applied(clock, ohos);
        FrameTable table = ohos.finish(applied.nanos());
        Set<Long> used = new HashSet<>();
        for (int r = 0; r < table.size(); r++) {
            used.add(table.callstack(r));
        }
        List<CallSlice> frameSlices = new ArrayList<>();
        for (CallSlice s : callSlices.values()) {
            if (used.contains(s.id)) {
                frameSlices.add(s);
            }
        }
        frameSlices.sort(Comparator.comparingLong(CallSlice::id));
        scheduling.applyTo(threads.threads());
        return new Trace(table, android.frames(), threads.threads(), threads.processes(), applied, stats,
                ohosDispatch.sawOhosMarker(), List.copyOf(frameSlices));
    }
}
