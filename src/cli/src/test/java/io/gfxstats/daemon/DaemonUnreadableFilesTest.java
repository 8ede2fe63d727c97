package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.OtherUser;
import io.gfxstats.testing.OtherUserDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 11, item 3: a day file the daemon cannot read (root's 0600 file in a user daemon's tree)
 * is reported with its path and moved aside, everything else is dumped; saves that keep failing
 * back off and log once per change, not twice every 300 ms. The daemon runs as another uid.
 */
class DaemonUnreadableFilesTest {
    @RegisterExtension
    final OtherUserDirectory dir = new OtherUserDirectory("gfxu");

    private Path daemonState() {
        return dir.path().resolve("d");
    }

    @Test
    void shouldQuarantineAFileItCannotReadAndDumpEverythingElse() throws Exception {
        long today = Days.dayStart(System.currentTimeMillis());
        Files.write(DaemonDayFileLimitsTest.dayFile(daemonState(), today, "com.good.app", 1),
                DayFileCodec.encode(DaemonDayFileLimitsTest.entry("com.good.app", 1, today, 42)));
        Path rootsFile = DaemonDayFileLimitsTest.dayFile(daemonState(), today, "com.root.app", 1);
        OtherUser.chownTree(daemonState());
        Files.write(rootsFile, DayFileCodec.encode(DaemonDayFileLimitsTest.entry("com.root.app", 1, today, 7)));
        Files.setPosixFilePermissions(rootsFile, PosixFilePermissions.fromString("rw-------"));

        DaemonProcess daemon = dir.closeAfter(new DaemonProcess(daemonState()).asOtherUser(dir.user())).start();

        assertEquals(1, daemon.dumpProto().getStatsCount(), daemon.logText());
        assertEquals(42, daemon.totalFrames("com.good.app"));
        assertTrue(Files.notExists(rootsFile), "moved aside");
        try (Stream<Path> s = Files.walk(daemonState().resolve("data").resolve("quarantine"))) {
            List<Path> moved = s.filter(Files::isRegularFile).toList();
            assertEquals(1, moved.size(), moved.toString());
        }
        assertTrue(daemon.logText().contains("quarantined " + rootsFile + " -> "), daemon.logText());
        assertTrue(daemon.logText().contains(": cannot be read by the daemon: permission denied"), daemon.logText());
    }

    @Test
    void shouldBackOffFailingSavesWithOneLinePerChangeOfState() throws Exception {
        Path stuck = unwritableDayDirectory("com.stuck.app");
        DaemonProcess daemon = daemonAfterOneSecondClient("com.stuck.app", "100ms");
        // Three failed attempts (at 0, 1 and 3 s of back-off) must still have logged one line.
        awaitFailedSaves(daemon, 3);

        String log = daemon.logText();
        assertEquals(1, count(log, "saving failed: save of " + stuck.resolve("1").resolve("total") + " failed: "),
                log);
        assertEquals(0, count(log, "final save failed"), log);

        Files.setAttribute(stuck, "unix:uid", OtherUser.UID);
        // The back-off doubles (1, 2, 4, 8 s...): the next attempt is at most 16 s away.
        Await.until(() -> daemon.logText().contains("saving works again after "), Duration.ofSeconds(60),
                daemon::logText);
        assertTrue(daemon.totalFrames("com.stuck.app") > 0, "nothing lost");
        assertTrue(Files.exists(stuck.resolve("1").resolve("total")));
    }

    @Test
    void shouldCountFailedFinalSavesInTheMetrics() throws Exception {
        Path stuck = unwritableDayDirectory("com.final.app");
        // No periodic save during the test: every attempt is the final save of the exited client.
        DaemonProcess daemon = daemonAfterOneSecondClient("com.final.app", "1h");
        awaitFailedSaves(daemon, 2);
        assertTrue(daemon.logText().contains("(final save of com.final.app/1"), daemon.logText());

        Files.setAttribute(stuck, "unix:uid", OtherUser.UID);
        Await.until(() -> daemon.logText().contains("exit: com.final.app/1"), Duration.ofSeconds(60), daemon::logText);
        assertTrue(daemon.totalFrames("com.final.app") > 0, "nothing lost");
    }

    /** Today's directory of the package, made root's: the daemon cannot create the version in it. */
    private Path unwritableDayDirectory(String packageName) throws IOException {
        long today = Days.dayStart(System.currentTimeMillis());
        Path stuck = daemonState().resolve("data").resolve(Long.toString(today)).resolve(packageName);
        Files.createDirectories(stuck);
        OtherUser.chownTree(daemonState());
        Files.setAttribute(stuck, "unix:uid", 0);
        return stuck;
    }

    /** A daemon (as the other user, metrics on) after a client of the package drew for 1 s and exited. */
    private DaemonProcess daemonAfterOneSecondClient(String packageName, String flushInterval) throws Exception {
        DaemonProcess daemon = dir.closeAfter(new DaemonProcess(daemonState(), "--set", "flush.interval=" + flushInterval,
                "--set", "metrics.enabled=true", "--set", "metrics.port=0")
                .asOtherUser(dir.user())).start();
        Process synth = new ProcessBuilder(dir.user().command(JavaProcess.SHORT_LIVED, Main.class, "synth", "--socket",
                daemon.socket().toString(), "--package", packageName, "--version-code", "1", "--seconds", "1",
                "--fps", "30")).redirectErrorStream(true).start();
        String out = new String(synth.getInputStream().readAllBytes());
        assertTrue(synth.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, synth.exitValue(), out);
        return daemon;
    }

    private static void awaitFailedSaves(DaemonProcess daemon, int atLeast) throws Exception {
        Await.until(() -> failedSaves(daemon) >= atLeast, Duration.ofSeconds(60),
                () -> "failed saves: " + failedSaves(daemon) + "; log: " + daemon.logText());
    }

    private static double failedSaves(DaemonProcess daemon) throws Exception {
        return MetricsEndToEndTest.scrape(daemon).value("gfxstats_daemon_saves_total", "result=\"failed\"");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
