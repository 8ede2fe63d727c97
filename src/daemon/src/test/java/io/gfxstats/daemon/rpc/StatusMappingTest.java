package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Backend refusals reach the client as the matching status code with the backend's sentence. */
class StatusMappingTest {
    @TempDir
    static Path tmp;

    private static TestBackend backend;
    private static GfxStatsServer server;
    private static GfxStatsClient client;

    @BeforeAll
    static void start() throws Exception {
        backend = new TestBackend();
        server = new GfxStatsServer(ServerConfig.unixOnly(tmp.resolve("d.sock")), backend);
        server.start();
        client = GfxStatsClient.unix(tmp.resolve("d.sock"));
    }

    @AfterAll
    static void stop() {
        client.close();
        server.stop();
    }

    private static String expectedText(StatsException.Kind kind) {
        return "refused as asked: " + kind.name().toLowerCase(Locale.ROOT);
    }

    @ParameterizedTest
    @EnumSource(StatsException.Kind.class)
    void shouldReportARefusedRegistrationWithItsStatusCode(StatsException.Kind kind) throws Exception {
        GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                () -> client.register(RegisterRequest.newBuilder().setPackageName("refuse:" + kind).build()));

        assertEquals(kind.statusCode(), e.code());
        assertTrue(e.getMessage().contains(expectedText(kind)), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertTrue(backend.ended.poll(200, TimeUnit.MILLISECONDS) == null, "a refused registration has nothing to end");
    }

    @ParameterizedTest
    @EnumSource(StatsException.Kind.class)
    void shouldReportARefusedDumpWithItsStatusCode(StatsException.Kind kind) {
        GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                () -> client.dumpBytes(DumpRequest.newBuilder().setPackageName("refuse:" + kind).build()));

        assertEquals(kind.statusCode(), e.code());
        assertTrue(e.getMessage().contains(expectedText(kind)), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(StatsException.Kind.class)
    void shouldReportARefusedPullWithItsStatusCode(StatsException.Kind kind) {
        backend.pullRefusal = new StatsException(kind, expectedText(kind));
        try {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.pull(PullRequest.getDefaultInstance()));

            assertEquals(kind.statusCode(), e.code());
            assertTrue(e.getMessage().startsWith("gfxstats daemon at unix:" + tmp.resolve("d.sock")), e.getMessage());
            assertTrue(e.getMessage().contains(expectedText(kind)), e.getMessage());
        } finally {
            backend.pullRefusal = null;
        }
    }

    @Test
    void shouldMapEveryKindToADistinctStatusCode() {
        assertEquals(Status.Code.INVALID_ARGUMENT, StatsException.invalidArgument("x").toStatus().getCode());
        assertEquals(Status.Code.PERMISSION_DENIED, StatsException.permissionDenied("x").toStatus().getCode());
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, StatsException.resourceExhausted("x").toStatus().getCode());
        assertEquals(Status.Code.UNAVAILABLE, StatsException.unavailable("x", null).toStatus().getCode());
        assertEquals(Status.Code.NOT_FOUND, StatsException.notFound("x").toStatus().getCode());
        assertEquals(StatsException.Kind.values().length,
                java.util.Arrays.stream(StatsException.Kind.values()).map(StatsException.Kind::statusCode).distinct()
                        .count());
    }

    @Test
    void shouldReportAnUnexpectedBackendFailureAsInternalWithoutAStackTrace() {
        GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                () -> client.register(RegisterRequest.newBuilder().setPackageName("crash").build()));

        assertEquals(Status.Code.INTERNAL, e.code());
        assertTrue(e.getMessage().contains("registration failed: backend bug"), e.getMessage());

        GfxStatsClientException d = assertThrows(GfxStatsClientException.class,
                () -> client.dumpBytes(DumpRequest.newBuilder().setPackageName("crash").build()));
        assertEquals(Status.Code.INTERNAL, d.code());
        assertTrue(d.getMessage().contains("dump failed: backend bug"), d.getMessage());
    }

    @Test
    void shouldKeepServingAfterRefusals() throws Exception {
        assertEquals("test", client.health().getVersion());
        assertEquals(172_800_000L, client.pull(PullRequest.getDefaultInstance()).getDayStart());
        assertEquals(86_400_000L, client.pull(PullRequest.newBuilder().setLastFullDay(true).build()).getDayStart());
    }
}
