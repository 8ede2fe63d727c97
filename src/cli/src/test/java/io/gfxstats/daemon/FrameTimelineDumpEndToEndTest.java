package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.Await;
import io.gfxstats.store.Days;
import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * FrameTimeline counters kept in day files, with a real daemon: {@code dump --frametimeline}
 * prints them, {@code pull --json} carries them, the Android dump and {@code dump --proto} never
 * show them, and a daemon save of Android counters into the same file keeps them.
 */
class FrameTimelineDumpEndToEndTest {
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxtl");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private static TimelineCounters counters(int late) {
        TimelineCounters c = new TimelineCounters();
        for (int i = 0; i < 10; i++) {
            c.add(Prediction.VALID, PresentState.PRESENTED, JankType.NONE, PresentMetadata.ON_TIME, FinishMetadata.ON_TIME,
                    Severity.NONE, 0, true, false);
        }
        for (int i = 0; i < late; i++) {
            c.add(Prediction.VALID, PresentState.PRESENTED, JankType.APP_DEADLINE_MISSED | JankType.BUFFER_STUFFING,
                    PresentMetadata.LATE, FinishMetadata.LATE, Severity.FULL, 17_000_000, true, false);
        }
        return c;
    }

    private Path dayFile(long day, String pkg, long version) throws Exception {
        Path dir = state.resolve("data").resolve(Long.toString(day)).resolve(pkg).resolve(Long.toString(version));
        Files.createDirectories(dir);
        return dir.resolve("total");
    }

    private static GraphicsStatsProto entry(String pkg, long day, int frames, TimelineCounters timeline) {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, frames);
        p.add(Counters.cpuBucket(3), frames);
        GraphicsStatsProto proto = StatsProtos.toProto(p, new StatsProtos.Source(pkg, 1, 1000, day + 1000, day + 2000));
        return timeline == null ? proto : proto.toBuilder().setGfxstatsFrameTimeline(TimelineProtos.toProto(timeline)).build();
    }

    private String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = io.gfxstats.cli.Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldDumpPullAndKeepFrameTimelineCountersButNeverShowThemInAndroidDumps() throws Exception {
        long today = Days.dayStart(System.currentTimeMillis());
        Files.write(dayFile(today, "com.timeline.app", 1), DayFileCodec.encode(entry("com.timeline.app", today, 13, counters(3))));
        Files.write(dayFile(today, "com.plain.app", 1), DayFileCodec.encode(entry("com.plain.app", today, 7, null)));
        daemon = new DaemonProcess(state).start();
        String socket = daemon.socket().toString();

        String ft = cli("dump", "--frametimeline", "--socket", socket);
        assertTrue(ft.contains("Package: com.timeline.app\nVersion: 1\n"), ft);
        assertTrue(ft.contains("totalTimelineFrames = 13\njankyFrames = 3\nsfLongCpuJankyFrames = 0\n"
                + "sfLongGpuJankyFrames = 0\nsfUnattributedJankyFrames = 0\nappUnattributedJankyFrames = 3\n"
                + "sfSchedulingJankyFrames = 0\nsfPredictionErrorJankyFrames = 0\nappBufferStuffingJankyFrames = 3\n"), ft);
        assertFalse(ft.contains("com.plain.app"), "entries without counters are left out");

        String android = cli("dump", "--socket", socket);
        assertFalse(android.contains("totalTimelineFrames"));
        GraphicsStatsProto dumped = daemon.entry("com.timeline.app", 1).orElseThrow();
        assertFalse(dumped.hasGfxstatsFrameTimeline(), "dump --proto is Android's: no private fields");
        assertTrue(dumped.getUnknownFields().asMap().isEmpty());
        // The report's call: the same proto entries with the counters kept, and no other private field.
        try (GfxStatsClient c = GfxStatsClient.unix(daemon.socket())) {
            List<GraphicsStatsProto> kept = GraphicsStatsServiceDumpProto.parseFrom(c.dumpBytes(DumpRequest.newBuilder()
                    .setProto(true).setKeepFrameTimeline(true).build())).getStatsList();
            GraphicsStatsProto withCounters = kept.stream().filter(e -> e.getPackageName().equals("com.timeline.app"))
                    .findFirst().orElseThrow();
            assertEquals(counters(3), TimelineProtos.fromProto(withCounters.getGfxstatsFrameTimeline()));
            assertEquals(dumped, withCounters.toBuilder().clearGfxstatsFrameTimeline().build());
            assertFalse(kept.stream().filter(e -> e.getPackageName().equals("com.plain.app")).findFirst().orElseThrow()
                    .hasGfxstatsFrameTimeline());
        }

        String json = cli("pull", "--json", "--socket", socket);
        assertTrue(json.contains("\"frameTimeline\""), json);
        assertTrue(json.contains("\"jankAppDeadlineMissed\": \"3\""), json);

        // A client saves Android counters into the same day file: the FrameTimeline counters stay.
        try (ClientProcess c = ClientProcess.start(daemon, "com.timeline.app", 1, 50, 50, 0)) {
            assertEquals(0, c.waitFor());
        }
        Await.until(() -> daemon.totalFrames("com.timeline.app") == 63, Duration.ofSeconds(30),
                () -> "the client's 50 frames harvested: " + daemon.logText());
        assertEquals(0, daemon.stop());
        daemon = null;
        GraphicsStatsProto saved = DayFileCodec.decode(Files.readAllBytes(dayFile(today, "com.timeline.app", 1)));
        assertEquals(63, saved.getSummary().getTotalFrames());
        assertEquals(counters(3), TimelineProtos.fromProto(saved.getGfxstatsFrameTimeline()));
        assertEquals(3, saved.getGfxstatsFrameTimeline().getJankAppDeadlineMissed());
    }
}
