package io.gfxstats.daemon.rpc;

import com.google.protobuf.ByteString;
import io.gfxstats.rpc.v1.DumpChunk;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The sink a backend writes a dump into: cuts the bytes into DumpChunk messages of at most
 * {@code chunkBytes} and sends each one only when the call is ready for it, so a slow client
 * slows the writer down instead of piling the dump up in memory.
 *
 * <p>Used by exactly one writer thread, which must not be a thread of the call's own executor
 * (the ready signal is delivered there). {@link #flush()} does not cut a chunk: callers such as
 * an auto-flushing PrintStream would otherwise turn a dump into thousands of tiny messages.
 */
final class DumpChunkStream extends OutputStream {
    /** Re-check readiness at least this often, in case a ready signal raced with the check. */
    private static final long READY_POLL_MILLIS = 100;

    private final ServerCallStreamObserver<DumpChunk> call;
    private byte[] buffer;
    private final long stallTimeoutNanos;
    private final Object readyLock = new Object();
    private int count;
    private long bytesSent;
    private int chunksSent;
    private volatile boolean cancelled;
    private volatile boolean preempted;
    /** When the writer started waiting for the client, or -1 while it is not waiting. */
    private volatile long waitingSince = -1;
    private boolean closed;

    DumpChunkStream(ServerCallStreamObserver<DumpChunk> call, int chunkBytes) {
        this(call, chunkBytes, Long.MAX_VALUE);
    }

    /** @param stallTimeoutNanos how long to wait for the client to take more before giving up */
    DumpChunkStream(ServerCallStreamObserver<DumpChunk> call, int chunkBytes, long stallTimeoutNanos) {
        this.call = Objects.requireNonNull(call, "call");
        this.buffer = new byte[chunkBytes];
        this.stallTimeoutNanos = stallTimeoutNanos;
    }

    /** The client took nothing for longer than the stall timeout: the dump is given up. */
    static final class StalledException extends IOException {
        private static final long serialVersionUID = 1L;

        StalledException(String message) {
            super(message);
        }
    }

    /** Wired to the call's on-ready handler. */
    void onReady() {
        synchronized (readyLock) {
            readyLock.notifyAll();
        }
    }

    /** Wired to the call's on-cancel handler: the client is gone or its deadline passed. */
    void onCancel() {
        cancelled = true;
        synchronized (readyLock) {
            readyLock.notifyAll();
        }
    }

    boolean cancelled() {
        return cancelled;
    }

    /** How long the writer has been waiting for the client to read, in ns; -1 when it is not waiting. */
    long waitingNanos(long now) {
        long since = waitingSince;
        // A preempted dump is already letting go of its slot: giving it up again frees nothing.
        return since < 0 || preempted ? -1 : now - since;
    }

    /** Gives the dump up because its slot is needed: the waiting writer fails with {@link StalledException}. */
    void preempt() {
        preempted = true;
        onCancel();
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (count == buffer.length) {
            sendBuffered();
        }
        buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            if (count == buffer.length) {
                sendBuffered();
            }
            int n = Math.min(len, buffer.length - count);
            System.arraycopy(b, off, buffer, count, n);
            count += n;
            off += n;
            len -= n;
        }
    }

    /** Does not send: chunks go out when full and at {@link #finish()}. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
    }

    /** Further writes fail; the call itself is completed by the service, not here. */
    @Override
    public void close() {
        closed = true;
    }

    /** Sends what is still buffered. Called by the service after the backend returned. */
    void finish() throws IOException {
        if (cancelled) {
            throw new IOException("client went away");
        }
        if (count > 0) {
            sendBuffered();
        }
        closed = true;
    }

    /**
     * Drops the chunk buffer. The call keeps this sink (its handlers) until the client has read
     * the last byte, which may be never; the buffer must not live that long.
     */
    void discard() {
        closed = true;
        buffer = null;
    }

    long bytesSent() {
        return bytesSent;
    }

    int chunksSent() {
        return chunksSent;
    }

    private void ensureOpen() throws IOException {
        if (cancelled) {
            throw new IOException("dump cancelled: the client went away or its deadline passed");
        }
        if (closed || buffer == null) {
            throw new IOException("dump sink already closed");
        }
    }

    private void sendBuffered() throws IOException {
        awaitReady();
        call.onNext(DumpChunk.newBuilder().setData(ByteString.copyFrom(buffer, 0, count)).build());
        bytesSent += count;
        chunksSent++;
        count = 0;
    }

    private void awaitReady() throws IOException {
        long start = System.nanoTime();
        synchronized (readyLock) {
            while (!call.isReady()) {
                if (waitingSince < 0) {
                    waitingSince = start;
                }
                if (preempted) {
                    throw new StalledException("dump given up: the client read nothing for "
                            + (System.nanoTime() - start) / 1_000_000 + " ms after " + bytesSent
                            + " bytes while another caller needed its slot");
                }
                if (cancelled) {
                    throw new IOException("dump cancelled: the client went away or its deadline passed");
                }
                if (System.nanoTime() - start > stallTimeoutNanos) {
                    cancelled = true;
                    throw new StalledException("dump stalled: the client read nothing for "
                            + (stallTimeoutNanos / 1_000_000) + " ms after " + bytesSent
                            + " bytes (setting dump.stall.timeout)");
                }
                try {
                    readyLock.wait(READY_POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the client to read", e);
                }
            }
            waitingSince = -1;
        }
        if (cancelled) {
            throw new IOException("dump cancelled: the client went away or its deadline passed");
        }
    }
}
