package io.gfxstats.trace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An independent implementation of spec section 3 (tests only), written from the spec and kept
 * deliberately unlike the production code: whole lines are read with one regular expression, the
 * trace is held in memory and read twice (the clock offset first, then the frames, with expected
 * times shifted as they are created, the way trace_streamer shifts htrace times), open frames are
 * one global list filtered by thread, and rows are plain objects. Output: rows keyed by tid/pid, so
 * they can be compared with any numbering of internal ids.
 */
final class SpecFrames {
    static final long NONE = Long.MIN_VALUE;

    private static final Pattern ROW = Pattern.compile(
            "^\\s*(.*?)-(\\d+)\\s+(?:\\(\\s*([-\\d]+)\\)\\s+)?\\[\\d+\\]\\s+(?:\\S+\\s+)?(\\d+)\\.(\\d+):\\s+(tracing_mark_write|print): (.*)$");
    private static final Pattern ARG = Pattern.compile("(\\w+):\\s*(\\w+)");

    /** One frame_slice row; NONE for NULL. */
    static final class Row {
        long ts;
        long dur = NONE;
        long vsync;
        int pid;
        int tid;
        int type;
        int flag = 255;
        final List<Integer> src = new ArrayList<>();
        int dst = -1;

        String describe(int id) {
            StringBuilder s = new StringBuilder();
            for (int i : src) {
                s.append(s.length() == 0 ? "" : ",").append(i);
            }
            return id + " ts=" + (ts == NONE ? "N" : ts) + " dur=" + (dur == NONE ? "N" : dur) + " vsync="
                    + (vsync == NONE ? "N" : vsync) + " type=" + type + " flag=" + (flag == 255 ? "N" : flag) + " src="
                    + s + " dst=" + (dst < 0 ? "N" : dst) + " pid=" + pid + " tid=" + tid;
        }
    }

    static final class Frame {
        int tid;
        int actual;
        int expected = -1;
        long deadline = NONE;
        long key = NONE;
        long now = NONE;
        long index = NONE;
        boolean open = true;
        boolean render;
        boolean vsyncEnded;
        boolean ended;
        boolean gpuDone = true;
        long gpuStart = NONE;
        long end = NONE;
    }

    final List<Row> rows = new ArrayList<>();
    final List<int[]> maps = new ArrayList<>();
    final List<long[]> gpu = new ArrayList<>();
    long offset;

    private final List<Frame> frames = new ArrayList<>();
    private final Map<String, Frame> registered = new HashMap<>();
    private final Map<Integer, Deque<Long>> stacks = new HashMap<>();
    private final Map<Integer, List<Long>> remembered = new HashMap<>();
    private final Map<String, Long> asyncOpen = new HashMap<>();
    private final List<Long> gpuSlices = new ArrayList<>();
    private long sliceCounter;

    /** A marker line: tid, pid (payload, else row), ts, phase, name (B: whole rest), value. */
    record Marker(int tid, int pid, long ts, char phase, String name, long value) {
    }

    static List<Marker> markers(String text) {
        List<Marker> out = new ArrayList<>();
        for (String line : text.split("\r?\n")) {
            Matcher m = ROW.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String frac = (m.group(5) + "000000000").substring(0, 9);
            long ts = Long.parseLong(m.group(4)) * 1_000_000_000L + Long.parseLong(frac);
            int rowPid = m.group(3) == null || m.group(3).startsWith("-") ? -1 : Integer.parseInt(m.group(3));
            Marker mk = marker(Integer.parseInt(m.group(2)), rowPid, ts, m.group(7));
            if (mk != null) {
                out.add(mk);
            }
        }
        return out;
    }

    private static Marker marker(int tid, int rowPid, long ts, String p) {
        if (p.isEmpty() || p.length() > 1 && p.charAt(1) != '|') {
            return null;
        }
        char phase = p.charAt(0);
        String[] parts = p.split("\\|", 3);
        int pid = parts.length > 1 && !parts[1].isEmpty() ? Integer.parseInt(parts[1]) : 0;
        int effective = pid != 0 ? pid : rowPid;
        String rest = parts.length > 2 ? parts[2] : "";
        switch (phase) {
            case 'B':
                String name = rest.replaceAll(" +$", "");
                return name.isEmpty() ? null : new Marker(tid, effective, ts, 'B', name, 0);
            case 'E':
                return new Marker(tid, effective, ts, 'E', "", 0);
            case 'S':
            case 'F':
                int bar = rest.indexOf('|');
                String n;
                String v;
                if (bar >= 0) {
                    n = rest.substring(0, bar);
                    String tail = rest.substring(bar + 1);
                    v = tail.contains("|") ? tail.substring(0, tail.indexOf('|')) : tail;
                } else {
                    int sp = rest.lastIndexOf(' ');
                    if (sp < 0) {
                        return null;
                    }
                    n = rest.substring(0, sp);
                    v = rest.substring(sp + 1);
                }
                n = n.replaceFirst("^H:\\[[a-z0-9]+,[a-z0-9]+,[a-z0-9]+\\]#", "H:");
                return new Marker(tid, effective, ts, phase, n, Long.parseLong(v));
            default:
                return null;
        }
    }

    static SpecFrames run(String text, Long fixedOffset) {
        List<Marker> markers = markers(text);
        SpecFrames s = new SpecFrames();
        s.offset = fixedOffset != null ? fixedOffset : autoOffset(markers);
        for (Marker m : markers) {
            s.step(m);
        }
        s.end();
        return s;
    }

    /**
     * Spec 2.4: min(ts - now) over "H:VSync now:" lines, else over RenderService's ReceiveVsync
     * ({@code name:rs}), else over render frames (ReceiveVsync with DoComposition, for receivers
     * that print no name).
     */
    static long autoOffset(List<Marker> markers) {
        long best = Long.MAX_VALUE;
        for (Marker m : markers) {
            if (m.phase() == 'B' && m.name().startsWith("H:VSync now:")) {
                Matcher d = Pattern.compile("^H:VSync now:(\\d+)").matcher(m.name());
                if (d.find() && Long.parseLong(d.group(1)) > 0) {
                    best = Math.min(best, m.ts() - Long.parseLong(d.group(1)));
                }
            }
        }
        if (best != Long.MAX_VALUE) {
            return best;
        }
        for (Marker m : markers) {
            if (m.phase() == 'B' && m.name().startsWith("H:ReceiveVsync ") && m.name().contains(" name:rs ")) {
                long now = arg(m.name(), "now");
                if (now != NONE && now != 0 && arg(m.name(), "expectedEnd") != 0 && arg(m.name(), "vsyncId") != 0) {
                    best = Math.min(best, m.ts() - now);
                }
            }
        }
        if (best != Long.MAX_VALUE) {
            return best;
        }
        SpecFrames probe = new SpecFrames();
        for (Marker m : markers) {
            probe.step(m);
        }
        for (Frame f : probe.frames) {
            if (f.render && f.now != NONE) {
                best = Math.min(best, probe.rows.get(f.actual).ts - f.now);
            }
        }
        return best == Long.MAX_VALUE ? 0 : best;
    }

    private List<Frame> openOn(int tid) {
        List<Frame> out = new ArrayList<>();
        for (Frame f : frames) {
            if (f.open && f.tid == tid) {
                out.add(f);
            }
        }
        return out;
    }

    private Frame lastOn(int tid) {
        List<Frame> l = openOn(tid);
        return l.isEmpty() ? null : l.get(l.size() - 1);
    }

    private Row row(long ts, Marker m, long vsync, int type) {
        Row r = new Row();
        r.ts = ts;
        r.pid = m.pid();
        r.tid = m.tid();
        r.vsync = vsync;
        r.type = type;
        rows.add(r);
        return r;
    }

    private void step(Marker m) {
        switch (m.phase()) {
            case 'B' -> {
                long id = sliceCounter++;
                stacks.computeIfAbsent(m.tid(), k -> new ArrayDeque<>()).push(id);
                begin(m, id);
            }
            case 'E' -> {
                Deque<Long> st = stacks.get(m.tid());
                if (st == null || st.isEmpty()) {
                    return;
                }
                long id = st.pop();
                List<Long> rem = remembered.get(m.tid());
                if (rem != null && rem.remove(Long.valueOf(id))) {
                    endVsync(m);
                }
            }
            case 'S' -> {
                long id = sliceCounter++;
                if (m.name().equals("H:M: Frame queued")) {
                    asyncOpen.put(m.pid() + "/" + m.value(), id);
                    List<Frame> l = openOn(m.pid());
                    if (!l.isEmpty()) {
                        l.get(0).gpuDone = false;
                        l.get(0).gpuStart = m.ts();
                        gpuSlices.add(id);
                    }
                }
            }
            case 'F' -> {
                if (!m.name().equals("H:M: Frame queued")) {
                    return;
                }
                Long id = asyncOpen.remove(m.pid() + "/" + m.value());
                if (id == null || !gpuSlices.remove(id)) {
                    return;
                }
                List<Frame> l = openOn(m.pid());
                if (l.isEmpty()) {
                    return;
                }
                Frame f = l.get(0);
                gpu.add(new long[] {f.actual, m.ts() - (f.gpuStart == NONE ? -1 : f.gpuStart)});
                f.gpuDone = true;
                if (f.vsyncEnded) {
                    finishRow(f, m.ts());
                    f.open = false;
                }
            }
            default -> {
            }
        }
    }

    private static long arg(String args, String key) {
        Matcher a = ARG.matcher(args);
        long v = NONE;
        while (a.find()) {
            if (a.group(1).equals(key)) {
                v = Long.parseLong(a.group(2));
            }
        }
        return v;
    }

    private void begin(Marker m, long id) {
        String name = m.name();
        String head = name.contains(" ") ? name.substring(0, name.indexOf(' ')) : name;
        String args = name.contains(" ") ? name.substring(name.indexOf(' ') + 1) : "";
        boolean main = m.pid() == m.tid();
        if (head.equals("H:ReceiveVsync")) {
            long now = arg(args, "now");
            long end = arg(args, "expectedEnd");
            long vsync = arg(args, "vsyncId");
            if (now == 0 || end == 0 || vsync == 0) {
                return;
            }
            Frame f = new Frame();
            f.tid = m.tid();
            f.key = now;
            f.now = now;
            f.deadline = end == NONE ? NONE : end + offset;
            f.actual = rows.size();
            row(m.ts(), m, vsync, 0);
            f.expected = rows.size();
            Row e = row(now == NONE ? NONE : now + offset, m, vsync, 1);
            e.dur = now == NONE || end == NONE ? NONE : end - now;
            frames.add(f);
            remembered.computeIfAbsent(m.tid(), k -> new ArrayList<>()).add(id);
        } else if (head.equals("H:OnVsyncEvent")) {
            if (!main) {
                Frame f = new Frame();
                f.tid = m.tid();
                f.actual = rows.size();
                row(m.ts(), m, NONE, 0);
                frames.add(f);
            }
            List<Long> rem = remembered.computeIfAbsent(m.tid(), k -> new ArrayList<>());
            if (rem.size() < 2) {
                rem.add(id);
            }
        } else if (head.equals("H:MarshRSTransactionData")) {
            Matcher c = Pattern.compile("transactionFlag:\\[(\\d+),(\\d+)\\],\\s*tid:(\\d+),\\s*timestamp:(\\d+)").matcher(args);
            Matcher ab = Pattern.compile("transactionFlag:\\[(\\d+),(\\d+)\\]").matcher(args);
            if (c.find()) {
                for (Frame f : openOn(Integer.parseInt(c.group(3)))) {
                    if (f.key == Long.parseLong(c.group(4))) {
                        f.index = Long.parseLong(c.group(2));
                        if (f.ended) {
                            f.open = false;
                        }
                        registered.put(c.group(1) + ":" + c.group(2), f);
                        break;
                    }
                }
            } else if (ab.find()) {
                Frame f = lastOn(m.tid());
                if (f != null && !f.ended) {
                    f.index = Long.parseLong(ab.group(2));
                    registered.put(ab.group(1) + ":" + ab.group(2), f);
                }
            }
        } else if (head.equals("H:RSMainThread::ProcessCommandUni")) {
            Frame r = lastOn(m.tid());
            if (r == null || r.vsyncEnded) {
                return;
            }
            Matcher p = Pattern.compile("\\[(\\d+),(\\d+)\\]").matcher(args);
            while (p.find()) {
                String key = p.group(1) + ":" + p.group(2);
                Frame app = registered.get(key);
                if (app == null) {
                    continue;
                }
                maps.add(new int[] {app.actual, r.actual});
                rows.get(app.actual).dst = r.actual;
                rows.get(r.actual).src.add(app.actual);
                if (app.expected >= 0) {
                    maps.add(new int[] {app.expected, r.expected});
                    rows.get(app.expected).dst = r.expected;
                    rows.get(r.expected).src.add(app.expected);
                    Row re = rows.get(r.expected);
                    Row ae = rows.get(app.expected);
                    if (Math.abs(re.ts - (ae.ts + ae.dur)) >= 1_000_000L) {
                        rows.get(r.actual).flag = 3;
                    }
                }
                if (app.end != NONE) {
                    registered.remove(key);
                }
            }
        } else if (head.startsWith("H:RSMainThread::DoComposition")) {
            Frame f = lastOn(m.tid());
            if (f != null) {
                f.render = true;
            }
        } else if (head.startsWith("H:UIVsyncTask") && !main) {
            Matcher t = Pattern.compile("\\[timestamp:(\\d+)\\]\\[vsyncID:(\\d+)\\]").matcher(head);
            Frame f = lastOn(m.tid());
            if (t.find() && f != null) {
                long vsync = Long.parseLong(t.group(2));
                f.key = Long.parseLong(t.group(1));
                rows.get(f.actual).vsync = vsync;
                f.deadline = NONE;
                for (int i = rows.size() - 1; i >= 0; i--) {
                    Row r = rows.get(i);
                    if (r.vsync == vsync && r.tid == m.pid()) {
                        f.deadline = r.ts + r.dur;
                        break;
                    }
                }
            }
        }
    }

    private void finishRow(Frame f, long ts) {
        f.end = ts;
        Row r = rows.get(f.actual);
        r.dur = ts - r.ts;
        if (r.flag != 3) {
            r.flag = f.deadline == NONE || f.deadline >= ts ? 0 : 1;
        }
    }

    private void endVsync(Marker m) {
        Frame f = lastOn(m.tid());
        if (f == null) {
            return;
        }
        f.vsyncEnded = true;
        if (f.render) {
            if (f.gpuDone) {
                finishRow(f, m.ts());
                f.open = false;
            }
        } else if (!f.ended) {
            finishRow(f, m.ts());
            f.ended = true;
            if (f.index != NONE) {
                f.open = false;
            }
        }
    }

    private void end() {
        Map<Integer, Boolean> stopped = new HashMap<>();
        for (Frame f : frames) {
            if (!f.open || stopped.containsKey(f.tid)) {
                continue;
            }
            if (f.render) {
                stopped.put(f.tid, true);
                continue;
            }
            rows.get(f.actual).flag = 2;
            if (f.expected >= 0) {
                rows.get(f.expected).flag = 2;
            }
        }
    }

    List<String> describeRows() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            out.add(rows.get(i).describe(i));
        }
        return out;
    }
}
