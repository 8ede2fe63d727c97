package io.gfxstats.bench;

import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.stats.Pipeline;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Live buffers registered by the benchmark driver itself, through the daemon's real
 * registration path: one Register call per buffer over the Unix socket (the daemon learns the
 * driver's pid and uid from the socket, creates the file and maps it read-only), then the
 * driver maps the file with {@link BufferWriter} and counts frames into it with the jank
 * tracker, as a rendering process would. Cheaper than a JVM per buffer and exercises the same
 * daemon code: the daemon cannot tell the difference except that every buffer has the same pid.
 */
final class DriverBuffers implements AutoCloseable {
    private final GfxStatsClient client;
    private final List<Live> buffers = new ArrayList<>();

    private record Live(ClientRegistration registration, BufferWriter writer, StripeWriter stripe,
                        ModernJankTracker tracker, FrameStream frames) {
    }

    DriverBuffers(Path socket) {
        this.client = GfxStatsClient.unix(socket);
    }

    int size() {
        return buffers.size();
    }

    /** Registers buffers until there are {@code count}; buffer i counts package i. */
    void growTo(int count, int framesEach) throws GfxStatsClientException, IOException {
        while (buffers.size() < count) {
            int i = buffers.size();
            ClientRegistration r = client.register(RegisterRequest.newBuilder()
                    .setPackageName(DayFileSet.packageName(i)).setVersionCode(DayFileSet.VERSION)
                    .setPipeline(Pipeline.GL.code()).build());
            BufferWriter writer;
            try {
                writer = BufferWriter.open(Path.of(r.assigned().getBufferPath()));
            } catch (IOException | RuntimeException e) {
                r.close();
                throw e;
            }
            Live live = new Live(r, writer, writer.claimStripe(), FrameStream.tracker(), new FrameStream(1000 + i));
            buffers.add(live);
            record(live, framesEach);
        }
    }

    /** Counts {@code frames} more frames into every buffer. */
    void recordEach(int frames) {
        for (Live b : buffers) {
            record(b, frames);
        }
    }

    private static void record(Live b, int frames) {
        for (int f = 0; f < frames; f++) {
            b.tracker().finishFrame(b.frames().next(), b.stripe());
        }
        b.writer().heartbeat(System.currentTimeMillis());
    }

    /** Ends every registration (the daemon saves and removes the buffers) and unmaps them. */
    @Override
    public void close() {
        for (Live b : buffers) {
            b.stripe().release();
            b.writer().close();
            b.registration().close();
        }
        buffers.clear();
        client.close();
    }
}
