package io.gfxstats.buffer;

/**
 * The shape of one counter group of layout version 2 (see {@link BufferDescriptor}): a prefix of
 * group-specific bytes, then one group stripe per counter stripe (0 shared, 1..N writers), each
 * holding {@code counters32} unsigned 32-bit counters, padding to 8 bytes, and
 * {@code counters64} 64-bit sums, padded to 64 bytes. A group's elements are numbered 0..
 * {@code counters32 + counters64 - 1}: the 32-bit counters first, then the 64-bit sums.
 *
 * @param id          directory id (one per group kind, never reused)
 * @param version     the group's own layout version; readers skip versions they do not know
 * @param name        for messages
 * @param prefixBytes bytes before the first group stripe (padded to 64 in the file)
 * @param counters32  unsigned 32-bit counters per group stripe
 * @param counters64  64-bit sums per group stripe
 */
public record CounterGroup(int id, int version, String name, int prefixBytes, int counters32, int counters64) {
    public CounterGroup {
        if (id <= 0 || version <= 0 || prefixBytes < 0 || counters32 < 0 || counters64 < 0
                || counters32 + counters64 == 0) {
            throw new IllegalArgumentException("bad counter group " + name);
        }
    }

    /** Elements per group stripe (32-bit counters, then 64-bit sums). */
    public int elements() {
        return counters32 + counters64;
    }

    /** Offset of the 64-bit sums inside a group stripe. */
    public int wideOffset() {
        return BufferDescriptor.align(counters32 * Integer.BYTES, Long.BYTES);
    }

    public int stripeLength() {
        return BufferDescriptor.align(wideOffset() + counters64 * Long.BYTES, BufferDescriptor.ALIGNMENT);
    }

    public int alignedPrefix() {
        return BufferDescriptor.align(prefixBytes, BufferDescriptor.ALIGNMENT);
    }

    /** Length of the whole group area in a file with {@code stripeCount} writer stripes. */
    public int length(int stripeCount) {
        return alignedPrefix() + (stripeCount + 1) * stripeLength();
    }

    /** Offset of group stripe {@code stripe} (0 shared, 1..N) from the start of the group area. */
    public int stripeOffset(int stripe) {
        return alignedPrefix() + stripe * stripeLength();
    }

    public boolean isWide(int element) {
        return element >= counters32;
    }

    /** Offset of an element inside a group stripe. */
    public int elementOffset(int element) {
        return element < counters32 ? element * Integer.BYTES
                : wideOffset() + (element - counters32) * Long.BYTES;
    }
}
