package io.gfxstats.buffer;

/**
 * Layout of the client health group (id 3, version 1) of buffer layout 2 (docs/buffer-format.md
 * "Client health group"): what a client could not count, so that a loss is visible in the
 * daemon instead of silent.
 *
 * <pre>
 *  No prefix.
 *  Group stripe s (one writer, the writer of counter stripe s; 64 bytes):
 *  +---------------------------------------------------------------+
 *  |  u32 frames dropped because the tracker's frame ring was full |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Written by the drain that counts the tracker's frames (the stripe's single writer), from
 * the ring's drop count, so that it moves with the rest of the counter vector at handover,
 * counting before attach and harvest.
 */
public final class ClientHealthGroup {
    public static final int ID = 3;
    public static final int VERSION = 1;
    /** Element: frames a recording thread dropped because its ring was full (the drain lagged a whole ring). */
    public static final int RING_DROPPED = 0;
    public static final int COUNTERS = 1;
    public static final CounterGroup GROUP = new CounterGroup(ID, VERSION, "client health", 0, COUNTERS, 0);

    private ClientHealthGroup() {
    }

    /** Index in the counter vector ({@link CounterGroups}) of element {@code element}. */
    public static int vectorIndex(int element) {
        return CounterGroups.vectorOffset(GROUP) + element;
    }

    /** Frames dropped by full rings, from a counter vector (0 for a vector of an older layout). */
    public static long ringDropped(long[] vector) {
        int i = vectorIndex(RING_DROPPED);
        return i < vector.length ? vector[i] : 0;
    }
}
