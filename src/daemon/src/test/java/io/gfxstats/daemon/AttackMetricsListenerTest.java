package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.store.Days;
import java.io.IOException;
import java.io.OutputStream;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 3: 20 slowloris connections and scrapers that hang up early against the metrics
 * listener. Scrapes, health checks and the owner's dumps must keep coming within 1 s, the log
 * small and free of stack traces.
 */
class AttackMetricsListenerTest {
    private static final Duration ATTACK = Duration.ofSeconds(12);

    private Path state;
    private DaemonProcess daemon;
    private final List<Socket> sockets = new ArrayList<>();

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
        for (Socket s : sockets) {
            s.close();
        }
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldAnswerScrapesWithinASecondWhileSlowlorisPeersAndEarlyHangupsHitTheListener() throws Exception {
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
        try (OwnerDumpProbe owner = new OwnerDumpProbe(daemon.socket(), Duration.ofMillis(200))
                .expecting(dumpBytes).start()) {
            for (int i = 0; i < 20; i++) { // ten times the two of the report
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port));
                s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                sockets.add(s);
            }
            long end = System.nanoTime() + ATTACK.toNanos();
            while (System.nanoTime() < end) {
                for (Socket s : sockets) { // a header byte now and then: never a whole request
                    trickle(s);
                }
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
        assertEquals(10, daemon.totalFrames("com.example.app0"), "nothing lost");
    }

    private static void trickle(Socket s) {
        try {
            OutputStream out = s.getOutputStream();
            out.write('X');
            out.flush();
        } catch (IOException closedByTheDaemon) {
            // what the request timeout is for
        }
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
