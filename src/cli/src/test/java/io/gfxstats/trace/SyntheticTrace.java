package io.gfxstats.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A large synthetic hitrace for throughput and memory tests (tests and benchmarks only, never
 * committed as a file): per 16.67 ms vsync, about 60 kernel events (sched_switch, sched_wakeup,
 * irq, binder), 60 unrelated markers and about 20 frame markers of RenderService and two apps
 * (linked, with a GPU interval every fifth frame and a late app frame every 17th).
 */
public final class SyntheticTrace {
    private static final long PERIOD = 16_666_667L;

    private SyntheticTrace() {
    }

    /** Writes at least {@code bytes} bytes of trace text; returns the number of vsyncs written. */
    public static long write(OutputStream out, long bytes) throws IOException {
        StringBuilder sb = new StringBuilder(1 << 16);
        long written = 0;
        long tick = 0;
        long base = 10_000_000_000L;
        while (written < bytes) {
            sb.setLength(0);
            long now = base + tick * PERIOD;
            for (int k = 0; k < 60; k++) {
                long ts = now + k * 250_000L;
                switch (k % 4) {
                    case 0 -> kernel(sb, "kworker/1:2", 120 + k, ts, "sched_switch: prev_comm=kworker/1:2 prev_pid="
                            + (120 + k) + " prev_prio=120 prev_state=S ==> next_comm=RSUniRenderThre next_pid=1900 next_prio=110");
                    case 1 -> kernel(sb, "RSUniRenderThre", 1900, ts, "sched_wakeup: comm=OS_VSyncThread pid=4001 prio=120 target_cpu=003");
                    case 2 -> kernel(sb, "<idle>", 0, ts, "irq_handler_entry: irq=45 name=arch_timer");
                    default -> kernel(sb, "binder:1000_3", 1003, ts, "binder_transaction: transaction=1794 dest_node=1703 dest_proc=4000 dest_thread=0 reply=0 flags=0x10 code=0x5f");
                }
                marker(sb, 4000, 4000 + (k % 3), ts + 1000, k % 2 == 0 ? "B|4000|H:Layout[" + k + "]|M62" : "E|4000|M62");
            }
            frames(sb, now, tick);
            byte[] chunk = sb.toString().getBytes(StandardCharsets.US_ASCII);
            out.write(chunk);
            written += chunk.length;
            tick++;
        }
        return tick;
    }

    private static void frames(StringBuilder sb, long now, long tick) {
        long index = tick + 1;
        marker(sb, 1000, 1001, now + 40_000, "B|1000|H:VSync now:" + now + ", period:" + PERIOD + ", refreshRate:60|M0538");
        marker(sb, 1000, 1001, now + 45_000, "E|1000|M0538");
        for (int app = 4000; app <= 4010; app += 10) {
            marker(sb, app, app, now + 200_000, "B|" + app + "|H:ReceiveVsync name:WM dataCount: 24bytes now: " + now
                    + " expectedEnd: " + (now + PERIOD) + " vsyncId: " + (100 + tick) + ", fd:30|M62");
            marker(sb, app, app, now + 300_000, "B|" + app + "|H:OnVsyncEvent now:" + now + "|M62");
            marker(sb, app, app, now + 5_000_000, "B|" + app + "|H:MarshRSTransactionData cmdCount: 5, transactionFlag:["
                    + app + "," + index + "]|M62");
            marker(sb, app, app, now + 5_100_000, "E|" + app + "|M62");
            long end = now + (tick % 17 == 0 ? 18_000_000 : 9_000_000);
            marker(sb, app, app, end, "E|" + app + "|M62");
            marker(sb, app, app, end + 100_000, "E|" + app + "|M62");
        }
        long rs = now + PERIOD + 300_000;
        marker(sb, 1000, 1000, rs, "B|1000|H:ReceiveVsync name:rs dataCount: 24bytes now:" + (now + PERIOD)
                + " expectedEnd: " + (now + 3 * PERIOD - 5_000_000) + " vsyncId:" + (5000 + tick) + ", fd:17|M0538");
        marker(sb, 1000, 1000, rs + 100_000, "B|1000|H:RSMainThread::DoComposition: " + rs + "|I38");
        marker(sb, 1000, 1000, rs + 200_000, "B|1000|H:RSMainThread::ProcessCommandUni [4000," + index + "] [4010,"
                + index + "]|M0538");
        marker(sb, 1000, 1000, rs + 300_000, "E|1000|M0538");
        marker(sb, 1000, 1000, rs + 3_000_000, "E|1000|I38");
        if (tick % 5 == 0) {
            marker(sb, 1000, 1000, rs + 3_100_000, "S|1000|H:M: Frame queued|" + tick + "|M0538");
            marker(sb, 1000, 1000, rs + 4_000_000, "E|1000|M0538");
            marker(sb, 1000, 1002, rs + 6_000_000, "F|1000|H:M: Frame queued|" + tick + "|M0538");
        } else {
            marker(sb, 1000, 1000, rs + 4_000_000, "E|1000|M0538");
        }
    }

    private static void time(StringBuilder sb, long ts) {
        sb.append(ts / 1_000_000_000L).append('.').append(String.format(Locale.ROOT, "%06d", ts % 1_000_000_000L / 1000));
    }

    private static void kernel(StringBuilder sb, String task, int tid, long ts, String event) {
        sb.append("  ").append(task).append('-').append(tid).append(" (  ").append(tid).append(") [003] d..2 ");
        time(sb, ts);
        sb.append(": ").append(event).append('\n');
    }

    private static void marker(StringBuilder sb, int pid, int tid, long ts, String payload) {
        sb.append("  ").append(pid == 1000 ? (tid == pid ? "render_service" : "RSUniRenderThre") : tid == pid ? "com.example" : "OS_VSyncThread").append('-').append(tid).append(" (  ")
                .append(pid).append(") [002] .... ");
        time(sb, ts);
        sb.append(": tracing_mark_write: ").append(payload).append('\n');
    }

    /** {@code SyntheticTrace FILE MB}: writes a trace of about MB megabytes. */
    public static void main(String[] args) throws IOException {
        try (OutputStream out = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(java.nio.file.Path.of(args[0])), 1 << 20)) {
            write(out, Long.parseLong(args[1]) << 20);
        }
    }
}
