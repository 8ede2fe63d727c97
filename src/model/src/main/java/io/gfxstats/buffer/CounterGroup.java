package io.gfxstats.buffer;

import java.util.Arrays;
import java.util.BitSet;
import java.util.function.IntPredicate;

/**
 * The shape of one counter group of layout version 2 (see {@link BufferDescriptor}): a prefix of
 * group-specific bytes, then one group stripe per counter stripe (0 shared, 1..N writers), each
 * holding {@code counters32} unsigned 32-bit counters, padding to 8 bytes, and
 * {@code counters64} 64-bit sums, padded to 64 bytes.
 *
 * <p>A group's <em>elements</em> are its entries in the counter vector ({@link CounterGroups}),
 * numbered 0..{@link #elements()}-1. Usually they are the stripe's words in order (the 32-bit
 * counters, then the 64-bit sums). A later version of a group may store some elements elsewhere
 * or wider (scene group version 2 keeps the level sums in 64 bits) while its elements keep their
 * numbers: day-file marks and handovers hold vectors of the previous release, so the vector's
 * meaning must not change with the group's layout in the file.
 */
public final class CounterGroup {
    private final int id;
    private final int version;
    private final String name;
    private final int prefixBytes;
    private final int counters32;
    private final int counters64;
    /** Per element: its offset in a group stripe times 2, plus 1 when it is a 64-bit word. */
    private final int[] placement;
    /** The elements a snapshot takes from its second copy of the file ({@link #readsLate}). */
    private final BitSet late;

    /**
     * A group whose elements are its stripe's words in order: the 32-bit counters, then the
     * 64-bit sums.
     *
     * @param id          directory id (one per group kind, never reused)
     * @param version     the group's own layout version; readers skip versions they do not know
     * @param name        for messages
     * @param prefixBytes bytes before the first group stripe (padded to 64 in the file)
     * @param counters32  unsigned 32-bit counters per group stripe
     * @param counters64  64-bit sums per group stripe
     */
    public CounterGroup(int id, int version, String name, int prefixBytes, int counters32, int counters64) {
        this(id, version, name, prefixBytes, counters32, counters64, inOrder(counters32, counters64));
    }

    /**
     * A group with its own numbering of elements: {@code placement[e]} is element e's offset in
     * a group stripe times 2, plus 1 for a 64-bit word. Every word of the stripe is exactly one
     * element.
     */
    CounterGroup(int id, int version, String name, int prefixBytes, int counters32, int counters64, int[] placement) {
        this(id, version, name, prefixBytes, counters32, counters64, placement, new BitSet());
    }

    private CounterGroup(int id, int version, String name, int prefixBytes, int counters32, int counters64,
            int[] placement, BitSet late) {
        if (id <= 0 || version <= 0 || prefixBytes < 0 || counters32 < 0 || counters64 < 0
                || counters32 + counters64 == 0 || placement.length != counters32 + counters64) {
            throw new IllegalArgumentException("bad counter group " + name);
        }
        this.id = id;
        this.version = version;
        this.name = name;
        this.prefixBytes = prefixBytes;
        this.counters32 = counters32;
        this.counters64 = counters64;
        this.placement = placement.clone();
        this.late = (BitSet) late.clone();
        int[] words = new int[counters32 + counters64];
        for (int p : this.placement) {
            int offset = p >>> 1;
            boolean wide = (p & 1) != 0;
            int word = wide ? counters32 + (offset - wideOffset()) / Long.BYTES : offset / Integer.BYTES;
            boolean aligned = wide ? offset >= wideOffset() && (offset - wideOffset()) % Long.BYTES == 0
                    : offset % Integer.BYTES == 0;
            if (!aligned || word < 0 || word >= words.length || (wide ? word < counters32 : word >= counters32)
                    || words[word]++ != 0) {
                throw new IllegalArgumentException("bad element placement in counter group " + name);
            }
        }
    }

    /**
     * This group, with the elements {@code late} accepts read from a snapshot's second copy of
     * the file: totals that a writer counts before the counters they cover. Read after those counters
     * a total is never below them; read before them (the first copy) it could be, by the frames
     * counted between the two reads (docs/buffer-format.md, "Reading").
     */
    CounterGroup readingLate(IntPredicate late) {
        BitSet elements = new BitSet(placement.length);
        for (int e = 0; e < placement.length; e++) {
            elements.set(e, late.test(e));
        }
        return new CounterGroup(id, version, name, prefixBytes, counters32, counters64, placement, elements);
    }

    private static int[] inOrder(int counters32, int counters64) {
        int[] p = new int[Math.max(0, counters32) + Math.max(0, counters64)];
        int wide = BufferDescriptor.align(counters32 * Integer.BYTES, Long.BYTES);
        for (int e = 0; e < p.length; e++) {
            p[e] = e < counters32 ? e * Integer.BYTES << 1 : (wide + (e - counters32) * Long.BYTES) << 1 | 1;
        }
        return p;
    }

    public int id() {
        return id;
    }

    public int version() {
        return version;
    }

    public String name() {
        return name;
    }

    public int prefixBytes() {
        return prefixBytes;
    }

    /** Unsigned 32-bit counters per group stripe. */
    public int counters32() {
        return counters32;
    }

    /** 64-bit sums per group stripe. */
    public int counters64() {
        return counters64;
    }

    /** Elements per group stripe: its entries in the counter vector. */
    public int elements() {
        return placement.length;
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

    /** Whether element {@code element} is a 64-bit word in the stripe (else an unsigned 32-bit one). */
    public boolean isWide(int element) {
        return (placement[element] & 1) != 0;
    }

    /** Offset of an element inside a group stripe. */
    public int elementOffset(int element) {
        return placement[element] >>> 1;
    }

    /**
     * Whether a snapshot takes 32-bit element {@code element} from its second copy of the file
     * ({@link #readingLate}).
     */
    public boolean readsLate(int element) {
        return late.get(element);
    }

    /** Whether {@code other} numbers the same elements (a version of this group a reader can sum into the same vector entries). */
    boolean sameElements(CounterGroup other) {
        return id == other.id && placement.length == other.placement.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CounterGroup g && id == g.id && version == g.version && name.equals(g.name)
                && prefixBytes == g.prefixBytes && counters32 == g.counters32 && counters64 == g.counters64
                && Arrays.equals(placement, g.placement) && late.equals(g.late);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * id + version) + Arrays.hashCode(placement);
    }

    @Override
    public String toString() {
        return name + " (group " + id + " version " + version + ")";
    }
}
