package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.store.Days;
import io.gfxstats.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 1: a peer that opens streaming calls as fast as it can on one HTTP/2
 * connection and never reads a byte. The daemon runs with its production heap (64 MiB, exit on
 * out-of-memory); the owner's dumps must keep coming within 1 s and the log must stay small.
 */
@org.junit.jupiter.api.Tag("alone") // times the owner's dumps: run by itself (src/daemon/pom.xml)
class AttackUnreadStreamsTest {
    private static final int PACKAGES = 300; // a text dump of several hundred KB: more than one chunk
    /** The stall timeout of most tests here: short, so that an attack sees several of them. */
    private static final String STALL = "1s";
    /** Long enough for three stall timeouts to free the attacker's slots. */
    private static final Duration ATTACK = Duration.ofSeconds(4);
    /** For the test of the slot churn: the churn starts when the stall timeout (2 s there) frees the slots. */
    private static final Duration LONG_ATTACK = Duration.ofSeconds(6);

    private Path state;
    private DaemonProcess daemon;

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
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldServeTheOwnerWhileOneConnectionOpensAnUnreadDumpEveryTwoMilliseconds() throws Exception {
        // One package: the dump completes at once and only its queued chunk stays behind.
        assertOwnerServedDuring("gfxstats.v1.GfxStats/Dump", "1210636f6d2e6578616d706c652e61707030");
    }

    @Test
    void shouldServeTheOwnerWhileOneConnectionOpensAnUnreadWatchEveryTwoMilliseconds() throws Exception {
        assertOwnerServedDuring("gfxstats.v1.GfxStats/Watch", "08c801"); // every 200 ms
    }

    @Test
    void shouldServeTheOwnerWhileTwoProcessesReopenAStalledWholeDumpEverySecond() throws Exception {
        // The report's slot churn: each process holds its share of dump slots with dumps whose
        // writer waits for a reader, and retakes them as soon as the stall timeout (2 s here, so
        // that the attack sees it twice; the default is 10 s) frees them.
        assertOwnerServedDuring("gfxstats.v1.GfxStats/Dump", "-", 2, 1000, "2s", LONG_ATTACK);
    }

    @Test
    void shouldServeTheOwnerWhileATokenlessTcpPeerOpensAnUnreadDumpEveryTwoMilliseconds() throws Exception {
        // The report's other local user over loopback TCP without a token (an allowed setup):
        // one peer by address, with no claim on the owner's reserve.
        tcp = true;
        assertOwnerServedDuring("gfxstats.v1.GfxStats/Dump", "1210636f6d2e6578616d706c652e61707030");
    }

    @Test
    void shouldServeTheOwnerOfARootDaemonWhileAnotherUserOpensAnUnreadDumpEveryTwoMilliseconds() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.gfxstats.testing.OtherUser.unavailable().isEmpty(),
                () -> io.gfxstats.testing.OtherUser.unavailable().orElse(""));
        // Another user of a root daemon (group 0 may reach its socket, rw-rw----): one peer by
        // uid, outside the owner's reserve however many processes it starts.
        Files.setPosixFilePermissions(state, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-x---"));
        try (io.gfxstats.testing.OtherUser user = io.gfxstats.testing.OtherUser.prepare(state)) {
            other = user;
            assertOwnerServedDuring("gfxstats.v1.GfxStats/Dump", "1210636f6d2e6578616d706c652e61707030");
        }
    }

    private boolean tcp;
    private io.gfxstats.testing.OtherUser other;

    private void assertOwnerServedDuring(String method, String requestHex) throws Exception {
        assertOwnerServedDuring(method, requestHex, 1, 2, STALL, ATTACK);
    }

    private void assertOwnerServedDuring(String method, String requestHex, int attackers, int gapMillis,
                                         String stallTimeout, Duration attack) throws Exception {
        daemon = (tcp ? new DaemonProcess(state, "--set", "dump.stall.timeout=" + stallTimeout,
                "--set", "tcp.enabled=true", "--set", "tcp.port=0")
                : new DaemonProcess(state, "--set", "dump.stall.timeout=" + stallTimeout)).withProductionHeap().start();
        String target = daemon.socket().toString();
        if (tcp) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("listening on tcp 127\\.0\\.0\\.1:(\\d+)")
                    .matcher(daemon.logText());
            assertTrue(m.find(), daemon.logText());
            target = "tcp:" + m.group(1);
        }
        int dumpBytes = daemon.dumpText().getBytes(StandardCharsets.UTF_8).length;
        long logBefore = Files.size(state.resolve("daemon.log"));
        java.util.List<Process> attacking = new java.util.ArrayList<>();
        for (int i = 0; i < attackers; i++) {
            String[] args = {target, method, requestHex, Long.toString(attack.toSeconds()),
                Integer.toString(gapMillis)};
            attacking.add((other == null ? JavaProcess.builder(UnreadStreamsAttacker.class, args)
                    : new ProcessBuilder(other.commandAs(1001, 0, java.util.List.of(), JavaProcess.SHORT_LIVED,
                            UnreadStreamsAttacker.class, args))).redirectErrorStream(true).start());
        }
        try (OwnerDumpProbe owner = new OwnerDumpProbe(daemon.socket(), Duration.ofMillis(100))
                .expecting(dumpBytes)) {
            if (method.endsWith("Watch")) {
                owner.watchingToo();
            }
            owner.start();
            String reports = "";
            for (Process a : attacking) {
                assertTrue(a.waitFor(attack.toSeconds() + 30, TimeUnit.SECONDS), "an attacker hangs");
                reports += new String(a.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim() + "; ";
            }
            assertTrue(daemon.isAlive(), "the daemon died (" + reports + "): " + tail(daemon.logText()));
            String summary = owner.summary() + "; attacker: " + reports + "; daemon heap after: " + heapOf(daemon);
            System.out.println(method + ": " + summary);
            assertTrue(owner.dumps() >= 5, summary);
            assertTrue(owner.failures().isEmpty(), summary);
            assertTrue(owner.maxMillis() < 1000, summary);
        } finally {
            attacking.forEach(Process::destroyForcibly);
        }
        String log = Files.readString(state.resolve("daemon.log")).substring((int) logBefore);
        long lines = log.lines().count();
        System.out.println(method + ": " + lines + " log lines during the attack:\n" + tail(log));
        assertTrue(lines <= 40, lines + " log lines during the attack:\n" + tail(log));
        assertTrue(!log.contains("\tat "), "a stack trace in the log:\n" + tail(log));
        assertEquals(10, daemon.totalFrames("com.example.app0"), "nothing lost");
    }

    /** The daemon's heap as jcmd reports it (for the record, not asserted: it depends on the collector). */
    private static String heapOf(DaemonProcess daemon) {
        try {
            Process p = new ProcessBuilder(System.getProperty("java.home") + "/bin/jcmd", Long.toString(daemon.pid()),
                    "GC.heap_info").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(20, TimeUnit.SECONDS);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("total (\\d+K), used (\\d+K)").matcher(out);
            long total = 0;
            long used = 0;
            while (m.find()) {
                total += Long.parseLong(m.group(1).replace("K", ""));
                used += Long.parseLong(m.group(2).replace("K", ""));
            }
            return used / 1024 + " of " + total / 1024 + " MiB used";
        } catch (java.io.IOException | InterruptedException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static String tail(String log) {
        return log.length() <= 4000 ? log : "..." + log.substring(log.length() - 4000);
    }
}
