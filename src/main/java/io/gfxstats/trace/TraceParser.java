package io.gfxstats.trace;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One pass over a trace: per-thread B/E slice stacks and S/F async pairs (spec 5, step 3), the
 * dispatch of spec 3.1 to {@link OhosFrames}, Android's doFrame/DrawFrames to {@link AndroidFrames},
 * and the clock-offset evidence of spec 2.4. Threads and processes get internal ids (itid, ipid) in
 * order of first appearance; 0 is trace_streamer's placeholder for both.
 */
public final class TraceParser implements MarkerSink {
    private static final byte[] H_PREFIX = MarkerLine.ascii("H:");
    /** The B names frames need, checked on bytes so that other markers make no String. */
    private static final byte[][] FRAME_PREFIXES = {
        MarkerLine.ascii("H:ReceiveVsync"), MarkerLine.ascii("H:OnVsyncEvent"),
        MarkerLine.ascii("H:MarshRSTransactionData"), MarkerLine.ascii("H:RSMainThread::"),
        MarkerLine.ascii("H:UIVsyncTask"), MarkerLine.ascii("H:VSync now:"),
    };
    private static final byte[] DO_FRAME = MarkerLine.ascii(AndroidFrames.DO_FRAME);
    private static final byte[] DRAW_FRAMES = MarkerLine.ascii(AndroidFrames.DRAW_FRAMES);
    private static final String RECEIVE_VSYNC = "H:ReceiveVsync";
    private static final String ON_VSYNC_EVENT = "H:OnVsyncEvent";
    private static final String MARSH_TRANSACTION = "H:MarshRSTransactionData";
    private static final String PROCESS_COMMAND = "H:RSMainThread::ProcessCommandUni";
    private static final String DO_COMPOSITION = "H:RSMainThread::DoComposition";
    private static final String UI_VSYNC_TASK = "H:UIVsyncTask";
    private static final String VSYNC_NOW = "H:VSync now:";
    private static final String FRAME_QUEUED = "H:M: Frame queued";
    /** Upstream remembers at most this many ReceiveVsync/OnVsyncEvent slices per thread for OnVsyncEvent. */
    private static final int MAX_REMEMBERED_FOR_ON_VSYNC = 2;

    private static final Pattern KEY_VALUE = Pattern.compile("(\\w+):\\s*(\\w+)");
    private static final Pattern UI_VSYNC_KEYS = Pattern.compile("\\[(\\w+):(\\d+)\\]");
    private static final Pattern TRANSACTION_WITH_TID =
            Pattern.compile("transactionFlag:\\[(\\d+),(\\d+)\\],\\s*tid:(\\d+),\\s*timestamp:(\\d+)");
    private static final Pattern TRANSACTION = Pattern.compile("transactionFlag:\\[(\\d+),(\\d+)\\]");
    private static final Pattern PAIR = Pattern.compile("\\[(\\d+),(\\d+)\\]");
    private static final Pattern CHAIN = Pattern.compile("H:\\[[a-z0-9]+,[a-z0-9]+,[a-z0-9]+\\]#(.*)");

    /** A thread seen in a marker line. */
    public static final class ThreadInfo {
        final int itid;
        final int tid;
        int ipid;
        String name;
        long[] stackIds = new long[8];
        Object[] stackTags = new Object[8];
        int depth;
        long[] remembered = new long[4];
        int rememberedCount;

        ThreadInfo(int itid, int tid) {
            this.itid = itid;
            this.tid = tid;
        }

        public int itid() {
            return itid;
        }

        public int tid() {
            return tid;
        }

        public int ipid() {
            return ipid;
        }

        public String name() {
            return name;
        }
    }

    /** A process (payload pid, else row TGID) seen in a marker line. */
    public static final class ProcessInfo {
        final int ipid;
        final int pid;
        int kernelTgid = -1;
        String name;
        boolean nameFromMainThread;

        ProcessInfo(int ipid, int pid) {
            this.ipid = ipid;
            this.pid = pid;
        }

        public int ipid() {
            return ipid;
        }

        public int pid() {
            return pid;
        }

        /** The row TGID of its threads when it differs from the payload pid (container apps), else -1. */
        public int kernelTgid() {
            return kernelTgid;
        }

        public String name() {
            return name != null ? name : "pid " + pid;
        }
    }

    private final OhosFrames ohos = new OhosFrames();
    private final AndroidFrames android = new AndroidFrames();
    private final Map<Integer, ThreadInfo> threads = new HashMap<>();
    private final List<ThreadInfo> threadList = new ArrayList<>();
    private final Map<Integer, ProcessInfo> processes = new HashMap<>();
    private final List<ProcessInfo> processList = new ArrayList<>();
    private final Map<String, Long> openFrameQueued = new HashMap<>();
    private final Set<Long> frameQueuedIds = new HashSet<>();
    private long nextSliceId;
    /** One-entry caches: consecutive lines mostly come from one thread. */
    private ThreadInfo lastThread;
    private ProcessInfo lastProcess;
    private long minVsyncLineOffset = Long.MAX_VALUE;
    private long vsyncNowLines;
    private long minRsReceiveVsyncOffset = Long.MAX_VALUE;
    private long rsReceiveVsyncs;
    private boolean sawOhosMarker;
    private long[] pairs = new long[16];

    TraceParser() {
        threadList.add(null);
        processList.add(null);
    }

    /** Parses a whole trace; see {@link TraceReader#read}. */
    public static Trace parse(InputStream in, String source, ClockOffset clock, LongConsumer progress)
            throws IOException, TraceFormatException {
        TraceParser parser = new TraceParser();
        TraceReader.Stats stats = TraceReader.read(in, source, parser, progress);
        if (!stats.hasEvents()) {
            throw new TraceFormatException(source + ": no ftrace event lines"
                    + " ('<task>-<tid> (<tgid>) [<cpu>] <flags> <sec>.<frac>: <event>: ...'): not a text trace");
        }
        return parser.finish(stats, clock);
    }

    private ThreadInfo thread(int tid) {
        if (lastThread != null && lastThread.tid == tid) {
            return lastThread;
        }
        ThreadInfo t = threads.get(tid);
        if (t == null) {
            t = new ThreadInfo(threadList.size(), tid);
            threads.put(tid, t);
            threadList.add(t);
        }
        lastThread = t;
        return t;
    }

    /** The internal id of a thread seen so far, -1 for one never seen (it has no frames). */
    private int itidOrNone(int tid) {
        ThreadInfo t = threads.get(tid);
        return t == null ? -1 : t.itid;
    }

    private ProcessInfo process(int pid) {
        if (lastProcess != null && lastProcess.pid == pid) {
            return lastProcess;
        }
        ProcessInfo p = processes.get(pid);
        if (p == null) {
            p = new ProcessInfo(processList.size(), pid);
            processes.put(pid, p);
            processList.add(p);
        }
        lastProcess = p;
        return p;
    }

    @Override
    public void marker(MarkerLine line) {
        int tid = line.tid();
        int pid = line.pid();
        ThreadInfo t = thread(tid);
        ProcessInfo p = process(pid);
        t.ipid = p.ipid;
        if (t.name == null) {
            t.name = line.task();
        }
        if (!p.nameFromMainThread) {
            if (tid == pid || tid == line.rowTgid()) {
                p.name = t.name.equals("<...>") ? p.name : t.name;
                p.nameFromMainThread = p.name != null;
            } else if (p.name == null && !t.name.equals("<...>")) {
                p.name = t.name;
            }
        }
        if (line.rowTgid() >= 0 && line.rowTgid() != pid) {
            p.kernelTgid = line.rowTgid();
        }
        switch (line.phase()) {
            case 'B' -> begin(line, t, p);
            case 'E' -> end(line, t);
            case 'S' -> asyncStart(line);
            case 'F' -> asyncFinish(line);
            default -> {
                // counters and track-async markers carry nothing frames use
            }
        }
    }

    private void push(ThreadInfo t, long id, Object tag) {
        if (t.depth == t.stackIds.length) {
            t.stackIds = java.util.Arrays.copyOf(t.stackIds, t.depth * 2);
            t.stackTags = java.util.Arrays.copyOf(t.stackTags, t.depth * 2);
        }
        t.stackIds[t.depth] = id;
        t.stackTags[t.depth] = tag;
        t.depth++;
    }

    private static void remember(ThreadInfo t, long id) {
        if (t.rememberedCount == t.remembered.length) {
            t.remembered = java.util.Arrays.copyOf(t.remembered, t.rememberedCount * 2);
        }
        t.remembered[t.rememberedCount++] = id;
    }

    private void begin(MarkerLine line, ThreadInfo t, ProcessInfo p) {
        long id = nextSliceId++;
        Object tag = null;
        if (line.nameStartsWith(H_PREFIX)) {
            for (byte[] prefix : FRAME_PREFIXES) {
                if (line.nameStartsWith(prefix)) {
                    frameBegin(line, t, p, id);
                    break;
                }
            }
        } else if (line.nameStartsWith(DO_FRAME)) {
            long vsyncId = AndroidFrames.idAfter(line.name(), AndroidFrames.DO_FRAME);
            if (vsyncId >= 0) {
                tag = android.doFrame(p.pid, t.tid, vsyncId, line.ts());
            }
        } else if (line.nameStartsWith(DRAW_FRAMES)) {
            long vsyncId = AndroidFrames.idAfter(line.name(), AndroidFrames.DRAW_FRAMES);
            if (vsyncId >= 0) {
                tag = android.drawFrames(p.pid, t.tid, vsyncId, line.ts());
            }
        }
        push(t, id, tag);
    }

    private void frameBegin(MarkerLine line, ThreadInfo t, ProcessInfo p, long id) {
        String name = line.name();
        int space = name.indexOf(' ');
        String prefix = space < 0 ? name : name.substring(0, space);
        String args = space < 0 ? "" : name.substring(space + 1);
        switch (prefix) {
            case RECEIVE_VSYNC -> {
                sawOhosMarker = true;
                receiveVsync(line, t, p, args, id);
            }
            case ON_VSYNC_EVENT -> {
                sawOhosMarker = true;
                if (p.pid != t.tid) {
                    ohos.parallelFrame(line.ts(), p.ipid, t.itid, id);
                }
                if (t.rememberedCount < MAX_REMEMBERED_FOR_ON_VSYNC) {
                    remember(t, id);
                }
            }
            case MARSH_TRANSACTION -> {
                sawOhosMarker = true;
                transaction(t, args);
            }
            case PROCESS_COMMAND -> {
                sawOhosMarker = true;
                processCommand(t, args);
            }
            default -> {
                if (prefix.startsWith(DO_COMPOSITION)) {
                    sawOhosMarker = true;
                    ohos.doComposition(t.itid);
                } else if (prefix.startsWith(UI_VSYNC_TASK)) {
                    sawOhosMarker = true;
                    uiVsyncTask(t, p, prefix);
                } else if (name.startsWith(VSYNC_NOW)) {
                    vsyncNow(line.ts(), name);
                }
            }
        }
    }

    private void receiveVsync(MarkerLine line, ThreadInfo t, ProcessInfo p, String args, long id) {
        long now = FrameTable.INVALID;
        long expectedEnd = FrameTable.INVALID;
        long vsyncId = FrameTable.INVALID32;
        boolean renderServiceReceiver = false;
        Matcher m = KEY_VALUE.matcher(args);
        while (m.find()) {
            String key = m.group(1);
            if (key.equals("name")) {
                renderServiceReceiver = m.group(2).equals("rs");
            }
            if (key.equals("now") || key.equals("expectedEnd") || key.equals("vsyncId")) {
                long v = unsigned(m.group(2));
                if (v == Long.MIN_VALUE) {
                    return;
                }
                switch (key) {
                    case "now" -> now = v;
                    case "expectedEnd" -> expectedEnd = v;
                    default -> vsyncId = v & FrameTable.INVALID32;
                }
            }
        }
        if (now == 0 || expectedEnd == 0 || vsyncId == 0) {
            return;
        }
        ohos.receiveVsync(line.ts(), p.ipid, t.itid, now, expectedEnd, vsyncId, id);
        remember(t, id);
        if (renderServiceReceiver && now != FrameTable.INVALID) {
            rsReceiveVsyncs++;
            minRsReceiveVsyncOffset = Math.min(minRsReceiveVsyncOffset, line.ts() - now);
        }
    }

    /** A non-negative decimal (up to 64 bits unsigned), or Long.MIN_VALUE when it is not one. */
    private static long unsigned(String s) {
        if (s.isEmpty() || s.length() > 20) {
            return Long.MIN_VALUE;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return Long.MIN_VALUE;
            }
        }
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    private void transaction(ThreadInfo t, String args) {
        Matcher m = TRANSACTION_WITH_TID.matcher(args);
        if (m.find()) {
            long appPid = unsigned(m.group(1));
            long index = unsigned(m.group(2));
            long senderTid = unsigned(m.group(3));
            long timestamp = unsigned(m.group(4));
            if (appPid < 0 || index < 0 || senderTid < 0 || senderTid > Integer.MAX_VALUE || timestamp == Long.MIN_VALUE) {
                return;
            }
            ohos.transactionAt(itidOrNone((int) senderTid), (int) appPid, index & FrameTable.INVALID32, timestamp);
            return;
        }
        m = TRANSACTION.matcher(args);
        if (m.find()) {
            long appPid = unsigned(m.group(1));
            long index = unsigned(m.group(2));
            if (appPid < 0 || index < 0) {
                return;
            }
            ohos.transaction(t.itid, (int) appPid, index & FrameTable.INVALID32);
        }
    }

    private void processCommand(ThreadInfo t, String args) {
        Matcher m = PAIR.matcher(args);
        int n = 0;
        while (m.find()) {
            long appPid = unsigned(m.group(1));
            long index = unsigned(m.group(2));
            if (appPid < 0 || index < 0) {
                continue;
            }
            if (2 * n + 2 > pairs.length) {
                pairs = java.util.Arrays.copyOf(pairs, pairs.length * 2);
            }
            pairs[2 * n] = (int) appPid;
            pairs[2 * n + 1] = index & FrameTable.INVALID32;
            n++;
        }
        ohos.processCommand(t.itid, pairs, n);
    }

    private void uiVsyncTask(ThreadInfo t, ProcessInfo p, String prefix) {
        Matcher m = UI_VSYNC_KEYS.matcher(prefix);
        long timestamp = 0;
        while (m.find()) {
            String key = m.group(1);
            long v = unsigned(m.group(2));
            if (v == Long.MIN_VALUE) {
                return;
            }
            if (key.equals("timestamp")) {
                timestamp = v;
            }
            if (key.equals("vsyncID")) {
                if (p.pid != t.tid) {
                    ohos.uiVsyncTask(t.itid, itidOrNone(p.pid), v & FrameTable.INVALID32, timestamp);
                }
                return;
            }
        }
    }

    private void vsyncNow(long ts, String name) {
        int i = VSYNC_NOW.length();
        int j = i;
        while (j < name.length() && Character.isDigit(name.charAt(j))) {
            j++;
        }
        long now = j > i && j - i <= 19 ? Long.parseLong(name.substring(i, j)) : -1;
        if (now > 0) {
            vsyncNowLines++;
            minVsyncLineOffset = Math.min(minVsyncLineOffset, ts - now);
        }
    }

    private void end(MarkerLine line, ThreadInfo t) {
        if (t.depth == 0) {
            return;
        }
        t.depth--;
        long id = t.stackIds[t.depth];
        Object tag = t.stackTags[t.depth];
        t.stackTags[t.depth] = null;
        for (int i = 0; i < t.rememberedCount; i++) {
            if (t.remembered[i] == id) {
                ohos.endVsync(line.ts(), t.itid);
                System.arraycopy(t.remembered, i + 1, t.remembered, i, t.rememberedCount - i - 1);
                t.rememberedCount--;
                break;
            }
        }
        if (tag instanceof AndroidFrames.Slice s) {
            s.end = line.ts();
        }
    }

    private static String asyncKey(int pid, String name, long cookie) {
        return pid + "|" + cookie + "|" + name;
    }

    /**
     * An S/F name as upstream reads it: a HiTraceChain prefix {@code H:[chain,span,parent]#} is removed
     * from async names (not from B names, whose frame events then go unrecognised).
     */
    private static String asyncName(MarkerLine line) {
        String name = line.name();
        if (name.startsWith("H:[")) {
            Matcher m = CHAIN.matcher(name);
            if (m.matches()) {
                return "H:" + m.group(1);
            }
        }
        return name;
    }

    private void asyncStart(MarkerLine line) {
        long id = nextSliceId++;
        if (!line.nameStartsWith(H_PREFIX)) {
            return;
        }
        String name = asyncName(line);
        if (!name.equals(FRAME_QUEUED)) {
            return;
        }
        int pid = line.pid();
        openFrameQueued.put(asyncKey(pid, name, line.value()), id);
        if (ohos.frameQueuedStart(line.ts(), itidOrNone(pid))) {
            frameQueuedIds.add(id);
        }
    }

    private void asyncFinish(MarkerLine line) {
        if (!line.nameStartsWith(H_PREFIX)) {
            return;
        }
        String name = asyncName(line);
        if (!name.equals(FRAME_QUEUED)) {
            return;
        }
        int pid = line.pid();
        Long id = openFrameQueued.remove(asyncKey(pid, name, line.value()));
        if (id != null && frameQueuedIds.remove(id)) {
            ohos.frameQueuedEnd(line.ts(), itidOrNone(pid));
        }
    }

    private Trace finish(TraceReader.Stats stats, ClockOffset clock) {
        ClockOffset.Applied applied = switch (clock.mode()) {
            case NONE -> new ClockOffset.Applied(0, "none: raw now/expectedEnd, as trace_streamer reads text");
            case FIXED -> new ClockOffset.Applied(clock.nanos(), "given");
            case AUTO -> estimate();
        };
        FrameTable table = ohos.finish(applied.nanos());
        return new Trace(table, android.frames(), List.copyOf(threadList.subList(1, threadList.size())),
                List.copyOf(processList.subList(1, processList.size())), applied, stats, sawOhosMarker);
    }

    private ClockOffset.Applied estimate() {
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
            return new ClockOffset.Applied(fallback, "auto: min(ReceiveVsync ts - now) over RenderService frames");
        }
        return new ClockOffset.Applied(0, "auto: no vsync clock in the trace, raw");
    }
}
