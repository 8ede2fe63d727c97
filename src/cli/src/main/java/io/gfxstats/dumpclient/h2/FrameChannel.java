package io.gfxstats.dumpclient.h2;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;

/**
 * HTTP/2 frames over a blocking byte channel: {@link #read} fills the current frame's fields, writes
 * go out whole. Single-threaded by design: one call reads and writes in turn.
 */
final class FrameChannel {
    private final ByteChannel channel;
    private final int maxFrameSize;
    private final ByteBuffer header = ByteBuffer.allocate(Http2.FRAME_HEADER_BYTES);
    private final byte[] payload;
    private int type;
    private int flags;
    private int streamId;
    private int length;

    /** @param maxFrameSize the largest payload we accept (our SETTINGS_MAX_FRAME_SIZE) */
    FrameChannel(ByteChannel channel, int maxFrameSize) {
        this.channel = channel;
        this.maxFrameSize = maxFrameSize;
        this.payload = new byte[maxFrameSize];
    }

    /**
     * Reads the next frame. Returns false when the peer closed the connection between frames.
     *
     * @throws FrameSizeException when the frame is larger than we allow
     * @throws EOFException when the connection ends inside a frame
     */
    boolean read() throws IOException {
        header.clear();
        if (!fill(header, true)) {
            return false;
        }
        length = ((header.get(0) & 0xff) << 16) | ((header.get(1) & 0xff) << 8) | (header.get(2) & 0xff);
        type = header.get(Http2.TYPE_OFFSET) & 0xff;
        flags = header.get(Http2.FLAGS_OFFSET) & 0xff;
        streamId = header.getInt(Http2.STREAM_OFFSET) & 0x7fff_ffff;
        if (length > maxFrameSize) {
            throw new FrameSizeException("frame of " + length + " bytes, more than the " + maxFrameSize + " allowed");
        }
        fill(ByteBuffer.wrap(payload, 0, length), false);
        return true;
    }

    int type() {
        return type;
    }

    int flags() {
        return flags;
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    int streamId() {
        return streamId;
    }

    int length() {
        return length;
    }

    /** The current frame's payload in {@code [0, length())}; overwritten by the next read. */
    byte[] payload() {
        return payload;
    }

    int payloadInt(int offset) {
        return ((payload[offset] & 0xff) << 24) | ((payload[offset + 1] & 0xff) << 16)
                | ((payload[offset + 2] & 0xff) << 8) | (payload[offset + 3] & 0xff);
    }

    /** Several frames (and the preface) in one system call. */
    void writeAll(ByteBuffer... parts) throws IOException {
        long remaining = 0;
        for (ByteBuffer b : parts) {
            remaining += b.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(remaining));
        for (ByteBuffer b : parts) {
            all.put(b);
        }
        all.flip();
        while (all.hasRemaining()) {
            channel.write(all);
        }
    }

    static ByteBuffer frame(int type, int flags, int streamId, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(Http2.FRAME_HEADER_BYTES + body.length);
        b.put((byte) (body.length >>> 16)).put((byte) (body.length >>> 8)).put((byte) body.length);
        b.put((byte) type).put((byte) flags).putInt(streamId & 0x7fff_ffff).put(body);
        return b.flip();
    }

    private boolean fill(ByteBuffer b, boolean eofAllowedAtStart) throws IOException {
        while (b.hasRemaining()) {
            if (channel.read(b) < 0) {
                if (eofAllowedAtStart && b.position() == 0) {
                    return false;
                }
                throw new EOFException("connection closed inside a frame");
            }
        }
        return true;
    }

    /** A frame larger than our SETTINGS_MAX_FRAME_SIZE: FRAME_SIZE_ERROR. */
    static final class FrameSizeException extends IOException {
        private static final long serialVersionUID = 1L;

        FrameSizeException(String message) {
            super(message);
        }
    }
}
