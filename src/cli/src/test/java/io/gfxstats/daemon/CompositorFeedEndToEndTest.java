package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.Days;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Compositor mode end to end, with real parts: a real daemon; a simulated compositor in its own
 * process reports its display frames of two outputs over the Unix-socket gRPC feed; a real client
 * process records its frames through {@code WindowTracker.timeline()} with Wayland-style feedback
 * (present, output, MSC) two frames late and joins them with the daemon's ring. The counters the
 * daemon saves from the client's buffer equal those computed from {@code gfxstats timeline classify}'s
 * output for the same frames: each client frame under the display frame of its (output, MSC),
 * and, where the compositor reported none (or the client's frame was discarded), under an on-time
 * stand-in frame, as client-only mode classifies it. Once with the compositor's report before the
 * client's feedback, once after it (the frames wait for their compositor frames).
 */
class CompositorFeedEndToEndTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 16_666_667L;
    private static final long STAND_IN_OUTPUT = 999;
    private static final int FRAMES = 3000;
    private static final int CHUNK = 100;
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxfeed");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    /** The frames of a compositor with two outputs and of one client window, as three files. */
    static final class Scenario {
        final List<String> feed = new ArrayList<>();      // what the compositor reports, in order
        final List<String> classify = new ArrayList<>();  // the same with the client's surfaces, plus stand-ins
        final List<String> client = new ArrayList<>();    // the client's frames and their feedback
        final int[] feedNeeded = new int[FRAMES];         // feed lines that must be in before client frame i
        int joined;
        int unfed;

        Scenario(long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            // Both outputs refresh together (3 ms apart): one vsync count for both; each output
            // shows a frame at its own MSCs, which increase.
            long[] lastMsc = {0, 100, 100};
            long target = 100;
            long shown = 100;
            long prevPp = Long.MIN_VALUE;
            long prevAp = Long.MIN_VALUE;
            for (int i = 0; i < FRAMES; i++) {
                int o = r.nextInt(5) == 0 ? 2 : 1;
                boolean stuffed = r.nextInt(6) == 0 && target >= shown;
                long v = stuffed ? target : Math.max(target + 1, shown + 1);
                target = v;
                // Now and then the compositor misses the vsync it aimed at (m - 1): nothing is shown then.
                boolean compositorLate = r.nextInt(8) == 0;
                long m = Math.max(v + (r.nextInt(3) == 0 ? r.nextInt(3) : 0), lastMsc[o] + (compositorLate ? 2 : 1));
                shown = m;
                long pp = t(o, v);
                long ps = pp - 2 * REFRESH + MS;
                long pe = pp - REFRESH + MS;
                long as = ps + r.nextLong(-2 * MS, 3 * MS);
                long ae = pe + r.nextLong(-8 * MS, 12 * MS);
                long ap = t(o, m);
                for (long g = lastMsc[o] + 1; g < (compositorLate ? m - 1 : m); g++) {
                    String line = displayLine(1_000_000 + g, o, g, false, t(o, g), t(o, g) - 6 * MS, t(o, g) - 2 * MS,
                            t(o, g), null);
                    feed.add(line + "}");
                    classify.add(line + "}");
                }
                lastMsc[o] = m;
                boolean dropped = r.nextInt(20) == 0;
                boolean fed = dropped || r.nextInt(15) != 0;
                long dfPp = compositorLate ? t(o, m - 1) : t(o, m);
                Long gpu = r.nextInt(4) == 0 ? dfPp - MS + r.nextLong(-3 * MS, 2 * MS) : null;
                String df = displayLine(i, o, m, r.nextInt(40) == 0, dfPp, dfPp - 6 * MS + r.nextLong(-3 * MS, 3 * MS),
                        dfPp - MS + r.nextLong(-4 * MS, 3 * MS), r.nextInt(60) == 0 ? -1 : ap, gpu);
                long latch = prevAp != Long.MIN_VALUE && prevPp > pp - 2 * MS ? Math.max(prevAp - (REFRESH - MS), 0) : 0;
                String surface = surface(i, ps, pe, pp, as, ae, dropped, latch);
                if (fed) {
                    feed.add(df + "}");
                }
                if (dropped) {
                    // Discarded: the client classifies it at its predicted present, display side unknown.
                    classify.add(df + "}");
                    classify.add(standIn(i, pp) + ",\"surfaces\":[" + surface + "]}");
                } else if (fed) {
                    classify.add(df + ",\"surfaces\":[" + surface + "]}");
                    joined++;
                } else {
                    classify.add(standIn(i, ap) + ",\"surfaces\":[" + surface + "]}");
                    unfed++;
                }
                feedNeeded[i] = feed.size();
                client.add(String.format(Locale.ROOT, "{\"token\":%d,\"ps\":%d,\"pe\":%d,\"pp\":%d,\"as\":%d,\"ae\":%d,"
                        + "\"present\":%d,\"refresh\":%d,\"output\":%d,\"msc\":%d,\"dropped\":%b}",
                        i, ps, pe, pp, as, ae, ap, REFRESH, o, m, dropped));
                if (!dropped) {
                    prevPp = pp;
                    prevAp = ap;
                }
            }
        }

        /** Output o's vsync number m: the outputs run at the same rate, 3 ms apart. */
        static long t(int o, long m) {
            return 1_000 * MS + o * 3 * MS + m * REFRESH;
        }

        /** A display frame line without its closing brace (surfaces may follow). */
        static String displayLine(long token, long output, long msc, boolean expired, long pp, long as, long ae,
                                  long ap, Long gpu) {
            return String.format(Locale.ROOT, "{\"token\":%d,\"output\":%d,\"msc\":%d,\"prediction\":\"%s\","
                    + "\"predicted\":{\"start\":%d,\"end\":%d,\"present\":%d},"
                    + "\"actual\":{\"start\":%d,\"end\":%d,\"present\":%d},\"gpu_fence\":%s,"
                    + "\"refresh_period\":%d,\"render_period\":%d", token, output, msc, expired ? "expired" : "valid",
                    pp - 6 * MS, pp - MS, pp, as, ae, ap, gpu == null ? "null" : gpu.toString(), REFRESH, REFRESH);
        }

        /** An on-time display frame presenting at {@code present}: display jank None, like client-only mode. */
        static String standIn(long token, long present) {
            return displayLine(2_000_000 + token, STAND_IN_OUTPUT, 1, false, present, present - 6 * MS,
                    present - 2 * MS, present, null);
        }

        static String surface(long token, long ps, long pe, long pp, long as, long ae, boolean dropped, long latch) {
            return String.format(Locale.ROOT, "{\"token\":%d,\"layer\":\"main\",\"prediction\":\"valid\","
                    + "\"predicted\":{\"start\":%d,\"end\":%d,\"present\":%d},\"actual\":{\"start\":%d,\"end\":%d},"
                    + "\"present_state\":\"%s\",\"last_latch_time\":%d}", token, ps, pe, pp, as, ae,
                    dropped ? "dropped" : "presented", latch);
        }
    }

    /** Counters from the classify command's output: display side known unless on a stand-in frame. */
    static TimelineCounters offline(List<String> log, String classified) {
        return TimelineClientEndToEndTest.offline(log, classified,
                line -> line.get("output").getAsLong() != STAND_IN_OUTPUT);
    }

    static String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = io.gfxstats.cli.Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    private String step(Process p, Writer in, BufferedReader out, String command) throws Exception {
        in.write(command + "\n");
        in.flush();
        String answer = out.readLine();
        if (answer == null) {
            throw new AssertionError(command + ": the process ended (exit " + p.waitFor() + ")\n"
                    + Files.readString(daemon.clientLog()) + daemon.logText());
        }
        return answer;
    }

    @Test
    void shouldSaveTheCompositorAndDisplayJankTheOfflineClassifierAttributes() throws Exception {
        record(17, CHUNK, true, null);
    }

    /**
     * The client's feedback first, the compositor's report after it (as happens when the
     * compositor tells its clients before the daemon): the presented frames wait for their
     * compositor frames (a 10 s join wait) and are joined by the client's next calls. Steps of 6
     * frames, so that the waiting frames never need their slots (16) back.
     */
    @Test
    void shouldJoinFramesWhoseCompositorFrameArrivesAfterTheirFeedback() throws Exception {
        record(23, 6, false, "10000");
    }

    /** Lines of several outputs classify as each output's lines alone: previous presents are per output. */
    @Test
    void shouldClassifyEachOutputsLinesAsIfAlone() throws Exception {
        Scenario s = new Scenario(29);
        List<String> all = List.of(cli("timeline", "classify", Files.write(state.resolve("all.jsonl"), s.classify)
                .toString()).split("\n"));
        int checked = 0;
        for (long output : new long[] {1, 2, STAND_IN_OUTPUT}) {
            List<Integer> lines = new ArrayList<>();
            for (int i = 0; i < s.classify.size(); i++) {
                if (s.classify.get(i).startsWith("{\"token\":") && s.classify.get(i).contains("\"output\":" + output + ",")) {
                    lines.add(i);
                }
            }
            List<String> alone = new ArrayList<>();
            for (int i : lines) {
                alone.add(s.classify.get(i));
            }
            String[] out = cli("timeline", "classify", Files.write(state.resolve(output + ".jsonl"), alone).toString())
                    .split("\n");
            for (int k = 0; k < lines.size(); k++) {
                assertEquals(out[k], all.get(lines.get(k)));
                checked++;
            }
        }
        assertEquals(s.classify.size(), checked);
    }

    private void record(long seed, int chunk, boolean compositorFirst, String joinWaitMillis) throws Exception {
        Scenario s = new Scenario(seed);
        Path feedFile = Files.write(state.resolve("feed.jsonl"), s.feed);
        Path classifyFile = Files.write(state.resolve("classify.jsonl"), s.classify);
        Path clientFile = Files.write(state.resolve("client.jsonl"), s.client);
        TimelineCounters expected = offline(s.classify, cli("timeline", "classify", classifyFile.toString()));
        assertEquals(FRAMES, expected.get(TimelineCounter.FRAMES));
        assertTrue(expected.get(TimelineCounter.JANK_SF_CPU_DEADLINE_MISSED) > 0, expected.toString());
        assertTrue(expected.get(TimelineCounter.JANK_SF_GPU_DEADLINE_MISSED) > 0, expected.toString());
        assertTrue(expected.get(TimelineCounter.JANK_DISPLAY_HAL) > 0, expected.toString());
        assertTrue(expected.get(TimelineCounter.JANK_APP_DEADLINE_MISSED) > 0, expected.toString());
        assertTrue(expected.get(TimelineCounter.JANK_UNKNOWN) > 0, expected.toString());
        assertTrue(s.unfed > 50, s.unfed + " frames without a compositor frame");
        assertTrue(expected.get(TimelineCounter.DISPLAY_UNKNOWN_FRAMES) > s.unfed, "unfed and dropped frames");

        daemon = new DaemonProcess(state).start();
        Process compositor = JavaProcess.builder(SimulatedCompositor.class, daemon.socket().toString(),
                feedFile.toString()).redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
        List<String> clientArgs = new ArrayList<>(List.of(daemon.socket().toString(), "com.example.wayland", "4",
                clientFile.toString()));
        if (joinWaitMillis != null) {
            clientArgs.add(joinWaitMillis);
        }
        Process client = JavaProcess.builder(CompositorTimelineClient.class, clientArgs.toArray(String[]::new))
                .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
        // A process that hangs is killed, which ends the test's blocking reads (with a failure).
        java.util.concurrent.ScheduledExecutorService watchdog = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        watchdog.schedule(() -> {
            client.destroyForcibly();
            compositor.destroyForcibly();
        }, 5, TimeUnit.MINUTES);
        // Closed by hand: the end of their input is the processes' signal to finish.
        Writer toCompositor = new java.io.OutputStreamWriter(compositor.getOutputStream(), StandardCharsets.UTF_8);
        Writer toClient = new java.io.OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8);
        try (BufferedReader fromCompositor = new BufferedReader(new InputStreamReader(compositor.getInputStream(),
                     StandardCharsets.UTF_8));
             BufferedReader fromClient = new BufferedReader(new InputStreamReader(client.getInputStream(),
                     StandardCharsets.UTF_8))) {
            // In steps, so that the ring (512 frames per output) still holds what the client looks up.
            long waiting = 0;
            for (int end = chunk; end < FRAMES + chunk; end += chunk) {
                int upTo = Math.min(end, FRAMES);
                if (compositorFirst) {
                    feed(compositor, toCompositor, fromCompositor, s.feedNeeded[upTo - 1]);
                }
                String recorded = step(client, toClient, fromClient, "record " + upTo);
                assertTrue(recorded.startsWith("recorded " + upTo + " waiting "), recorded + "\n"
                        + Files.readString(daemon.clientLog()));
                waiting += Long.parseLong(recorded.substring(recorded.lastIndexOf(' ') + 1));
                if (!compositorFirst) {
                    feed(compositor, toCompositor, fromCompositor, s.feedNeeded[upTo - 1]);
                }
            }
            toCompositor.close();
            toClient.close();
            String done = fromClient.readLine();
            assertEquals("done " + FRAMES + " joined " + s.joined + " unjoined " + s.unfed, done,
                    Files.readString(daemon.clientLog()));
            // Compositor first, only frames it never reports wait; client first, most frames do.
            assertTrue(compositorFirst ? waiting < s.unfed : waiting > FRAMES / 2, waiting + " frames found waiting");
            assertTrue(client.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, client.exitValue());
            assertTrue(compositor.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, compositor.exitValue());
        } finally {
            watchdog.shutdownNow();
            client.destroyForcibly();
            compositor.destroyForcibly();
        }

        String dump = cli("dump", "--frametimeline", "--socket", daemon.socket().toString());
        assertTrue(dump.contains("Package: com.example.wayland\nVersion: 4\n"), dump);
        assertTrue(dump.contains("sfLongCpuJankyFrames = " + expected.get(TimelineCounter.JANK_SF_CPU_DEADLINE_MISSED)
                + "\nsfLongGpuJankyFrames = " + expected.get(TimelineCounter.JANK_SF_GPU_DEADLINE_MISSED)
                + "\nsfUnattributedJankyFrames = " + expected.get(TimelineCounter.JANK_DISPLAY_HAL) + "\n"), dump);

        assertEquals(0, daemon.stop());
        daemon = null;
        long today = Days.dayStart(System.currentTimeMillis());
        Path file = state.resolve("data").resolve(Long.toString(today)).resolve("com.example.wayland").resolve("4")
                .resolve("total");
        GraphicsStatsProto saved = DayFileCodec.decode(Files.readAllBytes(file));
        assertEquals(expected, TimelineProtos.fromProto(saved.getGfxstatsFrameTimeline()));
    }

    private void feed(Process compositor, Writer to, BufferedReader from, int upTo) throws Exception {
        String fed = step(compositor, to, from, "feed " + upTo);
        assertTrue(fed.startsWith("fed " + upTo + " "), fed + "\n" + Files.readString(daemon.clientLog()));
    }
}
