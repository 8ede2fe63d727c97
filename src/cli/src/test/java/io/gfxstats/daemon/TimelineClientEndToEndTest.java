package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.Days;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
 * A real client process records a frame log through the client API ({@link TimelineClient}), a
 * real daemon saves the counters from its mapped buffer into the day file; the counters equal
 * those computed from {@code gfxstats timeline classify}'s output for the same log (client-only
 * mode: every display frame presented on time, so display jank None), and
 * {@code dump --frametimeline} shows them.
 */
class TimelineClientEndToEndTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 16_666_667L;
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxtc");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    /**
     * One display frame per surface frame, on time (so the display jank is None, as in
     * client-only mode), with the last latch time the client's recorder estimates: the previous
     * presented frame's present minus (refresh - 1 ms) when that frame was due no later.
     */
    static List<String> frameLog(int frames) {
        SplittableRandom r = new SplittableRandom(11);
        List<String> lines = new ArrayList<>();
        long vsync = 1_000 * MS;
        long prevPp = Long.MIN_VALUE;
        long prevAp = Long.MIN_VALUE;
        for (int i = 0; i < frames; i++) {
            vsync += r.nextInt(6) == 0 ? 0 : REFRESH;
            long ps = vsync - 2 * REFRESH + MS;
            long pe = vsync - REFRESH + MS;
            long as = ps + r.nextLong(-2 * MS, 3 * MS);
            long ae = pe + r.nextLong(-8 * MS, 12 * MS);
            boolean dropped = r.nextInt(20) == 0;
            // A discarded frame has no present: the client classifies it at its predicted present.
            long ap = dropped ? vsync
                    : vsync + (r.nextInt(3) == 0 ? r.nextInt(3) * REFRESH + r.nextLong(-3 * MS, 3 * MS) : 0);
            long latch = prevAp != Long.MIN_VALUE && prevPp > vsync - 2 * MS ? Math.max(prevAp - (REFRESH - MS), 0) : 0;
            lines.add(String.format(Locale.ROOT, "{\"token\":%d,\"prediction\":\"valid\","
                    + "\"predicted\":{\"start\":%d,\"end\":%d,\"present\":%d},"
                    + "\"actual\":{\"start\":%d,\"end\":%d,\"present\":%d},\"gpu_fence\":null,"
                    + "\"refresh_period\":%d,\"render_period\":%d,\"surfaces\":[{\"token\":%d,\"layer\":\"main\","
                    + "\"prediction\":\"valid\",\"predicted\":{\"start\":%d,\"end\":%d,\"present\":%d},"
                    + "\"actual\":{\"start\":%d,\"end\":%d},\"present_state\":\"%s\",\"last_latch_time\":%d}]}",
                    100_000 + i, ap - 10 * MS, ap - MS, ap, ap - 10 * MS, ap - 2 * MS, ap, REFRESH, REFRESH, i,
                    ps, pe, vsync, as, ae, dropped ? "dropped" : "presented", latch));
            if (!dropped) {
                prevPp = vsync;
                prevAp = ap;
            }
        }
        return lines;
    }

    /** Counters from the classify command's output (and the log's times for the present delay). */
    private static TimelineCounters offline(List<String> log, String classified) {
        return offline(log, classified, line -> false);
    }

    /**
     * The same for logs whose lines have at most one surface; {@code displayKnown} tells for a
     * line whether its surface was classified with its real display frame (compositor mode).
     */
    static TimelineCounters offline(List<String> log, String classified,
                                    java.util.function.Predicate<JsonObject> displayKnown) {
        TimelineCounters c = new TimelineCounters();
        String[] out = classified.split("\n");
        assertEquals(log.size(), out.length);
        for (int i = 0; i < out.length; i++) {
            JsonObject in = JsonParser.parseString(log.get(i)).getAsJsonObject();
            if (!in.has("surfaces") || in.getAsJsonArray("surfaces").isEmpty()) {
                continue;
            }
            JsonObject s = in.getAsJsonArray("surfaces").get(0).getAsJsonObject();
            JsonObject res = JsonParser.parseString(out[i]).getAsJsonObject().getAsJsonArray("surfaces").get(0)
                    .getAsJsonObject();
            int jank = 0;
            for (JsonElement name : res.getAsJsonArray("jank")) {
                int idx = JankType.indexOf(name.getAsString());
                jank |= idx < 0 ? 0 : JankType.bit(idx);
            }
            long delay = in.getAsJsonObject("actual").get("present").getAsLong()
                    - s.getAsJsonObject("predicted").get("present").getAsLong();
            boolean dropped = s.get("present_state").getAsString().equals("dropped");
            c.add(Prediction.VALID, dropped ? PresentState.DROPPED : PresentState.PRESENTED, jank,
                    PresentMetadata.valueOf(res.get("present").getAsString().toUpperCase(Locale.ROOT)),
                    FinishMetadata.valueOf(res.get("finish").getAsString().toUpperCase(Locale.ROOT)),
                    Severity.valueOf(res.get("severity").getAsString().toUpperCase(Locale.ROOT)), delay, true,
                    displayKnown.test(in));
        }
        return c;
    }

    private static String cli(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        java.io.InputStream saved = System.in;
        int exit = io.gfxstats.cli.Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldSaveWhatTheOfflineClassifierGivesForTheSameFrames() throws Exception {
        List<String> log = frameLog(3000);
        Path logFile = state.resolve("frames.jsonl");
        Files.write(logFile, log);
        TimelineCounters expected = offline(log, cli("", "timeline", "classify", logFile.toString()));
        assertTrue(expected.get(TimelineCounter.JANK_APP_DEADLINE_MISSED) > 0);
        assertTrue(expected.get(TimelineCounter.JANK_BUFFER_STUFFING) > 0);
        assertTrue(expected.get(TimelineCounter.LATE_DISPLAY_UNKNOWN) > 0);
        assertTrue(expected.get(TimelineCounter.PRESENT_DROPPED) > 0);

        daemon = new DaemonProcess(state).start();
        Process client = JavaProcess.builder(TimelineClient.class, daemon.socket().toString(), "com.example.wayland", "3",
                logFile.toString()).redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
        String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(client.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, client.exitValue(), output + Files.readString(daemon.clientLog()));
        assertTrue(output.contains("done 3000"), output);

        String dump = cli("", "dump", "--frametimeline", "--socket", daemon.socket().toString());
        assertTrue(dump.contains("Package: com.example.wayland\nVersion: 3\n"), dump);
        assertTrue(dump.contains("totalTimelineFrames = 3000\njankyFrames = " + expected.get(TimelineCounter.JANKY_FRAMES)
                + "\n"), dump);

        assertEquals(0, daemon.stop());
        daemon = null;
        long today = Days.dayStart(System.currentTimeMillis());
        Path file = state.resolve("data").resolve(Long.toString(today)).resolve("com.example.wayland").resolve("3")
                .resolve("total");
        GraphicsStatsProto saved = DayFileCodec.decode(Files.readAllBytes(file));
        assertEquals(expected, TimelineProtos.fromProto(saved.getGfxstatsFrameTimeline()));
    }
}
