package io.gfxstats.daemon.rpc;

import java.time.Duration;

import io.gfxstats.rpc.ClientOptions;

import io.gfxstats.rpc.DisplayFrameFeed;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.GfxStatsGrpc;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TCP listener over real loopback sockets, TLS with a throwaway self-signed certificate. */
class TcpTransportTest {
    private static final String TOKEN = "s3cret-token-0123456789abcdef";

    @TempDir
    static Path certs;

    @TempDir
    Path tmp;

    private static Path cert;
    private static Path key;
    private static Path tokenFile;
    private GfxStatsServer server;
    private final TestBackend backend = new TestBackend();

    @BeforeAll
    static void makeCertificate() throws Exception {
        cert = certs.resolve("cert.pem");
        key = certs.resolve("key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString())
                .redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes());
        assertTrue(openssl.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, openssl.exitValue(), "openssl failed: " + output);
        tokenFile = certs.resolve("token");
        Files.writeString(tokenFile, TOKEN + "\n");
        Files.setPosixFilePermissions(tokenFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    private GfxStatsServer start(TcpConfig tcp) throws ServerStartException {
        server = new GfxStatsServer(ServerConfig.unixOnly(tmp.resolve("d.sock")).withTcp(tcp), backend);
        server.start();
        return server;
    }

    private GfxStatsServer startTlsWithToken() throws ServerStartException {
        return start(TcpConfig.loopback(0).withTls(cert, key).withTokenFile(tokenFile));
    }

    private GfxStatsClient tlsClient(String token) {
        return GfxStatsClient.tcp("127.0.0.1", server.tcpPort(), cert, token,
                ClientOptions.DEFAULTS.withHealthDeadline(Duration.ofSeconds(60)));
    }

    @Test
    void shouldRefuseACallWithoutTheToken() throws Exception {
        startTlsWithToken();
        try (GfxStatsClient client = tlsClient(null)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, client::health);
            assertEquals(Status.Code.UNAUTHENTICATED, e.code());
            assertTrue(e.getMessage().contains("bearer token required"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseACallWithAWrongToken() throws Exception {
        startTlsWithToken();
        try (GfxStatsClient client = tlsClient("not-the-token-0123456789abcdef")) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.dumpBytes(DumpRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAUTHENTICATED, e.code());
            assertTrue(e.getMessage().contains("invalid bearer token"), e.getMessage());
        }
        assertTrue(backend.dumpCallers.isEmpty(), "the backend must not run for an unauthenticated call");
    }

    @Test
    void shouldServeReadOnlyCallsOverTlsWithTheToken() throws Exception {
        startTlsWithToken();
        backend.dumpSize = 200_000;
        try (GfxStatsClient client = tlsClient(TOKEN)) {
            assertEquals("test", client.health().getVersion());
            assertEquals(172_800_000L, client.pull(PullRequest.getDefaultInstance()).getDayStart());
            byte[] dump = client.dumpBytes(DumpRequest.getDefaultInstance());
            assertEquals(200_000, dump.length);
            for (int i = 0; i < dump.length; i++) {
                assertEquals(TestBackend.patternAt(i), dump[i]);
            }
        }
        Caller caller = backend.dumpCallers.take();
        assertEquals(Transport.TCP, caller.transport());
        assertEquals(null, caller.peer());
    }

    @Test
    void shouldServeScenesAndALiveWatchOverTcpAndRefuseTooShortIntervals() throws Exception {
        startTlsWithToken();
        try (GfxStatsClient client = tlsClient(TOKEN)) {
            assertEquals("menu", client.scenes(io.gfxstats.rpc.v1.ScenesRequest.newBuilder().setPackageName("p").build())
                    .getEntries(0).getStats().getScene());
            List<Long> frames = new java.util.ArrayList<>();
            client.watch(io.gfxstats.rpc.v1.WatchRequest.newBuilder().setIntervalMs(200).setPackageName("p").build(),
                    java.time.Duration.ofSeconds(10), s -> {
                        frames.add(s.getPackages(0).getTotalFrames());
                        return frames.size() < 2;
                    });
            assertEquals(List.of(1L, 2L), frames);
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, () -> client.watch(
                    io.gfxstats.rpc.v1.WatchRequest.newBuilder().setIntervalMs(199).build(), null, s -> true));
            assertTrue(e.getMessage().contains("watch interval must be 200.."), e.getMessage());
        }
        long served = backend.liveSnapshots.get();
        // A second watch of six snapshots spans five intervals of the first: had the first gone on
        // after its client left, it would have taken four or more snapshots of its own meanwhile. The
        // second may take one more than it delivers before it sees its own client leave.
        try (GfxStatsClient client = tlsClient(TOKEN)) {
            int[] seen = {0};
            client.watch(io.gfxstats.rpc.v1.WatchRequest.newBuilder().setIntervalMs(200).setPackageName("p").build(),
                    java.time.Duration.ofSeconds(20), s -> ++seen[0] < 6);
            assertEquals(6, seen[0]);
        }
        long taken = backend.liveSnapshots.get() - served;
        assertTrue(taken == 6 || taken == 7, "a watch the client left stops at once: " + taken + " snapshots");
    }

    @Test
    void shouldRefuseRegistrationOverTcp() throws Exception {
        startTlsWithToken();
        try (GfxStatsClient client = tlsClient(TOKEN)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.register(RegisterRequest.newBuilder().setPackageName("com.example.a").build()));
            assertEquals(Status.Code.PERMISSION_DENIED, e.code());
            assertTrue(e.getMessage().contains("registration is Unix-socket only"), e.getMessage());
        }
        assertTrue(backend.registered.isEmpty());
    }

    @Test
    void shouldRefuseACompositorFeedOverTcp() throws Exception {
        startTlsWithToken();
        try (GfxStatsClient client = tlsClient(TOKEN);
             DisplayFrameFeed feed = client.feedDisplayFrames(1)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, () -> {
                feed.send(io.gfxstats.rpc.v1.CompositorDisplayFrame.newBuilder().setOutput(1).setMsc(1)
                        .setRefreshPeriod(16_666_667).build());
                feed.finish(java.time.Duration.ofSeconds(10));
            });
            assertEquals(Status.Code.PERMISSION_DENIED, e.code());
            assertTrue(e.getMessage().contains("FeedDisplayFrames is not available over TCP"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseAPlaintextClientOnTheTlsListener() throws Exception {
        startTlsWithToken();
        // The refusal is what is checked, not its speed: a deadline a loaded machine cannot miss.
        try (GfxStatsClient client = GfxStatsClient.tcp("127.0.0.1", server.tcpPort(), null, TOKEN,
                ClientOptions.DEFAULTS.withHealthDeadline(Duration.ofSeconds(60)))) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, client::health);
            assertEquals("gfxstats daemon at 127.0.0.1:" + server.tcpPort() + " speaks TLS, this client plaintext "
                    + "(give the client the daemon's certificate)", e.getMessage());
        }
    }

    @Test
    void shouldSayWhenATlsClientMeetsAPlaintextListener() throws Exception {
        start(TcpConfig.loopback(0));
        try (GfxStatsClient client = tlsClient(null)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, client::health);
            assertEquals(Status.Code.UNAVAILABLE, e.code());
            assertEquals("gfxstats daemon at 127.0.0.1:" + server.tcpPort() + " speaks plaintext, this client TLS "
                    + "(the daemon has no tcp.tls.cert; connect without a certificate)", e.getMessage());
        }
    }

    @Test
    void shouldServeLoopbackPlaintextWithoutTokenWhenNoneIsConfigured() throws Exception {
        start(TcpConfig.loopback(0));
        try (GfxStatsClient client = GfxStatsClient.tcp("localhost", server.tcpPort(), null, null)) {
            assertEquals("test", client.health().getVersion());
        }
    }

    @Test
    void shouldRequireTheTokenOnLoopbackPlaintextWhenOneIsConfigured() throws Exception {
        start(TcpConfig.loopback(0).withTokenFile(tokenFile));
        try (GfxStatsClient without = GfxStatsClient.tcp("127.0.0.1", server.tcpPort(), null, null);
                GfxStatsClient with = GfxStatsClient.tcp("127.0.0.1", server.tcpPort(), null, TOKEN)) {
            assertEquals(Status.Code.UNAUTHENTICATED, assertThrows(GfxStatsClientException.class, without::health).code());
            assertEquals("test", with.health().getVersion());
        }
    }

    @Test
    void shouldRefuseANonLoopbackBindWithoutTlsAtStartup() throws IOException {
        TcpConfig wildcard = new TcpConfig(true, "0.0.0.0", 0, null, null, tokenFile);

        ServerStartException e = assertThrows(ServerStartException.class, () -> start(wildcard));

        assertEquals("tcp host 0.0.0.0 is not a loopback address: listening there requires TLS (certificate and key"
                + " files) and a token file; missing TLS", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("d.sock")), "nothing may be created when the config is refused");
    }

    @Test
    void shouldRefuseANonLoopbackBindWithoutATokenAtStartup() {
        TcpConfig wildcard = new TcpConfig(true, "0.0.0.0", 0, cert, key, null);

        ServerStartException e = assertThrows(ServerStartException.class, () -> start(wildcard));

        assertTrue(e.getMessage().endsWith("missing the token file"), e.getMessage());
    }

    @Test
    void shouldServeANonLoopbackBindWithTlsAndToken() throws Exception {
        start(new TcpConfig(true, "0.0.0.0", 0, cert, key, tokenFile));
        try (GfxStatsClient client = tlsClient(TOKEN)) {
            assertEquals("test", client.health().getVersion());
        }
    }

    @Test
    void shouldRefuseUnreadableTlsFilesWithAClearError() throws Exception {
        Path garbage = tmp.resolve("garbage.pem");
        Files.writeString(garbage, "not a certificate");

        ServerStartException e = assertThrows(ServerStartException.class,
                () -> start(TcpConfig.loopback(0).withTls(garbage, key)));
        assertTrue(e.getMessage().startsWith("cannot load TLS certificate " + garbage), e.getMessage());

        ServerStartException missing = assertThrows(ServerStartException.class,
                () -> start(TcpConfig.loopback(0).withTls(cert, tmp.resolve("nokey.pem"))));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }

    @Test
    void shouldRefuseATooShortTokenFile() throws Exception {
        Path shortToken = tmp.resolve("short");
        Files.writeString(shortToken, "abc\n");
        Files.setPosixFilePermissions(shortToken, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

        ServerStartException e = assertThrows(ServerStartException.class,
                () -> start(TcpConfig.loopback(0).withTokenFile(shortToken)));

        assertTrue(e.getMessage().contains("at least 16 characters"), e.getMessage());
    }

    @Test
    void shouldNotSendATokenInPlaintextToAnotherHost() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GfxStatsClient.tcp("192.0.2.10", 7445, null, TOKEN));
        assertTrue(e.getMessage().contains("refusing to send the token in plaintext"), e.getMessage());
    }

    @Test
    void shouldSayWhenNoDaemonListensOnTheTcpPort() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (GfxStatsClient client = GfxStatsClient.tcp("127.0.0.1", port, null, null)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, client::health);
            assertEquals("gfxstats daemon at 127.0.0.1:" + port + " not reachable (connection refused)", e.getMessage());
            assertTrue(e.daemonNotRunning());
        }
    }

    @Test
    void shouldClassifyEveryServiceMethodForTcp() {
        List<String> methods = GfxStatsGrpc.getServiceDescriptor().getMethods().stream()
                .map(MethodDescriptor::getFullMethodName).toList();
        for (String m : methods) {
            boolean unixOnly = m.equals(GfxStatsGrpc.getRegisterMethod().getFullMethodName())
                    || m.equals(GfxStatsGrpc.getFeedDisplayFramesMethod().getFullMethodName());
            assertTrue(unixOnly ^ TcpCallerInterceptor.READ_ONLY_METHODS.contains(m),
                    m + " must be either Unix only (registration, compositor feed) or listed as read-only for TCP");
        }
    }
}
