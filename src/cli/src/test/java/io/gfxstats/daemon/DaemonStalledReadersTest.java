package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.StalledH2Client;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 2: dump callers whose HTTP/2 receive window stays 0 hold at most their peer's
 * share of the dump slots, and lose them after the stall timeout; everyone else's dumps go on.
 */
class DaemonStalledReadersTest {
    private static final String GIVEN_UP = "dump given up: the client read nothing for ";
    private static final int PACKAGES = 300; // a text dump of several hundred KB: more than one chunk

    private Path state;
    private DaemonProcess daemon;
    private final List<StalledH2Client> stalled = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
        long today = Days.dayStart(System.currentTimeMillis());
        for (int i = 0; i < PACKAGES; i++) {
            String pkg = "com.example.app" + i;
            Files.write(DaemonDayFileLimitsTest.dayFile(state, today, pkg, 1),
                    DayFileCodec.encode(DaemonDayFileLimitsTest.entry(pkg, 1, today, 10 + i)));
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (StalledH2Client c : stalled) {
            c.close();
        }
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldKeepServingDumpsWhileFourReadersNeverRead() throws Exception {
        daemon = new DaemonProcess(state, "--set", "dump.stall.timeout=10s").start();
        for (int i = 0; i < 4; i++) {
            stalled.add(StalledH2Client.call(daemon.socket(), "gfxstats.v1.GfxStats/Dump", new byte[0]));
        }
        // The daemon has taken every stalled call once it has answered each with headers: two run
        // and hold this process's share of slots, the others are refused.
        for (StalledH2Client c : stalled) {
            assertTrue(c.awaitResponseHeaders(Duration.ofSeconds(30)), "the daemon answered a stalled call\n"
                    + daemon.logText());
        }

        Process dump = JavaProcess.builder(Main.class, "dump", "--socket", daemon.socket().toString()).start();
        byte[] out = dump.getInputStream().readAllBytes();
        String err = new String(dump.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(dump.waitFor(30, TimeUnit.SECONDS));
        String logAtDump = daemon.logText();

        assertEquals(0, dump.exitValue(), err + logAtDump);
        assertEquals(PACKAGES, count(new String(out, StandardCharsets.UTF_8), "\nPackage: ")
                + (new String(out, StandardCharsets.UTF_8).startsWith("Package: ") ? 1 : 0));
        assertEquals(0, count(logAtDump, "dump stalled"),
                "another process is served while the stalled calls still hold their slots:\n" + logAtDump);

        // The stalled calls lose their slots after the stall timeout; the lines are rate-limited
        // (issue 26), so the two stalls of the same instant may make one line.
        Await.until(() -> count(daemon.logText(), "dump stalled: the client read nothing for 10000 ms") >= 1
                || daemon.logText().contains(GIVEN_UP), Duration.ofSeconds(60), daemon::logText);
        assertEquals(10, daemon.totalFrames("com.example.app0"), "this process gets slots again");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
