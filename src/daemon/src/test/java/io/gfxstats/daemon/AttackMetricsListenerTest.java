package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.store.Days;
import io.gfxstats.testing.OtherUser;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * Issue 26, item 3: 20 slowloris connections of another user and scrapers that hang up early
 * against the metrics listener, and a user that {@code metrics.access} leaves out. Scrapes, health checks and the owner's dumps must keep coming within 1 s, the log
 * small and free of stack traces.
 */
@org.junit.jupiter.api.Tag("alone") // times the owner's dumps: run by itself (src/daemon/pom.xml)
class AttackMetricsListenerTest {
    private static final Duration ATTACK = Duration.ofSeconds(12);

    private Path state;
    private DaemonProcess daemon;
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
        long today = Days.dayStart(System.currentTimeMillis());
        for (int i = 0; i < 50; i++) {
            String pkg = "com.example.app" + i;
            Files.write(DaemonDayFileLimitsTest.dayFile(state, today, pkg, 1),
                    DayFileCodec.encode(DaemonDayFileLimitsTest.entry(pkg, 1, today, 10 + i)));
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
        }
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldAnswerScrapesWithinASecondWhileSlowlorisPeersAndEarlyHangupsHitTheListener() throws Exception {
        assumeTrue(OtherUser.unavailable().isEmpty(), () -> OtherUser.unavailable().orElse(""));
        daemon = new DaemonProcess(state, "--set", "metrics.enabled=true", "--set", "metrics.port=0")
                .withProductionHeap().start();
        int port = daemon.metricsPort();
        int dumpBytes = daemon.dumpText().getBytes(StandardCharsets.UTF_8).length;
        long logBefore = Files.size(state.resolve("daemon.log"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long slowestScrape = 0;
        int scrapes = 0;
        int hangups = 0;
        List<String> failures = new ArrayList<>();
        // One scrape before the attack, so that the first one's class loading is not counted against it.
        assertEquals(200, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode());
        try (OwnerDumpProbe owner = new OwnerDumpProbe(daemon.socket(), Duration.ofMillis(200))
                .expecting(dumpBytes).start()) {
            // Another user holds all its connections (and tries for more), a header byte now and
            // then, never a whole request, reconnecting whenever the daemon hangs up.
            asNobody("for i in $(seq 20); do (while true; do ( exec 3<>/dev/tcp/127.0.0.1/" + port
                    + " || exit; printf 'GET /metrics HTTP/1.1\\r\\nHost: x\\r\\n' >&3;"
                    + " while printf X >&3; do sleep 1; done ) 2>/dev/null; sleep 0.1; done) & done; wait");
            long end = System.nanoTime() + ATTACK.toNanos();
            while (System.nanoTime() < end) {
                for (int i = 0; i < 5; i++) {
                    hangups += hangUpEarly(port) ? 1 : 0;
                }
                for (String path : List.of("/metrics", "/-/healthy")) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(2)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200) {
                            failures.add(path + ": HTTP " + r.statusCode());
                        }
                    } catch (IOException e) {
                        failures.add(path + ": " + e);
                    }
                    slowestScrape = Math.max(slowestScrape, (System.nanoTime() - t0) / 1_000_000);
                    scrapes++;
                }
                Thread.sleep(200);
            }
            String summary = scrapes + " scrapes, slowest " + slowestScrape + " ms, failures " + failures
                    + "; " + hangups + " early hang-ups; " + owner.summary();
            System.out.println("metrics listener: " + summary);
            assertTrue(failures.isEmpty(), summary);
            assertTrue(slowestScrape < 1000, summary);
            assertTrue(owner.failures().isEmpty() && owner.maxMillis() < 1000, summary);
        }
        assertTrue(daemon.isAlive());
        String log = Files.readString(state.resolve("daemon.log")).substring((int) logBefore);
        long lines = log.lines().count();
        System.out.println("metrics listener: " + lines + " log lines during the attack:\n" + log);
        assertTrue(lines <= 30, lines + " log lines during the attack:\n" + log);
        assertTrue(!log.contains("\tat "), "a stack trace in the log:\n" + log);
        assertTrue(log.contains("closed a connection from uid " + OtherUser.UID + ": it already has "
                + "8 open (the limit per peer)"), "the attacker's share was not full:\n" + log);
        assertEquals(10, daemon.totalFrames("com.example.app0"), "nothing lost");
    }

    @Test
    void shouldRefuseAUserThatMetricsAccessLeavesOutAndServeTheOwner() throws Exception {
        assumeTrue(OtherUser.unavailable().isEmpty(), () -> OtherUser.unavailable().orElse(""));
        daemon = new DaemonProcess(state, "--set", "metrics.enabled=true", "--set", "metrics.port=0",
                "--set", "metrics.access=owner").start();
        int port = daemon.metricsPort();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpResponse<String> owner = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, owner.statusCode());
        assertTrue(owner.body().contains("com.example.app0"), owner.body());
        String other = "";
        for (int i = 0; i < 5; i++) { // five refusals, one log line
            Process p = asNobody("exec 3<>/dev/tcp/127.0.0.1/" + port
                    + " && printf 'GET /metrics HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3");
            other = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            assertTrue(other.startsWith("HTTP/1.1 403"), other);
            assertTrue(!other.contains("com.example"), other);
        }
        String log = daemon.logText();
        for (long until = System.nanoTime() + 10_000_000_000L; !log.contains("refused a scrape from uid 65534")
                && System.nanoTime() < until; log = daemon.logText()) {
            Thread.sleep(50); // the daemon logs as it answers, so the line is there or about to be
        }
        assertTrue(log.contains("metrics.access=owner"), log);
        assertEquals(1, log.lines().filter(l -> l.contains("refused a scrape")).count(), log);
    }

    @Test
    void shouldCloseAPeersLongestIdleConnectionToAdmitOneMoreThanItsShare() throws Exception {
        daemon = new DaemonProcess(state, "--set", "metrics.enabled=true", "--set", "metrics.port=0").start();
        int port = daemon.metricsPort();
        List<Socket> kept = new ArrayList<>();
        try {
            // A scraper that keeps its connections alive: its whole share answered once and idle.
            for (int i = 0; i < 8; i++) {
                Socket s = new Socket("127.0.0.1", port);
                s.setSoTimeout(10_000);
                kept.add(s);
                assertTrue(healthCheck(s), "connection " + i + " was not answered");
            }
            Socket ninth = new Socket("127.0.0.1", port);
            ninth.setSoTimeout(10_000);
            kept.add(ninth);
            assertTrue(healthCheck(ninth), "the ninth connection was refused although eight were idle");
            assertEquals(-1, kept.get(0).getInputStream().read(), "the longest idle connection stays open");
            assertTrue(healthCheck(kept.get(1)), "a connection idle for less long was closed");
        } finally {
            for (Socket s : kept) {
                s.close();
            }
        }
    }

    /** One health check on a kept-alive connection: true when its whole answer came back. */
    private static boolean healthCheck(Socket s) throws IOException {
        s.getOutputStream().write("GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        StringBuilder answer = new StringBuilder();
        byte[] buf = new byte[512];
        while (!answer.toString().endsWith("Exporter is healthy.\n")) {
            int n = s.getInputStream().read(buf);
            if (n < 0) {
                return false;
            }
            answer.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
        }
        return answer.toString().startsWith("HTTP/1.1 200");
    }

    /** A shell command run as the unprivileged user (65534), its output readable. */
    private Process asNobody(String script) throws IOException {
        Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid", Integer.toString(OtherUser.UID), "--regid",
                Integer.toString(OtherUser.UID), "--clear-groups", "/bin/bash", "-c", script)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        processes.add(p);
        return p;
    }

    /** A whole scrape request, then a reset before the answer: the early disconnect of the report. */
    private static boolean hangUpEarly(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port));
            s.setSoLinger(true, 0);
            s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
