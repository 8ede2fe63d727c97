package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.store.Days;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, items 4 and 7: a TCP peer without a token sending HTTP/2 frames bigger than the
 * daemon allows, over and over. Each costs the peer its connection; the log must not get a stack
 * trace per frame (8,700 lines in 0.5 s in the report) and the owner keeps being served.
 */
@org.junit.jupiter.api.Tag("alone") // times the owner's dumps: run by itself (src/daemon/pom.xml)
class AttackOversizedFramesTest {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
        long today = Days.dayStart(System.currentTimeMillis());
        Files.write(DaemonDayFileLimitsTest.dayFile(state, today, "com.example.app0", 1),
                DayFileCodec.encode(DaemonDayFileLimitsTest.entry("com.example.app0", 1, today, 10)));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldLogNoStackTraceWhileATcpPeerSendsOversizedFrames() throws Exception {
        daemon = new DaemonProcess(state, "--set", "tcp.enabled=true", "--set", "tcp.port=0")
                .withProductionHeap().start();
        Matcher m = Pattern.compile("listening on tcp 127\\.0\\.0\\.1:(\\d+)").matcher(daemon.logText());
        assertTrue(m.find(), daemon.logText());
        int port = Integer.parseInt(m.group(1));
        int dumpBytes = daemon.dumpText().getBytes(StandardCharsets.UTF_8).length;
        long logBefore = Files.size(state.resolve("daemon.log"));
        int sent = 0;
        try (OwnerDumpProbe owner = new OwnerDumpProbe(daemon.socket(), Duration.ofMillis(100))
                .expecting(dumpBytes).start()) {
            long end = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            while (System.nanoTime() < end) {
                sent += oversized(port) ? 1 : 0;
            }
            String summary = sent + " connections with oversized frames; " + owner.summary();
            System.out.println("oversized frames: " + summary);
            assertTrue(sent > 100, summary);
            assertTrue(owner.failures().isEmpty() && owner.maxMillis() < 1000 && owner.dumps() >= 5, summary);
        }
        assertTrue(daemon.isAlive());
        String log = Files.readString(state.resolve("daemon.log")).substring((int) logBefore);
        long lines = log.lines().count();
        System.out.println("oversized frames: " + lines + " log lines:\n" + log);
        assertTrue(lines <= 20, lines + " log lines:\n" + log);
        assertTrue(!log.contains("\tat "), "a stack trace in the log:\n" + log);
        assertEquals(10, daemon.totalFrames("com.example.app0"), "nothing lost");
    }

    private static byte[] headers() {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        String[][] fields = {{":method", "POST"}, {":scheme", "http"}, {":path", "/gfxstats.v1.GfxStats/Dump"},
            {":authority", "localhost"}, {"content-type", "application/grpc"}, {"te", "trailers"}};
        for (String[] f : fields) {
            h.write(0);
            h.write(f[0].length());
            h.writeBytes(f[0].getBytes(StandardCharsets.US_ASCII));
            h.write(f[1].length());
            h.writeBytes(f[1].getBytes(StandardCharsets.US_ASCII));
        }
        return h.toByteArray();
    }

    /** Preface, empty SETTINGS, a Dump call's HEADERS, then a 1 MiB DATA frame header and some payload. */
    private static boolean oversized(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(PREFACE);
            out.writeBytes(new byte[] {0, 0, 0, 0x4, 0, 0, 0, 0, 0});
            byte[] headers = headers();
            out.writeBytes(new byte[] {0, (byte) (headers.length >>> 8), (byte) headers.length, 0x1, 0x4, 0, 0, 0, 1});
            out.writeBytes(headers);
            int length = 1 << 20;
            out.writeBytes(new byte[] {(byte) (length >>> 16), (byte) (length >>> 8), (byte) length, 0x0, 0, 0, 0, 0, 1});
            out.writeBytes(new byte[4096]);
            s.getOutputStream().write(out.toByteArray());
            s.getInputStream().read(new byte[256]);
            return true;
        } catch (IOException e) {
            return true; // the daemon hung up: what it should do
        }
    }
}
