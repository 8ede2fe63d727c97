package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gfxstats.testing.Await;
import io.gfxstats.testing.DaemonHealth;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.OtherUser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a client may register as, and what it does when the daemon says no for good. */
class RegistrationRulesTest {
    private Path state;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxreg");
    }

    @AfterEach
    void tearDown() throws Exception {
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldRecordAPackageNamedLikeALinuxProgram() throws Exception {
        try (DaemonProcess daemon = new DaemonProcess(state).start()) {
            try (ClientProcess c = ClientProcess.start(daemon, "my-game", 3, 500, 100, 0)) {
                assertEquals(0, c.waitFor(), "the client attached and finished\n" + Files.readString(daemon.clientLog()));
            }
            Await.until(() -> daemon.totalFrames("my-game") == 500, Duration.ofSeconds(60),
                    () -> "every frame of my-game is stored: " + daemon.totalFrames("my-game") + "\n" + daemon.logText());
            assertTrue(daemon.entry("my-game", 3).isPresent());
        }
    }

    @Test
    void shouldStopAskingAndReportOnceWhenTheDaemonRefusesForGood() throws Exception {
        assumeTrue(OtherUser.unavailable().isEmpty(), () -> OtherUser.unavailable().orElse(""));
        // A daemon of another user refuses this (root) process's registration: PERMISSION_DENIED.
        Path daemonState = Files.createDirectories(state.resolve("daemon"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-xr-x"));
        OtherUser.chownTree(daemonState);
        Path socket = daemonState.resolve("gfxstatsd.sock");
        Path daemonLog = state.resolve("daemon.log");
        Path clientLog = state.resolve("client.log");
        try (OtherUser other = OtherUser.prepare(state)) {
            ProcessBuilder pb = new ProcessBuilder(other.command(List.of("-Xss1m", "-XX:TieredStopAtLevel=1"),
                    DaemonMain.class, "--state-dir", daemonState.toString()));
            pb.redirectErrorStream(true).redirectOutput(daemonLog.toFile());
            Process daemon = pb.start();
            try {
                DaemonHealth.await(daemon, socket, Duration.ofSeconds(30), () -> Files.readString(daemonLog));
                List<String> cmd = new ArrayList<>(JavaProcess.command(List.of("-Xss1m", "-XX:TieredStopAtLevel=1",
                        "-Dorg.slf4j.simpleLogger.log.io.gfxstats.client=debug"), RefusalClient.class,
                        socket.toString(), "com.example.refused", "1500"));
                Process client = new ProcessBuilder(cmd).redirectError(clientLog.toFile()).start();
                try (BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String first = out.readLine();
                    assertTrue(first != null && first.startsWith("refused ") && first.contains("PERMISSION_DENIED")
                                    || first != null && first.startsWith("refused ") && first.contains("uid"),
                            "the session knows it was refused, and why: " + first + "\n" + Files.readString(clientLog));
                    assertEquals("done", out.readLine());
                    assertTrue(client.waitFor(30, TimeUnit.SECONDS));
                } finally {
                    client.destroyForcibly();
                }
                List<String> mentions = Files.readAllLines(clientLog).stream()
                        .filter(l -> l.contains("cannot hand a buffer to uid 0")).toList();
                assertEquals(1, mentions.size(), "one report, no retries in 1.5 s:\n" + String.join("\n", mentions));
                assertTrue(mentions.get(0).contains("ERROR"), mentions.get(0));
                assertTrue(Files.readString(clientLog).contains("100 frames counted in memory were not stored"),
                        Files.readString(clientLog));
            } finally {
                daemon.toHandle().destroyForcibly();
                daemon.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
