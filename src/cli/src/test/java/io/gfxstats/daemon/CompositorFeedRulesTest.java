package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.rpc.DisplayFrameFeed;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.CompositorDisplayFrame;
import io.gfxstats.rpc.v1.FeedSummary;
import io.gfxstats.testing.OtherUser;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.feed.DisplayOutcome;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.grpc.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The compositor feed's rules against a real daemon: what it accepts ({@code gfxstats timeline
 * feed} included), malformed frames (INVALID_ARGUMENT naming the frame), and other users
 * (PERMISSION_DENIED), each a one-line error.
 */
class CompositorFeedRulesTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 16_666_667L;
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxfeedrules");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private static CompositorDisplayFrame.Builder frame(long output, long msc) {
        long vsync = 1_000 * MS + msc * REFRESH;
        return CompositorDisplayFrame.newBuilder().setOutput(output).setMsc(msc).setToken(msc)
                .setPredictedStart(vsync - 6 * MS).setPredictedEnd(vsync - MS).setPredictedPresent(vsync)
                .setActualStart(vsync - 6 * MS).setActualEnd(vsync - 2 * MS).setActualPresent(vsync)
                .setRefreshPeriod(REFRESH);
    }

    private GfxStatsClientException refused(CompositorDisplayFrame... frames) {
        try (GfxStatsClient client = GfxStatsClient.unix(daemon.socket());
             DisplayFrameFeed feed = client.feedDisplayFrames(1)) {
            return assertThrows(GfxStatsClientException.class, () -> {
                for (CompositorDisplayFrame f : frames) {
                    feed.send(f);
                }
                feed.finish(Duration.ofSeconds(30));
            });
        }
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldPublishWhatAFeedSendsAndRefuseMalformedFramesNamingTheFrame() throws Exception {
        daemon = new DaemonProcess(state).start();
        Path ringFile = daemon.bufferDir().resolve(DisplayOutcomeLayout.FILE_NAME);
        try (GfxStatsClient client = GfxStatsClient.unix(daemon.socket())) {
            DisplayFrameFeed feed = client.feedDisplayFrames(2);
            feed.send(frame(5, 10).build());
            // Late, its CPU work past the deadline, the previous frame long gone: SF CPU deadline missed.
            feed.send(frame(5, 12).setPredictedPresent(1_000 * MS + 11 * REFRESH)
                    .setPredictedEnd(1_000 * MS + 11 * REFRESH - MS).setActualEnd(1_000 * MS + 11 * REFRESH + 3 * MS)
                    .build());
            feed.send(frame(6, 10).setGpuFence(1_000 * MS).build());
            FeedSummary summary = feed.finish(Duration.ofSeconds(30));
            assertEquals(3, summary.getFrames());
            assertEquals(2, summary.getOutputs());
            assertEquals(ringFile.toString(), summary.getRingPath());
        }
        DisplayOutcomes ring = DisplayOutcomes.open(ringFile);
        DisplayOutcome o = new DisplayOutcome();
        assertTrue(ring.find(5, 12, o));
        assertEquals(JankType.SF_CPU_DEADLINE_MISSED, o.jank(), o.toString());
        assertTrue(ring.find(6, 10, o));
        assertEquals(JankType.NONE, o.jank());
        assertEquals(3, ring.published());

        GfxStatsClientException e = refused(frame(5, 20).build(), frame(5, 0).build());
        assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
        assertTrue(e.getMessage().contains(": frame 2 of the feed: msc must be positive (0: the output has no refresh "
                + "counter, so the frame cannot be joined) (INVALID_ARGUMENT)"), e.getMessage());
        e = refused(frame(7, 30).build(), frame(7, 29).build());
        assertTrue(e.getMessage().contains("frame 2 of the feed: output 7 msc 29 is not after msc 30"), e.getMessage());
        e = refused(frame(7, 40).setRefreshPeriod(0).build());
        assertTrue(e.getMessage().contains("frame 1 of the feed: refresh_period must be positive, got 0"), e.getMessage());
        e = refused(frame(7, 41).setActualPresent(-5).build());
        assertTrue(e.getMessage().contains("frame 1 of the feed: actual_present must be a time or -1"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(ring.find(7, 20 + 10, o), "frames before a bad one stay published");
        assertTrue(ring.find(5, 20, o));
        assertTrue(daemon.isAlive());
        assertTrue(daemon.logText().contains("compositor feed of unix pid"), daemon.logText());
    }

    @Test
    void shouldFeedAFrameLogFromTheCommandLine() throws Exception {
        daemon = new DaemonProcess(state).start();
        String line = "{\"token\":%d,\"output\":%d,\"msc\":%d,\"prediction\":\"valid\","
                + "\"predicted\":{\"start\":1000,\"end\":2000,\"present\":3000},"
                + "\"actual\":{\"start\":1000,\"end\":2500,\"present\":%d},\"gpu_fence\":2600,"
                + "\"refresh_period\":16666667,\"render_period\":16666667}";
        Path log = Files.write(state.resolve("frames.jsonl"), List.of(String.format(line, 1, 3, 100, 3000), "",
                String.format(line, 2, 3, 101, 3000 + 20 * MS), String.format(line, 3, 4, 7, 3000)));
        Run ok = cli("timeline", "feed", "--socket", daemon.socket().toString(), log.toString());
        assertEquals(0, ok.exit(), ok.err());
        assertEquals("fed 3 display frames of 2 outputs (ring " + daemon.bufferDir()
                .resolve(DisplayOutcomeLayout.FILE_NAME) + ")\n", ok.out());
        DisplayOutcome o = new DisplayOutcome();
        assertTrue(DisplayOutcomes.open(daemon.bufferDir().resolve(DisplayOutcomeLayout.FILE_NAME)).find(3, 101, o));
        assertEquals(JankType.SF_GPU_DEADLINE_MISSED, o.jank(), "late, GPU fence after the deadline: " + o);

        Path noMsc = Files.write(state.resolve("nomsc.jsonl"), List.of(String.format(line, 1, 3, 200, 3000),
                String.format(line, 1, 3, 200, 3000).replace("\"msc\":200,", "")));
        Run bad = cli("timeline", "feed", "--socket", daemon.socket().toString(), noMsc.toString());
        assertEquals(2, bad.exit());
        assertEquals("gfxstats timeline: " + noMsc + " line 2: missing msc (the feed joins client frames by output and MSC)\n",
                bad.err());
        // A new feed may start an output again lower (a compositor restarted, a display re-plugged) ...
        Run again = cli("timeline", "feed", "--socket", daemon.socket().toString(), log.toString());
        assertEquals(0, again.exit(), again.err());
        // ... but within a feed an output's frames come in presentation order.
        Path backwardsLog = Files.write(state.resolve("backwards.jsonl"), List.of(String.format(line, 1, 3, 300, 3000),
                String.format(line, 2, 3, 301, 3000), String.format(line, 3, 3, 300, 3000)));
        Run backwards = cli("timeline", "feed", "--socket", daemon.socket().toString(), backwardsLog.toString());
        assertEquals(2, backwards.exit());
        assertTrue(backwards.err().startsWith("gfxstats timeline: gfxstats daemon at unix:")
                && backwards.err().contains(": frame 3 of the feed: output 3 msc 300 is not after msc 301 (an output's "
                + "frames must come in presentation order) (INVALID_ARGUMENT)"), backwards.err());
        assertEquals(1, backwards.err().lines().count(), backwards.err());
    }

    /**
     * A root daemon (this test's uid) and two other users in group 0, which may reach its socket:
     * one is refused, the other may feed as a member of compositor.group.
     */
    @Test
    void shouldRefuseAFeedFromAnotherUserUnlessInTheCompositorGroup() throws Exception {
        assumeTrue(OtherUser.unavailable().isEmpty(), () -> OtherUser.unavailable().orElse(""));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-x---"));
        daemon = new DaemonProcess(state, "--set", "compositor.group=61100").start();
        Path log = Files.write(state.resolve("frames.jsonl"), List.of("{\"token\":1,\"output\":3,\"msc\":100,"
                + "\"prediction\":\"valid\",\"predicted\":{\"start\":1000,\"end\":2000,\"present\":3000},"
                + "\"actual\":{\"start\":1000,\"end\":2500,\"present\":3000},\"refresh_period\":16666667,"
                + "\"render_period\":16666667}"));
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        Path ringFile = daemon.bufferDir().resolve(DisplayOutcomeLayout.FILE_NAME);
        DisplayOutcome o = new DisplayOutcome();
        try (OtherUser other = OtherUser.prepare(state)) {
            Run refused = feedAs(other, 61_004, List.of(), log);
            assertEquals(2, refused.exit(), refused.out());
            assertTrue(refused.out().contains("uid 61004 may not feed display frames: only the daemon's user (uid 0), "
                    + "root or members of compositor.group may (PERMISSION_DENIED)"), refused.out());
            assertEquals(1, refused.out().strip().lines().count(), refused.out());
            assertFalse(DisplayOutcomes.open(ringFile).find(3, 100, o));
            assertTrue(daemon.logText().contains("refused FeedDisplayFrames from unix pid"), daemon.logText());

            Run member = feedAs(other, 61_005, List.of(61_100), log);
            assertEquals(0, member.exit(), member.out());
            assertTrue(DisplayOutcomes.open(ringFile).find(3, 100, o), "a member of compositor.group fed it");
        }
    }

    private Run feedAs(OtherUser other, int uid, List<Integer> groups, Path log) throws Exception {
        Process p = new ProcessBuilder(other.commandAs(uid, 0, groups, List.of("-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData"), Main.class, "timeline", "feed", "--socket", daemon.socket().toString(),
                log.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out, "");
    }
}
