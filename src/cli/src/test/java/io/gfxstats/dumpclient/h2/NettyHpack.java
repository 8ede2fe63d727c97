package io.gfxstats.dumpclient.h2;

import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.ByteBufUtil;
import io.grpc.netty.shaded.io.netty.buffer.Unpooled;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Netty's HPACK (the one the daemon's gRPC server uses, shaded in grpc-netty-shaded) as an
 * independent peer for our decoder and encoder.
 */
final class NettyHpack {
    private final DefaultHttp2HeadersEncoder encoder;

    /**
     * @param huffmanThreshold strings at least this long are Huffman-coded when that is shorter
     *     (Netty's servers use 512; 0 codes every string)
     * @param neverIndexed names sent as never-indexed literals
     */
    NettyHpack(int huffmanThreshold, Set<String> neverIndexed) {
        encoder = new DefaultHttp2HeadersEncoder((name, value) -> neverIndexed.contains(name.toString()), false, 16,
                huffmanThreshold);
    }

    /** The next header block of this connection, as Netty encodes it. */
    byte[] encode(List<String[]> fields) throws Http2Exception {
        Http2Headers headers = new DefaultHttp2Headers(false);
        for (String[] f : fields) {
            headers.add(f[0], f[1]);
        }
        ByteBuf out = Unpooled.buffer();
        encoder.encodeHeaders(3, headers, out);
        return ByteBufUtil.getBytes(out);
    }

    /** Makes the next block start with a table size update (as after a SETTINGS change). */
    void maxTableSize(long size) throws Http2Exception {
        encoder.maxHeaderTableSize(size);
    }

    /** Decodes one block with Netty's decoder (a fresh connection). */
    static List<String[]> decode(byte[] block) throws Http2Exception {
        DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);
        Http2Headers headers = decoder.decodeHeaders(1, Unpooled.wrappedBuffer(block));
        List<String[]> fields = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            fields.add(new String[] {e.getKey().toString(), e.getValue().toString()});
        }
        return fields;
    }
}
