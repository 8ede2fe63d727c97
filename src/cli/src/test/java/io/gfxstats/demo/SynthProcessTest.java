package io.gfxstats.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.daemon.DaemonFixture;
import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code gfxstats synth} as real client processes of a real daemon. */
class SynthProcessTest {
    private Path state;
    private DaemonProcess daemon;
    private DaemonFixture fixture;

    @BeforeEach
    void setUp() throws Exception {
        fixture = DaemonFixture.start("gfxsynth");
        state = fixture.state();
        daemon = fixture.daemon();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    private Process synth(String pkg, long version, String profile, long seed, String seconds, String... more)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("synth", "--socket", daemon.socket().toString(),
                "--package", pkg, "--version-code", Long.toString(version), "--jank-profile", profile,
                "--seed", Long.toString(seed), "--seconds", seconds, "--fps", "60"));
        args.addAll(List.of(more));
        Process p = JavaProcess.builder(Main.class, args.toArray(String[]::new))
                .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile()))
                .start();
        fixture.track(p);
        return p;
    }

    private static SynthOptions options(String profile, long seed, double seconds) {
        return new SynthOptions("x.y", 0, Duration.ofNanos((long) (seconds * 1e9)), 60, JankProfile.parse(profile),
                seed, Path.of("/unused"), Duration.ofSeconds(1));
    }

    private static String finish(Process p) throws Exception {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "synth finished");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** Sum of every dump entry of the package, in the persisted counters (legacy ones are never stored). */
    private ProfileData stored(String pkg, long expectedTotal) throws Exception {
        AtomicReference<ProfileData> sum = new AtomicReference<>(new ProfileData());
        Await.until(() -> {
            ProfileData s = new ProfileData();
            for (GraphicsStatsProto p : daemon.dumpProto().getStatsList()) {
                if (p.getPackageName().equals(pkg)) {
                    s.merge(StatsProtos.toProfileData(p));
                }
            }
            sum.set(s);
            return s.totalFrames() == expectedTotal && daemon.health().getLiveBuffers() == 0;
        }, Duration.ofSeconds(60), () -> "frames of " + pkg + ": " + sum.get().totalFrames() + ", expected "
                + expectedTotal + ", with no live buffer\n" + daemon.logText());
        return sum.get();
    }

    private static long[] persisted(ProfileData data) {
        long[] a = data.toArray();
        a[Counters.JANKY_FRAMES_LEGACY] = 0;
        a[JankType.MISSED_DEADLINE_LEGACY.counter()] = 0;
        return a;
    }

    @Test
    void shouldStoreExactlyWhatTheSeedDetermines() throws Exception {
        String out = finish(synth("com.example.synth", 3, "janky", 42, "2.5"));

        ProfileData expected = SyntheticRenderer.simulate(options("janky", 42, 2.5));
        ProfileData stored = stored("com.example.synth", expected.totalFrames());
        assertArrayEquals(persisted(expected), persisted(stored));
        for (JankType type : JankType.values()) {
            if (type != JankType.MISSED_DEADLINE_LEGACY) {
                assertTrue(stored.jankCount(type) > 0, type + " in the daemon's dump");
            }
        }
        assertTrue(out.contains("\nrecorded " + expected.totalFrames() + " frames\n"), out);
        Matcher done = Pattern.compile("done: (\\d+) frames, (\\d+) janky").matcher(out);
        assertTrue(done.find(), out);
        assertEquals(expected.totalFrames(), Long.parseLong(done.group(1)));
        assertEquals(expected.jankyFrames(), Long.parseLong(done.group(2)));
    }

    @Test
    void shouldRegisterGlByDefaultAndTheAskedPipelineNeverUnknown() throws Exception {
        Process gl = synth("com.example.gl", 1, "smooth", 5, "1");
        Process vulkan = synth("com.example.vk", 1, "smooth", 6, "1", "--pipeline", "vulkan");
        finish(gl);
        finish(vulkan);
        stored("com.example.gl", SyntheticRenderer.simulate(options("smooth", 5, 1)).totalFrames());
        stored("com.example.vk", SyntheticRenderer.simulate(options("smooth", 6, 1)).totalFrames());
        assertEquals(GraphicsStatsProto.PipelineType.GL, daemon.entry("com.example.gl", 1).orElseThrow().getPipeline());
        assertEquals(GraphicsStatsProto.PipelineType.VULKAN,
                daemon.entry("com.example.vk", 1).orElseThrow().getPipeline());
    }

    @Test
    void shouldMergeProcessesOfOnePackageAndKeepPackagesApart() throws Exception {
        Process a = synth("com.example.feed", 7, "janky", 1, "2");
        Process b = synth("com.example.feed", 7, "stutter", 2, "2");
        Process c = synth("com.example.maps", 1, "smooth", 3, "2");
        finish(a);
        finish(b);
        finish(c);

        ProfileData feed = SyntheticRenderer.simulate(options("janky", 1, 2));
        feed.merge(SyntheticRenderer.simulate(options("stutter", 2, 2)));
        ProfileData maps = SyntheticRenderer.simulate(options("smooth", 3, 2));
        assertArrayEquals(persisted(feed), persisted(stored("com.example.feed", feed.totalFrames())));
        assertArrayEquals(persisted(maps), persisted(stored("com.example.maps", maps.totalFrames())));
        assertEquals(2, daemon.dumpProto().getStatsCount(), "one entry per package and version");
    }

    @Test
    void shouldKeepWhatItRecordedWhenTerminated() throws Exception {
        Process p = synth("com.example.term", 1, "janky", 9, "600");
        try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = reader.readLine();
            } while (line != null && !line.startsWith("recorded "));
            assertTrue(line != null, "progress line before SIGTERM");
            p.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its output)
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            String summary = null;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("stopped: ")) {
                    summary = line;
                }
            }
            assertTrue(summary != null, "summary after SIGTERM");
            Matcher m = Pattern.compile("stopped: (\\d+) frames").matcher(summary);
            assertTrue(m.find());
            long frames = Long.parseLong(m.group(1));
            assertTrue(frames > 0, frames + " frames");
            assertEquals(frames, stored("com.example.term", frames).totalFrames());
        }
    }

    @Test
    void shouldFailWithOneLineWhenNoDaemonAnswers() throws Exception {
        Process p = JavaProcess.builder(Main.class, "synth", "--socket", state.resolve("nobody.sock").toString(),
                "--package", "com.example.synth", "--version-code", "1", "--attach-timeout", "0.5")
                .redirectErrorStream(false).start();
        fixture.track(p);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.lines().anyMatch(l -> l.startsWith("gfxstats synth: no gfxstats daemon answered at "
                + state.resolve("nobody.sock"))), err);
    }
}
