package io.gfxstats.dumpclient.h2;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP/2 peer on a Unix socket that answers one call with frames a test writes byte by byte:
 * for the protocol cases a well-behaved gRPC server never produces. It reads the client's
 * preface and request, runs the script, then records every frame the client sends until it
 * closes the connection.
 */
final class ScriptedServer implements AutoCloseable {
    /** What the server writes once the request is in. */
    interface Script {
        void run(Out out) throws Exception;
    }

    /** A frame the client sent. */
    record Frame(int type, int flags, int stream, byte[] payload) {
    }

    final Path socket;
    private final ServerSocketChannel server;
    private final CompletableFuture<List<Frame>> received = new CompletableFuture<>();
    private final Thread thread;

    ScriptedServer(Path socket, Script script) throws IOException {
        this.socket = socket;
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        thread = new Thread(() -> serve(script), "scripted-h2-server");
        thread.setDaemon(true);
        thread.start();
    }

    /** Every frame the client sent, request included, once it closed the connection. */
    List<Frame> clientFrames() throws Exception {
        return received.get(30, TimeUnit.SECONDS);
    }

    private void serve(Script script) {
        List<Frame> frames = new ArrayList<>();
        try (SocketChannel ch = server.accept()) {
            ByteBuffer preface = ByteBuffer.allocate(Http2.CLIENT_PREFACE.length);
            readFully(ch, preface);
            if (!Arrays.equals(preface.array(), Http2.CLIENT_PREFACE)) {
                throw new IOException("bad preface");
            }
            FrameChannel in = new FrameChannel(ch, 1 << 20);
            // The request ends with a DATA frame carrying END_STREAM.
            while (true) {
                if (!in.read()) {
                    throw new IOException("client left before its request ended");
                }
                frames.add(new Frame(in.type(), in.flags(), in.streamId(), Arrays.copyOf(in.payload(), in.length())));
                if (in.type() == Http2.DATA && in.has(Http2.FLAG_END_STREAM)) {
                    break;
                }
            }
            script.run(new Out(ch));
            try {
                while (in.read()) {
                    frames.add(new Frame(in.type(), in.flags(), in.streamId(), Arrays.copyOf(in.payload(), in.length())));
                }
            } catch (IOException closedByClient) {
                // A reset connection ends the recording as well as a clean close.
            }
            received.complete(frames);
        } catch (Exception e) {
            received.completeExceptionally(e);
        }
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("closed");
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(socket);
    }

    /** Writes frames to the client. */
    static final class Out {
        private final SocketChannel ch;

        Out(SocketChannel ch) {
            this.ch = ch;
        }

        Out frame(int type, int flags, int stream, byte[] payload) throws IOException {
            ByteBuffer b = FrameChannel.frame(type, flags, stream, payload);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            return this;
        }

        Out settings() throws IOException {
            return frame(Http2.SETTINGS, 0, 0, new byte[0]);
        }

        /** A header block of literal fields in one HEADERS frame. */
        Out headers(int flags, String... namesAndValues) throws IOException {
            return frame(Http2.HEADERS, flags | Http2.FLAG_END_HEADERS, 1, block(namesAndValues));
        }

        Out responseHeaders() throws IOException {
            return headers(0, ":status", "200", "content-type", "application/grpc");
        }

        Out trailers(int status, String message) throws IOException {
            return message == null ? headers(Http2.FLAG_END_STREAM, "grpc-status", Integer.toString(status))
                    : headers(Http2.FLAG_END_STREAM, "grpc-status", Integer.toString(status), "grpc-message", message);
        }

        Out data(int flags, byte[] bytes) throws IOException {
            return frame(Http2.DATA, flags, 1, bytes);
        }

        /** Ends the connection from the server's side now. */
        void close() throws IOException {
            ch.close();
        }

        /** Holds the connection open without a word until the client gives up. */
        void silence() throws IOException {
            ByteBuffer b = ByteBuffer.allocate(1024);
            while (ch.read(b) >= 0) {
                b.clear();
            }
        }
    }

    static byte[] block(String... namesAndValues) {
        HeaderBlockWriter w = new HeaderBlockWriter();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            w.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return w.toByteArray();
    }

    /** gRPC messages, each with its 5-byte prefix, back to back. */
    static byte[] messages(byte[]... bodies) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] b : bodies) {
            out.writeBytes(ByteBuffer.allocate(5).put((byte) 0).putInt(b.length).array());
            out.writeBytes(b);
        }
        return out.toByteArray();
    }
}
