package io.gfxstats.dumpclient.h2;

import static io.gfxstats.dumpclient.h2.CallFailure.protocolError;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One server-streaming gRPC call as stream 1 of a fresh HTTP/2 connection: sends the preface, our
 * settings, the request headers and the one request message at once, then reads frames until the
 * response trailers (or a failure) end the stream. What the headers and trailers mean to gRPC is
 * {@link GrpcHeaders}'s.
 */
final class StreamingCall {
    static final int STREAM = 1;
    /** Our receive windows (stream and connection): dump chunks are 64 KiB, this keeps 16 in flight. */
    static final int WINDOW = 1 << 20;
    static final int MAX_HEADER_LIST_BYTES = 64 * 1024;
    static final int HEADER_TABLE_BYTES = 4096;

    private final FrameChannel frames;
    private final HpackDecoder hpack = new HpackDecoder(HEADER_TABLE_BYTES, MAX_HEADER_LIST_BYTES);
    private final MessageAssembler messages;
    private byte[] headerBlock = new byte[1024];
    private boolean responseHeadersSeen;
    private int unackedConnectionBytes;
    private int unackedStreamBytes;
    private String goAway;

    StreamingCall(FrameChannel frames, int maxMessageBytes) {
        this.frames = frames;
        this.messages = new MessageAssembler(maxMessageBytes);
    }

    /** The request message must fit one frame (the smallest any peer accepts). */
    static int maxRequestBytes() {
        return Http2.DEFAULT_MAX_FRAME_SIZE - MessageAssembler.PREFIX_BYTES;
    }

    /**
     * Runs the call: returns normally when the server ended it with OK. The request must not exceed
     * {@link #maxRequestBytes()} (checked by {@link UnixGrpcCall}).
     *
     * @throws CallFailure any other end: the server's status or a transport or protocol failure
     * @throws IOException from {@code sink}, unchanged
     */
    void run(String path, long timeoutMillis, byte[] request, MessageSink sink) throws CallFailure, IOException {
        send(requestFrames(path, timeoutMillis, request));
        while (true) {
            next();
            switch (frames.type()) {
                case Http2.DATA -> onData(sink);
                case Http2.HEADERS -> {
                    if (onHeaders()) {
                        return;
                    }
                }
                case Http2.RST_STREAM -> onReset();
                case Http2.SETTINGS -> onSettings();
                case Http2.PING -> onPing();
                case Http2.GOAWAY -> onGoAway();
                case Http2.CONTINUATION -> throw protocolError("CONTINUATION frame without a HEADERS frame before it");
                case Http2.PUSH_PROMISE -> throw protocolError("PUSH_PROMISE although push was disabled");
                default -> {
                    // WINDOW_UPDATE (our request is already sent whole), PRIORITY, and unknown types,
                    // which RFC 9113 says to ignore.
                }
            }
        }
    }

    private ByteBuffer[] requestFrames(String path, long timeoutMillis, byte[] request) {
        byte[] headers = new HeaderBlockWriter()
                .add(":method", "POST")
                .add(":scheme", "http")
                .add(":path", path)
                .add(":authority", "localhost")
                .add("content-type", "application/grpc")
                .add("te", "trailers")
                .add("grpc-timeout", GrpcTimeout.encode(timeoutMillis))
                .add("user-agent", "gfxstats-cli")
                .toByteArray();
        ByteBuffer settings = ByteBuffer.allocate(3 * Http2.SETTING_BYTES)
                .putShort((short) Http2.SETTINGS_ENABLE_PUSH).putInt(0)
                .putShort((short) Http2.SETTINGS_INITIAL_WINDOW_SIZE).putInt(WINDOW)
                .putShort((short) Http2.SETTINGS_MAX_HEADER_LIST_SIZE).putInt(MAX_HEADER_LIST_BYTES);
        byte[] body = new byte[MessageAssembler.PREFIX_BYTES + request.length];
        ByteBuffer.wrap(body).put((byte) 0).putInt(request.length).put(request);
        return new ByteBuffer[] {
            ByteBuffer.wrap(Http2.CLIENT_PREFACE),
            FrameChannel.frame(Http2.SETTINGS, 0, 0, settings.array()),
            // SETTINGS cannot raise the connection window, only this can.
            FrameChannel.frame(Http2.WINDOW_UPDATE, 0, 0, intBytes(WINDOW - Http2.DEFAULT_WINDOW)),
            FrameChannel.frame(Http2.HEADERS, Http2.FLAG_END_HEADERS, STREAM, headers),
            FrameChannel.frame(Http2.DATA, Http2.FLAG_END_STREAM, STREAM, body),
        };
    }

    private void onData(MessageSink sink) throws CallFailure, IOException {
        if (frames.streamId() != STREAM) {
            throw protocolError("DATA frame on stream " + frames.streamId());
        }
        if (!responseHeadersSeen) {
            throw protocolError("DATA frame before the response headers");
        }
        int length = frames.length();
        int[] range = unpadded(0);
        // Flow control counts the whole frame, padding included; acknowledged once the sink took it.
        messages.feed(frames.payload(), range[0], range[1] - range[0], sink);
        boolean end = frames.has(Http2.FLAG_END_STREAM);
        unackedConnectionBytes += length;
        unackedStreamBytes += length;
        if (unackedConnectionBytes >= WINDOW / 2) {
            send(FrameChannel.frame(Http2.WINDOW_UPDATE, 0, 0, intBytes(unackedConnectionBytes)));
            unackedConnectionBytes = 0;
        }
        if (end) {
            throw new CallFailure(GrpcCodes.INTERNAL, "the daemon ended the response without a status (no trailers)");
        }
        if (unackedStreamBytes >= WINDOW / 2) {
            send(FrameChannel.frame(Http2.WINDOW_UPDATE, 0, STREAM, intBytes(unackedStreamBytes)));
            unackedStreamBytes = 0;
        }
    }

    /** Returns true when this header block ended the call with OK. */
    private boolean onHeaders() throws CallFailure {
        if (frames.streamId() != STREAM) {
            throw protocolError("HEADERS frame on stream " + frames.streamId());
        }
        boolean endStream = frames.has(Http2.FLAG_END_STREAM);
        int skip = frames.has(Http2.FLAG_PRIORITY) ? Http2.PRIORITY_FIELDS_BYTES : 0;
        int[] range = unpadded(skip);
        int blockLength = append(0, range[0], range[1]);
        boolean endHeaders = frames.has(Http2.FLAG_END_HEADERS);
        while (!endHeaders) {
            next();
            if (frames.type() != Http2.CONTINUATION || frames.streamId() != STREAM) {
                throw protocolError("frame type " + frames.type() + " inside a header block");
            }
            blockLength = append(blockLength, 0, frames.length());
            endHeaders = frames.has(Http2.FLAG_END_HEADERS);
        }
        HeaderList headers;
        try {
            headers = hpack.decode(headerBlock, 0, blockLength);
        } catch (HpackException e) {
            throw new CallFailure(GrpcCodes.INTERNAL, "the daemon sent an undecodable header block: " + e.getMessage());
        }
        if (!responseHeadersSeen) {
            responseHeadersSeen = true;
            GrpcHeaders.checkResponseHeaders(headers, endStream);
            if (!endStream) {
                return false;
            }
        } else if (!endStream) {
            throw protocolError("a second header block that does not end the stream");
        }
        return finish(headers);
    }

    private boolean finish(HeaderList trailers) throws CallFailure {
        if (!messages.idle()) {
            throw new CallFailure(GrpcCodes.INTERNAL, "the response ended inside a message");
        }
        GrpcHeaders.checkTrailers(trailers);
        return true;
    }

    private void onReset() throws CallFailure {
        if (frames.length() != 4) {
            throw protocolError("RST_STREAM of " + frames.length() + " bytes");
        }
        if (frames.streamId() == STREAM) {
            int error = frames.payloadInt(0);
            throw new CallFailure(GrpcCodes.fromResetCode(error), "the daemon reset the call ("
                    + Http2.errorName(error) + ")");
        }
    }

    private void onSettings() throws CallFailure {
        if (frames.has(Http2.FLAG_ACK)) {
            return;
        }
        if (frames.streamId() != 0 || frames.length() % Http2.SETTING_BYTES != 0) {
            throw protocolError("malformed SETTINGS frame");
        }
        // Nothing the daemon may set changes what we still send (a few bytes of WINDOW_UPDATE and
        // acknowledgements), but each SETTINGS must be acknowledged.
        send(FrameChannel.frame(Http2.SETTINGS, Http2.FLAG_ACK, 0, new byte[0]));
    }

    private void onPing() throws CallFailure {
        if (frames.length() != Http2.PING_PAYLOAD_BYTES || frames.streamId() != 0) {
            throw protocolError("malformed PING frame");
        }
        if (!frames.has(Http2.FLAG_ACK)) {
            send(FrameChannel.frame(Http2.PING, Http2.FLAG_ACK, 0,
                    Arrays.copyOf(frames.payload(), Http2.PING_PAYLOAD_BYTES)));
        }
    }

    private void onGoAway() throws CallFailure {
        if (frames.length() < 8) {
            throw protocolError("GOAWAY of " + frames.length() + " bytes");
        }
        int lastStream = frames.payloadInt(0) & 0x7fff_ffff;
        int error = frames.payloadInt(4);
        String debug = new String(frames.payload(), 8, frames.length() - 8, StandardCharsets.UTF_8);
        goAway = "GOAWAY " + Http2.errorName(error) + (debug.isEmpty() ? "" : " " + debug);
        if (lastStream < STREAM) {
            // The call was never processed: safe to try again, UNAVAILABLE as gRPC defines it.
            throw new CallFailure(GrpcCodes.UNAVAILABLE, "the daemon is shutting down (" + goAway + ")");
        }
        // Otherwise the daemon finishes our call before it closes.
    }

    /** {start, end} of the payload after {@code skip} leading bytes and any padding. */
    private int[] unpadded(int skip) throws CallFailure {
        int start = 0;
        int end = frames.length();
        if (frames.has(Http2.FLAG_PADDED)) {
            if (end < 1) {
                throw protocolError("padded frame without a pad length");
            }
            end -= frames.payload()[0] & 0xff;
            start = 1;
        }
        start += skip;
        if (end < start) {
            throw protocolError("padding longer than the frame");
        }
        return new int[] {start, end};
    }

    private int append(int at, int from, int to) throws CallFailure {
        int n = to - from;
        if (at + n > MAX_HEADER_LIST_BYTES) {
            throw protocolError("header block larger than " + MAX_HEADER_LIST_BYTES + " bytes");
        }
        if (at + n > headerBlock.length) {
            headerBlock = Arrays.copyOf(headerBlock, Math.max(at + n, 2 * headerBlock.length));
        }
        System.arraycopy(frames.payload(), from, headerBlock, at, n);
        return at + n;
    }

    private void next() throws CallFailure {
        try {
            if (!frames.read()) {
                throw new CallFailure(GrpcCodes.UNAVAILABLE, "the daemon closed the connection before the call ended"
                        + (goAway != null ? " (" + goAway + ")" : ""));
            }
        } catch (FrameChannel.FrameSizeException e) {
            throw protocolError(e.getMessage());
        } catch (IOException e) {
            throw transportFailure(e);
        }
    }

    private void send(ByteBuffer... parts) throws CallFailure {
        try {
            frames.writeAll(parts);
        } catch (IOException e) {
            throw transportFailure(e);
        }
    }

    private static CallFailure transportFailure(IOException e) {
        String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return new CallFailure(GrpcCodes.UNAVAILABLE, "connection to the daemon failed: " + why, e);
    }

    private static byte[] intBytes(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }
}
