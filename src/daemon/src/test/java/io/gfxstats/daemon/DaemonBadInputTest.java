package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Await;
import io.grpc.Status;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Malformed requests, path tricks, foreign files: a clear error, nothing lost, the daemon keeps running. */
class DaemonBadInputTest {
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxb");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private static GraphicsStatsProto entry(String pkg, long version, long day, int frames) {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, frames);
        p.add(Counters.cpuBucket(3), frames);
        return StatsProtos.toProto(p, new StatsProtos.Source(pkg, version, 1000, day + 1000, day + 2000));
    }

    private Path dayFile(long day, String pkg, long version) throws Exception {
        Path dir = state.resolve("data").resolve(Long.toString(day)).resolve(pkg).resolve(Long.toString(version));
        Files.createDirectories(dir);
        return dir.resolve("total");
    }

    @Test
    void shouldQuarantineCorruptTruncatedWrongVersionAndForeignDayFilesAndDumpTheRest() throws Exception {
        long today = Days.dayStart(System.currentTimeMillis());
        Files.write(dayFile(today, "com.good.app", 1), DayFileCodec.encode(entry("com.good.app", 1, today, 42)));
        Files.write(dayFile(today, "com.bad.corrupt", 1), new byte[] {1, 0, 0, 0, (byte) 0xff, (byte) 0xff, 0x13});
        Files.write(dayFile(today, "com.bad.truncated", 1), new byte[] {1, 0});
        byte[] good = DayFileCodec.encode(entry("com.bad.version", 1, today, 5));
        ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2);
        Files.write(dayFile(today, "com.bad.version", 1), good);
        // A valid file, but for another package than its path says.
        Files.write(dayFile(today, "com.bad.foreign", 1), DayFileCodec.encode(entry("com.other.app", 9, today, 7)));

        daemon = new DaemonProcess(state).start();
        GraphicsStatsProto g = daemon.entry("com.good.app", 1).orElseThrow();
        assertEquals(42, g.getSummary().getTotalFrames());
        assertEquals(1, daemon.dumpProto().getStatsCount(), daemon.dumpText());
        assertTrue(daemon.dumpText().contains("Package: com.good.app"));

        List<Path> quarantined = new ArrayList<>();
        try (Stream<Path> s = Files.walk(state.resolve("data").resolve("quarantine"))) {
            s.filter(Files::isRegularFile).forEach(quarantined::add);
        }
        assertEquals(4, quarantined.size(), quarantined.toString());
        for (String pkg : List.of("com.bad.corrupt", "com.bad.truncated", "com.bad.version", "com.bad.foreign")) {
            assertFalse(Files.exists(dayFile(today, pkg, 1)), pkg + " moved aside");
            assertTrue(quarantined.stream().anyMatch(p -> p.toString().contains("/" + pkg + "/")), pkg + " kept in quarantine");
        }
        assertTrue(daemon.isAlive());

        // A file corrupted while the daemon runs is quarantined at the next read, and a client can still save.
        Files.write(dayFile(today, "com.good.app", 1), new byte[] {7});
        assertEquals(0, daemon.dumpProto().getStatsCount());
        try (ClientProcess c = ClientProcess.start(daemon, "com.good.app", 1, 100, 100, 0)) {
            assertEquals(0, c.waitFor());
        }
        Await.until(() -> daemon.totalFrames("com.good.app") == 100, Duration.ofSeconds(60), daemon::logText);
    }

    @Test
    void shouldRejectPathTricksInPackageNamesAndCreateNothingOutsideItsDirectories() throws Exception {
        daemon = new DaemonProcess(state).start();
        for (String pkg : List.of("../evil", "a/b", "..", ".", "", "com.x/../../y", "com.\u0000x", "/etc/passwd",
                "x".repeat(300))) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, () -> register(pkg, 1, ""));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.code(), pkg);
        }
        GfxStatsClientException negative = assertThrows(GfxStatsClientException.class, () -> register("com.ok", -1, ""));
        assertEquals(Status.Code.INVALID_ARGUMENT, negative.code());
        assertFalse(Files.exists(state.resolve("evil")));
        assertFalse(Files.exists(state.getParent().resolve("evil")));
        try (Stream<Path> s = Files.list(daemon.bufferDir())) {
            assertEquals(0, s.filter(p -> p.toString().endsWith(".gfxbuf")).count(), "no buffer created");
        }
        assertTrue(daemon.isAlive());
    }

    @Test
    void shouldRefuseToAdoptAnotherProcessesSymlinkedOrWrongSizeBuffer() throws Exception {
        daemon = new DaemonProcess(state).start();
        try (ClientProcess other = ClientProcess.start(daemon, "com.example.other", 1, 10, 10, 0, "wait-attach", "hang")) {
            other.await("recorded 10", 30);
            Path theirs;
            try (Stream<Path> s = Files.list(daemon.bufferDir())) {
                theirs = s.filter(p -> p.toString().endsWith(".gfxbuf")).findFirst().orElseThrow();
            }
            String id = theirs.getFileName().toString().replace(".gfxbuf", "");
            GfxStatsClientException stolen = assertThrows(GfxStatsClientException.class,
                    () -> register("com.example.other", 1, id));
            assertEquals(Status.Code.PERMISSION_DENIED, stolen.code());
            assertTrue(stolen.getMessage().contains("pid " + other.pid()) || stolen.getMessage().contains("already"),
                    stolen.getMessage());

            String linkId = "0123456789abcdef0123456789abcdef";
            Files.createSymbolicLink(daemon.bufferDir().resolve(linkId + ".gfxbuf"), theirs);
            GfxStatsClientException viaLink = assertThrows(GfxStatsClientException.class,
                    () -> register("com.example.other", 1, linkId));
            assertEquals(Status.Code.PERMISSION_DENIED, viaLink.code());

            String shortId = "fedcba9876543210fedcba9876543210";
            Files.write(daemon.bufferDir().resolve(shortId + ".gfxbuf"), new byte[100]);
            GfxStatsClientException wrongSize = assertThrows(GfxStatsClientException.class,
                    () -> register("com.example.other", 1, shortId));
            assertEquals(Status.Code.PERMISSION_DENIED, wrongSize.code());

            GfxStatsClientException outside = assertThrows(GfxStatsClientException.class, () -> {
                try (GfxStatsClient c = GfxStatsClient.unix(daemon.socket())) {
                    c.register(RegisterRequest.newBuilder().setPackageName("com.example.other").setVersionCode(1)
                            .setAdoptRegistrationId(id).setAdoptBufferPath("/tmp/../etc/" + id + ".gfxbuf").build()).close();
                }
            });
            assertEquals(Status.Code.PERMISSION_DENIED, outside.code());
            assertEquals(10, daemon.totalFrames("com.example.other"), "the other process's frames are untouched");
        }
        assertTrue(daemon.isAlive());
    }

    @Test
    void shouldRefuseRegistrationsBeyondTheBufferLimit() throws Exception {
        daemon = new DaemonProcess(state, "--set", "buffers.max=2").start();
        try (GfxStatsClient c = GfxStatsClient.unix(daemon.socket())) {
            ClientRegistration a = c.register(RegisterRequest.newBuilder().setPackageName("com.a").setVersionCode(1).build());
            ClientRegistration b = c.register(RegisterRequest.newBuilder().setPackageName("com.b").setVersionCode(1).build());
            GfxStatsClientException full = assertThrows(GfxStatsClientException.class,
                    () -> c.register(RegisterRequest.newBuilder().setPackageName("com.c").setVersionCode(1).build()));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, full.code());
            assertTrue(full.getMessage().contains("max.buffers") || full.getMessage().contains("live buffers"), full.getMessage());
            a.close();
            b.close();
        }
        assertTrue(daemon.isAlive());
    }

    private void register(String pkg, long version, String adoptId) throws GfxStatsClientException {
        try (GfxStatsClient c = GfxStatsClient.unix(daemon.socket())) {
            c.register(RegisterRequest.newBuilder().setPackageName(pkg).setVersionCode(version)
                    .setAdoptRegistrationId(adoptId).build()).close();
        }
    }
}
