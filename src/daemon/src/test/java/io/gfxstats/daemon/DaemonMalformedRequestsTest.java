package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.RawGrpc;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 11, item 6: malformed requests get INVALID_ARGUMENT with one readable line; the log stays quiet. */
class DaemonMalformedRequestsTest {
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxm");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldRefuseMalformedRequestsWithInvalidArgumentAndOneReadableLine() throws Exception {
        daemon = new DaemonProcess(state).start();
        byte[] truncated = {0x12, 0x7f, 0x41}; // package_name says 127 bytes, 1 follows
        byte[] badUtf8 = {0x12, 0x03, (byte) 0xc3, 0x28, 0x41};
        List<String> refusals = new ArrayList<>();
        try (RawGrpc raw = new RawGrpc(daemon.socket())) {
            Status s = raw.call("Dump", truncated);
            assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
            assertEquals("malformed DumpRequest: the input ended unexpectedly in the middle of a field",
                    s.getDescription());
            Status u = raw.call("Dump", badUtf8);
            assertEquals(Status.Code.INVALID_ARGUMENT, u.getCode());
            assertEquals("malformed DumpRequest: Protocol message had invalid UTF-8", u.getDescription());
            for (int i = 0; i < 5; i++) {
                for (String m : List.of("Dump", "Pull", "Health", "Register")) {
                    Status r = raw.call(m, truncated);
                    refusals.add(m + " " + r.getCode() + " " + r.getDescription());
                    assertEquals(Status.Code.INVALID_ARGUMENT, r.getCode(), m + ": " + r);
                    assertTrue(r.getDescription().startsWith("malformed " + m + "Request: "), r.getDescription());
                }
            }
        }
        assertTrue(daemon.dumpText().isEmpty() || !daemon.health().getVersion().isEmpty(), "still serving");
        String log = daemon.logText();
        long refusalLines = log.lines().filter(l -> l.contains("RateLimitedLog")).count();
        assertTrue(refusalLines >= 1 && refusalLines <= 22, log);
        assertFalse(log.contains("\tat "), "no stack trace:\n" + log);
        assertFalse(log.contains("SEVERE"), log);
        assertTrue(log.contains("refused Dump from "), log);
    }

    @Test
    void shouldRateLimitTheLogOfAFloodOfMalformedRequests() throws Exception {
        daemon = new DaemonProcess(state).start();
        try (RawGrpc raw = new RawGrpc(daemon.socket())) {
            long t0 = System.nanoTime();
            int n = 0;
            while (System.nanoTime() - t0 < 1_500_000_000L) {
                raw.call("Pull", new byte[] {(byte) 0xff});
                n++;
            }
            assertTrue(n > 10, "sent " + n);
            String log = daemon.logText();
            long lines = log.lines().filter(l -> l.contains("RateLimitedLog")).count();
            assertTrue(lines <= 3, lines + " lines for " + n + " refusals:\n" + log);
        }
    }
}
