package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.ClientOptions;
import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.Status;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnixSocketTransportTest {
    @TempDir
    Path tmp;

    private Path socket;
    private TestBackend backend;
    private GfxStatsServer server;
    private final Children children = new Children();

    @BeforeEach
    void setUp() {
        socket = tmp.resolve("run").resolve("d.sock");
        backend = new TestBackend();
    }

    @AfterEach
    void tearDown() throws Exception {
        children.close();
        if (server != null) {
            server.stop();
        }
    }

    private GfxStatsServer startServer() throws ServerStartException {
        server = new GfxStatsServer(ServerConfig.unixOnly(socket), backend);
        server.start();
        return server;
    }

    @Test
    void shouldIdentifyClientProcessByItsPidAndUidFromTheSocket() throws Exception {
        startServer();
        Process child = children.start(RegisteringClientMain.class, socket.toString());
        String line = Children.awaitLine(child, "assigned ", 30);

        TestBackend.Registered reg = backend.registered.poll(5, TimeUnit.SECONDS);
        assertNotNull(reg);
        assertEquals("assigned " + reg.registrationId(), line);
        assertEquals(child.pid(), reg.peer().pid(), "pid must be the child's, from SO_PEERCRED");
        assertEquals(UnixSocketFile.currentUid(), reg.peer().uid());
        assertNotEquals(ProcessHandle.current().pid(), reg.peer().pid());
    }

    @Test
    void shouldEndRegistrationWithinASecondWhenClientIsKilled() throws Exception {
        startServer();
        Process child = children.start(RegisteringClientMain.class, socket.toString());
        Children.awaitLine(child, "assigned ", 30);
        TestBackend.Registered reg = backend.registered.poll(5, TimeUnit.SECONDS);
        assertNotNull(reg);
        assertNull(backend.ended.poll(200, TimeUnit.MILLISECONDS), "registration must stay open while the client lives");

        long killedAt = System.nanoTime();
        child.destroyForcibly();
        TestBackend.Ended end = backend.ended.poll(1500, TimeUnit.MILLISECONDS);

        assertNotNull(end, "the daemon must notice a SIGKILLed client within about a second");
        System.out.printf("registration end noticed %.1f ms after SIGKILL%n", (end.atNanos() - killedAt) / 1e6);
        assertEquals(reg.registrationId(), end.registrationId());
        assertEquals(EndReason.CLIENT_GONE, end.reason());
        assertEquals(child.pid(), end.peer().pid());
        assertNull(backend.ended.poll(300, TimeUnit.MILLISECONDS), "end must be reported exactly once");
    }

    @Test
    void shouldEndRegistrationExactlyOnceWhenClientClosesIt() throws Exception {
        startServer();
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            ClientRegistration reg = client.register(RegisterRequest.newBuilder().setPackageName("com.example.a").build());
            assertEquals(ProcessHandle.current().pid(), backend.registered.take().peer().pid());
            assertEquals(1, client.health().getLiveBuffers());

            reg.close();

            TestBackend.Ended end = backend.ended.poll(5, TimeUnit.SECONDS);
            assertNotNull(end);
            assertEquals(EndReason.CLIENT_GONE, end.reason());
            assertEquals(Status.Code.CANCELLED, reg.ended().get(5, TimeUnit.SECONDS).getCode());
            assertNull(backend.ended.poll(300, TimeUnit.MILLISECONDS));
            assertEquals(0, server.service().liveRegistrations());
        }
    }

    @Test
    void shouldEndARegistrationWhoseClientLeftWhileTheBackendWasStillDeciding() throws Exception {
        startServer();
        ClientOptions impatient = ClientOptions.DEFAULTS.withRegisterTimeout(Duration.ofMillis(300));
        try (GfxStatsClient client = GfxStatsClient.unix(socket, impatient)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.register(RegisterRequest.newBuilder().setPackageName("block").build()));
            assertEquals(Status.Code.DEADLINE_EXCEEDED, e.code());
            assertTrue(backend.registerBlocked.await(5, TimeUnit.SECONDS));

            backend.unblock();

            TestBackend.Ended end = backend.ended.poll(5, TimeUnit.SECONDS);
            assertNotNull(end, "the backend accepted after the client left: it must still learn the end");
            assertEquals(EndReason.CLIENT_GONE, end.reason());
            assertNull(backend.ended.poll(300, TimeUnit.MILLISECONDS));
            assertEquals(0, server.service().liveRegistrations());
        }
    }

    @Test
    void shouldKeepSeveralRegistrationsOfOneProcessApart() throws Exception {
        startServer();
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            ClientRegistration a = client.register(RegisterRequest.newBuilder().setPackageName("com.example.a").build());
            ClientRegistration b = client.register(RegisterRequest.newBuilder().setPackageName("com.example.b").build());
            assertNotEquals(a.assigned().getRegistrationId(), b.assigned().getRegistrationId());
            assertEquals(2, server.service().liveRegistrations());

            a.close();

            assertEquals(a.assigned().getRegistrationId(), backend.ended.poll(5, TimeUnit.SECONDS).registrationId());
            assertTrue(b.isOpen());
            assertEquals(1, client.health().getLiveBuffers());
        }
        assertEquals(EndReason.CLIENT_GONE, backend.ended.poll(5, TimeUnit.SECONDS).reason(),
                "closing the client ends its remaining registration");
    }

    @Test
    void shouldEndOpenRegistrationsAsServerStoppingAndTellClientsToComeBack() throws Exception {
        startServer();
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            ClientRegistration reg = client.register(RegisterRequest.newBuilder().setPackageName("com.example.a").build());

            server.stop();

            TestBackend.Ended end = backend.ended.poll(5, TimeUnit.SECONDS);
            assertNotNull(end);
            assertEquals(EndReason.SERVER_STOPPING, end.reason());
            Status status = reg.ended().get(5, TimeUnit.SECONDS);
            assertEquals(Status.Code.UNAVAILABLE, status.getCode());
            assertNull(backend.ended.poll(300, TimeUnit.MILLISECONDS), "end must be reported exactly once");
        }
    }

    @Test
    void shouldCreateSocketWithMode0660InsideAPrivateDirectory() throws Exception {
        startServer();
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
    }

    @Test
    void shouldRemoveSocketFileOnStop() throws Exception {
        startServer();
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
        server.stop();
        assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldReplaceStaleSocketLeftByKilledDaemon() throws Exception {
        Process daemon = children.start(ServerMain.class, socket.toString());
        Children.awaitLine(daemon, "ready", 30);
        daemon.destroyForcibly();
        assertTrue(daemon.waitFor(10, TimeUnit.SECONDS));
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "a SIGKILLed daemon leaves its socket behind");

        startServer();

        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            assertEquals("test", client.health().getVersion());
        }
    }

    @Test
    void shouldRefuseToStartWhileAnotherDaemonListensOnTheSocket() throws Exception {
        startServer();
        GfxStatsServer second = new GfxStatsServer(ServerConfig.unixOnly(socket), new TestBackend());

        ServerStartException e = assertThrows(ServerStartException.class, second::start);

        assertEquals("another gfxstats daemon is already listening on " + socket, e.getMessage());
        second.stop();
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            assertEquals("test", client.health().getVersion(), "the first daemon must be unharmed");
        }
    }

    @Test
    void shouldRefuseASocketPathThatIsNotASocket() throws Exception {
        Files.createDirectories(socket.getParent());
        Files.writeString(socket, "precious");

        ServerStartException e = assertThrows(ServerStartException.class, this::startServer);

        assertTrue(e.getMessage().contains("exists and is not a socket"), e.getMessage());
        assertEquals("precious", Files.readString(socket));
    }

    @Test
    void shouldRefuseASocketDirectoryWritableByEveryone() throws Exception {
        Files.createDirectories(socket.getParent());
        Files.setPosixFilePermissions(socket.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));

        ServerStartException e = assertThrows(ServerStartException.class, this::startServer);

        assertTrue(e.getMessage().contains("writable by every user"), e.getMessage());
    }

    @Test
    void shouldRefuseASocketPathTooLongForUnixSockets() {
        socket = tmp.resolve("x".repeat(120)).resolve("d.sock");

        ServerStartException e = assertThrows(ServerStartException.class, this::startServer);

        assertTrue(e.getMessage().contains("Unix sockets allow at most 107"), e.getMessage());
        assertFalse(Files.exists(socket.getParent()));
    }

    @Test
    void shouldSayDaemonNotRunningWhenThereIsNoSocket() {
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, client::health);
            assertEquals("gfxstats daemon not running (no socket at " + socket + ")", e.getMessage());
            assertTrue(e.daemonNotRunning());
        }
    }

    @Test
    void shouldSayDaemonNotRunningWhenNothingListensOnTheSocket() throws Exception {
        Files.createDirectories(socket.getParent());
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));

        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class, client::health);
            assertEquals("gfxstats daemon not running (nothing listening on " + socket + ")", e.getMessage());
            assertTrue(e.daemonNotRunning());
        }
    }

    @Test
    void shouldFailRegistrationWithClearErrorWhenDaemonIsMissing() {
        ClientOptions quick = ClientOptions.DEFAULTS.withRegisterTimeout(Duration.ofSeconds(5));
        try (GfxStatsClient client = GfxStatsClient.unix(socket, quick)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.register(RegisterRequest.newBuilder().setPackageName("a.b").build()));
            assertTrue(e.daemonNotRunning(), e.getMessage());
        }
    }
}
