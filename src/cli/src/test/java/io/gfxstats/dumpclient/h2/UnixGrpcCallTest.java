package io.gfxstats.dumpclient.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client against a peer that sends exactly the frames each case needs. */
@Timeout(60)
class UnixGrpcCallTest {
    private static final String METHOD = "/test.v1.Svc/Stream";

    @TempDir
    Path tmp;

    private final List<String> received = new ArrayList<>();

    private MessageSink collect() {
        return (bytes, offset, length) -> received.add(new String(bytes, offset, length, StandardCharsets.ISO_8859_1));
    }

    private void call(ScriptedServer server, long timeoutMillis) throws CallFailure, IOException {
        UnixGrpcCall.serverStreaming(server.socket, METHOD, "req".getBytes(StandardCharsets.US_ASCII), timeoutMillis,
                1 << 20, collect());
    }

    private CallFailure failing(ScriptedServer.Script script) throws Exception {
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"), script)) {
            return assertThrows(CallFailure.class, () -> call(server, 10_000));
        }
    }

    @Test
    void shouldSendAGrpcRequestAnyHttp2ServerUnderstands() throws Exception {
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"),
                out -> out.settings().responseHeaders().trailers(0, null))) {
            call(server, 2500);
            List<ScriptedServer.Frame> frames = server.clientFrames();
            Map<Integer, List<ScriptedServer.Frame>> byType = frames.stream()
                    .collect(Collectors.groupingBy(ScriptedServer.Frame::type));
            ScriptedServer.Frame headers = byType.get(Http2.HEADERS).get(0);
            assertEquals(1, headers.stream());
            Map<String, String> fields = NettyHpack.decode(headers.payload()).stream()
                    .collect(Collectors.toMap(f -> f[0], f -> f[1]));
            assertEquals("POST", fields.get(":method"));
            assertEquals("http", fields.get(":scheme"));
            assertEquals(METHOD, fields.get(":path"));
            assertEquals("application/grpc", fields.get("content-type"));
            assertEquals("trailers", fields.get("te"));
            assertEquals("2500m", fields.get("grpc-timeout"));
            ScriptedServer.Frame data = byType.get(Http2.DATA).get(0);
            assertEquals(Http2.FLAG_END_STREAM, data.flags());
            assertArrayEquals(ScriptedServer.messages("req".getBytes(StandardCharsets.US_ASCII)), data.payload());
            // Our SETTINGS first, then the acknowledgement of the server's.
            List<ScriptedServer.Frame> settings = byType.get(Http2.SETTINGS);
            assertEquals(0, settings.get(0).flags());
            assertTrue(settings.stream().anyMatch(s -> s.flags() == Http2.FLAG_ACK), "server SETTINGS not acknowledged");
        }
    }

    @Test
    void shouldAssembleMessagesAcrossPaddedFramesContinuationsPingsAndUnknownFrames() throws Exception {
        byte[] stream = ScriptedServer.messages("first".getBytes(StandardCharsets.US_ASCII), new byte[0],
                "x".repeat(40_000).getBytes(StandardCharsets.US_ASCII), "last".getBytes(StandardCharsets.US_ASCII));
        byte[] ping = {1, 2, 3, 4, 5, 6, 7, 8};
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"), out -> {
            out.settings();
            out.frame(Http2.PING, 0, 0, ping);
            // Response headers: padded, with priority fields, split over a CONTINUATION.
            byte[] block = ScriptedServer.block(":status", "200", "content-type", "application/grpc+proto");
            int cut = 7;
            ByteBuffer first = ByteBuffer.allocate(1 + 5 + cut + 3).put((byte) 3).putInt(0).put((byte) 15)
                    .put(block, 0, cut).put(new byte[3]);
            out.frame(Http2.HEADERS, Http2.FLAG_PADDED | Http2.FLAG_PRIORITY, 1, first.array());
            out.frame(Http2.CONTINUATION, Http2.FLAG_END_HEADERS, 1, Arrays.copyOfRange(block, cut, block.length));
            out.frame(0xfa, 0, 0, new byte[] {9, 9});
            out.frame(Http2.WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(1000).array());
            // Data in uneven pieces, the prefix of a message split across frames, some padded.
            int[] sizes = {3, 1, 9, 16_000, 7, 16_384, 2, 100_000};
            int pos = 0;
            for (int i = 0; pos < stream.length; i++) {
                int n = Math.min(Math.min(sizes[i % sizes.length], 16_384 - 11), stream.length - pos);
                if (i % 3 == 0) {
                    ByteBuffer padded = ByteBuffer.allocate(1 + n + 10).put((byte) 10).put(stream, pos, n).put(new byte[10]);
                    out.frame(Http2.DATA, Http2.FLAG_PADDED, 1, padded.array());
                } else {
                    out.data(0, Arrays.copyOfRange(stream, pos, pos + n));
                }
                pos += n;
            }
            out.trailers(0, null);
        })) {
            call(server, 10_000);
            assertEquals(List.of("first", "", "x".repeat(40_000), "last"), received);
            assertTrue(server.clientFrames().stream().anyMatch(f -> f.type() == Http2.PING && f.flags() == Http2.FLAG_ACK
                    && Arrays.equals(f.payload(), ping)), "PING not answered");
        }
    }

    @Test
    void shouldAcknowledgeWhatItReadsSoThatAResponseLargerThanTheWindowFlows() throws Exception {
        int total = 3 * StreamingCall.WINDOW;
        byte[] body = new byte[16_384 - 5 - 1];
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"), out -> {
            out.settings().responseHeaders();
            int sent = 0;
            while (sent < total) {
                out.data(0, ScriptedServer.messages(body));
                sent += body.length + 5;
            }
            out.trailers(0, null);
        })) {
            call(server, 20_000);
            long updatesConnection = server.clientFrames().stream()
                    .filter(f -> f.type() == Http2.WINDOW_UPDATE && f.stream() == 0).count();
            long updatesStream = server.clientFrames().stream()
                    .filter(f -> f.type() == Http2.WINDOW_UPDATE && f.stream() == 1).count();
            // One to open the connection window, then at least one per half window read.
            assertTrue(updatesConnection >= 1 + 5, "connection window updates: " + updatesConnection);
            assertTrue(updatesStream >= 5, "stream window updates: " + updatesStream);
            assertTrue(received.size() * (long) (body.length + 5) >= total);
        }
    }

    @Test
    void shouldReportATrailersOnlyRefusalWithItsPercentDecodedMessage() throws Exception {
        CallFailure e = failing(out -> out.settings().headers(Http2.FLAG_END_STREAM, ":status", "200",
                "content-type", "application/grpc", "grpc-status", "7", "grpc-message", "caf%C3%A9 100%25 sure"));
        assertEquals(GrpcCodes.PERMISSION_DENIED, e.code());
        assertEquals("café 100% sure", e.detail());
    }

    @Test
    void shouldReportTheServersStatusAfterMessages() throws Exception {
        CallFailure e = failing(out -> out.responseHeaders().data(0, ScriptedServer.messages(new byte[] {1}))
                .trailers(3, "bad package"));
        assertEquals(3, e.code());
        assertEquals("bad package", e.detail());
        assertEquals(1, received.size());
    }

    @Test
    void shouldMapResetsHttpStatusesAndGoAwayToGrpcCodes() throws Exception {
        assertEquals(GrpcCodes.CANCELLED, failing(out -> out.responseHeaders()
                .frame(Http2.RST_STREAM, 0, 1, ByteBuffer.allocate(4).putInt(Http2.CANCEL).array())).code());
        assertEquals(GrpcCodes.UNAVAILABLE, failing(out -> out
                .frame(Http2.RST_STREAM, 0, 1, ByteBuffer.allocate(4).putInt(Http2.REFUSED_STREAM).array())).code());
        assertEquals(GrpcCodes.UNAVAILABLE, failing(out -> out.headers(Http2.FLAG_END_STREAM, ":status", "503")).code());
        assertEquals(GrpcCodes.UNIMPLEMENTED, failing(out -> out.headers(Http2.FLAG_END_STREAM, ":status", "404")).code());
        CallFailure goAway = failing(out -> out.frame(Http2.GOAWAY, 0, 0,
                ByteBuffer.allocate(8 + 3).putInt(0).putInt(Http2.NO_ERROR).put("bye".getBytes(StandardCharsets.US_ASCII)).array()));
        assertEquals(GrpcCodes.UNAVAILABLE, goAway.code());
        assertTrue(goAway.detail().contains("shutting down") && goAway.detail().contains("bye"), goAway.detail());
    }

    @Test
    void shouldFinishACallTheServerAcceptedBeforeItsGoAway() throws Exception {
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"), out -> out.responseHeaders()
                .frame(Http2.GOAWAY, 0, 0, ByteBuffer.allocate(8).putInt(1).putInt(Http2.NO_ERROR).array())
                .data(0, ScriptedServer.messages("done".getBytes(StandardCharsets.US_ASCII))).trailers(0, null))) {
            call(server, 10_000);
            assertEquals(List.of("done"), received);
        }
    }

    @Test
    void shouldFailAsUnavailableWhenTheServerDisappearsMidMessage() throws Exception {
        CallFailure e = failing(out -> {
            out.responseHeaders().data(0, Arrays.copyOf(ScriptedServer.messages(new byte[100]), 50));
            out.close();
        });
        assertEquals(GrpcCodes.UNAVAILABLE, e.code());
        assertTrue(e.detail().contains("closed the connection"), e.detail());
    }

    @Test
    void shouldRejectWhatTheProtocolForbids() throws Exception {
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.settings().data(0, new byte[20_000])).code(), "oversized frame");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.data(0, new byte[5])).code(), "DATA before headers");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.responseHeaders()
                .data(0, new byte[] {1, 0, 0, 0, 1, 7})).code(), "compressed message never offered");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.responseHeaders()
                .headers(Http2.FLAG_END_STREAM, "x", "y")).code(), "trailers without grpc-status");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.responseHeaders()
                .data(Http2.FLAG_END_STREAM, ScriptedServer.messages(new byte[1]))).code(), "no trailers at all");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.responseHeaders()
                .data(0, new byte[] {0, 0, 0, 0, 9, 1}).trailers(0, null)).code(), "status inside a message");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out
                .frame(Http2.HEADERS, Http2.FLAG_END_HEADERS, 1, new byte[] {(byte) 0xbe})).code(), "bad HPACK index");
        assertEquals(GrpcCodes.UNKNOWN, failing(out -> out.headers(0, ":status", "200", "content-type", "text/html"))
                .code(), "not gRPC");
        assertEquals(GrpcCodes.INTERNAL, failing(out -> out.frame(Http2.PUSH_PROMISE, Http2.FLAG_END_HEADERS, 1,
                new byte[] {0, 0, 0, 2})).code(), "push after disabling it");
    }

    @Test
    void shouldRefuseAMessageLargerThanTheLimit() throws Exception {
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"),
                out -> out.responseHeaders().data(0, ScriptedServer.messages(new byte[2000])).trailers(0, null))) {
            CallFailure e = assertThrows(CallFailure.class, () -> UnixGrpcCall.serverStreaming(server.socket, METHOD,
                    new byte[0], 10_000, 1000, collect()));
            assertEquals(GrpcCodes.RESOURCE_EXHAUSTED, e.code());
        }
    }

    @Test
    void shouldGiveUpAtTheDeadlineWhenTheServerSaysNothing() throws Exception {
        CallFailure e;
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"), ScriptedServer.Out::silence)) {
            e = assertThrows(CallFailure.class, () -> call(server, 300));
        }
        assertEquals(GrpcCodes.DEADLINE_EXCEEDED, e.code());
    }

    @Test
    void shouldHandTheSinksFailureBackAndHangUp() throws Exception {
        IOException boom = new IOException("stdout closed");
        try (ScriptedServer server = new ScriptedServer(tmp.resolve("s.sock"), out -> {
            out.responseHeaders().data(0, ScriptedServer.messages(new byte[10], new byte[10]));
            out.silence();
        })) {
            IOException thrown = assertThrows(IOException.class, () -> UnixGrpcCall.serverStreaming(server.socket,
                    METHOD, new byte[0], 30_000, 1000, (b, o, l) -> {
                        throw boom;
                    }));
            assertSame(boom, thrown);
            // The server saw the connection end (its silence() returned), long before the deadline.
            server.clientFrames();
        }
    }

    @Test
    void shouldReportAMissingSocketAsUnavailableWithTheSystemsReason() {
        CallFailure e = assertThrows(CallFailure.class, () -> UnixGrpcCall.serverStreaming(tmp.resolve("none.sock"),
                METHOD, new byte[0], 5_000, 1000, collect()));
        assertEquals(GrpcCodes.UNAVAILABLE, e.code());
        assertTrue(e.detail().toLowerCase().contains("no such file"), e.detail());
    }

    @Test
    void shouldEncodeTimeoutsInAtMostEightDigits() {
        assertEquals("1m", GrpcTimeout.encode(0));
        assertEquals("10000m", GrpcTimeout.encode(10_000));
        assertEquals("99999999m", GrpcTimeout.encode(99_999_999));
        assertEquals("100000S", GrpcTimeout.encode(100_000_000));
        assertEquals("99999999H", GrpcTimeout.encode(Long.MAX_VALUE));
    }

    @Test
    void shouldPercentDecodeGrpcMessages() {
        assertEquals("plain", GrpcHeaders.percentDecode("plain"));
        assertEquals("a%zz b%", GrpcHeaders.percentDecode("a%zz b%"));
        assertEquals("line\nnext é", GrpcHeaders.percentDecode("line%0Anext %C3%A9"));
    }

    @Test
    void shouldRefuseARequestLargerThanOneFrame() {
        ByteArrayOutputStream unused = new ByteArrayOutputStream();
        assertThrows(IllegalArgumentException.class, () -> UnixGrpcCall.serverStreaming(tmp.resolve("x.sock"), METHOD,
                new byte[UnixGrpcCall.maxRequestBytes() + 1], 1000, 1000, (b, o, l) -> unused.write(b, o, l)));
    }
}
