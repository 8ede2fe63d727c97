package io.gfxstats.dumpclient.h2;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/** Entry point: one server-streaming call to a gRPC server on a Unix socket, on its own connection. */
public final class UnixGrpcCall {
    private UnixGrpcCall() {
    }

    /** The largest request message {@link #serverStreaming} sends. */
    public static int maxRequestBytes() {
        return StreamingCall.maxRequestBytes();
    }

    /**
     * Calls {@code method} ("/package.Service/Method") with the serialized {@code request} and hands
     * each response message to {@code sink}. Returns when the server ended the call with OK.
     *
     * @param timeoutMillis the deadline for the whole call, connecting included
     * @param maxMessageBytes the largest response message accepted (RESOURCE_EXHAUSTED beyond)
     * @throws CallFailure the call ended otherwise: connecting failed (UNAVAILABLE, with the
     *     system's reason as detail, e.g. "Connection refused"), the server's status, the deadline
     *     (DEADLINE_EXCEEDED), a broken connection (UNAVAILABLE) or protocol (INTERNAL)
     * @throws IOException thrown by {@code sink}; the call is abandoned
     * @throws IllegalArgumentException when the request exceeds {@link #maxRequestBytes()}
     */
    public static void serverStreaming(Path socket, String method, byte[] request, long timeoutMillis,
            int maxMessageBytes, MessageSink sink) throws CallFailure, IOException {
        if (request.length > maxRequestBytes()) {
            throw new IllegalArgumentException("request of " + request.length + " bytes, at most " + maxRequestBytes());
        }
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        } catch (IOException | UnsupportedOperationException e) {
            throw new CallFailure(GrpcCodes.UNAVAILABLE, "cannot open a Unix socket: " + e.getMessage(), e);
        }
        Watchdog watchdog = Watchdog.start(channel, timeoutMillis);
        try {
            try {
                channel.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                throw watchdog.fired() ? deadline(timeoutMillis)
                        : new CallFailure(GrpcCodes.UNAVAILABLE, e.getMessage() != null ? e.getMessage() : e.toString(), e);
            }
            new StreamingCall(new FrameChannel(channel, Http2.DEFAULT_MAX_FRAME_SIZE), maxMessageBytes)
                    .run(method, timeoutMillis, request, sink);
        } catch (CallFailure e) {
            throw watchdog.fired() ? deadline(timeoutMillis) : e;
        } finally {
            watchdog.cancel();
            // Closing ends the call on the server too, if we leave early.
            channel.close();
        }
    }

    private static CallFailure deadline(long timeoutMillis) {
        return new CallFailure(GrpcCodes.DEADLINE_EXCEEDED, "deadline of " + timeoutMillis + " ms exceeded");
    }
}
