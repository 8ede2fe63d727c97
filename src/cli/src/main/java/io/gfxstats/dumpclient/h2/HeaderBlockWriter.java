package io.gfxstats.dumpclient.h2;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Encodes request headers as HPACK literals that are never indexed and never Huffman-coded: valid
 * for every decoder, and leaves the peer's dynamic table alone. A request has a handful of short
 * fields; compressing them would save nothing worth the code.
 */
final class HeaderBlockWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

    HeaderBlockWriter add(String name, String value) {
        // 0000 0000: literal without indexing, literal name.
        out.write(0);
        string(name);
        string(value);
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    private void string(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        integer(bytes.length, 7, 0);
        out.write(bytes, 0, bytes.length);
    }

    /** RFC 7541 5.1 with the bits above the prefix in {@code high}. */
    private void integer(int value, int prefixBits, int high) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(high | value);
            return;
        }
        out.write(high | max);
        int rest = value - max;
        while (rest >= 0x80) {
            out.write((rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write(rest);
    }
}
