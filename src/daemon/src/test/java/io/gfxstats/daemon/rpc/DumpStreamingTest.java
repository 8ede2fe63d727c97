package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.ClientOptions;
import io.gfxstats.rpc.EpollGroups;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.rpc.v1.DumpChunk;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.GfxStatsGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpStreamingTest {
    private static final int CHUNK = ServerConfig.DEFAULT_DUMP_CHUNK_BYTES;

    @TempDir
    Path tmp;

    private Path socket;
    private TestBackend backend;
    private GfxStatsServer server;

    @BeforeEach
    void setUp() throws Exception {
        socket = tmp.resolve("d.sock");
        backend = new TestBackend();
        server = new GfxStatsServer(ServerConfig.unixOnly(socket).withMaxConcurrentDumps(1), backend);
        server.start();
    }

    @AfterEach
    void tearDown() {
        backend.unblock();
        server.stop();
    }

    /** Checks every byte against the backend's pattern as it arrives. */
    private static class PatternCheck extends OutputStream {
        long offset;

        @Override
        public void write(int b) {
            assertEquals(TestBackend.patternAt(offset), (byte) b, "byte " + offset);
            offset++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++) {
                if (TestBackend.patternAt(offset) != b[off + i]) {
                    throw new AssertionError("byte " + offset + " differs");
                }
                offset++;
            }
        }
    }

    @Test
    void shouldStreamSeveralMegabytesIntactInChunksNoLargerThanTheBound() throws Exception {
        long size = 5L * 1024 * 1024 + 123;
        backend.dumpSize = size;
        EventLoopGroup group = EpollGroups.create(1, "test-client");
        ManagedChannel channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(group).channelType(EpollDomainSocketChannel.class)
                .withOption(ChannelOption.SO_KEEPALIVE, null).usePlaintext().build();
        try {
            Iterator<DumpChunk> chunks = GfxStatsGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(30, TimeUnit.SECONDS).dump(DumpRequest.getDefaultInstance());
            PatternCheck check = new PatternCheck();
            int count = 0;
            int largest = 0;
            while (chunks.hasNext()) {
                DumpChunk chunk = chunks.next();
                largest = Math.max(largest, chunk.getData().size());
                if (chunks.hasNext()) {
                    assertEquals(CHUNK, chunk.getData().size(), "every chunk but the last is full");
                }
                chunk.getData().writeTo(check);
                count++;
            }
            assertEquals(size, check.offset);
            assertEquals(CHUNK, largest);
            assertEquals((size + CHUNK - 1) / CHUNK, count);
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void shouldWriteStreamedDumpIntoAnOutputStreamThroughTheClient() throws Exception {
        backend.dumpSize = 3L * 1024 * 1024 + 7;
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            PatternCheck check = new PatternCheck();
            long n = client.dump(DumpRequest.getDefaultInstance(), check);
            assertEquals(backend.dumpSize, n);
            assertEquals(backend.dumpSize, check.offset);
        }
        Caller caller = backend.dumpCallers.take();
        assertEquals(Transport.UNIX, caller.transport(), "the backend sees the caller on the dump thread");
        assertEquals(ProcessHandle.current().pid(), caller.peer().pid());
    }

    @Test
    void shouldHoldBackTheWriterWhileTheReaderIsSlow() throws Exception {
        long size = 64L * 1024 * 1024;
        backend.dumpSize = size;
        CompletableFuture<Void> reading = new CompletableFuture<>();
        try (GfxStatsClient client = GfxStatsClient.unix(socket,
                ClientOptions.DEFAULTS.withDumpDeadline(Duration.ofSeconds(60)))) {
            CompletableFuture<Long> dump = stalledDump(client, reading);
            long written = awaitWriterStalls();
            System.out.printf("writer stalled after %d KiB of a %d KiB dump while the reader waited%n",
                    written / 1024, size / 1024);
            assertTrue(written < 8L * 1024 * 1024, "the writer ran " + written + " bytes ahead of a stalled reader");

            reading.complete(null);
            assertEquals(size, dump.get(60, TimeUnit.SECONDS));
        }
    }

    /** A dump whose reader checks nothing until {@code reading} completes: it holds the dump's slot. */
    private static CompletableFuture<Long> stalledDump(GfxStatsClient client, CompletableFuture<Void> reading) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return client.dump(DumpRequest.getDefaultInstance(), new PatternCheck() {
                    @Override
                    public void write(byte[] b, int off, int len) {
                        reading.join();
                        super.write(b, off, len);
                    }
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A dump the backend holds (package "block") until {@link TestBackend#unblock}. */
    private static CompletableFuture<byte[]> blockedDump(GfxStatsClient client) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return client.dumpBytes(DumpRequest.newBuilder().setPackageName("block").build());
            } catch (GfxStatsClientException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Waits until the backend's write position stops moving; returns it. */
    private long awaitWriterStalls() throws InterruptedException {
        long last = -1;
        for (int i = 0; i < 200; i++) {
            Thread.sleep(100);
            long now = backend.dumpBytesWritten.get();
            if (now == last && now > 0) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("the writer never stalled: " + last + " bytes written");
    }

    @Test
    void shouldStopTheBackendWhenTheClientGivesUp() throws Exception {
        backend.dumpSize = 256L * 1024 * 1024;
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            IOException e = assertThrows(IOException.class,
                    () -> client.dump(DumpRequest.getDefaultInstance(), new OutputStream() {
                        @Override
                        public void write(int b) throws IOException {
                            throw new IOException("broken pipe");
                        }
                    }));
            assertEquals("broken pipe", e.getMessage());

            IOException seenByBackend = backend.dumpFailures.poll(10, TimeUnit.SECONDS);
            assertNotNull(seenByBackend, "the backend's sink must fail once the client cancels");
            assertTrue(seenByBackend.getMessage().startsWith("dump cancelled"), seenByBackend.getMessage());

            backend.dumpSize = 10;
            assertEquals(10, dumpOnceSlotIsFree(client).length, "the dump slot must be released");
        }
    }

    /** The backend returns just after its sink failed; its slot frees a moment later. */
    private static byte[] dumpOnceSlotIsFree(GfxStatsClient client) throws Exception {
        for (int attempt = 0; ; attempt++) {
            try {
                return client.dumpBytes(DumpRequest.getDefaultInstance());
            } catch (GfxStatsClientException e) {
                if (e.code() != Status.Code.RESOURCE_EXHAUSTED || attempt == 50) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    @Test
    void shouldRefuseDumpsBeyondTheConcurrencyLimit() throws Exception {
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            CompletableFuture<byte[]> blocked = blockedDump(client);
            assertNotNull(backend.dumpCallers.poll(10, TimeUnit.SECONDS));

            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.dumpBytes(DumpRequest.getDefaultInstance()));

            assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.code());
            assertTrue(e.getMessage().contains("too many dumps in progress (limit 1, setting dumps.max)"), e.getMessage());
            backend.unblock();
            assertEquals(1000, blocked.get(10, TimeUnit.SECONDS).length);
        }
    }

    @Test
    void shouldQueueTheOwnersDumpForTheSlotOfADumpNobodyReads() throws Exception {
        // The only slot is held by a dump whose reader stopped (as the owner's other processes
        // can hold every slot): the owner's next dump waits for it to be given up, not refused.
        backend.dumpSize = 8L * 1024 * 1024;
        CompletableFuture<Void> reading = new CompletableFuture<>();
        try (GfxStatsClient stalled = GfxStatsClient.unix(socket,
                     ClientOptions.DEFAULTS.withDumpDeadline(Duration.ofSeconds(60)));
             GfxStatsClient owner = GfxStatsClient.unix(socket)) {
            CompletableFuture<Long> held = stalledDump(stalled, reading);
            awaitWriterStalls();

            PatternCheck check = new PatternCheck();
            assertEquals(backend.dumpSize, owner.dump(DumpRequest.getDefaultInstance(), check));
            assertEquals(backend.dumpSize, check.offset);
            reading.complete(null);
            // The dump nobody read was given up for it (the client sees the call ended early).
            assertThrows(java.util.concurrent.ExecutionException.class, () -> held.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldLetARunningDumpFinishWhileTheServerStops() throws Exception {
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            CompletableFuture<byte[]> running = blockedDump(client);
            assertNotNull(backend.dumpCallers.poll(10, TimeUnit.SECONDS));
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(server::stop);

            backend.unblock();

            assertEquals(1000, running.get(10, TimeUnit.SECONDS).length);
            stopping.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldGiveUpOnADumpAtTheClientDeadline() throws Exception {
        try (GfxStatsClient client = GfxStatsClient.unix(socket,
                ClientOptions.DEFAULTS.withDumpDeadline(Duration.ofMillis(300)))) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.dumpBytes(DumpRequest.newBuilder().setPackageName("block").build()));

            assertEquals(Status.Code.DEADLINE_EXCEEDED, e.code());
            assertEquals("gfxstats daemon at unix:" + socket + " did not answer within 300 ms", e.getMessage());
        }
    }

    @Test
    void shouldRefuseAnUnknownDumpFormat() {
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            GfxStatsClientException e = assertThrows(GfxStatsClientException.class,
                    () -> client.dumpBytes(DumpRequest.newBuilder().setFormatValue(99).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
            assertTrue(e.getMessage().contains("unknown dump format 99"), e.getMessage());
        }
    }
}
