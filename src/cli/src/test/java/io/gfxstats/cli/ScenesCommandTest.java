package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import io.gfxstats.proto.GfxstatsSceneStats;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gfxstats scenes} against a real server on a real Unix socket. */
class ScenesCommandTest {
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
        backend.scenesResponse = ScenesResponse.newBuilder()
                .addEntries(SceneEntry.newBuilder().setDayStart(DAY).setPackageName("com.example.game").setVersionCode(3)
                        .setMatrixFps(47.25)
                        .setStats(GfxstatsSceneStats.newBuilder().setScene("level-1").setTotalFrames(400)
                                .setJankyFrames(10).setMatrixFrames(400)
                                .addAllLevelCounts(List.of(380L, 15L, 4L, 1L, 0L))
                                .addAllLevelSums(List.of(20L, 60L, 50L, 30L, 0L))))
                .build();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void shouldPrintOneRowPerSceneWithJankMatrixFpsLevelsAndDroppedFrames() throws Exception {
        CliRun run = CliRun.main("scenes", "--socket", socket, "--package", "com.example.game", "--day", "2023-11-14");

        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertEquals(List.of("DAY", "PACKAGE", "VERSION", "SCENE", "FRAMES", "JANKY%", "MFPS", "BEST", "NORMAL", "MIDDLE",
                "HIGH", "FROZEN", "DROPPED"), List.of(lines.get(0).split(" +")));
        assertEquals(List.of("2023-11-14", "com.example.game", "3", "level-1", "400", "2.50", "47.3", "380", "15", "4",
                "1", "0", "160"), List.of(lines.get(1).split(" +")));
        ScenesRequest request = backend.sceneRequests.take();
        assertEquals("com.example.game", request.getPackageName());
        assertEquals(DAY, request.getDayStart());
    }

    @Test
    void shouldEscapeControlCharactersOfClientSceneNamesInTheTableAndKeepThemInTheJson() throws Exception {
        String hostile = "\u001b[31mRED \u001b[0m \u001b]0;owned-title\u0007 \u001b[2J";
        String forged = "x\n2026-11-26T00:00:00.000Z [ERROR] Daemon - fake log line";
        backend.scenesResponse = ScenesResponse.newBuilder()
                .addEntries(entry(hostile)).addEntries(entry(forged)).build();

        CliRun table = CliRun.main("scenes", "--socket", socket);
        assertEquals(0, table.exit(), table.stderr());
        assertFalse(table.out().contains("\u001b") || table.out().contains("\u0007"), table.out());
        assertEquals(3, table.out().lines().count(), "one line per scene, no forged line: " + table.out());
        assertTrue(table.out().contains("\\e[31mRED \\e[0m \\e]0;owned-title\\x07 \\e[2J"), table.out());
        assertTrue(table.out().contains("x\\n2026-11-26T00:00:00.000Z [ERROR] Daemon - fake log line"), table.out());

        CliRun json = CliRun.main("scenes", "--socket", socket, "--json");
        assertEquals(0, json.exit(), json.stderr());
        ScenesResponse.Builder back = ScenesResponse.newBuilder();
        com.google.protobuf.util.JsonFormat.parser().merge(json.out(), back);
        assertEquals(hostile, back.getEntries(0).getStats().getScene(), "JSON keeps the name exactly");
        assertEquals(forged, back.getEntries(1).getStats().getScene());
    }

    private static SceneEntry entry(String scene) {
        return SceneEntry.newBuilder().setDayStart(DAY).setPackageName("com.example.game").setVersionCode(3)
                .setStats(GfxstatsSceneStats.newBuilder().setScene(scene).setTotalFrames(1)).build();
    }

    @Test
    void shouldPrintTheWholeAnswerAsJson() throws Exception {
        CliRun run = CliRun.main("scenes", "--socket", socket, "--json");

        assertEquals(0, run.exit(), run.stderr());
        ScenesResponse.Builder parsed = ScenesResponse.newBuilder();
        JsonFormat.parser().merge(run.out(), parsed);
        assertEquals(backend.scenesResponse, parsed.build());
        assertEquals(0, backend.sceneRequests.take().getDayStart(), "every retained day by default");
    }

    @Test
    void shouldRejectABadDayAndSayWhenThereAreNoScenes() {
        CliRun bad = CliRun.main("scenes", "--socket", socket, "--day", "yesterday");
        assertEquals(2, bad.exit());
        assertTrue(bad.stderr().contains("--day must be a date like"), bad.stderr());

        backend.scenesResponse = ScenesResponse.getDefaultInstance();
        CliRun none = CliRun.main("scenes", "--socket", socket, "--package", "p");
        assertEquals(0, none.exit());
        assertTrue(none.stderr().contains("no scenes recorded for p"), none.stderr());
    }
}
