package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.ClientOptions;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;

import io.gfxstats.dumpclient.DumpQuery;
import io.gfxstats.dumpclient.UnixDumpClient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dump.DumpFormat;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.GfxStatsGrpc;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dump path's small client against the real gRPC server, side by side with grpc-java's
 * client: same bytes, same request, same one-line errors.
 */
@Timeout(120)
class UnixDumpClientTest {
    @TempDir
    Path tmp;

    private Path socket;
    private TestBackend backend;
    private GfxStatsServer server;
    private GfxStatsClient reference;

    @BeforeEach
    void setUp() throws Exception {
        socket = tmp.resolve("d.sock");
        backend = new TestBackend();
        server = new GfxStatsServer(ServerConfig.unixOnly(socket), backend);
        server.start();
        reference = GfxStatsClient.unix(socket, ClientOptions.DEFAULTS.withDumpDeadline(Duration.ofMillis(800)));
    }

    @AfterEach
    void tearDown() throws Exception {
        backend.unblock();
        reference.close();
        server.stop();
    }

    private UnixDumpClient lean(Path at) {
        return new UnixDumpClient(at, Duration.ofMillis(800));
    }

    private static DumpRequest request(DumpQuery q) throws Exception {
        return DumpRequest.parseFrom(q.encode());
    }

    @Test
    void shouldStreamTheSameBytesAsTheGrpcJavaClient() throws Exception {
        // 5 MiB is five times the client's receive window: it only arrives if the windows are reopened.
        for (long size : new long[] {0, 1, 70_000, 5L << 20}) {
            backend.dumpSize = size;
            ByteArrayOutputStream ours = new ByteArrayOutputStream();
            long written = new UnixDumpClient(socket, Duration.ofSeconds(30)).dump(DumpQuery.all(), ours);
            byte[] theirs = reference.dumpBytes(DumpRequest.getDefaultInstance());
            assertEquals(size, written);
            assertEquals(size, theirs.length);
            assertArrayEquals(theirs, ours.toByteArray(), "dump of " + size + " bytes");
            for (int i = 0; i < theirs.length; i += 4093) {
                assertEquals(TestBackend.patternAt(i), theirs[i]);
            }
        }
    }

    @Test
    void shouldEncodeQueriesExactlyAsTheGeneratedMessage() throws Exception {
        List<DumpQuery> queries = new ArrayList<>();
        for (boolean proto : new boolean[] {false, true}) {
            for (String name : new String[] {"", "com.example.app", "p".repeat(300), "caf\u00e9"}) {
                queries.add(new DumpQuery(proto, name, null));
                queries.add(new DumpQuery(proto, name, null, true));
                for (DumpFormat f : DumpFormat.values()) {
                    queries.add(new DumpQuery(proto, name, f));
                }
            }
        }
        for (DumpQuery q : queries) {
            DumpRequest.Builder expected = DumpRequest.newBuilder().setProto(q.proto()).setPackageName(q.packageName())
                    .setFrametimeline(q.frametimeline());
            if (q.format() != null) {
                expected.setFormat(io.gfxstats.rpc.v1.DumpFormat.valueOf(q.format().name()));
            }
            assertArrayEquals(expected.build().toByteArray(), q.encode(), q.toString());
            assertEquals(expected.build(), request(q));
        }
        assertEquals(GfxStatsGrpc.getDumpMethod().getFullMethodName(), UnixDumpClient.DUMP_METHOD.substring(1));
    }

    @Test
    void shouldExplainRefusalsInTheSameWordsAsTheGrpcJavaClient() throws Exception {
        List<String> names = new ArrayList<>();
        for (StatsException.Kind kind : StatsException.Kind.values()) {
            names.add("refuse:" + kind.name());
        }
        names.add("crash");
        names.add("block");
        for (String name : names) {
            GfxStatsClientException ours = assertThrows(GfxStatsClientException.class,
                    () -> lean(socket).dump(new DumpQuery(false, name, null), OutputStream.nullOutputStream()));
            GfxStatsClientException theirs = assertThrows(GfxStatsClientException.class,
                    () -> reference.dump(DumpRequest.newBuilder().setPackageName(name).build(), OutputStream.nullOutputStream()));
            assertEquals(theirs.getMessage(), ours.getMessage(), name);
            assertEquals(theirs.code(), ours.code(), name);
            assertEquals(theirs.daemonNotRunning(), ours.daemonNotRunning(), name);
        }
    }

    @Test
    void shouldSayTheDaemonIsNotRunningAsTheGrpcJavaClientDoes() throws Exception {
        Path absent = tmp.resolve("absent.sock");
        Path stale = tmp.resolve("stale.sock");
        // A socket file nobody listens on any more: connecting is refused.
        try (ServerSocketChannel left = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            left.bind(UnixDomainSocketAddress.of(stale));
        }
        assertTrue(Files.exists(stale));
        for (Path path : List.of(absent, stale)) {
            GfxStatsClientException ours = assertThrows(GfxStatsClientException.class,
                    () -> lean(path).dump(DumpQuery.all(), OutputStream.nullOutputStream()));
            GfxStatsClientException theirs;
            try (GfxStatsClient other = GfxStatsClient.unix(path)) {
                theirs = assertThrows(GfxStatsClientException.class,
                        () -> other.dump(DumpRequest.getDefaultInstance(), OutputStream.nullOutputStream()));
            }
            assertEquals(theirs.getMessage(), ours.getMessage(), path.toString());
            assertTrue(ours.daemonNotRunning(), ours.getMessage());
        }
    }

    @Test
    void shouldCancelTheDumpWhenTheOutputFails() throws Exception {
        backend.dumpSize = 64L << 20;
        IOException failure = new IOException("reader went away");
        OutputStream failing = new OutputStream() {
            long seen;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                seen += len;
                if (seen > 200_000) {
                    throw failure;
                }
            }
        };
        IOException thrown = assertThrows(IOException.class,
                () -> new UnixDumpClient(socket, Duration.ofSeconds(30)).dump(DumpQuery.all(), failing));
        assertEquals(failure, thrown);
        // The daemon's side of the stream fails instead of writing all 64 MiB.
        IOException serverSide = backend.dumpFailures.poll(30, TimeUnit.SECONDS);
        assertTrue(serverSide != null, "the backend kept writing after the client left");
        assertTrue(backend.dumpBytesWritten.get() < backend.dumpSize);
    }

    @Test
    void shouldRefuseAPackageNameTooLongForOneRequestFrame() {
        GfxStatsClientException e = assertThrows(GfxStatsClientException.class, () -> lean(socket)
                .dump(new DumpQuery(false, "p".repeat(20_000), null), OutputStream.nullOutputStream()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.code());
    }
}
