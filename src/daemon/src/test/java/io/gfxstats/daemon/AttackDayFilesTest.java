package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.Days;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 5: hundreds of day files that each pass data.file.max.size (4 MiB) but together
 * exceed the default heap many times - valid GraphicsStatsProto with one large unknown field each. The daemon (64 MiB,
 * exit on out-of-memory, metrics on, so start-up reads them all) must start, keep serving dumps,
 * name the files it leaves out, and start again after a SIGKILL: no crash loop.
 */
@org.junit.jupiter.api.Tag("alone") // times the owner's dumps: run by itself (src/daemon/pom.xml)
class AttackDayFilesTest {
    private static final int BIG_FILES = 200;
    private static final int BIG_FIELD_BYTES = 3_900_000;

    private Path state;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
        long today = Days.dayStart(System.currentTimeMillis());
        Files.write(DaemonDayFileLimitsTest.dayFile(state, today, "com.example.real", 1),
                DayFileCodec.encode(DaemonDayFileLimitsTest.entry("com.example.real", 1, today, 42)));
        byte[] filler = new byte[BIG_FIELD_BYTES];
        for (int i = 0; i < BIG_FILES; i++) {
            String pkg = "com.example.big" + i;
            GraphicsStatsProto big = DaemonDayFileLimitsTest.entry(pkg, 1, today, 10).toBuilder()
                    .setUnknownFields(UnknownFieldSet.newBuilder().addField(999, UnknownFieldSet.Field.newBuilder()
                            .addLengthDelimited(ByteString.copyFrom(filler)).build()).build())
                    .build();
            Files.write(DaemonDayFileLimitsTest.dayFile(state, today, pkg, 1), DayFileCodec.encode(big));
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldServeDumpsAndStartAgainWithTwoHundredDayFilesJustUnderTheCap() throws Exception {
        for (int start = 1; start <= 2; start++) {
            try (DaemonProcess daemon = new DaemonProcess(state, "--set", "metrics.enabled=true",
                    "--set", "metrics.port=0").withProductionHeap().start()) {
                try (OwnerDumpProbe owner = new OwnerDumpProbe(daemon.socket(), Duration.ofMillis(100)).start()) {
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (owner.dumps() < 10 && daemon.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(100);
                    }
                    String summary = "start " + start + ": " + owner.summary();
                    System.out.println("day files: " + summary);
                    assertTrue(daemon.isAlive(), summary + "\n" + daemon.logText());
                    assertTrue(owner.dumps() >= 10 && owner.failures().isEmpty(), summary);
                    assertTrue(owner.maxMillis() < 1000, summary);
                }
                assertEquals(42, daemon.totalFrames("com.example.real"), "the real file is served exactly");
                String log = daemon.logText();
                long named = log.lines().filter(l -> l.contains("past their budget")).count();
                assertTrue(named >= 1 && named <= 10 * start, "the first files left out are named:\n" + log);
                assertTrue(log.contains(" day files are left out of dumps, pulls and metrics for the memory budget"),
                        "and the rest counted:\n" + log);
                assertTrue(!log.contains("OutOfMemoryError") && !log.contains("\tat "), log);
                assertTrue(log.lines().count() < 40 * start, log);
                if (start == 1) {
                    daemon.kill(); // SIGKILL: the next start reads the same files
                }
            }
        }
        String text = Files.readString(state.resolve("daemon.log"), StandardCharsets.UTF_8);
        System.out.println("day files: " + text.lines().count() + " log lines over two starts");
    }
}
