package io.gfxstats.dumpclient.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HpackDecoderTest {
    private final HpackDecoder decoder = new HpackDecoder(4096, 64 * 1024);

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private HeaderList decode(String hex) throws HpackException {
        byte[] b = hex(hex);
        return decoder.decode(b, 0, b.length);
    }

    private static List<String[]> fields(HeaderList h) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < h.size(); i++) {
            out.add(new String[] {h.name(i), h.value(i)});
        }
        return out;
    }

    private static void assertFields(List<String[]> expected, HeaderList actual) {
        List<String[]> got = fields(actual);
        assertEquals(expected.size(), got.size(), actual.toString());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), "field " + i + " of " + actual);
        }
    }

    private static String[] f(String name, String value) {
        return new String[] {name, value};
    }

    @Test
    void shouldDecodeTheRfcRequestExamplesWithoutHuffmanSharingTheDynamicTable() throws Exception {
        // RFC 7541 C.3: three requests on one connection.
        assertFields(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"), f(":authority", "www.example.com")),
                decode("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d"));
        assertEquals(57, decoder.dynamicSize());
        assertFields(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"), f(":authority", "www.example.com"),
                f("cache-control", "no-cache")), decode("8286 84be 5808 6e6f 2d63 6163 6865"));
        assertEquals(110, decoder.dynamicSize());
        assertFields(List.of(f(":method", "GET"), f(":scheme", "https"), f(":path", "/index.html"),
                f(":authority", "www.example.com"), f("custom-key", "custom-value")),
                decode("8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"));
        assertEquals(164, decoder.dynamicSize());
        assertEquals(3, decoder.dynamicCount());
    }

    @Test
    void shouldDecodeTheRfcRequestExamplesWithHuffman() throws Exception {
        // RFC 7541 C.4: the same requests, strings Huffman-coded.
        assertFields(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"), f(":authority", "www.example.com")),
                decode("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"));
        assertFields(List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"), f(":authority", "www.example.com"),
                f("cache-control", "no-cache")), decode("8286 84be 5886 a8eb 1064 9cbf"));
        assertFields(List.of(f(":method", "GET"), f(":scheme", "https"), f(":path", "/index.html"),
                f(":authority", "www.example.com"), f("custom-key", "custom-value")),
                decode("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"));
        assertEquals(164, decoder.dynamicSize());
    }

    @Test
    void shouldDecodeEveryBlockNettysEncoderWritesOnOneConnection() throws Exception {
        Random random = new Random(42);
        for (int threshold : new int[] {0, 512}) {
            HpackDecoder ours = new HpackDecoder(4096, 1 << 20);
            List<String[]> seen = new ArrayList<>();
            NettyHpack netty = new NettyHpack(threshold, Set.of("authorization"));
            for (int block = 0; block < 300; block++) {
                if (block % 50 == 25) {
                    // Shrinks the table (evicting everything above the new size), then grows it back.
                    netty.maxTableSize(block % 100 == 25 ? 200 : 4096);
                }
                List<String[]> fields = randomFields(random);
                // Fields sent before come back as references into the dynamic table (if still there).
                for (int i = 0; i < fields.size() && !seen.isEmpty(); i++) {
                    if (random.nextInt(3) == 0) {
                        fields.set(i, seen.get(random.nextInt(seen.size())));
                    }
                }
                seen.addAll(fields);
                byte[] encoded = netty.encode(fields);
                assertFields(nettyOrder(fields), ours.decode(encoded, 0, encoded.length));
            }
        }
    }

    /** Netty's header map sends pseudo-headers first, otherwise in insertion order. */
    private static List<String[]> nettyOrder(List<String[]> fields) {
        List<String[]> ordered = new ArrayList<>();
        fields.stream().filter(x -> x[0].startsWith(":")).forEach(ordered::add);
        fields.stream().filter(x -> !x[0].startsWith(":")).forEach(ordered::add);
        return ordered;
    }

    private static List<String[]> randomFields(Random random) {
        String[] names = {":status", "content-type", "grpc-status", "grpc-message", "authorization", "x-custom",
            "grpc-encoding", "date", "server"};
        List<String[]> fields = new ArrayList<>();
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            String name = names[random.nextInt(names.length)];
            int length = random.nextInt(10) == 0 ? 200 + random.nextInt(800) : random.nextInt(20);
            StringBuilder value = new StringBuilder();
            for (int c = 0; c < length; c++) {
                // Printable ASCII plus a few bytes with long Huffman codes.
                value.append(random.nextInt(20) == 0 ? (char) (0x80 + random.nextInt(0x80)) : (char) (0x20 + random.nextInt(0x5f)));
            }
            fields.add(new String[] {name, value.toString()});
        }
        return fields;
    }

    @Test
    void shouldUseTheRfcHuffmanTable() throws Exception {
        Class<?> util = Class.forName("io.grpc.netty.shaded.io.netty.handler.codec.http2.HpackUtil");
        Field codes = util.getDeclaredField("HUFFMAN_CODES");
        Field lengths = util.getDeclaredField("HUFFMAN_CODE_LENGTHS");
        codes.setAccessible(true);
        lengths.setAccessible(true);
        assertArrayEquals((int[]) codes.get(null), Huffman.CODES);
        assertArrayEquals((byte[]) lengths.get(null), Huffman.LENGTHS);
    }

    @Test
    void shouldRejectHuffmanStringsTheRfcCallsErrors() {
        // 'a' is 00011 (5 bits); then padding.
        assertEquals("a", new String(assertDoesNotThrowDecode(hex("1f")), java.nio.charset.StandardCharsets.ISO_8859_1));
        assertThrows(HpackException.class, () -> Huffman.decode(hex("18"), 0, 1), "padding of zeros");
        assertThrows(HpackException.class, () -> Huffman.decode(hex("1fff"), 0, 2), "padding of 11 bits");
        assertThrows(HpackException.class, () -> Huffman.decode(hex("ffff fffc"), 0, 4), "end-of-string symbol");
    }

    private static byte[] assertDoesNotThrowDecode(byte[] b) {
        try {
            return Huffman.decode(b, 0, b.length);
        } catch (HpackException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldRejectMalformedBlocks() {
        assertThrows(HpackException.class, () -> decode("80"), "index 0");
        assertThrows(HpackException.class, () -> decode("be"), "dynamic index with an empty table");
        assertThrows(HpackException.class, () -> decode("410f 7777"), "string longer than the block");
        assertThrows(HpackException.class, () -> decode("41"), "block ends inside a field");
        assertThrows(HpackException.class, () -> decode("3fe2 1f"), "table size above the allowed 4096");
        assertThrows(HpackException.class, () -> decode("82 20"), "table size update after a field");
        assertThrows(HpackException.class, () -> decode("ff ff ff ff ff 0f"), "integer overflow");
        HpackDecoder small = new HpackDecoder(4096, 100);
        byte[] big = hex("400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65".repeat(3).replace("  ", " "));
        HpackException e = assertThrows(HpackException.class, () -> small.decode(big, 0, big.length));
        assertTrue(e.getMessage().contains("header list larger"), e.getMessage());
    }

    @Test
    void shouldEmptyTheTableForAnEntryLargerThanIt() throws Exception {
        // Table size 40 (31 + 9), then a:b (34 octets) is added.
        assertFields(List.<String[]>of(f("a", "b")), decode("3f09 4001 6101 62"));
        assertEquals(1, decoder.dynamicCount());
        // custom-key: custom-value costs 54 > 40: the table empties and the field is still decoded.
        assertFields(List.<String[]>of(f("custom-key", "custom-value")),
                decode("400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"));
        assertEquals(0, decoder.dynamicCount());
        assertEquals(0, decoder.dynamicSize());
    }

    @Test
    void shouldWriteBlocksNettyDecodes() throws Exception {
        String longValue = "x".repeat(300);
        byte[] block = new HeaderBlockWriter().add(":method", "POST").add(":path", "/gfxstats.v1.GfxStats/Dump")
                .add("grpc-timeout", "10000m").add("x-long", longValue).toByteArray();
        List<String[]> decoded = NettyHpack.decode(block);
        assertEquals(4, decoded.size());
        assertArrayEquals(f(":method", "POST"), decoded.get(0));
        assertArrayEquals(f(":path", "/gfxstats.v1.GfxStats/Dump"), decoded.get(1));
        assertArrayEquals(f("grpc-timeout", "10000m"), decoded.get(2));
        assertArrayEquals(f("x-long", longValue), decoded.get(3));
        assertFields(decoded, decoder.decode(block, 0, block.length));
    }
}
