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
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 2: never the same OutOfMemoryError twice. A valid day file within a raised
 * {@code data.file.max.size} but bigger than the heap kills the daemon (exit on out-of-memory,
 * metrics on, so start-up reads it); with the launchers' out-of-memory hook the next start sets
 * that file aside, names it, and serves the rest exactly. A list of files being read that a
 * SIGKILL left behind (no out-of-memory mark) sets nothing aside.
 */
class AttackCrashLoopTest {
    private static final int HEAP_MIB = 48;
    private static final int BIG_FIELD_BYTES = 60_000_000;

    private Path state;
    private long today;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
        today = Days.dayStart(System.currentTimeMillis());
        Files.write(DaemonDayFileLimitsTest.dayFile(state, today, "com.example.real", 1),
                DayFileCodec.encode(DaemonDayFileLimitsTest.entry("com.example.real", 1, today, 42)));
    }

    @AfterEach
    void tearDown() throws Exception {
        TestFiles.deleteTree(state);
    }

    private DaemonProcess daemon() {
        return new DaemonProcess(state, "--set", "metrics.enabled=true", "--set", "metrics.port=0",
                "--set", "data.file.max.size=64MiB")
                .withJvmOptions(List.of("-Xmx" + HEAP_MIB + "m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError",
                        OomGuard.JVM_HOOK));
    }

    @Test
    void shouldSetAsideTheDayFileTheLastRunRanOutOfMemoryReadingAndStart() throws Exception {
        Path big = DaemonDayFileLimitsTest.dayFile(state, today, "com.example.big", 1);
        GraphicsStatsProto proto = DaemonDayFileLimitsTest.entry("com.example.big", 1, today, 10).toBuilder()
                .setUnknownFields(UnknownFieldSet.newBuilder().addField(999, UnknownFieldSet.Field.newBuilder()
                        .addLengthDelimited(ByteString.copyFrom(new byte[BIG_FIELD_BYTES])).build()).build())
                .build();
        Files.write(big, DayFileCodec.encode(proto));

        DaemonProcess.Refusal died = daemon().runUntilExit(Duration.ofSeconds(60));
        assertEquals(3, died.exitCode(), "the first run dies of the file (exit on out-of-memory):\n" + died.output());
        assertTrue(died.output().contains("OutOfMemoryError"), died.output());

        try (DaemonProcess second = daemon().start();
             OwnerDumpProbe owner = new OwnerDumpProbe(second.socket(), Duration.ofMillis(100)).start()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (owner.dumps() < 5 && second.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(second.isAlive() && owner.dumps() >= 5 && owner.failures().isEmpty(),
                    owner.summary() + "\n" + second.logText());
            assertEquals(42, second.totalFrames("com.example.real"), "nothing else is lost");
            assertEquals(0, second.totalFrames("com.example.big"));
            String log = second.logText();
            List<String> lines = log.lines().filter(l -> l.contains("the previous run ran out of memory")).toList();
            assertEquals(1, lines.size(), log);
            assertTrue(lines.get(0).contains(big.toString()) && lines.get(0).contains("raise GFXSTATSD_HEAP"),
                    lines.get(0));
            assertTrue(Files.notExists(big), "set aside");
            try (Stream<Path> q = Files.walk(state.resolve("data").resolve("quarantine"))) {
                assertEquals(1, q.filter(p -> p.getFileName().toString().startsWith("total.")).count());
            }
        }
    }

    @Test
    void shouldBeTheHookBothLaunchersPass() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("scripts/gfxstatsd"))) {
            root = root.getParent();
        }
        for (String launcher : List.of("scripts/gfxstatsd", "scripts/install")) {
            String text = Files.readString(root.resolve(launcher), StandardCharsets.UTF_8);
            assertTrue(text.contains("-XX:+ExitOnOutOfMemoryError \"" + OomGuard.JVM_HOOK + "\""),
                    launcher + " passes the crash-loop guard's hook");
        }
    }

    @Test
    void shouldKeepTheDayFilesARunWasReadingWhenItDiedOfSomethingElse() throws Exception {
        Path real = DaemonDayFileLimitsTest.dayFile(state, today, "com.example.real", 1);
        Files.createDirectories(state);
        // What a SIGKILL during the read of the real file leaves: the list, no out-of-memory mark.
        Files.writeString(state.resolve(OomGuard.READING), real + "\n", StandardCharsets.UTF_8);
        Files.write(state.resolve(OomGuard.MARK), new byte[0]);
        try (DaemonProcess daemon = daemon().start()) {
            assertEquals(42, daemon.totalFrames("com.example.real"));
            assertTrue(!daemon.logText().contains("ran out of memory"), daemon.logText());
        }
        assertTrue(Files.exists(real));
    }
}
