package io.gfxstats.bench;

import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One client JVM of the load test: {@code sessions} simulated rendering processes, each its own
 * {@link StatsSession} with a {@link DaemonBufferProvider} (its own registration, buffer and
 * connection) and one window tracker, recording at {@code fps} frames per second on a few pacing
 * threads. Driven over stdin/stdout by {@link LoadTest}:
 *
 * <pre>
 *   out: ready                                   every session attached
 *   in:  go | phase NAME | stop                  start recording, label what follows, finish
 *   out: recorded PACKAGE FRAMES                 per package, after stop (sessions closed)
 *   out: cost PHASE FRAMES NANOS HISTOGRAM       per phase: ns per frame per tick batch (base64)
 *   out: rate FRAMES_PER_SECOND_PER_SESSION
 *   out: done
 * </pre>
 *
 * <p>The cost of a frame is measured around a whole tick's batch (one frame per session owned by
 * the thread, or a few when catching up), divided by the frames in it, so the clock reads cost
 * little next to what is measured.
 *
 * <p>args: socket firstIndex sessions packages fps threads
 */
public final class LoadClient {
    static final long VERSION = 1;
    static final long INTERVAL = 16_666_667L;
    private static final int MAX_CATCH_UP = 12;

    private LoadClient() {
    }

    static String packageName(int globalIndex, int packages) {
        return "com.load.app" + (globalIndex % packages);
    }

    /** Frame i of a session: mostly on time, every 7th 20-40 ms, every 50th 150+ ms. */
    static long duration(long i) {
        if (i % 50 == 49) {
            return 150_000_000L + (i % 7) * 50_000_000L;
        }
        if (i % 7 == 6) {
            return 20_000_000L + (i % 5) * 5_000_000L;
        }
        return 4_000_000L + (i % 11) * 1_000_000L;
    }

    private static final class Sim {
        final String pkg;
        final StatsSession session;
        WindowTracker tracker;
        long frames;
        long t = 1_000_000_000L;

        Sim(String pkg, StatsSession session) {
            this.pkg = pkg;
            this.session = session;
        }

        void record() {
            long d = duration(frames);
            tracker.record(t, t, t + d, t + d, INTERVAL);
            t += Math.max(INTERVAL, ((d + INTERVAL - 1) / INTERVAL) * INTERVAL);
            frames++;
        }
    }

    private static volatile int phase;
    private static volatile boolean stopping;

    public static void main(String[] args) throws Exception {
        Path socket = Path.of(args[0]);
        int first = Integer.parseInt(args[1]);
        int sessions = Integer.parseInt(args[2]);
        int packages = Integer.parseInt(args[3]);
        int fps = Integer.parseInt(args[4]);
        int threads = Math.max(1, Math.min(sessions, Integer.parseInt(args[5])));

        List<Sim> sims = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            String pkg = packageName(first + i, packages);
            StatsSession s = StatsSession.open(SessionOptions.builder(pkg, VERSION)
                    .daveyListener(DaveyListener.ignoring()).countWhenRingFull(true).build(),
                    new DaemonBufferProvider(socket));
            sims.add(new Sim(pkg, s));
        }
        for (Sim s : sims) {
            if (!s.session.awaitAttached(Duration.ofSeconds(120))) {
                System.out.println("error: session of " + s.pkg + " not attached within 120 s");
                System.exit(3);
            }
        }
        System.out.println("ready");
        System.out.flush();

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"go".equals(in.readLine())) {
            System.exit(4);
        }
        List<String> phaseNames = new ArrayList<>(List.of("warmup"));
        List<Pacer> pacers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Sim> mine = new ArrayList<>();
            for (int i = t; i < sims.size(); i += threads) {
                mine.add(sims.get(i));
            }
            Pacer p = new Pacer(mine, fps);
            pacers.add(p);
            p.start();
        }
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            if (line.startsWith("phase ")) {
                phaseNames.add(line.substring(6).trim());
                phase = phaseNames.size() - 1;
            }
        }
        stopping = true;
        for (Pacer p : pacers) {
            p.join();
            if (p.failure != null) {
                System.out.println("error: " + p.failure);
                System.exit(5);
            }
        }
        for (Sim s : sims) {
            s.session.close();
        }
        Map<String, Long> byPackage = new LinkedHashMap<>();
        long frames = 0;
        for (Sim s : sims) {
            byPackage.merge(s.pkg, s.frames, Long::sum);
            frames += s.frames;
        }
        for (Map.Entry<String, Long> e : byPackage.entrySet()) {
            System.out.println("recorded " + e.getKey() + " " + e.getValue());
        }
        for (int ph = 0; ph < phaseNames.size(); ph++) {
            Histogram h = new Histogram(1, 10_000_000_000L, 3);
            long count = 0;
            long nanos = 0;
            for (Pacer p : pacers) {
                Pacer.Cost c = p.costs.get(ph);
                if (c != null) {
                    h.add(c.histogram);
                    count += c.frames();
                    nanos += c.nanos();
                }
            }
            System.out.println("cost " + phaseNames.get(ph) + " " + count + " " + nanos + " " + encode(h));
        }
        long elapsed = pacers.stream().mapToLong(p -> p.elapsedNanos).max().orElse(1);
        System.out.println("rate " + (frames / (double) sims.size()) / (elapsed / 1e9));
        System.out.println("done");
        System.out.flush();
        System.exit(0);
    }

    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[n];
        buf.flip();
        buf.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** Records for its sessions at the target rate, catching up (a few frames per tick) when late. */
    private static final class Pacer extends Thread {
        record Cost(Histogram histogram, long[] totals) {
            Cost() {
                this(new Histogram(1, 10_000_000_000L, 3), new long[2]);
            }

            long frames() {
                return totals[0];
            }

            long nanos() {
                return totals[1];
            }
        }

        final List<Sim> sims;
        final long periodNanos;
        final Map<Integer, Cost> costs = new LinkedHashMap<>();
        volatile Throwable failure;
        long elapsedNanos;

        Pacer(List<Sim> sims, int fps) {
            super("pacer");
            this.sims = sims;
            this.periodNanos = 1_000_000_000L / fps;
        }

        @Override
        public void run() {
            try {
                for (Sim s : sims) {
                    s.tracker = s.session.newTracker();
                }
                long start = System.nanoTime();
                long done = 0;
                while (!stopping) {
                    long now = System.nanoTime();
                    long due = (now - start) / periodNanos + 1;
                    int k = (int) Math.min(MAX_CATCH_UP, due - done);
                    if (k > 0) {
                        int ph = phase;
                        long t0 = System.nanoTime();
                        for (Sim s : sims) {
                            for (int i = 0; i < k; i++) {
                                s.record();
                            }
                        }
                        long dt = System.nanoTime() - t0;
                        long n = (long) k * sims.size();
                        Cost c = costs.computeIfAbsent(ph, x -> new Cost());
                        c.histogram().recordValue(Math.max(1, dt / n));
                        c.totals()[0] += n;
                        c.totals()[1] += dt;
                        done += k;
                        if (due - done > MAX_CATCH_UP * 10L) {
                            done = due - 1; // hopelessly late (machine overloaded): skip ahead
                        }
                    }
                    LockSupport.parkNanos(start + done * periodNanos - System.nanoTime());
                }
                elapsedNanos = System.nanoTime() - start;
                for (Sim s : sims) {
                    s.tracker.close();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }
    }
}
