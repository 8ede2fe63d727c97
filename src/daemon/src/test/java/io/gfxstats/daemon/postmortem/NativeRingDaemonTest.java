package io.gfxstats.daemon.postmortem;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real daemon and a real client process that SIGKILL ends: the frames that were only in the
 * client's ring (in the buffer's ring group) show in {@code dump} once the daemon retired the
 * buffer, also when the daemon itself was killed first and finds the buffer at its restart.
 */
class NativeRingDaemonTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static Process client(DaemonProcess daemon, String pkg, int frames) throws Exception {
        return JavaProcess.builder(RingClientMain.class, daemon.socket().toString(), pkg, Integer.toString(frames))
                .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
    }

    private static Path awaitReady(Process p) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        assertTrue(line != null && line.startsWith("ready "), "client said " + line);
        return Path.of(line.substring("ready ".length()));
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    private static void sigkill(Process p) throws InterruptedException {
        p.destroyForcibly();
        p.waitFor();
    }

    @Test
    void shouldShowTheFramesOnlyInTheRingOfAClientKilledBySigkill() throws Exception {
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxs-ring");
        DaemonProcess daemon = new DaemonProcess(state);
        Process child = null;
        try {
            daemon.start();
            child = client(daemon, "com.example.ringkill", 700);
            Path buffer = awaitReady(child);
            try (BufferReader reader = BufferReader.open(buffer, (Integer) Files.getAttribute(buffer, "unix:uid"))) {
                assertTrue(reader.hasRings(), "a native_rings registration gets the ring group");
            }
            assertEquals(0, daemon.totalFrames("com.example.ringkill"), "nothing counted before the kill");
            sigkill(child);
            DaemonProcess d = daemon;
            Await.until(() -> d.health().getLiveBuffers() == 0, WAIT, d::logText);
            assertEquals(700, daemon.totalFrames("com.example.ringkill"), daemon.logText());
            assertTrue(daemon.logText().contains("counted 700 entries"), daemon.logText());
        } finally {
            if (child != null) {
                sigkill(child);
            }
            daemon.close();
            deleteTree(state);
        }
    }

    @Test
    void shouldCountTheRingOfAKilledClientThatNobodyWaitedFor() throws Exception {
        // The client is a child of a shell that execs `sleep`: after the SIGKILL it stays a
        // zombie (as under a launcher that does not wait), which ProcessHandle calls alive.
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxs-ring");
        DaemonProcess daemon = new DaemonProcess(state);
        Process parent = null;
        try {
            daemon.start();
            List<String> cmd = new ArrayList<>(List.of("sh", "-c", "\"$@\" & echo $!; exec sleep 600", "sh"));
            cmd.addAll(JavaProcess.command(RingClientMain.class, daemon.socket().toString(), "com.example.ringzombie",
                    "500"));
            parent = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile()))
                    .start();
            BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8));
            int pid = Integer.parseInt(out.readLine().trim());
            String ready = out.readLine();
            assertTrue(ready != null && ready.startsWith("ready "), "client said " + ready);
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            DaemonProcess d = daemon;
            Await.until(() -> d.health().getLiveBuffers() == 0, WAIT, d::logText);
            assertEquals(500, daemon.totalFrames("com.example.ringzombie"), daemon.logText());
            assertTrue(Files.readString(Path.of("/proc", Integer.toString(pid), "stat")).contains(") Z "),
                    "the client was still a zombie when the daemon counted its ring");
        } finally {
            if (parent != null) {
                parent.destroyForcibly();
                parent.waitFor();
            }
            daemon.close();
            deleteTree(state);
        }
    }

    @Test
    void shouldCountTheRingOfAClientThatDiedWhileNoDaemonRan() throws Exception {
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxs-ring");
        DaemonProcess daemon = new DaemonProcess(state);
        Process child = null;
        try {
            daemon.start();
            child = client(daemon, "com.example.ringrecover", 900);
            awaitReady(child);
            daemon.kill();
            sigkill(child);
            daemon = new DaemonProcess(state);
            daemon.start();
            DaemonProcess d = daemon;
            Await.until(() -> d.health().getLiveBuffers() == 0, WAIT, d::logText);
            assertEquals(900, daemon.totalFrames("com.example.ringrecover"), daemon.logText());
        } finally {
            if (child != null) {
                sigkill(child);
            }
            daemon.close();
            deleteTree(state);
        }
    }
}
