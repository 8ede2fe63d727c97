package io.gfxstats.dumpclient;

import io.gfxstats.dumpclient.h2.CallFailure;
import io.gfxstats.rpc.ClientErrors;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.dumpclient.h2.MessageSink;
import io.gfxstats.dumpclient.h2.UnixGrpcCall;
import io.grpc.Status;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The dump call of {@code gfxstats dump}, over the daemon's Unix socket with the small client of
 * {@link io.gfxstats.dumpclient.h2} instead of a grpc-java channel: same service, same bytes, same error
 * messages as {@link GfxStatsClient#dump}, in a fraction of the start-up time.
 */
public final class UnixDumpClient {
    /** gfxstats.v1.GfxStats/Dump; a test keeps it equal to the generated stub's name. */
    public static final String DUMP_METHOD = "/gfxstats.v1.GfxStats/Dump";
    /** Dump chunks are 64 KiB; the bound only guards against a confused server. */
    static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

    private final Path socket;
    private final Duration deadline;

    public UnixDumpClient(Path socket, Duration deadline) {
        this.socket = socket.toAbsolutePath().normalize();
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive: " + deadline);
        }
        this.deadline = deadline;
    }

    /**
     * Streams the dump into {@code out} as it arrives and flushes it; returns the bytes written. On
     * a failure part of the dump may already be written.
     *
     * @throws IOException from {@code out}; the call is cancelled
     */
    public long dump(DumpQuery query, OutputStream out) throws GfxStatsClientException, IOException {
        byte[] request = query.encode();
        if (request.length > UnixGrpcCall.maxRequestBytes()) {
            throw new GfxStatsClientException("dump request of " + request.length + " bytes is too large (package name?)",
                    Status.Code.INVALID_ARGUMENT, false, null);
        }
        ChunkWriter chunks = new ChunkWriter(out);
        try {
            UnixGrpcCall.serverStreaming(socket, DUMP_METHOD, request, deadline.toMillis(), MAX_CHUNK_BYTES, chunks);
        } catch (CallFailure e) {
            throw ClientErrors.translate(code(e.code()), e.detail(), e, socket, "unix:" + socket, deadline);
        } catch (MalformedChunkException e) {
            throw new GfxStatsClientException("gfxstats daemon at unix:" + socket + " sent a malformed dump chunk: "
                    + e.getMessage(), Status.Code.INTERNAL, false, e);
        }
        out.flush();
        return chunks.written;
    }

    private static Status.Code code(int value) {
        for (Status.Code c : Status.Code.values()) {
            if (c.value() == value) {
                return c;
            }
        }
        return Status.Code.UNKNOWN;
    }

    /**
     * Copies the {@code data} field (1, bytes) of each DumpChunk message to the output, skipping
     * fields a newer daemon might add.
     */
    private static final class ChunkWriter implements MessageSink {
        private static final int DATA_FIELD = 1;
        private final OutputStream out;
        private long written;
        private int pos;
        private int end;
        private byte[] bytes;

        ChunkWriter(OutputStream out) {
            this.out = out;
        }

        @Override
        public void message(byte[] message, int offset, int length) throws IOException {
            bytes = message;
            pos = offset;
            end = offset + length;
            while (pos < end) {
                long tag = varint();
                int field = (int) (tag >>> 3);
                int wireType = (int) (tag & 7);
                switch (wireType) {
                    case 0 -> varint();
                    case 1 -> skip(8);
                    case 2 -> {
                        long n = varint();
                        if (n > end - pos) {
                            throw new MalformedChunkException("field " + field + " of " + n + " bytes runs past the message");
                        }
                        if (field == DATA_FIELD) {
                            out.write(bytes, pos, (int) n);
                            written += n;
                        }
                        pos += (int) n;
                    }
                    case 5 -> skip(4);
                    default -> throw new MalformedChunkException("wire type " + wireType + " of field " + field);
                }
            }
        }

        private long varint() throws MalformedChunkException {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw new MalformedChunkException("message ends inside a varint");
                }
                int b = bytes[pos++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new MalformedChunkException("varint longer than 10 bytes");
        }

        private void skip(int n) throws MalformedChunkException {
            if (n > end - pos) {
                throw new MalformedChunkException("message ends inside a fixed-size field");
            }
            pos += n;
        }
    }

    /** Not the output's fault: told apart from its IOExceptions. */
    private static final class MalformedChunkException extends IOException {
        private static final long serialVersionUID = 1L;

        MalformedChunkException(String message) {
            super(message);
        }
    }
}
