package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 4: a flood of idle TCP connections is capped per peer and in total, closed when
 * idle, and never takes the connections reserved for the owner's Unix-socket clients.
 */
class DaemonConnectionLimitsTest {
    private Path state;
    private DaemonProcess daemon;
    private final List<Socket> flood = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxc");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Socket s : flood) {
            s.close();
        }
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private int tcpPort() throws IOException {
        Matcher m = Pattern.compile("listening on tcp 127\\.0\\.0\\.1:(\\d+)").matcher(daemon.logText());
        assertTrue(m.find(), daemon.logText());
        return Integer.parseInt(m.group(1));
    }

    /** Whether the daemon has closed the socket (EOF or reset) rather than keeping it open. */
    private static boolean closedByPeer(Socket s) throws IOException {
        s.setSoTimeout(50);
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            while (in.read(buf) >= 0) {
                // the server's HTTP/2 preface may come first
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private int stillOpen() throws IOException {
        int open = 0;
        for (Socket s : flood) {
            if (!closedByPeer(s)) {
                open++;
            }
        }
        return open;
    }

    @Test
    void shouldCapAndCloseAFloodOfIdleTcpConnectionsAndKeepServingTheOwner() throws Exception {
        daemon = new DaemonProcess(state, "--set", "tcp.enabled=true", "--set", "tcp.port=0", "--set",
                "connections.max=60", "--set", "connections.max.per.peer=10", "--set", "connections.owner.reserve=20",
                "--set", "tcp.idle.timeout=8s").start();
        int port = tcpPort();
        for (int i = 0; i < 100; i++) {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            flood.add(s);
        }
        // Refusals close at once; the idle timeout closes the admitted ten only seconds later.
        Await.until(() -> stillOpen() <= 10, Duration.ofSeconds(30),
                () -> "refused connections closed: " + daemon.logText());
        assertEquals(10, stillOpen(), "one peer keeps at most connections.max.per.peer:\n" + daemon.logText());

        // The owner's dump and registration over the Unix socket go on.
        Process dump = JavaProcess.builder(Main.class, "dump", "--socket", daemon.socket().toString())
                .redirectErrorStream(true).start();
        String out = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(dump.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, dump.exitValue(), out);
        Process synth = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                "--package", "com.owner", "--version-code", "1", "--seconds", "1", "--fps", "30")
                .redirectErrorStream(true).start();
        String synthOut = new String(synth.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(synth.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, synth.exitValue(), synthOut);
        assertTrue(daemon.totalFrames("com.owner") > 0);

        // Idle, callless TCP connections are closed after tcp.idle.timeout.
        Await.until(() -> stillOpen() == 0, Duration.ofSeconds(60), "idle connections are closed");
        String log = daemon.logText();
        assertTrue(log.contains("refused a connection from 127.0.0.1: it has 10 open, the limit per peer (setting "
                + "connections.max.per.peer)"), log);
        assertTrue(log.lines().filter(l -> l.contains("RateLimitedLog")).count() <= 20, "rate-limited:\n" + log);
    }
}
