package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;

import java.util.Objects;

/**
 * Where one writer's counter groups ({@link CounterGroups#KNOWN}, in that order) are, and access
 * to them as entries of the counter vector. Off the per-frame path: used to read a writer's own
 * counts and to move counts between stripes at a handover ({@link StripeWriter#contributionOf},
 * {@link StripeWriter#addElement}).
 *
 * <p>For each group two addresses: the group stripe in the buffer, which readers sum (0 when the
 * buffer lacks the group or the writer counts in memory), and the record of this writer's own
 * counts, which is that same stripe for an exclusive writer and private memory for a shared or
 * in-memory one (0 when the writer does not count the group).
 */
final class GroupStripes {
    static final int GROUPS = CounterGroups.KNOWN.size();
    static final int SCENES = CounterGroups.KNOWN.indexOf(CounterGroups.SCENES);
    static final int TIMELINE = CounterGroups.KNOWN.indexOf(CounterGroups.FRAMETIMELINE);

    private final long[] address = new long[GROUPS];
    private final long[] record = new long[GROUPS];
    private final boolean shared;

    private GroupStripes(boolean shared) {
        this.shared = shared;
    }

    /** An exclusive writer's groups: its own counts are the group stripes themselves. */
    static GroupStripes inBuffer(long[] groupAddresses) {
        GroupStripes g = new GroupStripes(false);
        for (int i = 0; i < GROUPS; i++) {
            g.address[i] = groupAddresses[i];
            g.record[i] = groupAddresses[i];
        }
        return g;
    }

    /**
     * A writer whose own counts are in private memory from {@code start} on (laid out in
     * {@link CounterGroups#KNOWN} order, {@link #privateBytes} long): a shared writer of the
     * buffer's groups ({@code groupAddresses}), or an in-memory one with every group (null).
     */
    static GroupStripes inPrivateMemory(long start, long[] groupAddresses, boolean shared) {
        GroupStripes g = new GroupStripes(shared);
        long next = start;
        for (int i = 0; i < GROUPS; i++) {
            if (groupAddresses == null || groupAddresses[i] != 0) {
                g.record[i] = next;
                next += CounterGroups.KNOWN.get(i).stripeLength();
                g.address[i] = groupAddresses == null ? 0 : groupAddresses[i];
            }
        }
        return g;
    }

    /** Bytes of private memory the groups of {@link #inPrivateMemory} take. */
    static int privateBytes(long[] groupAddresses) {
        int bytes = 0;
        for (int i = 0; i < GROUPS; i++) {
            if (groupAddresses == null || groupAddresses[i] != 0) {
                bytes += CounterGroups.KNOWN.get(i).stripeLength();
            }
        }
        return bytes;
    }

    long address(int group) {
        return address[group];
    }

    long record(int group) {
        return record[group];
    }

    boolean has(int group) {
        return record[group] != 0;
    }

    /** This writer's own value of vector entry {@code element} of a group (a counter as unsigned 32-bit); 0 if absent. */
    long contributionOf(int element) {
        int g = group(element);
        if (record[g] == 0) {
            return 0;
        }
        CounterGroup group = CounterGroups.KNOWN.get(g);
        int e = element - CounterGroups.vectorOffset(g);
        long at = record[g] + group.elementOffset(e);
        return group.isWide(e) ? BufferMemory.readVolatileLong(at) : Integer.toUnsignedLong(BufferMemory.readVolatileInt(at));
    }

    /** Adds {@code delta} to vector entry {@code element} of a group (ordered store); nothing if absent. */
    void add(int element, long delta) {
        int g = group(element);
        if (record[g] == 0 || delta == 0) {
            return;
        }
        CounterGroup group = CounterGroups.KNOWN.get(g);
        int e = element - CounterGroups.vectorOffset(g);
        int offset = group.elementOffset(e);
        long r = record[g] + offset;
        if (group.isWide(e)) {
            if (shared) {
                BufferMemory.addLong(address[g] + offset, delta);
            }
            BufferMemory.writeOrderedLong(r, BufferMemory.readLong(r) + delta);
        } else {
            if (shared) {
                BufferMemory.addInt(address[g] + offset, (int) delta);
            }
            BufferMemory.writeOrderedInt(r, BufferMemory.readInt(r) + (int) delta);
        }
    }

    /** The known group a vector entry beyond the {@link Counters} belongs to. */
    private static int group(int element) {
        Objects.checkIndex(element - Counters.COUNT, CounterGroups.VECTOR_LENGTH - Counters.COUNT);
        int g = GROUPS - 1;
        while (CounterGroups.vectorOffset(g) > element) {
            g--;
        }
        return g;
    }
}
