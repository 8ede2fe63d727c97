package io.gfxstats.dumpclient.h2;

import java.nio.charset.StandardCharsets;

/**
 * HPACK decoder (RFC 7541) for one connection: static table, dynamic table with eviction,
 * table-size updates, Huffman strings. Every header block the peer sends must pass through it, in
 * order, even blocks the caller does not care about: they change the dynamic table.
 *
 * <p>Field representations, by their first byte:
 * <pre>
 *   1xxxxxxx  indexed field                      (index: 7-bit prefix)
 *   01xxxxxx  literal, added to the table         (name index: 6-bit prefix, 0 = literal name)
 *   001xxxxx  dynamic table size update           (size: 5-bit prefix)
 *   0000xxxx  literal, not added                  (name index: 4-bit prefix)
 *   0001xxxx  literal, never to be added          (name index: 4-bit prefix)
 * </pre>
 */
final class HpackDecoder {
    /** RFC 7541 4.1: each entry costs its name and value octets plus this. */
    static final int ENTRY_OVERHEAD = 32;

    /** What our SETTINGS_HEADER_TABLE_SIZE allows the peer's encoder (the protocol default). */
    private final int maxTableSize;
    private final int maxHeaderListSize;
    private int capacity;
    private int size;
    /** Ring of dynamic entries; {@code newest} is the slot of index 62. */
    private String[] names = new String[16];
    private String[] values = new String[16];
    private int newest = -1;
    private int count;

    HpackDecoder(int maxTableSize, int maxHeaderListSize) {
        this.maxTableSize = maxTableSize;
        this.capacity = maxTableSize;
        this.maxHeaderListSize = maxHeaderListSize;
    }

    /** Decodes one complete header block. */
    HeaderList decode(byte[] block, int offset, int length) throws HpackException {
        HeaderList headers = new HeaderList();
        Cursor in = new Cursor(block, offset, offset + length);
        long listSize = 0;
        boolean fieldSeen = false;
        while (in.hasMore()) {
            int first = in.next();
            String name;
            String value;
            if ((first & 0x80) != 0) {
                int index = in.integer(first, 7);
                name = name(index);
                value = value(index);
            } else if ((first & 0x40) != 0) {
                int index = in.integer(first, 6);
                name = index == 0 ? in.string() : name(index);
                value = in.string();
                add(name, value);
            } else if ((first & 0x20) != 0) {
                // RFC 7541 4.2: only at the start of a block.
                if (fieldSeen) {
                    throw new HpackException("dynamic table size update after a header field");
                }
                int newCapacity = in.integer(first, 5);
                if (newCapacity > maxTableSize) {
                    throw new HpackException("dynamic table size update to " + newCapacity
                            + " exceeds the allowed " + maxTableSize);
                }
                capacity = newCapacity;
                evictTo(capacity);
                continue;
            } else {
                int index = in.integer(first, 4);
                name = index == 0 ? in.string() : name(index);
                value = in.string();
            }
            fieldSeen = true;
            listSize += name.length() + value.length() + ENTRY_OVERHEAD;
            if (listSize > maxHeaderListSize) {
                throw new HpackException("header list larger than " + maxHeaderListSize + " bytes");
            }
            headers.add(name, value);
        }
        return headers;
    }

    /** Entries in the dynamic table (for tests). */
    int dynamicCount() {
        return count;
    }

    /** Octets the dynamic table holds by the RFC's count (for tests). */
    int dynamicSize() {
        return size;
    }

    private String name(int index) throws HpackException {
        if (index >= 1 && index <= HpackStaticTable.LENGTH) {
            return HpackStaticTable.name(index);
        }
        return names[slot(index)];
    }

    private String value(int index) throws HpackException {
        if (index >= 1 && index <= HpackStaticTable.LENGTH) {
            return HpackStaticTable.value(index);
        }
        return values[slot(index)];
    }

    private int slot(int index) throws HpackException {
        int age = index - HpackStaticTable.LENGTH - 1;
        if (index < 1 || age >= count) {
            throw new HpackException("header index " + index + " not in the tables (dynamic entries: " + count + ")");
        }
        return Math.floorMod(newest - age, names.length);
    }

    private void add(String name, String value) {
        int entrySize = name.length() + value.length() + ENTRY_OVERHEAD;
        if (entrySize > capacity) {
            // RFC 7541 4.4: an entry larger than the table empties it and is not added.
            evictTo(0);
            return;
        }
        evictTo(capacity - entrySize);
        if (count == names.length) {
            grow();
        }
        newest = (newest + 1) % names.length;
        names[newest] = name;
        values[newest] = value;
        count++;
        size += entrySize;
    }

    private void evictTo(int limit) {
        while (size > limit) {
            int oldest = Math.floorMod(newest - count + 1, names.length);
            size -= names[oldest].length() + values[oldest].length() + ENTRY_OVERHEAD;
            names[oldest] = null;
            values[oldest] = null;
            count--;
        }
    }

    private void grow() {
        String[] n = new String[names.length * 2];
        String[] v = new String[names.length * 2];
        // Oldest first, so that newest ends at count - 1.
        for (int age = count - 1, i = 0; age >= 0; age--, i++) {
            int from = Math.floorMod(newest - age, names.length);
            n[i] = names[from];
            v[i] = values[from];
        }
        names = n;
        values = v;
        newest = count - 1;
    }

    /** Reading position in a header block. */
    private static final class Cursor {
        private final byte[] bytes;
        private int pos;
        private final int end;

        Cursor(byte[] bytes, int pos, int end) {
            this.bytes = bytes;
            this.pos = pos;
            this.end = end;
        }

        boolean hasMore() {
            return pos < end;
        }

        int next() throws HpackException {
            if (pos >= end) {
                throw new HpackException("header block ends inside a field");
            }
            return bytes[pos++] & 0xff;
        }

        /** RFC 7541 5.1: an N-bit prefix, then 7 bits per byte while the top bit is set. */
        int integer(int first, int prefixBits) throws HpackException {
            int max = (1 << prefixBits) - 1;
            long value = first & max;
            if (value < max) {
                return (int) value;
            }
            int shift = 0;
            int b;
            do {
                b = next();
                value += (long) (b & 0x7f) << shift;
                shift += 7;
                if (value > Integer.MAX_VALUE) {
                    throw new HpackException("header integer overflows");
                }
            } while ((b & 0x80) != 0);
            return (int) value;
        }

        /** RFC 7541 5.2: Huffman bit, 7-bit prefix length, octets. Read as ISO-8859-1, one char per octet. */
        String string() throws HpackException {
            int first = next();
            int length = integer(first, 7);
            if (length > end - pos) {
                throw new HpackException("header string of " + length + " bytes runs past the block");
            }
            int start = pos;
            pos += length;
            if ((first & 0x80) != 0) {
                byte[] decoded = Huffman.decode(bytes, start, length);
                return new String(decoded, StandardCharsets.ISO_8859_1);
            }
            return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
        }
    }
}
