package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Random synthetic OpenHarmony traces for differential tests (tests only): a RenderService process
 * and up to three apps over a few hundred vsyncs, in a random marker dialect per line, with a random
 * clock offset between {@code now} and the trace clock. Frames are late or on time, pickups late
 * (flag 3), transactions of every form or missing, parallel frames with UIVsyncTask, GPU intervals
 * ending before or after ReceiveVsync, RenderService frames without DoComposition, {@code skip to}
 * and {@code cache} pairs, and E lines dropped at random (missing events).
 */
final class RandomOhosTrace {
    private record Event(long ts, long seq, int kind, int pid, int tid, String name, long cookie) {
    }

    private static final int B = 0;
    private static final int E = 1;
    private static final int S = 2;
    private static final int F = 3;

    private final Random rnd;
    private final List<Event> events = new ArrayList<>();
    private long seq;

    private RandomOhosTrace(long seed) {
        this.rnd = new Random(seed);
    }

    /** The trace text for {@code seed}. */
    static String generate(long seed) {
        return new RandomOhosTrace(seed).build();
    }

    private void add(long ts, int kind, int pid, int tid, String name, long cookie) {
        events.add(new Event(ts, seq++, kind, pid, tid, name, cookie));
    }

    private void b(long ts, int pid, int tid, String name) {
        add(ts, B, pid, tid, name, 0);
    }

    /** An E, dropped now and then (a missing event). */
    private void e(long ts, int pid, int tid) {
        if (rnd.nextInt(60) != 0) {
            add(ts, E, pid, tid, null, 0);
        }
    }

    private long jitter(long max) {
        return 1 + (long) (rnd.nextDouble() * max);
    }

    private String build() {
        long period = new long[] {8_333_333L, 11_091_679L, 16_666_667L}[rnd.nextInt(3)];
        long offset = switch (rnd.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 49_434L;
            case 2 -> 4_756_467_000_425L;
            default -> rnd.nextInt(1_000_000_000);
        };
        boolean vsyncLines = rnd.nextInt(4) != 0;
        boolean unnamedReceivers = rnd.nextInt(3) == 0;
        int apps = 1 + rnd.nextInt(3);
        int ticks = 40 + rnd.nextInt(200);
        int rs = 1000;
        long base = 50_000_000_000L + rnd.nextInt(1_000_000) * 1000L;
        List<long[]> pending = new ArrayList<>();
        long gpuCookie = 1;
        for (int i = 0; i < ticks; i++) {
            long now = base + i * period;
            long t = now + offset;
            if (vsyncLines) {
                b(t + jitter(80_000), rs, 1001, TraceText.vsyncNow(now, period));
                e(t + 100_000, rs, 1001);
            }
            List<long[]> sent = new ArrayList<>();
            for (int a = 0; a < apps; a++) {
                int pid = 4000 + 10 * a;
                if (rnd.nextInt(5) == 0) {
                    continue;
                }
                long start = t + jitter(400_000);
                long work = jitter(rnd.nextInt(6) == 0 ? 2 * period : period / 2);
                long end = start + work;
                boolean zero = rnd.nextInt(40) == 0;
                String receive = TraceText.receiveVsync(zero ? 0 : now, now + period, 100 + i);
                b(start, pid, pid, rnd.nextInt(50) == 0 ? receive.replace("H:", "H:[7c1,2,1]#") : receive);
                boolean onVsync = rnd.nextInt(8) != 0;
                if (onVsync) {
                    b(start + 1000, pid, pid, TraceText.onVsyncEvent(now));
                }
                long index = i + 1;
                int form = rnd.nextInt(6);
                if (form <= 2) {
                    b(start + work / 2, pid, pid, form == 0 ? TraceText.marsh(pid, index)
                            : "H:MarshRSTransactionData cmdCount: 3, transactionFlag:[" + pid + "," + index + "], timestamp:" + now);
                    e(start + work / 2 + 500, pid, pid);
                    sent.add(new long[] {pid, index});
                }
                if (onVsync) {
                    e(end, pid, pid);
                }
                e(end + 2000, pid, pid);
                if (form == 3) {
                    b(end + 5000, pid, pid + 5, TraceText.marshAt(pid, index, pid, now));
                    e(end + 6000, pid, pid + 5);
                    sent.add(new long[] {pid, index});
                }
                if (rnd.nextInt(4) == 0) {
                    int worker = pid + 1;
                    long ws = start + jitter(200_000);
                    long we = ws + jitter(period);
                    b(ws, pid, worker, TraceText.onVsyncEvent(now));
                    b(ws + 100, pid, worker, TraceText.uiVsyncTask(now, 100 + i));
                    e(ws + 200, pid, worker);
                    if (rnd.nextBoolean()) {
                        b(ws + 300, pid, worker, TraceText.marsh(pid, 100_000 + index));
                        e(ws + 400, pid, worker);
                        sent.add(new long[] {pid, 100_000 + index});
                    }
                    e(we, pid, worker);
                }
            }
            // RenderService: picks up what was sent one tick ago, now and then two ticks late.
            long rsNow = now;
            long rsStart = t + period / 3 + jitter(300_000);
            boolean late = rnd.nextInt(10) == 0;
            if (late) {
                rsNow += rnd.nextBoolean() ? 1_000_000 : 999_999;
            }
            b(rsStart, rs, rs, unnamedReceivers
                    ? "H:ReceiveVsync dataCount: 24bytes now: " + rsNow + " expectedEnd: " + (rsNow + 2 * period - 5_000_000L)
                            + " vsyncId: " + (5000 + i)
                    : TraceText.rsReceiveVsync(rsNow, rsNow + 2 * period - 5_000_000L, 5000 + i));
            long rsWork = jitter(rnd.nextInt(8) == 0 ? 3 * period : period / 2);
            boolean composes = rnd.nextInt(12) != 0;
            if (composes) {
                b(rsStart + 1000, rs, rs, TraceText.doComposition(rsStart));
            }
            StringBuilder pairs = new StringBuilder();
            for (long[] p : pending) {
                int style = rnd.nextInt(10);
                String pair = "[" + p[0] + "," + p[1] + "]";
                pairs.append(' ').append(style == 0 ? "skip to" + pair : style == 1 ? "cache (" + p[0] + "," + p[1] + ")" : pair);
            }
            b(rsStart + 2000, rs, rs, TraceText.processCommand(pairs.toString().trim()));
            e(rsStart + 3000, rs, rs);
            if (composes) {
                e(rsStart + rsWork - 1000, rs, rs);
            }
            if (rnd.nextInt(3) == 0) {
                long cookie = gpuCookie++;
                String queued = rnd.nextInt(5) == 0 ? "H:[5f2a,1,0]#M: Frame queued" : TraceText.FRAME_QUEUED;
                add(rsStart + rsWork / 2, S, rs, rnd.nextBoolean() ? rs : 1002, queued, cookie);
                add(rsStart + rsWork + (rnd.nextBoolean() ? -500 : jitter(period)), F, rs, 1002, queued, cookie);
            }
            e(rsStart + rsWork, rs, rs);
            pending = sent;
        }
        events.sort(Comparator.comparingLong(Event::ts).thenComparingLong(Event::seq));
        return render();
    }

    private String render() {
        boolean api19 = rnd.nextBoolean();
        TraceText out = new TraceText();
        if (rnd.nextBoolean()) {
            out.header();
        }
        for (Event ev : events) {
            out.api19 = api19;
            out.print = rnd.nextBoolean();
            out.dashedTgid = rnd.nextInt(4) == 0;
            out.tab = rnd.nextInt(5) == 0;
            out.nineDigits = rnd.nextInt(3) == 0;
            switch (ev.kind()) {
                case B -> out.b(ev.ts(), ev.pid(), ev.tid(), ev.name());
                case E -> out.e(ev.ts(), ev.pid(), ev.tid());
                case S -> out.s(ev.ts(), ev.pid(), ev.tid(), ev.name(), ev.cookie());
                default -> out.f(ev.ts(), ev.pid(), ev.tid(), ev.name(), ev.cookie());
            }
            if (rnd.nextInt(50) == 0) {
                out.sched(ev.ts(), 77);
            }
        }
        return out.text();
    }
}
