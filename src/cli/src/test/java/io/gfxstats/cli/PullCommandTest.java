package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.PulledEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gfxstats pull} against a real server on a real Unix socket. */
class PullCommandTest {
    /** 2023-11-14T00:00:00Z */
    private static final long DAY = 1_699_920_000_000L;

    @TempDir
    Path tmp;

    private final FixedBackend backend = new FixedBackend();
    private GfxStatsServer server;
    private String socket;

    @BeforeEach
    void start() throws Exception {
        server = new GfxStatsServer(ServerConfig.unixOnly(tmp.resolve("d.sock")), backend);
        server.start();
        socket = server.socketPath().toString();
        backend.pullResponse = PullResponse.newBuilder()
                .setDayStart(DAY)
                .setStats(GraphicsStatsServiceDumpProto.newBuilder()
                        .addStats(SampleProtos.entry("com.example.zeta", 2, 10_002, DAY + 3_600_000L,
                                DAY + 7_200_000L, 32, 20))
                        .addStats(SampleProtos.entry("com.example.alpha", 41, 10_001, DAY + 60_000L,
                                DAY + 120_500L, 1000, 12)))
                .build();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void shouldPrintOneTableLinePerEntrySortedByPackage() {
        CliRun run = CliRun.main("pull", "--socket", socket);

        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertEquals("day 2023-11-14 (UTC): 2 entries", lines.get(0));
        assertTrue(lines.get(1).matches("PACKAGE +VERSION +UID +START \\(UTC\\) +END \\(UTC\\) +FRAMES +JANKY +JANKY% +VSYNC"
                + " +INPUT +SLOW_UI +BITMAP +DRAW +DEADLINE +P50 +P90 +P95 +P99"), lines.get(1));
        assertEquals(List.of("com.example.alpha", "41", "10001", "2023-11-14", "00:01:00", "2023-11-14", "00:02:00",
                "1000", "100", "10.00", "10", "10", "10", "10", "10", "10", "12ms", "12ms", "12ms", "12ms"),
                List.of(lines.get(2).split(" +")));
        assertEquals(List.of("com.example.zeta", "2", "10002", "2023-11-14", "01:00:00", "2023-11-14", "02:00:00",
                "32", "3", "9.38", "0", "0", "0", "0", "0", "0", "20ms", "20ms", "20ms", "20ms"),
                List.of(lines.get(3).split(" +")));
        assertEquals(4, lines.size());
    }

    @Test
    void shouldAlignTheColumns() {
        List<String> lines = CliRun.main("pull", "--socket", socket).out().lines().toList();

        int framesEnd = lines.get(1).indexOf("FRAMES") + "FRAMES".length();
        assertEquals(' ', lines.get(2).charAt(framesEnd));
        assertTrue(Character.isDigit(lines.get(2).charAt(framesEnd - 1)), lines.get(2));
        assertTrue(Character.isDigit(lines.get(3).charAt(framesEnd - 1)), lines.get(3));
    }

    @Test
    void shouldSayWhenTheDayHasNoEntries() {
        backend.pullResponse = PullResponse.newBuilder().setDayStart(DAY).build();

        CliRun run = CliRun.main("pull", "--socket", socket);

        assertEquals(0, run.exit());
        assertEquals("day 2023-11-14 (UTC): 0 entries\n", run.out());
    }

    @Test
    void shouldFallBackToTheFlatEntriesWhenTheDaemonSendsNoProtos() {
        backend.pullResponse = PullResponse.newBuilder().setDayStart(DAY)
                .addEntries(PulledEntry.newBuilder().setPackageName("com.example.flat").setVersionCode(5).setUid(7)
                        .setTotalFrames(10).setSlowUiThreadCount(2)
                        .addAllCpuBucketMillis(List.of(5, 6, 7)).addAllCpuBucketCounts(List.of(5L, 4L, 1L)))
                .build();

        List<String> lines = CliRun.main("pull", "--socket", socket).out().lines().toList();

        assertEquals(List.of("com.example.flat", "5", "7", "-", "-", "10", "-", "-", "0", "0", "2", "0", "0", "0",
                "6ms", "7ms", "7ms", "7ms"), List.of(lines.get(2).split(" +")));
    }

    @Test
    void shouldWriteTheStatsProtoBytesWithProto() throws Exception {
        CliRun run = CliRun.main("pull", "--socket", socket, "--proto");

        assertEquals(0, run.exit(), run.stderr());
        assertArrayEquals(backend.pullResponse.getStats().toByteArray(), run.stdout());
        assertEquals(backend.pullResponse.getStats(), GraphicsStatsServiceDumpProto.parseFrom(run.stdout()));
    }

    @Test
    void shouldWriteJsonThatParsesBackToTheSameAnswer() throws Exception {
        CliRun run = CliRun.main("pull", "--socket", socket, "--json");

        assertEquals(0, run.exit(), run.stderr());
        PullResponse.Builder parsed = PullResponse.newBuilder();
        JsonFormat.parser().merge(new String(run.stdout(), StandardCharsets.UTF_8), parsed);
        assertEquals(backend.pullResponse, parsed.build());
        assertTrue(run.out().contains("\"packageName\": \"com.example.alpha\""), run.out());
        assertTrue(run.out().endsWith("}\n"));
    }

    @Test
    void shouldAskForTheLastFullDayOnlyWhenTold() throws Exception {
        assertEquals(0, CliRun.main("pull", "--socket", socket).exit());
        assertFalse(backend.pulls.take().getLastFullDay());

        assertEquals(0, CliRun.main("pull", "--socket", socket, "--last-full-day").exit());
        assertTrue(backend.pulls.take().getLastFullDay());
    }

    @Test
    void shouldRefuseProtoWithJson() {
        CliRun run = CliRun.main("pull", "--socket", socket, "--proto", "--json");

        assertEquals(2, run.exit());
        assertEquals("gfxstats pull: options --proto and --json cannot be combined", run.onlyErrorLine());
        assertTrue(backend.pulls.isEmpty());
    }

    @Test
    void shouldSayInOneLineThatTheDaemonIsNotRunning() {
        Path absent = tmp.resolve("none.sock");

        CliRun run = CliRun.main("pull", "--socket", absent.toString());

        assertEquals(2, run.exit());
        assertEquals("gfxstats pull: gfxstats daemon not running (no socket at " + absent + ")", run.onlyErrorLine());
    }

    @Test
    void shouldPassTheDaemonsRefusalOnInOneLine() {
        backend.refusal = StatsException.unavailable("storage is read-only", null);

        CliRun run = CliRun.main("pull", "--socket", socket);

        assertEquals(2, run.exit());
        assertEquals("gfxstats pull: gfxstats daemon at unix:" + socket + " unavailable: storage is read-only",
                run.onlyErrorLine());
    }
}
