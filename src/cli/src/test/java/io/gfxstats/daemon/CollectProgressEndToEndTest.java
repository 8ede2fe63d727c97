package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.JavaProcess;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gfxstats collect} shows per-target progress on a terminal (a real pseudo-terminal made
 * by script(1)) and prints only its summary into a pipe.
 */
class CollectProgressEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void shouldShowPerTargetProgressOnATerminalAndStayQuietInAPipe() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("s")).start()) {
            String targets = "unix:" + daemon.socket() + ",127.0.0.1:" + closedPort;
            List<String> cmd = JavaProcess.command(Main.class, "collect", "--targets", targets, "--out",
                    tmp.resolve("out").toString(), "--retries", "1", "--deadline", "3");

            Process piped = new ProcessBuilder(cmd).start();
            String pipedErr = new String(piped.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            String pipedOut = new String(piped.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(piped.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, piped.exitValue(), pipedOut + pipedErr);
            assertFalse(pipedErr.contains("[1/2]") || pipedErr.contains("\033[K") || pipedErr.contains("in flight"),
                    pipedErr);
            assertTrue(pipedOut.startsWith("collected 1 of 2 targets (1 failed)"), pipedOut);

            StringBuilder line = new StringBuilder("exec");
            for (String a : cmd) {
                line.append(" '").append(a.replace("'", "'\\''")).append('\'');
            }
            List<String> tty = new ArrayList<>(List.of("script", "-qefc", line.toString(), "/dev/null"));
            ProcessBuilder pb = new ProcessBuilder(tty).redirectErrorStream(true);
            pb.environment().put("TERM", "xterm");
            Process onTty = pb.start();
            onTty.getOutputStream().close();
            String screen = new String(onTty.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(onTty.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, onTty.exitValue(), screen);
            assertTrue(screen.contains("] ok     unix:" + daemon.socket()), screen);
            assertTrue(screen.contains("] FAILED 127.0.0.1:" + closedPort), screen);
            assertTrue(screen.contains("in flight"), screen);
            assertTrue(screen.contains("collected 1 of 2 targets (1 failed)"), screen);
        }
    }
}
