package io.gfxstats.trace;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dispatch of OpenHarmony's frame markers to {@link OhosFrames} (spec 3.1): which B names are
 * frame events, how their arguments are read, and which values make upstream ignore the event.
 * Only the few B lines whose names start with one of {@link #PREFIXES} reach it, so Strings and
 * regular expressions are affordable here.
 */
final class OhosDispatch {
    /** The B names frames need, checked on bytes so that other markers make no String. */
    static final byte[][] PREFIXES = {
        MarkerLine.ascii("H:ReceiveVsync"), MarkerLine.ascii("H:OnVsyncEvent"),
        MarkerLine.ascii("H:MarshRSTransactionData"), MarkerLine.ascii("H:RSMainThread::"),
        MarkerLine.ascii("H:UIVsyncTask"), MarkerLine.ascii("H:VSync now:"),
    };
    private static final String RECEIVE_VSYNC = "H:ReceiveVsync";
    private static final String ON_VSYNC_EVENT = "H:OnVsyncEvent";
    private static final String MARSH_TRANSACTION = "H:MarshRSTransactionData";
    private static final String PROCESS_COMMAND = "H:RSMainThread::ProcessCommandUni";
    private static final String DO_COMPOSITION = "H:RSMainThread::DoComposition";
    private static final String UI_VSYNC_TASK = "H:UIVsyncTask";
    private static final String VSYNC_NOW = "H:VSync now:";
    /** Upstream remembers at most this many ReceiveVsync/OnVsyncEvent slices per thread for OnVsyncEvent. */
    private static final int MAX_REMEMBERED_FOR_ON_VSYNC = 2;

    private static final Pattern KEY_VALUE = Pattern.compile("(\\w+):\\s*(\\w+)");
    private static final Pattern UI_VSYNC_KEYS = Pattern.compile("\\[(\\w+):(\\d+)\\]");
    private static final Pattern TRANSACTION_WITH_TID =
            Pattern.compile("transactionFlag:\\[(\\d+),(\\d+)\\],\\s*tid:(\\d+),\\s*timestamp:(\\d+)");
    private static final Pattern TRANSACTION = Pattern.compile("transactionFlag:\\[(\\d+),(\\d+)\\]");
    private static final Pattern PAIR = Pattern.compile("\\[(\\d+),(\\d+)\\]");

    private final OhosFrames ohos;
    private final Threads threads;
    private final VsyncClock clock;
    private boolean sawOhosMarker;
    private long[] pairs = new long[16];

    OhosDispatch(OhosFrames ohos, Threads threads, VsyncClock clock) {
        this.ohos = ohos;
        this.threads = threads;
        this.clock = clock;
    }

    /** Whether any OpenHarmony frame marker was seen (VSync lines alone do not count). */
    boolean sawOhosMarker() {
        return sawOhosMarker;
    }

    /** A B line whose name starts with one of {@link #PREFIXES}; {@code id} is its slice. */
    void frameBegin(MarkerLine line, ThreadInfo t, ProcessInfo p, long id) {
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
                    SliceStacks.remember(t, id);
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
        SliceStacks.remember(t, id);
        if (renderServiceReceiver && now != FrameTable.INVALID) {
            clock.renderServiceReceiveVsync(line.ts(), now);
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
            ohos.transactionAt(threads.itidOrNone((int) senderTid), (int) appPid, index & FrameTable.INVALID32, timestamp);
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
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
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
                    ohos.uiVsyncTask(t.itid, threads.itidOrNone(p.pid), v & FrameTable.INVALID32, timestamp);
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
            clock.vsyncNow(ts, now);
        }
    }
}
