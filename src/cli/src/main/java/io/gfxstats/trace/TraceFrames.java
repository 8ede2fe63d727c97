package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames model (spec 7.2) of a parsed trace: per process, its frames in start order. OpenHarmony
 * app frames carry the RenderService frame they are linked to and the FrameTimeline of spec 3.5;
 * RenderService frames are frames of the render_service process; Android frames put the doFrame
 * on the vsync grid (atrace has no vsync timestamps): intended vsync = first doFrame of the process
 * + a whole number of periods, deadline = intended vsync + period.
 */
public final class TraceFrames {
    /** RenderService's vsync offset: its expectedEnd is now + 2 periods - 5 ms (spec 2.4). */
    static final long RS_OFFSET_NANOS = 5_000_000L;

    /** One process and its frames. */
    public record ProcessFrames(String name, int pid, List<TraceFrame> frames) {
    }

    private TraceFrames() {
    }

    public static List<ProcessFrames> of(Trace trace, long androidPeriod) {
        Map<Integer, List<TraceFrame>> byPid = new LinkedHashMap<>();
        Map<Integer, String> names = new HashMap<>();
        for (ProcessInfo p : trace.processes()) {
            names.put(p.pid(), p.name());
        }
        ohos(trace, byPid, names);
        android(trace, byPid, names, androidPeriod);
        List<ProcessFrames> out = new ArrayList<>();
        for (Map.Entry<Integer, List<TraceFrame>> e : byPid.entrySet()) {
            List<TraceFrame> frames = e.getValue();
            frames.sort(Comparator.comparingLong(TraceFrame::timelineStart).thenComparingInt(TraceFrame::actualRow));
            androidVerdicts(frames, androidPeriod);
            out.add(new ProcessFrames(names.getOrDefault(e.getKey(), "pid " + e.getKey()), e.getKey(), List.copyOf(frames)));
        }
        return out;
    }

    private static long known(long v) {
        return v == FrameTable.INVALID ? TraceFrame.UNKNOWN : v;
    }

    private static void ohos(Trace trace, Map<Integer, List<TraceFrame>> byPid, Map<Integer, String> names) {
        FrameTable t = trace.table();
        Map<Integer, Long> gpu = new HashMap<>();
        for (int i = 0; i < t.gpuCount(); i++) {
            gpu.merge((int) t.gpuRow(i), t.gpuDur(i), Long::sum);
        }
        for (int r = 0; r < t.size(); r++) {
            if (t.type(r) != FrameTable.TYPE_ACTUAL) {
                continue;
            }
            ThreadInfo thread = trace.thread(t.itid(r));
            ProcessInfo process = trace.process(t.ipid(r));
            int e = expectedRowOf(t, r);
            long expStart = e < 0 ? TraceFrame.UNKNOWN : known(t.ts(e));
            long expEnd = e < 0 ? TraceFrame.UNKNOWN : known(t.end(e));
            long start = t.ts(r);
            long end = known(t.end(r));
            boolean render = t.isRender(r);
            long period = TraceFrame.UNKNOWN;
            if (e >= 0 && t.dur(e) != FrameTable.INVALID && t.ts(e) != FrameTable.INVALID) {
                period = render ? (t.dur(e) + RS_OFFSET_NANOS) / 2 : t.dur(e);
            }
            TraceFrame frame;
            if (render) {
                long g = gpu.getOrDefault(r, TraceFrame.UNKNOWN);
                boolean linked = !t.src(r).isEmpty();
                frame = new TraceFrame("render", process.name(), process.pid(), thread.tid(), vsync(t, r), TraceFrame.UNKNOWN,
                        TraceFrame.UNKNOWN, TraceFrame.UNKNOWN, TraceFrame.UNKNOWN, TraceFrame.UNKNOWN,
                        start, end, expStart, expEnd, g, start, end, period, t.flag(r),
                        reason(t.flag(r), end, false, t.endedByGpu(r), true), linked, r);
            } else {
                int d = t.dst(r) == FrameTable.INVALID ? -1 : (int) t.dst(r);
                long rStart = TraceFrame.UNKNOWN;
                long rEnd = TraceFrame.UNKNOWN;
                long rExpStart = TraceFrame.UNKNOWN;
                long rExpEnd = TraceFrame.UNKNOWN;
                long g = TraceFrame.UNKNOWN;
                int flag = t.flag(r);
                String why;
                long timelineEnd = end;
                if (d >= 0) {
                    rStart = t.ts(d);
                    rEnd = known(t.end(d));
                    int de = expectedRowOf(t, d);
                    if (de >= 0) {
                        rExpStart = known(t.ts(de));
                        rExpEnd = known(t.end(de));
                    }
                    g = gpu.getOrDefault(d, TraceFrame.UNKNOWN);
                    int rf = t.flag(d);
                    if (flag == FrameTable.FLAG_INVALID || rf == FrameTable.FLAG_INVALID) {
                        flag = FrameTable.FLAG_INVALID;
                    } else if (flag == FrameTable.FLAG_NONE || rf == FrameTable.FLAG_NONE) {
                        flag = FrameTable.FLAG_NONE;
                    } else if (flag == FrameTable.FLAG_JANKY || rf == FrameTable.FLAG_JANKY) {
                        flag = FrameTable.FLAG_JANKY;
                    } else if (flag == FrameTable.FLAG_ABNORMAL_START || rf == FrameTable.FLAG_ABNORMAL_START) {
                        flag = FrameTable.FLAG_ABNORMAL_START;
                    } else {
                        flag = FrameTable.FLAG_ON_TIME;
                    }
                    timelineEnd = rEnd;
                    why = reasonLinked(t.flag(r), rf, rEnd, t.endedByGpu(d));
                } else {
                    why = reason(flag, end, true, false, false);
                }
                frame = new TraceFrame(e >= 0 ? "app" : "parallel", process.name(), process.pid(), thread.tid(), vsync(t, r),
                        t.frameNum(r) == FrameTable.INVALID32 ? TraceFrame.UNKNOWN : t.frameNum(r),
                        start, end, expStart, expEnd, rStart, rEnd, rExpStart, rExpEnd, g, start, timelineEnd, period,
                        flag, why, d >= 0, r);
            }
            byPid.computeIfAbsent(process.pid(), k -> new ArrayList<>()).add(frame);
        }
    }

    private static long vsync(FrameTable t, int r) {
        return t.vsync(r) == FrameTable.INVALID32 ? TraceFrame.UNKNOWN : t.vsync(r);
    }

    /** The expected row written right after actual row {@code r} by the same ReceiveVsync, or -1. */
    static int expectedRowOf(FrameTable t, int r) {
        int e = r + 1;
        if (e < t.size() && t.type(e) == FrameTable.TYPE_EXPECTED && t.itid(e) == t.itid(r)
                && t.callstack(e) == t.callstack(r)) {
            return e;
        }
        return -1;
    }

    private static String reason(int flag, long end, boolean app, boolean endedByGpu, boolean render) {
        if (flag == FrameTable.FLAG_INVALID) {
            return "empty";
        }
        if (end == TraceFrame.UNKNOWN || flag == FrameTable.FLAG_NONE) {
            return "unfinished";
        }
        if (flag == FrameTable.FLAG_JANKY) {
            if (render) {
                return endedByGpu ? "gpu" : "render-late";
            }
            return "app-late";
        }
        if (flag == FrameTable.FLAG_ABNORMAL_START) {
            return "late-pickup";
        }
        return app ? "no-render-link" : "none";
    }

    private static String reasonLinked(int appFlag, int renderFlag, long renderEnd, boolean endedByGpu) {
        if (appFlag == FrameTable.FLAG_INVALID || renderFlag == FrameTable.FLAG_INVALID) {
            return "empty";
        }
        if (appFlag == FrameTable.FLAG_NONE || renderFlag == FrameTable.FLAG_NONE || renderEnd == TraceFrame.UNKNOWN) {
            return "unfinished";
        }
        if (appFlag == FrameTable.FLAG_JANKY) {
            return "app-late";
        }
        if (renderFlag == FrameTable.FLAG_JANKY) {
            return endedByGpu ? "gpu" : "render-late";
        }
        if (renderFlag == FrameTable.FLAG_ABNORMAL_START) {
            return "late-pickup";
        }
        return "none";
    }

    /**
     * Whether each Android frame is janky, as Android's jank tracker says - the one dumpsys and
     * proto run on the same frames, in the same order, with the same refresh interval when the
     * process has only Android frames: so the summary, CSV, JSON, dumpsys, proto and
     * {@code report --trace} count the same janky frames. It differs from "ended after vsync +
     * period" in one case: a frame ending exactly at its deadline is janky (Android's test is
     * "completed before the deadline").
     */
    private static void androidVerdicts(List<TraceFrame> frames, long refresh) {
        if (frames.stream().noneMatch(f -> f.role().equals("android"))) {
            return;
        }
        FrameInfos.Verdicts tracker = new FrameInfos.Verdicts(refresh);
        for (int i = 0; i < frames.size(); i++) {
            TraceFrame f = frames.get(i);
            Boolean verdict = tracker.janky(f);
            if (verdict == null || !f.role().equals("android")) {
                continue;
            }
            boolean janky = verdict;
            String why = !janky ? "none" : f.appEnd() > f.expectedEnd() ? "app-late" : "render-late";
            frames.set(i, new TraceFrame(f.role(), f.process(), f.pid(), f.tid(), f.vsyncId(), f.frameIndex(),
                    f.appStart(), f.appEnd(), f.expectedStart(), f.expectedEnd(), f.renderStart(), f.renderEnd(),
                    f.renderExpectedStart(), f.renderExpectedEnd(), f.gpuDur(), f.timelineStart(), f.timelineEnd(),
                    f.period(), janky ? FrameTable.FLAG_JANKY : FrameTable.FLAG_ON_TIME, why, f.linked(), f.actualRow()));
        }
    }

    private static void android(Trace trace, Map<Integer, List<TraceFrame>> byPid, Map<Integer, String> names,
                                long period) {
        Map<Integer, Long> anchor = new HashMap<>();
        for (AndroidFrames.Frame f : trace.androidFrames()) {
            anchor.merge(f.doFrame().pid, f.doFrame().start, Math::min);
        }
        for (AndroidFrames.Frame f : trace.androidFrames()) {
            AndroidFrames.Slice d = f.doFrame();
            AndroidFrames.Slice r = f.drawFrames();
            if (r == null) {
                // A doFrame that drew nothing (input or animation callbacks that changed no view):
                // the RenderThread gets no frame, and Android's JankTracker and FrameTimeline count none.
                continue;
            }
            long a = anchor.get(d.pid);
            // The vsync the frame was for: Choreographer#onVsync <vsyncId> says when it arrived;
            // without it, the period grid anchored at the process's first doFrame.
            long intended = f.vsyncTime() != FrameTable.INVALID && f.vsyncTime() <= d.start
                    ? f.vsyncTime() : a + (d.start - a) / period * period;
            long deadline = intended + period;
            long appEnd = known(d.end);
            long rStart = r.start;
            long rEnd = known(r.end);
            long end = rEnd;
            int flag;
            String why;
            if (end == TraceFrame.UNKNOWN || appEnd == TraceFrame.UNKNOWN) {
                flag = FrameTable.FLAG_NONE;
                why = "unfinished";
            } else if (end > deadline) {
                flag = FrameTable.FLAG_JANKY;
                why = appEnd > deadline ? "app-late" : "render-late";
            } else {
                flag = FrameTable.FLAG_ON_TIME;
                why = "none";
            }
            TraceFrame frame = new TraceFrame("android", names.getOrDefault(d.pid, "pid " + d.pid), d.pid, d.tid,
                    d.vsyncId, TraceFrame.UNKNOWN, d.start, appEnd, intended, deadline, rStart, rEnd,
                    TraceFrame.UNKNOWN, TraceFrame.UNKNOWN, TraceFrame.UNKNOWN, d.start, end, period, flag, why,
                    true, -1);
            byPid.computeIfAbsent(d.pid, k -> new ArrayList<>()).add(frame);
        }
    }
}
