package io.gfxstats.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * An HTTP/2 client, written frame by frame, that starts one gRPC server-streaming call and then
 * never reads: it announces a receive window of 0, so the server may send it no DATA at all, and
 * it never sends a WINDOW_UPDATE - a stuck or hostile reader as the daemon sees it.
 */
public final class StalledH2Client implements AutoCloseable {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private final SocketChannel channel;
    private int nextStream = 1;

    private StalledH2Client(SocketChannel channel) {
        this.channel = channel;
    }

    /** Connects to {@code socket} and sends the preface and a receive window of 0; no call yet. */
    public static StalledH2Client open(Path socket) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(socket));
        return opened(ch);
    }

    /** The same over TCP (a plaintext listener). */
    public static StalledH2Client open(java.net.InetSocketAddress address) throws IOException {
        return opened(SocketChannel.open(address));
    }

    private static StalledH2Client opened(SocketChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(PREFACE);
        frame(out, 0x4, 0, 0, new byte[] {0, 0x4, 0, 0, 0, 0}); // SETTINGS_INITIAL_WINDOW_SIZE = 0
        ch.write(ByteBuffer.wrap(out.toByteArray()));
        return new StalledH2Client(ch);
    }

    /**
     * Starts one more call of {@code method} on this connection (the next stream id) and reads
     * nothing, ever. Throws once the daemon has closed the connection.
     */
    public void another(String method, byte[] request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        callFrames(out, nextStream, method, request);
        nextStream += 2;
        ByteBuffer b = ByteBuffer.wrap(out.toByteArray());
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    private static void callFrames(ByteArrayOutputStream out, int stream, String method, byte[] request) {
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        literal(headers, ":method", "POST");
        literal(headers, ":scheme", "http");
        literal(headers, ":path", "/" + method);
        literal(headers, ":authority", "localhost");
        literal(headers, "content-type", "application/grpc");
        literal(headers, "te", "trailers");
        frame(out, 0x1, 0x4, stream, headers.toByteArray()); // HEADERS, END_HEADERS
        ByteBuffer message = ByteBuffer.allocate(5 + request.length);
        message.put((byte) 0).putInt(request.length).put(request);
        frame(out, 0x0, 0x1, stream, message.array()); // DATA, END_STREAM
    }

    /** Connects to {@code socket} and sends a call of {@code method} ("gfxstats.v1.GfxStats/Dump") with {@code request}. */
    public static StalledH2Client call(Path socket, String method, byte[] request) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(socket));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(PREFACE);
        frame(out, 0x4, 0, 0, new byte[] {0, 0x4, 0, 0, 0, 0}); // SETTINGS_INITIAL_WINDOW_SIZE = 0
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        literal(headers, ":method", "POST");
        literal(headers, ":scheme", "http");
        literal(headers, ":path", "/" + method);
        literal(headers, ":authority", "localhost");
        literal(headers, "content-type", "application/grpc");
        literal(headers, "te", "trailers");
        frame(out, 0x1, 0x4, 1, headers.toByteArray()); // HEADERS, END_HEADERS, stream 1
        ByteBuffer message = ByteBuffer.allocate(5 + request.length);
        message.put((byte) 0).putInt(request.length).put(request);
        frame(out, 0x0, 0x1, 1, message.array()); // DATA, END_STREAM
        ch.write(ByteBuffer.wrap(out.toByteArray()));
        return new StalledH2Client(ch);
    }

    private static void frame(ByteArrayOutputStream out, int type, int flags, int stream, byte[] payload) {
        out.write(payload.length >>> 16);
        out.write(payload.length >>> 8);
        out.write(payload.length);
        out.write(type);
        out.write(flags);
        out.write(stream >>> 24);
        out.write(stream >>> 16);
        out.write(stream >>> 8);
        out.write(stream);
        out.writeBytes(payload);
    }

    /** HPACK "literal header field without indexing, new name", no Huffman; short strings only. */
    private static void literal(ByteArrayOutputStream out, String name, String value) {
        out.write(0);
        byte[] n = name.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        out.write(n.length);
        out.writeBytes(n);
        out.write(v.length);
        out.writeBytes(v);
    }

    /**
     * Waits until the server has sent response headers on this connection: it has taken the call
     * (running, or refused with its trailers). Headers are not flow-controlled, so they arrive
     * although this client never opens its window; reading them sends nothing back.
     */
    public boolean awaitResponseHeaders(java.time.Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        channel.configureBlocking(false);
        try {
            ByteBuffer in = ByteBuffer.allocate(1 << 16);
            while (System.nanoTime() - deadline < 0) {
                if (channel.read(in) < 0) {
                    return false;
                }
                in.flip();
                while (in.remaining() >= 9) {
                    int length = ((in.get(in.position()) & 0xff) << 16) | ((in.get(in.position() + 1) & 0xff) << 8)
                            | (in.get(in.position() + 2) & 0xff);
                    int type = in.get(in.position() + 3) & 0xff;
                    int stream = in.getInt(in.position() + 5) & 0x7fffffff;
                    if (type == 0x1 && stream != 0) {
                        return true;
                    }
                    if (in.remaining() < 9 + length) {
                        break;
                    }
                    in.position(in.position() + 9 + length);
                }
                in.compact();
                Thread.sleep(10);
            }
            return false;
        } finally {
            channel.configureBlocking(true);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
