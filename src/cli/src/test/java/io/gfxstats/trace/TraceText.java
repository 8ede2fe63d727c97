package io.gfxstats.trace;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Writes synthetic ftrace text in any of the dialects of spec 2 (tests only): API >= 19 markers
 * ({@code |M62} level/tag fields) or older ones (trailing space on B, {@code E|pid|}, space-separated
 * async cookies), {@code tracing_mark_write} or {@code print}, known or dashed TGIDs, space or TAB
 * indentation, 6- or 9-digit fractions (9 whenever the time is not a whole microsecond).
 */
final class TraceText {
    private final StringBuilder sb = new StringBuilder();
    boolean api19 = true;
    boolean print;
    boolean dashedTgid;
    boolean tab;
    boolean nineDigits;

    TraceText header() {
        sb.append("# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n");
        return this;
    }

    private TraceText line(String task, int tid, int tgid, long ts, String payload) {
        long sec = ts / 1_000_000_000L;
        long frac = ts % 1_000_000_000L;
        String time = nineDigits || frac % 1000 != 0
                ? String.format(Locale.ROOT, "%d.%09d", sec, frac)
                : String.format(Locale.ROOT, "%d.%06d", sec, frac / 1000);
        String tg = dashedTgid ? "-------" : String.format(Locale.ROOT, "%7d", tgid);
        sb.append(tab ? "\t" : "  ").append(task).append('-').append(tid).append(" (").append(tg).append(") [001] .... ")
                .append(time).append(": ").append(print ? "print" : "tracing_mark_write").append(": ")
                .append(payload).append('\n');
        return this;
    }

    TraceText b(long ts, int pid, int tid, String name) {
        return line(task(pid, tid), tid, pid, ts, "B|" + pid + "|" + name + (api19 ? "|M62" : " "));
    }

    TraceText e(long ts, int pid, int tid) {
        return line(task(pid, tid), tid, pid, ts, api19 ? "E|" + pid + "|M62" : "E|" + pid + "|");
    }

    TraceText s(long ts, int pid, int tid, String name, long cookie) {
        return line(task(pid, tid), tid, pid, ts, api19 ? "S|" + pid + "|" + name + "|" + cookie + "|M62"
                : "S|" + pid + "|" + name + " " + cookie);
    }

    TraceText f(long ts, int pid, int tid, String name, long cookie) {
        return line(task(pid, tid), tid, pid, ts, api19 ? "F|" + pid + "|" + name + "|" + cookie + "|M62"
                : "F|" + pid + "|" + name + " " + cookie);
    }

    /** A raw payload on a row of (pid, tid). */
    TraceText raw(long ts, int pid, int tid, String payload) {
        return line(task(pid, tid), tid, pid, ts, payload);
    }

    /** A kernel event that is not a marker. */
    TraceText sched(long ts, int tid) {
        long sec = ts / 1_000_000_000L;
        sb.append("  kworker/0:1-").append(tid).append(" (    ").append(tid).append(") [000] d..2 ")
                .append(String.format(Locale.ROOT, "%d.%06d", sec, ts % 1_000_000_000L / 1000))
                .append(": sched_switch: prev_comm=kworker/0:1 prev_pid=").append(tid)
                .append(" prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
        return this;
    }

    private static String task(int pid, int tid) {
        if (pid == 1000 || pid == 1864) {
            return tid == pid ? "render_service" : "RSUniRenderThre";
        }
        return tid == pid ? "com.example.app" : "OS_VSyncThread";
    }

    // The frame markers of spec 2.3.

    static String receiveVsync(long now, long expectedEnd, long vsyncId) {
        return "H:ReceiveVsync name:WM dataCount: 24bytes now: " + now + " expectedEnd: " + expectedEnd + " vsyncId: "
                + vsyncId + ", fd:30";
    }

    static String rsReceiveVsync(long now, long expectedEnd, long vsyncId) {
        return "H:ReceiveVsync name:rs dataCount: 24bytes now:" + now + " expectedEnd: " + expectedEnd + " vsyncId:"
                + vsyncId + ", fd:17";
    }

    static String onVsyncEvent(long now) {
        return "H:OnVsyncEvent now:" + now;
    }

    static String marsh(int pid, long index) {
        return "H:MarshRSTransactionData cmdCount: 5, transactionFlag:[" + pid + "," + index + "]";
    }

    static String marshAt(int pid, long index, int tid, long timestamp) {
        return "H:MarshRSTransactionData cmdCount: 5, transactionFlag:[" + pid + "," + index + "], tid:" + tid
                + ", timestamp:" + timestamp;
    }

    static String doComposition(long ts) {
        return "H:RSMainThread::DoComposition: " + ts;
    }

    static String processCommand(String pairs) {
        return pairs.isEmpty() ? "H:RSMainThread::ProcessCommandUni" : "H:RSMainThread::ProcessCommandUni " + pairs;
    }

    static String uiVsyncTask(long timestamp, long vsyncId) {
        return "H:UIVsyncTask[timestamp:" + timestamp + "][vsyncID:" + vsyncId + "][instanceID:1]";
    }

    static String vsyncNow(long now, long period) {
        return "H:VSync now:" + now + ", period:" + period + ", refreshRate:60, isDVSyncController:0";
    }

    static final String FRAME_QUEUED = "H:M: Frame queued";

    String text() {
        return sb.toString();
    }

    ByteArrayInputStream stream() {
        return new ByteArrayInputStream(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    Trace parse(ClockOffset clock) throws Exception {
        return TraceParser.parse(stream(), "test", clock, null);
    }
}
